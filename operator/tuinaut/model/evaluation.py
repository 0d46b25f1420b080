"""The Evaluation: one file format for the local executor and the Kubernetes custom resource."""

from __future__ import annotations

import fnmatch
from typing import Literal

from pydantic import Field, field_validator, model_validator

from .base import Spec

API_VERSION = "tuinaut.dev/v1alpha1"
DNS_LABEL = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"


class Metadata(Spec):
    """The part of Kubernetes object metadata an Evaluation file carries."""

    model_config = Spec.model_config | {"extra": "allow"}  # the API server adds uid, resourceVersion, ...

    name: str = Field(pattern=DNS_LABEL, max_length=63)
    namespace: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)


class AgentConfig(Spec):
    """One actor configuration. ``name`` labels its results; ``kind`` picks the actor."""

    name: str = Field(pattern=DNS_LABEL, max_length=40, description="Label for results and metrics.")
    kind: Literal["reference", "noop", "llm", "human"] = Field(description="Which actor drives the TUI.")


class Limits(Spec):
    """Bounds on one attempt and on retries."""

    max_turns: int = Field(100, ge=1, le=10000, description="Actions an actor may take before the attempt stops.")
    attempt_timeout_s: float = Field(600.0, gt=0, description="Wall-clock limit for one attempt (a task's own may be lower).")
    max_consecutive_invalid: int = Field(5, ge=1, le=1000, description="Invalid actions in a row that end an attempt.")
    infra_retries: int = Field(2, ge=0, le=20, description="Retries of an attempt that failed for infrastructure reasons.")


class EvaluationSpec(Spec):
    """What to run: tasks x agents x repeats."""

    tasks: list[str] = Field(min_length=1, description="Task selectors 'app/task', shell-style globs allowed ('nano/*').")
    agents: list[AgentConfig] = Field(min_length=1)
    repeats: int = Field(1, ge=1, le=1000, description="Attempts per task and agent.")
    parallelism: int = Field(1, ge=1, le=1000, description="Attempts running at once.")
    limits: Limits = Field(default_factory=Limits)
    suspend: bool = Field(False, description="Cluster only: stop starting new attempts.")

    @field_validator("tasks")
    @classmethod
    def _selectors(cls, selectors: list[str]) -> list[str]:
        for selector in selectors:
            if selector.count("/") != 1:
                raise ValueError(f"task selector {selector!r} must look like 'app/task' (globs allowed)")
        return selectors

    @model_validator(mode="after")
    def _unique_agents(self):  # type: ignore[no-untyped-def]
        names = [agent.name for agent in self.agents]
        if len(set(names)) != len(names):
            raise ValueError(f"agent names must be unique, got {names}")
        return self

    def selects(self, app: str, task: str) -> bool:
        return any(fnmatch.fnmatchcase(f"{app}/{task}", selector) for selector in self.tasks)


class Evaluation(Spec):
    """The whole document, shaped like a Kubernetes object."""

    api_version: Literal["tuinaut.dev/v1alpha1"] = Field(alias="apiVersion")
    kind: Literal["Evaluation"]
    metadata: Metadata
    spec: EvaluationSpec
