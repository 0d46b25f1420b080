"""A/B comparison of two runs (implementations or configurations) with paired bootstrap CIs.

Both runs are paired by task: only tasks with counted attempts on both sides enter, and the
hierarchical bootstrap resamples apps and tasks jointly for both sides (runs independently). A
measure changed when its 95% CI of (candidate - baseline) excludes zero; it is a regression when
success went down or a cost went up. One regression makes the overall verdict "worse", which the
CLI turns into exit code 1 so the comparison can gate a TUI's CI.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .bootstrap import Interval, Panel, combine, group_means, intervals, paired_differences
from .correlation import kendall_tau_b
from .loading import Attempt
from .measures import COMPARE_MEASURES, MEASURES, app_of, profiles, split_counted, task_level, tasks, unit_values

BETTER, WORSE, SAME, NA = "better", "worse", "no detectable change", "n/a"
GATING = ("success", "interpretation", "operation", "operation_physical")
"""Measures whose detected worsening fails the comparison; the rest are informational."""


@dataclass(frozen=True)
class MeasureChange:
    profile: str
    measure: str
    baseline: float
    candidate: float
    difference: Interval
    verdict: str
    gating: bool
    rank_agreement: float  # Kendall's tau-b of the task-level values, baseline vs candidate

    def as_dict(self) -> dict:
        def clean(v: float) -> float | None:
            return float(v) if np.isfinite(v) else None

        return {"profile": self.profile, "measure": self.measure, "baseline": clean(self.baseline),
                "candidate": clean(self.candidate), "difference": self.difference.as_dict(),
                "verdict": self.verdict, "gating": self.gating, "rank_agreement": clean(self.rank_agreement)}


@dataclass
class Comparison:
    baseline_run: str
    candidate_run: str
    tasks: int
    infra_errors: dict[str, int]
    changes: list[MeasureChange] = field(default_factory=list)
    note: str = ""

    @property
    def regressions(self) -> list[MeasureChange]:
        return [c for c in self.changes if c.gating and c.verdict == WORSE]

    @property
    def verdict(self) -> str:
        if self.regressions:
            return WORSE
        if any(c.verdict == BETTER for c in self.changes if c.gating):
            return BETTER
        return SAME

    def as_dict(self) -> dict:
        return {"baseline": self.baseline_run, "candidate": self.candidate_run, "tasks": self.tasks,
                "infra_errors": self.infra_errors, "verdict": self.verdict, "note": self.note,
                "regressions": [f"{c.profile}/{c.measure}" for c in self.regressions],
                "changes": [c.as_dict() for c in self.changes]}


def _verdict(diff: Interval, higher_is_better: bool) -> str:
    if not np.isfinite(diff.estimate) or not np.isfinite(diff.low):
        return NA
    if not diff.excludes_zero:
        return SAME
    return BETTER if (diff.estimate > 0) == higher_is_better else WORSE


def profile_pairs(baseline: list[Attempt], candidate: list[Attempt]) -> list[tuple[str, str]]:
    """Profiles compared: those both runs share; else, if each run has exactly one, that pair."""
    left, right = profiles(baseline), profiles(candidate)
    shared = [p for p in left if p in right]
    if shared:
        return [(p, p) for p in shared]
    if len(left) == 1 and len(right) == 1:
        return [(left[0], right[0])]
    return []


def compare_runs(baseline: list[Attempt], candidate: list[Attempt], n_resamples: int = 10_000, seed: int = 0,
                 level: float = 0.95, measures: tuple[str, ...] = COMPARE_MEASURES) -> Comparison:
    """Per profile and measure: both profile values and the paired difference with its CI."""
    base_ok, base_infra = split_counted(baseline)
    cand_ok, cand_infra = split_counted(candidate)
    b_name = baseline[0].run if baseline else "baseline"
    c_name = candidate[0].run if candidate else "candidate"
    shared = sorted(set(tasks(base_ok)) & set(tasks(cand_ok)))
    result = Comparison(b_name, c_name, len(shared), {"baseline": len(base_infra), "candidate": len(cand_infra)})
    pairs = profile_pairs(base_ok, cand_ok)
    if not shared or not pairs:
        result.note = "no task or profile in common: nothing to compare"
        return result
    data, aggs, keys = [], [], []
    for bp, cp in pairs:
        for m in measures:
            left = unit_values(base_ok, bp, m, shared)
            right = unit_values(cand_ok, cp, m, shared)
            if not any(left) or not any(right):
                continue  # e.g. reasoning tokens of a scripted actor: not applicable
            data += [left, right]
            aggs += [MEASURES[m].agg] * 2
            keys.append((bp, cp, m))
    if not keys:
        result.note = "no measure has observations on both sides"
        return result
    panel = Panel.build(data, [app_of(t) for t in shared], aggs)
    idx = list(range(len(keys)))
    stat = combine(paired_differences([(2 * i, 2 * i + 1) for i in idx]))
    diffs = intervals(panel, stat, n_resamples, seed, level)
    means = intervals(panel, group_means(list(range(2 * len(keys)))), 0, seed, level)
    for i, (bp, cp, m) in enumerate(keys):
        label = bp if bp == cp else f"{bp} -> {cp}"
        tau = kendall_tau_b(task_level(base_ok, bp, m, shared), task_level(cand_ok, cp, m, shared))
        result.changes.append(MeasureChange(
            label, m, means[2 * i].estimate, means[2 * i + 1].estimate, diffs[i],
            _verdict(diffs[i], MEASURES[m].higher_is_better), m in GATING, tau))
    return result
