"""Small screens built from real ANSI text through the snapshot parser the executor uses."""

from __future__ import annotations

from tuinaut.terminal.snapshot import Snapshot, parse_capture

MENU = (
    "\x1b[1;37;44m File  Edit  View                                   \x1b[0m\n"
    "\n"
    "  \x1b[7m> notes.txt       \x1b[0m\n"
    "    todo.md\n"
    "    \x1b[31mbroken.cfg\x1b[0m (error)\n"
    "\n"
    "\x1b[32m^O\x1b[0m Open  \x1b[32m^X\x1b[0m Exit"
)


def screen(raw: str = MENU, *, width: int = 60, height: int = 12, cursor: tuple[int, int] = (4, 2)) -> Snapshot:
    return parse_capture(raw, width=width, height=height, cursor=cursor)
