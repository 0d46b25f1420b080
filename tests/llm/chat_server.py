"""A real HTTP server speaking the Chat Completions protocol, with scripted replies.

The openai client talks to it over a socket exactly as it would to a provider, so the tests
exercise the real request encoding, timeouts, status handling and response parsing. Every request
body is recorded for the tests to inspect what the model would have received.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# The key the tests give the actor: it must reach the server and appear nowhere else.
TEST_KEY = "sk-tuinaut-test-7f3a9c0e51d24b86"
KEY_ENV = "TUINAUT_TEST_API_KEY"


@dataclass
class Scripted:
    """One scripted response: status, JSON body, extra headers, and a delay before answering."""

    status: int = 200
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def reply(content: str, *, reasoning: str | None = None, reasoning_tokens: int | None = None,
          prompt_tokens: int = 120, completion_tokens: int = 30, cached_tokens: int = 0,
          finish_reason: str = "stop", model: str = "scripted-model") -> Scripted:
    """A 200 completion the way DeepSeek/vLLM shape it (``reasoning_content`` beside ``content``)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    usage: dict[str, Any] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                             "total_tokens": prompt_tokens + completion_tokens,
                             "prompt_tokens_details": {"cached_tokens": cached_tokens}}
    if reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
    return Scripted(body={"id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
                          "model": model, "usage": usage,
                          "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}]})


def action(payload: dict[str, Any], **kwargs: Any) -> Scripted:
    return reply(json.dumps(payload), **kwargs)


def error(status: int, message: str = "scripted failure", headers: dict[str, str] | None = None) -> Scripted:
    return Scripted(status=status, body={"error": {"message": message, "type": "server_error"}},
                    headers=headers or {})


class ChatServer:
    """Serves the script in order; answers 500 'script exhausted' once it runs out."""

    def __init__(self) -> None:
        self.script: list[Scripted] = []
        self.requests: list[dict[str, Any]] = []  # {"path", "headers", "body", "t"}
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body,
                                            "t": time.monotonic()})
                    step = server.script.pop(0) if server.script else error(500, "script exhausted")
                if self.path != "/v1/chat/completions":
                    step = error(404, f"no route {self.path}")
                time.sleep(step.delay_s)
                data = json.dumps(step.body or {}).encode()
                try:
                    self.send_response(step.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for name, value in step.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name="chat-server", daemon=True)

    def start(self) -> ChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def add(self, *steps: Scripted) -> None:
        with self._lock:
            self.script.extend(steps)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests]
