import Synchronization
import TernCall
import TernMedia
import TernPeer
import TernSignaling

/// One member of `tern call --loopback --group N`: its agent, the tone it sends, and what it
/// received from each other member (tones heard, video frames decoded, messages).
final class GroupMember: Sendable {
    struct Observed {
        var callStates: [String] = []
        var endReason: String?
        var callId: String?
        /// Who invited this member (set when the group invite arrives, answered or not).
        var invitedBy: String?
        /// Every member's state transitions as this member saw them in `members`, deduplicated.
        var memberStates: [String: [String]] = [:]
        var messagesFrom: [String] = []
        var problems: [String] = []
    }

    let name: String
    let agent: CallAgent
    let toneHz: Double
    /// The tones the others may send (nil: any tone that dominates, found by scanning).
    let knownTones: [Double]?
    let observed = Mutex(Observed())
    /// Per sending member: the tone in its decoded audio, and its video frames decoded.
    let tones = Mutex<[String: ToneTracker]>([:])
    let framesFrom = Mutex<[String: Int]>([:])

    init(name: String, agent: CallAgent, toneHz: Double, knownTones: [Double]?) {
        self.name = name
        self.agent = agent
        self.toneHz = toneHz
        self.knownTones = knownTones
    }

    var snapshot: Observed { observed.withLock { $0 } }

    /// The tones heard, by member.
    var heard: [String: Double] { tones.withLock { $0.compactMapValues(\.frequency) } }

    /// Follows the agent's events: answers an invite with its media, records states, members,
    /// messages, and consumes each leg's remote tracks by member.
    func watch(answering: Bool, timeline: Timeline, media: MediaOptions? = nil) -> Task<Void, Never> {
        let name = self.name
        return Task {
            for await event in agent.events {
                switch event {
                case let .call(.incomingCall(invite, _)):
                    observed.withLock {
                        $0.callId = invite.callId
                        $0.invitedBy = invite.from ?? "?"
                    }
                    timeline.log("call", "\(name): invited by \(invite.from ?? "?") (\(invite.to.joined(separator: ", ")))"
                                 + (answering ? "; accepting" : ""))
                    guard answering else { continue }
                    do { try await agent.accept(media: media ?? invite.media) } catch {
                        observed.withLock { $0.problems.append("accept: \(error)") }
                    }
                case let .call(.stateChanged(change)):
                    timeline.log("call", "\(name): \(change.state.rawValue)" + (change.reason.map { " (\($0))" } ?? ""))
                    observed.withLock {
                        $0.callStates.append(change.state.rawValue)
                        $0.callId = change.callId
                        if let reason = change.reason { $0.endReason = "\(reason)" }
                    }
                case let .call(.memberConnectionChanged(_, member, status)):
                    timeline.log("ice", "\(name): leg to \(member) \(status)")
                case let .call(.membersChanged(_, _, members)):
                    // Every member's view of the server's order: who offers to whom follows from it
                    // (Docs/SIGNALING.md "Who offers"), and a leg that never connects is read here.
                    timeline.log("call", "\(name): members " + members.map(\.description).joined(separator: ", "))
                    observed.withLock { observed in
                        for member in members where observed.memberStates[member.user]?.last != member.description {
                            observed.memberStates[member.user, default: []].append(member.description)
                        }
                    }
                case let .call(.memberEvent(_, member, event)):
                    observed.withLock { $0.messagesFrom.append("\(member): \(event.data.first?.dataValue ?? "")") }
                case let .remoteTrack(key, track):
                    guard let leg = GroupCallLeg(key: key) else { continue }
                    Task { await consume(track, from: leg.member) }
                case let .description(key, local, type, _):
                    guard let leg = GroupCallLeg(key: key) else { continue }
                    timeline.log("sdp", "\(name): leg to \(leg.member): \(local ? "sent" : "received") \(type)")
                case let .problem(key, text):
                    let leg = key.flatMap { GroupCallLeg(key: $0) }.map { " on the leg to \($0.member)" } ?? ""
                    timeline.log("call", "\(name): problem\(leg): \(text)")
                    observed.withLock { $0.problems.append(text) }
                default:
                    break
                }
            }
        }
    }

    private func consume(_ track: RemoteTrack, from member: String) async {
        let candidates = knownTones
        for await frame in track.frames {
            switch frame {
            case let .audio(pcm):
                tones.withLock { $0[member, default: ToneTracker(candidates: candidates)].append(pcm) }
            case .video:
                framesFrom.withLock { $0[member, default: 0] += 1 }
            }
        }
    }

    /// Whether this member's legs to every one of `others` are connected.
    func connected(to others: [String]) async -> Bool {
        guard let group = await agent.groupCall, group.isActive else { return false }
        return others.allSatisfy { group.legs[$0] == .connected }
    }
}
