public import TernCore

/// Puts the inputs of several nodes' routers in one shared order (the PostgreSQL log of
/// TernSignalingPostgres). A `SignalingSwitchboard` with a sequencer does not apply its inputs
/// itself: it submits them, and the sequencer hands every node's inputs back, in log order,
/// to `SignalingSwitchboard.applySequenced`, on every node alike.
public protocol SignalingSequencer: Sendable {
    /// This node's number; its connections carry it (`SignalingConnectionID.node`).
    var node: UInt16 { get }
    /// The time base every node shares (wall-clock nanoseconds): inputs are stamped with it,
    /// and deadlines are compared with it.
    func now() -> Instant
    /// Adds `input` to the shared order; it comes back through `applySequenced`.
    func submit(_ input: SignalingRouterInput)
}
