/// The media an invite proposes (`{"audio":true,"video":true,"data":true}`).
///
/// A hint for the callee's user interface only: the session descriptions exchanged
/// after `accept` decide what is actually negotiated. Missing keys decode as `false`.
public struct MediaOptions: Codable, Hashable, Sendable {
    /// The caller intends to send and receive audio.
    public var audio: Bool
    /// The caller intends to send and receive video.
    public var video: Bool
    /// The caller intends to open data channels.
    public var data: Bool

    /// Creates media options; everything off unless said otherwise.
    public init(audio: Bool = false, video: Bool = false, data: Bool = false) {
        self.audio = audio
        self.video = video
        self.data = data
    }

    /// Audio only.
    public static let audioOnly = MediaOptions(audio: true)
    /// Audio, video and data.
    public static let audioVideo = MediaOptions(audio: true, video: true, data: true)

    private enum CodingKeys: String, CodingKey { case audio, video, data }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        audio = try container.decodeIfPresent(Bool.self, forKey: .audio) ?? false
        video = try container.decodeIfPresent(Bool.self, forKey: .video) ?? false
        data = try container.decodeIfPresent(Bool.self, forKey: .data) ?? false
    }
}

extension MediaOptions: CustomStringConvertible {
    /// `{audio:true,video:false,data:true}`.
    public var description: String { "{audio:\(audio),video:\(video),data:\(data)}" }
}
