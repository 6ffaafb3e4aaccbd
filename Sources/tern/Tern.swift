import ArgumentParser
import TernCore

/// `tern`: the debug tool and the signaling server of the Tern stack.
@main
struct Tern: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tern",
        abstract: "Tern: a WebRTC-style peer transport stack — debug tool and signaling server.",
        version: TernVersion.string,
        subcommands: [
            CallCommand.self,
            PeerCommand.self,
            PatternCommand.self,
            SDPCommand.self,
            ICECommand.self,
            SignalCommand.self,
        ]
    )
}
