"""The bounded status of an Evaluation: counts and one row per task x agent, never every Attempt."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from .plan import PlannedAttempt
from .resources import FINAL_ATTEMPT_PHASES, Condition, Counts, SummaryRow


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def is_final(attempt: dict[str, Any]) -> bool:
    return (attempt.get("status") or {}).get("phase") in FINAL_ATTEMPT_PHASES


def summarize(planned: list[PlannedAttempt], attempts: dict[str, dict[str, Any]]) -> tuple[Counts, list[SummaryRow]]:
    """Counts over the planned Attempts (those not created yet count as pending) and per task x agent rows."""
    counts = Counts(total=len(planned))
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for plan in planned:
        key = (plan.task, plan.spec.agent.name)
        row = rows.setdefault(key, {"attempts": 0, "passed": 0, "judged": 0, "infra": 0, "ake": [], "tokens": []})
        row["attempts"] += 1
        attempt = attempts.get(plan.name)
        if attempt is None:
            counts.pending += 1
            continue
        counts.created += 1
        status = attempt.get("status") or {}
        counts.infra_failures += int(status.get("infraFailures") or 0)
        phase = status.get("phase") or "Pending"
        if phase in ("Passed", "Failed"):
            result = status.get("result") or {}
            row["judged"] += 1
            row["ake"].append(result.get("ake", 0))
            row["tokens"].append(result.get("reasoningTokens", 0))
            if phase == "Passed":
                counts.passed += 1
                row["passed"] += 1
            else:
                counts.failed += 1
        elif phase == "InfraError":
            counts.infra_error += 1
            row["infra"] += 1
        elif phase == "Stopped":
            counts.stopped += 1
        elif phase == "Running":
            counts.running += 1
        else:
            counts.pending += 1
    summary = [
        SummaryRow(task=task, agent=agent, attempts=row["attempts"], judged=row["judged"], passed=row["passed"],
                   success_rate=round(row["passed"] / row["judged"], 4) if row["judged"] else None,
                   median_ake=_median(row["ake"]), median_reasoning_tokens=_median(row["tokens"]),
                   infra_errors=row["infra"])
        for (task, agent), row in sorted(rows.items())
    ]
    return counts, summary


def _median(values: list[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def set_condition(conditions: Iterable[dict[str, Any]], type_: str, status: str, reason: str, message: str,
                  generation: int | None) -> list[dict[str, Any]]:
    """Conditions with one of them set; lastTransitionTime moves only when its status changes."""
    result = [dict(c) for c in conditions if c.get("type") != type_]
    previous = next((c for c in conditions if c.get("type") == type_), None)
    since = previous["lastTransitionTime"] if previous and previous.get("status") == status else now()
    result.append(Condition(type=type_, status=status, reason=reason, message=message[:1000],
                            last_transition_time=since, observed_generation=generation).dump())
    return sorted(result, key=lambda c: c["type"])
