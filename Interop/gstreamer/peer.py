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
import argparse
import asyncio
import json
import os
import sys
import time
import uuid

import gi
gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
from gi.repository import Gst, GstSdp, GstWebRTC  # noqa: E402
import numpy  # noqa: E402
import websockets  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from media_checks import AUDIO_RATE, dominant_hz, read_counter  # noqa: E402

VIDEO_W, VIDEO_H = 320, 240
RTP_CAPS = {"audio": "application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000",
            "video": "application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000"}


def now_ms(start):
    return round((time.monotonic() - start) * 1000, 1)


class Peer:
    def __init__(self, args):
        self.args = args
        self.start = time.monotonic()
        self.loop = None
        self.ws = None
        self.call_id = None
        self.signals, self.checks, self.figures = [], {}, {}
        self.inbox = asyncio.Queue()
        self.connected = asyncio.Event()
        self.ended = asyncio.Event()
        self.remote_set = False
        self.pending_candidates = []
        self.remote_mids = []
        self.audio_samples, self.video_counters = [], []
        self.video_frames, self.video_size = 0, None
        self.sent = {"audio": 0, "video": 0}
        self.echoed, self.echo_labels, self.channels = 0, [], []
        self.pipe = self.webrtc = None

    def log(self, *parts):
        print(f"[gstreamer {now_ms(self.start)} ms]", *parts, file=sys.stderr, flush=True)

    # ---- signaling ------------------------------------------------------------------------
    async def send(self, message):
        await self.ws.send(json.dumps(message))

    def send_threadsafe(self, message):
        """From a GStreamer thread."""
        asyncio.run_coroutine_threadsafe(self.send(message), self.loop)

    async def reader(self):
        try:
            async for text in self.ws:
                message = json.loads(text)
                kind = message.get("type")
                if kind in ("description", "candidate"):
                    await self.on_signal(message)
                else:
                    self.signals.append(kind if kind != "reject" else f"reject:{message.get('reason')}")
                    if kind in ("hangup", "cancel", "timeout", "reject", "answeredElsewhere"):
                        self.ended.set()
                    await self.inbox.put(message)
        except websockets.ConnectionClosed:
            pass

    async def expect(self, types, timeout):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = await asyncio.wait_for(self.inbox.get(), left)
            except asyncio.TimeoutError:
                return None
            if message.get("type") in types:
                return message
            self.log("ignored", json.dumps(message)[:200])

    async def on_signal(self, message):
        if message["type"] == "description":
            desc = message["description"]
            self.log("remote", desc["type"])
            self.remote_mids = [line[6:].strip() for line in desc["sdp"].splitlines() if line.startswith("a=mid:")]
            if desc["type"] == "offer":
                if self.pipe is None:
                    self.make_pipeline(caller=False)
                await self.set_remote(GstWebRTC.WebRTCSDPType.OFFER, desc["sdp"])
                answer = await self.promise("create-answer", "answer", None)
                await self.set_local(GstWebRTC.WebRTCSDPType.ANSWER, answer)
                await self.send({"type": "description", "callId": self.call_id,
                                 "description": {"type": "answer", "sdp": answer}})
            else:
                await self.set_remote(GstWebRTC.WebRTCSDPType.ANSWER, desc["sdp"])
            self.remote_set = True
            for candidate in self.pending_candidates:
                self.add_candidate(candidate)
            self.pending_candidates = []
        elif not self.remote_set:
            self.pending_candidates.append(message.get("candidate"))
        else:
            self.add_candidate(message.get("candidate"))

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

    # ---- the call -------------------------------------------------------------------------
    async def run(self):
        args = self.args
        self.loop = asyncio.get_running_loop()
        async with websockets.connect(args.signal, max_size=2 ** 21) as ws:
            self.ws = ws
            await self.send({"type": "register", "user": args.user, "token": args.token})
            registered = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if registered.get("type") != "registered":
                self.checks["register"] = f"failed: {registered}"
                return
            print(json.dumps({"event": "registered", "user": args.user}), flush=True)
            reader = asyncio.ensure_future(self.reader())
            if args.call:
                await self.call()
            else:
                await self.answer()
            reader.cancel()
        if self.pipe:
            self.pipe.set_state(Gst.State.NULL)

    async def call(self):
        args = self.args
        self.call_id = str(uuid.uuid4())
        await self.send({"type": "invite", "callId": self.call_id, "to": args.call,
                         "media": {"audio": args.audio, "video": args.video, "data": True}, "timeoutMs": 30000})
        if args.cancel_after is not None:
            ringing = await self.expect({"ringing", "accept", "reject"}, 10)
            await asyncio.sleep(args.cancel_after)
            await self.send({"type": "cancel", "callId": self.call_id})
            self.signals.append("sent:cancel")
            self.checks["lifecycle"] = "ok" if ringing and ringing.get("type") == "ringing" else \
                f"failed: expected ringing before the cancel, got {ringing}"
            await asyncio.sleep(0.5)
            return
        answer = await self.expect({"accept", "reject", "timeout", "cancel"}, 35)
        if answer is None or answer["type"] != "accept":
            if args.expect_reject:
                ok = answer is not None and answer["type"] == "reject"
                self.checks["lifecycle"] = "ok" if ok else f"failed: expected a reject, got {answer}"
            else:
                self.checks["connect"] = f"failed: no accept ({answer})"
            return
        self.make_pipeline(caller=True)
        offer = await self.promise("create-offer", "offer", None)
        await self.set_local(GstWebRTC.WebRTCSDPType.OFFER, offer)
        await self.send({"type": "description", "callId": self.call_id,
                         "description": {"type": "offer", "sdp": offer}})
        await self.in_call()

    async def answer(self):
        args = self.args
        invite = await self.expect({"invite"}, args.wait)
        if invite is None:
            self.checks["incoming"] = "failed: no invite"
            return
        self.call_id = invite["callId"]
        self.figures["invite"] = {"from": invite.get("from"), "media": invite.get("media")}
        await self.send({"type": "ringing", "callId": self.call_id})
        if args.on_invite == "reject":
            await asyncio.sleep(0.3)
            await self.send({"type": "reject", "callId": self.call_id, "reason": "declined"})
            self.signals.append("sent:reject")
            self.checks["lifecycle"] = "ok"
            await asyncio.sleep(0.5)
            return
        if args.on_invite == "ignore":
            ended = await self.expect({"cancel", "timeout"}, args.wait)
            self.checks["lifecycle"] = "ok" if ended and ended["type"] == "cancel" else f"failed: got {ended}"
            return
        await self.send({"type": "accept", "callId": self.call_id})
        await self.in_call()

    async def in_call(self):
        args = self.args
        try:
            await asyncio.wait_for(self.connected.wait(), 20)
        except asyncio.TimeoutError:
            self.checks["connect"] = "failed: not connected within 20 s"
            return
        self.checks["connect"] = "ok"
        started = time.monotonic()
        seconds = args.hangup_after if args.hangup_after is not None else args.duration
        try:
            await asyncio.wait_for(self.ended.wait(), max(seconds - (time.monotonic() - started), 0.01))
        except asyncio.TimeoutError:
            pass
        if not self.ended.is_set():
            await self.send({"type": "hangup", "callId": self.call_id})
            self.signals.append("sent:hangup")
        self.finish_media()

    def finish_media(self):
        args = self.args
        if args.audio:
            samples = numpy.concatenate(self.audio_samples) if self.audio_samples else numpy.zeros(0)
            hz = dominant_hz(samples, AUDIO_RATE)
            self.figures["audio"] = {"samplesReceived": int(len(samples)), "toneHz": hz, "framesSent": self.sent["audio"]}
            if args.expect_tone:
                ok = hz is not None and abs(hz - args.expect_tone) <= args.expect_tone * 0.02
                self.checks["audio"] = "ok" if ok else f"failed: heard {hz} Hz, expected {args.expect_tone} Hz"
        if args.video:
            counters = self.video_counters
            distinct = len(set(counters))
            span = (max(counters) - min(counters) + 1) if counters else 0
            ratio = distinct / span if span else 0
            self.figures["video"] = {"framesDecoded": self.video_frames, "countersRead": len(counters),
                                     "distinctCounters": distinct, "counterSpan": span, "decodedRatio": round(ratio, 3),
                                     "resolution": self.video_size, "sentResolution": f"{VIDEO_W}x{VIDEO_H}",
                                     "framesSent": self.sent["video"], "inOrder": counters == sorted(counters)}
            self.checks["video"] = "ok" if span >= 30 and ratio >= 0.9 else \
                f"failed: {distinct} of {span} frames decoded ({ratio:.0%})"
        if args.echo:
            self.figures["echo"] = {"channels": self.echo_labels, "echoed": self.echoed}

    def result(self):
        passed = bool(self.checks) and all(v == "ok" for v in self.checks.values())
        return {"result": True, "pass": passed, "user": self.args.user, "role": "caller" if self.args.call else "answerer",
                "gstreamer": ".".join(map(str, Gst.version()[:3])), "checks": self.checks, "figures": self.figures,
                "signals": self.signals}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signal", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--token", default="")
    role = parser.add_mutually_exclusive_group(required=True)
    role.add_argument("--call", metavar="OTHER")
    role.add_argument("--answer", action="store_true")
    parser.add_argument("--audio", action="store_true")
    parser.add_argument("--video", action="store_true")
    parser.add_argument("--echo", action="store_true")
    parser.add_argument("--tone", type=float, default=1200)
    parser.add_argument("--expect-tone", type=float)
    parser.add_argument("--duration", type=float, default=8, help="caller: call length; answerer: max wait once up")
    parser.add_argument("--wait", type=float, default=30)
    parser.add_argument("--on-invite", choices=["accept", "reject", "ignore"], default="accept")
    parser.add_argument("--expect-reject", action="store_true")
    parser.add_argument("--cancel-after", type=float)
    parser.add_argument("--hangup-after", type=float)
    args = parser.parse_args()
    Gst.init(None)
    peer = Peer(args)
    try:
        asyncio.run(peer.run())
    except Exception as error:  # noqa: BLE001 - reported in the result line
        peer.checks["exception"] = f"failed: {type(error).__name__}: {error}"
    result = peer.result()
    print(json.dumps(result), flush=True)
    sys.exit(0 if result["pass"] else 1)


if __name__ == "__main__":
    main()
