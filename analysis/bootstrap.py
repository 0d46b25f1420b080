"""Hierarchical bootstrap over apps, then tasks, then participants/runs, vectorised with numpy.

A ``Panel`` holds unit-level observations ``values[g, t, u]`` for G groups (profiles or
configurations), T tasks and up to U units (participants for humans, runs for agents). One resample:

1. draw A apps with replacement from the A apps;
2. for each drawn app with k tasks, draw k of its tasks with replacement;
3. for each drawn task and each group, draw that group's n units of the task with replacement,
   independently per drawn copy, and aggregate them to a task-level value (mean or median).

All groups share steps 1-2, so between-group statistics (correlations, paired differences) are
paired by task. Resamples are processed in chunks: every random number a chunk needs is drawn up
front by ``draw_uniforms`` with fixed shapes (slots past an app's task count or a task's unit count
are masked), which is what lets the plain reference loop reproduce the same resamples exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .correlation import spearman_masked

# A statistic maps task-level values (C resamples, S task slots, G groups) and a slot mask (C, S)
# to (C, m) numbers; the same function gives the point estimate on the original tasks (C = 1).
Statistic = Callable[[np.ndarray, np.ndarray], np.ndarray]

CHUNK_BUDGET = 3_000_000  # uniforms per chunk: keeps memory near 100 MB at the published scale


@dataclass(frozen=True)
class Panel:
    """Unit-level observations of G groups on T tasks grouped into apps."""

    values: np.ndarray  # (G, T, U) float, NaN past counts[g, t]
    counts: np.ndarray  # (G, T) int: units per group and task (0 = no data)
    apps: np.ndarray  # (T,) int app index per task, 0..A-1
    aggs: tuple[str, ...]  # per group: "mean" or "median" within a task

    @classmethod
    def build(cls, data: list[list[list[float]]], apps: list[int] | np.ndarray, aggs: str | list[str]) -> Panel:
        """From nested lists ``data[g][t] = unit values``; ``aggs`` one name or one per group."""
        g_n, t_n = len(data), len(apps)
        if any(len(row) != t_n for row in data):
            raise ValueError("every group needs one (possibly empty) unit list per task")
        u_n = max([1] + [len(units) for row in data for units in row])
        values = np.full((g_n, t_n, u_n), np.nan)
        counts = np.zeros((g_n, t_n), dtype=np.int64)
        for g, row in enumerate(data):
            for t, units in enumerate(row):
                units = [float(v) for v in units if not np.isnan(v)]
                values[g, t, : len(units)] = units
                counts[g, t] = len(units)
        _, app_index = np.unique(np.asarray(apps), return_inverse=True)
        agg_list = (aggs,) * g_n if isinstance(aggs, str) else tuple(aggs)
        if len(agg_list) != g_n or not set(agg_list) <= {"mean", "median"}:
            raise ValueError("aggs must be 'mean' or 'median', one per group")
        return cls(values, counts, app_index.astype(np.int64), agg_list)

    @property
    def shape(self) -> tuple[int, int, int, int, int]:
        """(A apps, K max tasks per app, T tasks, G groups, U max units)."""
        per_app = np.bincount(self.apps) if self.apps.size else np.zeros(0, np.int64)
        return (per_app.size, int(per_app.max(initial=0)), self.apps.size, self.values.shape[0], self.values.shape[2])

    def app_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Tasks of each app padded to K (``table[a, j]``) and the task count per app."""
        a_n, k_n, *_ = self.shape
        table = np.zeros((a_n, max(k_n, 1)), dtype=np.int64)
        sizes = np.zeros(a_n, dtype=np.int64)
        for t, a in enumerate(self.apps):
            table[a, sizes[a]] = t
            sizes[a] += 1
        return table, sizes


def aggregate_units(units: np.ndarray, n: np.ndarray, agg: str) -> np.ndarray:
    """Mean or median over the last axis of the first ``n`` entries (NaN where n = 0)."""
    n = np.broadcast_to(n, units.shape[:-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        if agg == "mean":
            return np.where(n > 0, np.nansum(units, axis=-1) / n, np.nan)
        ordered = np.sort(units, axis=-1)  # NaN padding sorts last
        lo = np.take_along_axis(ordered, np.maximum((n - 1) // 2, 0)[..., None], axis=-1)[..., 0]
        hi = np.take_along_axis(ordered, np.maximum(n // 2, 0)[..., None], axis=-1)[..., 0]
        return np.where(n > 0, (lo + hi) / 2.0, np.nan)


def task_values(panel: Panel) -> np.ndarray:
    """Task-level values on the original data, shape (G, T)."""
    return np.stack(
        [aggregate_units(panel.values[g], panel.counts[g], panel.aggs[g]) for g in range(panel.values.shape[0])]
    )


def point_estimate(panel: Panel, statistic: Statistic) -> np.ndarray:
    """The statistic on the original tasks, shape (m,)."""
    tv = task_values(panel).T[None]  # (1, T, G)
    return np.asarray(statistic(tv, np.ones(tv.shape[:2], dtype=bool)))[0]


def chunk_sizes(n_resamples: int, panel: Panel) -> list[int]:
    """How many resamples each chunk holds; a function of the panel shape only (so reproducible)."""
    a_n, k_n, _, g_n, u_n = panel.shape
    per = max(1, CHUNK_BUDGET // max(1, a_n * max(k_n, 1) * (1 + g_n * u_n)))
    return [min(per, n_resamples - start) for start in range(0, n_resamples, per)]


def draw_uniforms(rng: np.random.Generator, c: int, panel: Panel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every uniform one chunk of ``c`` resamples consumes: apps (c, A), tasks (c, A, K), units (c, A, K, G, U)."""
    a_n, k_n, _, g_n, u_n = panel.shape
    return rng.random((c, a_n)), rng.random((c, a_n, k_n)), rng.random((c, a_n, k_n, g_n, u_n))


def resample_chunks(panel: Panel, n_resamples: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (task-level values (C, S, G), slot mask (C, S)) chunk by chunk."""
    a_n, k_n, t_n, g_n, u_n = panel.shape
    if n_resamples <= 0 or t_n == 0:
        return
    rng = np.random.default_rng(seed)
    table, sizes = panel.app_table()
    g_idx = np.arange(g_n)[:, None]  # broadcasts against the trailing (G, U) axes
    for c in chunk_sizes(n_resamples, panel):
        app_u, task_u, unit_u = draw_uniforms(rng, c, panel)
        app = (app_u * a_n).astype(np.int64)  # (c, A)
        k = sizes[app]  # (c, A)
        slot_ok = np.arange(k_n) < k[..., None]  # (c, A, K)
        local = np.minimum((task_u * k[..., None]).astype(np.int64), np.maximum(k[..., None] - 1, 0))
        task = table[app[..., None], local]  # (c, A, K)
        n = panel.counts.T[task]  # (c, A, K, G)
        unit = (unit_u * n[..., None]).astype(np.int64)  # (c, A, K, G, U)
        unit_ok = np.arange(u_n) < n[..., None]
        picked = panel.values[g_idx, task[..., None, None], np.minimum(unit, u_n - 1)]  # (c, A, K, G, U)
        picked = np.where(unit_ok, picked, np.nan)
        tv = np.empty((c, a_n, k_n, g_n))
        for g in range(g_n):
            tv[..., g] = aggregate_units(picked[..., g, :], n[..., g], panel.aggs[g])
        yield tv.reshape(c, a_n * k_n, g_n), slot_ok.reshape(c, a_n * k_n)


def bootstrap(panel: Panel, statistic: Statistic, n_resamples: int = 10_000, seed: int = 0) -> np.ndarray:
    """The statistic on every resample, shape (n_resamples, m)."""
    parts = [np.asarray(statistic(tv, mask)) for tv, mask in resample_chunks(panel, n_resamples, seed)]
    if not parts:
        probe = point_estimate(panel, statistic) if panel.apps.size else np.zeros(0)
        return np.full((0, probe.size), np.nan)
    return np.concatenate(parts, axis=0)


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile CI; NaN anywhere means "n/a"."""

    estimate: float
    low: float
    high: float
    defined: float = 1.0  # share of resamples where the statistic was defined

    @property
    def excludes_zero(self) -> bool:
        return bool(np.isfinite(self.low) and np.isfinite(self.high) and (self.low > 0 or self.high < 0))

    def as_dict(self) -> dict[str, float | None]:
        def clean(v: float) -> float | None:
            return None if not np.isfinite(v) else float(v)

        return {"estimate": clean(self.estimate), "low": clean(self.low), "high": clean(self.high),
                "defined": float(self.defined)}


MIN_DEFINED = 0.5  # below this share of defined resamples the interval is not reported


def percentile_intervals(estimates: np.ndarray, samples: np.ndarray, level: float = 0.95) -> list[Interval]:
    """Percentile CIs per column over the resamples where the statistic is defined.

    A statistic can be undefined on a resample that happens to draw only constant tasks; such
    resamples are dropped, and if more than half are undefined the interval is reported as n/a.
    """
    out = []
    tail = (1.0 - level) / 2.0 * 100.0
    for j, est in enumerate(np.atleast_1d(estimates)):
        col = samples[:, j] if samples.size else np.zeros(0)
        ok = col[np.isfinite(col)]
        share = ok.size / col.size if col.size else 0.0
        if not np.isfinite(est) or share < MIN_DEFINED or ok.size == 0:
            out.append(Interval(float(est), float("nan"), float("nan"), share))
            continue
        low, high = np.percentile(ok, [tail, 100.0 - tail])
        out.append(Interval(float(est), float(low), float(high), share))
    return out


def intervals(panel: Panel, statistic: Statistic, n_resamples: int = 10_000, seed: int = 0,
              level: float = 0.95) -> list[Interval]:
    """Point estimates and percentile CIs of every component of ``statistic``."""
    if panel.apps.size == 0:
        return []
    est = point_estimate(panel, statistic)
    return percentile_intervals(est, bootstrap(panel, statistic, n_resamples, seed), level)


# ---- statistics (vectorised over resamples) ----

def spearman_pairs(pairs: list[tuple[int, int]]) -> Statistic:
    """Spearman's rho between the task-level values of each group pair."""

    def stat(tv: np.ndarray, mask: np.ndarray) -> np.ndarray:
        cols = [spearman_masked(tv[..., a], tv[..., b], mask) for a, b in pairs]
        return np.stack(cols, axis=-1) if cols else np.zeros(tv.shape[:-2] + (0,))

    return stat


def group_means(groups: list[int]) -> Statistic:
    """Mean over tasks of each group's task-level values (the profile value)."""

    def stat(tv: np.ndarray, mask: np.ndarray) -> np.ndarray:
        cols = []
        for g in groups:
            ok = mask & ~np.isnan(tv[..., g])
            with np.errstate(invalid="ignore", divide="ignore"):
                cols.append(np.where(ok, tv[..., g], 0.0).sum(-1) / ok.sum(-1))
        return np.stack(cols, axis=-1) if cols else np.zeros(tv.shape[:-2] + (0,))

    return stat


def paired_differences(pairs: list[tuple[int, int]]) -> Statistic:
    """Mean over tasks present in both groups of (second - first) task-level values."""

    def stat(tv: np.ndarray, mask: np.ndarray) -> np.ndarray:
        cols = []
        for a, b in pairs:
            diff = tv[..., b] - tv[..., a]
            ok = mask & ~np.isnan(diff)
            with np.errstate(invalid="ignore", divide="ignore"):
                cols.append(np.where(ok, diff, 0.0).sum(-1) / ok.sum(-1))
        return np.stack(cols, axis=-1) if cols else np.zeros(tv.shape[:-2] + (0,))

    return stat


def combine(*stats: Statistic) -> Statistic:
    """Several statistics side by side, so one pass over the resamples serves a whole table."""

    def stat(tv: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.concatenate([s(tv, mask) for s in stats], axis=-1)

    return stat


def task_intervals(panel: Panel, n_resamples: int = 2_000, seed: int = 0, level: float = 0.95) -> np.ndarray:
    """Per-task CIs of each group's task-level value, resampling units only: (G, 3, T) estimate/low/high.

    For the per-task cost plot: with three runs this interval is crude, and it says so by its width.
    """
    g_n, t_n, u_n = panel.values.shape
    est = task_values(panel)
    out = np.full((g_n, 3, t_n), np.nan)
    out[:, 0] = est
    if t_n == 0 or n_resamples <= 0:
        return out
    rng = np.random.default_rng(seed)
    per = max(1, CHUNK_BUDGET // max(1, g_n * t_n * u_n))
    draws = []
    for start in range(0, n_resamples, per):
        c = min(per, n_resamples - start)
        u = rng.random((c, g_n, t_n, u_n))
        idx = np.minimum((u * panel.counts[..., None]).astype(np.int64), u_n - 1)
        picked = np.take_along_axis(np.broadcast_to(panel.values, (c, g_n, t_n, u_n)), idx, axis=-1)
        picked = np.where(np.arange(u_n) < panel.counts[..., None], picked, np.nan)
        draws.append(np.stack([aggregate_units(picked[:, g], panel.counts[g], panel.aggs[g]) for g in range(g_n)], 1))
    samples = np.concatenate(draws)  # (B, G, T)
    tail = (1.0 - level) / 2.0 * 100.0
    with np.errstate(invalid="ignore"):
        bounds = np.nanpercentile(np.where(np.isnan(est)[None], 0.0, samples), [tail, 100 - tail], axis=0)
    out[:, 1:] = np.where(np.isnan(est)[:, None, :], np.nan, bounds.transpose(1, 0, 2))
    return out
