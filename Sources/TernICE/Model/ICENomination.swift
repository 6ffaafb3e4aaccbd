/// How the controlling agent nominates the pair that carries data.
///
/// Only the controlling agent nominates; a controlled Tern agent accepts either kind (RFC 8445
/// §7.3.1.5 keeps accepting USE-CANDIDATE on any check for backward compatibility).
public enum ICENomination: String, Sendable, CaseIterable {
    /// RFC 8445 §8.1.1: check pairs, and once the stopping criterion holds, repeat the check of
    /// the chosen valid pair with USE-CANDIDATE. The default. libnice 0.1.21 spends three ticks
    /// of Ta on it: the first check, evaluating its stopping criterion, the nominating check.
    case regular
    /// RFC 5245 §8.1.1.2: every check carries USE-CANDIDATE and the first pair to succeed is
    /// selected, one tick of Ta after its check instead of three. RFC 8445 deprecates it
    /// because with several candidate pairs more than one can be nominated, and the controlled
    /// agent's selection can then move after data started to flow. Where only one pair can
    /// exist (one local host candidate on loopback, a peer with one candidate) it selects the
    /// same pair as regular nomination, sooner: `PeerConfiguration.loopback` uses it. Do not
    /// set it for agents that gather on real interfaces or use STUN/TURN servers.
    case aggressive
}
