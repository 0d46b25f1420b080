"""Prediction-powered inference on synthetic data with a known mean."""

from __future__ import annotations

import numpy as np
import pytest

from tuinaut.analysis.ppi import ppi_mean


def _draw(rng: np.random.Generator, n: int, big_n: int, bias: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    def pop(size: int) -> tuple[np.ndarray, np.ndarray]:
        f = rng.normal(5.0, 2.0, size)  # the agent's value on a task
        y = 0.8 * f + bias + rng.normal(0, 0.7, size)  # the human value: related, shifted, noisy
        return y, f

    y, f = pop(n)
    _, fu = pop(big_n)
    return y, f, fu


def test_ppi_covers_the_truth_and_beats_labels_only() -> None:
    rng = np.random.default_rng(0)
    truth = 0.8 * 5.0 + 1.5
    covered, naive_width, ppi_width = 0, [], []
    reps = 400
    for _ in range(reps):
        est = ppi_mean(*_draw(rng, 20, 200, bias=1.5))
        covered += est.low <= truth <= est.high
        ppi_width.append(est.high - est.low)
        naive_width.append(est.naive_high - est.naive_low)
    assert 0.90 <= covered / reps <= 0.985
    assert np.mean(ppi_width) < 0.7 * np.mean(naive_width)  # informative predictions shrink the CI


def test_lambda_zero_is_the_labels_only_mean_and_lambda_one_classic_ppi() -> None:
    rng = np.random.default_rng(1)
    y, f, fu = _draw(rng, 15, 60, bias=0.0)
    zero = ppi_mean(y, f, fu, lam=0.0)
    assert zero.estimate == pytest.approx(y.mean()) and zero.estimate == zero.naive
    one = ppi_mean(y, f, fu, lam=1.0)
    assert one.estimate == pytest.approx(y.mean() + fu.mean() - f.mean())


def test_uninformative_or_missing_predictions_fall_back_gracefully() -> None:
    y = np.array([1.0, 2.0, 3.0])
    est = ppi_mean(y, np.array([4.0, 4.0, 4.0]), np.array([4.0, 4.0]))
    assert est.lam == 0.0 and est.estimate == pytest.approx(2.0)
    none = ppi_mean(y, y, np.array([]))
    assert none.n_unlabelled == 0 and none.estimate == pytest.approx(2.0)
    assert np.isnan(ppi_mean(np.array([1.0]), np.array([1.0]), np.array([1.0, 2.0])).estimate)
