"""Rank statistics: Spearman's rho, Kendall's tau-b and Kendall's W.

Everything works on the last axis and takes a ``valid`` mask, so the bootstrap can rank thousands of
resamples at once (each resample has a different set of tasks). Degenerate inputs (fewer than two
valid pairs, or a constant variable) give NaN, which reports print as "n/a".
"""

from __future__ import annotations

import numpy as np

ArrayLike = np.ndarray | list[float]


def average_ranks(x: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """Ranks 1..n along the last axis, ties sharing their mean rank; invalid entries become NaN.

    Invalid entries are sorted past every valid one, so they never shift a valid rank.
    """
    x = np.asarray(x, dtype=float)
    valid = ~np.isnan(x) if valid is None else (np.asarray(valid, dtype=bool) & ~np.isnan(x))
    keyed = np.where(valid, x, np.inf)
    order = np.argsort(keyed, axis=-1, kind="stable")
    ordered = np.take_along_axis(keyed, order, axis=-1)
    n = ordered.shape[-1]
    idx = np.broadcast_to(np.arange(n), ordered.shape)
    change = ordered[..., 1:] != ordered[..., :-1]
    starts = np.concatenate([np.ones(ordered.shape[:-1] + (1,), bool), change], axis=-1)
    ends = np.concatenate([change, np.ones(ordered.shape[:-1] + (1,), bool)], axis=-1)
    first = np.maximum.accumulate(np.where(starts, idx, 0), axis=-1)
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends, idx, n - 1), -1), axis=-1), -1)
    ranks = np.empty_like(ordered)
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=-1)
    return np.where(valid, ranks, np.nan)


def pearson_masked(x: np.ndarray, y: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Pearson correlation along the last axis over entries where ``valid`` holds."""
    with np.errstate(invalid="ignore", divide="ignore"):
        n = valid.sum(axis=-1)
        xs = np.where(valid, x, 0.0)
        ys = np.where(valid, y, 0.0)
        dx = np.where(valid, xs - (xs.sum(axis=-1) / n)[..., None], 0.0)
        dy = np.where(valid, ys - (ys.sum(axis=-1) / n)[..., None], 0.0)
        den = np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))
        r = (dx * dy).sum(axis=-1) / den
    return np.where((n >= 2) & (den > 0), np.clip(r, -1.0, 1.0), np.nan)


def spearman_masked(x: np.ndarray, y: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """Spearman's rho along the last axis over pairs that are valid and present in both."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    both = ~np.isnan(x) & ~np.isnan(y)
    if valid is not None:
        both &= np.asarray(valid, dtype=bool)
    return pearson_masked(average_ranks(x, both), average_ranks(y, both), both)


def spearman(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman's rho of two task-level vectors, pairs with a missing side dropped."""
    return float(spearman_masked(np.asarray(x, float), np.asarray(y, float)))


def kendall_tau_b(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's tau-b (tie-corrected), pairs with a missing side dropped; O(n^2), fine for tasks."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = ~np.isnan(x) & ~np.isnan(y)
    x, y = x[keep], y[keep]
    if x.size < 2:
        return float("nan")
    sx = np.sign(x[:, None] - x[None, :])
    sy = np.sign(y[:, None] - y[None, :])
    upper = np.triu(np.ones_like(sx, dtype=bool), k=1)
    concordance = (sx * sy)[upper].sum()
    pairs_x = np.count_nonzero(sx[upper])
    pairs_y = np.count_nonzero(sy[upper])
    if pairs_x == 0 or pairs_y == 0:
        return float("nan")
    return float(concordance / np.sqrt(float(pairs_x) * float(pairs_y)))


def kendall_w(scores: np.ndarray) -> float:
    """Kendall's coefficient of concordance W with the tie correction.

    ``scores`` is raters x objects (configurations x tasks); tasks missing for any rater are dropped,
    since W needs a complete ranking from every rater. 1 means identical rankings, 0 no agreement.
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2:
        raise ValueError("kendall_w needs a raters x objects matrix")
    scores = scores[:, ~np.isnan(scores).any(axis=0)]
    m, n = scores.shape
    if m < 2 or n < 2:
        return float("nan")
    ranks = average_ranks(scores)
    totals = ranks.sum(axis=0)
    s = float(((totals - totals.mean()) ** 2).sum())
    ties = 0.0
    for row in scores:
        _, counts = np.unique(row, return_counts=True)
        ties += float((counts**3 - counts).sum())
    den = m * m * (n**3 - n) - m * ties
    return float(12.0 * s / den) if den > 0 else float("nan")
