"""One exception root for TUINaut, grouped by who is at fault.

- ``ConfigError``: the user's input (a task, app or evaluation file) is wrong. Never retried.
- ``InfraError``: the machinery failed (sandbox, tmux, TUI never rendered, model endpoint down).
  Kept apart from task failures: an attempt ending this way is retried and left out of success rates.
- ``MissingToolError``: a required program is not installed; carries the install hint.
"""

from __future__ import annotations

from pathlib import Path


class TuinautError(Exception):
    """Root of every error TUINaut raises on purpose."""


class ConfigError(TuinautError):
    """A file the user wrote is invalid: names the file, the field and the reason."""

    def __init__(self, reason: str, *, file: str | Path | None = None, field: str | None = None) -> None:
        self.file = str(file) if file is not None else None
        self.field = field
        self.reason = reason
        where = ": ".join(part for part in (self.file, self.field) if part)
        super().__init__(f"{where}: {reason}" if where else reason)


class InfraError(TuinautError):
    """The harness could not carry out an attempt; ``code`` is a stable stop reason."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(f"{code}: {message}")


class MissingToolError(TuinautError):
    """A program TUINaut drives is not installed."""

    def __init__(self, program: str, hint: str) -> None:
        self.program = program
        super().__init__(f"'{program}' was not found on PATH. Install it: {hint}")
