"""``tuinaut compare`` and ``tuinaut report`` on fixture run directories written as real results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from analysis_fixtures import result, synthetic_results, write
from click.testing import CliRunner

from tuinaut.analysis.compare import SAME, compare_runs
from tuinaut.analysis.loading import load_run
from tuinaut.cli import cli

FAST = ["--resamples", "400"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("runs")
    return {
        "base": write(root / "base", synthetic_results(0)),
        "same": write(root / "same", synthetic_results(0)),
        "worse": write(root / "worse", synthetic_results(1, cost_shift=15, success_shift=-0.4)),
        "better": write(root / "better", synthetic_results(0, cost_shift=-8)),
    }


def test_identical_inputs_give_no_detectable_change(runs: dict[str, Path]) -> None:
    res = CliRunner().invoke(cli, ["compare", str(runs["base"]), str(runs["same"]), *FAST])
    assert res.exit_code == 0, res.output
    assert "verdict: no detectable change" in res.output
    cmp = compare_runs(load_run(runs["base"]), load_run(runs["same"]), n_resamples=400)
    assert cmp.verdict == SAME and all(c.verdict == SAME and c.difference.estimate == 0 for c in cmp.changes)


def test_regression_exits_1_and_json_names_it(runs: dict[str, Path]) -> None:
    res = CliRunner().invoke(cli, ["compare", str(runs["base"]), str(runs["worse"]), "--json", *FAST])
    assert res.exit_code == 1
    doc = json.loads(res.output)
    assert doc["verdict"] == "worse"
    assert "plain-pro/operation" in doc["regressions"]


def test_improvement_is_not_a_regression(runs: dict[str, Path]) -> None:
    res = CliRunner().invoke(cli, ["compare", str(runs["base"]), str(runs["better"]), "--json", *FAST])
    assert res.exit_code == 0
    doc = json.loads(res.output)
    ops = [c for c in doc["changes"] if c["measure"] == "operation" and c["profile"] != "human"]
    assert doc["verdict"] == "better" and all(c["verdict"] == "better" for c in ops)


def test_report_writes_tables_and_figures(runs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "report"
    res = CliRunner().invoke(cli, ["report", str(runs["base"]), str(runs["worse"]), "--out", str(out), *FAST])
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text()
    for title in ("Table 1.", "Table 2.", "Table 3.", "Table 4.", "Prediction-powered"):
        assert title in md
    assert "| SR | " in md and "W (2 configurations)" in md
    for png in ("success_vs_cost.png", "key_classes.png", "task_costs.png", "correlations.png"):
        assert (out / png).read_bytes()[:4] == b"\x89PNG"
    assert "<table>" in (out / "report.html").read_text()
    data = json.loads((out / "report.json").read_text())
    assert data["left"] == "human" and data["right"] == "plain-pro"


def test_report_edge_cases_all_pass_single_task_infra_and_empty(tmp_path: Path) -> None:
    rs = [result("app", "only", "ref", "reference", 0, passed=True, keys=["enter"])]
    rs += [result("app", "only", "cfg", "llm", r, passed=True, keys=["a", "enter"], reasoning=100) for r in range(2)]
    rs += [result("app", "only", "cfg", "llm", 2, passed=False, keys=[], outcome="infra_error")]
    run = write(tmp_path / "tiny", rs)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["report", str(run), "--out", str(out), *FAST])
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text()
    assert "n/a" in md and "1 infrastructure errors" in md
    solo = write(tmp_path / "solo", [result("app", f"t{i}", "ref", "reference", r, passed=True, keys=["enter"] * i)
                                     for i in range(3) for r in range(2)])
    res = CliRunner().invoke(cli, ["report", str(solo), "--out", str(tmp_path / "o3"), *FAST])
    assert res.exit_code == 0, res.output  # one profile only: pair tables say why they are empty
    assert "needs two profiles" in (tmp_path / "o3" / "report.md").read_text()
    empty = tmp_path / "empty"
    empty.mkdir()
    res = CliRunner().invoke(cli, ["report", str(empty), "--out", str(tmp_path / "o2"), *FAST])
    assert res.exit_code == 0, res.output
    assert "No attempts found." in (tmp_path / "o2" / "report.md").read_text()
    res = CliRunner().invoke(cli, ["compare", str(empty), str(run), *FAST])
    assert res.exit_code == 0 and "nothing to compare" in res.output
