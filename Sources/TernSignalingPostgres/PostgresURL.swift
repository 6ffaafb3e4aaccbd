import Foundation
import PostgresNIO

/// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]` as
/// postgres-nio's client configuration (parsed by Foundation's `URLComponents`).
enum PostgresURL {
    static func configuration(_ text: String) throws(SignalingPostgresError) -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql",
              let host = url.host, !host.isEmpty else {
            throw .badURL(text, "expected postgres://user:password@host:port/database")
        }
        let user = url.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let database = url.path.isEmpty || url.path == "/" ? user : String(url.path.dropFirst())
        let sslmode = url.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch sslmode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default: throw .badURL(text, "sslmode must be disable, prefer or require")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user,
            password: url.password.flatMap { $0.removingPercentEncoding }, database: database, tls: tls)
        configuration.options.maximumConnections = 8
        return configuration
    }
}
