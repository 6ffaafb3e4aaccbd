public import TernSignaling

extension SignalingClient {
    /// Connects to a signaling server over WebSocket: `ws://HOST:PORT/v1`, or `wss://…` with
    /// the server's certificate checked against `tls` (the system's roots by default).
    public static func connect(url: String, options: SignalingClientOptions = SignalingClientOptions(),
                               tls: SignalingClientTLS = .system)
        async throws(SignalingTransportError) -> SignalingClient
    {
        let transport = try await WebSocketSignalingTransport.connect(url: url, tls: tls)
        return SignalingClient(transport: transport, options: options)
    }
}
