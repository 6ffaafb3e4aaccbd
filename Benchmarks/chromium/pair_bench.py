#!/usr/bin/env python3
"""Chromium's figures for two benchmark rows (issue #12): set-up latency and data-channel
throughput between two RTCPeerConnections in one headless Chromium page (pair.html / pair.js),
on 127.0.0.1, measured as Tern's Benchmarks/DCThroughput measures them.

    pair_bench.py [--setup-runs N] [--throughput-runs N] [--bytes B] [--delay-ms D --delayer PATH]

Prints one JSON line per figure, as a peer of Tern's rows ("role": "peer", "peerKey":
"chromium"): setup_ms and dc_throughput_loopback_MBps. Benchmarks/assemble.py puts them in rows
of their own (setup_ms_chromium_pair, dc_throughput_loopback_MBps_chromium_pair) next to Tern's
figure from the same run. Exit 77 when Chromium is not installed. Env: CHROMIUM (default chromium).

Chromium gathers no loopback candidates on a machine with another interface, so as root the
page runs in a network namespace of its own with only `lo` (`unshare -n`), on 127.0.0.1 like
Tern; otherwise on the machine's own host addresses (said in the peer's name).

With --delay-ms D (root only) every UDP packet the page's two connections exchange is held D ms
by the network lab's NFQUEUE delayer (Interop/netlab/delayer, path in --delayer) on its way out
of that namespace's `lo` — RTT 2·D, as the lab gives Tern's 50 ms-RTT row through its router —
and the figures are named for that row: dc_throughput_rtt50_Mbps (Mbit/s) and setup_ms_rtt50.
"""
import argparse
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--setup-runs", type=int, default=10)
    parser.add_argument("--throughput-runs", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=64 * 1024 * 1024)
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--delay-ms", type=float, default=0)
    parser.add_argument("--delayer", default="")
    parser.add_argument("--inside-namespace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.delay_ms and (os.geteuid() != 0 or not os.access(args.delayer, os.X_OK)):
        print("pair_bench: --delay-ms needs root and the lab's delayer (--delayer PATH)", file=sys.stderr)
        return 77
    if not args.inside_namespace and os.geteuid() == 0 and shutil.which("unshare") and shutil.which("ip"):
        # Re-run in a fresh network namespace with only loopback up.
        command = " ".join([sys.executable, os.path.abspath(__file__), "--inside-namespace",
                            "--setup-runs", str(args.setup_runs), "--throughput-runs", str(args.throughput_runs),
                            "--bytes", str(args.bytes), "--timeout", str(args.timeout),
                            "--delay-ms", str(args.delay_ms), "--delayer", args.delayer or "''"])
        return subprocess.run(["unshare", "-n", "sh", "-c", f"ip link set lo up && exec {command}"]).returncode
    delayer = start_delayer(args.delayer, args.delay_ms) if args.delay_ms and args.inside_namespace else None
    try:
        return run_page(args)
    finally:
        if delayer:
            delayer.terminate()  # it releases what it holds, then exits
            delayer.wait(timeout=10)


def start_delayer(path, delay_ms):
    """The lab's delayer on queue 0 of this namespace, and UDP leaving `lo` sent through it."""
    stats = tempfile.mktemp(prefix="tern-bench-delayer.")
    prio = ["chrt", "-f", "10"] if shutil.which("chrt") else []
    proc = subprocess.Popen(prio + [path, "--queue", "0", "--delay", str(delay_ms), "--stats", stats],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(150):  # it writes its first stats once the queue is bound
        if os.path.exists(stats) or proc.poll() is not None:
            break
        time.sleep(0.02)
    if not os.path.exists(stats):
        proc.kill()
        raise SystemExit("pair_bench: the delayer did not start")
    subprocess.run(["iptables-legacy", "-A", "OUTPUT", "-o", "lo", "-p", "udp", "-j", "NFQUEUE",
                    "--queue-num", "0", "--queue-bypass"], check=True)
    return proc


def run_page(args):
    chromium = shutil.which(os.environ.get("CHROMIUM", "chromium"))
    if not chromium:
        print("pair_bench: chromium is not installed", file=sys.stderr)
        return 77
    version = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    version = " ".join(version.split()[:2]) or "Chromium"

    result = {}
    arrived = threading.Event()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=HERE, **kw)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            result.update(json.loads(body))
            self.send_response(204)
            self.end_headers()
            arrived.set()

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = (f"http://127.0.0.1:{server.server_address[1]}/pair.html?setupRuns={args.setup_runs}"
           f"&throughputRuns={args.throughput_runs}&bytes={args.bytes}&loopbackOnly={1 if args.inside_namespace else 0}")
    profile = tempfile.mkdtemp(prefix="tern-bench-chromium.")
    chrome = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
         "--allow-loopback-in-peer-connection", "--disable-features=WebRtcHideLocalIpsWithMdns",
         f"--user-data-dir={profile}", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        if not arrived.wait(args.timeout):
            print("pair_bench: no result from the page", file=sys.stderr)
            return 1
    finally:
        chrome.kill()
        chrome.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if result.get("errors"):
        print(f"pair_bench: page errors {result['errors']}", file=sys.stderr)
        return 1
    peer = f"{version} (in-page pair{'' if args.inside_namespace else ', host addresses'})"
    if args.delay_ms:
        peer = f"{version} (in-page pair, lo delayed {args.delay_ms:g} ms each way)"
    rows = (("setup_ms", "ms", result["setupMs"]), ("dc_throughput_loopback_MBps", "MB/s", result["throughputMBps"]))
    if args.delay_ms:
        rows = (("setup_ms_rtt50", "ms", result["setupMs"]),
                ("dc_throughput_rtt50_Mbps", "Mbit/s", [t * 8 for t in result["throughputMBps"]]))
    for name, unit, samples in rows:
        if samples:
            print(json.dumps({"name": name, "unit": unit, "role": "peer", "peer": peer, "peerKey": "chromium_pair",
                              "samples": [round(s, 3) for s in samples]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
