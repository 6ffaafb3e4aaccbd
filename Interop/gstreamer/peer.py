#!/usr/bin/python3
"""A GStreamer webrtcbin peer speaking Tern signaling protocol v1 (Docs/SIGNALING.md) over
WebSocket, for the interop matrix. Same command line and result line as Interop/aiortc/peer.py
for what it does: audio, video, echo on the remote's channels, and the call's life cycle.

    peer.py --signal ws://10.77.0.1:8787/v1 --user gst --answer --audio --expect-tone 440
    peer.py --signal ws://10.77.0.1:8787/v1 --user gst --call tern --video --duration 8

Debian's GStreamer (gstreamer1.0-plugins-bad for webrtcbin, gstreamer1.0-nice, python3-gst-1.0)
and the system python3 (for gi). Checks, each named in the result:
- audio: sends a sine of --tone Hz (audiotestsrc, Opus); the dominant frequency of what it
  decodes must be --expect-tone Hz within 2 %.
- video: sends 320x240 at 30 frames/s (videotestsrc, VP8); reads Tern's test-pattern counter
  from each decoded picture: distinct counters / (last - first + 1) must be at least 90 %.
- echo: sends back every message on every channel the remote opens (not 'manage-call').
- lifecycle (--on-invite reject|ignore, --cancel-after S, --hangup-after S): the signaling seen
  and sent is listed in 'signals'.
"""
import asyncio
import os
import sys

import gi
gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import Gst, GstSdp, GstWebRTC  # noqa: E402
import numpy  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from media_checks import read_counter  # noqa: E402
import signaling_peer  # noqa: E402
from signaling_peer import SignalingPeer, now_ms  # noqa: E402

VIDEO_W, VIDEO_H = 320, 240
RTP_CAPS = {"audio": "application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000",
            "video": "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000"}


class Peer(SignalingPeer):
    stack = "gstreamer"

    def __init__(self, args):
        super().__init__(args)
        self.loop = None
        self.remote_set = False
        self.pending_candidates = []
        self.remote_mids = []
        self.audio_samples, self.video_counters = [], []
        self.video_frames, self.video_size = 0, None
        self.sent = {"audio": 0, "video": 0}
        self.echoed, self.echo_labels, self.channels = 0, [], []
        self.pipe = self.webrtc = None

    def send_threadsafe(self, message):
        """From a GStreamer thread."""
        asyncio.run_coroutine_threadsafe(self.send(message), self.loop)

    async def on_description(self, desc):
        self.log("remote", desc["type"])
        self.remote_mids = [line[6:].strip() for line in desc["sdp"].splitlines() if line.startswith("a=mid:")]
        if desc["type"] == "offer":
            if self.pipe is None:
                self.make_pipeline(caller=False)
            await self.set_remote(GstWebRTC.WebRTCSDPType.OFFER, desc["sdp"])
            answer = await self.promise("create-answer", "answer", None)
            await self.set_local(GstWebRTC.WebRTCSDPType.ANSWER, answer)
            await self.send_description("answer", answer)
        else:
            await self.set_remote(GstWebRTC.WebRTCSDPType.ANSWER, desc["sdp"])
        self.remote_set = True
        for candidate in self.pending_candidates:
            self.add_candidate(candidate)
        self.pending_candidates = []

    async def on_candidate(self, candidate):
        if not self.remote_set:
            self.pending_candidates.append(candidate)
        else:
            self.add_candidate(candidate)

    def add_candidate(self, candidate):
        text = (candidate or {}).get("candidate") or ""
        if not text:
            return  # end-of-candidates: webrtcbin needs no marker
        index = candidate.get("sdpMLineIndex")
        if index is None and candidate.get("sdpMid") in self.remote_mids:
            index = self.remote_mids.index(candidate["sdpMid"])
        self.webrtc.emit("add-ice-candidate", index or 0, text[2:] if text.startswith("a=") else text)

    # ---- webrtcbin ------------------------------------------------------------------------
    async def promise(self, action, field, *extra):
        """Emits a webrtcbin action that answers through a GstPromise; the SDP text of the reply's
        description `field` (None when no field is asked for). The text is read inside the
        callback: the description in the reply is freed with the promise."""
        future = self.loop.create_future()

        def done(promise):
            reply = promise.get_reply()
            text = reply.get_value(field).sdp.as_text() if reply and field else None
            self.loop.call_soon_threadsafe(future.set_result, text)
        self.webrtc.emit(action, *extra, Gst.Promise.new_with_change_func(done))
        return await asyncio.wait_for(future, 10)

    @staticmethod
    def description(kind, sdp):
        _, message = GstSdp.SDPMessage.new_from_text(sdp)
        return GstWebRTC.WebRTCSessionDescription.new(kind, message)

    async def set_remote(self, kind, sdp):
        await self.promise("set-remote-description", None, self.description(kind, sdp))

    async def set_local(self, kind, sdp):
        await self.promise("set-local-description", None, self.description(kind, sdp))

    def make_pipeline(self, caller):
        args = self.args
        self.pipe = Gst.Pipeline.new("peer")
        self.webrtc = Gst.ElementFactory.make("webrtcbin", "webrtc")
        self.webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
        self.pipe.add(self.webrtc)
        if args.audio:
            self.add_source("audio", f"audiotestsrc is-live=true wave=sine freq={args.tone} volume=0.3 ! audioconvert ! "
                                     "audioresample ! audio/x-raw,rate=48000,channels=1 ! opusenc name=audioenc ! "
                                     "rtpopuspay pt=111")
        if args.video:
            self.add_source("video", f"videotestsrc is-live=true pattern=ball ! video/x-raw,width={VIDEO_W},height={VIDEO_H},"
                                     "framerate=30/1 ! videoconvert ! vp8enc name=videoenc deadline=1 target-bitrate=600000 "
                                     "keyframe-max-dist=60 ! rtpvp8pay pt=96")
        self.webrtc.connect("on-ice-candidate", self.on_ice_candidate)
        self.webrtc.connect("pad-added", self.on_pad_added)
        self.webrtc.connect("on-data-channel", lambda _, channel: self.adopt(channel))
        self.webrtc.connect("notify::connection-state", self.on_connection_state)
        self.pipe.set_state(Gst.State.PLAYING)
        if caller:
            # As the aiortc and browser peers do: the caller opens manage-call (webrtcbin takes
            # channels only once it left the NULL state).
            self.channels.append(self.webrtc.emit("create-data-channel", "manage-call", None))

    def add_source(self, kind, description):
        source = Gst.parse_bin_from_description(f"{description} ! capsfilter caps={RTP_CAPS[kind]}", True)
        self.pipe.add(source)
        source.link(self.webrtc)
        encoder = source.get_by_name(f"{kind}enc")
        encoder.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, self.count_sent, kind)

    def count_sent(self, _pad, _info, kind):
        self.sent[kind] += 1
        return Gst.PadProbeReturn.OK

    def on_ice_candidate(self, _element, index, candidate):
        self.send_threadsafe({"type": "candidate", "callId": self.call_id,
                              "candidate": {"candidate": candidate, "sdpMLineIndex": index}})

    def on_connection_state(self, element, _spec):
        state = element.get_property("connection-state")
        self.log("connection", state.value_nick)
        if state == GstWebRTC.WebRTCPeerConnectionState.CONNECTED:
            self.figures.setdefault("connectedMs", now_ms(self.start))
            self.loop.call_soon_threadsafe(self.connected.set)

    def on_pad_added(self, _element, pad):
        if pad.get_direction() != Gst.PadDirection.SRC:
            return
        media = pad.get_current_caps().get_structure(0).get_string("media")
        if media == "audio":
            chain = ("rtpopusdepay ! opusdec ! audioconvert ! audioresample ! "
                     "audio/x-raw,format=F32LE,rate=48000,channels=1 ! appsink name=sink emit-signals=true sync=false")
        else:
            chain = ("rtpvp8depay ! vp8dec ! videoconvert ! video/x-raw,format=I420 ! "
                     "appsink name=sink emit-signals=true sync=false")
        sink_bin = Gst.parse_bin_from_description(chain, True)
        self.pipe.add(sink_bin)
        sink_bin.sync_state_with_parent()
        pad.link(sink_bin.get_static_pad("sink"))
        sink_bin.get_by_name("sink").connect("new-sample", self.on_audio if media == "audio" else self.on_video)

    def on_audio(self, sink):
        buffer = sink.emit("pull-sample").get_buffer()
        self.audio_samples.append(numpy.frombuffer(buffer.extract_dup(0, buffer.get_size()), dtype=numpy.float32))
        return Gst.FlowReturn.OK

    def on_video(self, sink):
        sample = sink.emit("pull-sample")
        structure = sample.get_caps().get_structure(0)
        width, height = structure.get_value("width"), structure.get_value("height")
        buffer = sample.get_buffer()
        data = numpy.frombuffer(buffer.extract_dup(0, width * height), dtype=numpy.uint8)
        self.video_frames += 1
        self.video_size = f"{width}x{height}"
        # I420 with a width that is a multiple of 4: the luma rows are packed.
        counter = read_counter(data.reshape(height, width)) if width % 4 == 0 else None
        if counter is not None:
            self.video_counters.append(counter)
        return Gst.FlowReturn.OK

    def adopt(self, channel):
        label = channel.get_property("label")
        self.channels.append(channel)
        if label == "manage-call" or not self.args.echo:
            return
        self.echo_labels.append(label)

        def echo_string(ch, text):
            ch.emit("send-string", text)
            self.echoed += 1

        def echo_data(ch, data):
            ch.emit("send-data", data)
            self.echoed += 1
        channel.connect("on-message-string", echo_string)
        channel.connect("on-message-data", echo_data)

    # ---- the call's hooks ---------------------------------------------------------------
    async def run(self):
        self.loop = asyncio.get_running_loop()   # GStreamer's threads hand results to it
        await super().run()

    async def start_offer(self):
        self.make_pipeline(caller=True)
        offer = await self.promise("create-offer", "offer", None)
        await self.set_local(GstWebRTC.WebRTCSDPType.OFFER, offer)
        await self.send_description("offer", offer)

    async def close(self):
        if self.pipe:
            self.pipe.set_state(Gst.State.NULL)

    def version(self):
        return ".".join(map(str, Gst.version()[:3]))

    def finish_media(self):
        args = self.args
        if args.audio:
            self.audio_figures(self.audio_samples, self.sent["audio"],
                               samplesReceived=int(sum(len(chunk) for chunk in self.audio_samples)))
        if args.video:
            self.video_figures(self.video_counters, self.video_frames, self.video_size, f"{VIDEO_W}x{VIDEO_H}",
                               self.sent["video"])
        if args.echo:
            self.figures["echo"] = {"channels": self.echo_labels, "echoed": self.echoed}


def main():
    parser = signaling_peer.common_arguments(__doc__.split("\n\n")[0])
    args = parser.parse_args()
    Gst.init(None)
    signaling_peer.main(Peer, args)


if __name__ == "__main__":
    main()
