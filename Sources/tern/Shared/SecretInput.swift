import ArgumentParser
import Foundation
import TernICE

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

/// TURN servers from `--turn` URLs: inline `turn:USER:PASS@HOST:PORT` (visible in `ps`), or
/// `turn:HOST:PORT` with the credentials from `--turn-credentials-file` (first line
/// `USER:PASS`) or `TERN_TURN_USERNAME` and `TERN_TURN_PASSWORD`.
enum TurnServers {
    static func resolve(_ urls: [String], credentialsFile: String?) throws -> [ICEServer] {
        var credentials: (username: String, password: String)?
        func stored() throws -> (username: String, password: String) {
            if let credentials { return credentials }
            if let credentialsFile {
                guard let line = try SecretInput.resolve(option: nil, file: credentialsFile, environment: ""),
                      let colon = line.firstIndex(of: ":") else {
                    throw ValidationError("--turn-credentials-file: the first line must be USER:PASS")
                }
                credentials = (String(line[..<colon]), String(line[line.index(after: colon)...]))
            } else if let user = ProcessInfo.processInfo.environment["TERN_TURN_USERNAME"],
                      let password = ProcessInfo.processInfo.environment["TERN_TURN_PASSWORD"] {
                credentials = (user, password)
            }
            guard let credentials else {
                throw ValidationError("a --turn URL without USER:PASS@ needs --turn-credentials-file or TERN_TURN_USERNAME and TERN_TURN_PASSWORD")
            }
            return credentials
        }
        do {
            return try urls.map { url in
                if url.contains("@") { return try ICEServer(inlineCredentialsURL: url) }
                let (username, password) = try stored()
                return try ICEServer(url: url, username: username, credential: password)
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
