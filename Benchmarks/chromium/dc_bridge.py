#!/usr/bin/env python3
"""One headless Chromium as one process of a two-process data-channel benchmark (issue #20): it
speaks the signals of Tern's Benchmarks/DCThroughput (one JSON object per line on stdin and
stdout, BenchPeerSupport/SignalPipe.swift) and hands them to Benchmarks/chromium/dc_peer.js in
the browser, so a Chromium answers Tern's or aiortc's offers exactly where their own child
process would, and two bridges piped together are Chromium <-> Chromium in two processes.

    dc_bridge.py [--role child|parent] [page query options: --runs N --warm-up N
                 --throughput-runs N --bytes B] [--loopback-only]

The page is served on 127.0.0.1 of the bridge's own network namespace (a secure context), gets
signals by an EventSource on /events and posts its own to /signal. Times cross the bridge as
CLOCK_MONOTONIC seconds on the pipe (what Tern and aiortc use) and as ms since the epoch in the
page (performance.timeOrigin + performance.now()). The parent page's /result is printed as one
{"type": "result", ...} line. Exits when the page says it has finished (after `exit`). Env:
CHROMIUM (default chromium), DCBRIDGE_CHROMIUM_LOG (a file for Chromium's own output).
"""
import argparse
import http.server
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
out_lock = threading.Lock()


def emit(message):
    with out_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def page_to_pipe(message):
    """A page time (epoch ms) as CLOCK_MONOTONIC seconds."""
    if isinstance(message.get("time"), (int, float)):
        message["time"] = time.monotonic() - (time.time() - message["time"] / 1000)
    return message


def pipe_to_page(message):
    if isinstance(message.get("time"), (int, float)):
        message["time"] = (time.time() - (time.monotonic() - message["time"])) * 1000
    return message


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["child", "parent"], default="child")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warm-up", type=int, default=1)
    parser.add_argument("--throughput-runs", type=int, default=0)
    parser.add_argument("--bytes", type=int, default=64 * 1024 * 1024)
    parser.add_argument("--loopback-only", action="store_true")
    args, _ = parser.parse_known_args()
    chromium = shutil.which(os.environ.get("CHROMIUM", "chromium"))
    if not chromium:
        print("dc_bridge: chromium is not installed", file=sys.stderr)
        return 77

    to_page = queue.Queue()
    finished = threading.Event()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=HERE, **kw)

        def log_message(self, *a):
            pass

        def do_GET(self):
            if not self.path.startswith("/events"):
                return super().do_GET()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(b": open\n\n")
            self.wfile.flush()
            while not finished.is_set():
                try:
                    message = to_page.get(timeout=0.5)
                except queue.Empty:
                    continue
                self.wfile.write(b"data: " + json.dumps(pipe_to_page(message)).encode() + b"\n\n")
                self.wfile.flush()

        def do_POST(self):
            body = self.rfile.read(min(int(self.headers.get("Content-Length") or 0), 1 << 20))
            self.send_response(204)
            self.end_headers()
            try:
                value = json.loads(body or b"{}")
            except ValueError:
                return
            if self.path == "/signal":
                emit(page_to_pipe(value))
            elif self.path == "/result":
                emit({"type": "result", **value})
            elif self.path == "/log":
                print(f"dc_bridge[{args.role}]: {value.get('line')}", file=sys.stderr, flush=True)
            elif self.path == "/finished":
                finished.set()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def read_pipe():
        for line in sys.stdin:
            try:
                to_page.put(json.loads(line))
            except ValueError:
                continue
        if not finished.wait(10):  # the other side went away without `exit`
            finished.set()

    threading.Thread(target=read_pipe, daemon=True).start()
    query = (f"role={args.role}&runs={args.runs}&warmUp={args.warm_up}&throughputRuns={args.throughput_runs}"
             f"&bytes={args.bytes}&loopbackOnly={1 if args.loopback_only else 0}"
             f"&trace={1 if os.environ.get('DCBENCH_TRACE') else 0}")
    url = f"http://127.0.0.1:{server.server_address[1]}/dc_peer.html?{query}"
    profile = tempfile.mkdtemp(prefix="tern-bench-chromium.")
    flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-features=WebRtcHideLocalIpsWithMdns", f"--user-data-dir={profile}"]
    if args.loopback_only:
        flags += ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                  "--allow-loopback-in-peer-connection"]
    log = open(os.environ.get("DCBRIDGE_CHROMIUM_LOG", os.devnull), "w")
    chrome = subprocess.Popen([chromium, *flags, url], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                              start_new_session=True)
    try:
        while not finished.wait(0.5):
            if chrome.poll() is not None:
                print(f"dc_bridge[{args.role}]: chromium exited ({chrome.returncode})", file=sys.stderr)
                return 1
        return 0
    except KeyboardInterrupt:  # two_process_bench ends a pair that hung this way
        print(f"dc_bridge[{args.role}]: interrupted", file=sys.stderr)
        return 130
    finally:
        try:
            os.killpg(chrome.pid, 9)
        except OSError:
            pass
        chrome.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
