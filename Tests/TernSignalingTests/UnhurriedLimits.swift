import TernSignaling

extension SignalingLimits {
    /// The server's limits for end-to-end tests that are not about its deadlines. The full suite
    /// starts every test at once and CPU-bound ones (VP8, the hostile-peer suite) hold the
    /// cooperative pool for a minute and more on two cores; a client connected at the start of a
    /// test may then wait past the 10 s register deadline before its task runs, and the server
    /// rightly closes it. The deadline has its own tests (SignalingAbuseLimitTests in virtual time,
    /// SignalingHostileClientsTests). Ring times stay as shipped: tests whose ring must outlast such
    /// a wait name a long `timeoutMs` in their invite.
    static var unhurried: SignalingLimits {
        var limits = SignalingLimits()
        limits.registerTimeoutMs = 600_000
        return limits
    }
}
