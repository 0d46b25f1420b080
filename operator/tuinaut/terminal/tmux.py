"""The one gateway to tmux: every tmux command TUINaut runs goes through ``TmuxServer.run``.

The server itself is started by the sandbox (inside it, so every pane's process is sandboxed);
this module only talks to it over its private socket, through libtmux.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import libtmux
from libtmux import exc as libtmux_exc

from ..errors import InfraError, MissingToolError
from .keys import tmux_key
from .snapshot import Snapshot, parse_capture

TMUX_HINT = "apt-get install tmux"
SESSION = "tuinaut"  # the actor's session: only the TUI's pane
CONTROL_SESSION = "control"  # hidden windows for init scripts, fixtures and oracles
# Format for the line printed after a capture: cursor, pane state and size, all from the same moment.
_STATE_FORMAT = "#{cursor_x} #{cursor_y} #{cursor_flag} #{pane_dead} #{pane_dead_status} #{pane_width} #{pane_height}"

# Server options: no status line (it is not part of the app's screen), dead panes keep their last
# screen with no banner (the final snapshot must be what the app left) and no scrollback. The
# window size is pinned per window at creation (see new_session): tmux 3.3a crashes when
# `window-size manual` is set globally before the first session exists.
SERVER_CONFIG = """\
set -g status off
set -g remain-on-exit on
set -g remain-on-exit-format ''
set -g default-terminal xterm-256color
set -g history-limit 0
set -g escape-time 0
set -g exit-empty off
set -g destroy-unattached off
"""


def require_tmux() -> str:
    path = shutil.which("tmux")
    if not path:
        raise MissingToolError("tmux", TMUX_HINT)
    return path


class TmuxError(InfraError):
    def __init__(self, message: str) -> None:
        super().__init__("sandbox_error", f"tmux: {message}")


def snapshot_from(raw: str, state_line: str) -> Snapshot:
    """Parse a ``capture_raw`` pair (kept apart so settling can compare raw text without parsing)."""
    cursor_x, cursor_y, cursor_flag, dead, dead_status, width, height = state_line.split(" ")
    return parse_capture(
        raw,
        width=int(width),
        height=int(height),
        cursor=(int(cursor_x), int(cursor_y)),
        cursor_visible=cursor_flag == "1",
        exited=dead == "1",
        exit_status=int(dead_status) if dead == "1" and dead_status else None,
    )


@dataclass
class TmuxServer:
    """A tmux server reached through its socket path."""

    socket_path: Path

    def __post_init__(self) -> None:
        require_tmux()
        self._server = libtmux.Server(socket_path=str(self.socket_path))

    def run(self, *args: str) -> list[str]:
        """Run one tmux command line (``";"`` separates commands); stderr becomes a TmuxError."""
        try:
            result = self._server.cmd(*args)
        except libtmux_exc.TmuxCommandNotFound:
            raise MissingToolError("tmux", TMUX_HINT) from None
        if result.returncode != 0 or result.stderr:
            raise TmuxError(f"{args[0]} failed: {' '.join(result.stderr) or f'exit {result.returncode}'}")
        return list(result.stdout)

    def wait_until_up(self, timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.socket_path.exists():
                try:
                    self.run("list-sessions")
                    return
                except TmuxError as exc:
                    if "no server running" in str(exc) or "error connecting" in str(exc):
                        time.sleep(0.01)
                        continue
                    if "no sessions" in str(exc):
                        return
                    raise
            time.sleep(0.01)
        raise TmuxError(f"server did not come up on {self.socket_path} within {timeout_s:.0f}s")

    def new_session(self, command: str, width: int, height: int, cwd: str, env: dict[str, str]) -> Pane:
        args = ["new-session", "-d", "-s", SESSION, "-x", str(width), "-y", str(height), "-c", cwd]
        for key, value in env.items():
            args += ["-e", f"{key}={value}"]
        # Pinned so that an attached client (the human harness) never resizes what the TUI sees.
        self.run(*args, command, ";", "set-option", "-w", "-t", f"{SESSION}:0", "window-size", "manual")
        return Pane(self, f"{SESSION}:0.0")

    def new_control_session(self) -> None:
        # An idle first window keeps the control session alive between commands.
        self.run("new-session", "-d", "-s", CONTROL_SESSION, "-x", "80", "-y", "24", "cat")

    def new_hidden_window(self, command: str, cwd: str) -> str:
        """Start a command in a window the actor never sees; returns its pane id."""
        out = self.run("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", CONTROL_SESSION, "-c", cwd, command)
        return out[0].strip()

    def kill_pane(self, pane_id: str) -> None:
        self.run("kill-pane", "-t", pane_id)

    def kill_server(self) -> None:
        try:
            self.run("kill-server")
        except (TmuxError, MissingToolError):
            pass  # already gone: the goal is reached


@dataclass
class Pane:
    """The pane the TUI runs in: capture it, send keys to it."""

    server: TmuxServer
    target: str

    def capture_raw(self) -> tuple[str, str]:
        """One capture with attributes plus the cursor and pane state line, from one tmux invocation."""
        lines = self.server.run("capture-pane", "-p", "-e", "-N", "-t", self.target, ";",
                                "display-message", "-p", "-t", self.target, _STATE_FORMAT)
        return "\n".join(lines[:-1]), lines[-1]

    def capture(self) -> Snapshot:
        return snapshot_from(*self.capture_raw())

    def send_text(self, text: str) -> None:
        """Type text literally. tmux reads an argument ending in ';' as a command separator, so each
        ';' goes as a hex key and the rest literally, all in one invocation."""
        args: list[str] = []
        for index, chunk in enumerate(text.split(";")):
            if index:
                args += ["send-keys", "-t", self.target, "-H", "3b", ";"]
            if chunk:
                args += ["send-keys", "-t", self.target, "-l", "--", chunk, ";"]
        self.server.run(*args[:-1])

    def send_key(self, name: str) -> None:
        self.server.run("send-keys", "-t", self.target, tmux_key(name))

    def send_raw(self, data: bytes) -> None:
        """Forward bytes exactly (the human harness uses this for keys the vocabulary cannot name)."""
        self.server.run("send-keys", "-t", self.target, "-H", *(f"{b:02x}" for b in data))
