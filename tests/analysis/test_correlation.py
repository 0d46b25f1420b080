"""Rank statistics against scipy and against hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from tuinaut.analysis.correlation import average_ranks, kendall_tau_b, kendall_w, spearman, spearman_masked


def test_average_ranks_match_scipy_with_ties() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(20, 15)).astype(float)
    expected = np.stack([stats.rankdata(row) for row in x])
    assert np.array_equal(average_ranks(x), expected)


@pytest.mark.parametrize("seed", range(5))
def test_spearman_matches_scipy_including_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, 30).astype(float)
    y = x + rng.integers(0, 4, 30)
    assert spearman(x, y) == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)


def test_masked_batch_spearman_matches_scipy_row_by_row() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(50, 25)).round(1)
    y = (x + rng.normal(size=(50, 25))).round(1)
    valid = rng.random((50, 25)) > 0.3
    got = spearman_masked(x, y, valid)
    for b in range(50):
        ref = stats.spearmanr(x[b, valid[b]], y[b, valid[b]]).statistic
        assert got[b] == pytest.approx(ref, abs=1e-12)


def test_spearman_drops_missing_pairs_and_is_nan_when_degenerate() -> None:
    assert spearman([1, 2, np.nan, 4], [1, 2, 3, 4]) == pytest.approx(1.0)
    assert np.isnan(spearman([1, 1, 1], [1, 2, 3]))  # all-pass success vector: constant
    assert np.isnan(spearman([1.0], [2.0]))


@pytest.mark.parametrize("seed", range(4))
def test_kendall_tau_b_matches_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, 25).astype(float)
    y = rng.integers(0, 5, 25).astype(float) + x
    assert kendall_tau_b(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)


def test_kendall_w_perfect_agreement_is_one_and_reversal_zero() -> None:
    scores = np.array([[1, 5, 3, 9], [2, 6, 4, 10], [0.1, 0.5, 0.3, 0.9]])
    assert kendall_w(scores) == pytest.approx(1.0)
    assert kendall_w(np.array([[1, 2, 3, 4], [4, 3, 2, 1]])) == pytest.approx(0.0)


def test_kendall_w_hand_computed_with_ties() -> None:
    # Rank sums 6.5, 6.5, 8, 9 (mean 7.5): S = 4.5; one tie of two in rater 2: T = 6.
    # W = 12 * 4.5 / (3^2 * (4^3 - 4) - 3 * 6) = 54 / 522.
    scores = np.array([[1, 2, 3, 4], [1, 1, 3, 4], [4, 3, 2, 1]], dtype=float)
    assert kendall_w(scores) == pytest.approx(54 / 522)


def test_kendall_w_relates_to_mean_pairwise_spearman_without_ties() -> None:
    rng = np.random.default_rng(11)
    scores = rng.normal(size=(5, 30)) + rng.normal(size=30)
    m = scores.shape[0]
    rhos = [stats.spearmanr(scores[i], scores[j]).statistic for i in range(m) for j in range(i + 1, m)]
    assert kendall_w(scores) == pytest.approx(((m - 1) * np.mean(rhos) + 1) / m)


def test_kendall_w_drops_incomplete_tasks_and_degenerate_is_nan() -> None:
    full = np.array([[1, 2, 3, np.nan], [1, 2, 3, 7]])
    assert kendall_w(full) == pytest.approx(1.0)
    assert np.isnan(kendall_w(np.array([[1.0, 2.0]])))
