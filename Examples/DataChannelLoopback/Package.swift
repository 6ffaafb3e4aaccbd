// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DataChannelLoopback",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Tern by path: this example lives inside the Tern repository (Docs/EMBEDDING.md shows
        // the git URL form for a project elsewhere).
        .package(name: "Tern", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "DataChannelLoopback",
            dependencies: [.product(name: "TernPeer", package: "Tern")]
        ),
    ]
)
