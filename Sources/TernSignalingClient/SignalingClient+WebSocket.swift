public import TernSignaling

extension SignalingClient {
    /// Connects to a signaling server over WebSocket (`ws://HOST:PORT/v1`).
    public static func connect(url: String, options: SignalingClientOptions = SignalingClientOptions())
        async throws(SignalingTransportError) -> SignalingClient
    {
        let transport = try await WebSocketSignalingTransport.connect(url: url)
        return SignalingClient(transport: transport, options: options)
    }
}
