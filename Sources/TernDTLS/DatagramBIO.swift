internal import COpenSSL

/// The `BIO_METHOD`s between OpenSSL and a `DTLSEndpoint`.
///
/// A write-side memory BIO loses datagram boundaries (two records become one byte stream),
/// and OpenSSL 3.0 has no datagram-pair BIO, so both directions are custom:
/// - write: each `BIO_write` is one datagram, appended to `EndpointIO.outbox`;
/// - read: each `BIO_read` returns exactly one queued datagram (or "retry" when none), so a
///   record never straddles two datagrams (RFC 6347 §4.1.1).
/// The read side also receives `BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT` (see `DTLSTimer`).
enum DatagramBIO {
    /// The method, created once per process (immutable afterwards, hence `nonisolated(unsafe)`).
    nonisolated(unsafe) static let method: OpaquePointer? = {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "tern-datagram") else {
            return nil
        }
        BIO_meth_set_write(method, datagramWrite)
        BIO_meth_set_read(method, datagramRead)
        BIO_meth_set_ctrl(method, datagramControl)
        BIO_meth_set_create(method, datagramCreate)
        BIO_meth_set_destroy(method, datagramDestroy)
        return method
    }()

    /// A new BIO whose context is `io` (not retained: the endpoint owns both and frees the SSL first).
    static func make(io: EndpointIO) -> OpaquePointer? {
        guard let method, let bio = BIO_new(method) else { return nil }
        BIO_set_data(bio, Unmanaged.passUnretained(io).toOpaque())
        return bio
    }

    static func io(of bio: OpaquePointer?) -> EndpointIO? {
        guard let bio, let data = BIO_get_data(bio) else { return nil }
        return Unmanaged<EndpointIO>.fromOpaque(data).takeUnretainedValue()
    }
}

private let datagramCreate: @convention(c) (OpaquePointer?) -> Int32 = { bio in
    BIO_set_init(bio, 1)
    return 1
}

private let datagramDestroy: @convention(c) (OpaquePointer?) -> Int32 = { bio in
    BIO_set_data(bio, nil)
    BIO_set_init(bio, 0)
    return 1
}

private let datagramWrite: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { bio, data, length in
    guard let io = DatagramBIO.io(of: bio), let data, length >= 0 else { return -1 }
    tern_BIO_clear_retry_flags(bio)
    io.outbox.append(Array(UnsafeRawBufferPointer(start: data, count: Int(length))))
    return length
}

private let datagramRead: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32 = { bio, buffer, capacity in
    guard let io = DatagramBIO.io(of: bio), let buffer, capacity >= 0 else { return -1 }
    tern_BIO_clear_retry_flags(bio)
    guard let datagram = io.popInbound() else {
        tern_BIO_set_retry_read(bio)
        return -1
    }
    // A datagram larger than OpenSSL's buffer is truncated, as a UDP socket would.
    let count = min(datagram.count, Int(capacity))
    datagram.withUnsafeBytes { raw in
        if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: count) }
    }
    return Int32(count)
}

private let datagramControl: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int = { bio, command, _, pointer in
    switch command {
    case BIO_CTRL_FLUSH:
        return 1
    case tern_BIO_CTRL_DGRAM_SET_NEXT_TIMEOUT():
        DatagramBIO.io(of: bio)?.timer.openSSLDeadlineChanged(pointer)
        return 1
    case BIO_CTRL_PENDING:
        return DatagramBIO.io(of: bio)?.inbox.first.map(\.count) ?? 0
    default:
        // Everything else (MTU queries, peer addresses, ...) is not ours: 0 = "not supported".
        return 0
    }
}
