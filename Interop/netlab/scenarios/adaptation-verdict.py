#!/usr/bin/env python3
"""Reads one `tern peer --json --stats-interval N` event stream and says whether the call adapted
to its link over the last WINDOW seconds: the median ICE round trip (candidate-pair
currentRoundTripTime) stays within SLACK ms of the base RTT, and received video reaches MIN_KBPS.
A correctness check with a wide margin (issue #25), not a benchmark.

    adaptation-verdict.py FILE BASE_RTT_MS [--window 10] [--slack 150] [--min-video-kbps 300]

Prints one line `ok=0|1 medianRttMs=… videoKbps=… reports=…`.
"""
import argparse
import json
import statistics


def entries(report, kind):
    return [e for e in report if e.get("type") == kind]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("base_rtt_ms", type=float)
    parser.add_argument("--window", type=float, default=10)
    parser.add_argument("--slack", type=float, default=150)
    parser.add_argument("--min-video-kbps", type=float, default=300)
    args = parser.parse_args()

    reports = []  # (t ms, rtt ms or None, video bytes received)
    with open(args.file) as stream:
        for line in stream:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("category") != "w3cstats" or not isinstance(event.get("report"), list):
                continue
            report = event["report"]
            pairs = entries(report, "candidate-pair")
            rtt = pairs[0].get("currentRoundTripTime") if pairs else None
            video = [e for e in entries(report, "inbound-rtp") if e.get("kind") == "video"]
            if not video:
                continue  # before the stream started or after the call ended
            received = sum(e.get("bytesReceived", 0) for e in video)
            reports.append((float(event.get("t", 0)), None if rtt is None else rtt * 1000, received))
    if len(reports) < 2:
        print(f"ok=0 reports={len(reports)} (need two stats reports: was --stats-interval given?)")
        return
    end = reports[-1][0]
    window = [r for r in reports if r[0] >= end - args.window * 1000]
    if len(window) < 2:
        window = reports[-2:]
    rtts = [r[1] for r in window if r[1] is not None]
    median_rtt = statistics.median(rtts) if rtts else float("inf")
    seconds = (window[-1][0] - window[0][0]) / 1000
    video_kbps = (window[-1][2] - window[0][2]) * 8 / 1000 / seconds if seconds > 0 else 0
    ok = median_rtt <= args.base_rtt_ms + args.slack and video_kbps >= args.min_video_kbps
    print(f"ok={int(ok)} medianRttMs={median_rtt:.0f} baseRttMs={args.base_rtt_ms:.0f} "
          f"videoKbps={video_kbps:.0f} windowS={seconds:.1f} reports={len(window)}")


main()
