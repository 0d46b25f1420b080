"""The sandbox interface: where the TUI, its init script and the oracles run.

Each backend only has to start a tmux server *inside* its isolation (bubblewrap here, the app
container in a Pod) and share a control directory with the driver. Everything else is common and
goes through that server: fixtures and commands run in hidden tmux windows, so the oracles see
exactly the filesystem, processes and loopback services the TUI saw.
"""

from __future__ import annotations

import itertools
import shlex
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from ..errors import InfraError
from ..terminal.tmux import Pane, TmuxServer

SANDBOX_HOME = "/home/user"
SANDBOX_USER = "user"
SANDBOX_UID = 1000
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"


@dataclass(frozen=True)
class ExecResult:
    exit_code: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool = False

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")


def sandbox_path(path: str) -> str:
    """Resolve a task path: absolute stays, ``~/x`` and relative paths are under HOME."""
    if path.startswith("~/") or path == "~":
        return SANDBOX_HOME + path[1:]
    if path.startswith("/"):
        return path
    return f"{SANDBOX_HOME}/{path}"


class Sandbox(ABC):
    """A started sandbox owns a tmux server; ``ctl_host`` and ``ctl_inside`` name one shared directory."""

    ctl_host: Path
    ctl_inside: str

    def __init__(self) -> None:
        self._tmux: TmuxServer | None = None
        self._counter = itertools.count(1)

    # -- backend-specific ---------------------------------------------------------------------
    @abstractmethod
    def _start_server(self) -> TmuxServer:
        """Create the isolation and start a tmux server in it, reachable at the returned socket."""

    @abstractmethod
    def stop(self) -> None:
        """Stop everything the sandbox started. Safe to call twice."""

    # -- common, through the tmux server --------------------------------------------------------
    def start(self) -> None:
        server = self._start_server()
        server.wait_until_up()
        server.new_control_session()
        self._tmux = server
    @property
    def tmux(self) -> TmuxServer:
        if self._tmux is None:
            raise InfraError("sandbox_error", "sandbox not started")
        return self._tmux

    def launch(self, command: str, width: int, height: int, env: dict[str, str], cwd: str = SANDBOX_HOME) -> Pane:
        """Start the TUI in the visible pane."""
        return self.tmux.new_session(f"exec sh -c {shlex.quote(command)}", width, height, cwd, env)

    def exec(self, command: str, timeout_s: float = 30.0, cwd: str = SANDBOX_HOME) -> ExecResult:
        """Run a shell command inside the sandbox, in a window the actor never sees.

        The wrapper writes the exit code to a file once the command is done; polling that file
        is cheaper than asking tmux, and tmux may report a pane dead before it knows the status.
        """
        n = next(self._counter)
        name = f"exec-{n}"
        (self.ctl_host / f"{name}.sh").write_text(command + "\n")
        inside = f"{self.ctl_inside}/{name}"
        pane_id = self.tmux.new_hidden_window(
            f"sh {inside}.sh >{inside}.out 2>{inside}.err; echo $? >{inside}.rc.tmp; mv {inside}.rc.tmp {inside}.rc", cwd)
        rc_file = self.ctl_host / f"{name}.rc"
        deadline = time.monotonic() + timeout_s
        delay = 0.001
        while not rc_file.exists() and time.monotonic() < deadline:
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
        self.tmux.kill_pane(pane_id)
        exit_code = int(rc_file.read_text().strip()) if rc_file.exists() else None
        return ExecResult(exit_code, self._read_ctl(f"{name}.out"), self._read_ctl(f"{name}.err"),
                          timed_out=exit_code is None)

    def put_file(self, path: str, data: bytes, mode: str | None = None) -> None:
        """Place a file at a sandbox path (parents created) with the sandbox user's ownership."""
        n = next(self._counter)
        (self.ctl_host / f"put-{n}").write_bytes(data)
        target = shlex.quote(sandbox_path(path))
        command = f'mkdir -p "$(dirname {target})" && cp {self.ctl_inside}/put-{n} {target}'
        if mode:
            command += f" && chmod {mode} {target}"
        self._must(command, f"writing fixture {path}")
        (self.ctl_host / f"put-{n}").unlink()

    def make_dir(self, path: str) -> None:
        self._must(f"mkdir -p {shlex.quote(sandbox_path(path))}", f"creating directory {path}")

    def _must(self, command: str, what: str) -> None:
        result = self.exec(command, timeout_s=30)
        if result.exit_code != 0:
            raise InfraError("sandbox_error", f"{what} failed (exit {result.exit_code}): "
                                              f"{result.stderr.decode(errors='replace').strip()[:300]}")

    def _read_ctl(self, name: str) -> bytes:
        try:
            return (self.ctl_host / name).read_bytes()
        except FileNotFoundError:
            return b""

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
