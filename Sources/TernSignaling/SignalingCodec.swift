#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns frames into messages and back. Every decoding failure becomes the
/// `SignalingError` the server answers with, so the router never sees bad input.
public enum SignalingCodec {
    /// Encodes one message as the text of one WebSocket frame.
    public static func encode(_ message: SignalingMessage) -> String {
        // Encoding our own value types cannot fail (only strings, numbers, arrays, objects).
        guard let data = try? SignalingJSON.encoder().encode(message) else {
            return #"{"code":"internal","message":"encoding failed","type":"error"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes the text of one frame, at most `maxBytes` long.
    public static func decode(_ text: String, maxBytes: Int = SignalingLimits().maxFrameBytes)
        throws(SignalingError) -> SignalingMessage
    {
        let byteCount = text.utf8.count
        guard byteCount <= maxBytes else {
            throw SignalingError(code: .frameTooLarge,
                                 message: "frame of \(byteCount) bytes exceeds the limit of \(maxBytes) bytes")
        }
        return try decode(data: Data(text.utf8))
    }

    /// Decodes the bytes of one frame (UTF-8 JSON).
    static func decode(data: Data) throws(SignalingError) -> SignalingMessage {
        let decoder = SignalingJSON.decoder()
        // First only the discriminator, to tell bad JSON, non-objects and unknown types apart.
        let probe: TypeProbe
        do {
            probe = try decoder.decode(TypeProbe.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw SignalingError(code: .badJSON, message: "frame is not valid JSON")
            }
            throw SignalingError(code: .invalidMessage, message: "frame must be a JSON object with a string \"type\": \(describe(error))")
        } catch {
            throw SignalingError(code: .badJSON, message: "frame is not valid JSON")
        }
        guard SignalingMessage.allTypes.contains(probe.type) else {
            throw SignalingError(code: .unknownType, message: "unknown message type \"\(probe.type.prefix(64))\"")
        }
        do {
            return try decoder.decode(SignalingMessage.self, from: data)
        } catch let error as DecodingError {
            throw SignalingError(code: .invalidMessage, message: "invalid \(probe.type) message: \(describe(error))")
        } catch {
            throw SignalingError(code: .invalidMessage, message: "invalid \(probe.type) message")
        }
    }

    private struct TypeProbe: Decodable {
        let type: String
    }

    /// A one-line reason naming the offending field, e.g. `"callId": expected String`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "(top level)" : codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? key.stringValue
            }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\"\(path(context.codingPath))\" must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\"\(path(context.codingPath))\" must be \(typeName(type)), not null"
        case .keyNotFound(let key, let context):
            return "missing field \"\(path(context.codingPath + [key]))\""
        case .dataCorrupted(let context):
            return "bad value at \"\(path(context.codingPath))\": \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Bool.Type: "a boolean"
        default: "\(type)".contains("Array") ? "an array" : "an object"
        }
    }
}
