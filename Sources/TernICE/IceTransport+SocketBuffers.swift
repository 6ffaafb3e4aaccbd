internal import CNice
#if canImport(Glibc)
import Glibc
#endif

/// Socket buffers of the selected pair (see `IceConfiguration.socketBufferSize`).
extension IceTransport {
    /// Enlarges the buffers of the socket the selected pair sends and receives on. Runs on the
    /// loop thread, from the selected-pair callback; libnice owns the socket, we only set options.
    func enlargeSelectedSocketBuffers() {
        guard let size = configuration.socketBufferSize, size > 0,
              let socket = nice_agent_get_selected_socket(agent.pointer, streamID, guint(Self.componentID)) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(socket)) }
        let fd = g_socket_get_fd(socket)
        guard fd >= 0 else { return }
        let receive = Self.setBuffer(fd, force: SO_RCVBUFFORCE, plain: SO_RCVBUF, bytes: size)
        let send = Self.setBuffer(fd, force: SO_SNDBUFFORCE, plain: SO_SNDBUF, bytes: size)
        logger.debug("selected socket buffers: receive \(receive) B, send \(send) B (asked \(size) B)")
    }

    /// Sets one buffer and returns the size the kernel reports afterwards (it doubles what it
    /// is given, for bookkeeping).
    private static func setBuffer(_ fd: Int32, force: Int32, plain: Int32, bytes: Int) -> Int {
        var value = Int32(clamping: bytes)
        let length = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(fd, SOL_SOCKET, force, &value, length) != 0 {
            _ = setsockopt(fd, SOL_SOCKET, plain, &value, length)
        }
        var actual: Int32 = 0
        var actualLength = length
        _ = getsockopt(fd, SOL_SOCKET, plain, &actual, &actualLength)
        return Int(actual)
    }
}
