/// Transport attributes of one media section, resolved the way RFC 9143 §7 and RFC 8839 §5 allow:
/// from the section itself, else from the BUNDLE-tagged section, else from session level.
public struct TransportAttributes: Sendable, Equatable {
    /// `a=ice-ufrag`.
    public var ufrag: String?
    /// `a=ice-pwd`.
    public var pwd: String?
    /// `a=fingerprint` lines.
    public var fingerprints: [Fingerprint]
    /// `a=setup`.
    public var setup: SetupRole?
    /// `a=ice-options` tokens.
    public var iceOptions: [String]

    static func resolve(in description: SessionDescription, index: Int) -> TransportAttributes {
        let media = description.media[index]
        var sources: [any AttributeContainer] = [media]
        if let mid = media.mid, let group = description.bundleGroups.first(where: { $0.mids.contains(mid) }),
           let taggedMid = group.mids.first, taggedMid != mid, let tagged = description.media(mid: taggedMid) {
            sources.append(tagged)
        }
        sources.append(description)
        func first<T>(_ get: (any AttributeContainer) -> T?) -> T? {
            for source in sources { if let value = get(source) { return value } }
            return nil
        }
        func firstList<T>(_ get: (any AttributeContainer) -> [T]) -> [T] {
            for source in sources { let list = get(source); if !list.isEmpty { return list } }
            return []
        }
        return TransportAttributes(ufrag: first { $0.iceUfrag }, pwd: first { $0.icePwd },
                                   fingerprints: firstList { $0.fingerprints }, setup: first { $0.setup },
                                   iceOptions: firstList { $0.iceOptions })
    }
}

extension SessionDescription {
    /// The transport attributes that apply to the media section at `index` (section, then its BUNDLE-tagged
    /// section, then session level). Useful before an exchange completes, e.g. to start ICE on a remote offer.
    public func transportAttributes(forMediaAt index: Int) -> TransportAttributes? {
        media.indices.contains(index) ? TransportAttributes.resolve(in: self, index: index) : nil
    }

    /// The index of the section that carries the bundled transport: the first mid of the first BUNDLE
    /// group, else the first section with a non-zero port.
    public var transportMediaIndex: Int? {
        if let tagged = bundleGroups.first?.mids.first, let index = media.firstIndex(where: { $0.mid == tagged }) {
            return index
        }
        return media.firstIndex { !$0.isRejected }
    }
}
