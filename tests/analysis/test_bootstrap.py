"""The vectorised hierarchical bootstrap against a plain loop and against planted truths."""

from __future__ import annotations

import numpy as np
import pytest

from tuinaut.analysis import bootstrap as bs
from tuinaut.analysis.bootstrap import (
    Panel,
    aggregate_units,
    bootstrap,
    combine,
    group_means,
    intervals,
    paired_differences,
    spearman_pairs,
    task_intervals,
)
from tuinaut.analysis.bootstrap_reference import bootstrap_loop, loop_paired_differences, loop_spearman_pairs


def _random_panel(seed: int, tasks: int = 14, apps: int = 5, groups: int = 3) -> Panel:
    rng = np.random.default_rng(seed)
    data = [[list(rng.integers(0, 6, size=rng.integers(1, 5)).astype(float)) for _ in range(tasks)]
            for _ in range(groups)]
    data[1][2] = []  # a task one group never completed a counted attempt on
    app_of = sorted(rng.integers(0, apps, size=tasks).tolist())
    return Panel.build(data, app_of, ["mean", "median", "median"][:groups])


@pytest.mark.parametrize("seed", [0, 1])
def test_vectorised_equals_loop_resample_for_resample(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bs, "CHUNK_BUDGET", 5_000)  # several chunks, so chunk boundaries are exercised too
    panel = _random_panel(seed)
    pairs = [(0, 1), (1, 2), (0, 2)]
    fast = bootstrap(panel, combine(spearman_pairs(pairs), paired_differences(pairs)), 400, seed=seed)

    def slow_stat(rows: list[list[float]]) -> list[float]:
        return loop_spearman_pairs(pairs)(rows) + loop_paired_differences(pairs)(rows)

    slow = bootstrap_loop(panel, slow_stat, 400, seed=seed)
    assert len(bs.chunk_sizes(400, panel)) > 1
    assert fast.shape == slow.shape == (400, 6)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)
    assert np.isfinite(fast).all()


def test_resamples_really_vary_and_seed_reproduces() -> None:
    panel = _random_panel(4)
    stat = group_means([0, 1, 2])
    a = bootstrap(panel, stat, 200, seed=9)
    b = bootstrap(panel, stat, 200, seed=9)
    c = bootstrap(panel, stat, 200, seed=10)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert a[:, 0].std() > 0


def test_aggregate_units_matches_numpy_median_and_mean() -> None:
    rng = np.random.default_rng(2)
    units = np.full((40, 6), np.nan)
    n = rng.integers(1, 7, 40)
    for i, k in enumerate(n):
        units[i, :k] = rng.integers(0, 9, k)
    med = aggregate_units(units, n, "median")
    mean = aggregate_units(units, n, "mean")
    for i, k in enumerate(n):
        assert med[i] == np.median(units[i, :k])
        assert mean[i] == pytest.approx(np.mean(units[i, :k]))
    assert np.isnan(aggregate_units(np.full((1, 3), np.nan), np.array([0]), "median"))[0]


def _planted(rho: float, seed: int, tasks: int = 60, apps: int = 12) -> tuple[Panel, float]:
    rng = np.random.default_rng(seed)
    cov = np.array([[1.0, rho], [rho, 1.0]])
    xy = rng.multivariate_normal([0, 0], cov, size=tasks)
    data = [[list(xy[t, g] + rng.normal(0, 0.05, 3)) for t in range(tasks)] for g in range(2)]
    truth = 6 / np.pi * np.arcsin(rho / 2)  # population Spearman of a bivariate normal
    return Panel.build(data, [t % apps for t in range(tasks)], "median"), truth


def test_planted_correlation_recovered_within_ci() -> None:
    panel, truth = _planted(0.8, seed=5)
    (iv,) = intervals(panel, spearman_pairs([(0, 1)]), 2_000, seed=1)
    assert iv.low <= truth <= iv.high
    assert iv.excludes_zero
    null_panel, _ = _planted(0.0, seed=6)
    (null,) = intervals(null_panel, spearman_pairs([(0, 1)]), 2_000, seed=1)
    assert null.low <= 0.0 <= null.high


def test_planted_mean_difference_recovered_and_identical_groups_give_zero() -> None:
    rng = np.random.default_rng(8)
    base = rng.normal(10, 3, 40)
    data = [[list(base[t] + rng.normal(0, 1, 3)) for t in range(40)],
            [list(base[t] + 2.0 + rng.normal(0, 1, 3)) for t in range(40)]]
    panel = Panel.build(data, [t % 8 for t in range(40)], "mean")
    (diff,) = intervals(panel, paired_differences([(0, 1)]), 2_000, seed=3)
    assert diff.low <= 2.0 <= diff.high and diff.excludes_zero
    same = Panel.build([data[0], data[0]], [t % 8 for t in range(40)], "mean")
    (zero,) = intervals(same, paired_differences([(0, 1)]), 2_000, seed=3)
    assert zero.estimate == 0.0 and zero.low <= 0.0 <= zero.high


def test_degenerate_inputs_report_nan_not_crash() -> None:
    all_pass = Panel.build([[[1.0, 1.0]] * 6, [[1.0, 0.0]] * 3 + [[1.0]] * 3], [0, 0, 1, 1, 2, 2], "mean")
    (iv,) = intervals(all_pass, spearman_pairs([(0, 1)]), 300, seed=0)
    assert np.isnan(iv.estimate) and np.isnan(iv.low)
    single = Panel.build([[[3.0, 4.0]], [[5.0]]], ["app"], "median")
    (rho, mean) = intervals(single, combine(spearman_pairs([(0, 1)]), group_means([0])), 300, seed=0)
    assert np.isnan(rho.estimate)
    assert mean.estimate == 3.5
    empty = Panel.build([[], []], [], "mean")
    assert intervals(empty, group_means([0, 1]), 100) == []


def test_task_intervals_bracket_the_task_value() -> None:
    panel = _random_panel(3)
    ti = task_intervals(panel, 500, seed=0)
    est, low, high = ti[:, 0], ti[:, 1], ti[:, 2]
    ok = ~np.isnan(est)
    assert (low[ok] <= est[ok] + 1e-12).all() and (est[ok] <= high[ok] + 1e-12).all()
    assert np.isnan(low[1, 2])  # the empty task stays n/a
