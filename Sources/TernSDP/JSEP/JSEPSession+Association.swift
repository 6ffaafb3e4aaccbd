extension JSEPSession {
    /// Matches remote offer sections to slots (RFC 9429 §5.10): existing sections keep their position and mid;
    /// new ones take an unassociated local transceiver of the same kind or create a `recvonly` one. A section
    /// whose slot is dead (stopped transceiver, unusable section) may come back with a new mid: the remote side
    /// recycled it (RFC 9429 §5.2.2, as Chromium does) and it is associated afresh.
    mutating func associate(offer: SessionDescription) throws(JSEPError) {
        guard offer.media.count >= slots.count else {
            throw JSEPError(.invalidAccess, "the offer has \(offer.media.count) m= sections, \(slots.count) were negotiated")
        }
        for (index, section) in offer.media.enumerated() {
            let mid = section.mid ?? (index < slots.count ? slots[index].mid : String(index))
            if index < slots.count, mid == slots[index].mid { continue }
            if slots.enumerated().contains(where: { $0.offset != index && $0.element.mid == mid }) {
                throw JSEPError(.invalidAccess, "mid \(mid) is used by two m= sections")
            }
            if index < slots.count {
                guard isDead(slots[index]) else {
                    throw JSEPError(.invalidAccess, "m= section \(index) has mid \(mid), it was \(slots[index].mid)")
                }
                slots[index] = newSlot(for: section, mid: mid)
            } else {
                slots.append(newSlot(for: section, mid: mid))
            }
        }
    }

    /// True when a slot can be recycled: its transceiver is stopped or the section was never usable.
    func isDead(_ slot: Slot) -> Bool {
        switch slot.content {
        case .transceiver(let t): transceivers[t].isStopped
        case .unsupported: true
        case .data: false
        }
    }

    /// The slot for a section the remote side added (or recycled).
    mutating func newSlot(for section: MediaDescription, mid: String) -> Slot {
        if let kind = MediaKind(rawValue: section.kind), section.mediaLine.isRTP {
            if let t = transceivers.indices.first(where: {
                transceivers[$0].kind == kind && transceivers[$0].mid == nil && !transceivers[$0].isStopped
                    && !transceivers[$0].createdByRemote
            }) {
                transceivers[t].mid = mid
                return Slot(mid: mid, content: .transceiver(t))
            }
            var created = Transceiver(kind: kind, direction: .recvonly)
            created.createdByRemote = true
            created.mid = mid
            transceivers.append(created)
            return Slot(mid: mid, content: .transceiver(transceivers.count - 1))
        }
        if section.isDataChannel, !slots.contains(where: { $0.content == .data }) {
            return Slot(mid: mid, content: .data)
        }
        return Slot(mid: mid, content: .unsupported(section.mediaLine))
    }
}
