"""Numbers to text: cells, tables in Markdown and HTML, and the compare printout.

NaN always prints as "n/a" (a degenerate correlation, a measure that does not apply), never as a
crash or a misleading 0.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from .bootstrap import Interval
from .compare import Comparison

NA = "n/a"


@dataclass(frozen=True)
class Cell:
    text: str
    bold: bool = False
    tone: str = ""  # "better" / "worse": coloured in HTML, marked in Markdown


@dataclass
class Table:
    key: str
    title: str
    caption: str
    header: list[str]
    rows: list[list[Cell]] = field(default_factory=list)
    note: str = ""


def num(v: float | None, digits: int = 2, scale: float = 1.0, suffix: str = "") -> str:
    if v is None or not math.isfinite(v):
        return NA
    return f"{v * scale:.{digits}f}{suffix}"


def interval(iv: Interval, digits: int = 2, scale: float = 1.0) -> Cell:
    """"0.35 [-0.03, 0.57]", bold when the CI excludes zero."""
    if not math.isfinite(iv.estimate):
        return Cell(NA)
    if not math.isfinite(iv.low):
        return Cell(f"{num(iv.estimate, digits, scale)} [{NA}]")
    return Cell(f"{num(iv.estimate, digits, scale)} [{num(iv.low, digits, scale)}, {num(iv.high, digits, scale)}]",
                bold=iv.excludes_zero)


def markdown_table(table: Table) -> str:
    def cell(c: Cell) -> str:
        text = c.text.replace("|", "\\|")
        if c.tone:
            text = f"{text} {'▲' if c.tone == 'better' else '▼'}"
        return f"**{text}**" if c.bold else text

    lines = [f"### {table.title}", "", table.caption, ""]
    if not table.rows:
        lines.append(f"_{table.note or 'no data'}_")
        return "\n".join(lines) + "\n"
    lines.append("| " + " | ".join(table.header) + " |")
    lines.append("|" + "|".join("---" for _ in table.header) + "|")
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in table.rows]
    if table.note:
        lines += ["", f"_{table.note}_"]
    return "\n".join(lines) + "\n"


def html_table(table: Table) -> str:
    def cell(c: Cell) -> str:
        text = html.escape(c.text)
        if c.bold:
            text = f"<b>{text}</b>"
        return f'<td class="{c.tone}">{text}</td>' if c.tone else f"<td>{text}</td>"

    parts = [f"<h3>{html.escape(table.title)}</h3>", f"<p class=caption>{html.escape(table.caption)}</p>"]
    if not table.rows:
        parts.append(f"<p><i>{html.escape(table.note or 'no data')}</i></p>")
        return "\n".join(parts)
    parts.append("<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in table.header) + "</tr></thead>")
    parts.append("<tbody>" + "".join("<tr>" + "".join(cell(c) for c in row) + "</tr>" for row in table.rows)
                 + "</tbody></table>")
    if table.note:
        parts.append(f"<p class=note><i>{html.escape(table.note)}</i></p>")
    return "\n".join(parts)


def comparison_text(result: Comparison) -> str:
    """The human-readable compare printout: one line per profile and measure, then the verdict."""
    infra = result.infra_errors
    out = [f"baseline:  {result.baseline_run}", f"candidate: {result.candidate_run}",
           f"tasks compared: {result.tasks}; infra errors excluded: baseline {infra['baseline']}, "
           + f"candidate {infra['candidate']}"]
    if result.note:
        out.append(f"note: {result.note}")
    rows = [("profile", "measure", "baseline", "candidate", "difference [95% CI]", "verdict")]
    for c in result.changes:
        scale = 100.0 if c.measure == "success" else 1.0
        d = c.difference
        diff = NA if not math.isfinite(d.estimate) else (
            f"{num(d.estimate, 2, scale)} [{num(d.low, 2, scale)}, {num(d.high, 2, scale)}]")
        verdict = c.verdict + ("" if c.gating else " (info)")
        rows.append((c.profile, c.measure, num(c.baseline, 2, scale), num(c.candidate, 2, scale), diff, verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
    out.append(f"verdict: {result.verdict}" + (
        f" (regressions: {', '.join(f'{c.profile}/{c.measure}' for c in result.regressions)})"
        if result.regressions else ""))
    return "\n".join(out)
