"""Prediction-powered inference: a mean from few labelled results plus many predictions.

The use here (after the PULSE document): human results exist for a few tasks (labels ``y`` with the
agent's value on the same tasks as predictions ``f``); the agent alone covers the remaining tasks
(``f_unlabelled``). The estimator corrects the predictions' mean on the unlabelled tasks by the
prediction error measured where humans were observed, with the power-tuning weight ``lambda`` that
minimises the variance (PPI++). Because lambda scales the predictions, they need not share the
label's unit (reasoning tokens can stand in for seconds).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import norm


@dataclass(frozen=True)
class PPIEstimate:
    """The estimate, its Wald CI, the weight used and, for contrast, the labels-only mean and CI."""

    estimate: float
    low: float
    high: float
    lam: float
    se: float
    naive: float
    naive_low: float
    naive_high: float
    n_labelled: int
    n_unlabelled: int

    def as_dict(self) -> dict[str, float | int | None]:
        return {k: (None if isinstance(v, float) and not np.isfinite(v) else v) for k, v in self.__dict__.items()}


def ppi_mean(y: np.ndarray, f: np.ndarray, f_unlabelled: np.ndarray, alpha: float = 0.05,
             lam: float | None = None) -> PPIEstimate:
    """PPI++ mean of ``y`` with a Wald (1 - alpha) CI; ``lam=None`` picks the variance-optimal weight.

    ``lam = 0`` gives the classical labels-only mean; ``lam = 1`` the original PPI estimator.
    """
    y = np.asarray(y, dtype=float)
    f = np.asarray(f, dtype=float)
    fu = np.asarray(f_unlabelled, dtype=float)
    keep = ~np.isnan(y) & ~np.isnan(f)
    y, f, fu = y[keep], f[keep], fu[~np.isnan(fu)]
    n, big_n = y.size, fu.size
    z = float(norm.ppf(1 - alpha / 2))
    nan = float("nan")
    if n < 2:
        return PPIEstimate(nan, nan, nan, nan, nan, nan, nan, nan, n, big_n)
    naive = float(y.mean())
    naive_se = float(y.std(ddof=1) / np.sqrt(n))
    if big_n < 2:
        lam_used = 0.0
    elif lam is None:
        var_f = float(np.var(np.concatenate([f, fu]), ddof=1))
        cov = float(np.cov(y, f, ddof=1)[0, 1])
        lam_used = cov / ((1.0 + n / big_n) * var_f) if var_f > 0 else 0.0
    else:
        lam_used = float(lam)
    if lam_used == 0.0:
        est, se = naive, naive_se
    else:
        est = naive + lam_used * (float(fu.mean()) - float(f.mean()))
        var = np.var(y - lam_used * f, ddof=1) / n + lam_used**2 * np.var(fu, ddof=1) / big_n
        se = float(np.sqrt(var))
    return PPIEstimate(est, est - z * se, est + z * se, lam_used, se, naive,
                       naive - z * naive_se, naive + z * naive_se, n, big_n)
