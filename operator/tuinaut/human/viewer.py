"""Show the person the live pane: a read-only tmux client in a pseudo-terminal the harness owns.

The client (``tmux attach-session -r``) talks to the attempt's own tmux server, inside the sandbox,
over the same socket the engine uses. It gets a pty sized like the person's terminal; a thread
copies what it draws to the person's terminal. The client never receives the person's keys (the
harness reads and records them, and the loop delivers them with ``send-keys``, exactly as for an
agent), and the window is pinned to the app's pane size, so attaching never resizes the TUI.

The task stays on screen in tmux status lines at the top (session options only: the pane, what
``capture-pane`` and the oracles see, is unchanged).

Two kinds of sequences are removed from the client's output on the way to the person's terminal:
terminal queries (whose answers would come back as keystrokes) and requests to turn on mouse
reports, focus events or bracketed paste (input the harness does not take).
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import textwrap
import threading
import time
from pathlib import Path

from ..errors import TuinautError
from ..terminal.tmux import SESSION, TmuxServer, require_tmux
from .terminal import CLEAR, INPUT_MODES_OFF, SCREEN_RESET, PersonTerminal

MAX_STATUS_LINES = 5  # tmux draws at most five status lines
DROPPED_OUTPUT = (
    b"\x1b[c", b"\x1b[0c", b"\x1b[>c", b"\x1b[>0c", b"\x1b[>q", b"\x1b[6n", b"\x1b[?6n",
    b"\x1b]10;?\x1b\\", b"\x1b]11;?\x1b\\", b"\x1b]12;?\x1b\\", b"\x1b]10;?\x07", b"\x1b]11;?\x07",
    b"\x1b[?1000h", b"\x1b[?1002h", b"\x1b[?1003h", b"\x1b[?1005h", b"\x1b[?1006h", b"\x1b[?1015h",
    b"\x1b[?1004h", b"\x1b[?2004h", b"\x1b[>4;1m", b"\x1b[>4;2m", b"\x1b[>1u",
)
_TERMINFO_DIRS = ("/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo")


class OutputFilter:
    """Streams bytes through, removing ``DROPPED_OUTPUT`` even when one is split across reads."""

    def __init__(self, patterns: tuple[bytes, ...] = DROPPED_OUTPUT) -> None:
        self.patterns = patterns
        self._held = b""
        self._prefixes = {p[:i] for p in patterns for i in range(1, len(p))}
        self._longest = max(len(p) for p in patterns)

    def feed(self, data: bytes) -> bytes:
        buffer = self._held + data
        for pattern in self.patterns:
            if pattern in buffer:
                buffer = buffer.replace(pattern, b"")
        keep = 0
        start = buffer.rfind(b"\x1b", max(0, len(buffer) - self._longest))
        if start >= 0 and buffer[start:] in self._prefixes:
            keep = len(buffer) - start
        self._held = buffer[len(buffer) - keep:] if keep else b""
        return buffer[:len(buffer) - keep] if keep else buffer

    def flush(self) -> bytes:
        held, self._held = self._held, b""
        return held


def status_lines(header: str, description: str, columns: int) -> list[str]:
    """The header line plus the description wrapped to the terminal width (at most 3 lines)."""
    width = max(20, columns - 2)
    wrapped = textwrap.wrap(" ".join(description.split()), width) or [""]
    room = MAX_STATUS_LINES - 2
    if len(wrapped) > room:
        wrapped = wrapped[:room]
        wrapped[-1] = wrapped[-1][: width - 1] + "…"
    return [header[:columns], *(" " + line for line in wrapped), ""]


def _tmux_text(text: str) -> str:
    return text.replace("#", "##")


def client_term(term: str | None) -> str:
    """The person's TERM when terminfo knows it (the server looks it up), else xterm-256color."""
    if term:
        for directory in _TERMINFO_DIRS:
            for sub in (term[0], f"{ord(term[0]):x}"):
                if os.path.exists(os.path.join(directory, sub, term)):
                    return term
    return "xterm-256color"


def _set_winsize(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class Viewer:
    """A read-only view of the pane on the person's terminal; ``open`` then ``close``."""

    def __init__(self, terminal: PersonTerminal, socket_path: Path, header: str, description: str) -> None:
        self.terminal = terminal
        self.socket_path = socket_path
        self.header = header
        self.description = description
        self.ready_at: float | None = None  # monotonic time the client first drew
        self._process: subprocess.Popen[bytes] | None = None
        self._master: int | None = None
        self._pump: threading.Thread | None = None
        self._stop = threading.Event()
        self._previous_winch: object = None

    def open(self) -> None:
        columns, rows = self.terminal.size()
        lines = status_lines(self.header, self.description, columns)
        server = TmuxServer(self.socket_path)
        commands: list[str] = ["set-option", "-t", SESSION, "status", str(len(lines)), ";",
                               "set-option", "-t", SESSION, "status-position", "top", ";",
                               "set-option", "-t", SESSION, "status-style", "default", ";"]
        for index, line in enumerate(lines):
            style = "#[reverse,bold]" if index == 0 else "#[bold]"
            commands += ["set-option", "-t", SESSION, f"status-format[{index}]",
                         f"{style}{_tmux_text(line)}#[default]", ";"]
        server.run(*commands[:-1])
        master, slave = os.openpty()
        _set_winsize(master, columns, rows)
        env = {**os.environ, "TERM": client_term(os.environ.get("TERM"))}
        env.pop("TMUX", None)  # attaching from inside another tmux is fine: it is another server
        self.terminal.write(CLEAR)
        self._process = subprocess.Popen(
            [require_tmux(), "-S", str(self.socket_path), "attach-session", "-r", "-t", SESSION],
            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self._master = master
        self._pump = threading.Thread(target=self._copy, name="viewer", daemon=True)
        self._pump.start()
        if threading.current_thread() is threading.main_thread():
            self._previous_winch = signal.signal(signal.SIGWINCH, self._on_resize)

    def wait_ready(self, timeout_s: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while self.ready_at is None and time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                return False
            time.sleep(0.005)
        return self.ready_at is not None

    def close(self) -> None:
        if self._previous_winch is not None:
            signal.signal(signal.SIGWINCH, self._previous_winch)  # type: ignore[arg-type]
            self._previous_winch = None
        if self._process is not None:
            if self._process.poll() is None:
                try:  # a detached client restores the terminal modes it set; fall back to a signal
                    TmuxServer(self.socket_path).run("detach-client", "-s", SESSION)
                    self._process.wait(timeout=1)
                except (TuinautError, subprocess.TimeoutExpired):
                    pass  # the server is already gone, or the client hung: it gets a signal below
            if self._process.poll() is None:
                self._process.terminate()
                try:
                    self._process.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            self._process = None
        self._stop.set()
        if self._pump is not None:
            self._pump.join(timeout=2)
            self._pump = None
        if self._master is not None:
            os.close(self._master)
            self._master = None
        self.terminal.write(SCREEN_RESET + INPUT_MODES_OFF + CLEAR)

    # -- internals ---------------------------------------------------------------------------------
    def _on_resize(self, signum: int, frame: object) -> None:
        if self._master is not None:
            columns, rows = self.terminal.size()
            _set_winsize(self._master, columns, rows)

    def _copy(self) -> None:
        assert self._master is not None
        output = OutputFilter()
        master = self._master
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the client is gone
                    break
                if not data:
                    break
                chunk = output.feed(data)
                if self.ready_at is None:
                    self.ready_at = time.monotonic()
            else:
                chunk = output.flush()
            if chunk:
                self.terminal.write(chunk)
        rest = output.flush()
        if rest:
            self.terminal.write(rest)
