import Foundation

/// A throw-away NAT topology in Linux network namespaces (root only):
///
/// ```
///  lan-ns 10.77.0.2 ──veth── 10.77.0.1 nat-ns 198.51.100.1 ──veth── 198.51.100.254 wan-ns
///                              (MASQUERADE out of the wan side)
/// ```
/// Agents enter a namespace through `GLibEventLoop.inNetworkNamespace`; every namespace
/// (and with it every veth) is deleted in `tearDown`.
final class NetworkLab: @unchecked Sendable {
    // Immutable after init.
    static let ip = "/usr/sbin/ip"
    let lan: String, nat: String, wan: String
    static let lanAddress = "10.77.0.2"
    static let natPublicAddress = "198.51.100.1"
    static let wanAddress = "198.51.100.254"

    /// Whether the lab can be built here: root and iproute2. Tests that need it are marked
    /// `.enabled(if: NetworkLab.available, …)`, so without them they show as skipped, with the
    /// reason, instead of passing without having run.
    static var available: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: ip) }

    /// Nil (reason printed) when not root or namespaces are not available.
    static func makeIfPossible() -> NetworkLab? {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: ip) else {
            print("skipping NAT lab: needs root and \(ip)")
            return nil
        }
        do { return try NetworkLab() } catch {
            print("skipping NAT lab: \(error)")
            return nil
        }
    }

    private init() throws {
        let tag = String(UInt32.random(in: 0...0xFFFF), radix: 16)
        lan = "tern-lan-\(tag)"; nat = "tern-nat-\(tag)"; wan = "tern-wan-\(tag)"
        let w0 = "tnw0\(tag)", w1 = "tnw1\(tag)", l0 = "tnl0\(tag)", l1 = "tnl1\(tag)"
        do {
            for ns in [lan, nat, wan] { try Self.run(["netns", "add", ns]) }
            try Self.run(["link", "add", w0, "type", "veth", "peer", "name", w1])
            try Self.run(["link", "set", w0, "netns", nat])
            try Self.run(["link", "set", w1, "netns", wan])
            try Self.run(["link", "add", l0, "type", "veth", "peer", "name", l1])
            try Self.run(["link", "set", l0, "netns", nat])
            try Self.run(["link", "set", l1, "netns", lan])
            try Self.run(["-n", nat, "addr", "add", "\(Self.natPublicAddress)/24", "dev", w0])
            try Self.run(["-n", wan, "addr", "add", "\(Self.wanAddress)/24", "dev", w1])
            try Self.run(["-n", nat, "addr", "add", "10.77.0.1/24", "dev", l0])
            try Self.run(["-n", lan, "addr", "add", "\(Self.lanAddress)/24", "dev", l1])
            for (ns, dev) in [(nat, w0), (wan, w1), (nat, l0), (lan, l1)] {
                try Self.run(["-n", ns, "link", "set", dev, "up"])
            }
            for ns in [lan, nat, wan] { try Self.run(["-n", ns, "link", "set", "lo", "up"]) }
            try Self.run(["-n", lan, "route", "add", "default", "via", "10.77.0.1"])
            try Self.run(["netns", "exec", nat, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1"])
            try Self.run(["netns", "exec", nat, "iptables", "-t", "nat", "-A", "POSTROUTING", "-o", w0, "-j", "MASQUERADE"])
        } catch {
            tearDown()
            throw error
        }
    }

    /// Drops (or lets through again) everything the NAT forwards: a network outage.
    func setOutage(_ on: Bool) throws {
        try Self.run(["netns", "exec", nat, "iptables", on ? "-I" : "-D", "FORWARD", "-j", "DROP"])
    }

    /// Deletes the namespaces (their veths and NAT rules go with them).
    func tearDown() {
        for ns in [lan, nat, wan] { try? Self.run(["netns", "del", ns]) }
    }

    func path(_ namespace: String) -> String { "/run/netns/\(namespace)" }

    static func run(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ip)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        p.standardError = errors
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw NetworkLabError.command("ip \(arguments.joined(separator: " "))", text)
        }
    }

    /// Polls `ss` inside `namespace` until something listens on TCP `port`.
    static func waitForTCPListener(namespace: String, port: UInt16) -> Bool {
        for _ in 0..<200 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ip)
            p.arguments = ["netns", "exec", namespace, "ss", "-Hltn", "sport = :\(port)"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return false }
            p.waitUntilExit()
            if !out.fileHandleForReading.readDataToEndOfFile().isEmpty { return true }
            usleep(20_000)
        }
        return false
    }
}

enum NetworkLabError: Error, CustomStringConvertible {
    case command(String, String)
    var description: String {
        switch self { case let .command(cmd, err): "\(cmd) failed: \(err)" }
    }
}
