"""A person does nano/write-note twice: the reference keys pass, a near miss fails (first attempt, retry)."""

from __future__ import annotations

import shutil
from pathlib import Path

from person import AttemptFiles, Person, wait_for

from support import BENCHMARK
from tuinaut.catalog import load_catalog


def test_write_note_pass_then_fail(tmp_path: Path) -> None:
    bench = tmp_path / "bench"  # only nano: the real app and task, untouched by other apps' changes
    shutil.copytree(BENCHMARK / "apps" / "nano", bench / "apps" / "nano")
    package = load_catalog(bench).tasks["nano/write-note"]
    note = f"{package.tokens['file']}.txt"
    out = tmp_path / "run"
    person = Person(["nano/write-note", "--repeats", "2", "--participant", "p01", "--out", str(out),
                     "--benchmark", str(bench)], columns=130, rows=40)
    try:
        # r1: the reference path, typed as raw bytes (Ctrl+O is 0x0f).
        person.wait_text("task 1 of 2 (first attempt)")
        person.type(b"\r")
        first = AttemptFiles(out / "attempts/nano/write-note/p01/r1")
        first.wait_ready()
        person.type(b"buy oat milk\x0f")
        first.wait_delivered(13)
        person.type(note.encode() + b"\r")
        saved = first.directory / "sandbox" / "home" / note
        wait_for(lambda: saved.exists() and saved.read_text().strip() == "buy oat milk", 10, "nano to save")
        person.type(b"\x07\x07\x07")
        passed = first.wait_result()

        # r2: the near miss: typed but never saved.
        person.wait_text("task 2 of 2 (attempt 2)")
        person.type(b"\r")
        second = AttemptFiles(out / "attempts/nano/write-note/p01/r2")
        second.wait_ready()
        person.type(b"buy oat milk")
        second.wait_delivered(12)
        person.type(b"\x07\x07\x07")
        failed = second.wait_result()
        assert person.wait_exit() == 0
    finally:
        person.kill()

    assert passed["outcome"] == "passed" and passed["passed"] is True
    assert passed["keys"]["sequence"] == [*"buy oat milk", "ctrl+o", *note, "enter"]
    assert passed["keys"]["class_sequence"] == ["printable", "control", "printable", "control"]
    assert passed["keys"]["ake"] == 12 + 1 + len(note) + 1
    assert passed["repeat"] == 1 and passed["participant"] == "p01" and passed["fingerprints"] == package.tokens

    assert failed["outcome"] == "failed" and failed["passed"] is False and failed["stop_reason"] == "submitted"
    assert failed["repeat"] == 2
    assert failed["assertions"][0]["passed"] is False
    assert "buy oat milk" in (second.directory / "final_screen.txt").read_text()
