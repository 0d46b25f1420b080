"""Trajectory similarity: normalised Levenshtein and LCS on key or class sequences.

Both distances use bit-parallel recurrences over Python integers (Myers/Hyyro for edit distance,
Allison-Dix/Hyyro for LCS): one pass over the second sequence with a handful of big-integer
operations per symbol, instead of a quadratic table. Human trajectories run to hundreds of keys
and a report compares thousands of pairs, so this matters; the tests check both against the
textbook dynamic programme.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations, product


def _match_masks(a: Sequence[Hashable]) -> dict[Hashable, int]:
    """Bit i of masks[s] is set where a[i] == s."""
    masks: dict[Hashable, int] = {}
    for i, sym in enumerate(a):
        masks[sym] = masks.get(sym, 0) | (1 << i)
    return masks


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Edit distance (insert, delete, substitute; each costs 1)."""
    if len(a) < len(b):
        a, b = b, a
    m = len(a)
    if m == 0 or len(b) == 0:
        return m
    peq = _match_masks(a)
    full = (1 << m) - 1
    high = 1 << (m - 1)
    pv, mv, score = full, 0, m
    for sym in b:
        eq = peq.get(sym, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & full) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & high:
            score += 1
        elif mh & high:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of a longest common subsequence."""
    if len(a) < len(b):
        a, b = b, a
    m = len(a)
    if m == 0 or len(b) == 0:
        return 0
    peq = _match_masks(a)
    full = (1 << m) - 1
    v = full
    for sym in b:
        u = v & peq.get(sym, 0)
        v = ((v + u) & full) | (v - u)
    return m - v.bit_count()


def levenshtein_similarity(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """1 - distance / longer length; two empty sequences are identical (1.0)."""
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else 1.0 - levenshtein(a, b) / longest


def lcs_similarity(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """2 * LCS / (|a| + |b|); two empty sequences are identical (1.0)."""
    total = len(a) + len(b)
    return 1.0 if total == 0 else 2.0 * lcs_length(a, b) / total


SIMILARITIES = {
    "raw_levenshtein": ("sequence", levenshtein_similarity),
    "raw_lcs": ("sequence", lcs_similarity),
    "class_levenshtein": ("class_sequence", levenshtein_similarity),
    "class_lcs": ("class_sequence", lcs_similarity),
}
"""The four indicators: (which sequence, which similarity)."""


def within_pairs(seqs: list[Sequence[Hashable]], measure: str) -> list[float]:
    """Similarities of every unordered pair inside one group (H-H or A-A)."""
    _, fn = SIMILARITIES[measure]
    return [fn(x, y) for x, y in combinations(seqs, 2)]


def between_pairs(left: list[Sequence[Hashable]], right: list[Sequence[Hashable]], measure: str) -> list[float]:
    """Similarities of every cross pair between two groups (H-A)."""
    _, fn = SIMILARITIES[measure]
    return [fn(x, y) for x, y in product(left, right)]
