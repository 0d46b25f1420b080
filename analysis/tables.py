"""The report's tables, shaped like the published Tables 1-4, computed from attempt records.

Table 1 sets a left profile (humans when present, else the reference script) against one agent
configuration; Table 2 compares trajectories of the same two; Table 3 lists every profile with
Kendall's W across agent configurations; Table 4 compares further runs (implementations) against
the first. Each table runs one hierarchical bootstrap pass for all its intervals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .bootstrap import Panel, combine, group_means, intervals, paired_differences, spearman_pairs
from .compare import BETTER, WORSE, compare_runs
from .correlation import kendall_w
from .formatting import NA, Cell, Table, interval, num
from .loading import Attempt
from .measures import (
    HUMAN,
    MEASURES,
    PAIRINGS,
    PROFILE_MEASURES,
    app_of,
    build_panel,
    pair_similarities,
    participant_means,
    profile_of,
    profiles,
    reliability,
    task_level,
    tasks,
)
from .ppi import ppi_mean
from .similarity import SIMILARITIES


@dataclass(frozen=True)
class Settings:
    """What the report computes; the defaults reproduce the published analysis."""

    n_resamples: int = 10_000
    seed: int = 0
    level: float = 0.95
    agent: str | None = None  # the configuration set against the left profile in Tables 1-2
    k: int | None = None  # Pass@k / All-k; default: the fewest runs any task has


@dataclass
class Context:
    """Attempts of the first run and the two profiles of Tables 1-2."""

    attempts: list[Attempt]
    task_ids: list[str]
    left: str | None
    right: str | None
    extras: dict = field(default_factory=dict)


TABLE1_ROWS = ("success", "interpretation", "operation", "operation_physical",
               "printable", "navigation", "deletion", "control", "non_printable")


def choose_pair(attempts: list[Attempt], agent: str | None) -> tuple[str | None, str | None]:
    """Left: humans, else the reference script; right: the named agent, else the first LLM."""
    names = profiles(attempts)
    kinds = {profile_of(a): a.agent_kind for a in attempts}
    left = HUMAN if HUMAN in names else next((p for p in names if kinds[p] == "reference"), None)
    if agent is not None:
        right = agent if agent in names else None
    else:
        others = [p for p in names if p != left]
        right = next((p for p in others if kinds[p] == "llm"), others[0] if others else None)
    if left is None and right is not None:
        rest = [p for p in names if p != right]
        left = rest[0] if rest else None
    return left, right


def _fmt_measure(measure: str, v: float, profile: str, kinds: dict[str, str]) -> str:
    if measure == "success":
        return num(v, 2, 100.0)
    if measure == "interpretation":
        return num(v, 1, 1.0, " s") if kinds.get(profile) == "human" else num(v, 2, 1e-3, "k tok")
    return num(v, 2)


def table1(ctx: Context, s: Settings) -> Table:
    kinds = {profile_of(a): a.agent_kind for a in ctx.attempts}
    left, right = ctx.left, ctx.right
    parts = sorted({p for m in TABLE1_ROWS for p in participant_means(ctx.attempts, m)}) if left == HUMAN else []
    t = Table("table1", f"Table 1. {left or 'left'} vs {right or 'agent'} profiles across {len(ctx.task_ids)} tasks",
              "Participant columns are participant-level means. Profile means average task-level values (mean "
              "within task for SR, median for costs). rho: Spearman between task-level values with a 95% "
              "hierarchical-bootstrap CI; bold when the CI excludes zero. SR in %, interpretation in seconds "
              "(humans) or thousands of reasoning tokens (agents), operation in AKE.",
              ["measure", *parts, f"{left} mean", f"{right} mean", "rho [95% CI]"])
    if left is None or right is None:
        t.note = "needs two profiles (humans or a reference script, and an agent configuration)"
        return t
    panel = build_panel(ctx.attempts, [g for _ in TABLE1_ROWS for g in (left, right)],
                        [m for m in TABLE1_ROWS for _ in (0, 1)], ctx.task_ids)
    n = len(TABLE1_ROWS)
    stat = combine(spearman_pairs([(2 * i, 2 * i + 1) for i in range(n)]), group_means(list(range(2 * n))))
    ivs = intervals(panel, stat, s.n_resamples, s.seed, s.level)
    for i, m in enumerate(TABLE1_ROWS):
        pm = participant_means(ctx.attempts, m) if parts else {}
        row = [Cell(MEASURES[m].label)] + [Cell(_fmt_measure(m, pm.get(p, np.nan), HUMAN, kinds)) for p in parts]
        row += [Cell(_fmt_measure(m, ivs[n + 2 * i].estimate, left, kinds)),
                Cell(_fmt_measure(m, ivs[n + 2 * i + 1].estimate, right, kinds)), interval(ivs[i])]
        t.rows.append(row)
    ctx.extras["table1"] = {m: {"left_mean": ivs[n + 2 * i].as_dict(), "right_mean": ivs[n + 2 * i + 1].as_dict(),
                                "rho": ivs[i].as_dict()} for i, m in enumerate(TABLE1_ROWS)}
    return t


def table2(ctx: Context, s: Settings) -> Table:
    left, right = ctx.left or "left", ctx.right or "agent"
    a, b = left[:1].upper(), right[:1].upper()
    if a == b:
        b = f"{b}'"
    names = [f"{a}-{a}", f"{a}-{b}", f"{b}-{b}"]
    t = Table("table2", f"Table 2. Trajectory similarity across {len(ctx.task_ids)} tasks",
              f"{names[0]}, {names[1]}, {names[2]}: {left} with {left}, {left} with {right}, {right} with {right}. "
              "Values are means over tasks of task-level median pair similarities x100. rho_X,Y: Spearman between "
              "task-level similarities of two pairing types. The last column is the mean task-level difference "
              f"{names[1]} minus {names[0]} (x100).",
              ["indicator", *names, f"rho {names[0]},{names[1]}", f"rho {names[0]},{names[2]}",
               f"rho {names[1]},{names[2]}", f"{names[1]} - {names[0]}"])
    if ctx.left is None or ctx.right is None:
        t.note = "needs two profiles"
        return t
    data: list[list[list[float]]] = []
    for ind in SIMILARITIES:
        data += pair_similarities(ctx.attempts, left, right, ind, ctx.task_ids)
    panel = Panel.build(data, [app_of(x) for x in ctx.task_ids], "median")
    k = len(SIMILARITIES)
    rho_pairs = [(3 * i + x, 3 * i + y) for i in range(k) for x, y in ((0, 1), (0, 2), (1, 2))]
    stat = combine(group_means(list(range(3 * k))), spearman_pairs(rho_pairs),
                   paired_differences([(3 * i, 3 * i + 1) for i in range(k)]))
    ivs = intervals(panel, stat, s.n_resamples, s.seed, s.level)
    extras = {}
    for i, ind in enumerate(SIMILARITIES):
        means = ivs[3 * i: 3 * i + 3]
        rhos = ivs[3 * k + 3 * i: 3 * k + 3 * i + 3]
        diff = ivs[6 * k + i]
        t.rows.append([Cell(ind.replace("_", " ")), *[Cell(num(m.estimate, 2, 100.0)) for m in means],
                       *[interval(r) for r in rhos], interval(diff, 2, 100.0)])
        extras[ind] = {"means": dict(zip(PAIRINGS, [m.as_dict() for m in means])),
                       "rho": [r.as_dict() for r in rhos], "difference_XY_minus_XX": diff.as_dict()}
    ctx.extras["table2"] = extras
    return t


def table3(ctx: Context, s: Settings) -> Table:
    kinds = {profile_of(a): a.agent_kind for a in ctx.attempts}
    names = profiles(ctx.attempts)
    rel = {p: reliability(ctx.attempts, p, s.k) for p in names}
    k_shown = {int(r["k"]) for r in rel.values() if np.isfinite(r["k"])}
    k_label = str(k_shown.pop()) if len(k_shown) == 1 else "k"
    t = Table("table3", f"Table 3. Profiles across {len(ctx.task_ids)} tasks",
              "Cells are means of task-level values with 95% hierarchical-bootstrap CIs (SR in %, costs as task "
              "medians). Pass@1 / Pass@k / All-k use the unbiased estimators over repeated runs. W: Kendall's "
              "concordance (tie-corrected) of task rankings among the agent configurations.",
              ["profile", "SR", "interpretation", "operation", "Pass@1", f"Pass@{k_label}", f"All-{k_label}"])
    if not names:
        t.note = "no counted attempts"
        return t
    groups = [(p, m) for m in PROFILE_MEASURES for p in names]
    panel = build_panel(ctx.attempts, [g for g, _ in groups], [m for _, m in groups], ctx.task_ids)
    g_n = len(names)
    pairs = [(mi * g_n + i, mi * g_n + j) for mi in range(len(PROFILE_MEASURES)) for i, j in combinations(range(g_n), 2)]
    stat = combine(group_means(list(range(len(groups)))), spearman_pairs(pairs))
    ivs = intervals(panel, stat, s.n_resamples, s.seed, s.level)
    for i, p in enumerate(names):
        cells = [Cell(p)]
        for mi, m in enumerate(PROFILE_MEASURES):
            iv = ivs[mi * g_n + i]
            text = _fmt_measure(m, iv.estimate, p, kinds)
            if np.isfinite(iv.low):
                text += f" [{_fmt_measure(m, iv.low, p, kinds)}, {_fmt_measure(m, iv.high, p, kinds)}]"
            cells.append(Cell(text))
        r = rel[p]
        cells += [Cell(num(r["pass@1"], 2, 100.0)), Cell(num(r["pass@k"], 2, 100.0)), Cell(num(r["all-k"], 2, 100.0))]
        t.rows.append(cells)
    agents = [p for p in names if p != HUMAN]
    ws = {m: kendall_w(np.stack([task_level(ctx.attempts, p, m, ctx.task_ids) for p in agents]))
          if len(agents) >= 2 else float("nan") for m in PROFILE_MEASURES}
    t.rows.append([Cell(f"W ({len(agents)} configurations)"), *[Cell(num(ws[m])) for m in PROFILE_MEASURES],
                   Cell(""), Cell(""), Cell("")])
    # The correlation matrices behind the heatmap (Fig. 7 of the paper), from the same pass.
    base = len(groups)
    matrices = {}
    for mi, m in enumerate(PROFILE_MEASURES):
        mat = np.eye(g_n)
        lows, highs = np.full((g_n, g_n), np.nan), np.full((g_n, g_n), np.nan)
        for pi, (a, b) in enumerate(combinations(range(g_n), 2)):
            iv = ivs[base + mi * (g_n * (g_n - 1) // 2) + pi]
            mat[a, b] = mat[b, a] = iv.estimate
            lows[a, b] = lows[b, a] = iv.low
            highs[a, b] = highs[b, a] = iv.high
        matrices[m] = {"profiles": names, "rho": mat, "low": lows, "high": highs}
    ctx.extras["correlations"] = matrices
    ctx.extras["table3"] = {
        "profiles": {p: {m: ivs[mi * g_n + i].as_dict() for mi, m in enumerate(PROFILE_MEASURES)} | {
            "reliability": rel[p]} for i, p in enumerate(names)},
        "kendall_w": ws,
    }
    return t


def table4(runs: list[list[Attempt]], s: Settings, extras: dict) -> Table:
    t = Table("table4", "Table 4. Reference and alternative implementations",
              "The first run is the reference; each further run is compared task by task on the tasks both "
              "share. Changes from the reference in parentheses with their 95% paired bootstrap CI; "
              "▲/green better, ▼/red worse (CI excluding zero).",
              ["profile", "implementation", "SR", "interpretation", "operation"])
    if len(runs) < 2 or not runs[0]:
        t.note = "pass more than one run to compare implementations against the first"
        return t
    ref = runs[0]
    kinds = {profile_of(a): a.agent_kind for a in ref}
    rows_by_profile: dict[str, list[list[Cell]]] = {}
    extras["table4"] = []
    for other in runs[1:]:
        cmp = compare_runs(ref, other, s.n_resamples, s.seed, s.level, PROFILE_MEASURES)
        extras["table4"].append(cmp.as_dict())
        by_profile: dict[str, dict[str, object]] = {}
        for c in cmp.changes:
            by_profile.setdefault(c.profile, {})[c.measure] = c
        for prof, changes in by_profile.items():
            ref_row = [Cell(prof), Cell(ref[0].run)]
            row = [Cell(prof), Cell(other[0].run if other else "?")]
            for m in PROFILE_MEASURES:
                c = changes.get(m)
                if c is None:
                    ref_row.append(Cell(NA))
                    row.append(Cell(NA))
                    continue
                ref_row.append(Cell(_fmt_measure(m, c.baseline, prof, kinds)))
                d = c.difference
                sign = "+" if d.estimate >= 0 else ""
                delta = (f"{sign}{_fmt_measure(m, d.estimate, prof, kinds)} "
                         f"[{_fmt_measure(m, d.low, prof, kinds)}, {_fmt_measure(m, d.high, prof, kinds)}]")
                tone = "better" if c.verdict == BETTER else "worse" if c.verdict == WORSE else ""
                row.append(Cell(f"{_fmt_measure(m, c.candidate, prof, kinds)} ({delta})", tone=tone))
            rows = rows_by_profile.setdefault(prof, [ref_row])
            rows.append(row)
    for rows in rows_by_profile.values():
        t.rows += rows
    if not t.rows:
        t.note = "no profile and task in common with the reference"
    return t


def ppi_table(ctx: Context, s: Settings) -> Table:
    """Human profile values estimated from few human tasks plus agent predictions on the rest."""
    t = Table("ppi", "Prediction-powered estimates of the human profile",
              "Where humans covered only some tasks: the human mean on all tasks, estimated from the human tasks "
              "(labels) and the agent's task-level values (predictions) on every task (PPI++, power-tuned "
              "lambda, Wald 95% CI), next to the human-tasks-only mean.",
              ["measure", "PPI estimate [95% CI]", "human tasks only [95% CI]", "lambda", "human tasks",
               "agent-only tasks"])
    if ctx.left != HUMAN or ctx.right is None:
        t.note = "needs human attempts and an agent configuration"
        return t
    out = {}
    for m in PROFILE_MEASURES:
        y = task_level(ctx.attempts, HUMAN, m, ctx.task_ids)
        f = task_level(ctx.attempts, ctx.right, m, ctx.task_ids)
        labelled = ~np.isnan(y) & ~np.isnan(f)
        unlabelled = np.isnan(y) & ~np.isnan(f)
        est = ppi_mean(y[labelled], f[labelled], f[unlabelled], alpha=1 - s.level)
        out[m] = est.as_dict()
        scale = 100.0 if m == "success" else 1.0
        t.rows.append([Cell(MEASURES[m].label),
                       Cell(f"{num(est.estimate, 2, scale)} [{num(est.low, 2, scale)}, {num(est.high, 2, scale)}]"),
                       Cell(f"{num(est.naive, 2, scale)} [{num(est.naive_low, 2, scale)}, "
                            f"{num(est.naive_high, 2, scale)}]"),
                       Cell(num(est.lam)), Cell(str(est.n_labelled)), Cell(str(est.n_unlabelled))])
    ctx.extras["ppi"] = out
    if all(r[5].text == "0" for r in t.rows):
        t.note = "humans covered every task the agent did: PPI equals the plain human mean here"
    return t


def context(attempts: list[Attempt], s: Settings) -> Context:
    counted = [a for a in attempts if a.counted]
    left, right = choose_pair(counted, s.agent)
    return Context(counted, tasks(counted), left, right)
