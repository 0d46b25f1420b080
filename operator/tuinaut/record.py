"""Files of one attempt: trajectory.jsonl (written as it happens), final screen, result.json (last)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from .model import AttemptResult
from .terminal.snapshot import Snapshot

RESULT = "result.json"


def atomic_write(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class AttemptFiles:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    @property
    def trajectory(self) -> Path:
        return self.directory / "trajectory.jsonl"

    @property
    def result(self) -> Path:
        return self.directory / RESULT

    def write_final_screen(self, snapshot: Snapshot) -> None:
        (self.directory / "final_screen.txt").write_text(snapshot.plain + "\n", encoding="utf-8")
        (self.directory / "final_screen.ansi").write_text(snapshot.raw, encoding="utf-8")

    def write_result(self, result: AttemptResult) -> None:
        atomic_write(self.result, result.model_dump_json(indent=2))


def read_result(directory: Path) -> AttemptResult | None:
    """The attempt's result, or None if it never finished (or the file is damaged)."""
    try:
        return AttemptResult.model_validate_json((directory / RESULT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class TrajectoryWriter:
    """Appends one JSON object per line and flushes each, so an interrupted attempt keeps its trail."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def __enter__(self) -> TrajectoryWriter:
        self._file = open(self.path, "a", encoding="utf-8")
        return self

    def write(self, kind: str, **fields: Any) -> None:
        assert self._file is not None, "use TrajectoryWriter as a context manager"
        fields.setdefault("t", 0.0)
        fields["t"] = round(fields["t"], 4)
        self._file.write(json.dumps({"kind": kind, **fields}, default=str, ensure_ascii=False) + "\n")
        self._file.flush()

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_trajectory(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
