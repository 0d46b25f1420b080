"""The custom resources' shapes as pydantic models: the CRD schemas are generated from them.

An Evaluation's spec is the very ``EvaluationSpec`` the local executor reads. An Attempt is one
task x agent x repeat of an Evaluation; its status holds the compact result the agent sidecar
reported. Statuses are bounded: an Evaluation never lists its Attempts, only counts and one row
per task x agent.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..model.base import Spec
from ..model.evaluation import DNS_LABEL, AgentConfig, Limits

EvaluationPhase = Literal["Pending", "Running", "Suspended", "Completed", "Failed"]
AttemptPhase = Literal["Pending", "Running", "Passed", "Failed", "InfraError", "Stopped"]
FINAL_ATTEMPT_PHASES = ("Passed", "Failed", "InfraError", "Stopped")


class Condition(Spec):
    """A standard Kubernetes condition."""

    type: str
    status: Literal["True", "False", "Unknown"]
    reason: str = Field(pattern=r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")
    message: str = ""
    last_transition_time: str = Field(description="RFC 3339 time the status last changed.")
    observed_generation: int | None = Field(None, ge=0)


class AttemptSpecResource(Spec):
    """spec of an Attempt: everything its Pod needs, copied from the Evaluation when it was fanned out."""

    evaluation: str = Field(pattern=DNS_LABEL, max_length=63, description="The owning Evaluation.")
    task: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$", description="'app/task'.")
    agent: AgentConfig
    repeat: int = Field(ge=1, description="Repeat number, from 1.")
    limits: Limits = Field(default_factory=Limits)
    stop: bool = Field(False, description="Set by the Evaluation to stop this Attempt (failure budget spent).")


class AssertionStatus(Spec):
    type: str
    description: str = ""
    passed: bool
    evidence: str = ""


class AttemptResultStatus(Spec):
    """The compact result an agent sidecar writes to its termination message (fits in 4 KiB)."""

    outcome: Literal["passed", "failed", "infra_error"]
    passed: bool
    stop_reason: str
    error: str | None = None
    assertions: list[AssertionStatus] = Field(default_factory=list)
    turns: int = Field(0, ge=0)
    invalid_actions: int = Field(0, ge=0)
    ake: int = Field(0, ge=0, description="Atomic key events, default rule.")
    ake_physical: int = Field(0, ge=0, description="Atomic key events, physical rule.")
    ake_by_class: dict[str, int] = Field(default_factory=dict)
    reasoning_tokens: int = Field(0, ge=0)
    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    duration_s: float = Field(0.0, ge=0)
    interaction_s: float = Field(0.0, ge=0)
    trajectory: str | None = Field(None, description="Where the full trajectory is (results volume path).")


class AttemptStatus(Spec):
    phase: AttemptPhase = "Pending"
    tries: int = Field(0, ge=0, description="Pods started for this Attempt.")
    infra_failures: int = Field(0, ge=0, description="Tries that ended in an infrastructure failure.")
    last_infra_reason: str | None = None
    last_infra_message: str | None = None
    pod_name: str | None = None
    start_time: str | None = None
    completion_time: str | None = None
    result: AttemptResultStatus | None = None
    conditions: list[Condition] = Field(default_factory=list)
    observed_generation: int | None = None


class Counts(Spec):
    total: int = Field(0, ge=0, description="Attempts the Evaluation expands to.")
    created: int = Field(0, ge=0)
    pending: int = Field(0, ge=0)
    running: int = Field(0, ge=0)
    passed: int = Field(0, ge=0)
    failed: int = Field(0, ge=0)
    infra_error: int = Field(0, ge=0, description="Attempts that exhausted their infrastructure retries.")
    stopped: int = Field(0, ge=0)
    infra_failures: int = Field(0, ge=0, description="Infrastructure failures of every try, retried ones included.")


class SummaryRow(Spec):
    """One task x agent: attempts, how many passed, success rate and median costs of the judged ones."""

    task: str
    agent: str
    attempts: int = Field(0, ge=0)
    judged: int = Field(0, ge=0, description="Attempts with a verdict (passed or failed), infra errors excluded.")
    passed: int = Field(0, ge=0)
    success_rate: float | None = Field(None, ge=0, le=1)
    median_ake: float | None = None
    median_reasoning_tokens: float | None = None
    infra_errors: int = Field(0, ge=0)


class EvaluationStatus(Spec):
    phase: EvaluationPhase = "Pending"
    counts: Counts = Field(default_factory=Counts)
    summary: list[SummaryRow] = Field(default_factory=list)
    start_time: str | None = None
    completion_time: str | None = None
    conditions: list[Condition] = Field(default_factory=list)
    observed_generation: int | None = None
