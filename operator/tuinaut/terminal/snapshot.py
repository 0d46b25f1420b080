"""A screen snapshot: one ``capture-pane -p -e`` parsed once into cells plus the cursor.

Every observation mode (plain, semantic, image) and every screen assertion derives from the same
Snapshot, so they can never disagree about what was on screen.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import pyte
from pyte.charsets import VT100_MAP

BASE_COLOURS = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
BRIGHT_COLOURS = tuple(f"bright_{name}" for name in BASE_COLOURS)
NAMED_COLOURS = BASE_COLOURS + BRIGHT_COLOURS
DEFAULT = "default"


@dataclass(frozen=True, slots=True)
class Cell:
    char: str
    fg: str = DEFAULT
    bg: str = DEFAULT
    bold: bool = False
    reverse: bool = False
    underline: bool = False

    @property
    def style(self) -> tuple[str, str, bool, bool, bool]:
        return (self.fg, self.bg, self.bold, self.reverse, self.underline)


def colour_name(index: int) -> str:
    """Palette index to the name used everywhere: 16 named colours, then ``color_N``."""
    return NAMED_COLOURS[index] if 0 <= index < 16 else f"color_{index}"


class _Screen(pyte.Screen):
    """pyte's screen with colour names of our vocabulary (pyte turns 256-colour indexes into hex)."""

    _TEXT_ATTRS = {1: ("bold", True), 22: ("bold", False), 3: ("italics", True), 23: ("italics", False),
                   4: ("underscore", True), 24: ("underscore", False), 5: ("blink", True), 25: ("blink", False),
                   7: ("reverse", True), 27: ("reverse", False), 9: ("strikethrough", True),
                   29: ("strikethrough", False)}

    def select_graphic_rendition(self, *attrs: int, private: bool = False) -> None:
        params = list(attrs) or [0]
        changes: dict[str, object] = {}
        i = 0
        while i < len(params):
            p = params[i]
            if p == 0:
                changes = dict(self.default_char._asdict())
                changes.pop("data")
            elif p in self._TEXT_ATTRS:
                name, value = self._TEXT_ATTRS[p]
                changes[name] = value
            elif 30 <= p <= 37 or 40 <= p <= 47:
                changes["fg" if p < 40 else "bg"] = BASE_COLOURS[p % 10]
            elif 90 <= p <= 97 or 100 <= p <= 107:
                changes["fg" if p < 100 else "bg"] = BRIGHT_COLOURS[p % 10]
            elif p in (39, 49):
                changes["fg" if p == 39 else "bg"] = DEFAULT
            elif p in (38, 48) and i + 1 < len(params):
                key = "fg" if p == 38 else "bg"
                if params[i + 1] == 5 and i + 2 < len(params):
                    changes[key] = colour_name(params[i + 2])
                    i += 2
                elif params[i + 1] == 2 and i + 4 < len(params):
                    r, g, b = params[i + 2:i + 5]
                    changes[key] = f"#{r:02x}{g:02x}{b:02x}"
                    i += 4
            i += 1
        self.cursor.attrs = self.cursor.attrs._replace(**changes)


@dataclass(frozen=True)
class Snapshot:
    """What the terminal showed at one moment."""

    width: int
    height: int
    rows: tuple[tuple[Cell, ...], ...]
    cursor: tuple[int, int]
    cursor_visible: bool = True
    exited: bool = False
    exit_status: int | None = None
    raw: str = field(default="", repr=False)

    @cached_property
    def lines(self) -> list[str]:
        """Each row's visible text, trailing spaces trimmed (wide-character spacers skipped)."""
        return ["".join(cell.char for cell in row).rstrip() for row in self.rows]

    @cached_property
    def plain(self) -> str:
        """The plain observation: visible text and layout, trailing blank rows dropped."""
        lines = list(self.lines)
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines)

    @cached_property
    def digest(self) -> str:
        """Identity of the screen contents and cursor, for change detection and trajectories."""
        return hashlib.sha1(f"{self.raw}\x00{self.cursor}".encode()).hexdigest()[:16]

    @property
    def blank(self) -> bool:
        return not any(self.lines)

    def find(self, pattern: str, *, regex: bool = False) -> list[tuple[int, int, int]]:
        """Every match on a single row as (row, start column, end column) in cell coordinates."""
        compiled = re.compile(pattern if regex else re.escape(pattern))
        hits = []
        for row_index, row in enumerate(self.rows):
            text, columns = _row_text_with_columns(row)
            for match in compiled.finditer(text):
                if match.end() > match.start():
                    hits.append((row_index, columns[match.start()], columns[match.end() - 1] + 1))
        return hits

    def cells(self, row: int, start: int, end: int) -> tuple[Cell, ...]:
        return self.rows[row][start:end]


def _row_text_with_columns(row: tuple[Cell, ...]) -> tuple[str, list[int]]:
    chars, columns = [], []
    for column, cell in enumerate(row):
        if cell.char:  # "" marks the second half of a wide character
            chars.append(cell.char)
            columns.append(column)
    return "".join(chars), columns


def parse_capture(raw: str, *, width: int, height: int, cursor: tuple[int, int] = (0, 0),
                  cursor_visible: bool = True, exited: bool = False, exit_status: int | None = None) -> Snapshot:
    """Parse the text of ``capture-pane -p -e`` (rows separated by newlines) into a Snapshot."""
    return _parse(raw, width, height, cursor, cursor_visible, exited, exit_status)


# Settling usually ends on a screen identical to one already parsed (a key that changed nothing,
# a screen polled twice): those reuse the frozen Snapshot instead of paying pyte again.
# tmux writes cells drawn in the DEC line-drawing set (ncurses' ACS boxes under xterm) as
# shift-out ... shift-in runs around plain letters ("\x0elqqk\x0f"). Translate those letters to
# the box characters they stand for; escape sequences inside a run are left as they are.
_SHIFTED_RUN = re.compile("\x0e([^\x0f]*)\x0f?")
_ESCAPE = re.compile(r"(\x1b\[[0-9;:?]*[ -/]*[@-~])")
_LINE_DRAWING = str.maketrans({chr(i): VT100_MAP[i] for i in range(0x5F, 0x7F)})


def _line_drawing(raw: str) -> str:
    if "\x0e" not in raw:
        return raw

    def translate(match: re.Match[str]) -> str:
        parts = _ESCAPE.split(match.group(1))
        return "".join(part if i % 2 else part.translate(_LINE_DRAWING) for i, part in enumerate(parts))

    return _SHIFTED_RUN.sub(translate, raw)


@lru_cache(maxsize=16)
def _parse(raw: str, width: int, height: int, cursor: tuple[int, int], cursor_visible: bool, exited: bool,
           exit_status: int | None) -> Snapshot:
    screen = _Screen(width, height)
    stream = pyte.Stream(screen)
    stream.feed(_line_drawing(raw).replace("\n", "\r\n"))
    # Most cells share a handful of styles: convert each distinct pyte Char once.
    converted: dict[object, Cell] = {}
    rows = []
    for y in range(height):
        line = screen.buffer[y]
        row = []
        for x in range(width):
            char = line[x]
            cell = converted.get(char)
            if cell is None:
                cell = converted[char] = Cell(char.data, char.fg, char.bg, char.bold, char.reverse, char.underscore)
            row.append(cell)
        rows.append(tuple(row))
    return Snapshot(width=width, height=height, rows=tuple(rows), cursor=cursor, cursor_visible=cursor_visible,
                    exited=exited, exit_status=exit_status, raw=raw)
