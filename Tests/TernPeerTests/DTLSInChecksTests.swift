import Foundation
import Testing
import TernICE
import TernSDP
@testable import TernPeer

/// The DTLS handshake in the ICE connectivity checks (`PeerConfiguration.negotiatesDTLSInChecks`,
/// Tern's libnice patch): offered by default, used when the answer lists it too, and a clean
/// fallback to DTLS after the checks when not.
@Suite(.enabled(if: ICETransport.libniceCarriesDTLSInChecks || getuid() == 0,
                "libnice without Tern's patch, and not root: run Scripts/libnice as root"))
struct DTLSInChecksTests {
    private func openChannel(caller: PeerConfiguration, callee: PeerConfiguration) async throws -> (PeerPair, [Task<Void, Never>]) {
        let pair = PeerPair(caller: try PeerConnection(configuration: caller), callee: try PeerConnection(configuration: callee))
        let tasks = pair.startTrickle()
        let channel = try pair.caller.createDataChannel("checks")
        try await pair.negotiate()
        #expect(await eventually { channel.readyState == .open }, "\(pair.diagnosis)")
        #expect(await eventually { pair.callee.connectionState == .connected }, "\(pair.diagnosis)")
        return (pair, tasks)
    }

    @Test func theAnswerersClientHelloRidesInItsFirstCheck() async throws {
        #expect(ICETransport.libniceCarriesDTLSInChecks, "the loaded libnice lacks Tern's dtls-in-stun")
        let (pair, tasks) = try await openChannel(caller: .loopback, callee: .loopback)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        let option = JSEPConfiguration.dtlsInChecksOption
        #expect(pair.caller.localDescription?.sdp.contains(option) == true, "offered")
        #expect(pair.callee.localDescription?.sdp.contains(option) == true, "answered")
        let offerer = pair.caller.getStats().transport, answerer = pair.callee.getStats().transport
        #expect(offerer.dtlsInChecks == true && answerer.dtlsInChecks == true)
        #expect(answerer.dtlsRole == "client" && offerer.dtlsRole == "server")
        // The answerer started DTLS before its gathering started the checks, so its first check
        // carried the ClientHello; whether the server's flight also came back in a reply depends
        // on which of the two checks won the race on loopback (the lab measures that path).
        #expect((offerer.dtlsPayloadsReceivedInChecks ?? 0) >= 1, "the server got the ClientHello from a check")
    }

    @Test func anAnswerWithoutTheOptionKeepsDTLSOutOfTheChecks() async throws {
        var callee = PeerConfiguration.loopback
        callee.negotiatesDTLSInChecks = false
        let (pair, tasks) = try await openChannel(caller: .loopback, callee: callee)
        defer { pair.close(); tasks.forEach { $0.cancel() } }
        let option = JSEPConfiguration.dtlsInChecksOption
        #expect(pair.caller.localDescription?.sdp.contains(option) == true)
        #expect(pair.callee.localDescription?.sdp.contains(option) == false)
        for side in [pair.caller, pair.callee] {
            let transport = side.getStats().transport
            #expect(transport.dtlsInChecks == false)
            #expect(transport.dtlsPayloadsReceivedInChecks == 0, "nothing rode in a check either way")
            #expect(transport.dtlsState == "connected")
        }
    }
}
