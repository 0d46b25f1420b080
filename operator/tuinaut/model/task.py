"""A benchmark task, as described by ``benchmark/apps/<app>/tasks/<task>/task.yaml``.

Key paths (reference, near misses) are written compactly, one step per item::

    - type: "hello world"
    - press: enter            # or a list: press: [down, down, enter]
    - wait: 300               # or {ms: 2000, until: "Saved"} (stops early once the text shows)
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from .actions import ACTION_ADAPTER, Action, SubmitAction
from .app import NAME_PATTERN
from .assertions import Assertion
from .base import Spec


class Fixture(Spec):
    """A file or directory placed in the sandbox before the init script runs."""

    path: str = Field(description="Absolute sandbox path, or relative to HOME (~/ allowed). Ends with / for a directory.")
    content: str | None = Field(None, description="Text content.")
    source: str | None = Field(None, description="File next to task.yaml to copy instead of content.")
    mode: str | None = Field(None, pattern=r"^0?[0-7]{3}$", description="Octal permissions, e.g. '0755'.")

    @model_validator(mode="after")
    def _one_source(self):  # type: ignore[no-untyped-def]
        if self.content is not None and self.source is not None:
            raise ValueError("give 'content' or 'source', not both")
        return self


def expand_steps(steps: Any) -> list[dict]:
    """Turn the compact step list into action dicts (``press: [a, b]`` becomes two presses)."""
    if not isinstance(steps, list):
        raise ValueError("a key path is a list of steps")
    actions: list[dict] = []
    for index, step in enumerate(steps):
        if isinstance(step, str) and step == "submit":
            actions.append({"action": "submit"})
            continue
        if isinstance(step, dict) and "action" in step:
            actions.append(step)  # already in action form (e.g. a re-validated dump)
            continue
        if not isinstance(step, dict) or len(step) != 1:
            raise ValueError(f"step {index}: each step has exactly one of type, press, wait, submit; got {step!r}")
        (verb, value), = step.items()
        if verb == "type":
            actions.append({"action": "type", "text": str(value)})
        elif verb == "press":
            for key in value if isinstance(value, list) else [value]:
                actions.append({"action": "press", "key": str(key)})
        elif verb == "wait":
            actions.append({"action": "wait", **(value if isinstance(value, dict) else {"ms": value})})
        elif verb == "submit":
            actions.append({"action": "submit"})
        else:
            raise ValueError(f"step {index}: unknown verb {verb!r} (type, press, wait, submit)")
    return actions


def _validate_path(steps: Any) -> list[Action]:
    actions = []
    for index, raw in enumerate(expand_steps(steps)):
        try:
            actions.append(ACTION_ADAPTER.validate_python(raw))
        except ValidationError as exc:  # pydantic's message names the reason; add which step
            raise ValueError(f"step {index} ({raw.get('action')}): {exc.errors()[0]['msg']}") from None
    if actions and isinstance(actions[-1], SubmitAction):
        actions.pop()  # submit is implicit at the end of every path
    if any(isinstance(a, SubmitAction) for a in actions):
        raise ValueError("submit may only be the last step")
    return actions


class NearMiss(Spec):
    """A plausible wrong path (wrong file, unsaved edit...) that verification must reject."""

    name: str
    path: list[Action]

    @field_validator("path", mode="before")
    @classmethod
    def _steps(cls, value: Any) -> list[Action]:
        return _validate_path(value)


class Task(Spec):
    """One user goal in one app, with its setup, its oracle and a known-good key path."""

    id: str = Field(pattern=NAME_PATTERN, description="Short id, also the directory name.")
    description: str = Field(min_length=1, description="What the user wants, in words; no key hints.")
    difficulty: Literal["easy", "medium", "hard"]
    type: Literal["navigate", "create", "edit", "delete", "query"]
    fingerprints: list[str] = Field(default_factory=list, description="Names usable as {{fp.NAME}}.")
    launch: str | None = Field(None, description="Overrides the app's launch command for this task.")
    init: str = Field("", description="Shell script run in the sandbox before the TUI starts.")
    fixtures: list[Fixture] = Field(default_factory=list)
    assertions: list[Assertion] = Field(min_length=1)
    reference: list[Action] = Field(min_length=1, description="A known-good key path; submit is implicit.")
    near_misses: list[NearMiss] = Field(default_factory=list)
    time_limit_s: float = Field(300.0, gt=0, description="Wall-clock limit for one attempt.")

    @field_validator("reference", mode="before")
    @classmethod
    def _reference_steps(cls, value: Any) -> list[Action]:
        return _validate_path(value)

    @field_validator("fingerprints")
    @classmethod
    def _fingerprint_names(cls, names: list[str]) -> list[str]:
        for name in names:
            if not name.replace("_", "").replace("-", "").isalnum():
                raise ValueError(f"fingerprint name {name!r}: letters, digits, '-' and '_' only")
        if len(set(names)) != len(names):
            raise ValueError("fingerprint names must be unique")
        return names
