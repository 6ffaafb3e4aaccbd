#!/usr/bin/env python3
"""Congestion-control figures of a Tern <-> Tern audio+video call across the network lab
(issue #25): runs Interop/netlab/scenarios/lossy-call with a drop-tail rate limit (TBF) and a
50 ms RTT, both peers sending a 640x480 test pattern with camera-like grain (`--video-grain 4`:
without it VP8 needs only ~800 kbit/s for the pattern, and no controller is tested above that)
and `tern peer`'s defaults (VP8 up to 1.7 Mbit/s at 640x480, as libwebrtc; Opus 32 kbit/s),
stats every second; reads both peers' W3C stats lines and prints
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
the drop on the open link.
Loss: the media rate the sender settles on (audio + video sent, last 20 s). Bulk: shares of the
link received while the transfer runs (its first and last 3 s left out). Needs root (the lab);
TERN (default .build-bench/release/tern). Figures are printed, never asserted.

`--peers chromium` runs the steady, steps and loss scenarios between two headless Chromium
instances (the peer's figures for the same rows); the bulk scenario needs a transfer the page
does not run beside its call. A step is timed on the caller's clock in both: Tern's by the lab
scenario from the caller's start, Chromium's from the caller page's first stats line (its `t`
and the time page_server.py received it).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BASE_RTT_MS = 50.0
# The test pattern's grain (`tern peer --video-grain`, `tern pattern --grain`), the same for
# Tern and for Chromium's fake camera: a picture that can use the link, as a camera's does.
PATTERN_GRAIN = 4


def json_lines(path):
    """The JSON objects of a log, one per line; other lines skipped."""
    with open(path) as stream:
        for line in stream:
            try:
                yield json.loads(line)
            except ValueError:
                continue


def reports(path):
    """(t ms, report entries) of each W3C stats line of one peer."""
    return [(float(event.get("t", 0)), event["report"]) for event in json_lines(path)
            if event.get("category") == "w3cstats" and isinstance(event.get("report"), list)]


def entries(report, kind, media=None):
    return [e for e in report if e.get("type") == kind and (media is None or e.get("kind") == media)]


def received_bytes(report, media=None):
    """RTP bytes received (payload and headers), of one kind or all."""
    return sum(e.get("bytesReceived", 0) + e.get("headerBytesReceived", 0) for e in entries(report, "inbound-rtp", media))


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def caller_clock_offset(path):
    """Milliseconds to add to this peer's `t` to put it on the caller's clock: the answerer's
    incoming-call line and the caller's invite line are the same instant (± the signaling hop)."""
    for event in json_lines(path):
        message = event.get("message") or ""
        if " invites " in message or "incoming call" in message:
            return -float(event.get("t", 0))
    return 0.0


def one_run(duration, tern, rate=None, loss=0, schedule=None, echo_count=10, caller_args="", peer_args=""):
    """Both peers' stats lines, each as [(t ms on the caller's clock since its invite, report)]."""
    keep = tempfile.mkdtemp(prefix="tern-cc-")
    env = dict(os.environ, KEEP_LOGS=keep, ECHO_COUNT=str(echo_count), DELAY="25", JITTER="0", REORDER="0",
               LOSS=str(loss), DURATION=str(duration), TERN=tern, PEER_ARGS=f"--stats-interval 1 --video-size 640x480 --video-grain {PATTERN_GRAIN} " + peer_args,
               CALLER_ARGS=caller_args)
    env.pop("RATE", None)
    if rate:
        env["RATE"] = str(rate)
    if schedule:
        env["RATE_SCHEDULE"] = schedule
    subprocess.run([os.path.join(REPO, "Interop/netlab/scenarios/lossy-call")], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=duration + 240, check=False)
    return [lines for _, lines in call_sides(keep)]


def call_sides(keep):
    """(peer, stats lines on the caller's clock) of each side in `keep` that received video."""
    sides = []
    for peer in ("alice", "bob"):
        path = os.path.join(keep, f"{peer}.jsonl")
        if os.path.exists(path):
            offset = caller_clock_offset(path)
            lines = [(t + offset, r) for t, r in reports(path) if entries(r, "inbound-rtp", "video")]
            if len(lines) >= 3:
                sides.append((peer, lines))
    return sides


NETLAB = os.path.join(REPO, "Interop/netlab/netlab")
SIGNAL_PORT = 8787
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                  "--autoplay-policy=no-user-gesture-required",
                  "--disable-features=WebRtcHideLocalIpsWithMdns", "--enable-logging=stderr", "--v=0"]


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        for folder in os.environ.get("PATH", "").split(os.pathsep):
            path = os.path.join(folder, name)
            if os.access(path, os.X_OK):
                return path
    return None


def chromium_version(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout.split()
        return "Chromium " + next((w for w in out if w[:1].isdigit()), "?")
    except (OSError, subprocess.SubprocessError):
        return "Chromium"


def wait_for(predicate, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def page_posted(path, what):
    """Whether the page's log at `path` has a posted object with `what` (an event name or '/result')."""
    try:
        with open(path) as stream:
            return any(what in line for line in stream)
    except OSError:
        return False


def first_stats_origin(path):
    """The wall-clock time (s) of the page's `t` = 0, from its first stats line, or None yet."""
    if not os.path.exists(path):
        return None
    for event in json_lines(path):
        if event.get("category") == "w3cstats" and "receivedAt" in event:
            return float(event["receivedAt"]) - float(event.get("t", 0)) / 1000
    return None


def follow_schedule(schedule, origin_of, lab, stop, applied):
    """Changes the lab's rate at each `AT:MBIT` of `schedule`, AT seconds on the caller page's
    clock (`origin_of()` gives its wall-clock origin once the page has posted stats); appends
    each change made to `applied`, (page ms, Mbit/s)."""
    origin = None
    while origin is None:
        origin = origin_of()
        if stop.wait(0.05):
            return
    for step in schedule.split():
        at, mbit = step.split(":")
        if stop.wait(max(0.0, origin + float(at) - time.time())):
            return
        # As lossy-call's schedule: the change starts at AT (`netlab rate` takes ~0.2 s for its
        # three devices), and is recorded when it starts.
        started = time.time()
        lab("rate", mbit)
        applied.append(((started - origin) * 1000, float(mbit)))


def one_browser_run(duration, tern, rate, caller, loss=0, schedule=None):
    """One call across the lab with a headless Chromium answering in the right namespace and, as
    caller in the left one, a second Chromium (`caller="chromium"`) or `tern peer`
    (`caller="tern"`), both sending their fake or test-pattern camera at 640x480; returns the
    stats lines of both sides as one_run does (the page's t is already ms since the invite).
    `rate` None: no limit; `schedule` (Chromium caller only): rate changes as one_run's."""
    chromium = chromium_binary()
    keep = tempfile.mkdtemp(prefix="tern-cc-browser-")
    procs = []
    stop = threading.Event()
    applied = []

    def lab(*args):
        subprocess.run([NETLAB, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def spawn(namespace, args, log):
        out = open(os.path.join(keep, log), "w")
        procs.append(subprocess.Popen([NETLAB, "exec", namespace, "timeout", str(duration + 90), *args],
                                      stdout=out, stderr=subprocess.STDOUT, start_new_session=True))

    try:
        lab("up", "--ttl", str(duration + 240))
        lab("loss", str(loss))
        lab("delay", "25", "--jitter", "0")
        lab("rate", str(rate or 0))
        addresses = dict(line.split("=", 1) for line in subprocess.run([NETLAB, "env"], capture_output=True, text=True,
                                                                         check=True).stdout.split() if "=" in line)
        left_gw, right_gw = addresses["NETLAB_ROUTER_LEFT"].strip("'\""), addresses["NETLAB_ROUTER_RIGHT"].strip("'\"")
        spawn("router", [tern, "signal", "--host", "0.0.0.0", "--port", str(SIGNAL_PORT)], "signal.log")
        for port, user in ((8788, "bob"), (8789, "alice")):
            spawn("router", ["python3", os.path.join(HERE, "page_server.py"), str(port), os.path.join(REPO, "Interop/chromium"),
                             os.path.join(keep, f"{user}.jsonl")], f"{user}.server.log")
        # Both stacks send the same pictures: Tern's test pattern, as Chromium's fake camera.
        pattern = os.path.join(keep, "pattern.y4m")
        subprocess.run([tern, "pattern", "--size", "640x480", "--grain", str(PATTERN_GRAIN), "--seconds", "20", "--out", pattern], check=True)
        camera = f"--use-file-for-fake-video-capture={pattern}"
        time.sleep(0.5)
        query = f"sig=ws://{right_gw}:{SIGNAL_PORT}/v1&user=bob&answer=1&audio=1&video=1&statsMs=1000&finishBy=wait"
        # The page is served from the router's address, not localhost: getUserMedia needs the
        # origin treated as secure.
        spawn("right", [chromium, *CHROMIUM_FLAGS, camera, f"--user-data-dir={tempfile.mkdtemp(prefix='tern-cc-chromium-')}",
                        f"--unsafely-treat-insecure-origin-as-secure=http://{right_gw}:8788",
                        f"http://{right_gw}:8788/peer.html?{query}"], "bob.chromium.log")
        if not wait_for(lambda: page_posted(os.path.join(keep, "bob.jsonl"), "registered"), 60):
            print(f"cc_call: the answering page did not register within 60 s (logs in {keep}): run left out", file=sys.stderr)
            return []
        if caller == "chromium":
            query = f"sig=ws://{left_gw}:{SIGNAL_PORT}/v1&user=alice&call=bob&audio=1&video=1&statsMs=1000&mediaMs={duration * 1000}"
            spawn("left", [chromium, *CHROMIUM_FLAGS, camera, f"--user-data-dir={tempfile.mkdtemp(prefix='tern-cc-chromium-')}",
                           f"--unsafely-treat-insecure-origin-as-secure=http://{left_gw}:8789",
                           f"http://{left_gw}:8789/peer.html?{query}"], "alice.chromium.log")
            if schedule:
                threading.Thread(target=follow_schedule, daemon=True,
                                 args=(schedule, lambda: first_stats_origin(os.path.join(keep, "alice.jsonl")), lab, stop,
                                       applied)).start()
            wait_for(lambda: page_posted(os.path.join(keep, "alice.jsonl"), '"/result"'), duration + 80)
        else:
            spawn("left", [tern, "peer", "--signal", f"ws://{left_gw}:{SIGNAL_PORT}/v1", "--user", "alice", "--call", "bob",
                           "--audio", "--video", "--json", "--duration", str(duration), "--stats-interval", "1",
                           "--video-size", "640x480", "--video-grain", str(PATTERN_GRAIN), "--ice-address", addresses["NETLAB_LEFT"].strip("'\"")], "alice.jsonl")
            procs[-1].wait(timeout=duration + 90)
        time.sleep(2)
    except (subprocess.SubprocessError, OSError, KeyError) as error:
        print(f"cc_call: browser run failed: {error}", file=sys.stderr)
    finally:
        stop.set()
        try:
            os.remove(os.path.join(keep, "pattern.y4m"))
        except OSError:
            pass
        for proc in procs:
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                pass
        subprocess.run([NETLAB, "down"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if schedule:
        late = [f"{mbit} Mbit/s at {at / 1000:.2f} s" for at, mbit in applied]
        if len(applied) != len(schedule.split()) or any(abs(at - float(step.split(":")[0]) * 1000) > 100
                                                         for (at, _), step in zip(applied, schedule.split())):
            print(f"cc_call: the rate schedule {schedule!r} was not kept ({', '.join(late) or 'no change'}): run left out",
                  file=sys.stderr)
            return []
    return call_sides(keep)


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
    before = [r for r in rates(side, received_bytes) if down_at_ms - 10_000 <= r[0] <= down_at_ms]
    open_rate = sorted(v for _, v in before)[len(before) // 2] if before else None
    delays = [(t, queue_delay(r)) for t, r in side if down_at_ms <= t <= up_at_ms]
    # A side whose queue never stays under 50 ms counts as the whole window, not as no figure
    # (left out, it would flatter the median).
    recovery = (up_at_ms - down_at_ms) / 1000 if delays else None
    for i, (t, _) in enumerate(delays):
        if all(d is not None and d < 50 for _, d in delays[i:]):
            recovery = max(0.0, (t - down_at_ms) / 1000)
            break
    ramp = None
    if open_rate:
        goal = 0.8 * min(0.8 * high_bps, open_rate)
        # Never reached: the rest of the call, likewise.
        ramp = (side[-1][0] - up_at_ms) / 1000 if side and side[-1][0] > up_at_ms else None
        for t, v in rates(side, received_bytes):
            if t > up_at_ms and v >= goal:
                ramp = (t - up_at_ms) / 1000
                break
    return {"recovery": recovery, "ramp": ramp, "open_rate": open_rate}


def figures_of(side, rate_bps):
    end = side[-1][0]
    tail = [r for r in side if r[0] >= end - 20_000]
    span = (tail[-1][0] - tail[0][0]) / 1000
    utilization = (received_bytes(tail[-1][1]) - received_bytes(tail[0][1])) * 8 / (rate_bps * span) if span > 0 else None
    delays = [d for d in (queue_delay(report) for _, report in tail) if d is not None]
    start = side[0][0]
    startup = [r for r in side if r[0] <= start + 10_000]
    video_start = entries(startup[-1][1], "inbound-rtp", "video")
    startup_freeze = video_start[0].get("totalFreezesDuration") if video_start else None
    video_end = entries(side[-1][1], "inbound-rtp", "video")
    total_freeze = video_end[0].get("totalFreezesDuration") if video_end else None
    minutes = (side[-1][0] - side[0][0]) / 60_000
    return {"utilization": utilization, "queue_p95": percentile(delays, 0.95), "startup_freeze": startup_freeze,
            "freeze_per_min": total_freeze / minutes if total_freeze is not None and minutes > 0 else None}


def emit(name, unit, samples, peer=None):
    samples = [s for s in samples if s is not None]
    if not samples:
        return
    ordered = sorted(samples)
    median = ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    line = {"name": name, "unit": unit, "value": median, "runs": len(samples), "min": ordered[0],
            "max": ordered[-1], "samples": samples}
    if peer:
        line.update(role="peer", peer=peer)
    print(json.dumps(line))


def emit_steady(sides, rate_mbit, peer=None, suffix=""):
    measured = [figures_of(side, rate_mbit * 1e6) for side in sides]
    if suffix:
        emit("cc_1mbit_rtt50_utilization" + suffix, "ratio", [m["utilization"] for m in measured])
        emit("cc_1mbit_rtt50_queue_delay_p95_ms" + suffix, "ms", [m["queue_p95"] for m in measured])
    elif rate_mbit >= 1:
        emit("cc_1mbit_rtt50_utilization", "ratio", [m["utilization"] for m in measured], peer)
        emit("cc_1mbit_rtt50_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured], peer)
        emit("cc_freeze_s_per_min_1mbit", "s/min", [m["freeze_per_min"] for m in measured], peer)
    else:
        emit("cc_300k_startup_freeze_s", "s", [m["startup_freeze"] for m in measured], peer)
        emit("cc_300k_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured], peer)


def emit_steps(sides, peer=None):
    measured = [step_figures(side, 2.5e6, 20_000, 40_000) for side in sides]
    emit("cc_step_down_recovery_s", "s", [m["recovery"] for m in measured], peer)
    emit("cc_step_up_ramp_s", "s", [m["ramp"] for m in measured], peer)
    emit("cc_unconstrained_media_kbps", "kbit/s", [m["open_rate"] / 1000 if m["open_rate"] else None for m in measured], peer)


def emit_loss(sides, peer=None):
    settled = []
    for side in sides:
        end = side[-1][0]
        tail = [r for r in side if r[0] >= end - 20_000]
        span = (tail[-1][0] - tail[0][0]) / 1000
        if span > 0:
            settled.append((media_sent(tail[-1][1]) - media_sent(tail[0][1])) * 8 / span / 1000)
    emit("cc_loss5_rate_kbps", "kbit/s", settled, peer)


def emit_bulk(sides):
    video, data, delays = [], [], []
    for side in sides:
        flowing = [t for t, v in rates(side, data_received) if v > 0]
        if len(flowing) < 8:
            continue
        window = [r for r in side if flowing[0] + 3_000 <= r[0] <= flowing[-1] - 3_000]
        if len(window) < 3:
            continue
        span = (window[-1][0] - window[0][0]) / 1000
        video_bytes = received_bytes(window[-1][1], "video") - received_bytes(window[0][1], "video")
        video.append(video_bytes * 8 / span / 2e6)
        data.append((data_received(window[-1][1]) - data_received(window[0][1])) * 8 / span / 2e6)
        delays.append(percentile([d for d in (queue_delay(r) for _, r in window) if d is not None], 0.95))
    emit("cc_video_share_with_bulk_data", "ratio", video)
    emit("cc_data_share_with_video", "ratio", data)
    emit("cc_bulk_queue_delay_p95_ms", "ms", delays)


# (duration s, rate Mbit/s or None, loss %, rate schedule) of each scenario but bulk.
SCENARIOS = {"steps": (60, 2.5, 0, "20:0.5 40:2.5"), "loss": (40, None, 5, None)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", choices=["steady", "steps", "loss", "bulk"], default="steady")
    parser.add_argument("--rate", type=float, help="Mbit/s each way (steady)")
    parser.add_argument("--duration", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--video-bitrate", type=int,
                        help="steady, Tern only: VP8's ceiling (tern peer --video-bitrate); rows get a _video_ceiling_N suffix")
    parser.add_argument("--peers", choices=["tern", "chromium", "tern-chromium"], default="tern",
                        help="two Chromium instances (the peer's figures; steady, steps, loss), or Tern calling Chromium (steady)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("cc_call: needs root (network namespaces)", file=sys.stderr)
        return 77
    tern = os.environ.get("TERN", os.path.join(REPO, ".build-bench/release/tern"))
    if args.peers != "tern":
        if args.scenario == "bulk" or (args.peers == "tern-chromium" and args.scenario != "steady"):
            print(f"cc_call: --peers {args.peers} runs {'steady, steps and loss' if args.peers == 'chromium' else 'steady'} only",
                  file=sys.stderr)
            return 64
        chromium = chromium_binary()
        if not chromium:
            print("cc_call: chromium is not installed", file=sys.stderr)
            return 77
        caller = "chromium" if args.peers == "chromium" else "tern"
        duration, rate, loss, schedule = SCENARIOS.get(args.scenario, (args.duration, args.rate, 0, None))
        runs = [one_browser_run(duration, tern, rate, caller, loss=loss, schedule=schedule) for _ in range(args.runs)]
        if args.peers == "chromium":
            sides = [side for run in runs for _, side in run]
            peer = chromium_version(chromium) + " ↔ itself"
            if args.scenario == "steady":
                emit_steady(sides, args.rate, peer)
            elif args.scenario == "steps":
                emit_steps(sides, peer)
            else:
                emit_loss(sides, peer)
        else:
            # bob is the Chromium page: what it received is what Tern sent it.
            measured = [figures_of(side, args.rate * 1e6) for run in runs for who, side in run if who == "bob"]
            emit("cc_tern_to_chromium_1mbit_utilization", "ratio", [m["utilization"] for m in measured])
            emit("cc_tern_to_chromium_1mbit_queue_delay_p95_ms", "ms", [m["queue_p95"] for m in measured])
        return 0 if any(runs) else 1
    sides = []
    for _ in range(args.runs):
        if args.scenario == "steady":
            ceiling = f"--video-bitrate {args.video_bitrate}" if args.video_bitrate else ""
            sides += one_run(args.duration, tern, rate=args.rate, peer_args=ceiling)
        elif args.scenario == "bulk":
            sides += one_run(10, tern, rate=2, echo_count=400, caller_args="--echo-size 8192")
        else:
            duration, rate, loss, schedule = SCENARIOS[args.scenario]
            sides += one_run(duration, tern, rate=rate, loss=loss, schedule=schedule)
    if not sides:
        print("cc_call: no stats lines from the call", file=sys.stderr)
        return 1
    if args.scenario == "steady":
        emit_steady(sides, args.rate, suffix=f"_video_ceiling_{args.video_bitrate}" if args.video_bitrate else "")
    elif args.scenario == "steps":
        emit_steps(sides)
    elif args.scenario == "loss":
        emit_loss(sides)
    else:
        emit_bulk(sides)
    return 0


if __name__ == "__main__":
    sys.exit(main())
