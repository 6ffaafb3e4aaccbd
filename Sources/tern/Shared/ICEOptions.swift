import ArgumentParser
import TernICE

/// The ICE options every subcommand that runs an ICE agent takes (`tern peer`, `tern ice
/// gather`): the same names, the same validation.
struct ICEOptions: ParsableArguments {
    @Option(help: ArgumentHelp("STUN server HOST:PORT (repeatable).", valueName: "host:port"))
    var stun: [String] = []

    @Option(help: ArgumentHelp("TURN server turn:HOST:PORT[?transport=tcp] or turns:… with --turn-credentials-file, or turn:USER:PASS@HOST:PORT (visible in ps) (repeatable).", valueName: "url"))
    var turn: [String] = []

    @Option(help: ArgumentHelp("TURN USER:PASS on the first line of this file (or set TERN_TURN_USERNAME and TERN_TURN_PASSWORD), for --turn URLs without credentials.", valueName: "file"))
    var turnCredentialsFile: String?

    @Flag(help: "Use TURN relay candidates only (W3C iceTransportPolicy \"relay\").")
    var relayOnly = false

    @Option(name: .customLong("ice-address"), help: ArgumentHelp("Gather host candidates on this local address only (repeatable; e.g. 127.0.0.1).", valueName: "address"))
    var iceAddresses: [String] = []

    /// The `--stun` and `--turn` servers (W3C `iceServers`).
    func servers() throws -> [ICEServer] {
        do {
            return try stun.map { try ICEServer(url: "stun:\($0)") } + TurnServers.resolve(turn, credentialsFile: turnCredentialsFile)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func validate() throws {
        _ = try servers()
        if relayOnly, turn.isEmpty { throw ValidationError("--relay-only needs a --turn server: there is no other relay to use") }
    }

    /// The W3C transport policy the flags ask for.
    var transportPolicy: ICETransportPolicy { relayOnly ? .relay : .all }

    /// `configuration` with these servers, policy and addresses.
    func applied(to configuration: ICEConfiguration) throws -> ICEConfiguration {
        var configuration = configuration
        configuration.servers = try servers()
        configuration.transportPolicy = transportPolicy
        configuration.allowedAddresses = iceAddresses
        return configuration
    }
}
