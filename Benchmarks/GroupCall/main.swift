// A 4-member group call (issue #21): `group_setup_ms_4` and `group_call_cpu_per_member`.
// Four CallAgents in one process through an in-memory signaling switchboard (protocol v1
// router); alice invites the three others, each accepts, and a full mesh of six peer
// connections comes up over real ICE, DTLS-SRTP and SCTP on 127.0.0.1 with the shipped
// `PeerConfiguration()` (host candidates on 127.0.0.1 only). Release build.
//
//   GroupCall [--runs R] [--seconds S]
//
// `group_setup_ms_4`: from alice's invite until every member's three legs report connected
// (the invitees accept as soon as their invite rings). `group_call_cpu_per_member`: every
// member then sends a tone (Opus) and a 320x240 test pattern at 30 fps (VP8) to each of the
// three others over its own leg — three encodes of each stream, a full mesh — and decodes
// what it receives; the process's CPU time (getrusage, every thread) over S seconds after a
// 5 s warm-up, divided by S and by 4: CPU seconds per member per call-second. Decoded frames
// per leg are logged so a run that carried no video shows. No peer stack is measured beside
// it (Chromium's mesh would need four browser instances; not done). Nothing asserted.
import BenchSupport
import Foundation
import Synchronization
import TernCall
import TernCore
import TernMedia
import TernPeer
import TernSignaling
#if canImport(Glibc)
import Glibc
#endif

var runs = choose(full: 5, quick: 2)
var seconds = choose(full: 20, quick: 8)
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let flag = arguments.next() {
    guard let text = arguments.next(), let value = Int(text), value > 0 else { fail("expected a number after \(flag)") }
    switch flag {
    case "--runs": runs = value
    case "--seconds": seconds = value
    default: fail("unknown option \(flag); usage: GroupCall [--runs R] [--seconds S]")
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("GroupCall: \(message)\n".utf8))
    exit(1)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("GroupCall: \(message)\n".utf8))
}


let names = ["alice", "bob", "carol", "dave"]
let media = MediaOptions(audio: true, video: true, data: true)

/// One member: its agent, its decoded frames by sender, and the task that answers its invite.
final class Member: Sendable {
    let name: String
    let agent: CallAgent
    let framesFrom = Mutex<[String: Int]>([:])
    init(name: String, agent: CallAgent) {
        self.name = name
        self.agent = agent
    }

    func watch(answering: Bool) -> Task<Void, Never> {
        Task {
            for await event in agent.events {
                switch event {
                case .call(.incomingCall) where answering:
                    try? await agent.accept(media: media)
                case let .remoteTrack(key, track):
                    guard let leg = GroupCallLeg(key: key) else { continue }
                    Task {
                        for await frame in track.frames {
                            if case .video = frame { framesFrom.withLock { $0[leg.member, default: 0] += 1 } }
                        }
                    }
                default: break
                }
            }
        }
    }

    func connected(to others: Int) async -> Bool {
        guard let group = await agent.groupCall, group.isActive else { return false }
        return group.legs.count == others && group.legs.values.allSatisfy { $0 == .connected }
    }
}

/// Sends a tone and a test pattern to one leg in real time until cancelled.
func pump(_ agent: CallAgent, callId: String, member: String, tone: Double) -> Task<Void, Never> {
    Task {
        var source = SineToneSource(frequency: tone)
        var pattern = TestPatternSource(width: 320, height: 240)
        let clock = ContinuousClock()
        let start = clock.now
        var audioFrames = 0, videoFrames = 0
        let (audio, video) = await agent.senders(callId: callId, member: member)
        while !Task.isCancelled {
            let elapsed = clock.now - start
            while Duration.milliseconds(20) * audioFrames <= elapsed {
                try? audio?.send(audio: source.nextFrame())
                audioFrames += 1
            }
            while Duration.milliseconds(33) * videoFrames <= elapsed {
                try? video?.send(video: pattern.nextFrame())
                videoFrames += 1
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

var setups: [Double] = []
var cpus: [Double] = []
for run in 1...runs {
    let switchboard = SignalingSwitchboard()
    let timer = Task {
        while !Task.isCancelled {
            _ = switchboard.fireTimeouts()
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
    var configuration = PeerConfiguration()
    configuration.ice.allowedAddresses = ["127.0.0.1"]
    var members: [Member] = []
    for name in names {
        let client = SignalingClient(transport: InMemorySignalingTransport(switchboard: switchboard),
                                     options: SignalingClientOptions(autoAcceptAssignedCalls: false, maxConcurrentCalls: nil))
        do { try await client.register(user: name, token: "") } catch { fail("\(name) could not register: \(error)") }
        let agent = CallAgent(user: name, signaling: client, peerConfiguration: configuration)
        do { try await agent.start() } catch { fail("\(name) could not start: \(error)") }
        members.append(Member(name: name, agent: agent))
    }
    let watchers = members.enumerated().map { $0.element.watch(answering: $0.offset > 0) }
    let start = wallSeconds()
    let callId: String
    do { callId = try await members[0].agent.call(to: Array(names.dropFirst()), media: media) } catch { fail("invite: \(error)") }
    var up = false
    while !up, wallSeconds() - start < 30 {
        up = true
        for member in members where !(await member.connected(to: names.count - 1)) { up = false }
        if !up { try? await Task.sleep(for: .milliseconds(1)) }
    }
    guard up else { fail("run \(run): the mesh did not come up within 30 s") }
    let setupMs = (wallSeconds() - start) * 1000
    setups.append(setupMs)

    var pumps: [Task<Void, Never>] = []
    for (index, member) in members.enumerated() {
        for other in names where other != member.name {
            pumps.append(pump(member.agent, callId: callId, member: other, tone: 440 + 220 * Double(index)))
        }
    }
    try? await Task.sleep(for: .seconds(5))
    let cpu0 = processCPUSeconds(), wall0 = wallSeconds()
    let frames0 = members.map { $0.framesFrom.withLock { $0 } }
    try? await Task.sleep(for: .seconds(seconds))
    let cpu = (processCPUSeconds() - cpu0) / (wallSeconds() - wall0) / Double(members.count)
    cpus.append(cpu)
    let rates = zip(members, frames0).flatMap { member, before in
        member.framesFrom.withLock { now in now.map { Double($0.value - (before[$0.key] ?? 0)) / Double(seconds) } }
    }
    log(String(format: "run %d: mesh up %.1f ms; %.3f CPU s/s per member; decoded video per leg %.1f–%.1f frames/s over %d legs",
               run, setupMs, cpu, rates.min() ?? 0, rates.max() ?? 0, rates.count))
    pumps.forEach { $0.cancel() }
    try? await members[0].agent.endForEveryone()
    for member in members { await member.agent.stop() }
    watchers.forEach { $0.cancel() }
    timer.cancel()
    try? await Task.sleep(for: .milliseconds(500))
}
Figure(name: "group_setup_ms_4", unit: "ms", samples: setups).emit()
Figure(name: "group_call_cpu_per_member", unit: "CPU s/s", samples: cpus).emit()
