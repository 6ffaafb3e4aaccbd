import ArgumentParser
import Foundation
import TernMedia

/// `tern pattern`: the test pattern `tern peer --video` sends, written as a YUV4MPEG2 file, so
/// another stack can send the very same pictures (Chromium's
/// `--use-file-for-fake-video-capture`): a comparison of two encoders or congestion controllers
/// is only fair when both encode the same content.
struct PatternCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pattern",
        abstract: "Write the video test pattern as a .y4m file (30 frames/s, I420).")

    @Option(help: ArgumentHelp("The picture's size, WxH (even, up to 1920x1080).", valueName: "WxH"))
    var size = "640x480"

    @Option(help: ArgumentHelp("Seconds of video (30 frames each).", valueName: "s"))
    var seconds = 10

    @Option(help: ArgumentHelp("Noise, ±N luma levels changing every frame (`tern peer --video-grain`; 0-64, default 0).", valueName: "N"))
    var grain = 0

    @Option(help: ArgumentHelp("The file to write.", valueName: "path"))
    var out: String

    func run() throws {
        guard let parsed = MediaPump.VideoSize(parsing: size) else {
            throw ValidationError("--size must be WxH with even numbers, 16-1920 wide and 16-1080 high (e.g. 640x480)")
        }
        guard (1...120).contains(seconds) else { throw ValidationError("--seconds must be 1-120") }
        guard TestPatternSource.grainRange.contains(grain) else { throw ValidationError("--grain must be 0-64") }
        guard FileManager.default.createFile(atPath: out, contents: nil), let file = FileHandle(forWritingAtPath: out) else {
            throw ValidationError("cannot write \(out)")
        }
        defer { try? file.close() }
        // YUV4MPEG2: a header line, then "FRAME\n" and the three planes of each picture.
        try file.write(contentsOf: Data("YUV4MPEG2 W\(parsed.width) H\(parsed.height) F30:1 Ip A1:1 C420jpeg\n".utf8))
        var pattern = TestPatternSource(width: parsed.width, height: parsed.height, grain: grain)
        for _ in 0..<(30 * seconds) {
            let frame = pattern.nextFrame()
            var bytes = Data("FRAME\n".utf8)
            Self.append(frame.y, stride: frame.strideY, width: frame.width, rows: frame.height, to: &bytes)
            Self.append(frame.u, stride: frame.strideU, width: frame.chromaWidth, rows: frame.chromaHeight, to: &bytes)
            Self.append(frame.v, stride: frame.strideV, width: frame.chromaWidth, rows: frame.chromaHeight, to: &bytes)
            try file.write(contentsOf: bytes)
        }
    }

    private static func append(_ plane: [UInt8], stride: Int, width: Int, rows: Int, to bytes: inout Data) {
        for row in 0..<rows { bytes.append(contentsOf: plane[(row * stride)..<(row * stride + width)]) }
    }
}
