import Foundation
import Synchronization
import TernCore
import TernTrace

/// The debug tool's output: timestamped lines, human-readable by default (colours only on a
/// TTY), or one JSON object per line with `--json`.
final class Timeline: Sendable {
    enum Style: Sendable { case text(colour: Bool), json }

    private let style: Style
    private let clock = SystemClock()
    private let start: Instant
    private let lock = Mutex(())
    private let recorded = Mutex<[TimelineEntry]>([])
    /// Set once the summary is printed: it stays the last line, whatever a late task still logs.
    private let finished = Mutex(false)
    /// The live progress line at the bottom of a terminal (text mode on a TTY only), or nil.
    private let progressLine = Mutex<String?>(nil)
    private var isTerminal: Bool { if case .text(colour: true) = style { true } else { false } }

    /// Everything logged so far (for `--report`).
    var entries: [TimelineEntry] { recorded.withLock { $0 } }

    init(json: Bool) {
        style = json ? .json : .text(colour: isatty(STDOUT_FILENO) != 0)
        start = clock.now()
    }

    /// Milliseconds since the timeline started.
    var elapsedMilliseconds: Double { (clock.now() - start).milliseconds }

    /// One event: `category` (call, sdp, ice, dtls, dc, media, stats, ...) and a message, with
    /// structured fields for `--json`.
    func log(_ category: String, _ message: String, fields: [String: JSONValue] = [:]) {
        let t = elapsedMilliseconds
        guard !finished.withLock({ $0 }) else { return }
        recorded.withLock { $0.append(TimelineEntry(tMs: t, category: category, message: message)) }
        lock.withLock { _ in
            switch style {
            case let .text(colour):
                let stamp = String(format: "%8.1f ms", t)
                let tag = colour ? "\u{1B}[1;\(Self.colourCode(category))m\(category.padding(toLength: 6, withPad: " ", startingAt: 0))\u{1B}[0m"
                    : category.padding(toLength: 6, withPad: " ", startingAt: 0)
                // On a terminal the progress line stays at the bottom: clear it, print, redraw it.
                let progress = colour ? progressLine.withLock { $0 } : nil
                if progress != nil { print("\r\u{1B}[2K", terminator: "") }
                print("\(stamp)  \(tag) \(message)")
                if let progress { print(progress, terminator: "") }
            case .json:
                var object = fields
                object["t"] = .number(((t * 10).rounded()) / 10)
                object["category"] = .string(category)
                object["message"] = .string(message)
                print(JSONValue.object(object).serialized)
            }
            fflush(nil)  // all streams: `stdout` itself is not concurrency-safe to name
        }
    }

    /// Replaces the live progress line (elapsed/remaining time, counters) shown under the log on
    /// a terminal; does nothing in JSON mode or when stdout is not a TTY (logs stay plain).
    func progress(_ text: String) {
        guard isTerminal, !finished.withLock({ $0 }) else { return }
        lock.withLock { _ in
            let line = "\u{1B}[2m▶ \(text)\u{1B}[0m"
            progressLine.withLock { $0 = line }
            print("\r\u{1B}[2K\(line)", terminator: "")
            fflush(nil)  // all streams: `stdout` itself is not concurrency-safe to name
        }
    }

    /// A multi-line block (an SDP), indented in text mode, one field in JSON mode (left out with
    /// `jsonCarriesText: false`, when `fields` hold the same thing structured).
    func block(_ category: String, _ title: String, _ body: String, fields: [String: JSONValue] = [:],
               jsonCarriesText: Bool = true) {
        switch style {
        case .json:
            var object = fields
            if jsonCarriesText { object["text"] = .string(body) }
            log(category, title, fields: object)
        case .text:
            guard !finished.withLock({ $0 }) else { return }
            log(category, title)
            lock.withLock { _ in
                let progress = progressLine.withLock { $0 }
                if progress != nil { print("\r\u{1B}[2K", terminator: "") }
                for line in body.split(whereSeparator: \.isNewline) { print("              | \(line)") }
                if let progress { print(progress, terminator: "") }
                fflush(nil)  // all streams: `stdout` itself is not concurrency-safe to name
            }
        }
    }

    /// The final line: the summary object (JSON) or a readable summary (text).
    func summary(_ value: JSONValue, text: String) {
        finished.withLock { $0 = true }
        lock.withLock { _ in
            if progressLine.withLock({ $0 }) != nil { print("\r\u{1B}[2K", terminator: "") }  // the summary replaces it
            switch style {
            case .json: print(value.serialized)
            case .text: print(text)
            }
            fflush(nil)  // all streams: `stdout` itself is not concurrency-safe to name
        }
    }

    private static func colourCode(_ category: String) -> Int {
        switch category {
        case "call": 35
        case "ice": 36
        case "dtls": 33
        case "dc": 32
        case "media", "stats": 34
        case "error": 31
        default: 37
        }
    }
}
