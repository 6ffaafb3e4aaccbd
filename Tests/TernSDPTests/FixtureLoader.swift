import Foundation
import TernSDP

/// Loads the captured descriptions under Fixtures/ (see Fixtures/README.md for how each was captured).
enum FixtureLoader {
    struct Fixture: CustomStringConvertible {
        let name: String
        let text: String
        var description: String { name }
        var isOffer: Bool { name.contains("offer") }
    }

    static func directory() -> URL? {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)
    }

    static func all() -> [Fixture] {
        guard let dir = directory(),
              let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return names.filter { $0.hasSuffix(".sdp") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) else { return nil }
            return Fixture(name: name, text: String(decoding: data, as: UTF8.self))
        }
    }

    static func named(_ name: String) -> String? {
        all().first { $0.name == name }?.text
    }

    /// A file under Fixtures/interop/ (Tern's own offers used by the interop scripts).
    static func interop(_ name: String) -> String? {
        guard let dir = directory(),
              let data = FileManager.default.contents(atPath: dir.appendingPathComponent("interop").appendingPathComponent(name).path)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
