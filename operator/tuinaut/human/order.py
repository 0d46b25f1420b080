"""Session order: shuffled with a seed, never two tasks of the same app in a row when avoidable.

Pure functions, no I/O. Attempts are grouped into rounds by repeat number (every first attempt
before any retry) and each round is shuffled; the no-same-app rule also holds across rounds.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def seed_for(participant: str) -> int:
    """The default seed: stable per participant, so a resumed session keeps its order."""
    return int.from_bytes(hashlib.sha256(participant.encode()).digest()[:8], "big")


def _feasible(counts: Counter[str], previous: str | None) -> bool:
    """Can these items still be lined up with no two equal groups adjacent, after ``previous``?"""
    n = sum(counts.values())
    for group, count in counts.items():
        limit = n // 2 if group == previous else (n + 1) // 2
        if count > limit:
            return False
    return True


def spread(items: Sequence[T], group: Callable[[T], str], rng: random.Random, previous: str | None = None) -> list[T]:
    """A random order of ``items`` in which no two neighbours share a group, whenever one exists.

    Each step picks a group at random (weighted by what is left of it) among those whose choice
    still leaves a valid arrangement; when none exists (e.g. one app has most of the tasks), the
    step falls back to any other group, then to any group at all.
    """
    pools: dict[str, list[T]] = defaultdict(list)
    for item in items:
        pools[group(item)].append(item)
    for pool in pools.values():
        rng.shuffle(pool)
    counts = Counter({name: len(pool) for name, pool in pools.items()})
    out: list[T] = []
    while counts:
        names = sorted(counts)
        candidates = [g for g in names if g != previous and _feasible(counts - Counter({g: 1}), g)]
        if not candidates:
            candidates = [g for g in names if g != previous] or names
        chosen = rng.choices(candidates, weights=[counts[g] for g in candidates])[0]
        out.append(pools[chosen].pop())
        counts[chosen] -= 1
        if counts[chosen] == 0:
            del counts[chosen]
        previous = chosen
    return out


def session_order(items: Sequence[T], group: Callable[[T], str], round_of: Callable[[T], int], seed: int) -> list[T]:
    """Rounds in ascending order (first attempts, then retries), each spread by ``group``."""
    rng = random.Random(seed)
    rounds: dict[int, list[T]] = defaultdict(list)
    for item in items:
        rounds[round_of(item)].append(item)
    out: list[T] = []
    for number in sorted(rounds):
        out += spread(rounds[number], group, rng, previous=group(out[-1]) if out else None)
    return out
