import ArgumentParser
import Foundation

/// A secret given on the command line (visible to every local user in `ps`), in a file, or in
/// an environment variable: the first of the three that is set. A file holds the secret on its
/// first line (surrounding whitespace and the line break are dropped).
enum SecretInput {
    static func resolve(option: String?, file: String?, environment name: String) throws -> String? {
        if let option, !option.isEmpty { return option }
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read \(file)")
            }
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let secret = first.trimmingCharacters(in: .whitespaces)
            guard !secret.isEmpty else { throw ValidationError("\(file) is empty") }
            return secret
        }
        if let value = ProcessInfo.processInfo.environment[name], !value.isEmpty { return value }
        return nil
    }
}
