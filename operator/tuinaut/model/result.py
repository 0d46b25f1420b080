"""What an attempt leaves behind: trajectory events (JSONL) and one result (JSON). Versioned."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from .base import Record

SCHEMA_VERSION = 1

Outcome = Literal["passed", "failed", "infra_error"]

# Stop reasons: why the actor loop ended. The infra ones are kept out of success rates and retried.
TASK_STOP_REASONS = ("submitted", "tui_exited", "max_turns", "time_limit", "invalid_actions", "token_budget")
INFRA_STOP_REASONS = ("tui_never_rendered", "init_failed", "sandbox_error", "endpoint_unavailable", "harness_error", "interrupted")


class KeyEvent(Record):
    """One key delivered to the TUI."""

    t: float = Field(description="Seconds since the first rendered screen (monotonic clock).")
    key: str
    key_class: str
    physical: int = Field(description="Key-down events under the physical rule.")


class TrajectoryEvent(Record):
    """One line of trajectory.jsonl. ``kind`` says which fields follow."""

    kind: Literal["header", "observation", "action", "invalid_action", "model_turn", "tui_exited", "stop"]
    t: float = 0.0


class AssertionVerdict(Record):
    type: str
    description: str = ""
    passed: bool
    evidence: str = Field("", description="What was seen: matched text, exit code, file excerpt, error.")


class KeyCosts(Record):
    """Operation cost of one attempt."""

    ake: int = 0
    ake_physical: int = 0
    by_class: dict[str, int] = Field(default_factory=lambda: {"printable": 0, "navigation": 0, "deletion": 0, "control": 0})
    sequence: list[str] = Field(default_factory=list, description="Key names in the order delivered.")
    class_sequence: list[str] = Field(default_factory=list, description="Key classes, consecutive repeats collapsed.")


class TokenCosts(Record):
    """Interpretation cost of an LLM attempt (zeros for other actors)."""

    prompt: int = 0
    completion: int = 0
    cached: int = 0
    reasoning: int = 0
    reasoning_estimated: bool = False
    cost_usd: float | None = None


class AttemptResult(Record):
    schema_version: int = SCHEMA_VERSION
    attempt_id: str
    app: str
    task: str
    agent: str
    agent_kind: str
    repeat: int
    participant: str | None = None
    outcome: Outcome
    passed: bool
    stop_reason: str
    error: str | None = Field(None, description="For infrastructure errors: what went wrong.")
    assertions: list[AssertionVerdict] = Field(default_factory=list)
    keys: KeyCosts = Field(default_factory=KeyCosts)
    tokens: TokenCosts = Field(default_factory=TokenCosts)
    turns: int = 0
    invalid_actions: int = 0
    duration_s: float = Field(0.0, description="Whole attempt: provision to verification.")
    interaction_s: float = Field(0.0, description="First rendered screen to submit or stop.")
    started_at: datetime | None = None
    finished_at: datetime | None = None
    fingerprints: dict[str, str] = Field(default_factory=dict)
    infra_attempts: int = Field(1, description="Tries it took, counting retried infrastructure failures.")

    def summary_row(self) -> dict[str, Any]:
        """The compact row kept in summary.json (field set fixed by the result format)."""
        return {
            "task": f"{self.app}/{self.task}",
            "agent": self.agent,
            "repeat": self.repeat,
            "passed": self.passed,
            "outcome": self.outcome,
            "stop_reason": self.stop_reason,
            "ake": self.keys.ake,
            "ake_physical": self.keys.ake_physical,
            "ake_by_class": dict(self.keys.by_class),
            "reasoning_tokens": self.tokens.reasoning,
            "turns": self.turns,
            "duration_s": round(self.duration_s, 3),
        }
