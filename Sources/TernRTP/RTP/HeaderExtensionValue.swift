/// A typed header-extension value for the extensions WebRTC negotiates.
public enum HeaderExtensionValue: Sendable, Equatable {
    /// `urn:ietf:params:rtp-hdrext:sdes:mid` (RFC 8843 §15): the MID as text.
    case mid(String)
    /// `urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id` (RFC 8852 §3.1).
    case rtpStreamID(String)
    /// `urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id` (RFC 8852 §3.2).
    case repairedRTPStreamID(String)
    /// abs-send-time: 24-bit 6.18 fixed-point seconds (the NTP time's middle bits, truncated).
    case absSendTime(UInt32)
    /// Transport-wide sequence number (draft-holmer-rmcat-transport-wide-cc-extensions-01 §2).
    case transportSequenceNumber(UInt16)
    /// RFC 6464 §3: voice activity flag and level in -dBov (0...127, 127 = silence).
    case audioLevel(voiceActivity: Bool, level: UInt8)

    /// The URI this value is carried under.
    public var uri: RTPHeaderExtensionURI {
        switch self {
        case .mid: .mid
        case .rtpStreamID: .rtpStreamID
        case .repairedRTPStreamID: .repairedRTPStreamID
        case .absSendTime: .absSendTime
        case .transportSequenceNumber: .transportWideCC
        case .audioLevel: .audioLevel
        }
    }

    /// The element value bytes.
    public var encoded: [UInt8] {
        switch self {
        case let .mid(text), let .rtpStreamID(text), let .repairedRTPStreamID(text):
            Array(text.utf8)
        case let .absSendTime(value):
            [UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        case let .transportSequenceNumber(seq):
            [UInt8(truncatingIfNeeded: seq >> 8), UInt8(truncatingIfNeeded: seq)]
        case let .audioLevel(voiceActivity, level):
            [(voiceActivity ? 0x80 : 0) | (level & 0x7F)]
        }
    }

    /// Converts an abs-send-time value from seconds (wrapping every 64 s).
    public static func absSendTime(seconds: Double) -> HeaderExtensionValue {
        let fixed = UInt64((seconds * 262_144).rounded(.down)) & 0xFF_FFFF
        return .absSendTime(UInt32(fixed))
    }
}

extension RTPPacket {
    /// The raw element value for `uri` under the negotiated `map`.
    public func headerExtensionValue(_ uri: RTPHeaderExtensionURI, map: HeaderExtensionMap) -> ArraySlice<UInt8>? {
        guard let ext = headerExtension, let id = map.id(for: uri) else { return nil }
        return ext.value(forID: id)
    }

    /// The MID (RFC 8843), if the packet carries it.
    public func mid(map: HeaderExtensionMap) -> String? {
        headerExtensionValue(.mid, map: map).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The RTPStreamId (RFC 8852), if present.
    public func rtpStreamID(map: HeaderExtensionMap) -> String? {
        headerExtensionValue(.rtpStreamID, map: map).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The RepairedRTPStreamId (RFC 8852), if present.
    public func repairedRTPStreamID(map: HeaderExtensionMap) -> String? {
        headerExtensionValue(.repairedRTPStreamID, map: map).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The 24-bit abs-send-time, if present and 3 bytes long.
    public func absSendTime(map: HeaderExtensionMap) -> UInt32? {
        guard let v = headerExtensionValue(.absSendTime, map: map), v.count == 3 else { return nil }
        let i = v.startIndex
        return UInt32(v[i]) << 16 | UInt32(v[i + 1]) << 8 | UInt32(v[i + 2])
    }

    /// The transport-wide sequence number, if present and 2 bytes long.
    public func transportSequenceNumber(map: HeaderExtensionMap) -> UInt16? {
        guard let v = headerExtensionValue(.transportWideCC, map: map), v.count >= 2 else { return nil }
        let i = v.startIndex
        return UInt16(v[i]) << 8 | UInt16(v[i + 1])
    }

    /// The RFC 6464 audio level, if present.
    public func audioLevel(map: HeaderExtensionMap) -> (voiceActivity: Bool, level: UInt8)? {
        guard let v = headerExtensionValue(.audioLevel, map: map), let byte = v.first else { return nil }
        return (byte & 0x80 != 0, byte & 0x7F)
    }

    /// Replaces the header extension block with `values`, using the ids of `map`;
    /// values whose URI is not in the map are left out (they were not negotiated).
    public mutating func setHeaderExtensions(_ values: [HeaderExtensionValue], map: HeaderExtensionMap) {
        let elements = values.compactMap { value -> RTPHeaderExtensionElement? in
            guard let id = map.id(for: value.uri) else { return nil }
            return RTPHeaderExtensionElement(id: id, value: value.encoded)
        }
        headerExtension = elements.isEmpty ? nil : RTPHeaderExtension(elements: elements)
    }
}
