"""summary.json and the per task x agent table shown at the end of a run."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..model import AttemptResult
from ..record import atomic_write


def write_summary(out: Path, evaluation: str, planned: int, results: Iterable[AttemptResult]) -> None:
    """summary.json: one row per finished attempt (agents' runs and human sessions alike)."""
    rows = sorted((r.summary_row() for r in results), key=lambda r: (r["task"], r["agent"], r["repeat"]))
    document = {"evaluation": evaluation, "planned": planned, "attempts": rows}
    atomic_write(out / "summary.json", json.dumps(document, indent=2))


@dataclass(frozen=True)
class GroupRow:
    task: str
    agent: str
    attempts: int
    passed: int
    infra_errors: int
    median_ake: float | None
    median_reasoning_tokens: float | None
    median_duration_s: float | None

    @property
    def success_rate(self) -> float | None:
        judged = self.attempts - self.infra_errors
        return self.passed / judged if judged else None


def group_rows(results: Iterable[AttemptResult]) -> list[GroupRow]:
    """One row per (task, agent); infrastructure errors are counted but kept out of rates and medians."""
    groups: dict[tuple[str, str], list[AttemptResult]] = defaultdict(list)
    for result in results:
        groups[(f"{result.app}/{result.task}", result.agent)].append(result)
    rows = []
    for (task, agent), items in sorted(groups.items()):
        judged = [r for r in items if r.outcome != "infra_error"]
        rows.append(GroupRow(
            task=task, agent=agent, attempts=len(items), passed=sum(r.passed for r in judged),
            infra_errors=len(items) - len(judged),
            median_ake=_median([r.keys.ake for r in judged]),
            median_reasoning_tokens=_median([r.tokens.reasoning for r in judged if r.agent_kind == "llm"]),
            median_duration_s=_median([r.duration_s for r in judged]),
        ))
    return rows


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None
