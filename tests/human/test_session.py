"""Sessions: seeded order without same-app neighbours, pausing between tasks, resuming, size warning."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from person import AttemptFiles, Person, read_jsonl

from tuinaut.human.order import seed_for, session_order, spread


def _apps(order: list[tuple[str, str, int]]) -> list[str]:
    return [app for app, _, _ in order]


@pytest.mark.parametrize("seed", range(30))
def test_order_avoids_same_app_in_a_row(seed: int) -> None:
    items = [(app, f"t{i}", r) for app, n in (("nano", 3), ("mc", 3), ("htop", 2), ("tig", 5)) for i in range(n)
             for r in (1, 2)]
    order = session_order(items, group=lambda x: x[0], round_of=lambda x: x[2], seed=seed)
    assert sorted(order) == sorted(items)
    apps = _apps(order)
    assert all(a != b for a, b in itertools.pairwise(apps))
    rounds = [r for _, _, r in order]
    assert rounds == sorted(rounds)  # every first attempt before any retry


def test_order_is_seeded_and_varies() -> None:
    items = [(app, f"t{i}", 1) for app in ("a", "b", "c") for i in range(4)]
    def order(seed: int) -> list:
        return session_order(items, group=lambda x: x[0], round_of=lambda x: x[2], seed=seed)
    assert order(7) == order(7)
    assert len({tuple(order(s)) for s in range(10)}) > 5
    assert seed_for("p01") == seed_for("p01") != seed_for("p02")


def test_order_when_one_app_dominates_keeps_neighbours_to_the_minimum() -> None:
    items = [("big", f"t{i}", 1) for i in range(5)] + [("small", "t0", 1)]
    apps = [g for g, _, _ in spread(items, group=lambda x: x[0], rng=random.Random(3))]
    assert sorted(apps) == sorted(g for g, _, _ in items)
    assert sum(a == b for a, b in itertools.pairwise(apps)) == 3  # 5 big around 1 small: 3 pairs unavoidable


def _do_task(person: Person, attempt: AttemptFiles) -> dict:
    person.type(b"\r")
    attempt.wait_ready()
    person.type(b"k")
    attempt.wait_delivered(1)
    person.type(b"\x07\x07\x07")
    return attempt.wait_result()


def test_stop_between_tasks_and_resume(echo_bench, tmp_path: Path) -> None:
    evaluation = echo_bench.evaluation("study", tasks=["alpha/one", "beta/one"], repeats=1)
    out = tmp_path / "run"
    args = ["--evaluation", str(evaluation), "--participant", "p03", "--out", str(out), "--seed", "11"]
    person = Person(args, columns=100, rows=40)
    try:
        person.wait_text("task 1 of 2")
        session = read_jsonl(out / "sessions/p03/session.jsonl")[0]
        first_id, second_id = session["order"]
        app, task = first_id.split("/")[:2]
        first = _do_task(person, AttemptFiles(out / "attempts" / app / task / "p03" / "r1"))
        person.wait_text("Task 1 recorded")
        person.type(b"q")  # a pause: stop before the second task
        assert person.wait_exit() == 0
    finally:
        person.kill()
    assert first["passed"] is True and first["participant"] == "p03"
    assert "stopped" in person.output.decode(errors="replace")

    person = Person(args, columns=100, rows=40)  # the same command resumes
    try:
        person.wait_text("task 2 of 2")
        app, task = second_id.split("/")[:2]
        second = _do_task(person, AttemptFiles(out / "attempts" / app / task / "p03" / "r1"))
        assert person.wait_exit() == 0
    finally:
        person.kill()
    assert second["passed"] is True
    assert {first_id.split("/")[0], second_id.split("/")[0]} == {"alpha", "beta"}

    events = [e["event"] for e in read_jsonl(out / "sessions/p03/session.jsonl")]
    assert events == ["session", "start", "end", "stopped", "session", "start", "end", "finished"]
    summary = json.loads((out / "summary.json").read_text())
    assert [(row["task"], row["agent"], row["passed"]) for row in summary["attempts"]] == [
        ("alpha/one", "p03", True), ("beta/one", "p03", True)]


def test_terminal_smaller_than_the_pane_is_reported_before_starting(echo_bench, tmp_path: Path) -> None:
    out = tmp_path / "run"
    person = Person(["alpha/two", "--participant", "p04", "--out", str(out), "--benchmark", str(echo_bench.root)],
                    columns=60, rows=20)  # the pane is 80x24
    try:
        person.wait_text("smaller than this task needs")
        person.type(b"q")
        assert person.wait_exit() == 0
    finally:
        person.kill()
    assert not (out / "attempts").exists()
