"""The semantic observation: the plain text plus XML-like tags for colour and emphasis.

Design choices, each made so the model reads the styling a sighted user reads, at a small token cost:

* Tags: ``<fg:COLOUR>`` text colour, ``<bg:COLOUR>`` background, ``<bold>``, ``<reverse>``,
  ``<underline>``, each closed by ``</fg>``, ``</bg>``, ``</bold>``, ... Default styling has no tag.
* Each attribute run is tagged once. Attributes are layered: a background that spans several
  differently coloured words is opened once around all of them (the longer-lasting attribute goes
  outside), instead of being repeated around every word. Tags are properly nested.
* Nothing leaks: every tag is closed where its attribute changes and at the end of its row, so a
  reset on screen is a closing tag in the text and every row stands on its own.
* Styling a user cannot see is dropped: the text colour and boldness of a space are invisible, so
  spaces between two words of one colour do not split its run, and spaces alone carry no ``fg`` tag;
  trailing unstyled spaces are trimmed exactly as in the plain mode (styled ones, e.g. a
  reverse-video selection bar, are kept).
* Text on screen that happens to look like one of our tags has its ``<`` written as ``&lt;``, so a
  tag in the observation always means styling.
"""

from __future__ import annotations

import re

from ..terminal.snapshot import DEFAULT, Cell, Snapshot

_TAG_LOOKALIKE = re.compile(r"<(?=/?(?:fg|bg|bold|reverse|underline)\b)")
_ATTRIBUTES = ("fg", "bg", "bold", "reverse", "underline")

Value = str | bool | None  # None: this cell does not care (the text colour of a space)


def _values(cell: Cell) -> dict[str, Value]:
    blank = cell.char == " "
    return {"fg": None if blank else cell.fg, "bg": cell.bg, "bold": None if blank else cell.bold,
            "reverse": cell.reverse, "underline": cell.underline}


def _is_off(value: Value) -> bool:
    return value is None or value is False or value == DEFAULT


def _open(attribute: str, value: Value) -> str:
    return f"<{attribute}:{value}>" if attribute in ("fg", "bg") else f"<{attribute}>"


def _invisible_tail(cell: Cell) -> bool:
    """A trailing cell a user cannot tell from an empty one."""
    return cell.char in (" ", "") and cell.bg == DEFAULT and not cell.reverse and not cell.underline


def encode_row(row: tuple[Cell, ...]) -> str:
    """One screen row as tagged text, with a stack of open tags (outermost first)."""
    cells = [cell for cell in row if cell.char != ""]  # "" is the right half of a wide character
    while cells and _invisible_tail(cells[-1]):
        cells.pop()
    values = [_values(cell) for cell in cells]
    ahead = _Lookahead(values)
    out: list[str] = []
    stack: list[tuple[str, Value]] = []
    for index, cell in enumerate(cells):
        open_now = dict(stack)
        wanted: dict[str, Value] = {}
        for attribute in _ATTRIBUTES:
            value = values[index][attribute]
            if value is None:  # invisible here: bridge a gap between two cells of the open value
                upcoming = ahead.next_value(index, attribute)
                value = open_now.get(attribute) if upcoming == open_now.get(attribute) else None
            if not _is_off(value):
                wanted[attribute] = value
        keep = 0
        while keep < len(stack) and wanted.get(stack[keep][0]) == stack[keep][1]:
            keep += 1
        out.extend(f"</{attribute}>" for attribute, _ in reversed(stack[keep:]))
        del stack[keep:]
        kept = {attribute for attribute, _ in stack}
        missing = [attribute for attribute in wanted if attribute not in kept]
        # The attribute that lasts longest from here goes outermost, so it is opened only once.
        missing.sort(key=lambda attribute: ahead.run_length(index, attribute, wanted[attribute]), reverse=True)
        for attribute in missing:
            out.append(_open(attribute, wanted[attribute]))
            stack.append((attribute, wanted[attribute]))
        out.append("&lt;" if cell.char == "<" and _TAG_LOOKALIKE.match(_rest(cells, index)) else cell.char)
    out.extend(f"</{attribute}>" for attribute, _ in reversed(stack))
    return "".join(out)


class _Lookahead:
    """Per-row tables (one backward pass per attribute) so lookups are O(1), not a rescan."""

    def __init__(self, values: list[dict[str, Value]]) -> None:
        self.values = values
        n = len(values)
        self.nones: dict[str, list[int]] = {}
        self.same: dict[str, list[int]] = {}
        for attribute in _ATTRIBUTES:
            nones, same = [0] * (n + 1), [0] * (n + 1)
            following: Value = None  # the value of the nearest non-None cell to the right
            for index in range(n - 1, -1, -1):
                value = values[index][attribute]
                if value is None:
                    nones[index] = nones[index + 1] + 1
                    same[index] = same[index + 1]
                else:
                    same[index] = 1 + nones[index + 1] + (same[index + 1] if following == value else 0)
                    following = value
            self.nones[attribute], self.same[attribute] = nones, same

    def next_value(self, start: int, attribute: str) -> Value:
        index = start + self.nones[attribute][start]
        return self.values[index][attribute] if index < len(self.values) else None

    def run_length(self, start: int, attribute: str, value: Value) -> int:
        """Cells from ``start`` showing ``value`` for this attribute (cells that do not care count)."""
        nones = self.nones[attribute][start]
        index = start + nones
        if index >= len(self.values) or self.values[index][attribute] != value:
            return nones
        return nones + self.same[attribute][index]


def _rest(cells: list[Cell], start: int, span: int = 11) -> str:
    return "".join(cell.char for cell in cells[start:start + span])


def encode_semantic(snapshot: Snapshot) -> str:
    """The whole screen as tagged text, trailing blank rows dropped like the plain mode."""
    lines = [encode_row(row) for row in snapshot.rows]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
