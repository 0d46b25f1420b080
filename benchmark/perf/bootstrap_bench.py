"""Hierarchical bootstrap at the published scale: vectorised numpy against a per-resample loop.

Scale: 84 tasks in 15 apps; 6 groups (humans with 6 participants, 5 agent configurations with
3 runs each); task-level medians; per resample the Table-3 workload: 15 pairwise Spearman rhos
plus 6 profile means. The vectorised run does all 10,000 resamples; the loop (same uniforms,
scipy per resample, see tuinaut.analysis.bootstrap_reference) runs fewer and is scaled linearly
to 10,000, which is fair because its cost per resample is constant. Both are checked to agree on
the resamples they share before anything is timed.

    python benchmark/perf/bootstrap_bench.py [--resamples 10000] [--loop-resamples 300]
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations

import numpy as np

from tuinaut.analysis.bootstrap import Panel, bootstrap, combine, group_means, spearman_pairs
from tuinaut.analysis.bootstrap_reference import bootstrap_loop, loop_spearman_pairs

APPS, TASKS, PARTICIPANTS, RUNS, CONFIGS = 15, 84, 6, 3, 5


def published_scale_panel(seed: int = 0) -> Panel:
    rng = np.random.default_rng(seed)
    apps = [t * APPS // TASKS for t in range(TASKS)]  # 5-6 tasks per app
    demand = rng.lognormal(2.5, 0.6, TASKS)
    humans = [list(demand[t] * rng.lognormal(0, 0.3, PARTICIPANTS)) for t in range(TASKS)]
    agents = [[list(demand[t] * rng.lognormal(0, 0.2, RUNS)) for t in range(TASKS)] for _ in range(CONFIGS)]
    return Panel.build([humans, *agents], apps, "median")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--loop-resamples", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3, help="vectorised timings: best of N")
    args = ap.parse_args()

    panel = published_scale_panel()
    groups = CONFIGS + 1
    pairs = list(combinations(range(groups), 2))
    fast_stat = combine(spearman_pairs(pairs), group_means(list(range(groups))))

    def loop_stat(rows: list[list[float]]) -> list[float]:
        arr = np.asarray(rows)
        return loop_spearman_pairs(pairs)(rows) + [float(np.mean(arr[:, g])) for g in range(groups)]

    # Agreement on the shared resamples (same seed, same uniforms) before timing anything.
    check = min(args.loop_resamples, 50)
    np.testing.assert_allclose(bootstrap(panel, fast_stat, check, seed=1),
                               bootstrap_loop(panel, loop_stat, check, seed=1), atol=1e-12)

    fast_times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        bootstrap(panel, fast_stat, args.resamples, seed=0)
        fast_times.append(time.perf_counter() - t0)
    fast = min(fast_times)

    t0 = time.perf_counter()
    bootstrap_loop(panel, loop_stat, args.loop_resamples, seed=0)
    loop_measured = time.perf_counter() - t0
    loop_scaled = loop_measured * args.resamples / args.loop_resamples

    print(f"scale: {TASKS} tasks, {APPS} apps, {PARTICIPANTS} participants, {RUNS} runs, {CONFIGS} configurations; "
          f"statistic: {len(pairs)} Spearman rhos + {groups} means per resample")
    print(f"vectorised: {args.resamples} resamples in {fast:.3f} s (best of {args.repeats}; "
          f"{1e6 * fast / args.resamples:.1f} us/resample)")
    print(f"loop:       {args.loop_resamples} resamples in {loop_measured:.3f} s -> "
          f"{loop_scaled:.1f} s scaled to {args.resamples} ({1e6 * loop_measured / args.loop_resamples:.0f} us/resample)")
    print(f"speed-up:   {loop_scaled / fast:.0f}x (loop time / vectorised time, same run)")


if __name__ == "__main__":
    main()
