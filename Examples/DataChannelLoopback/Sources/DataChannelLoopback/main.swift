import TernPeer

// Two peer connections in one process, with host candidates on 127.0.0.1 only.
let caller = try PeerConnection(configuration: .loopback)
let callee = try PeerConnection(configuration: .loopback)
let channel = try caller.createDataChannel("chat")

// A bound on the whole exchange, so a broken network setup fails instead of hanging.
let watchdog = Task {
    try await Task.sleep(for: .seconds(30))
    fatalError("the message did not arrive within 30 seconds")
}

// Offer/answer. Between two processes these travel through your signaling server.
let offer = try await caller.createOffer()
try await caller.setLocalDescription(offer)
try await callee.setRemoteDescription(offer)
let answer = try await callee.createAnswer()
try await callee.setLocalDescription(answer)
try await caller.setRemoteDescription(answer)

// Trickle ICE: each side's candidates go to the other, now that both have the description the
// candidates belong to (events wait in `events` until read, so none is lost).
Task {
    for await event in caller.events {
        if case let .iceCandidate(candidate) = event { try await callee.addICECandidate(candidate) }
    }
}
let (received, deliver) = AsyncStream.makeStream(of: String.self)
Task {
    for await event in callee.events {
        switch event {
        case let .iceCandidate(candidate):
            try await caller.addICECandidate(candidate)
        case let .dataChannel(remote):  // the channel the caller opened, seen from the callee
            Task {
                for await event in remote.events {
                    if case let .message(.string(text)) = event { deliver.yield(text) }
                }
            }
        default:
            break
        }
    }
}

// The caller sends once its channel is open; the callee prints what arrives.
for await event in channel.events {
    if case .open = event {
        try channel.send("hello from Tern")
        break
    }
}
for await text in received {
    print("callee received: \(text)")
    break
}
watchdog.cancel()
caller.close()
callee.close()
