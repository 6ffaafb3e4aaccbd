internal import CNice

/// A GLib source on a `GLibEventLoop` that watches a few file descriptors and runs `handler` on
/// the loop thread whenever any of them is ready (level-triggered, like `poll(2)`).
///
/// One `GSource` made with `g_source_new` and fds added with `g_source_add_unix_fd`, so the
/// conditions can change with `g_source_modify_unix_fd` without re-creating sources. The
/// handler box is `passRetained` as the source's callback data and released by GLib's
/// destroy-notify exactly once, after any dispatch in progress has returned.
///
/// Confined to the loop thread (or used after the loop exited): not `Sendable`.
final class GLibFDWatch {
    private let source: UnsafeMutablePointer<GSource>
    private var tags: [Int32: gpointer] = [:]
    private var destroyed = false

    /// Attaches a new source to `loop`'s context. Call on the loop thread.
    init(loop: GLibEventLoop, handler: @escaping () -> Void) {
        source = g_source_new(fdWatchFuncs, guint(MemoryLayout<GSource>.size))
        g_source_set_priority(source, 0) // G_PRIORITY_DEFAULT, like libnice's own sockets.
        let box = Unmanaged.passRetained(FDWatchHandler(handler)).toOpaque()
        g_source_set_callback(source, fdWatchRun, box, fdWatchRelease)
        g_source_attach(source, loop.context)
    }

    /// Watches `fd` for `condition` (replacing what was watched before). Empty removes `fd`
    /// from the source: `poll` reports hang-up and errors even for no requested events, which
    /// would otherwise dispatch the source again and again.
    func watch(_ fd: Int32, _ condition: IOCondition) {
        guard !destroyed else { return }
        let wanted = GIOCondition(rawValue: condition.rawValue)
        if condition.isEmpty {
            if let tag = tags.removeValue(forKey: fd) { g_source_remove_unix_fd(source, tag) }
        } else if let tag = tags[fd] {
            g_source_modify_unix_fd(source, tag, wanted)
        } else if let tag = g_source_add_unix_fd(source, fd, wanted) {
            tags[fd] = tag
        }
    }

    /// What `poll` reported for `fd` in the current dispatch (including error and hang-up).
    func ready(_ fd: Int32) -> IOCondition {
        guard !destroyed, let tag = tags[fd] else { return [] }
        return IOCondition(rawValue: g_source_query_unix_fd(source, tag).rawValue)
    }

    /// Detaches the source: the handler never runs again (the current run, if any, finishes).
    /// Call before closing the watched fds.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        g_source_destroy(source)
    }

    deinit {
        destroy()
        g_source_unref(source)
    }
}

/// `GIOCondition` bits as a Swift option set.
struct IOCondition: OptionSet {
    let rawValue: UInt32
    static let readable = IOCondition(rawValue: G_IO_IN.rawValue)
    static let writable = IOCondition(rawValue: G_IO_OUT.rawValue)
    static let error = IOCondition(rawValue: G_IO_ERR.rawValue)
    static let hangUp = IOCondition(rawValue: G_IO_HUP.rawValue)
}

private final class FDWatchHandler {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// `GSourceFunc` set with `g_source_set_callback`: runs the handler, keeps the source.
private let fdWatchRun: GSourceFunc = { data in
    guard let data else { return tern_g_false }
    Unmanaged<FDWatchHandler>.fromOpaque(data).takeUnretainedValue().body()
    return tern_g_true // G_SOURCE_CONTINUE: removal is explicit (`destroy`).
}

private let fdWatchRelease: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<FDWatchHandler>.fromOpaque(data).release()
}

/// `gboolean (*dispatch)(GSource *source, GSourceFunc callback, gpointer user_data)`.
/// With no `prepare` and no `check`, GLib dispatches the source when one of its unix fds
/// polls ready (gmain.c, `g_main_context_check`).
private let fdWatchDispatch: @convention(c) (UnsafeMutablePointer<GSource>?, GSourceFunc?, gpointer?) -> gboolean = {
    _, callback, data in
    guard let callback else { return tern_g_false }
    return callback(data)
}

/// GLib keeps a pointer to the function table for every source: allocated once, never freed.
nonisolated(unsafe) private let fdWatchFuncs: UnsafeMutablePointer<GSourceFuncs> = {
    let funcs = UnsafeMutablePointer<GSourceFuncs>.allocate(capacity: 1)
    funcs.initialize(to: GSourceFuncs(prepare: nil, check: nil, dispatch: fdWatchDispatch, finalize: nil,
                                      closure_callback: nil, closure_marshal: nil))
    return funcs
}()
