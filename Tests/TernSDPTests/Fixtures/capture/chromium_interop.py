#!/usr/bin/env python3
"""Interop with a headless browser (Chromium by default, or Firefox), both directions, at the SDP level.

Saves the browser's answers to Tern offers as ../<browser>-answer-to-tern-<scenario>.sdp and reports whether
the browser accepts Tern's answers to its own offers. Exit status 1 if any Tern answer is rejected.
Run: python3 chromium_interop.py /path/to/tern [firefox]   (the `tern` executable, or the lab's `tern-sdp`)
"""
import http.server
import json
import os
import subprocess
import sys
import threading

from interop_common import FIXTURES, HERE, SCENARIOS, save, tern_answer, tern_offer

if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
BINARY = sys.argv[1]
BROWSER = sys.argv[2] if len(sys.argv) == 3 else "chromium"
received = {}
done = threading.Event()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=HERE, **kwargs)

    def reply(self, body, kind="text/plain"):
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/tern-offers":
            self.reply(json.dumps({name: tern_offer(BINARY, name) for name in SCENARIOS}), "application/json")
        else:
            super().do_GET()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
        if self.path == "/tern-answer":
            self.reply(tern_answer(BINARY, body))
        else:
            received.update(json.loads(body))
            self.send_response(204)
            self.end_headers()
            done.set()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/chromium_interop.html"
if BROWSER == "firefox":
    os.makedirs("/tmp/tern-sdp-firefox", exist_ok=True)
    command = ["firefox-esr", "--headless", "--no-remote", "--profile", "/tmp/tern-sdp-firefox", url]
else:
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
               "--user-data-dir=/tmp/tern-sdp-chromium", url]
browser = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    if not done.wait(120):
        sys.exit("timed out waiting for the page")
finally:
    browser.terminate()
    browser.wait(10)
    server.shutdown()

print("browser:", received.get("userAgent"))
for error in received.get("errors", []):
    print("error:", error)
for name, sdp in sorted(received.get("answers", {}).items()):
    save(os.path.join(FIXTURES, f"{BROWSER}-answer-to-tern-{name}.sdp"), sdp)
    print(f"{BROWSER} answered Tern offer {name}")
rejected = 0
for name, verdict in sorted(received.get("accepted", {}).items()):
    print(f"Tern answer to {BROWSER} offer {name}: {verdict}")
    rejected += not verdict.startswith("accepted")
sys.exit(1 if rejected or received.get("errors") else 0)
