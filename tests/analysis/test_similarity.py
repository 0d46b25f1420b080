"""Levenshtein and LCS: hand-computed examples and the textbook dynamic programme."""

from __future__ import annotations

import random

import pytest

from tuinaut.analysis.similarity import (
    between_pairs,
    lcs_length,
    lcs_similarity,
    levenshtein,
    levenshtein_similarity,
    within_pairs,
)


def _dp_levenshtein(a: list, b: list) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def _dp_lcs(a: list, b: list) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b, 1):
            cur.append(prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def test_hand_computed_examples() -> None:
    assert levenshtein("kitten", "sitting") == 3
    assert lcs_length("ABCBDAB", "BDCABA") == 4
    keys_a = ["down", "down", "enter", "h", "i", "ctrl+s"]
    keys_b = ["down", "enter", "h", "i", "backspace", "ctrl+s"]
    # delete one "down", insert "backspace": distance 2 over 6 keys; LCS 5 of 6 + 6
    assert levenshtein_similarity(keys_a, keys_b) == pytest.approx(1 - 2 / 6)
    assert lcs_similarity(keys_a, keys_b) == pytest.approx(2 * 5 / 12)
    classes_a = ["navigation", "control", "printable", "control"]
    classes_b = ["navigation", "control", "printable", "deletion", "control"]
    assert levenshtein_similarity(classes_a, classes_b) == pytest.approx(1 - 1 / 5)
    assert lcs_similarity(classes_a, classes_b) == pytest.approx(8 / 9)


def test_edge_cases() -> None:
    assert levenshtein_similarity([], []) == 1.0 and lcs_similarity([], []) == 1.0
    assert levenshtein_similarity(["a"], []) == 0.0 and lcs_similarity(["a"], []) == 0.0
    assert levenshtein(list("abc"), list("abc")) == 0 and lcs_length("abc", "xyz") == 0


def test_bit_parallel_matches_dynamic_programme_on_random_sequences() -> None:
    rng = random.Random(0)
    alphabet = ["up", "down", "enter", "a", "b", "backspace"]
    for _ in range(400):
        a = [rng.choice(alphabet) for _ in range(rng.randint(0, 90))]
        b = [rng.choice(alphabet) for _ in range(rng.randint(0, 90))]
        assert levenshtein(a, b) == _dp_levenshtein(a, b)
        assert lcs_length(a, b) == _dp_lcs(a, b)


def test_pairings_count_every_pair_once() -> None:
    seqs = [["a"], ["a"], ["b"]]
    assert sorted(within_pairs(seqs, "raw_levenshtein")) == [0.0, 0.0, 1.0]
    assert len(between_pairs(seqs, seqs[:2], "class_lcs")) == 6
