internal import COpenSSL

/// Key bytes that are wiped (`OPENSSL_cleanse`, which the compiler cannot drop as a dead store)
/// when the last reference goes, so SRTP master keys do not linger in freed heap memory.
/// `@unchecked Sendable`: the bytes are written once, in `init`, and only read afterwards.
final class SecretBytes: @unchecked Sendable {
    private let pointer: UnsafeMutableRawBufferPointer

    /// Copies `bytes`; the caller wipes its own copy.
    init(copying bytes: some Collection<UInt8>) {
        pointer = .allocate(byteCount: bytes.count, alignment: 1)
        pointer.copyBytes(from: bytes)
    }

    deinit {
        if let base = pointer.baseAddress { OPENSSL_cleanse(base, pointer.count) }
        pointer.deallocate()
    }

    var count: Int { pointer.count }

    /// Reads the bytes in place.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(pointer))
    }

    /// A copy of `range` (tests and inspection; the copy is not wiped).
    func copy(_ range: Range<Int>) -> [UInt8] { Array(pointer[range]) }

    /// Wipes a buffer the caller owns.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { OPENSSL_cleanse(base, $0.count) } }
    }
}
