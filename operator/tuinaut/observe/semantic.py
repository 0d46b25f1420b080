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


def _values(cell: Cell) -> tuple[Value, ...]:
    """The cell's value per attribute, in ``_ATTRIBUTES`` order; None where a user cannot see it."""
    if cell.char == " ":
        return (None, cell.bg, None, cell.reverse, cell.underline)
    return (cell.fg, cell.bg, cell.bold, cell.reverse, cell.underline)


def _is_off(value: Value) -> bool:
    return value is None or value is False or value == DEFAULT


def _open(attribute: int, value: Value) -> str:
    name = _ATTRIBUTES[attribute]
    return f"<{name}:{value}>" if attribute < 2 else f"<{name}>"


def _close(attribute: int) -> str:
    return f"</{_ATTRIBUTES[attribute]}>"


def _invisible_tail(cell: Cell) -> bool:
    """A trailing cell a user cannot tell from an empty one."""
    return cell.char in (" ", "") and cell.bg == DEFAULT and not cell.reverse and not cell.underline


def _next_value(values: list[tuple[Value, ...]], start: int, attribute: int,
                memo: dict[int, tuple[int, Value]]) -> Value:
    """The first visible value at or after ``start``; memoised, since a row of spaces asks repeatedly."""
    cached = memo.get(attribute)
    if cached is not None and start <= cached[0]:
        return cached[1]
    index = start
    while index < len(values) and values[index][attribute] is None:
        index += 1
    value = values[index][attribute] if index < len(values) else None
    memo[attribute] = (index, value)
    return value


def _run_length(values: list[tuple[Value, ...]], start: int, attribute: int, value: Value) -> int:
    length = 0
    for cell_values in values[start:]:
        if cell_values[attribute] is not None and cell_values[attribute] != value:
            break
        length += 1
    return length


def encode_row(row: tuple[Cell, ...]) -> str:
    """One screen row as tagged text, with a stack of open tags (outermost first).

    Lookahead (the next visible value, the length of a run) is only computed where a decision
    needs it: bridging a space while a tag is open, or ordering two tags opened at once.
    """
    cells = [cell for cell in row if cell.char != ""]  # "" is the right half of a wide character
    while cells and _invisible_tail(cells[-1]):
        cells.pop()
    values = [_values(cell) for cell in cells]
    out: list[str] = []
    stack: list[tuple[int, Value]] = []
    previous: tuple[Value, ...] | None = None
    memo: dict[int, tuple[int, Value]] = {}
    for index, cell in enumerate(cells):
        current = values[index]
        open_now = dict(stack)
        if current != previous or any(value is None and attribute in open_now and index > memo.get(attribute, (-1, None))[0]
                                      for attribute, value in enumerate(current)):
            wanted: dict[int, Value] = {}
            for attribute, value in enumerate(current):
                if value is None and attribute in open_now:  # bridge a gap between two cells of one value
                    value = open_now[attribute] if _next_value(values, index, attribute, memo) == open_now[attribute] \
                        else None
                if not _is_off(value):
                    wanted[attribute] = value
            keep = 0
            while keep < len(stack) and wanted.get(stack[keep][0]) == stack[keep][1]:
                keep += 1
            out.extend(_close(attribute) for attribute, _ in reversed(stack[keep:]))
            del stack[keep:]
            kept = {attribute for attribute, _ in stack}
            missing = [attribute for attribute in wanted if attribute not in kept]
            if len(missing) > 1:  # the attribute lasting longest from here goes outermost: opened once
                missing.sort(key=lambda a: _run_length(values, index, a, wanted[a]), reverse=True)
            for attribute in missing:
                out.append(_open(attribute, wanted[attribute]))
                stack.append((attribute, wanted[attribute]))
            previous = current
        out.append("&lt;" if cell.char == "<" and _TAG_LOOKALIKE.match(_rest(cells, index)) else cell.char)
    out.extend(_close(attribute) for attribute, _ in reversed(stack))
    return "".join(out)


def _rest(cells: list[Cell], start: int, span: int = 11) -> str:
    return "".join(cell.char for cell in cells[start:start + span])


def encode_semantic(snapshot: Snapshot) -> str:
    """The whole screen as tagged text, trailing blank rows dropped like the plain mode."""
    lines = [encode_row(row) for row in snapshot.rows]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
