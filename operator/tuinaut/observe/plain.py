"""The plain observation: the characters a user sees, laid out as on screen, nothing else.

The cursor is reported on its own line instead of being drawn into the text, so no screen cell is
ever overwritten (a cursor marker could hide the very character a task asks about).
"""

from __future__ import annotations

from ..terminal.snapshot import Snapshot


def encode_plain(snapshot: Snapshot) -> str:
    """Visible text with trailing spaces and trailing blank rows trimmed."""
    return snapshot.plain


def describe_cursor(snapshot: Snapshot) -> str:
    """One line giving the cursor position, 1-based like a text editor's status line."""
    if not snapshot.cursor_visible:
        return "Cursor: hidden"
    column, row = snapshot.cursor
    return f"Cursor: row {row + 1}, column {column + 1}"
