#!/usr/bin/env python3
"""An aiortc peer speaking Tern signaling protocol v1 (Docs/SIGNALING.md) over WebSocket,
for the interop matrix (issue #10). It calls or answers one call, sends and verifies media and
data-channel messages, and prints one JSON result line (the last line of stdout).

    peer.py --signal ws://10.77.0.1:8787/v1 --user aio --answer --audio --video --data-test
    peer.py --signal ws://10.77.0.1:8787/v1 --user aio --call tern --echo --duration 8

Run by Interop/aiortc/run-matrix in a network namespace; needs aiortc, websockets, numpy.

What it verifies (each a named check in the result):
- audio: the dominant frequency of the received audio (FFT over the last seconds) is
  --expect-tone Hz within 2 %; it sends a sine of --tone Hz (Opus, 20 ms frames).
- video: it sends 320x240 frames at 30 fps carrying Tern's test-pattern counter
  (TernMedia TestPatternLayout: 8x4 blocks in the top half of the luma, 16-bit counter then
  its complement), and reads the counter back from every decoded frame; decoded distinct
  counters / (last - first + 1) must be at least 90 %.
- data (--data-test): opens 'aio-reliable' (ordered, reliable), 'aio-unordered'
  (ordered: false) and 'aio-rtx0' (ordered: false, maxRetransmits: 0); on the reliable one sends
  1,000 messages alternating text and binary, sizes cycling 1 B ... 64 KiB, plus one text and
  one binary message at the remote's max-message-size; the remote (tern peer --echo) must
  return each byte for byte, in order. The unordered channel must return every message
  (any order); the maxRetransmits: 0 channel must return only messages that were sent, each
  intact and at most once (loss allowed; aiortc sends them last, and the peer waits for them
  until 2 s pass without one once the reliable and unordered echoes are all back).
- echo (--echo): sends back every message on every channel the remote opens (not
  'manage-call'), and counts them.
- lifecycle (--on-invite reject|ignore, --cancel-after S, --hangup-after S): the signaling
  flow seen (reject, cancel, hangup) is reported in 'signals'.
"""
import asyncio
import fractions
import json
import math
import os
import sys
import time

import numpy
from aiortc import (RTCConfiguration, RTCPeerConnection, RTCSessionDescription,
                    MediaStreamTrack)
from aiortc.mediastreams import MediaStreamError
from aiortc.sdp import candidate_from_sdp
import av

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import media_checks  # noqa: E402
import signaling_peer  # noqa: E402
from signaling_peer import SignalingPeer, now_ms  # noqa: E402

AUDIO_RATE = 48000
AUDIO_FRAME = 960  # 20 ms
VIDEO_W, VIDEO_H = 320, 240
SIZES = [1, 2, 3, 7, 16, 100, 500, 1000, 1200, 1500, 4096, 8192, 16384, 32768, 65535, 65536]


class ToneTrack(MediaStreamTrack):
    """A sine tone, 48 kHz mono s16, 20 ms frames, paced in real time."""
    kind = "audio"

    def __init__(self, hz):
        super().__init__()
        self.hz = hz
        self.sent = 0
        self._start = None

    async def recv(self):
        if self.readyState != "live":
            raise MediaStreamError
        if self._start is None:
            self._start = time.time()
        wait = self._start + self.sent * AUDIO_FRAME / AUDIO_RATE - time.time()
        if wait > 0:
            await asyncio.sleep(wait)
        n = numpy.arange(self.sent * AUDIO_FRAME, (self.sent + 1) * AUDIO_FRAME)
        samples = (numpy.sin(2 * math.pi * self.hz * n / AUDIO_RATE) * 12000).astype(numpy.int16)
        frame = av.AudioFrame.from_ndarray(samples.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = AUDIO_RATE
        frame.pts = self.sent * AUDIO_FRAME
        frame.time_base = fractions.Fraction(1, AUDIO_RATE)
        self.sent += 1
        return frame


def pattern_blocks(counter):
    value = (counter << 16) | (~counter & 0xFFFF)
    return [(value >> (31 - i)) & 1 for i in range(32)]


class PatternTrack(MediaStreamTrack):
    """320x240 at 30 fps, the frame counter drawn as Tern's test pattern (TestPatternLayout)."""
    kind = "video"

    def __init__(self):
        super().__init__()
        self.sent = 0
        self._start = None

    async def recv(self):
        if self.readyState != "live":
            raise MediaStreamError
        if self._start is None:
            self._start = time.time()
        wait = self._start + self.sent / 30 - time.time()
        if wait > 0:
            await asyncio.sleep(wait)
        counter = self.sent & 0xFFFF
        yuv = numpy.full((VIDEO_H * 3 // 2, VIDEO_W), 128, dtype=numpy.uint8)
        yuv[:VIDEO_H, :] = 90
        bw, bh = VIDEO_W // 8, (VIDEO_H // 2) // 4
        for i, bit in enumerate(pattern_blocks(counter)):
            x, y = (i % 8) * bw, (i // 8) * bh
            yuv[y:y + bh, x:x + bw] = 235 if bit else 16
        frame = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
        frame.pts = self.sent * 3000
        frame.time_base = fractions.Fraction(1, 90000)
        self.sent += 1
        return frame


def read_counter(frame):
    """Tern's test-pattern counter in a decoded frame (Interop/common/media_checks.py)."""
    y = frame.to_ndarray(format="yuv420p")[:frame.height, :frame.width]
    return media_checks.read_counter(y)


MANAGE_NOTE = 'héllo "tern" \\ / ✓\ttab'


def video_direction(sdp):
    """The direction attribute of the first video section of `sdp` ('sendrecv' when absent); None without video."""
    in_video = False
    direction = None
    for line in sdp.splitlines():
        if line.startswith("m="):
            if in_video:
                break
            in_video = line.startswith("m=video")
            direction = "sendrecv" if in_video else None
        elif in_video and line[2:] in ("sendrecv", "sendonly", "recvonly", "inactive") and line.startswith("a="):
            direction = line[2:]
    return direction


def manage_envelope(event_type, items):
    """The exact bytes Docs/MANAGE-CALL.md prescribes: two keys in order, no whitespace,
    RFC 8259 escapes with lowercase \\u00xx, non-ASCII and '/' as UTF-8."""
    return json.dumps({"eventType": event_type,
                       "manageCallEventData": [{"dataName": n, "dataValue": v} for n, v in items]},
                      ensure_ascii=False, separators=(",", ":"))


def test_message(index, size, binary):
    """Deterministic content: binary bytes, or text of exactly `size` UTF-8 bytes with non-ASCII."""
    if binary:
        return bytes((index * 7 + i * 13) % 256 for i in range(size)) if size < 4096 else \
            (bytes((index * 7 + i * 13) % 256 for i in range(4096)) * (size // 4096 + 1))[:size]
    head = f"{index}:".encode()
    unit = "tern↔aiortc é ".encode()
    body = (head + unit * (size // len(unit) + 1))[:size]
    while True:  # cut at a character boundary, pad with ASCII
        try:
            text = body.decode()
            break
        except UnicodeDecodeError:
            body = body[:-1]
    return text + "x" * (size - len(text.encode()))


class Peer(SignalingPeer):
    stack = "aiortc"

    def __init__(self, args):
        super().__init__(args)
        self.pc = None
        self.remote_desc_set = asyncio.Event()
        self.pending_candidates = []
        self.audio_samples = []
        self.audio_frames = 0
        self.video_counters = []
        self.video_frames = 0
        self.video_size = None
        self.echoed = 0
        self.echo_labels = []
        self.tone_track = None
        self.video_track = None
        self.remote_max_message = None
        self.manage_channel = None
        self.manage_received = []
        self.video_requests = []      # videoRequest envelopes answered (--accept-video)
        self.video_offers = []        # the video direction of each re-offer after the first
        self.tasks = []

    async def on_description(self, desc):
        self.log("remote", desc["type"])
        self.remote_max_message = self.max_message_size(desc["sdp"])
        if desc["type"] == "offer":
            if self.pc is None:
                self.make_pc()
            await self.pc.setRemoteDescription(RTCSessionDescription(sdp=desc["sdp"], type="offer"))
            if self.args.accept_video:
                self.video_offers.append(video_direction(desc["sdp"]))
            self.attach_media_after_offer()
            answer = await self.pc.createAnswer()
            await self.pc.setLocalDescription(answer)
            await self.send_description("answer", self.pc.localDescription.sdp)
            await self.send({"type": "candidate", "callId": self.call_id, "candidate": None})
        elif desc["type"] == "answer":
            await self.pc.setRemoteDescription(RTCSessionDescription(sdp=desc["sdp"], type="answer"))
        self.remote_desc_set.set()
        for candidate in self.pending_candidates:
            await self.add_candidate(candidate)
        self.pending_candidates = []

    async def on_candidate(self, candidate):
        if not self.remote_desc_set.is_set():
            self.pending_candidates.append(candidate)
        else:
            await self.add_candidate(candidate)

    async def add_candidate(self, candidate):
        if candidate is None:
            await self.pc.addIceCandidate(None)
            return
        text = candidate.get("candidate") or ""
        if not text:
            await self.pc.addIceCandidate(None)
            return
        parsed = candidate_from_sdp(text.split(":", 1)[1] if text.startswith("candidate:") else text)
        parsed.sdpMid = candidate.get("sdpMid")
        parsed.sdpMLineIndex = candidate.get("sdpMLineIndex")
        await self.pc.addIceCandidate(parsed)

    @staticmethod
    def max_message_size(sdp):
        for line in sdp.splitlines():
            if line.startswith("a=max-message-size:"):
                try:
                    return int(line.split(":", 1)[1])
                except ValueError:
                    return None
        return 65536 if "m=application" in sdp else None

    def make_pc(self):
        self.pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))

        @self.pc.on("connectionstatechange")
        async def on_state():
            self.log("connection", self.pc.connectionState)
            if self.pc.connectionState == "connected":
                self.figures.setdefault("connectedMs", now_ms(self.start))
                self.connected.set()
            if self.pc.connectionState == "failed":
                self.checks.setdefault("connect", "failed: ICE/DTLS connection failed")
                self.ended.set()

        @self.pc.on("track")
        def on_track(track):
            self.log("remote track", track.kind)
            self.tasks.append(asyncio.ensure_future(self.consume(track)))

        @self.pc.on("datachannel")
        def on_datachannel(channel):
            self.log("remote data channel", channel.label, "ordered" if channel.ordered else "unordered",
                     f"maxRetransmits={channel.maxRetransmits}")
            if channel.label == "manage-call":
                self.adopt_manage(channel)
                return
            if not self.args.echo:
                return
            self.echo_labels.append(channel.label)

            @channel.on("message")
            def on_message(message):
                channel.send(message)
                self.echoed += 1

    def adopt_manage(self, channel):
        self.manage_channel = channel

        @channel.on("message")
        def on_message(message):
            self.manage_received.append(message)
            if self.args.accept_video:
                self.answer_video_request(channel, message)

    def answer_video_request(self, channel, message):
        """Docs/MANAGE-CALL.md: accept a videoRequest with the mirrored mode; the requester then
        re-offers, and attach_media_after_offer sends our pattern on the video section it adds."""
        try:
            envelope = json.loads(message)
        except (TypeError, ValueError):
            return
        if envelope.get("eventType") != "videoRequest":
            return
        items = {d.get("dataName"): d.get("dataValue") for d in envelope.get("manageCallEventData") or []}
        mirror = {"sendrecv": "sendrecv", "sendonly": "recvonly", "recvonly": "sendonly", "inactive": "inactive"}
        mode = mirror.get(items.get("videoMode"), "inactive")
        channel.send(manage_envelope("videoAnswer", [("requestId", items.get("requestId") or ""), ("videoMode", mode)]))
        self.video_requests.append({"requestId": items.get("requestId"), "requested": items.get("videoMode"), "answered": mode})
        self.log("video request", items.get("requestId"), items.get("videoMode"), "accepted as", mode)

    async def manage_call(self):
        """Sends the envelopes of --manage-call (byte-exact format of Docs/MANAGE-CALL.md) and checks
        that the envelope --expect-message describes arrives byte for byte."""
        deadline = time.monotonic() + 10
        while self.manage_channel is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        channel = self.manage_channel
        if channel is None or not await self.wait_open([channel], 10):
            self.checks["manage-call"] = "failed: manage-call channel not open within 10 s"
            return
        for envelope in (manage_envelope("sendMessage", [("from", "aiortc"), ("note", MANAGE_NOTE)]),
                         manage_envelope("callMinimized", [])):
            channel.send(envelope)
        if self.args.expect_message:
            items = [tuple(item.split("=", 1)) for item in self.args.expect_message]
            expected = manage_envelope("sendMessage", items)
            deadline = time.monotonic() + 10
            while expected not in self.manage_received and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            self.figures["manageCall"] = {"received": self.manage_received[:5]}
            self.checks["manage-call"] = "ok" if expected in self.manage_received else \
                f"failed: expected {expected!r}, received {self.manage_received[:5]!r}"
        else:
            self.checks["manage-call"] = "ok"

    def attach_media_caller(self):
        if self.args.audio:
            self.tone_track = ToneTrack(self.args.tone)
            self.pc.addTrack(self.tone_track)
        if self.args.video:
            self.video_track = PatternTrack()
            self.pc.addTrack(self.video_track)

    def attach_media_after_offer(self):
        # The answerer attaches its tracks to the transceivers the offer created.
        for transceiver in self.pc.getTransceivers():
            if transceiver.kind == "audio" and self.args.audio and self.tone_track is None:
                self.tone_track = ToneTrack(self.args.tone)
                transceiver.sender.replaceTrack(self.tone_track)
                transceiver.direction = "sendrecv"
            if transceiver.kind == "video" and (self.args.video or self.video_requests) and self.video_track is None:
                self.video_track = PatternTrack()
                transceiver.sender.replaceTrack(self.video_track)
                transceiver.direction = "sendrecv"

    async def consume(self, track):
        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            if track.kind == "audio":
                self.audio_frames += 1
                data = frame.to_ndarray()
                channels = len(frame.layout.channels)
                mono = data.reshape(-1, channels)[:, 0] if data.ndim == 2 and data.shape[0] == 1 else data[0]
                self.audio_samples.append(mono.astype(numpy.float64))
                if len(self.audio_samples) > 300:  # keep ~6 s
                    self.audio_samples = self.audio_samples[-300:]
            else:
                self.video_frames += 1
                self.video_size = f"{frame.width}x{frame.height}"
                counter = read_counter(frame)
                if counter is not None:
                    self.video_counters.append(counter)

    # ---- data-channel test ------------------------------------------------------------------

    async def data_test(self):
        pc = self.pc
        reliable = pc.createDataChannel("aio-reliable")
        unordered = pc.createDataChannel("aio-unordered", ordered=False)
        rtx0 = pc.createDataChannel("aio-rtx0", ordered=False, maxRetransmits=0)
        received = {"aio-reliable": [], "aio-unordered": [], "aio-rtx0": []}
        for channel in (reliable, unordered, rtx0):
            channel.on("message", lambda m, label=channel.label: received[label].append(m))
        opened = await self.wait_open([reliable, unordered, rtx0], 15)
        if not opened:
            self.checks["data"] = "failed: channels did not open within 15 s: " + ", ".join(
                f"{c.label}={c.readyState}" for c in (reliable, unordered, rtx0))
            return
        remote_max = self.remote_max_message or 65536
        sent = {"aio-reliable": [], "aio-unordered": [], "aio-rtx0": []}
        t0 = time.monotonic()
        for i in range(1000):
            m = test_message(i, SIZES[i % len(SIZES)], binary=(i % 2 == 1))
            sent["aio-reliable"].append(m)
        sent["aio-reliable"].append(test_message(1000, remote_max, binary=False))
        sent["aio-reliable"].append(test_message(1001, remote_max, binary=True))
        for i in range(200):
            sent["aio-unordered"].append(test_message(i, SIZES[i % 12], binary=(i % 2 == 0)))
            sent["aio-rtx0"].append(test_message(i, SIZES[i % 10], binary=(i % 2 == 0)))
        total_bytes = sum(len(m.encode()) if isinstance(m, str) else len(m) for m in sent["aio-reliable"])
        send_errors = []
        for label, channel in (("aio-reliable", reliable), ("aio-unordered", unordered), ("aio-rtx0", rtx0)):
            for m in sent[label]:
                while channel.bufferedAmount > 1 << 20:
                    await asyncio.sleep(0.002)
                try:
                    channel.send(m)
                except Exception as error:  # noqa: BLE001 - reported in the result
                    send_errors.append(f"{label}: {error}")
                    break
        deadline = time.monotonic() + self.args.data_timeout
        reliable_done = None
        rtx0_seen, rtx0_progress = -1, None
        while time.monotonic() < deadline:
            now = time.monotonic()
            if reliable_done is None and len(received["aio-reliable"]) >= len(sent["aio-reliable"]):
                reliable_done = now
            others_done = reliable_done is not None and len(received["aio-unordered"]) >= len(sent["aio-unordered"])
            # aiortc sends one queue in order: the maxRetransmits-0 messages leave after the
            # reliable and unordered ones, so their silence is timed from when those are back.
            if others_done and (rtx0_progress is None or len(received["aio-rtx0"]) != rtx0_seen):
                rtx0_progress = now
            rtx0_seen = len(received["aio-rtx0"])
            # maxRetransmits 0 may lose messages for good: stop 2 s after its last arrival.
            if others_done and (rtx0_seen >= len(sent["aio-rtx0"]) or now - rtx0_progress > 2):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # stragglers
        elapsed = (reliable_done or time.monotonic()) - t0

        def key(m):
            return (type(m).__name__, m if isinstance(m, bytes) else m.encode())
        r_sent, r_got = sent["aio-reliable"], received["aio-reliable"]
        mismatches = sum(1 for a, b in zip(r_sent, r_got) if key(a) != key(b))
        reliable_ok = len(r_got) == len(r_sent) and mismatches == 0
        u_sent = sorted(key(m) for m in sent["aio-unordered"])
        u_got = sorted(key(m) for m in received["aio-unordered"])
        unordered_ok = u_sent == u_got
        in_order_u = [key(m) for m in received["aio-unordered"]] == [key(m) for m in sent["aio-unordered"]]
        from collections import Counter
        x_sent, x_got = Counter(key(m) for m in sent["aio-rtx0"]), Counter(key(m) for m in received["aio-rtx0"])
        rtx0_ok = all(x_sent[k] >= v for k, v in x_got.items()) and len(received["aio-rtx0"]) > 0
        self.figures["data"] = {
            "reliable": {"sent": len(r_sent), "echoed": len(r_got), "mismatched": mismatches, "bytes": total_bytes,
                         "maxMessageSize": remote_max, "seconds": round(elapsed, 2)},
            "unordered": {"sent": len(sent["aio-unordered"]), "echoed": len(received["aio-unordered"]),
                          "arrivedInSendOrder": in_order_u},
            "maxRetransmits0": {"sent": len(sent["aio-rtx0"]), "echoed": len(received["aio-rtx0"]),
                                "foreignOrDuplicate": sum(max(0, v - x_sent[k]) for k, v in x_got.items())},
            "sendErrors": send_errors,
        }
        problems = []
        if send_errors:
            problems.append("send errors: " + "; ".join(send_errors[:3]))
        if not reliable_ok:
            first_bad = next((i for i, (a, b) in enumerate(zip(r_sent, r_got)) if key(a) != key(b)), None)
            problems.append(f"reliable: {len(r_got)}/{len(r_sent)} echoed, {mismatches} differ"
                            + (f" (first at #{first_bad})" if first_bad is not None else ""))
        if not unordered_ok:
            problems.append(f"unordered: {len(received['aio-unordered'])}/{len(sent['aio-unordered'])} echoed or differ")
        if not rtx0_ok:
            problems.append(f"maxRetransmits0: {len(received['aio-rtx0'])}/{len(sent['aio-rtx0'])} echoed, "
                            "foreign/duplicate or none")
        self.checks["data"] = "ok" if not problems else "failed: " + "; ".join(problems)

    async def wait_open(self, channels, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(c.readyState == "open" for c in channels):
                return True
            await asyncio.sleep(0.05)
        return False

    # ---- call flow ---------------------------------------------------------------------------

    async def start_offer(self):
        self.make_pc()
        self.adopt_manage(self.pc.createDataChannel("manage-call"))
        self.attach_media_caller()
        offer = await self.pc.createOffer()
        await self.pc.setLocalDescription(offer)
        await self.send_description("offer", self.pc.localDescription.sdp)
        await self.send({"type": "candidate", "callId": self.call_id, "candidate": None})

    async def start_answerer(self):
        self.make_pc()

    async def exercise(self):
        if self.args.manage_call:
            await self.manage_call()
        if self.args.data_test:
            await self.data_test()

    async def before_hangup(self):
        await self.collect_rtp_stats()

    async def close(self):
        for task in self.tasks:
            task.cancel()
        if self.pc:
            await self.pc.close()

    def version(self):
        return __import__("aiortc").__version__

    async def collect_rtp_stats(self):
        """aiortc's inbound-rtp figures (packets, loss, jitter in ms) per kind."""
        try:
            report = await self.pc.getStats()
        except Exception as error:  # noqa: BLE001 - figures only
            self.log("getStats failed:", error)
            return
        for stats in report.values():
            if getattr(stats, "type", None) == "inbound-rtp":
                rate = 48000 if stats.kind == "audio" else 90000
                self.figures.setdefault("rtp", {})[stats.kind] = {
                    "packetsReceived": stats.packetsReceived, "packetsLost": stats.packetsLost,
                    "jitterMs": round(stats.jitter * 1000 / rate, 2)}

    def finish_media(self):
        args = self.args
        if args.audio:
            self.audio_figures(self.audio_samples, self.tone_track.sent if self.tone_track else 0,
                               framesReceived=self.audio_frames)
        if args.video:
            self.video_figures(self.video_counters, self.video_frames, self.video_size, f"{VIDEO_W}x{VIDEO_H}",
                               self.video_track.sent if self.video_track else 0)
        if args.accept_video:
            # Video a Tern re-offer added to an audio call (and then set inactive again).
            self.figures["videoAdded"] = {"requests": self.video_requests, "offers": self.video_offers,
                                          "framesDecoded": self.video_frames, "resolution": self.video_size,
                                          "framesSent": self.video_track.sent if self.video_track else 0,
                                          "finalDirections": [f"{t.kind}:{t.currentDirection}"
                                                              for t in self.pc.getTransceivers()] if self.pc else []}
            directions = [d for d in self.video_offers if d is not None]
            # The request that adds video, then (removal needs no consent but is announced the
            # same way) the one that sets it inactive.
            requested = [r.get("requested") for r in self.video_requests]
            ok = bool(requested) and requested[0] == "sendrecv" and self.video_frames >= 30 \
                and len(directions) >= 2 and directions[0] != "inactive" and directions[-1] == "inactive"
            self.checks["videoAdded"] = "ok" if ok else \
                f"failed: requests {self.video_requests}, offers {self.video_offers}, {self.video_frames} frames decoded"
        if args.echo:
            self.figures["echo"] = {"channels": self.echo_labels, "echoed": self.echoed}


def main():
    parser = signaling_peer.common_arguments(__doc__.split("\n\n")[0])
    parser.add_argument("--data-test", action="store_true")
    parser.add_argument("--data-timeout", type=float, default=60)
    parser.add_argument("--manage-call", action="store_true", help="send sendMessage and callMinimized envelopes")
    parser.add_argument("--accept-video", action="store_true",
                        help="accept a videoRequest on manage-call and send video on the section the re-offer adds")
    parser.add_argument("--expect-message", action="append", metavar="NAME=VALUE",
                        help="the sendMessage envelope expected from the remote (items in order)")
    signaling_peer.main(Peer, parser.parse_args())


if __name__ == "__main__":
    main()
