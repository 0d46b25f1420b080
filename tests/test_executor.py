"""The local executor: parallel attempts, summary.json, resume after interruption, retries, CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

from tuinaut.local.executor import attempt_dir, plan_evaluation, run_plan
from tuinaut.record import read_result

SOUND = {"reference": [{"type": "hello"}, {"press": "enter"}],
         "assertions": [{"type": "check_screen", "text": "hello"}]}
CLI = [sys.executable, "-c", "from tuinaut.cli import main; main()"]


def _bench(bench, tasks: int = 3):  # type: ignore[no-untyped-def]
    bench.app("demo", "echo ready; cat")
    for n in range(tasks):
        bench.task("demo", f"t{n}", **SOUND)
    return bench


def test_run_writes_summary_and_attempt_files(bench, tmp_path) -> None:
    _bench(bench, 2)
    path = bench.evaluation(repeats=2, parallelism=2, agents=[{"name": "reference", "kind": "reference"},
                                                              {"name": "noop", "kind": "noop"}])
    plan = plan_evaluation(path, bench.root)
    assert len(plan.attempts) == 2 * 2 * 2
    out = tmp_path / "run"
    outcome = run_plan(plan, out)
    summary = json.loads((out / "summary.json").read_text())
    rows = summary["attempts"]
    assert len(rows) == 8
    assert set(rows[0]) >= {"task", "agent", "repeat", "passed", "stop_reason", "ake", "ake_physical",
                            "ake_by_class", "reasoning_tokens", "turns", "duration_s"}
    by_agent = {(r["agent"], r["passed"]) for r in rows}
    assert by_agent == {("reference", True), ("noop", False)}
    reference = next(r for r in rows if r["agent"] == "reference")
    assert reference["ake"] == 6 and reference["ake_by_class"]["printable"] == 5
    for spec in plan.attempts:
        directory = attempt_dir(out, spec)
        assert {p.name for p in directory.iterdir()} >= {"trajectory.jsonl", "result.json", "final_screen.txt"}
    assert outcome.skipped == 0


def test_rerun_skips_finished_and_redoes_unfinished(bench, tmp_path) -> None:
    _bench(bench, 3)
    plan = plan_evaluation(bench.evaluation(), bench.root)
    out = tmp_path / "run"
    run_plan(plan, out)
    first = {spec.id: read_result(attempt_dir(out, spec)).finished_at for spec in plan.attempts}
    # Simulate a hard kill in the middle of one attempt: its directory has a trajectory, no result.
    killed = attempt_dir(out, plan.attempts[1])
    (killed / "result.json").unlink()
    outcome = run_plan(plan, out)
    assert outcome.skipped == 2
    after = {spec.id: read_result(attempt_dir(out, spec)).finished_at for spec in plan.attempts}
    assert after[plan.attempts[0].id] == first[plan.attempts[0].id]
    assert after[plan.attempts[1].id] != first[plan.attempts[1].id]
    rows = json.loads((out / "summary.json").read_text())["attempts"]
    assert sorted(r["task"] for r in rows) == ["demo/t0", "demo/t1", "demo/t2"]  # nothing lost or doubled


def test_cancel_interrupts_then_resume_completes(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; cat")
    slow = {"reference": [{"wait": 150}] * 20, "assertions": [{"type": "check_screen", "text": "ready"}]}
    for n in range(3):
        bench.task("demo", f"t{n}", **slow)
    plan = plan_evaluation(bench.evaluation(parallelism=1), bench.root)
    out = tmp_path / "run"
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    outcome = run_plan(plan, out, cancel=cancel)
    stops = sorted(r.stop_reason for r in outcome.results)
    assert "interrupted" in stops
    resumed = run_plan(plan, out)
    assert all(r.passed for r in resumed.results) and len(resumed.results) == 3
    rows = json.loads((out / "summary.json").read_text())["attempts"]
    assert len(rows) == 3 and all(r["passed"] for r in rows)


def test_infrastructure_errors_are_retried_and_counted(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; cat")
    bench.task("demo", "fine", **SOUND)
    bench.task("demo", "broken", init="exit 1", **SOUND)
    plan = plan_evaluation(bench.evaluation(limits={"infraRetries": 2}), bench.root)
    out = tmp_path / "run"
    outcome = run_plan(plan, out)
    results = {r.task: r for r in outcome.results}
    assert results["broken"].outcome == "infra_error" and results["broken"].infra_attempts == 3
    assert results["broken"].stop_reason == "init_failed"
    assert results["fine"].outcome == "passed" and results["fine"].infra_attempts == 1
    rows = {r["task"]: r for r in json.loads((out / "summary.json").read_text())["attempts"]}
    assert rows["demo/broken"]["passed"] is False and rows["demo/broken"]["outcome"] == "infra_error"


def test_cli_run_interrupted_by_ctrl_c_then_resumed(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; cat")
    for n in range(4):
        bench.task("demo", f"t{n}", reference=[{"wait": 200}] * 6, assertions=[{"type": "check_screen", "text": "ready"}])
    path = bench.evaluation(parallelism=1)
    out = tmp_path / "run"
    process = subprocess.Popen([*CLI, "run", str(path), "--out", str(out)], stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if "PASS" in line:
            break
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)
    assert process.returncode == 130
    done_before = [d for d in (out / "attempts").rglob("result.json")]
    assert 1 <= len(done_before) <= 4
    second = subprocess.run([*CLI, "run", str(path), "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    rows = json.loads((out / "summary.json").read_text())["attempts"]
    assert sorted(r["task"] for r in rows) == [f"demo/t{n}" for n in range(4)]
    assert all(r["passed"] for r in rows)


def test_cli_reports_missing_bubblewrap_with_install_hint(bench, tmp_path) -> None:
    _bench(bench, 1)
    path = bench.evaluation()
    env = {**os.environ, "PATH": str(tmp_path / "empty")}
    done = subprocess.run([*CLI, "run", str(path), "--out", str(tmp_path / "run")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 2
    assert "'tmux' was not found on PATH. Install it: apt-get install tmux" in done.stderr
    (tmp_path / "bin").mkdir()
    os.symlink("/usr/bin/tmux", tmp_path / "bin" / "tmux")
    env["PATH"] = str(tmp_path / "bin")
    done = subprocess.run([*CLI, "run", str(path), "--out", str(tmp_path / "run")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 2
    assert "'bwrap' was not found on PATH. Install it: apt-get install bubblewrap" in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_reports_bad_evaluation_file(tmp_path) -> None:
    path = tmp_path / "eval.yaml"
    path.write_text("apiVersion: tuinaut.dev/v1alpha1\nkind: Evaluation\nmetadata: {name: x}\nspec: {tasks: [a/b], agents: [], colour: red}\n")
    done = subprocess.run([*CLI, "run", str(path), "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert done.returncode == 2
    assert f"error: {path}: spec.agents:" in done.stderr and "spec.colour: unknown field" in done.stderr


def test_cli_validate_json_flags_unsound_tasks(bench, tmp_path) -> None:
    bench.app("demo", "echo ready; cat")
    bench.task("demo", "sound", **SOUND)
    bench.task("demo", "trivial", reference=[{"press": "enter"}],
               assertions=[{"type": "check_screen", "text": "ready"}])  # the noop actor passes it too
    bench.task("demo", "wrong-reference", reference=[{"type": "bye"}],
               assertions=[{"type": "check_screen", "text": "hello"}])
    done = subprocess.run([*CLI, "validate", "--execute", "--json", str(bench.root)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert (report["apps"], report["tasks"], report["fingerprinted"]) == (1, 3, 0)
    problems = "\n".join(report["problems"])
    assert "demo/trivial: noop: must fail but passed" in problems
    assert "demo/wrong-reference: reference #1: must pass but failed" in problems
    assert "demo/sound" not in problems


def test_missing_api_key_fails_before_any_sandbox(bench, tmp_path, monkeypatch) -> None:
    _bench(bench, 1)
    path = bench.evaluation(agents=[{"name": "gpt", "kind": "llm", "model": "m", "baseURL": "http://127.0.0.1:9/v1",
                                     "apiKeyEnv": "TUINAUT_TEST_MISSING_KEY"}])
    monkeypatch.delenv("TUINAUT_TEST_MISSING_KEY", raising=False)
    from tuinaut.errors import ConfigError

    plan = plan_evaluation(path, bench.root)
    try:
        run_plan(plan, tmp_path / "run")
    except ConfigError as exc:
        assert exc.file == str(path) and "TUINAUT_TEST_MISSING_KEY is not set" in exc.reason
    else:
        raise AssertionError("a missing key must stop the run before it starts")
    assert not (tmp_path / "run" / "attempts").exists()
