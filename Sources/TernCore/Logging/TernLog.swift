public import Logging

/// Loggers for Tern's subsystems, labelled `tern.<subsystem>`.
///
/// Tern logs through swift-log; an application chooses the backend with
/// `LoggingSystem.bootstrap`. Per-packet paths never log above `.trace`.
public enum TernLog {
    /// A logger for one subsystem (`"sdp"`, `"ice"`, `"dtls"`, ...).
    public static func logger(_ subsystem: String) -> Logger {
        Logger(label: "tern.\(subsystem)")
    }
}
