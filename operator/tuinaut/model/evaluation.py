"""The Evaluation: one file format for the local executor and the Kubernetes custom resource."""

from __future__ import annotations

import fnmatch
from typing import Any, Literal

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


class SecretKeyRef(Spec):
    """A key inside a Kubernetes Secret (cluster only): where the model API key comes from there."""

    name: str = Field(description="Secret name, in the Evaluation's namespace.")
    key: str = Field(description="Key inside the Secret whose value is the API key.")


class AgentConfig(Spec):
    """One actor configuration. ``name`` labels its results; ``kind`` picks the actor.

    The remaining fields configure ``kind: llm`` (ignored by other kinds). They are flat scalars on
    purpose: the same class becomes the custom resource schema, where unions of objects are awkward.
    """

    name: str = Field(pattern=DNS_LABEL, max_length=40, description="Label for results and metrics.")
    kind: Literal["reference", "noop", "llm", "human"] = Field(description="Which actor drives the TUI.")

    # -- endpoint
    model: str | None = Field(None, min_length=1, description="Model name sent to the endpoint (required for kind llm).")
    base_url: str | None = Field(None, alias="baseURL",
                                 description="OpenAI-compatible endpoint, e.g. https://api.deepseek.com/v1; "
                                             "unset means the openai client's default.")
    api_key_env: str = Field("OPENAI_API_KEY", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                             description="Environment variable holding the API key (local executor).")
    api_key_secret: SecretKeyRef | None = Field(None, description="Secret holding the API key (cluster).")
    timeout_s: float = Field(120.0, gt=0, description="Seconds one model request may take before it is retried.")
    retries: int = Field(5, ge=0, le=50, description="Retries of one request on timeouts, connection errors, 429 and 5xx.")
    retry_initial_delay_s: float = Field(1.0, ge=0, description="First backoff delay; doubles per retry, with jitter.")
    retry_max_delay_s: float = Field(60.0, ge=0, description="Upper bound for one backoff delay, Retry-After included.")

    # -- sampling
    observation: Literal["plain", "semantic", "image"] = Field(
        "plain", description="What the model sees each turn: text, text with style tags, or a PNG.")
    temperature: float | None = Field(None, ge=0, le=2, description="Sampling temperature; unset = endpoint default.")
    max_tokens: int | None = Field(None, ge=1, description="Completion token cap per turn (reasoning included).")
    reasoning_effort: str | None = Field(None, description="Sent as reasoning_effort (e.g. low, medium, high).")
    extra_body: dict[str, Any] | None = Field(None, description="Merged into every request body as is, e.g. "
                                                                "{thinking: {type: enabled}} for DeepSeek.")

    # -- budgets
    max_turns: int | None = Field(None, ge=1, le=10000, description="Overrides limits.maxTurns for this agent.")
    time_budget_s: float | None = Field(None, gt=0, description="Wall-clock seconds this agent may spend per attempt.")
    token_budget: int | None = Field(None, ge=1, description="Prompt + completion tokens per attempt; the attempt "
                                                             "stops with token_budget once spent.")
    price_input_per_mtok: float | None = Field(None, ge=0, description="USD per million prompt tokens, for cost.")
    price_cached_input_per_mtok: float | None = Field(None, ge=0, description="USD per million cached prompt tokens "
                                                                             "(defaults to the input price).")
    price_output_per_mtok: float | None = Field(None, ge=0, description="USD per million completion tokens.")

    # -- context window
    keep_last_observations: int | None = Field(None, ge=1, description="Keep only the last K screens in the "
                                                                       "conversation (older ones become a one-line "
                                                                       "note); unset keeps them all.")
    keep_last_images: int = Field(1, ge=1, description="Screenshots kept in the conversation (image mode).")
    image_font_size: int = Field(16, ge=6, le=64, description="Font size in pixels for image observations.")

    @model_validator(mode="after")
    def _llm_needs_model(self):  # type: ignore[no-untyped-def]
        if self.kind == "llm" and not self.model:
            raise ValueError(f"agent {self.name!r}: kind llm needs 'model' (the name the endpoint knows)")
        return self


class Limits(Spec):
    """Bounds on one attempt and on retries."""

    max_turns: int = Field(100, ge=1, le=10000, description="Actions an actor may take before the attempt stops.")
    attempt_timeout_s: float = Field(600.0, gt=0, description="Wall-clock limit for one attempt (a task's own may be lower).")
    max_consecutive_invalid: int = Field(5, ge=1, le=1000, description="Invalid actions in a row that end an attempt.")
    infra_retries: int = Field(2, ge=0, le=20, description="Retries of an attempt that failed for infrastructure reasons.")
    infra_failure_budget: int | None = Field(None, ge=1, description="Cluster only: infrastructure failures (retries "
                                             "included) after which the Evaluation fails and its running Attempts stop.")


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
