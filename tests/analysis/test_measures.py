"""Task-level measures, Pass@k / All-k and loading from real result files."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from analysis_fixtures import result, write

from tuinaut.analysis.loading import class_sequence, load_run
from tuinaut.analysis.measures import (
    all_k,
    composition,
    participant_means,
    pass_at_k,
    profile_value,
    reliability,
    task_level,
    tasks,
    units_by_task,
)


@pytest.mark.parametrize("n,c,k", [(5, 0, 1), (5, 2, 1), (5, 2, 3), (5, 5, 5), (6, 3, 2), (3, 1, 3)])
def test_pass_at_k_and_all_k_match_enumeration_of_subsets(n: int, c: int, k: int) -> None:
    outcomes = [1] * c + [0] * (n - c)
    subsets = list(combinations(outcomes, k))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))
    assert all_k(n, c, k) == pytest.approx(sum(all(s) for s in subsets) / len(subsets))
    assert pass_at_k(n, c, k) == pytest.approx(1 - comb(n - c, k) / comb(n, k))


def test_pass_at_k_undefined_when_fewer_runs_than_k() -> None:
    assert np.isnan(pass_at_k(2, 1, 3)) and np.isnan(all_k(2, 1, 3))


def _run(tmp_path: Path) -> Path:
    rs = [
        # task a/t1: agent passes 2 of 3 runs (one more run lost to infrastructure), AKE 4, 6, 20
        result("a", "t1", "cfg", "llm", 0, passed=True, keys=list("abcd")),
        result("a", "t1", "cfg", "llm", 1, passed=True, keys=list("abcdef")),
        result("a", "t1", "cfg", "llm", 2, passed=False, keys=["down"] * 20),
        result("a", "t1", "cfg", "llm", 3, passed=False, keys=[], outcome="infra_error"),
        # task b/t2: agent 0 of 1
        result("b", "t2", "cfg", "llm", 0, passed=False, keys=["enter"]),
        # humans: P1 twice on a/t1 (only the first attempt counts), P2 once
        result("a", "t1", "human", "human", 0, participant="P1", passed=True, keys=list("ab"), interaction_s=10),
        result("a", "t1", "human", "human", 1, participant="P1", passed=False, keys=list("abc"), interaction_s=99),
        result("a", "t1", "human", "human", 0, participant="P2", passed=False, keys=["left", "backspace"],
               interaction_s=30),
    ]
    return write(tmp_path / "run", rs)


def test_success_is_task_mean_then_mean_over_tasks_excluding_infra(tmp_path: Path) -> None:
    attempts = load_run(_run(tmp_path))
    ids = tasks(attempts)
    sr = task_level(attempts, "cfg", "success", ids)
    assert sr.tolist() == pytest.approx([2 / 3, 0.0])  # the infra error is not a failure
    assert profile_value(sr) == pytest.approx(1 / 3)  # not 2/4 pooled
    assert task_level(attempts, "cfg", "operation", ids).tolist() == [6.0, 1.0]  # medians
    assert len(units_by_task(attempts, "human")["a/t1"]) == 2  # P1's second attempt dropped
    assert task_level(attempts, "human", "interpretation", ids)[0] == pytest.approx(20.0)
    assert participant_means(attempts, "success") == {"P1": 1.0, "P2": 0.0}


def test_interpretation_is_tokens_for_llm_and_undefined_for_scripts(tmp_path: Path) -> None:
    rs = [result("a", "t", "ref", "reference", 0, passed=True, keys=["enter"]),
          result("a", "t", "cfg", "llm", 0, passed=True, keys=["enter"], reasoning=1234)]
    attempts = load_run(write(tmp_path / "r", rs))
    assert np.isnan(task_level(attempts, "ref", "interpretation", ["a/t"])[0])
    assert task_level(attempts, "cfg", "interpretation", ["a/t"])[0] == 1234.0


def test_composition_and_reliability(tmp_path: Path) -> None:
    attempts = load_run(_run(tmp_path))
    comp = composition(attempts, "human")
    assert comp == pytest.approx({"printable": 0.5, "navigation": 0.25, "deletion": 0.25, "control": 0.0})
    rel = reliability(attempts, "cfg", k=1)
    assert rel["pass@1"] == pytest.approx(1 / 3)
    rel3 = reliability(attempts, "cfg", k=3)
    assert rel3["pass@k"] == pytest.approx(1.0)  # only a/t1 has 3 runs; b/t2 is undefined at k=3
    assert rel3["all-k"] == pytest.approx(0.0)
    assert reliability(attempts, "cfg")["k"] == 1.0  # default: the fewest runs of any task


def test_summary_json_fallback_and_class_sequence(tmp_path: Path) -> None:
    run = _run(tmp_path)
    rows = json.loads((run / "summary.json").read_text())
    other = tmp_path / "compact"
    other.mkdir()
    (other / "summary.json").write_text(json.dumps(rows))
    compact = load_run(other)
    assert len(compact) == 8 and sum(a.outcome == "infra_error" for a in compact) == 1
    assert class_sequence(["a", "b", "down", "up", "enter", "c"]) == ("printable", "navigation", "control",
                                                                      "printable")
