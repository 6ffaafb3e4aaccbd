/// Why a JSON text was refused, with the byte offset where it went wrong.
enum JSONTextError: Error, Equatable, CustomStringConvertible {
    case unexpectedEnd
    case unexpectedByte(UInt8, offset: Int)
    case invalidEscape(offset: Int)
    case invalidUTF8(offset: Int)
    case loneSurrogate(offset: Int)
    case controlCharacterInString(offset: Int)
    case duplicateKey(String)
    case tooDeep(limit: Int)
    case trailingBytes(offset: Int)

    var description: String {
        switch self {
        case .unexpectedEnd: "the JSON text ends too early"
        case .unexpectedByte(let byte, let offset): "unexpected byte 0x\(String(byte, radix: 16)) at offset \(offset)"
        case .invalidEscape(let offset): "invalid escape sequence at offset \(offset)"
        case .invalidUTF8(let offset): "invalid UTF-8 in the string starting at offset \(offset)"
        case .loneSurrogate(let offset): "a \\u escape at offset \(offset) is a lone UTF-16 surrogate"
        case .controlCharacterInString(let offset): "unescaped control character at offset \(offset)"
        case .duplicateKey(let key): "the key \"\(key)\" appears twice in one object"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .trailingBytes(let offset): "extra bytes after the JSON value at offset \(offset)"
        }
    }
}
