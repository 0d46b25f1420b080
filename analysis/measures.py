"""The paper's measures, per task and per profile, computed from flat attempt records.

A *profile* is who sat in the user's seat: all human participants together ("human"), or one agent
configuration (the ``agent`` name of the evaluation). Within a task, humans contribute one
observation per participant (their first counted attempt) and agents one per run. Task-level
values aggregate those units (mean for success, median for costs); profile values are means of
task-level values, so every task weighs the same however many attempts it has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import comb

import numpy as np

from .bootstrap import Panel
from .loading import KEY_CLASSES, Attempt

HUMAN = "human"


@dataclass(frozen=True)
class Measure:
    """One task-level measure: how to read a unit, how to aggregate units, which way is better."""

    name: str
    label: str
    unit: str
    agg: str  # "mean" or "median" within a task
    higher_is_better: bool
    value: Callable[[Attempt], float]


def _interpretation(a: Attempt) -> float:
    """Human time to submit; agent reasoning tokens; undefined for scripted actors."""
    if a.is_human:
        return a.interaction_s
    if a.agent_kind == "llm":
        return float(a.reasoning_tokens)
    return float("nan")


def _class_count(cls: str) -> Callable[[Attempt], float]:
    return lambda a: float(a.by_class.get(cls, 0))


MEASURES: dict[str, Measure] = {
    m.name: m
    for m in [
        Measure("success", "SR", "%", "mean", True, lambda a: 1.0 if a.passed else 0.0),
        Measure("interpretation", "Interpretation (T_H s / L_A tokens)", "s | tokens", "median", False, _interpretation),
        Measure("operation", "Operation (AKE)", "AKE", "median", False, lambda a: float(a.ake)),
        Measure("operation_physical", "Operation, physical rule", "key downs", "median", False,
                lambda a: float(a.ake_physical)),
        *[Measure(c, f"AKE {c}", "AKE", "median", False, _class_count(c)) for c in KEY_CLASSES],
        Measure("non_printable", "AKE non-printable", "AKE", "median", False,
                lambda a: float(sum(v for k, v in a.by_class.items() if k != "printable"))),
        Measure("turns", "Turns", "turns", "median", False, lambda a: float(a.turns)),
    ]
}
PROFILE_MEASURES = ("success", "interpretation", "operation")
COMPARE_MEASURES = ("success", "interpretation", "operation", "operation_physical", "turns")


def profile_of(a: Attempt) -> str:
    return HUMAN if a.is_human else a.agent


def split_counted(attempts: list[Attempt]) -> tuple[list[Attempt], list[Attempt]]:
    """(attempts that count, infrastructure errors): the latter are reported, never scored."""
    return [a for a in attempts if a.counted], [a for a in attempts if not a.counted]


def profiles(attempts: list[Attempt]) -> list[str]:
    """Profiles present: human first, then agents in name order."""
    names = {profile_of(a) for a in attempts}
    return ([HUMAN] if HUMAN in names else []) + sorted(names - {HUMAN})


def tasks(attempts: list[Attempt]) -> list[str]:
    return sorted({a.task_id for a in attempts})


def units_by_task(attempts: list[Attempt], profile: str) -> dict[str, list[Attempt]]:
    """Counted attempts of one profile per task; a human's first counted attempt only."""
    out: dict[str, dict[str, Attempt]] = {}
    for a in attempts:
        if not a.counted or profile_of(a) != profile:
            continue
        per_task = out.setdefault(a.task_id, {})
        key = a.unit
        if key not in per_task or a.repeat < per_task[key].repeat:
            per_task[key] = a
    return {t: [u[k] for k in sorted(u)] for t, u in out.items()}


def unit_values(attempts: list[Attempt], profile: str, measure: str, task_ids: list[str]) -> list[list[float]]:
    """Per task (in ``task_ids`` order) the profile's unit values of a measure; NaN values dropped."""
    by_task = units_by_task(attempts, profile)
    fn = MEASURES[measure].value
    out = []
    for t in task_ids:
        vals = [fn(a) for a in by_task.get(t, [])]
        out.append([v for v in vals if not np.isnan(v)])
    return out


def app_of(task_id: str) -> str:
    return task_id.split("/", 1)[0]


def build_panel(attempts: list[Attempt], groups: list[str], measure: str | list[str],
                task_ids: list[str] | None = None) -> Panel:
    """A bootstrap panel: one group per (profile, measure); measures may differ per group."""
    task_ids = tasks(attempts) if task_ids is None else task_ids
    measures = [measure] * len(groups) if isinstance(measure, str) else list(measure)
    data = [unit_values(attempts, g, m, task_ids) for g, m in zip(groups, measures)]
    return Panel.build(data, [app_of(t) for t in task_ids], [MEASURES[m].agg for m in measures])


def task_level(attempts: list[Attempt], profile: str, measure: str, task_ids: list[str]) -> np.ndarray:
    """Task-level values (NaN where the profile has no counted observation)."""
    agg = np.mean if MEASURES[measure].agg == "mean" else np.median
    return np.array([float(agg(v)) if v else np.nan for v in unit_values(attempts, profile, measure, task_ids)])


def profile_value(task_values: np.ndarray) -> float:
    """Mean over tasks with a value; NaN when there are none."""
    ok = task_values[~np.isnan(task_values)]
    return float(ok.mean()) if ok.size else float("nan")


def participant_means(attempts: list[Attempt], measure: str) -> dict[str, float]:
    """Per human participant, the mean of their first-attempt values (Table 1's P1..Pn columns)."""
    fn = MEASURES[measure].value
    vals: dict[str, list[float]] = {}
    for units in units_by_task(attempts, HUMAN).values():
        for a in units:
            v = fn(a)
            if not np.isnan(v):
                vals.setdefault(a.unit, []).append(v)
    return {p: float(np.mean(v)) for p, v in sorted(vals.items())}


def composition(attempts: list[Attempt], profile: str) -> dict[str, float]:
    """Share of each key class among all counted key events of the profile (sums to 1, or NaN)."""
    totals = dict.fromkeys(KEY_CLASSES, 0)
    for units in units_by_task(attempts, profile).values():
        for a in units:
            for c in KEY_CLASSES:
                totals[c] += a.by_class.get(c, 0)
    n = sum(totals.values())
    return {c: (totals[c] / n if n else float("nan")) for c in KEY_CLASSES}


# ---- reliability over repeated runs (TUA-Bench style) ----

def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased chance that at least one of k runs drawn without replacement from n passes."""
    if k < 1 or n < k:
        return float("nan")
    return 1.0 - comb(n - c, k) / comb(n, k)


def all_k(n: int, c: int, k: int) -> float:
    """Unbiased chance that all k runs drawn without replacement from n pass."""
    if k < 1 or n < k:
        return float("nan")
    return comb(c, k) / comb(n, k)


def reliability(attempts: list[Attempt], profile: str, k: int | None = None) -> dict[str, float]:
    """Pass@1, Pass@k and All-k averaged over tasks; k defaults to the fewest runs any task has."""
    counts = [(len(u), sum(a.passed for a in u)) for u in units_by_task(attempts, profile).values()]
    if not counts:
        return {"k": float("nan"), "pass@1": float("nan"), "pass@k": float("nan"), "all-k": float("nan")}
    k = min(n for n, _ in counts) if k is None else k

    def mean(xs: list[float]) -> float:
        ok = [x for x in xs if not np.isnan(x)]
        return float(np.mean(ok)) if ok else float("nan")

    return {
        "k": float(k),
        "pass@1": mean([pass_at_k(n, c, 1) for n, c in counts]),
        "pass@k": mean([pass_at_k(n, c, k) for n, c in counts]),
        "all-k": mean([all_k(n, c, k) for n, c in counts]),
    }


# ---- trajectory similarity per task ----

PAIRINGS = ("XX", "XY", "YY")
"""Within the left profile, across, within the right profile (H-H, H-A, A-A when left is human)."""


def pair_similarities(attempts: list[Attempt], left: str, right: str, indicator: str,
                      task_ids: list[str]) -> list[list[list[float]]]:
    """``[pairing][task] = pair similarities`` for the three pairing types of two profiles."""
    from .similarity import SIMILARITIES, between_pairs, within_pairs

    field, _ = SIMILARITIES[indicator]
    lt, rt = units_by_task(attempts, left), units_by_task(attempts, right)
    out: list[list[list[float]]] = [[], [], []]
    for t in task_ids:
        ls = [getattr(a, field) for a in lt.get(t, [])]
        rs = [getattr(a, field) for a in rt.get(t, [])]
        out[0].append(within_pairs(ls, indicator))
        out[1].append(between_pairs(ls, rs, indicator))
        out[2].append(within_pairs(rs, indicator))
    return out
