"""The attempt pipeline's faults: a TUI that crashes, never renders, or has a broken init script."""

from __future__ import annotations

from pathlib import Path

from tuinaut.attempt import AttemptSpec, run_attempt
from tuinaut.catalog import load_catalog
from tuinaut.model import AgentConfig, Limits
from tuinaut.record import read_result, read_trajectory

REFERENCE = AgentConfig(name="reference", kind="reference")
SCREEN_OK = [{"type": "check_screen", "text": "ready"}]


def _run(bench, tmp_path: Path, task: str = "demo/t", limits: Limits | None = None):  # type: ignore[no-untyped-def]
    package = load_catalog(bench.root).tasks[task]
    spec = AttemptSpec(package=package, agent=REFERENCE, repeat=1, limits=limits or Limits())
    return run_attempt(spec, tmp_path / "attempt")


def test_tui_crash_mid_attempt_is_recorded_and_still_verified(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; read line; echo crashed; exit 3")
    bench.task("demo", "t", reference=[{"press": "enter"}, {"type": "never delivered"}, {"press": "enter"}],
               assertions=[{"type": "check_screen", "text": "crashed"},
                           {"type": "check_filesystem", "path": "/tmp", "kind": "dir"}])
    result = _run(bench, tmp_path)
    assert result.stop_reason == "tui_exited"
    assert result.outcome == "passed"  # verification ran on the screen the dead TUI left
    assert result.keys.ake == 1  # the loop stopped at the exit: nothing after it was sent
    events = read_trajectory(tmp_path / "attempt" / "trajectory.jsonl")
    assert any(e["kind"] == "tui_exited" and e["exit_status"] == 3 for e in events)


def test_tui_that_never_renders_is_an_infrastructure_error(bench, tmp_path) -> None:
    bench.app("demo", "sleep 30", ready={"timeoutS": 1})
    bench.task("demo", "t", reference=[{"press": "enter"}], assertions=SCREEN_OK)
    result = _run(bench, tmp_path)
    assert (result.outcome, result.stop_reason) == ("infra_error", "tui_never_rendered")
    assert "no stable non-blank screen" in (result.error or "")
    assert "within 1s" in (result.error or "")
    assert read_result(tmp_path / "attempt") == result


def test_ready_pattern_never_shown(bench, tmp_path) -> None:
    bench.app("demo", "echo loading; sleep 30", ready={"pattern": "Main menu", "timeoutS": 1})
    bench.task("demo", "t", reference=[{"press": "enter"}], assertions=SCREEN_OK)
    result = _run(bench, tmp_path)
    assert result.stop_reason == "tui_never_rendered"
    assert "'Main menu'" in (result.error or "") and "loading" in (result.error or "")


def test_tui_exiting_before_its_first_screen(bench, tmp_path) -> None:
    bench.app("demo", "exit 7")
    bench.task("demo", "t", reference=[{"press": "enter"}], assertions=SCREEN_OK)
    result = _run(bench, tmp_path)
    assert result.stop_reason == "tui_never_rendered"
    assert "status 7" in (result.error or "")


def test_failing_init_script(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; sleep 30")
    bench.task("demo", "t", init="echo broken >&2; exit 4", reference=[{"press": "enter"}], assertions=SCREEN_OK)
    result = _run(bench, tmp_path)
    assert (result.outcome, result.stop_reason) == ("infra_error", "init_failed")
    assert "exited 4" in (result.error or "") and "broken" in (result.error or "")


def test_init_and_fixtures_run_before_the_tui(bench, tmp_path) -> None:
    bench.app("demo", "cat data/seed.txt; echo; cat made-by-init; sleep 30")
    bench.task("demo", "t", init="echo from-init > made-by-init", fixtures=[
        {"path": "data/seed.txt", "content": "from-fixture"}, {"path": "empty-dir/"}],
        reference=[{"wait": 10}], assertions=[
            {"type": "check_screen", "text": "from-fixture"}, {"type": "check_screen", "text": "from-init"},
            {"type": "check_filesystem", "path": "empty-dir", "kind": "dir"}])
    assert _run(bench, tmp_path).outcome == "passed"


def test_max_turns_stops_the_actor(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; cat")
    bench.task("demo", "t", reference=[{"type": "a"}] * 5, assertions=SCREEN_OK)
    result = _run(bench, tmp_path, limits=Limits(max_turns=3))
    assert (result.stop_reason, result.turns, result.keys.ake) == ("max_turns", 3, 3)


def test_trajectory_records_each_step(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; cat")
    bench.task("demo", "t", reference=[{"type": "ab"}, {"press": "enter"}], assertions=SCREEN_OK)
    _run(bench, tmp_path)
    events = read_trajectory(tmp_path / "attempt" / "trajectory.jsonl")
    kinds = [e["kind"] for e in events]
    assert kinds == ["header", "observation", "action", "observation", "action", "observation", "action", "stop"]
    type_event = events[2]
    assert [k["key"] for k in type_event["keys"]] == ["a", "b"]
    times = [e["t"] for e in events[1:]]
    assert times == sorted(times)
    assert "ab" in events[5]["screen"]  # the screen after the actions shows what was typed
    assert (tmp_path / "attempt" / "final_screen.txt").read_text().startswith("ready\nab")
