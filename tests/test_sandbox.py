"""The bubblewrap sandbox confines the TUI and the oracle commands alike."""

from __future__ import annotations

import time

import pytest

from tuinaut.model.app import Readiness, Settle
from tuinaut.sandbox.bwrap import BwrapSandbox
from tuinaut.terminal.settle import first_screen, settle


@pytest.fixture
def sandbox(tmp_path):  # type: ignore[no-untyped-def]
    box = BwrapSandbox(tmp_path / "sandbox")
    box.start()
    yield box
    box.stop()


def test_runs_as_unprivileged_user_in_its_own_home(sandbox) -> None:
    result = sandbox.exec("id -u; echo $HOME; pwd")
    assert result.exit_code == 0
    assert result.text.split() == ["1000", "/home/user", "/home/user"]


def test_no_network_but_loopback(sandbox) -> None:
    result = sandbox.exec("cat /proc/net/dev | awk 'NR>2 {print $1}'")
    assert result.text.split() == ["lo:"]


def test_host_files_are_invisible_and_system_is_read_only(sandbox, tmp_path) -> None:
    result = sandbox.exec(f"ls /root /work {tmp_path} 2>&1; touch /usr/x 2>&1; touch /etc/x 2>&1; echo done")
    text = result.text
    assert "'/root': No such file" in text and "'/work': No such file" in text
    assert "Read-only file system" in text or "Permission denied" in text
    assert text.strip().endswith("done")


def test_writable_places_map_to_the_attempt_directory(sandbox, tmp_path) -> None:
    sandbox.exec("echo h > ~/a; echo t > /tmp/b; echo w > /workspace/c")
    root = tmp_path / "sandbox"
    assert (root / "home" / "a").read_text() == "h\n"
    assert (root / "tmp" / "b").read_text() == "t\n"
    assert (root / "workspace" / "c").read_text() == "w\n"


def test_exec_reports_exit_codes_output_and_timeouts(sandbox) -> None:
    result = sandbox.exec("echo out; echo err >&2; exit 5")
    assert (result.exit_code, result.stdout, result.stderr) == (5, b"out\n", b"err\n")
    slow = sandbox.exec("sleep 5", timeout_s=0.3)
    assert slow.timed_out and slow.exit_code is None


def test_processes_see_only_the_sandbox(sandbox) -> None:
    result = sandbox.exec("ps -e -o comm=")
    names = set(result.text.split())
    assert "bwrap" in names and "ps" in names
    assert "systemd" not in names and "python" not in names and "pytest" not in names


def test_stop_leaves_no_process_behind(tmp_path) -> None:
    box = BwrapSandbox(tmp_path / "sandbox")
    box.start()
    box.exec("setsid -f sleep 300")
    process = box._process
    assert process is not None
    box.stop()
    assert process.poll() is not None
    assert not box.ctl_host.exists()


def test_put_file_creates_parents_with_mode(sandbox) -> None:
    sandbox.put_file("deep/er/run.sh", b"#!/bin/sh\necho ran\n", "0755")
    assert sandbox.exec("./deep/er/run.sh").text == "ran\n"


def test_pane_size_and_terminal(sandbox) -> None:
    pane = sandbox.launch("tput cols; tput lines; echo $TERM; sleep 30", 100, 30, {})
    snapshot = first_screen(pane, Readiness(timeout_s=5), Settle())
    assert snapshot.lines[:3] == ["100", "30", "xterm-256color"]
    assert (snapshot.width, snapshot.height) == (100, 30)


def test_settle_waits_for_a_late_redraw(sandbox) -> None:
    # The program answers a key after 150 ms of silence, then keeps drawing for a while.
    script = "read x; sleep 0.15; for i in 1 2 3 4 5; do echo line$i; sleep 0.03; done; sleep 30"
    pane = sandbox.launch(script, 80, 24, {})
    pane.send_key("enter")
    snapshot, settled = settle(pane, Settle(quiet_ms=250))
    assert settled and "line5" in snapshot.plain
    start = time.monotonic()
    snapshot, settled = settle(pane, Settle(quiet_ms=40))
    assert settled and time.monotonic() - start < 2  # a static screen settles after the quiet period


def test_typing_semicolons_and_dashes_literally(sandbox) -> None:
    pane = sandbox.launch("cat", 80, 24, {})
    time.sleep(0.1)
    pane.send_text("-x; a;b ;")
    pane.send_text(";")
    pane.send_text("--")
    snapshot, _ = settle(pane, Settle())
    assert snapshot.lines[0] == "-x; a;b ;;--"
