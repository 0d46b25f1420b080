"""Build the whole report from run directories and write it: report.md, report.html, report.json, PNGs.

``build_report`` is pure (attempts in, tables and figures' data out); ``write_report`` does the I/O.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import plots
from .bootstrap import task_intervals
from .formatting import Table, html_table, markdown_table
from .loading import Attempt, load_runs
from .measures import build_panel, composition, profile_of, profiles, task_level
from .tables import Settings, context, ppi_table, table1, table2, table3, table4


@dataclass
class Report:
    runs: list[str]
    counts: dict[str, dict[str, int]]
    tables: list[Table] = field(default_factory=list)
    data: dict = field(default_factory=dict)


def _counts(attempts: list[Attempt]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for a in attempts:
        row = out.setdefault(profile_of(a), {"passed": 0, "failed": 0, "infra_error": 0})
        row[a.outcome] = row.get(a.outcome, 0) + 1
    return out


def build_report(runs: list[list[Attempt]], settings: Settings | None = None) -> Report:
    """Tables 1-4, the PPI table and the data behind the figures; empty runs give empty tables."""
    settings = settings or Settings()
    first = runs[0] if runs else []
    report = Report([r[0].run if r else "(empty)" for r in runs], _counts(first))
    ctx = context(first, settings)
    report.tables = [table1(ctx, settings), table2(ctx, settings), table3(ctx, settings),
                     table4(runs, settings, ctx.extras), ppi_table(ctx, settings)]
    names = profiles(ctx.attempts)
    per_task = {p: {m: task_level(ctx.attempts, p, m, ctx.task_ids) for m in ("success", "operation")}
                for p in names}
    costs = {}
    if names and ctx.task_ids:
        panel = build_panel(ctx.attempts, names, "operation", ctx.task_ids)
        ti = task_intervals(panel, min(settings.n_resamples, 2_000), settings.seed, settings.level)
        costs = {p: ti[i] for i, p in enumerate(names)}
    report.data = {
        "settings": settings.__dict__, "runs": report.runs, "counts": report.counts,
        "left": ctx.left, "right": ctx.right, "tasks": ctx.task_ids,
        "composition": {p: composition(ctx.attempts, p) for p in names},
        "per_task": per_task, "task_costs": costs, **ctx.extras,
    }
    return report


def _jsonable(obj: object) -> object:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _jsonable(obj.tolist())
    if isinstance(obj, (float, np.floating)):
        return float(obj) if np.isfinite(obj) else None
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def _figures(report: Report, out: Path) -> list[tuple[str, str]]:
    d = report.data
    figs = [("Success vs operation cost per task", plots.success_vs_cost(d["per_task"], out / "success_vs_cost.png")),
            ("Key-class composition", plots.key_class_bars(d["composition"], out / "key_classes.png")),
            ("Per-task operation cost with 95% CIs",
             plots.task_costs(d["tasks"], d["task_costs"], out / "task_costs.png", "median AKE"))]
    if "correlations" in d:
        figs.append(("Rank correlations between profiles",
                     plots.correlation_heatmap(d["correlations"], out / "correlations.png")))
    return [(title, path.name) for title, path in figs]


def _summary_lines(report: Report) -> list[str]:
    lines = [f"Runs: {', '.join(report.runs) or '(none)'}. Tables 1-3 use the first run.", ""]
    if not report.counts:
        lines.append("No attempts found.")
    for p, c in report.counts.items():
        lines.append(f"- {p}: {c['passed']} passed, {c['failed']} failed, "
                     f"{c['infra_error']} infrastructure errors (excluded from every measure)")
    return lines


def write_report(report: Report, out: Path | str) -> dict[str, Path]:
    """Write report.md, report.html, report.json and the PNG figures into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figures = _figures(report, out)
    md = ["# TUINaut usability report", "", *_summary_lines(report), ""]
    md += [markdown_table(t) for t in report.tables]
    md += ["## Figures", ""] + [f"![{title}]({name})\n" for title, name in figures]
    (out / "report.md").write_text("\n".join(md))
    style = ("body{font-family:sans-serif;max-width:1200px;margin:2em auto}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}"
             ".better{color:#1a7f37}.worse{color:#cf222e}.caption{color:#555}img{max-width:100%}")
    body = ["<h1>TUINaut usability report</h1>", "<ul>"]
    body += [f"<li>{html.escape(line[2:])}</li>" for line in _summary_lines(report) if line.startswith("- ")]
    body += ["</ul>", f"<p>{html.escape(_summary_lines(report)[0])}</p>"]
    body += [html_table(t) for t in report.tables]
    body += ["<h2>Figures</h2>"] + [f'<h3>{html.escape(t)}</h3><img src="{n}" alt="{html.escape(t)}">'
                                    for t, n in figures]
    (out / "report.html").write_text(f"<!doctype html><html><head><meta charset=utf-8><title>TUINaut report</title>"
                                     f"<style>{style}</style></head><body>{''.join(body)}</body></html>")
    (out / "report.json").write_text(json.dumps(_jsonable(report.data), indent=1))
    return {"markdown": out / "report.md", "html": out / "report.html", "json": out / "report.json",
            **{name: out / name for _, name in figures}}


def report_runs(paths: list[str | Path], out: Path | str, settings: Settings | None = None) -> dict[str, Path]:
    """The library call behind ``tuinaut report``."""
    return write_report(build_report(load_runs(list(paths)), settings), out)
