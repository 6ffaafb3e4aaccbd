#!/usr/bin/env python3
"""Serves Interop/chromium's peer page to one headless Chromium in the network lab and keeps
what the page posts: /stats lines (W3C stats every second, `statsMs`) and its /event and /result
objects, one JSON line each, in OUT (cc_call.py reads it as it reads a `tern peer --json` log).
Each line gets `receivedAt`, the server's wall clock (s): with the page's `t` it places the
page's clock on the machine's, which a scheduled change of the link is timed by.

    page_server.py PORT ROOT OUT
"""
import http.server
import json
import os
import sys
import time


class Handler(http.server.SimpleHTTPRequestHandler):
    out_path = ""

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(min(length, 4 << 20))
        try:
            value = json.loads(body)
        except ValueError:
            value = None
        if isinstance(value, dict):
            if self.path != "/stats":
                value = {"category": "page", "path": self.path, "value": value}
            value["receivedAt"] = time.time()
            with open(Handler.out_path, "a") as out:
                out.write(json.dumps(value) + "\n")
        self.send_response(204)
        self.end_headers()


def main():
    port, root, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    Handler.out_path = out
    os.chdir(root)
    http.server.ThreadingHTTPServer(("0.0.0.0", port), Handler).serve_forever()


main()
