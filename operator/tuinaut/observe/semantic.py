"""The semantic observation: the plain text plus XML-like tags for colour and emphasis.

Design choices, each made so the model reads the styling a sighted user reads, at a small token cost:

* Tags: ``<fg:COLOUR>`` text colour, ``<bg:COLOUR>`` background, ``<bold>``, ``<reverse>``,
  ``<underline>``, each closed by ``</fg>``, ``</bg>``, ``</bold>``, ... Colour names are the
  snapshot's own (``default``, the 16 names, ``color_N``, ``#rrggbb``).
* One screen default. The most common background and text colour of the screen (counted over its
  cells) is the style of untagged text. When it is the terminal's own (``default`` on ``default``)
  nothing is added; otherwise a first line, which is not a screen row, declares it::

      screen default: fg=white bg=blue (untagged text and blank row ends; not a screen row)

  and only deviations from it are tagged. A file manager that paints everything white on blue
  then costs tags only where something differs (a selection bar, a highlighted name); text in the
  terminal's own colours on such a screen is tagged ``<bg:default>``/``<fg:default>``.
* Each attribute run is tagged once, with as few tag tokens as proper nesting allows: every row is
  encoded by a small dynamic programme over its runs of identical styling that chooses which tags
  stay open, in which order they nest, and where one colour is opened inside another. The innermost
  open tag of an attribute wins, so a highlight inside a bar reads
  ``<bg:green> <fg:black>PID USER <bg:cyan> CPU% </bg> MEM%</fg> </bg>`` (htop's sort column), and a
  background spanning several differently coloured words is opened once around all of them. On a
  tie the background goes outside. ``<bold>``, ``<reverse>``, ``<underline>`` are only switched on
  by a tag, never off. A run of one value is not closed and reopened unless proper nesting forces it
  (it never is on the benchmark's screens).
* Nothing leaks: every tag is closed where its attribute changes and at the end of its row, so a
  reset on screen is a closing tag in the text and every row stands on its own.
* Styling a user cannot see is dropped: the text colour and boldness of a space are invisible, so
  spaces between two words of one colour do not split its run (a run is closed right after its last
  visible character otherwise), and spaces alone carry no ``fg`` tag. The blank end of a row (spaces
  in the screen default background, no reverse or underline) is trimmed exactly as in the plain mode,
  as are trailing blank rows; styled blank cells (a reverse-video bar, a coloured strip) are kept.
* Lossless for what is visible: from the text, every non-space cell's character, text colour,
  background, bold, reverse and underline, and every space's background, reverse and underline,
  can be reconstructed exactly (tests/llm/test_semantic_roundtrip.py decodes real screens back).
* Text on screen that happens to look like one of our tags has its ``<`` written as ``&lt;``, so a
  tag in the observation always means styling.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import permutations

from ..terminal.snapshot import DEFAULT, Cell, Snapshot

_TAG_LOOKALIKE = re.compile(r"<(?=/?(?:fg|bg|bold|reverse|underline)\b)")
# Attribute order in a requirement tuple; on a tie, earlier attributes are nested outside later ones.
_ATTRIBUTES = ("bg", "fg", "reverse", "bold", "underline")
_CLOSE_COST = 3  # tokens of a closing tag, roughly, in common tokenizers
_DECLARATION_COST = 25  # tokens of the ``screen default`` line, roughly
_MAX_STATES = 24  # tag stacks kept per run; rows rarely need more than a handful
_MAX_NESTING = 2  # one attribute open at most twice: a highlight inside a bar of another colour
_MAX_DEPTH = 6

Value = str | bool | None  # None: this cell does not care (the text colour of a space)
Style = tuple[str, str]  # a screen default: (bg, fg)
Stack = tuple[tuple[int, Value], ...]  # open tags, outermost first: (attribute index, value)

TERMINAL_DEFAULT: Style = (DEFAULT, DEFAULT)


def _requirement(cell: Cell) -> tuple[Value, ...]:
    """The cell's value per attribute, in ``_ATTRIBUTES`` order; None where a user cannot see it."""
    if cell.char == " ":
        return (cell.bg, None, cell.reverse, None, cell.underline)
    return (cell.bg, cell.fg, cell.reverse, cell.bold, cell.underline)


def _open(attribute: int, value: Value) -> str:
    name = _ATTRIBUTES[attribute]
    return f"<{name}:{value}>" if attribute < 2 else f"<{name}>"


def _close(attribute: int) -> str:
    return f"</{_ATTRIBUTES[attribute]}>"


def _open_cost(attribute: int, value: Value) -> int:
    """Rough token count of an opening tag (``<fg:white>`` 5, ``<fg:bright_white>`` 7, ``<bold>`` 3)."""
    if attribute >= 2:
        return 3
    name = str(value)
    return 5 + (2 if "_" in name else 1 if name.startswith("#") else 0)


def screen_default(snapshot: Snapshot) -> tuple[Style, bool]:
    """The most common background (all cells) and text colour (non-space cells), ties favouring
    ``default``; and whether a background other than ``default`` covers most of the screen."""
    bgs: Counter[str] = Counter()
    fgs: Counter[str] = Counter()
    for row in snapshot.rows:
        for cell in row:
            if cell.char:
                bgs[cell.bg] += 1
                if cell.char != " ":
                    fgs[cell.fg] += 1

    def most_common(counts: Counter[str]) -> str:
        return max(counts.items(), key=lambda item: (item[1], item[0] == DEFAULT))[0] if counts else DEFAULT

    bg = most_common(bgs)
    return (bg, most_common(fgs)), bg != DEFAULT and 2 * bgs[bg] > sum(bgs.values())


def describe_default(default: Style) -> str:
    """The declaration line put above the rows when the screen default is not the terminal's."""
    return f"screen default: fg={default[1]} bg={default[0]} (untagged text and blank row ends; not a screen row)"


def _blank_end(cell: Cell, default: Style) -> bool:
    """A trailing cell a user cannot tell from the screen's empty background."""
    return cell.char == " " and cell.bg == default[0] and not cell.reverse and not cell.underline


def encode_row(row: tuple[Cell, ...], default: Style = TERMINAL_DEFAULT) -> str:
    """One screen row as tagged text; untagged text has the ``default`` (bg, fg) and no emphasis."""
    return _encode_row(row, default)[0]


def _encode_row(row: tuple[Cell, ...], default: Style) -> tuple[str, int]:
    """The row's tagged text and the estimated tokens of its tags."""
    base: tuple[Value, ...] = (default[0], default[1], False, False, False)
    cells = [cell for cell in row if cell.char != ""]  # "" is the right half of a wide character
    while cells and _blank_end(cells[-1], default):
        cells.pop()
    if not cells:
        return "", 0

    # Runs of cells with the same requirement; tags can only change between runs.
    runs: list[tuple[tuple[Value, ...], int, int]] = []
    start, current = 0, _requirement(cells[0])
    for index in range(1, len(cells)):
        requirement = _requirement(cells[index])
        if requirement != current:
            runs.append((current, start, index))
            start, current = index, requirement
    runs.append((current, start, len(cells)))

    # Cheapest tag stack per run: from each stack, close some innermost tags and open what the run
    # still needs, in some order (a colour may be opened inside another colour of the same attribute).
    states: dict[Stack, int] = {(): 0}
    history: list[dict[Stack, Stack]] = []
    seen: dict[Stack, tuple[list[tuple[Value, ...]], list[tuple[int, ...]]]] = {}
    for requirement, _, _ in runs:
        wanted = [(attribute, value, _open_cost(attribute, value)) for attribute, value in enumerate(requirement)
                  if value is not None]
        best: dict[Stack, int] = {}
        came_from: dict[Stack, Stack] = {}
        for stack, cost in states.items():
            # The value each attribute shows, and how often it is open, with the outer ``keep`` tags open.
            layers = seen.get(stack)
            if layers is None:
                shown, depth = [base], [(0,) * len(_ATTRIBUTES)]
                for attribute, value in stack:
                    shown.append((*shown[-1][:attribute], value, *shown[-1][attribute + 1:]))
                    depth.append((*depth[-1][:attribute], depth[-1][attribute] + 1, *depth[-1][attribute + 1:]))
                layers = seen[stack] = (shown, depth)
            shown, depth = layers
            closing = 0
            for keep in range(len(stack), -1, -1):
                now, open_count = shown[keep], depth[keep]
                need, opening, allowed = [], 0, True
                for attribute, value, open_cost in wanted:
                    if value != now[attribute]:
                        # A colour can be overridden inside another; bold, reverse, underline only closed.
                        if value is False or open_count[attribute] >= _MAX_NESTING:
                            allowed = False
                            break
                        need.append((attribute, value))
                        opening += open_cost
                if allowed and keep + len(need) <= _MAX_DEPTH:
                    kept = stack[:keep]
                    total = cost + closing + opening
                    for order in permutations(need) if 1 < len(need) <= 3 else (need,):
                        new = kept + tuple(order)
                        known = best.get(new)
                        # On a tie prefer the shorter stack before: a run closes right after its last character.
                        if known is None or total < known or (total == known and len(stack) < len(came_from[new])):
                            best[new] = total
                            came_from[new] = stack
                closing += _CLOSE_COST
        # Drop stacks that the cheapest one could turn into (close all, open theirs) for less.
        cheapest = min(best, key=best.__getitem__)
        reset = best[cheapest] + _CLOSE_COST * len(cheapest)
        best = {stack: cost for stack, cost in best.items()
                if cost <= reset + sum(_open_cost(a, v) for a, v in stack)}
        if len(best) > _MAX_STATES:
            best = dict(sorted(best.items(), key=lambda item: item[1])[:_MAX_STATES])
        states = best
        history.append(came_from)
    final = min(states, key=lambda stack: (states[stack] + _CLOSE_COST * len(stack), len(stack)))
    tag_cost = states[final] + _CLOSE_COST * len(final)
    path = [final]
    for came_from in reversed(history[1:]):
        path.append(came_from[path[-1]])
    path.reverse()

    text = "".join(cell.char for cell in cells)
    out: list[str] = []
    previous: Stack = ()
    for stack, (_, start, end) in zip(path, runs, strict=True):
        common = 0
        while common < min(len(previous), len(stack)) and previous[common] == stack[common]:
            common += 1
        out.extend(_close(attribute) for attribute, _ in reversed(previous[common:]))
        out.extend(_open(attribute, value) for attribute, value in stack[common:])
        chunk = text[start:end]
        if "<" in chunk:
            chunk = "".join("&lt;" if char == "<" and _TAG_LOOKALIKE.match(text, start + offset) else char
                            for offset, char in enumerate(chunk))
        out.append(chunk)
        previous = stack
    out.extend(_close(attribute) for attribute, _ in reversed(previous))
    return "".join(out), tag_cost


def encode_semantic(snapshot: Snapshot) -> str:
    """The whole screen as tagged text, trailing blank rows dropped like the plain mode.

    The screen's dominant style is declared as its default only when that saves more tag tokens than
    the declaration line costs (a few coloured words on a small screen keep the terminal default).
    """
    default, painted = screen_default(snapshot)
    if default == TERMINAL_DEFAULT:
        encoded = _encode_rows(snapshot, TERMINAL_DEFAULT)
    else:
        encoded = _encode_rows(snapshot, default)
        if not painted:  # a background over most of the screen is always worth declaring
            plain = _encode_rows(snapshot, TERMINAL_DEFAULT)
            if plain[1] <= encoded[1] + _DECLARATION_COST:
                encoded = plain
    lines, _, default = encoded
    while lines and not lines[-1]:
        lines.pop()
    if default != TERMINAL_DEFAULT:
        lines.insert(0, describe_default(default))
    return "\n".join(lines)


def _encode_rows(snapshot: Snapshot, default: Style) -> tuple[list[str], int, Style]:
    # Rows repeat within a screen (borders, empty panels). The parser shares one Cell object per
    # distinct style and character, so a row's cell identities name its content for this call.
    done: dict[tuple[int, ...], tuple[str, int]] = {}
    rows = []
    for row in snapshot.rows:
        key = tuple(map(id, row))
        encoded = done.get(key)
        if encoded is None:
            encoded = done[key] = _encode_row(row, default)
        rows.append(encoded)
    return [text for text, _ in rows], sum(cost for _, cost in rows), default
