"""One conformance suite, every sandbox backend: bubblewrap, and the Pod's app container.

The Pod backend is exercised here without a cluster: its "app container" is a bubblewrap mount
namespace (own HOME, /tmp, /workspace, uid 1000) running the very entrypoint the app image ships,
and the test process plays the agent sidecar, sharing only the control directory with it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tuinaut.model.app import Readiness, Settle
from tuinaut.sandbox.base import Sandbox
from tuinaut.sandbox.bwrap import BwrapSandbox, require_bwrap
from tuinaut.sandbox.pod import PodSandbox, app_entrypoint
from tuinaut.terminal.settle import first_screen

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None or shutil.which("tmux") is None,
                                reason="needs bubblewrap and tmux")

SYSTEM = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64")


def _app_container(root: Path) -> subprocess.Popen[bytes]:
    """Start the app entrypoint in a container-like namespace; ``root/run`` is the shared emptyDir."""
    args = [require_bwrap(), "--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000",
            "--die-with-parent", "--new-session", "--clearenv",
            "--setenv", "HOME", "/home/user", "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin",
            "--setenv", "TERM", "xterm-256color", "--setenv", "LANG", "C.UTF-8"]
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for name, inside in (("home", "/home/user"), ("tmp", "/tmp"), ("workspace", "/workspace"), ("run", "/run/tuinaut")):
        (root / name).mkdir(parents=True, exist_ok=True)
        args += ["--bind", str(root / name), inside]
    args += ["--proc", "/proc", "--dev", "/dev", "sh", "-c", app_entrypoint()]
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@pytest.fixture(params=["bwrap", "pod"])
def sandbox(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Sandbox]:
    if request.param == "bwrap":
        box: Sandbox = BwrapSandbox(tmp_path / "sandbox")
        box.start()
        yield box
        box.stop()
        return
    # the socket path must stay short: a short temp dir rather than pytest's deep tmp_path
    root = Path(tempfile.mkdtemp(prefix="tpod-"))
    app = _app_container(root)
    box = PodSandbox(root / "run", "/run/tuinaut", wait_s=15)
    try:
        box.start()
        yield box
    finally:
        box.stop()
        try:
            assert app.wait(timeout=10) == 0, app.stdout.read() if app.stdout else b""
        finally:
            if app.poll() is None:
                app.kill()
            shutil.rmtree(root, ignore_errors=True)


def test_exec_runs_as_the_sandbox_user_in_home(sandbox: Sandbox) -> None:
    result = sandbox.exec("id -u; pwd; echo \"$HOME\"; echo oops >&2; exit 3")
    assert result.exit_code == 3
    assert result.text.split() == ["1000", "/home/user", "/home/user"]
    assert result.stderr.strip() == b"oops"


def test_put_file_and_make_dir_are_seen_by_commands(sandbox: Sandbox) -> None:
    sandbox.put_file("notes/a b.txt", b"hello\nworld\n", mode="600")
    sandbox.make_dir("~/empty/dir")
    result = sandbox.exec("cat 'notes/a b.txt'; stat -c %a 'notes/a b.txt'; test -d empty/dir && echo dir")
    assert result.exit_code == 0
    assert result.text.splitlines() == ["hello", "world", "600", "dir"]


def test_exec_times_out_without_blocking(sandbox: Sandbox) -> None:
    result = sandbox.exec("sleep 5", timeout_s=0.3)
    assert result.timed_out and result.exit_code is None


def test_tmp_is_the_sandboxes_own(sandbox: Sandbox) -> None:
    assert sandbox.exec("test -e /tmp/marker").exit_code == 1
    sandbox.exec("echo mine > /tmp/marker")
    assert sandbox.exec("cat /tmp/marker").text == "mine\n"


def test_launch_shows_the_tui_and_state_survives_in_shell(sandbox: Sandbox) -> None:
    sandbox.exec("printf 'line one\\n' > ~/seen.txt")
    pane = sandbox.launch("cat ~/seen.txt; echo ready; sleep 30", 80, 24, {"GREETING": "hi"})
    snapshot = first_screen(pane, Readiness(pattern="ready", timeout_s=10), Settle())
    assert "line one" in snapshot.plain and "ready" in snapshot.plain
    assert (snapshot.width, snapshot.height) == (80, 24)
    processes = sandbox.exec("pgrep -x sleep")
    assert processes.exit_code == 0


def test_the_agent_runtime_runs_a_task_against_the_app_container(tmp_path: Path) -> None:
    """`tuinaut pod agent` end to end without a cluster: the emulated app container runs the app's
    entrypoint, the agent runtime drives nano through it and reports the compact result."""
    import json

    from tuinaut.k8s.inpod import run_agent
    from tuinaut.k8s.message import decode

    if shutil.which("nano") is None:
        pytest.skip("nano is not installed (scripts/setup.sh installs the benchmark's apps)")
    root = Path(tempfile.mkdtemp(prefix="tpod-"))
    app = _app_container(root)
    termination = tmp_path / "termination-log"
    work = {"attempt": "e-nano-write-note-reference-r1", "evaluation": "e", "task": "nano/write-note", "repeat": 1,
            "try": 1, "agent": {"name": "reference", "kind": "reference"}, "limits": {"attemptTimeoutS": 60}}
    try:
        result = run_agent(work, Path(__file__).resolve().parents[2] / "benchmark", tmp_path / "results",
                           run_dir=str(root / "run"), run_dir_inside="/run/tuinaut", termination_log=termination)
        assert app.wait(timeout=10) == 0  # the agent ended the app container
    finally:
        if app.poll() is None:
            app.kill()
    try:
        assert result.outcome == "passed", result.error or result.assertions
        message = decode(termination.read_text())
        assert message is not None and message.passed and message.ake == result.keys.ake > 0
        assert message.trajectory == str(tmp_path / "results" / "trajectory.jsonl")
        assert json.loads((tmp_path / "results" / "result.json").read_text())["infra_attempts"] == 1
        notes = list((root / "home").glob("fp*.txt"))  # the note is in the app container's HOME
        assert len(notes) == 1 and notes[0].read_text().strip() == "buy oat milk"
    finally:
        shutil.rmtree(root, ignore_errors=True)
