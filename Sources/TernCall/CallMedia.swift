/// The media a call offers, as carried in the signaling `invite` (`media` object,
/// Docs/SIGNALING.md). A hint for the callee's UI: what is really negotiated is in the
/// session descriptions the driver exchanges.
public struct CallMedia: Hashable, Sendable, CustomStringConvertible {
    /// An audio stream is wanted.
    public var audio: Bool
    /// A video stream is wanted.
    public var video: Bool
    /// A data channel is wanted (the `manage-call` channel is always opened by the caller).
    public var data: Bool

    /// Creates a media hint; absent keys on the wire are `false`.
    public init(audio: Bool = false, video: Bool = false, data: Bool = false) {
        self.audio = audio
        self.video = video
        self.data = data
    }

    /// Audio and data: the usual start of a call that may be escalated to video.
    public static let audioOnly = CallMedia(audio: true, video: false, data: true)
    /// Audio, video and data.
    public static let audioVideo = CallMedia(audio: true, video: true, data: true)

    public var description: String {
        "{audio:\(audio),video:\(video),data:\(data)}"
    }
}
