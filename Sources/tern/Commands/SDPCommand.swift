import ArgumentParser
import Foundation
import TernCore
import TernSDP

/// `tern sdp`: check, summarise, answer and create SDP descriptions with TernSDP.
struct SDPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdp",
        abstract: "Check, summarise, answer and create SDP session descriptions (RFC 8866, JSEP RFC 9429).",
        subcommands: [Check.self, Show.self, Answer.self, Offer.self])

    /// The local fingerprint from `--fingerprint`, or random bytes with a warning on standard error.
    static func fingerprint(_ text: String?, using random: inout some RandomNumberGenerator) throws -> Fingerprint {
        if let text {
            do {
                return try Fingerprint(attributeValue: Substring(text))
            } catch {
                throw ValidationError("--fingerprint: \(error)")
            }
        }
        FileHandle.standardError.write(Data("note: fingerprint is random bytes, not tied to any certificate\n".utf8))
        return Fingerprint(algorithm: "sha-256", bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// Reads the bytes of a file, or of standard input for `-`.
    static func readBytes(_ path: String) throws -> Data {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else {
            print("cannot read \(path)")
            throw ExitCode(1)
        }
        return data
    }

    /// Reads a file, or standard input for `-`, as text.
    static func read(_ path: String) throws -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// Parses (checking size and UTF-8 first) or prints `line N: reason` (with `json`, an object
    /// with `valid`, `line` and `reason`) and exits 1.
    static func parse(_ path: String, json: Bool = false) throws -> SessionDescription {
        let data = try readBytes(path)
        do {
            return try SDPParser().parse(bytes: data)
        } catch {
            if json {
                print(JSONValue.object(["valid": .bool(false), "line": error.lineNumber.map { .int($0) } ?? .null,
                                        "reason": .string(error.description)]).serialized)
            } else {
                print(error.description)
            }
            throw ExitCode(1)
        }
    }

    /// A description as `{"type": …, "sdp": …}` (W3C RTCSessionDescriptionInit), for `--json`.
    static func descriptionJSON(type: String, sdp: String) -> String {
        JSONValue.object(["type": .string(type), "sdp": .string(sdp)]).serialized
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Exit 0 when FILE is a valid description; otherwise print `line N: reason` and exit 1.")

        @Argument(help: "SDP file, or - for standard input.")
        var file: String

        @Flag(help: "Print {\"valid\": …, \"sections\": N} or {\"valid\": false, \"line\": N, \"reason\": …}.")
        var json = false

        func run() throws {
            let description = try SDPCommand.parse(file, json: json)
            if json {
                print(JSONValue.object(["valid": .bool(true), "sections": .int(description.media.count)]).serialized)
            } else {
                print("ok: \(description.media.count) media section(s)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a readable summary: sections, codecs, directions, ICE/DTLS parameters, candidates.")

        @Argument(help: "SDP file, or - for standard input.")
        var file: String

        @Flag(help: "The same summary as one JSON object.")
        var json = false

        func run() throws {
            let description = try SDPCommand.parse(file, json: json)
            if json {
                print(SDPSummaryJSON.summary(description).serialized)
            } else {
                print(SDPSummary.render(description), terminator: "")
            }
        }
    }

    struct Answer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the answer Tern would give to the offer in FILE.",
            discussion: """
                ICE credentials are generated fresh. The DTLS fingerprint is taken from --fingerprint; without it, \
                32 random bytes are used and a note on standard error says they are NOT tied to any certificate \
                (such an answer is for inspection only: a real DTLS handshake against it fails verification).
                """)

        @Argument(help: "Offer SDP file, or - for standard input.")
        var file: String

        @Option(help: "Local certificate fingerprint, e.g. \"sha-256 AB:CD:...\". Default: random bytes, not tied to a certificate.")
        var fingerprint: String?

        @Flag(help: "Decline every audio/video section's sending half (answer recvonly).")
        var receiveOnly = false

        @Option(help: "Seed for the ICE credentials and session id (default: random). Same seed, same answer.")
        var seed: UInt64?

        @Flag(help: "Print {\"type\": \"answer\", \"sdp\": …} (W3C RTCSessionDescriptionInit).")
        var json = false

        func run() throws {
            let text = try SDPCommand.read(file)
            var seeder = SystemRandomNumberGenerator()
            let fingerprintValue = try SDPCommand.fingerprint(fingerprint, using: &seeder)
            var session = JSEPSession(configuration: JSEPConfiguration(fingerprints: [fingerprintValue]),
                                      random: SeededRandom(seed: seed ?? seeder.next()))
            do {
                try session.setRemoteDescription(JSEPDescription(type: .offer, sdp: text))
                for index in session.transceivers.indices {
                    try session.setDirection(receiveOnly ? .recvonly : .sendrecv, forTransceiverAt: index)
                }
                let sdp = try session.createAnswer().sdp
                print(json ? SDPCommand.descriptionJSON(type: "answer", sdp: sdp) : sdp, terminator: json ? "\n" : "")
            } catch {
                print(error.description)
                throw ExitCode(1)
            }
        }
    }

    struct Offer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the offer Tern would make for the requested media.",
            discussion: """
                Sections are written in the order audio, video, data channel. The DTLS fingerprint is taken from \
                --fingerprint; without it, 32 random bytes are used and a note on standard error says they are \
                NOT tied to any certificate.
                """)

        @Flag(help: "Add a sendrecv audio transceiver (Opus).")
        var audio = false

        @Flag(help: "Add a sendrecv video transceiver (VP8 + RTX).")
        var video = false

        @Flag(help: "Add a data channel section.")
        var data = false

        @Option(help: "Local certificate fingerprint, e.g. \"sha-256 AB:CD:...\". Default: random bytes, not tied to a certificate.")
        var fingerprint: String?

        @Option(help: "Seed for the ICE credentials and session id (default: random). Same seed, same offer.")
        var seed: UInt64?

        @Flag(help: "Print {\"type\": \"offer\", \"sdp\": …} (W3C RTCSessionDescriptionInit).")
        var json = false

        func validate() throws {
            guard audio || video || data else { throw ValidationError("ask for at least one of --audio, --video, --data") }
        }

        func run() throws {
            var seeder = SystemRandomNumberGenerator()
            let fingerprintValue = try SDPCommand.fingerprint(fingerprint, using: &seeder)
            var session = JSEPSession(configuration: JSEPConfiguration(fingerprints: [fingerprintValue]),
                                      random: SeededRandom(seed: seed ?? seeder.next()))
            do {
                if audio { try session.addTransceiver(Transceiver(kind: .audio)) }
                if video { try session.addTransceiver(Transceiver(kind: .video)) }
                if data { try session.addDataChannel() }
                let sdp = try session.createOffer().sdp
                print(json ? SDPCommand.descriptionJSON(type: "offer", sdp: sdp) : sdp, terminator: json ? "\n" : "")
            } catch {
                print(error.description)
                throw ExitCode(1)
            }
        }
    }
}
