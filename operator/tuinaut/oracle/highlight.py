"""What "highlighted" means on a terminal screen.

A match is highlighted when every visible cell of it is reverse or bold, or sits on a background
other than the screen's dominant one. A foreground colour alone is how TUIs colour *kinds* of
things (file types, syntax) rather than mark *the* current thing, so it counts only when the
assertion names it (``fg: red``); ``bg`` likewise pins the exact highlight colour.
"""

from __future__ import annotations

from collections import Counter

from ..terminal.snapshot import Cell, Snapshot


def dominant_background(snapshot: Snapshot) -> str:
    """The background most cells have: what an unmarked cell looks like here."""
    backgrounds = Counter(effective_bg(cell) for row in snapshot.rows for cell in row)
    return backgrounds.most_common(1)[0][0] if backgrounds else "default"


def is_highlighted(cells: tuple[Cell, ...], dominant_bg: str, *, fg: str | None = None, bg: str | None = None) -> bool:
    visible = [cell for cell in cells if cell.char.strip()]
    if not visible:
        return False
    if fg is not None or bg is not None:
        return all((fg is None or effective_fg(c) == fg) and (bg is None or effective_bg(c) == bg) for c in visible)
    return all(c.reverse or c.bold or effective_bg(c) != dominant_bg for c in visible)


def describe(cells: tuple[Cell, ...]) -> str:
    cell = next((c for c in cells if c.char.strip()), cells[0])
    flags = [name for name in ("bold", "reverse", "underline") if getattr(cell, name)]
    return f"fg={effective_fg(cell)} bg={effective_bg(cell)}" + (f" {'+'.join(flags)}" if flags else "")


def effective_fg(cell: Cell) -> str:
    """The colour the glyph is drawn in (reverse swaps foreground and background)."""
    return cell.bg if cell.reverse else cell.fg


def effective_bg(cell: Cell) -> str:
    return cell.fg if cell.reverse else cell.bg
