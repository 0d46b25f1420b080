#!/usr/bin/env python3
"""A tiny web site for tasks: serves DIR over HTTP on 127.0.0.1:PORT, logs each POSTed form as JSON.

usage: site.py PORT DIR LOG
"""
import json
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

PORT, ROOT, LOG = int(sys.argv[1]), sys.argv[2], sys.argv[3]


class Handler(SimpleHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode(errors="replace")
        form = {k: v[0] if len(v) == 1 else v for k, v in parse_qs(body, keep_blank_values=True).items()}
        with open(LOG, "a") as log:
            log.write(json.dumps({"path": self.path, "form": form}) + "\n")
        page = b"<html><body><h1>Thank you</h1><p>Your request was received.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args) -> None:
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), partial(Handler, directory=ROOT)).serve_forever()
