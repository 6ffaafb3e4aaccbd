#!/usr/bin/env python3
"""Congestion-control figures of a Tern <-> Tern audio+video call across the network lab
(issue #25): runs Interop/netlab/scenarios/lossy-call with a drop-tail rate limit (TBF) and a
50 ms RTT, both peers sending a 640x480 test pattern, stats every second; reads both peers'
W3C stats lines and prints one JSON figure line per figure (Benchmarks/assemble.py), each
direction of each run one sample.

    cc_call.py --rate 1 --duration 40 --runs 3     cc_1mbit_rtt50_utilization,
                                                   cc_1mbit_rtt50_queue_delay_p95_ms,
                                                   cc_freeze_s_per_min_1mbit
    cc_call.py --rate 0.3 --duration 30 --runs 3   cc_300k_startup_freeze_s,
                                                   cc_300k_queue_delay_p95_ms

Utilization: audio + video bytes received over the last 20 s / the link's capacity in that time.
Queue delay: the selected pair's RTT (STUN, every second) minus the base RTT (50 ms), p95 over
the last 20 s. Start-up freeze: W3C totalFreezesDuration of the received video 10 s after the
first stats line. Needs root (the lab); TERN (default .build-bench/release/tern). Figures are
printed, never asserted.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BASE_RTT_MS = 50.0


def reports(path):
    """(t ms, report entries) of each W3C stats line of one peer."""
    out = []
    with open(path) as stream:
        for line in stream:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("category") == "w3cstats" and isinstance(event.get("report"), list):
                out.append((float(event.get("t", 0)), event["report"]))
    return out


def entries(report, kind, media=None):
    return [e for e in report if e.get("type") == kind and (media is None or e.get("kind") == media)]


def received_bytes(report):
    return sum(e.get("bytesReceived", 0) + e.get("headerBytesReceived", 0) for e in entries(report, "inbound-rtp"))


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def one_run(rate, duration, tern):
    keep = tempfile.mkdtemp(prefix="tern-cc-")
    env = dict(os.environ, KEEP_LOGS=keep, ECHO_COUNT="10", RATE=str(rate), DELAY="25", JITTER="0", REORDER="0",
               LOSS="0", DURATION=str(duration), TERN=tern, PEER_ARGS="--stats-interval 1 --video-size 640x480")
    subprocess.run([os.path.join(REPO, "Interop/netlab/scenarios/lossy-call")], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=duration + 120, check=False)
    sides = []
    for peer in ("alice", "bob"):
        path = os.path.join(keep, f"{peer}.jsonl")
        if os.path.exists(path):
            lines = [r for r in reports(path) if entries(r[1], "inbound-rtp", "video")]
            if len(lines) >= 3:
                sides.append(lines)
    return sides


def figures_of(side, rate_bps):
    end = side[-1][0]
    tail = [r for r in side if r[0] >= end - 20_000]
    span = (tail[-1][0] - tail[0][0]) / 1000
    utilization = (received_bytes(tail[-1][1]) - received_bytes(tail[0][1])) * 8 / (rate_bps * span) if span > 0 else None
    delays = []
    for _, report in tail:
        pairs = entries(report, "candidate-pair")
        rtt = pairs[0].get("currentRoundTripTime") if pairs else None
        if rtt is not None:
            delays.append(max(0.0, rtt * 1000 - BASE_RTT_MS))
    start = side[0][0]
    startup = [r for r in side if r[0] <= start + 10_000]
    video_start = entries(startup[-1][1], "inbound-rtp", "video")
    startup_freeze = video_start[0].get("totalFreezesDuration") if video_start else None
    video_end = entries(side[-1][1], "inbound-rtp", "video")
    total_freeze = video_end[0].get("totalFreezesDuration") if video_end else None
    minutes = (side[-1][0] - side[0][0]) / 60_000
    return {"utilization": utilization, "queue_p95": percentile(delays, 0.95), "startup_freeze": startup_freeze,
            "freeze_per_min": total_freeze / minutes if total_freeze is not None and minutes > 0 else None}


def emit(name, unit, samples):
    samples = [s for s in samples if s is not None]
    if not samples:
        return
    ordered = sorted(samples)
    median = ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    print(json.dumps({"name": name, "unit": unit, "value": median, "runs": len(samples), "min": ordered[0],
                      "max": ordered[-1], "samples": samples}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, required=True, help="Mbit/s each way")
    parser.add_argument("--duration", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("cc_call: needs root (network namespaces)", file=sys.stderr)
        return 77
    tern = os.environ.get("TERN", os.path.join(REPO, ".build-bench/release/tern"))
    measured = []
    for _ in range(args.runs):
        measured += [figures_of(side, args.rate * 1e6) for side in one_run(args.rate, args.duration, tern)]
    if not measured:
        print("cc_call: no stats lines from the call", file=sys.stderr)
        return 1
    if args.rate >= 1:
        emit("cc_1mbit_rtt50_utilization", "ratio", [m["utilization"] for m in measured])
        emit("cc_1mbit_rtt50_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured])
        emit("cc_freeze_s_per_min_1mbit", "s/min", [m["freeze_per_min"] for m in measured])
    else:
        emit("cc_300k_startup_freeze_s", "s", [m["startup_freeze"] for m in measured])
        emit("cc_300k_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured])
    return 0


sys.exit(main())
