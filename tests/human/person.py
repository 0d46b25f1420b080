"""The test plays the person: a real pseudo-terminal running ``tuinaut human``, raw bytes typed into it."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect

POLL_S = 0.01


def wait_for(condition: Callable[[], Any], timeout_s: float = 15.0, what: str = "condition") -> Any:
    """Poll until ``condition()`` is truthy; return its value."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(POLL_S)
    raise AssertionError(f"timed out after {timeout_s:g}s waiting for {what}")


def read_jsonl(path: Path) -> list[dict]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines = lines[:-1]  # a line being written
    return [json.loads(line) for line in lines if line.strip()]


class Person:
    """``tuinaut human ARGS`` in a pty of ``columns`` x ``rows``; everything it draws is kept."""

    def __init__(self, args: list[str], *, columns: int = 200, rows: int = 50, cwd: Path | None = None) -> None:
        self.child = pexpect.spawn(sys.executable, ["-c", "from tuinaut.cli import main; main()", "human", *args],
                                   dimensions=(rows, columns), cwd=str(cwd) if cwd else None,
                                   env={"TERM": "xterm-256color", "PATH": "/usr/local/bin:/usr/bin:/bin",
                                        "LANG": "C.UTF-8", "PYTHONPATH": ":".join(sys.path)})
        self._output = bytearray()
        self._lock = threading.Lock()
        self._drain = threading.Thread(target=self._read_all, daemon=True)
        self._drain.start()

    def _read_all(self) -> None:
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                continue
            except (pexpect.EOF, OSError, ValueError):
                return
            with self._lock:
                self._output += data

    @property
    def output(self) -> bytes:
        with self._lock:
            return bytes(self._output)

    def saw(self, text: str | bytes) -> bool:
        needle = text.encode() if isinstance(text, str) else text
        return needle in self.output

    def wait_text(self, text: str, timeout_s: float = 15.0) -> None:
        try:
            wait_for(lambda: self.saw(text) or not self.child.isalive(), timeout_s, f"{text!r} on the person's screen")
            if not self.saw(text):
                raise AssertionError(f"the harness exited before showing {text!r}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the screen got: {self.output[-2000:]!r}") from None

    def type(self, data: bytes) -> None:
        self.child.send(data)

    def wait_exit(self, timeout_s: float = 30.0) -> int:
        wait_for(lambda: not self.child.isalive(), timeout_s, "the harness to exit")
        self._drain.join(timeout=2)
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -(self.child.signalstatus or 0)

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


class AttemptFiles:
    """Reads one attempt directory while it is being written."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def keystrokes(self) -> list[dict]:
        return read_jsonl(self.directory / "keystrokes.jsonl")

    def actions(self) -> list[dict]:
        return [e for e in read_jsonl(self.directory / "trajectory.jsonl") if e["kind"] == "action"]

    def delivered(self) -> list[str]:
        return [key["key"] for action in self.actions() for key in action["keys"]]

    def wait_ready(self, timeout_s: float = 20.0) -> None:
        wait_for(lambda: any(e["event"] == "viewer_ready" for e in self.keystrokes()), timeout_s,
                 "the pane to be shown to the person")

    def wait_delivered(self, count: int, timeout_s: float = 10.0) -> list[str]:
        return wait_for(lambda: (keys := self.delivered()) and len(keys) >= count and keys, timeout_s,
                        f"{count} keys delivered")

    def result(self) -> dict:
        return json.loads((self.directory / "result.json").read_text())

    def wait_result(self, timeout_s: float = 20.0) -> dict:
        wait_for(lambda: (self.directory / "result.json").exists(), timeout_s, "result.json")
        return self.result()
