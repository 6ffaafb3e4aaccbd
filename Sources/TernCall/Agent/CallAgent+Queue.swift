public import TernSignaling

/// The call-centre queue flow (Docs/SIGNALING.md, "Queues") on the agent: customers enqueue and
/// follow `.queue` events; agents pick and call. The customer's client accepts the picking
/// agent's call by itself.
extension CallAgent {
    /// Customer: waits in `queue` with `attachedData` for the agent; returns the request id.
    /// Positions arrive as `.call(.queue(.positionChanged))`, the pick as `.call(.queue(.assigned))`,
    /// then the agent's call goes `CONNECTING` without ringing.
    @discardableResult
    public func enqueue(queue: String, attachedData: [AttachedData] = []) async throws(CallError) -> String {
        callCounter += 1
        let requestId = "\(user)-q\(clock.now().nanoseconds)-\(callCounter)"
        await process(try core.enqueue(queue: queue, requestId: requestId, attachedData: attachedData, now: clock.now()))
        return requestId
    }

    /// Customer: stops waiting.
    public func dequeue(requestId: String) async throws(CallError) {
        await process(try core.dequeue(requestId: requestId, now: clock.now()))
    }

    /// Customer: this client's requests, waiting or picked.
    public var queueRequests: [CallQueueRequest] { core.queueRequests }

    /// Agent: takes the next request of `queue`. The answer arrives as `.call(.queue(.picked))`
    /// (call `pick.customer` to serve it) or `.call(.queue(.queueEmpty))`.
    public func pick(queue: String) async throws(CallError) {
        await process(try core.pick(queue: queue, now: clock.now()))
    }

    /// Sends a queue message, remembering picks so a `queueEmpty` error can name its queue.
    func send(_ signal: CallQueueSignal) async {
        guard let message = signal.signalingMessage else { return }
        if case let .pick(queue) = signal { pendingPicks.append(queue) }
        await send(message)
    }

    /// A server message of the queue flow, if it is one; true when nothing else needs to see it
    /// (a refused request's error is still reported as a `.problem` by the caller).
    func receiveQueueMessage(_ message: SignalingMessage) async -> Bool {
        guard let signal = CallQueueSignal(message, pendingPick: pendingPicks.first) else { return false }
        switch signal {
        case let .picked(pick):
            if let index = pendingPicks.firstIndex(of: pick.queue) { pendingPicks.remove(at: index) }
        case .empty:
            pendingPicks.removeFirst()
        default:
            break
        }
        await process(core.receive(signal, now: clock.now()))
        if case .refused = signal { return false }
        return true
    }
}
