"""Raw bytes typed into a real pseudo-terminal reach the TUI and the record as the right keys."""

from __future__ import annotations

from pathlib import Path

from person import AttemptFiles, Person

# (bytes the person's terminal sends, key recorded, class); written one at a time, each waited for.
KEYS = [
    (b"a", "a", "printable"),
    (b"B", "B", "printable"),
    (b" ", " ", "printable"),
    (b"\x1b[A", "up", "navigation"),
    (b"\x1bOB", "down", "navigation"),  # application cursor mode spelling
    (b"\x1b[Z", "shift+tab", "navigation"),
    (b"\t", "tab", "navigation"),
    (b"\x1b[1;5D", "ctrl+left", "navigation"),
    (b"\x1bx", "alt+x", "control"),
    (b"\x1b[1;3A", "alt+up", "navigation"),  # modified navigation keys stay navigation
    (b"\x1bOP", "f1", "control"),
    (b"\x1b[15~", "f5", "control"),
    (b"\x7f", "backspace", "deletion"),
    (b"\x1b[3~", "delete", "deletion"),
    (b"\x01", "ctrl+a", "control"),
    (b"\x1b[99~", "unknown:1b5b39397e", "control"),  # a sequence no parser table knows
    (b"\x1b[25~", "unknown:1b5b32357e", "control"),  # F13: parsed, but outside the vocabulary
    (b"\x1b", "escape", "control"),  # alone: an Escape, not the start of an Alt chord
    (b"\xc3\xa9", "\u00e9", "printable"),
    (b"\r", "enter", "control"),
]


def test_keys_classes_timestamps_and_submit(echo_bench, tmp_path: Path) -> None:
    out = tmp_path / "run"
    person = Person(["alpha/one", "--participant", "p07", "--out", str(out), "--benchmark", str(echo_bench.root)],
                    columns=120, rows=40)
    try:
        person.wait_text("Press Enter to start")
        person.type(b"\r")
        attempt = AttemptFiles(out / "attempts/alpha/one/p07/r1")
        attempt.wait_ready()
        for count, (data, _, _) in enumerate(KEYS, start=1):
            person.type(data)
            attempt.wait_delivered(count)
        # A lone Ctrl+G is an ordinary key once another key follows: forwarded, recorded.
        person.type(b"\x07")
        person.type(b"z")
        attempt.wait_delivered(len(KEYS) + 2)
        # Two Ctrl+G and another key: both forwarded, the count starts over.
        person.type(b"\x07\x07q")
        attempt.wait_delivered(len(KEYS) + 5)
        person.type(b"\x07\x07\x07")
        result = attempt.wait_result()
        assert person.wait_exit() == 0
    finally:
        person.kill()

    expected = [name for _, name, _ in KEYS] + ["ctrl+g", "z", "ctrl+g", "ctrl+g", "q"]
    assert result["keys"]["sequence"] == expected
    assert result["keys"]["ake"] == len(expected)  # the submitting Ctrl+Gs are not counted
    assert result["stop_reason"] == "submitted" and result["outcome"] == "passed"
    assert result["agent"] == "p07" and result["participant"] == "p07" and result["agent_kind"] == "human"
    assert result["repeat"] == 1

    actions = attempt.actions()
    events = [key for action in actions for key in action["keys"]]
    assert [e["key_class"] for e in events[:len(KEYS)]] == [cls for _, _, cls in KEYS]
    times = [e["t"] for e in events]
    assert times == sorted(times) and times[0] >= 0
    assert result["interaction_s"] > 0 and times[-1] <= result["interaction_s"]
    assert actions[-1]["action"] == {"action": "submit"} and actions[-1]["keys"] == []
    by_class = result["keys"]["by_class"]
    assert by_class == {c: sum(1 for e in events if e["key_class"] == c) for c in by_class}

    # Unknown keys reached the TUI byte for byte: the tty echoed ESC[99~ as ^[[99~.
    screen = (attempt.directory / "final_screen.txt").read_text()
    assert "^[[99~" in screen and "^[[25~" in screen

    log = attempt.keystrokes()
    assert [e["event"] for e in log if e["event"] in ("submit", "held")].count("submit") == 1
    assert all(e["key"] == "ctrl+g" for e in log if e["event"] == "held")


def test_idle_person_and_exiting_tui_end_the_attempt(bench, tmp_path: Path) -> None:
    """The loop only checks between keys; the actor notices a TUI that exits while nobody types."""
    bench.app("brief", "echo ready; read line; echo bye", ready={"pattern": "ready"})
    bench.task("brief", "quit", assertions=[{"type": "check_screen", "text": "bye"}],
               reference=[{"type": "x"}, {"press": "enter"}])
    out = tmp_path / "run"
    person = Person(["brief/quit", "--participant", "p08", "--out", str(out), "--benchmark", str(bench.root)],
                    columns=100, rows=40)
    try:
        person.wait_text("Press Enter to start")
        person.type(b"\r")
        attempt = AttemptFiles(out / "attempts/brief/quit/p08/r1")
        attempt.wait_ready()
        person.type(b"x\r")
        result = attempt.wait_result()
        assert person.wait_exit() == 0
    finally:
        person.kill()
    assert result["stop_reason"] == "tui_exited"
    assert result["passed"] is True
    assert result["keys"]["sequence"] == ["x", "enter"]
