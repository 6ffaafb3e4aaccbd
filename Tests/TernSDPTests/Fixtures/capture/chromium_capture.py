#!/usr/bin/env python3
"""Captures real browser SDP into ../chromium-*.sdp (default) or ../firefox-*.sdp.

Serves chromium_capture.html on 127.0.0.1, opens it in a headless browser, and waits for the page to POST
the JSON of captured descriptions to /result; then stops the browser it started.
Run: python3 chromium_capture.py            (Debian package `chromium`)
     python3 chromium_capture.py firefox    (Debian package `firefox-esr`)
"""
import http.server
import json
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..")
received = {}
done = threading.Event()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=HERE, **kwargs)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        received.update(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()
        done.set()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/chromium_capture.html"
BROWSER = sys.argv[1] if len(sys.argv) > 1 else "chromium"
if BROWSER == "firefox":
    os.makedirs("/tmp/tern-sdp-firefox", exist_ok=True)
    command = ["firefox-esr", "--headless", "--no-remote", "--profile", "/tmp/tern-sdp-firefox", url]
else:
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
               "--user-data-dir=/tmp/tern-sdp-chromium", url]
browser = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    if not done.wait(90):
        sys.exit("timed out waiting for the page")
finally:
    browser.terminate()
    browser.wait(10)
    server.shutdown()

print("browser:", received.get("userAgent"), file=sys.stderr)
if received.get("errors"):
    print("page errors:", received["errors"], file=sys.stderr)
for name, sdp in sorted(received.get("results", {}).items()):
    path = os.path.join(OUT, f"{BROWSER}-{name}.sdp")
    with open(path, "wb") as f:
        f.write(sdp.encode("utf-8"))
    print("wrote", path, file=sys.stderr)
