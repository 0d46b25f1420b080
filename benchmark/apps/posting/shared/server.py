#!/usr/bin/env python3
"""A small HTTP API for tasks: logs every request as one JSON line, answers from a routes file.

usage: server.py PORT LOG [ROUTES.json]
ROUTES maps "METHOD /path" (path without query) to a JSON response body; anything else gets
{"ok": true, "method": ..., "path": ...}.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

PORT, LOG = int(sys.argv[1]), sys.argv[2]
ROUTES = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode(errors="replace") if length else ""
        split = urlsplit(self.path)
        record = {"method": self.command, "path": split.path, "query": split.query,
                  "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
        with open(LOG, "a") as log:
            log.write(json.dumps(record) + "\n")
        key = f"{self.command} {split.path}"
        if key in ROUTES:
            status, payload = 200, ROUTES[key]
        else:
            status, payload = 200, {"ok": True, "method": self.command, "path": split.path}
        data = (json.dumps(payload, indent=2) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

    def log_message(self, *args) -> None:  # quiet: the JSON log is the record
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
