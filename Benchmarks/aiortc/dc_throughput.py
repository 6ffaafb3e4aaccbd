"""aiortc ↔ aiortc data-channel throughput and set-up latency, two processes on loopback: the
peer figures of `dc_throughput_loopback_MBps` and `setup_ms` (Benchmarks/DCThroughput measures
Tern ↔ Tern the same way).

    dc_throughput.py [parent] [--bytes N] [--message-size S] [--runs R] [--warm-up W] [--high B] [--low B] [--quick]
                    [--audio]  (offerer also sends aiortc's AudioStreamTrack; figure setup_ms_audio ends at the
                               answerer's first decoded frame too)
    dc_throughput.py child      (spawned by the parent; signals over its stdin/stdout)

One child process (this script) serves every run; each run creates a fresh RTCPeerConnection in
both processes (the child makes its next one, then says `ready`); the two exchange offer and answer as JSON lines over the child's pipes (aiortc does not
trickle: each description carries every candidate, sent once gathering is complete). The parent
opens one reliable ordered channel and, once it is open on both sides, sends N bytes (64 MiB)
in S-byte messages (64 KiB), keeping bufferedAmount under --high (4 MiB) and waiting for the
`bufferedamountlow` event (threshold --low, 1 MiB); the child reports the time of the last byte.
Times are time.monotonic() (CLOCK_MONOTONIC, shared by the two processes).

  dc_throughput_loopback_MBps  N / (child's last byte − parent's first send), 10^6 bytes/s
  setup_ms                     parent's createOffer → channel open on both sides (the child's
                               channel is open when aiortc's `datachannel` event fires)

Loopback: aioice leaves 127.0.0.1 out of its host candidates (aioice.ice.get_host_addresses
skips it), so this script replaces that function with one that returns only 127.0.0.1 — the
same single loopback candidate Tern's `PeerConfiguration.loopback` uses. No STUN server
(`iceServers=[]`; aiortc's default would query stun.l.google.com).

Prints one JSON line per figure (the BenchSupport.Figure format) with "role": "peer". Nothing
is asserted.
"""
import asyncio
import json
import os
import statistics
import sys
import time
from importlib.metadata import version

import aioice.ice

# DCBENCH_ICE_ADDRESS / DCBENCH_CHILD_WRAPPER: the same two knobs as Benchmarks/DCThroughput, so
# the 50 ms-RTT row runs the two processes in two network-lab namespaces.
ICE_ADDRESS = os.environ.get("DCBENCH_ICE_ADDRESS", "127.0.0.1")
aioice.ice.get_host_addresses = lambda use_ipv4, use_ipv6: [ICE_ADDRESS]

from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription  # noqa: E402
from aiortc.mediastreams import AudioStreamTrack  # noqa: E402


def options(argv):
    quick = "--quick" in argv
    audio = "--audio" in argv
    argv = [a for a in argv if a != "--audio"]
    opts = {"audio": audio, "bytes": 64 * 1024 * 1024, "message-size": 64 * 1024, "runs": 3 if quick else 5,
            "high": 4 * 1024 * 1024, "low": 1024 * 1024, "warm-up": 0, "throughput-figure": "dc_throughput_loopback_MBps", "setup-figure": "setup_ms"}
    args = [a for a in argv if a != "--quick"]
    for flag, value in zip(args[::2], args[1::2]):
        key = flag.lstrip("-")
        if key not in opts:
            sys.exit(f"dc_throughput.py: unknown option {flag}")
        opts[key] = value if key.endswith("-figure") else int(value)
    return opts


def log(message):
    print(f"dc_throughput.py: {message}", file=sys.stderr, flush=True)


class Child:
    """The child process, spawned once for all runs; its signals go to the run in progress
    (a signal that arrives between runs, the next `ready`, waits for the next run)."""

    async def start(self):
        wrapper = os.environ.get("DCBENCH_CHILD_WRAPPER", "").split()
        self.proc = await asyncio.create_subprocess_exec(
            *wrapper, sys.executable, os.path.abspath(__file__), "child",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        self.queue = asyncio.Queue()
        self.ending = False
        self.reader = asyncio.ensure_future(self.read_signals())

    async def read_signals(self):
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                break
            await self.queue.put(json.loads(line))
        if not self.ending:
            log("the child process ended early (its stderr above says why)")
            os._exit(1)

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    async def finish(self):
        self.ending = True
        self.send({"type": "exit"})
        await self.proc.wait()
        self.reader.cancel()


async def parent_run(opts, run, child):
    loop = asyncio.get_running_loop()
    waiting = {kind: loop.create_future() for kind in ("ready", "answer", "open", "audio", "done")}

    async def route_signals():
        while True:
            message = await child.queue.get()
            future = waiting.get(message["type"])
            if future is not None and not future.done():
                future.set_result(message)
            if message["type"] == "done" or (opts["bytes"] == 0 and all(
                    waiting[k].done() for k in (("open", "audio") if opts["audio"] else ("open",)))):
                return

    router = asyncio.ensure_future(route_signals())
    pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
    channel = pc.createDataChannel("bench", ordered=True)
    channel.bufferedAmountLowThreshold = opts["low"]
    opened = asyncio.Event()
    low = asyncio.Event()
    channel.on("open", opened.set)
    channel.on("bufferedamountlow", low.set)
    if opts["audio"]:
        pc.addTrack(AudioStreamTrack())  # aiortc's own 20 ms audio source (silence), sendonly
    await waiting["ready"]

    # Set-up: createOffer → open on both sides.
    setup_start = time.monotonic()
    offer = await pc.createOffer()
    await pc.setLocalDescription(offer)  # returns once gathering is complete
    child.send({"type": "offer", "sdp": pc.localDescription.sdp, "bytes": opts["bytes"]})
    answer = await waiting["answer"]
    await pc.setRemoteDescription(RTCSessionDescription(sdp=answer["sdp"], type="answer"))
    await opened.wait()
    parent_opened = time.monotonic()
    child_opened = (await waiting["open"])["time"]
    setup_ms = (max(parent_opened, child_opened) - setup_start) * 1000
    if opts["audio"]:
        # With audio the run ends at the answerer's first decoded audio frame too.
        first_audio = (await waiting["audio"])["time"]
        setup_ms = (max(parent_opened, child_opened, first_audio) - setup_start) * 1000

    throughput = None
    total, size = opts["bytes"], opts["message-size"]
    if total > 0:
        payload = b"\xab" * size
        start = time.monotonic()
        sent = 0
        while sent < total:
            while sent < total and channel.bufferedAmount <= opts["high"]:
                chunk = payload if total - sent >= size else payload[: total - sent]
                channel.send(chunk)
                sent += len(chunk)
            if sent >= total:
                break
            low.clear()
            await low.wait()
        done = await waiting["done"]
        if done["bytes"] != total:
            sys.exit(f"dc_throughput.py: the child received {done['bytes']} bytes, not {total}")
        throughput = total / (done["time"] - start) / 1e6
        log(f"run {run}: set-up {setup_ms:.1f} ms, {total} bytes in {done['messages']} messages in "
            f"{done['time'] - start:.3f} s: {throughput:.1f} MB/s")
    else:
        log(f"run {run}: set-up {setup_ms:.1f} ms")

    await router
    child.send({"type": "bye"})
    await pc.close()
    return setup_ms, throughput


async def child():
    # Signals go to a private copy of stdout; anything printing to stdout goes to stderr.
    signals = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)

    def send(message):
        signals.write(json.dumps(message) + "\n")
        signals.flush()

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def new_run():
        """A fresh RTCPeerConnection for the next offer."""
        pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        state = {"expected": 0, "received": 0, "messages": 0}

        @pc.on("track")
        def on_track(track):
            async def first_frame():
                await track.recv()  # decoded by aiortc's receiver
                send({"type": "audio", "time": time.monotonic()})
                while True:
                    await track.recv()
            state["audio"] = asyncio.ensure_future(first_frame())

        @pc.on("datachannel")
        def on_datachannel(channel):
            # aiortc sets readyState "open" before it fires `datachannel`.
            send({"type": "open", "time": time.monotonic()})

            @channel.on("message")
            def on_message(message):
                state["received"] += len(message)
                state["messages"] += 1
                if state["expected"] and state["received"] >= state["expected"]:
                    send({"type": "done", "time": time.monotonic(), "bytes": state["received"],
                          "messages": state["messages"]})
        return pc, state

    pc, state = new_run()
    send({"type": "ready"})
    while True:
        line = await reader.readline()
        if not line:
            break
        message = json.loads(line)
        if message["type"] == "offer":
            state["expected"] = message.get("bytes", 0)
            await pc.setRemoteDescription(RTCSessionDescription(sdp=message["sdp"], type="offer"))
            answer = await pc.createAnswer()
            await pc.setLocalDescription(answer)
            send({"type": "answer", "sdp": pc.localDescription.sdp})
        elif message["type"] == "bye":
            if "audio" in state:
                state["audio"].cancel()
            await pc.close()
            pc, state = new_run()
            send({"type": "ready"})
        elif message["type"] == "exit":
            break
    await pc.close()


def figure(name, unit, samples):
    return json.dumps({
        "name": name, "role": "peer", "peer": f"aiortc {version('aiortc')}", "unit": unit,
        "value": statistics.median(samples), "runs": len(samples), "min": min(samples),
        "max": max(samples), "samples": samples,
    })


async def parent(opts):
    setups, throughputs = [], []
    child_process = Child()
    await child_process.start()
    for run in range(1, opts["runs"] + 1):
        setup_ms, throughput = await asyncio.wait_for(parent_run(opts, run, child_process), timeout=300)
        if run <= opts["warm-up"]:
            continue  # the first connection of a fresh process pair: not counted
        setups.append(setup_ms)
        if throughput is not None:
            throughputs.append(throughput)
    await child_process.finish()
    if throughputs:
        name = opts["throughput-figure"]
        if "_Mbps" in name:
            print(figure(name, "Mbit/s", [t * 8 for t in throughputs]), flush=True)
        else:
            print(figure(name, "MB/s", throughputs), flush=True)
    if opts["setup-figure"] != "none":  # "none": only the transfer is measured here
        print(figure("setup_ms_audio" if opts["audio"] else opts["setup-figure"], "ms", setups), flush=True)


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["child"]:
        asyncio.run(child())
        return
    if argv[:1] == ["parent"]:
        argv = argv[1:]
    asyncio.run(parent(options(argv)))


if __name__ == "__main__":
    main()
