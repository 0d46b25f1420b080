"""Read run directories into flat attempt records: the only module here that touches result files.

Each attempt's ``result.json`` (an ``AttemptResult``) is the primary source because it carries the
key sequences that trajectory similarity needs; ``summary.json`` is read only when a run has no
per-attempt results (for example an export that kept the compact rows alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from ..errors import ConfigError
from ..model.result import AttemptResult
from ..terminal.keys import KeyNameError, classify

KEY_CLASSES = ("printable", "navigation", "deletion", "control")


@dataclass(frozen=True)
class Attempt:
    """One attempt, flattened to what the statistics read."""

    run: str
    app: str
    task: str
    agent: str
    agent_kind: str
    repeat: int
    outcome: str
    passed: bool
    participant: str | None = None
    ake: int = 0
    ake_physical: int = 0
    by_class: dict[str, int] = field(default_factory=dict)
    sequence: tuple[str, ...] = ()
    class_sequence: tuple[str, ...] = ()
    reasoning_tokens: int = 0
    interaction_s: float = 0.0
    duration_s: float = 0.0
    turns: int = 0

    @property
    def task_id(self) -> str:
        return f"{self.app}/{self.task}"

    @property
    def is_human(self) -> bool:
        return self.agent_kind == "human"

    @property
    def counted(self) -> bool:
        """Infrastructure errors say nothing about the TUI: they are kept out of every measure."""
        return self.outcome != "infra_error"

    @property
    def unit(self) -> str:
        """The resampling unit inside a task: a participant for humans, a run for agents."""
        if self.is_human and self.participant:
            return self.participant
        return f"r{self.repeat}"


def class_sequence(keys: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Key classes with consecutive repeats collapsed (the fixed rule), via the shared classifier."""
    out: list[str] = []
    for name in keys:
        try:
            cls = classify(name).value
        except KeyNameError:
            cls = "control"  # a name outside the vocabulary can only have been a command key
        if not out or out[-1] != cls:
            out.append(cls)
    return tuple(out)


def from_result(result: AttemptResult, run: str) -> Attempt:
    """Flatten one result; recomputes the class sequence when an older writer left it empty."""
    seq = tuple(result.keys.sequence)
    classes = tuple(result.keys.class_sequence) or class_sequence(seq)
    return Attempt(
        run=run, app=result.app, task=result.task, agent=result.agent, agent_kind=result.agent_kind,
        repeat=result.repeat, outcome=result.outcome, passed=result.passed, participant=result.participant,
        ake=result.keys.ake, ake_physical=result.keys.ake_physical,
        by_class={k: int(result.keys.by_class.get(k, 0)) for k in KEY_CLASSES},
        sequence=seq, class_sequence=classes, reasoning_tokens=result.tokens.reasoning,
        interaction_s=result.interaction_s, duration_s=result.duration_s, turns=result.turns,
    )


def _from_summary_row(row: dict, run: str) -> Attempt:
    app, _, task = str(row["task"]).partition("/")
    by_class = row.get("ake_by_class") or {}
    return Attempt(
        run=run, app=app, task=task, agent=str(row["agent"]), agent_kind=str(row.get("agent_kind", "llm")),
        repeat=int(row.get("repeat", 0)), outcome=str(row.get("outcome", "passed" if row.get("passed") else "failed")),
        passed=bool(row.get("passed")), ake=int(row.get("ake", 0)), ake_physical=int(row.get("ake_physical", 0)),
        by_class={k: int(by_class.get(k, 0)) for k in KEY_CLASSES},
        reasoning_tokens=int(row.get("reasoning_tokens", 0)), duration_s=float(row.get("duration_s", 0.0)),
        turns=int(row.get("turns", 0)),
    )


def load_run(path: str | Path, label: str | None = None) -> list[Attempt]:
    """All attempts of one run directory, sorted so every later computation is deterministic."""
    root = Path(path)
    if not root.is_dir():
        raise ConfigError("not a run directory (expected <run>/attempts/... or <run>/summary.json)", file=root)
    run = label or root.resolve().name
    attempts: list[Attempt] = []
    for file in sorted((root / "attempts").glob("**/result.json")):
        try:
            attempts.append(from_result(AttemptResult.model_validate_json(file.read_text()), run))
        except (ValidationError, ValueError) as exc:
            raise ConfigError(f"not a valid attempt result: {exc}", file=file) from exc
    if not attempts and (root / "summary.json").is_file():
        try:
            rows = json.loads((root / "summary.json").read_text()).get("attempts", [])
            attempts = [_from_summary_row(row, run) for row in rows]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ConfigError(f"unreadable summary: {exc}", file=root / "summary.json") from exc
    return sorted(attempts, key=lambda a: (a.app, a.task, a.agent, a.participant or "", a.repeat))


def load_runs(paths: list[str | Path]) -> list[list[Attempt]]:
    """One attempt list per run; labels made unique when two runs share a directory name."""
    labels: list[str] = []
    for p in paths:
        name = Path(p).resolve().name
        labels.append(name if name not in labels else f"{name}#{len(labels) + 1}")
    return [load_run(p, label) for p, label in zip(paths, labels)]
