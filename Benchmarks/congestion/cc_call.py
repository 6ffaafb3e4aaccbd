#!/usr/bin/env python3
"""Congestion-control figures of a Tern <-> Tern audio+video call across the network lab
(issue #25): runs Interop/netlab/scenarios/lossy-call with a drop-tail rate limit (TBF) and a
50 ms RTT, both peers sending a 640x480 test pattern with `tern peer`'s defaults (VP8 up to
800 kbit/s, Opus 32 kbit/s), stats every second; reads both peers' W3C stats lines and prints
one JSON figure line per figure (Benchmarks/assemble.py), each direction of each run a sample.

    cc_call.py --rate 1 --duration 40 --runs 3     cc_1mbit_rtt50_utilization,
                                                   cc_1mbit_rtt50_queue_delay_p95_ms,
                                                   cc_freeze_s_per_min_1mbit
    cc_call.py --rate 0.3 --duration 30 --runs 3   cc_300k_startup_freeze_s,
                                                   cc_300k_queue_delay_p95_ms
    cc_call.py --scenario steps --runs 3           2.5 Mbit/s, 0.5 from 20 s, 2.5 from 40 s (60 s):
                                                   cc_step_down_recovery_s, cc_step_up_ramp_s,
                                                   cc_unconstrained_media_kbps
    cc_call.py --scenario loss --runs 3            5 % random loss each way, no rate limit, 40 s:
                                                   cc_loss5_rate_kbps
    cc_call.py --scenario bulk --runs 3            2 Mbit/s, the caller echoes 400 x 8 KiB on its
                                                   reliable channel during the call:
                                                   cc_video_share_with_bulk_data,
                                                   cc_data_share_with_video, cc_bulk_queue_delay_p95_ms

Utilization: audio + video bytes received over the last 20 s / the link's capacity in that time.
Queue delay: the selected pair's RTT (STUN, every second) minus the base RTT (50 ms), p95 over
the last 20 s. Start-up freeze: W3C totalFreezesDuration of the received video 10 s after the
first stats line. Step down: seconds from the drop until the queue delay is under 50 ms and stays
there until the step up. Step up: seconds from the step up until the media received in a second
reaches 80 % of the lower of the new capacity (2 Mbit/s of 2.5) and what the sender sent before
the drop on the open link (the test pattern's VP8 makes ~750 kbit/s whatever it is allowed).
Loss: the media rate the sender settles on (audio + video sent, last 20 s). Bulk: shares of the
link received while the transfer runs (its first and last 3 s left out). Needs root (the lab);
TERN (default .build-bench/release/tern). Figures are printed, never asserted.
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


def caller_clock_offset(path):
    """Milliseconds to add to this peer's `t` to put it on the caller's clock: the answerer's
    incoming-call line and the caller's invite line are the same instant (± the signaling hop)."""
    with open(path) as stream:
        for line in stream:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            message = event.get("message") or ""
            if " invites " in message:
                return -float(event.get("t", 0))
            if "incoming call" in message:
                return -float(event.get("t", 0))
    return 0.0


def one_run(duration, tern, rate=None, loss=0, schedule=None, echo_count=10, caller_args=""):
    """Both peers' stats lines, each as [(t ms on the caller's clock since its invite, report)]."""
    keep = tempfile.mkdtemp(prefix="tern-cc-")
    env = dict(os.environ, KEEP_LOGS=keep, ECHO_COUNT=str(echo_count), DELAY="25", JITTER="0", REORDER="0",
               LOSS=str(loss), DURATION=str(duration), TERN=tern, PEER_ARGS="--stats-interval 1 --video-size 640x480",
               CALLER_ARGS=caller_args)
    env.pop("RATE", None)
    if rate:
        env["RATE"] = str(rate)
    if schedule:
        env["RATE_SCHEDULE"] = schedule
    subprocess.run([os.path.join(REPO, "Interop/netlab/scenarios/lossy-call")], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=duration + 240, check=False)
    sides = []
    for peer in ("alice", "bob"):
        path = os.path.join(keep, f"{peer}.jsonl")
        if os.path.exists(path):
            offset = caller_clock_offset(path)
            lines = [(t + offset, r) for t, r in reports(path) if entries(r, "inbound-rtp", "video")]
            if len(lines) >= 3:
                sides.append(lines)
    return sides


def media_received(report):
    return received_bytes(report)


def data_received(report):
    return sum(e.get("bytesReceived", 0) for e in entries(report, "data-channel"))


def media_sent(report):
    return sum(e.get("bytesSent", 0) + e.get("headerBytesSent", 0) for e in entries(report, "outbound-rtp"))


def queue_delay(report):
    pairs = entries(report, "candidate-pair")
    rtt = pairs[0].get("currentRoundTripTime") if pairs else None
    return None if rtt is None else max(0.0, rtt * 1000 - BASE_RTT_MS)


def rates(side, counter):
    """(t ms, bit/s over the second before it) of a byte counter, from consecutive stats lines."""
    out = []
    for (t0, r0), (t1, r1) in zip(side, side[1:]):
        if t1 > t0:
            out.append((t1, (counter(r1) - counter(r0)) * 8 * 1000 / (t1 - t0)))
    return out


def step_figures(side, high_bps, down_at_ms, up_at_ms):
    """Seconds until the queue settles after the step down, and until media ramps after the step up."""
    before = [r for r in rates(side, media_received) if down_at_ms - 10_000 <= r[0] <= down_at_ms]
    open_rate = sorted(v for _, v in before)[len(before) // 2] if before else None
    delays = [(t, queue_delay(r)) for t, r in side if down_at_ms <= t <= up_at_ms]
    recovery = None
    for i, (t, _) in enumerate(delays):
        if all(d is not None and d < 50 for _, d in delays[i:]):
            recovery = max(0.0, (t - down_at_ms) / 1000)
            break
    ramp = None
    if open_rate:
        goal = 0.8 * min(0.8 * high_bps, open_rate)
        for t, v in rates(side, media_received):
            if t > up_at_ms and v >= goal:
                ramp = (t - up_at_ms) / 1000
                break
    return {"recovery": recovery, "ramp": ramp, "open_rate": open_rate}


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
    parser.add_argument("--scenario", choices=["steady", "steps", "loss", "bulk"], default="steady")
    parser.add_argument("--rate", type=float, help="Mbit/s each way (steady)")
    parser.add_argument("--duration", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("cc_call: needs root (network namespaces)", file=sys.stderr)
        return 77
    tern = os.environ.get("TERN", os.path.join(REPO, ".build-bench/release/tern"))
    sides = []
    for _ in range(args.runs):
        if args.scenario == "steady":
            sides += one_run(args.duration, tern, rate=args.rate)
        elif args.scenario == "steps":
            sides += one_run(60, tern, rate=2.5, schedule="20:0.5 40:2.5")
        elif args.scenario == "loss":
            sides += one_run(40, tern, loss=5)
        else:
            sides += one_run(10, tern, rate=2, echo_count=400, caller_args="--echo-size 8192")
    if not sides:
        print("cc_call: no stats lines from the call", file=sys.stderr)
        return 1
    if args.scenario == "steady":
        measured = [figures_of(side, args.rate * 1e6) for side in sides]
        if args.rate >= 1:
            emit("cc_1mbit_rtt50_utilization", "ratio", [m["utilization"] for m in measured])
            emit("cc_1mbit_rtt50_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured])
            emit("cc_freeze_s_per_min_1mbit", "s/min", [m["freeze_per_min"] for m in measured])
        else:
            emit("cc_300k_startup_freeze_s", "s", [m["startup_freeze"] for m in measured])
            emit("cc_300k_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured])
    elif args.scenario == "steps":
        measured = [step_figures(side, 2.5e6, 20_000, 40_000) for side in sides]
        emit("cc_step_down_recovery_s", "s", [m["recovery"] for m in measured])
        emit("cc_step_up_ramp_s", "s", [m["ramp"] for m in measured])
        emit("cc_unconstrained_media_kbps", "kbit/s", [m["open_rate"] / 1000 if m["open_rate"] else None for m in measured])
    elif args.scenario == "loss":
        settled = []
        for side in sides:
            end = side[-1][0]
            tail = [r for r in side if r[0] >= end - 20_000]
            span = (tail[-1][0] - tail[0][0]) / 1000
            if span > 0:
                settled.append((media_sent(tail[-1][1]) - media_sent(tail[0][1])) * 8 / span / 1000)
        emit("cc_loss5_rate_kbps", "kbit/s", settled)
    else:
        video, data, delays = [], [], []
        for side in sides:
            flowing = [t for t, v in rates(side, data_received) if v > 0]
            if len(flowing) < 8:
                continue
            window = [r for r in side if flowing[0] + 3_000 <= r[0] <= flowing[-1] - 3_000]
            if len(window) < 3:
                continue
            span = (window[-1][0] - window[0][0]) / 1000
            video_bytes = sum(e.get("bytesReceived", 0) + e.get("headerBytesReceived", 0)
                              for e in entries(window[-1][1], "inbound-rtp", "video")) - \
                sum(e.get("bytesReceived", 0) + e.get("headerBytesReceived", 0) for e in entries(window[0][1], "inbound-rtp", "video"))
            video.append(video_bytes * 8 / span / 2e6)
            data.append((data_received(window[-1][1]) - data_received(window[0][1])) * 8 / span / 2e6)
            delays.append(percentile([d for d in (queue_delay(r) for _, r in window) if d is not None], 0.95))
        emit("cc_video_share_with_bulk_data", "ratio", video)
        emit("cc_data_share_with_video", "ratio", data)
        emit("cc_bulk_queue_delay_p95_ms", "ms", delays)
    return 0


sys.exit(main())
