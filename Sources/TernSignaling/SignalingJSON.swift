#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON coders used for every frame of protocol v1 (Docs/SIGNALING.md).
///
/// Keys are sorted so a frame's text is stable (tests compare text, logs diff cleanly).
enum SignalingJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func decoder() -> JSONDecoder { JSONDecoder() }
}
