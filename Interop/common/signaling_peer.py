"""The protocol-v1 side the Python interop peers share (Interop/aiortc/peer.py,
Interop/gstreamer/peer.py): register, invite or answer one call, the life-cycle variants the
matrix asks for (reject, ignore, cancel, hang up), and the result line. A subclass brings the
media stack through four hooks: `on_description` and `on_candidate` (signals for its peer
connection), `start_offer` (caller, once accepted), `start_answerer` (answerer, once it
accepted), plus `exercise`, `before_hangup`, `finish_media`, `close` and `version` as needed.

Each peer prints `{"event":"registered"}` once registered and, last, one JSON result line:
{"result", "pass", "user", "role", <stack>: version, "checks", "figures", "signals"}.
"""
import argparse
import asyncio
import json
import sys
import time
import uuid

import numpy
import websockets

from media_checks import dominant_hz


def now_ms(start):
    return round((time.monotonic() - start) * 1000, 1)


def common_arguments(description):
    """The command line both peers take; a peer adds its own options to the parser."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--signal", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--token", default="", help="registration token (JWT; `tern signal token` mints one)")
    role = parser.add_mutually_exclusive_group(required=True)
    role.add_argument("--call", metavar="OTHER")
    role.add_argument("--answer", action="store_true")
    parser.add_argument("--audio", action="store_true")
    parser.add_argument("--video", action="store_true")
    parser.add_argument("--echo", action="store_true", help="echo every message on the channels the remote opens")
    parser.add_argument("--tone", type=float, default=880)
    parser.add_argument("--expect-tone", type=float)
    parser.add_argument("--duration", type=float, default=8, help="caller: call length; answerer: max wait once up")
    parser.add_argument("--wait", type=float, default=30)
    parser.add_argument("--on-invite", choices=["accept", "reject", "ignore"], default="accept")
    parser.add_argument("--expect-reject", action="store_true")
    parser.add_argument("--cancel-after", type=float)
    parser.add_argument("--hangup-after", type=float)
    return parser


class SignalingPeer:
    stack = "peer"   # the result line's key for the stack's version

    def __init__(self, args):
        self.args = args
        self.start = time.monotonic()
        self.ws = None
        self.call_id = None
        self.signals, self.checks, self.figures = [], {}, {}
        self.inbox = asyncio.Queue()
        self.connected = asyncio.Event()
        self.ended = asyncio.Event()

    def log(self, *parts):
        print(f"[{self.stack} {now_ms(self.start)} ms]", *parts, file=sys.stderr, flush=True)

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def send_description(self, kind, sdp):
        await self.send({"type": "description", "callId": self.call_id, "description": {"type": kind, "sdp": sdp}})

    # ---- hooks --------------------------------------------------------------------------------
    async def on_description(self, description):
        raise NotImplementedError

    async def on_candidate(self, candidate):
        raise NotImplementedError

    async def start_offer(self):
        """Caller, once accepted: create the peer connection and send the offer."""
        raise NotImplementedError

    async def start_answerer(self):
        """Answerer, once it accepted: get ready for the offer."""

    async def exercise(self):
        """Once connected: what the call is for, besides media (data tests, envelopes)."""

    async def before_hangup(self):
        """Just before the call ends: figures only the live connection has."""

    def finish_media(self):
        """Media checks and figures, once the call is over."""

    async def close(self):
        """After the call: release the stack."""

    def version(self):
        return "?"

    # ---- the call -----------------------------------------------------------------------------
    async def reader(self):
        try:
            async for text in self.ws:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "description":
                    await self.on_description(message["description"])
                elif kind == "candidate":
                    await self.on_candidate(message.get("candidate"))
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

    async def run(self):
        args = self.args
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
        await self.close()

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
        await self.start_offer()
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
        await self.start_answerer()
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
        await self.exercise()
        seconds = args.hangup_after if args.hangup_after is not None else args.duration
        if args.hangup_after is None and not args.call:
            seconds += time.monotonic() - started   # the answerer's --duration counts after the exercise
        try:
            await asyncio.wait_for(self.ended.wait(), max(seconds - (time.monotonic() - started), 0.01))
        except asyncio.TimeoutError:
            pass
        await self.before_hangup()
        if not self.ended.is_set():
            await self.send({"type": "hangup", "callId": self.call_id})
            self.signals.append("sent:hangup")
        self.finish_media()

    # ---- media figures both stacks report the same way ------------------------------------------
    def audio_figures(self, samples, sent, **extra):
        """figures.audio and check `audio` (with --expect-tone) from the received mono samples."""
        hz = dominant_hz(numpy.concatenate(samples) if samples else numpy.zeros(0))
        self.figures["audio"] = {"toneHz": hz, "framesSent": sent, **extra}
        if self.args.expect_tone:
            ok = hz is not None and abs(hz - self.args.expect_tone) <= self.args.expect_tone * 0.02
            self.checks["audio"] = "ok" if ok else f"failed: heard {hz} Hz, expected {self.args.expect_tone} Hz"

    def video_figures(self, counters, decoded, size, sent_size, sent):
        """figures.video and check `video`: distinct test-pattern counters read / their span ≥ 90 %."""
        distinct = len(set(counters))
        span = (max(counters) - min(counters) + 1) if counters else 0
        ratio = distinct / span if span else 0
        self.figures["video"] = {"framesDecoded": decoded, "countersRead": len(counters), "distinctCounters": distinct,
                                 "counterSpan": span, "decodedRatio": round(ratio, 3), "resolution": size,
                                 "sentResolution": sent_size, "framesSent": sent, "inOrder": counters == sorted(counters)}
        self.checks["video"] = "ok" if span >= 30 and ratio >= 0.9 else \
            f"failed: {distinct} of {span} frames decoded ({ratio:.0%})"

    def result(self):
        passed = bool(self.checks) and all(v == "ok" for v in self.checks.values())
        return {"result": True, "pass": passed, "user": self.args.user, "role": "caller" if self.args.call else "answerer",
                self.stack: self.version(), "checks": self.checks, "figures": self.figures, "signals": self.signals}


def main(peer_class, args):
    """Runs one peer and prints its result line; the exit status says whether every check passed."""
    peer = peer_class(args)
    try:
        asyncio.run(peer.run())
    except Exception as error:  # noqa: BLE001 - reported in the result line
        peer.checks["exception"] = f"failed: {type(error).__name__}: {error}"
    result = peer.result()
    print(json.dumps(result), flush=True)
    sys.exit(0 if result["pass"] else 1)
