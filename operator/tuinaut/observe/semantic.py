"""The semantic observation: the plain text plus XML-like tags for colour and emphasis.

Design choices, each made so the model reads the styling a sighted user reads, at a small token cost:

* A *run* is a stretch of one row whose visible style is the same. Each run is wrapped once in its
  tags (``<fg:red>``, ``<bg:blue>``, ``<bold>``, ``<reverse>``, ``<underline>``) and every tag is
  closed at the end of its run, so no colour leaks into the next run, the next row or past a reset.
* Styling a user cannot see is dropped: the foreground colour and boldness of a space are invisible,
  so a stretch of spaces between two runs of one style does not split them, and spaces alone carry
  no colour tag; trailing unstyled spaces are trimmed exactly as in the plain mode (styled ones,
  e.g. a reverse-video selection bar, are kept).
* Text on screen that happens to look like one of our tags has its ``<`` written as ``&lt;``, so a
  tag in the observation always means styling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..terminal.snapshot import DEFAULT, Cell, Snapshot

_TAG_LOOKALIKE = re.compile(r"<(?=/?(?:fg|bg|bold|reverse|underline)\b)")


@dataclass
class _Run:
    """A stretch of cells with one style: (fg, bg, bold, reverse, underline) and its text."""

    style: tuple[str, str, bool, bool, bool]
    text: str

    @property
    def blank(self) -> bool:
        return not self.text.strip(" ")

    @property
    def visible_style(self) -> tuple[str, str, bool, bool, bool]:
        """For spaces only the background and the reverse/underline flags can be seen."""
        fg, bg, bold, reverse, underline = self.style
        return (DEFAULT, bg, False, reverse, underline) if self.blank else self.style

    def render(self) -> str:
        fg, bg, bold, reverse, underline = self.visible_style
        text = _TAG_LOOKALIKE.sub("&lt;", self.text)
        opens: list[str] = []
        closes: list[str] = []
        if fg != DEFAULT:
            opens.append(f"<fg:{fg}>")
            closes.append("</fg>")
        if bg != DEFAULT:
            opens.append(f"<bg:{bg}>")
            closes.append("</bg>")
        for flag, name in ((bold, "bold"), (reverse, "reverse"), (underline, "underline")):
            if flag:
                opens.append(f"<{name}>")
                closes.append(f"</{name}>")
        return "".join(opens) + text + "".join(reversed(closes))


def _runs(cells: list[Cell]) -> list[_Run]:
    """Split on every style change, then heal splits a user cannot see.

    A stretch of spaces between two runs of the same style (think ``ok`` and ``done`` in green with
    an attribute reset between them) is shown in that style too, so the three become one run.
    """
    exact: list[_Run] = []
    for cell in cells:
        if exact and exact[-1].style == cell.style:
            exact[-1].text += cell.char
        else:
            exact.append(_Run(cell.style, cell.char))
    healed: list[_Run] = []
    index = 0
    while index < len(exact):
        run = exact[index]
        if (healed and run.blank and index + 1 < len(exact) and not healed[-1].blank
                and exact[index + 1].style == healed[-1].style
                and run.visible_style[1:2] + run.visible_style[3:] == healed[-1].style[1:2] + healed[-1].style[3:]):
            healed[-1].text += run.text + exact[index + 1].text
            index += 2
            continue
        healed.append(_Run(run.style, run.text))
        index += 1
    return healed


def _invisible_tail(cell: Cell) -> bool:
    """A trailing cell a user cannot tell from an empty one."""
    return cell.char in (" ", "") and cell.bg == DEFAULT and not cell.reverse and not cell.underline


def encode_row(row: tuple[Cell, ...]) -> str:
    """One screen row as tagged text."""
    cells = [cell for cell in row if cell.char != ""]  # "" is the right half of a wide character
    while cells and _invisible_tail(cells[-1]):
        cells.pop()
    runs = _runs(cells)
    return "".join(run.render() for run in runs)


def encode_semantic(snapshot: Snapshot) -> str:
    """The whole screen as tagged text, trailing blank rows dropped like the plain mode."""
    lines = [encode_row(row) for row in snapshot.rows]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
