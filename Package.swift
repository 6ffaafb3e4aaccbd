// swift-tools-version: 6.1
// Tern: a WebRTC-style peer transport stack in Swift.
// One target per layer; a layer depends only on the layers below it (Docs/ARCHITECTURE.md).
import PackageDescription
import class Foundation.ProcessInfo

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let log = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "Tern",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TernCore", targets: ["TernCore"]),
        .library(name: "TernSDP", targets: ["TernSDP"]),
        .library(name: "TernICE", targets: ["TernICE"]),
        .library(name: "TernDTLS", targets: ["TernDTLS"]),
        .library(name: "TernRTP", targets: ["TernRTP"]),
        .library(name: "TernSCTP", targets: ["TernSCTP"]),
        .library(name: "TernMedia", targets: ["TernMedia"]),
        .library(name: "TernPeer", targets: ["TernPeer"]),
        .library(name: "TernSignaling", targets: ["TernSignaling"]),
        .library(name: "TernSignalingClient", targets: ["TernSignalingClient"]),
        .library(name: "TernSignalingPostgres", targets: ["TernSignalingPostgres"]),
        .library(name: "TernSignalingServer", targets: ["TernSignalingServer"]),
        .library(name: "TernCall", targets: ["TernCall"]),
        .library(name: "TernTrace", targets: ["TernTrace"]),
        .executable(name: "tern", targets: ["tern"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // HMAC-SHA256 for SCTP state cookies, ICE RTT probes and signaling tokens (no hand-written crypto).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // TLS for the signaling server and client (wss://), as Hummingbird's own TLS uses it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        // No default traits: they add swift-configuration and Foundation extras the server does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        // Registration tokens: JWT (HS256) with exp/nbf and a role, minted and verified by a maintained library.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.0"),
        // The signaling server's /metrics: recorded with swift-metrics, emitted in Prometheus text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        // Signaling across several nodes: the shared input log on PostgreSQL.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // The push webhook's HTTP client (POSTs signed invitations to the application's backend).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Hummingbird's service runner and the server's graceful shutdown on SIGTERM/SIGINT.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries: system-library targets, each with its own prefixed `static inline` shims.
        .systemLibrary(name: "CNice", pkgConfig: "nice", providers: [.apt(["libnice-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSRTP", pkgConfig: "libsrtp2", providers: [.apt(["libsrtp2-dev"])]),
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .systemLibrary(name: "CVPX", pkgConfig: "vpx", providers: [.apt(["libvpx-dev"])]),

        // Layers, bottom up.
        .target(name: "TernCore", dependencies: [log, .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        .target(name: "TernSDP", dependencies: ["TernCore"], swiftSettings: strict),
        .target(name: "TernICE", dependencies: ["TernCore", "TernSDP", "CNice", "COpenSSL", log], swiftSettings: strict),
        .target(name: "TernDTLS", dependencies: ["TernCore", "COpenSSL", "CSRTP"], swiftSettings: strict),
        .target(name: "TernRTP", dependencies: ["TernCore"], swiftSettings: strict),
        // The CPU's CRC32c instruction for SCTP's checksum (a regular C target: it has a .c file).
        .target(name: "CCRC32C"),
        .target(name: "TernSCTP", dependencies: ["TernCore", "CCRC32C", .product(name: "DequeModule", package: "swift-collections")],
                swiftSettings: strict),
        .target(name: "TernMedia", dependencies: ["TernCore", "COpus", "CVPX"], swiftSettings: strict),
        .target(name: "TernPeer",
                dependencies: ["TernCore", "TernSDP", "TernICE", "TernDTLS", "TernRTP", "TernSCTP", "TernMedia"],
                swiftSettings: strict),
        .target(name: "TernSignaling", dependencies: ["TernCore"], swiftSettings: strict),
        // A SwiftNIO WebSocket client, ws:// and wss:// (swift-nio-ssl).
        .target(name: "TernSignalingClient",
                dependencies: ["TernSignaling",
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio"),
                               .product(name: "NIOSSL", package: "swift-nio-ssl")],
                swiftSettings: strict),
        // Several signaling nodes on one PostgreSQL: the routers' inputs in one shared, ordered log.
        .target(name: "TernSignalingPostgres",
                dependencies: ["TernCore", "TernSignaling", log, .product(name: "PostgresNIO", package: "postgres-nio")],
                swiftSettings: strict),
        .target(name: "TernSignalingServer",
                dependencies: ["TernCore", "TernSignaling", "TernSignalingPostgres", log, .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "HummingbirdTLS", package: "hummingbird"),
                               .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                               .product(name: "NIOSSL", package: "swift-nio-ssl"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio"),
                               .product(name: "JWTKit", package: "jwt-kit"),
                               .product(name: "AsyncHTTPClient", package: "async-http-client"),
                               .product(name: "Metrics", package: "swift-metrics"),
                               .product(name: "Prometheus", package: "swift-prometheus"),
                               .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                               .product(name: "UnixSignals", package: "swift-service-lifecycle")],
                swiftSettings: strict),
        .target(name: "TernCall", dependencies: ["TernCore", "TernSDP", "TernSCTP", "TernPeer", "TernSignaling"], swiftSettings: strict),
        .target(name: "TernTrace", dependencies: ["TernCore"], swiftSettings: strict),

        .executableTarget(
            name: "tern",
            dependencies: [
                "TernCore", "TernSDP", "TernICE", "TernDTLS", "TernSCTP", "TernMedia", "TernPeer",
                "TernSignaling", "TernSignalingClient", "TernSignalingPostgres", "TernSignalingServer", "TernCall", "TernTrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        // Helpers shared by test targets (resource readings for the leak and soak tests); not a product.
        // The virtual-time harness (`SimulatedLink`, `SansIOPair`) and resource readings; not a product.
        .target(name: "TernTestSupport", dependencies: ["TernCore"], path: "Tests/Support/TernTestSupport", swiftSettings: strict),
        .testTarget(name: "TernCoreTests", dependencies: ["TernCore", "TernTestSupport"], swiftSettings: strict),
        .testTarget(name: "TernSDPTests", dependencies: ["TernSDP", "TernCore"], resources: [.copy("Fixtures")],
                    swiftSettings: strict),
        .testTarget(name: "TernICETests", dependencies: ["TernICE", "TernCore", "TernSDP"], swiftSettings: strict),
        .testTarget(name: "TernDTLSTests", dependencies: ["TernDTLS", "TernCore", "TernTestSupport"], swiftSettings: strict),
        .testTarget(name: "TernRTPTests", dependencies: ["TernRTP", "TernCore", "TernTestSupport"], resources: [.copy("Fixtures")],
                    swiftSettings: strict),
        .testTarget(name: "TernSCTPTests", dependencies: ["TernSCTP", "TernCore", "TernTestSupport"], resources: [.copy("Fixtures")],
                    swiftSettings: strict),
        .testTarget(name: "TernMediaTests", dependencies: ["TernMedia", "TernCore"], swiftSettings: strict),
        .testTarget(name: "TernMediaPipelineTests", dependencies: ["TernMedia", "TernRTP", "TernCore", "TernTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TernPeerTests", dependencies: ["TernPeer", "TernCore", "TernICE", "TernRTP", "TernMedia", "TernSDP", "TernSCTP",
                                                    "TernTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TernPeerCoreTests", dependencies: ["TernPeer", "TernCore", "TernICE", "TernSDP", "TernDTLS", "TernTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TernSignalingTests",
                    dependencies: ["TernSignaling", "TernSignalingClient", "TernSignalingPostgres", "TernSignalingServer", "TernCore",
                                   "TernTestSupport", log,
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "NIOCore", package: "swift-nio"),
                                   .product(name: "NIOPosix", package: "swift-nio"),
                                   .product(name: "NIOHTTP1", package: "swift-nio"),
                                   .product(name: "NIOWebSocket", package: "swift-nio")],
                    swiftSettings: strict),
        .testTarget(name: "TernCallTests",
                    dependencies: ["TernCall", "TernCore", "TernPeer", "TernSignaling", "TernSignalingClient", "TernSignalingServer",
                                   "TernTestSupport"],
                    swiftSettings: strict),
        // Runs the built `tern` binary as a subprocess (it is built by `swift build --build-tests`).
        .testTarget(name: "TernCLITests", swiftSettings: strict),
        .testTarget(name: "TernTraceTests", dependencies: ["TernTrace", "TernCore"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (Fuzz/<Name>/main.swift) exist only in fuzz builds: they have no `main` of
// their own and link only with `--sanitize=fuzzer`. `make fuzz` sets TERN_FUZZ=1.
if ProcessInfo.processInfo.environment["TERN_FUZZ"] != nil {
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("SDP", ["TernSDP"]), ("Candidate", ["TernSDP"]), ("RTP", ["TernRTP"]), ("RTCP", ["TernRTP"]),
        ("SCTP", ["TernSCTP"]), ("DCEP", ["TernSCTP"]), ("VP8", ["TernMedia"]), ("DTLS", ["TernDTLS", "TernCore"]),
        ("Signaling", ["TernSignaling"]), ("ManageCall", ["TernCall"]),
        ("SCTPAssociation", ["TernSCTP", "TernCore"]), ("JSEP", ["TernSDP", "TernCore"]),
        ("DTLSClient", ["TernDTLS", "TernCore"]), ("MDNS", ["TernICE"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(name: "Fuzz\(name)", dependencies: dependencies,
                                                 path: "Fuzz/\(name)", swiftSettings: strict))
    }
}

// Benchmark executables (Benchmarks/<Name>/main.swift) exist only in benchmark builds, so that
// `make test` never compiles them. `make bench` sets TERN_BENCH=1 and builds in release mode.
if ProcessInfo.processInfo.environment["TERN_BENCH"] != nil {
    let benchmarkTargets: [(String, [Target.Dependency])] = [
        ("SCTPThroughput", ["TernSCTP", "TernCore", "TernTestSupport", "BenchSupport"]),
        ("SignalingLoad", ["TernSignaling", "TernSignalingClient", "TernSignalingPostgres", "TernSignalingServer", "BenchSupport", log]),
        ("SDPBench", ["TernSDP", "BenchSupport"]),
        ("RTPBench", ["TernRTP", "BenchSupport"]),
        ("DTLSBench", ["TernDTLS", "CBenchSRTP", "BenchSupport"]),
        ("MediaBench", ["TernMedia", "BenchSupport"]),
        ("PeerScale", ["TernPeer", "BenchSupport"]),
        ("DCThroughput", ["TernPeer", "TernICE", "TernMedia", "TernSCTP", "TernSDP", "BenchSupport", "BenchPeerSupport"]),
        ("CallCPU", ["TernPeer", "TernMedia", "TernSDP", "BenchSupport", "BenchPeerSupport"]),
        ("GroupCall", ["TernCall", "TernCore", "TernMedia", "TernPeer", "TernSignaling", "BenchSupport"]),
    ]
    for (name, dependencies) in benchmarkTargets {
        package.targets.append(.executableTarget(name: name, dependencies: dependencies,
                                                 path: "Benchmarks/\(name)", swiftSettings: strict))
    }
    // JSON-line output and timing helpers shared by the benchmark executables.
    package.targets.append(.target(name: "BenchSupport", path: "Benchmarks/BenchSupport", swiftSettings: strict))
    // Signaling over pipes between the two processes of DCThroughput and CallCPU.
    package.targets.append(.target(name: "BenchPeerSupport", dependencies: ["TernSDP"],
                                   path: "Benchmarks/BenchPeerSupport", swiftSettings: strict))
    // The bare libsrtp2 loop DTLSBench compares SRTPSession with (no Swift in the timed loop).
    package.targets.append(.target(name: "CBenchSRTP", dependencies: ["CSRTP"], path: "Benchmarks/CBenchSRTP"))
}

// The DocC plugin exists only in documentation builds (`make docs` sets TERN_DOCS=1 and builds
// into .build-docs), so the everyday package graph does not carry it.
if ProcessInfo.processInfo.environment["TERN_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
