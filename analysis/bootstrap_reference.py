"""The hierarchical bootstrap written as a plain per-resample loop: the oracle for the vectorised one.

It consumes the same uniforms as ``bootstrap.resample_chunks`` (same seed, same chunking), but
walks apps, tasks and units one at a time in Python and hands each resample's task list to an
ordinary per-resample statistic (scipy, ``numpy.median``). Tests require both to agree resample for
resample; the benchmark times both.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats as sps

from .bootstrap import Panel, chunk_sizes, draw_uniforms

# Rows of one resample: one list per drawn task copy, holding each group's task-level value.
LoopStatistic = Callable[[list[list[float]]], list[float]]


def resample_rows(panel: Panel, app_u: np.ndarray, task_u: np.ndarray, unit_u: np.ndarray) -> list[list[float]]:
    """Task-level rows of one resample, built with Python loops from that resample's uniforms."""
    a_n = len(app_u)
    tasks_of: dict[int, list[int]] = {}
    for t, a in enumerate(panel.apps.tolist()):
        tasks_of.setdefault(a, []).append(t)
    rows = []
    for i in range(a_n):
        app_tasks = tasks_of[int(app_u[i] * a_n)]
        k = len(app_tasks)
        for j in range(k):
            t = app_tasks[min(int(task_u[i, j] * k), k - 1)]
            row = []
            for g, agg in enumerate(panel.aggs):
                n = int(panel.counts[g, t])
                units = [panel.values[g, t, int(unit_u[i, j, g, u] * n)] for u in range(n)]
                if not units:
                    row.append(float("nan"))
                else:
                    row.append(float(np.mean(units) if agg == "mean" else np.median(units)))
            rows.append(row)
    return rows


def bootstrap_loop(panel: Panel, statistic: LoopStatistic, n_resamples: int, seed: int = 0) -> np.ndarray:
    """Same contract as ``bootstrap.bootstrap`` but one resample at a time."""
    rng = np.random.default_rng(seed)
    out = []
    for c in chunk_sizes(n_resamples, panel):
        app_u, task_u, unit_u = draw_uniforms(rng, c, panel)
        for b in range(c):
            out.append(statistic(resample_rows(panel, app_u[b], task_u[b], unit_u[b])))
    return np.asarray(out, dtype=float)


def loop_spearman_pairs(pairs: list[tuple[int, int]]) -> LoopStatistic:
    """Per-resample Spearman via scipy on the task rows, pairs with a missing side dropped."""

    def stat(rows: list[list[float]]) -> list[float]:
        arr = np.asarray(rows, dtype=float)
        out = []
        for a, b in pairs:
            keep = ~np.isnan(arr[:, a]) & ~np.isnan(arr[:, b])
            x, y = arr[keep, a], arr[keep, b]
            if x.size < 2 or np.all(x == x[0]) or np.all(y == y[0]):
                out.append(float("nan"))
            else:
                out.append(float(sps.spearmanr(x, y).statistic))
        return out

    return stat


def loop_paired_differences(pairs: list[tuple[int, int]]) -> LoopStatistic:
    """Per-resample mean of (second - first) over tasks present in both groups."""

    def stat(rows: list[list[float]]) -> list[float]:
        out = []
        for a, b in pairs:
            diffs = [r[b] - r[a] for r in rows if not (np.isnan(r[a]) or np.isnan(r[b]))]
            out.append(float(np.mean(diffs)) if diffs else float("nan"))
        return out

    return stat
