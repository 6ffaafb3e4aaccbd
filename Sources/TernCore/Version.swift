/// Tern's version, reported by `tern --version` and in traces.
public enum TernVersion {
    public static let string = "0.1.0"
}
