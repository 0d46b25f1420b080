"""Every oracle primitive, passing and failing, against real TUIs (nano and mc) in real sandboxes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuinaut.attempt import AttemptSpec, run_attempt
from tuinaut.catalog import load_catalog
from tuinaut.model import AgentConfig

REFERENCE = AgentConfig(name="reference", kind="reference")


def _run(bench, tmp_path: Path, task_id: str):  # type: ignore[no-untyped-def]
    package = load_catalog(bench.root).tasks[task_id]
    return run_attempt(AttemptSpec(package=package, agent=REFERENCE, repeat=1), tmp_path / "attempt")


def _verdicts(result) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    return {v.description: v.passed for v in result.assertions}


@pytest.fixture(scope="module")
def nano_result(tmp_path_factory):  # type: ignore[no-untyped-def]
    from support import BenchmarkBuilder

    tmp = tmp_path_factory.mktemp("nano")
    bench = BenchmarkBuilder(tmp / "bench")
    bench.app("nano", "nano notes.txt", ready={"pattern": "GNU nano"})
    checks = [
        ("shell pass", {"type": "check_shell", "command": "grep -q 'second line' notes.txt"}),
        ("shell fail", {"type": "check_shell", "command": "grep -q 'third line' notes.txt"}),
        ("shell output pass", {"type": "check_shell", "command": "wc -l < notes.txt", "stdoutContains": "2"}),
        ("shell output fail", {"type": "check_shell", "command": "wc -l < notes.txt", "stdoutContains": "7"}),
        ("fs pass", {"type": "check_filesystem", "path": "~/notes.txt", "kind": "file"}),
        ("fs fail", {"type": "check_filesystem", "path": "notes.txt", "kind": "dir"}),
        ("fs absent pass", {"type": "check_filesystem", "path": "/tmp/nothing", "exists": False}),
        ("fs absent fail", {"type": "check_filesystem", "path": "notes.txt", "exists": False}),
        ("content pass", {"type": "check_filesystem_content", "path": "notes.txt", "equals": "first line\nsecond line"}),
        ("content fail", {"type": "check_filesystem_content", "path": "notes.txt", "contains": "first line",
                          "notContains": "second"}),
        ("content regex pass", {"type": "check_filesystem_content", "path": "notes.txt", "regex": "^second"}),
        ("content missing file", {"type": "check_filesystem_content", "path": "nope.txt", "contains": "x"}),
        ("screen pass", {"type": "check_screen", "text": "second line"}),
        ("screen fail", {"type": "check_screen", "text": "not on screen"}),
        ("screen regex pass", {"type": "check_screen", "regex": r"Wrote \d+ lines"}),
        ("absent pass", {"type": "check_screen_absent", "text": "Modified"}),
        ("absent fail", {"type": "check_screen_absent", "text": "GNU nano"}),
        ("highlight pass", {"type": "check_screen_highlight", "text": "GNU nano"}),  # the reverse title bar
        ("highlight fail", {"type": "check_screen_highlight", "text": "second line"}),  # plain body text
        ("highlight missing", {"type": "check_screen_highlight", "text": "absent text"}),
    ]
    bench.task("nano", "edit", fixtures=[{"path": "notes.txt", "content": "first line\n"}],
               assertions=[{"description": name, **check} for name, check in checks],
               reference=[{"press": "down"}, {"type": "second line"}, {"press": "ctrl+o"}, {"press": "enter"},
                          {"wait": {"ms": 3000, "until": "Wrote"}}])
    return _run(bench, tmp, "nano/edit")


@pytest.mark.parametrize("name", [
    "shell pass", "shell output pass", "fs pass", "fs absent pass", "content pass", "content regex pass",
    "screen pass", "screen regex pass", "absent pass", "highlight pass",
])
def test_passing_assertions(nano_result, name: str) -> None:
    assert _verdicts(nano_result)[name] is True, nano_result.assertions


@pytest.mark.parametrize("name", [
    "shell fail", "shell output fail", "fs fail", "fs absent fail", "content fail", "content missing file",
    "screen fail", "absent fail", "highlight fail", "highlight missing",
])
def test_failing_assertions(nano_result, name: str) -> None:
    assert _verdicts(nano_result)[name] is False, nano_result.assertions


def test_attempt_fails_when_any_assertion_fails(nano_result) -> None:
    assert nano_result.outcome == "failed" and not nano_result.passed
    assert nano_result.stop_reason == "submitted"


def test_evidence_explains_verdicts(nano_result) -> None:
    evidence = {v.description: v.evidence for v in nano_result.assertions}
    assert "exit 1 (expected 0)" in evidence["shell fail"]
    assert "notes.txt: file (expected dir)" in evidence["fs fail"]
    assert "contains 'second'" in evidence["content fail"]
    assert "not highlighted" in evidence["highlight fail"]
    assert "reverse" in evidence["highlight pass"]


def test_costs_of_the_reference_path(nano_result) -> None:
    keys = nano_result.keys
    assert keys.ake == 1 + len("second line") + 1 + 1
    assert keys.by_class == {"printable": 11, "navigation": 1, "deletion": 0, "control": 2}
    assert keys.class_sequence == ["navigation", "printable", "control"]
    assert keys.ake_physical == keys.ake + 1  # ctrl+o is two keys down


def test_highlight_by_background_colour_in_mc(bench, tmp_path) -> None:
    bench.app("mc", "mc --nosubshell", ready={"pattern": "1Help"})
    files = [{"path": name, "content": "x\n"} for name in ("alpha.txt", "beta.txt", "gamma.txt")]
    bench.task("mc", "pick", fixtures=files, reference=[{"press": "end"}, {"press": "up"}], assertions=[
        {"type": "check_screen_highlight", "description": "selected", "text": "beta.txt"},
        {"type": "check_screen_highlight", "description": "selected cyan", "text": "beta.txt", "bg": "cyan"},
        {"type": "check_screen_highlight", "description": "not selected", "text": "gamma.txt"},
        {"type": "check_screen_highlight", "description": "wrong colour", "text": "beta.txt", "bg": "red"},
    ])
    verdicts = _verdicts(_run(bench, tmp_path, "mc/pick"))
    assert verdicts == {"selected": True, "selected cyan": True, "not selected": False, "wrong colour": False}
