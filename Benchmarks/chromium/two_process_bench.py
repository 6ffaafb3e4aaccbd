#!/usr/bin/env python3
"""Chromium <-> Chromium as two browser instances in two processes (issue #20), measured as Tern's
Benchmarks/DCThroughput measures Tern <-> Tern: two Benchmarks/chromium/dc_bridge.py processes,
each with its own headless Chromium, the parent's signals piped to the child's and back (the
bridges speak DCThroughput's signals, so nothing but the browsers differs).

    two_process_bench.py [--runs N] [--warm-up N] [--throughput-runs N] [--bytes B]
                         [--netlab PATH]   (parent in the lab's left namespace, child in the right
                                            one; the caller has set the lab up and its delay)
                         [--figure NAME=ROW ...]  (which rows the figures become, below)
                         [--timeout S] [--attempts N]  (a pair not done in S seconds, 240, is
                                            ended with its browsers and the measurement starts
                                            again with a fresh pair, up to N attempts, 2; each
                                            hang is said on stderr)

Without --netlab both browsers run on 127.0.0.1, as root in a network namespace of their own
with only `lo` (`unshare -n`), as Tern's setup_ms runs do; otherwise on the machine's loopback.

Prints one JSON line per figure as a peer of Tern's rows ("role": "peer"): by default
setup_ms and dc_throughput_loopback_MBps with "peerKey": "chromium_two_process" (rows
setup_ms_chromium_two_process, ...). --figure setup=NAME[:KEY] / --figure throughput=NAME[:KEY]
names them otherwise (the 50 ms-RTT rows). Exit 77 when Chromium is not installed.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))


def stop(proc):
    """Ends a bridge's process group: SIGINT first (the bridge closes its browser), then SIGKILL."""
    if proc.poll() is not None:
        return
    for sig, grace in ((signal.SIGINT, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def measure(parent_cmd, child_cmd, timeout):
    """One measurement by a fresh bridge pair: the parent's result line, or None if it hung."""
    # Each bridge leads a process group; a hung one is interrupted (SIGINT), so that it closes
    # its browser (which runs in a session of its own) as it does when done, then killed: a
    # browser left behind would load the machine for every later figure.
    parent = subprocess.Popen(parent_cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                              start_new_session=True)
    child = subprocess.Popen(child_cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                             start_new_session=True)
    result = {}

    def pump(source, sink, keep_result):
        for line in source.stdout:
            if keep_result and line.startswith('{"type": "result"'):
                result.update(json.loads(line))
                continue
            try:
                sink.stdin.write(line)
                sink.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass

    pumps = [threading.Thread(target=pump, args=(parent, child, True), daemon=True),
             threading.Thread(target=pump, args=(child, parent, False), daemon=True)]
    for thread in pumps:
        thread.start()
    try:
        parent.wait(timeout=timeout)
        child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        return None
    finally:
        for proc in (parent, child):
            stop(proc)
    pumps[0].join(timeout=5)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warm-up", type=int, default=1)
    parser.add_argument("--throughput-runs", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=64 * 1024 * 1024)
    parser.add_argument("--netlab", default="")
    # Per attempt: a pair normally finishes in 15-25 s on loopback. A pair that hangs is killed
    # and the whole measurement starts again with fresh browsers (--attempts), saying so.
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--attempts", type=int, default=2)
    parser.add_argument("--figure", action="append", default=[])
    parser.add_argument("--inside-namespace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    chromium = shutil.which(os.environ.get("CHROMIUM", "chromium"))
    if not chromium:
        print("two_process_bench: chromium is not installed", file=sys.stderr)
        return 77
    if not args.netlab and not args.inside_namespace and os.geteuid() == 0 and shutil.which("unshare"):
        # Re-run in a fresh network namespace with only loopback up.
        command = [sys.executable, os.path.abspath(__file__), "--inside-namespace", *sys.argv[1:]]
        return subprocess.run(["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *command]).returncode

    version = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=60).stdout.split()
    version = " ".join(version[:2]) or "Chromium"
    bridge = [sys.executable, os.path.join(HERE, "dc_bridge.py")]
    page = ["--runs", str(args.runs), "--warm-up", str(args.warm_up), "--throughput-runs", str(args.throughput_runs),
            "--bytes", str(args.bytes)]
    if args.netlab:
        parent_cmd = [args.netlab, "exec", "left", *bridge, "--role", "parent", *page]
        child_cmd = [args.netlab, "exec", "right", *bridge, "--role", "child"]
    else:
        parent_cmd = [*bridge, "--role", "parent", "--loopback-only", *page]
        child_cmd = [*bridge, "--role", "child", "--loopback-only"]
    result = None
    for attempt in range(1, args.attempts + 1):
        result = measure(parent_cmd, child_cmd, args.timeout)
        if result is not None:
            break
        print(f"two_process_bench: attempt {attempt} of {args.attempts}: the browsers did not finish in "
              f"{args.timeout} s (killed)", file=sys.stderr, flush=True)
    if not result or result.get("errors"):
        print(f"two_process_bench: no result or page errors: {(result or {}).get('errors')}", file=sys.stderr)
        return 1

    names = {"setup": ("setup_ms", "chromium_two_process"),
             "throughput": ("dc_throughput_loopback_MBps", "chromium_two_process")}
    for spec in args.figure:
        kind, _, target = spec.partition("=")
        name, _, key = target.partition(":")
        names[kind] = (name, key or None)
    where = "two processes, lab namespaces left/right" if args.netlab else "two processes on 127.0.0.1"
    figures = (("setup", "ms", result.get("setupMs") or []),
               ("throughput", "MB/s", result.get("throughputMBps") or []))
    for kind, unit, samples in figures:
        name, key = names[kind]
        if "_Mbps" in name:
            unit, samples = "Mbit/s", [s * 8 for s in samples]
        if samples:
            line = {"name": name, "unit": unit, "role": "peer", "peer": f"{version} ↔ itself ({where})",
                    "samples": [round(s, 3) for s in samples]}
            if key:
                line["peerKey"] = key
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
