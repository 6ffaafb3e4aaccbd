/// One request waiting in a named queue.
struct SignalingQueueEntry: Codable, Sendable {
    let requestId: String
    let customer: SignalingConnectionID
    let customerUser: String
    let attachedData: [AttachedData]
}
