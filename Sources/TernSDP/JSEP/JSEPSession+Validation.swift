extension JSEPSession {
    /// Every section we would use needs ICE credentials and a fingerprint, directly, through its BUNDLE-tagged
    /// section, or at session level (RFC 8839 §5.4, RFC 8842 §5). With max-bundle we use only the sections of
    /// the first BUNDLE group (or, without one, the first section with a port), so others need nothing: Firefox
    /// writes stopped sections without ICE attributes, sometimes even with a non-zero port outside the group.
    func validateTransport(_ description: SessionDescription) throws(JSEPError) {
        try validateBundleGroups(description)
        // draft-hancke-tsvwg-snap §5.4: a value that is not base64, or not an INIT, is an error.
        for section in description.media {
            guard let value = section.firstValue(named: SCTPInitAttribute.name) else { continue }
            do throws(SCTPInitAttribute.Invalid) { _ = try SCTPInitAttribute.chunk(in: value) } catch {
                throw JSEPError(.operation, "\(error) (mid \(section.mid ?? "?"))")
            }
        }
        let bundled = description.bundleGroups.first.map { Set($0.mids) }
        for (index, section) in description.media.enumerated() {
            let used: Bool
            if let bundled {
                used = section.mid.map(bundled.contains) ?? false
            } else {
                used = description.media.firstIndex(where: { !$0.isRejected }) == index
            }
            guard used, !section.isRejected || section.isBundleOnly else { continue }
            let transport = TransportAttributes.resolve(in: description, index: index)
            let name = section.mid.map { "mid \($0)" } ?? "m= section \(index)"
            guard transport.ufrag != nil, transport.pwd != nil else {
                throw JSEPError(.invalidAccess, "\(name) has no a=ice-ufrag/a=ice-pwd")
            }
            guard !transport.fingerprints.isEmpty else {
                throw JSEPError(.invalidAccess, "\(name) has no a=fingerprint")
            }
        }
    }

    /// RFC 9143 §7.2 / §9.1: each mid of a BUNDLE group names an m= section of the description, and
    /// appears in one group once. Browsers refuse both; accepting them would leave which section
    /// carries the bundle's transport to guesswork.
    func validateBundleGroups(_ description: SessionDescription) throws(JSEPError) {
        let mids = Set(description.media.compactMap(\.mid))
        var grouped: Set<String> = []
        for group in description.bundleGroups {
            let line = "a=group:\(group.semantics) \(group.mids.joined(separator: " "))"
            for mid in group.mids {
                guard mids.contains(mid) else {
                    throw JSEPError(.invalidAccess, "`\(line.prefix(200))` names mid \(mid.prefix(64)), which no m= section has")
                }
                guard grouped.insert(mid).inserted else {
                    throw JSEPError(.invalidAccess, "`\(line.prefix(200))` names mid \(mid.prefix(64)) twice (or in two BUNDLE groups)")
                }
            }
        }
    }
}
