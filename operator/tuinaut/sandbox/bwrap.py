"""Local sandbox: bubblewrap around a tmux server.

The system is bound read-only, HOME, /tmp and /workspace are per-attempt directories, the network
namespace is private (loopback only), and the process runs as an unprivileged uid in a user
namespace. The tmux server runs inside it in the foreground (``tmux -D``), so every pane it spawns,
the TUI and the oracle commands alike, is confined the same way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..errors import InfraError, MissingToolError
from ..terminal.tmux import SERVER_CONFIG, TmuxServer, require_tmux
from .base import SANDBOX_HOME, SANDBOX_PATH, SANDBOX_UID, SANDBOX_USER, Sandbox

BWRAP_HINT = "apt-get install bubblewrap"
CTL_INSIDE = "/run/tuinaut"
_SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def require_bwrap() -> str:
    path = shutil.which("bwrap")
    if not path:
        raise MissingToolError("bwrap", BWRAP_HINT)
    return path


class BwrapSandbox(Sandbox):
    """One attempt's sandbox. ``root`` receives home/, tmp/ and workspace/ (kept for inspection)."""

    ctl_inside = CTL_INSIDE

    def __init__(self, root: Path, *, read_only_paths: list[str] | None = None) -> None:
        super().__init__()
        self.root = Path(root)
        self.read_only_paths = read_only_paths or []
        self._process: subprocess.Popen[bytes] | None = None
        # The control dir holds the tmux socket: socket paths are limited to ~100 bytes, so it
        # lives in a short temporary directory rather than under the (possibly deep) results dir.
        self.ctl_host = Path(tempfile.mkdtemp(prefix="tuinaut-"))

    def _start_server(self) -> TmuxServer:
        bwrap = require_bwrap()
        tmux = require_tmux()
        for name in ("home", "tmp", "workspace"):
            (self.root / name).mkdir(parents=True, exist_ok=True)
        (self.ctl_host / "tmux.conf").write_text(SERVER_CONFIG)
        (self.ctl_host / "passwd").write_text(
            f"root:x:0:0:root:/root:/bin/sh\n{SANDBOX_USER}:x:{SANDBOX_UID}:{SANDBOX_UID}::{SANDBOX_HOME}:/bin/sh\n")
        (self.ctl_host / "group").write_text(f"root:x:0:\n{SANDBOX_USER}:x:{SANDBOX_UID}:\n")
        argv = [bwrap, *self._isolation_args(), tmux, "-S", f"{CTL_INSIDE}/tmux.sock",
                "-f", f"{CTL_INSIDE}/tmux.conf", "-D"]
        log = open(self.ctl_host / "bwrap.log", "wb")
        try:
            self._process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                             start_new_session=True)
        finally:
            log.close()
        time.sleep(0.005)
        if self._process.poll() is not None:
            raise InfraError("sandbox_error", f"bubblewrap exited at start: {self._log_tail()}")
        return TmuxServer(self.ctl_host / "tmux.sock")

    def _isolation_args(self) -> list[str]:
        args = ["--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                "--die-with-parent", "--new-session", "--clearenv",
                "--setenv", "HOME", SANDBOX_HOME, "--setenv", "USER", SANDBOX_USER,
                "--setenv", "LOGNAME", SANDBOX_USER, "--setenv", "PATH", SANDBOX_PATH,
                "--setenv", "TERM", "xterm-256color", "--setenv", "LANG", "C.UTF-8",
                "--setenv", "SHELL", "/bin/sh"]
        for path in _SYSTEM_DIRS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        args += ["--ro-bind", str(self.ctl_host / "passwd"), "/etc/passwd",
                 "--ro-bind", str(self.ctl_host / "group"), "/etc/group"]
        for path in self.read_only_paths:
            if not os.path.exists(path):
                raise InfraError("sandbox_error", f"read-only path {path} does not exist on this machine")
            args += ["--ro-bind", path, path]
        args += ["--proc", "/proc", "--dev", "/dev",
                 "--bind", str(self.root / "home"), SANDBOX_HOME,
                 "--bind", str(self.root / "tmp"), "/tmp",
                 "--bind", str(self.root / "workspace"), "/workspace",
                 "--bind", str(self.ctl_host), CTL_INSIDE,
                 "--chdir", SANDBOX_HOME]
        return args

    def stop(self) -> None:
        if self._tmux is not None:
            self._tmux.kill_server()
            self._tmux = None
        if self._process is not None:
            try:
                self._process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(self._process.pid, 9)
                self._process.wait()
            self._process = None
        shutil.rmtree(self.ctl_host, ignore_errors=True)

    def _log_tail(self) -> str:
        try:
            return (self.ctl_host / "bwrap.log").read_text(errors="replace")[-500:].strip()
        except OSError:
            return "(no log)"
