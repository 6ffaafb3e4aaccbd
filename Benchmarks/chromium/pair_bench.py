#!/usr/bin/env python3
"""Chromium's figures for two benchmark rows (issue #12): set-up latency and data-channel
throughput between two RTCPeerConnections in one headless Chromium page (pair.html / pair.js),
on 127.0.0.1, measured as Tern's Benchmarks/DCThroughput measures them.

    pair_bench.py [--setup-runs N] [--throughput-runs N] [--bytes B]

Prints one JSON line per figure, as a peer of Tern's rows ("role": "peer", "peerKey":
"chromium"): setup_ms and dc_throughput_loopback_MBps. Benchmarks/assemble.py puts them in rows
of their own (setup_ms_chromium_pair, dc_throughput_loopback_MBps_chromium_pair) next to Tern's
figure from the same run. Exit 77 when Chromium is not installed. Env: CHROMIUM (default chromium).

Chromium gathers no loopback candidates on a machine with another interface, so as root the
page runs in a network namespace of its own with only `lo` (`unshare -n`), on 127.0.0.1 like
Tern; otherwise on the machine's own host addresses (said in the peer's name).
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

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--setup-runs", type=int, default=10)
    parser.add_argument("--throughput-runs", type=int, default=3)
    parser.add_argument("--bytes", type=int, default=64 * 1024 * 1024)
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--inside-namespace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside_namespace and os.geteuid() == 0 and shutil.which("unshare") and shutil.which("ip"):
        # Re-run in a fresh network namespace with only loopback up.
        command = " ".join([sys.executable, os.path.abspath(__file__), "--inside-namespace",
                            "--setup-runs", str(args.setup_runs), "--throughput-runs", str(args.throughput_runs),
                            "--bytes", str(args.bytes), "--timeout", str(args.timeout)])
        return subprocess.run(["unshare", "-n", "sh", "-c", f"ip link set lo up && exec {command}"]).returncode
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
    for name, unit, samples in (("setup_ms", "ms", result["setupMs"]),
                                ("dc_throughput_loopback_MBps", "MB/s", result["throughputMBps"])):
        if samples:
            print(json.dumps({"name": name, "unit": unit, "role": "peer", "peer": peer, "peerKey": "chromium_pair",
                              "samples": [round(s, 3) for s in samples]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
