"""The actor protocol: every actor (reference, noop, llm, human) is one small object.

The attempt loop shows an actor an ``Observation`` (the settled screen and feedback about its last
action) and gets back a ``Decision``: one of the four actions, or an invalid reply. The actor never
sees files, processes or oracle results: only what a user in the seat would see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..catalog import TaskPackage
from ..model import Action, AgentConfig
from ..model.evaluation import Limits
from ..model.result import TokenCosts
from ..terminal.snapshot import Snapshot


@dataclass(frozen=True)
class Observation:
    snapshot: Snapshot
    turn: int
    elapsed_s: float
    feedback: str | None = None  # e.g. why the previous reply was invalid; None when all went well


@dataclass
class Decision:
    """An actor's answer for one turn. ``action`` is None for an invalid reply."""

    action: Action | None
    raw: str | None = None
    invalid_reason: str | None = None
    tokens: TokenCosts | None = None  # this turn's usage (LLM actors)
    reasoning: str | None = None  # reasoning text, stored in the trajectory only
    extra: dict[str, Any] = field(default_factory=dict)


class StopAttempt(Exception):
    """Raised by an actor to end the attempt as a task outcome (e.g. its token budget is spent)."""

    def __init__(self, reason: str, message: str = "") -> None:
        self.reason = reason
        super().__init__(message or reason)


class Actor(Protocol):
    #: False for actors that watch the pane themselves (the human): the loop then skips settling.
    needs_observation: bool

    def act(self, observation: Observation) -> Decision: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class ActorContext:
    """What an actor factory may use. An actor shows the task's description, never its oracle."""

    agent: AgentConfig
    package: TaskPackage
    limits: Limits
    participant: str | None = None


ActorFactory = Callable[[ActorContext], Actor]
_REGISTRY: dict[str, ActorFactory] = {}


def register(kind: str) -> Callable[[ActorFactory], ActorFactory]:
    """Register a factory for an agent ``kind`` (the Evaluation's ``agents[].kind``)."""

    def decorate(factory: ActorFactory) -> ActorFactory:
        _REGISTRY[kind] = factory
        return factory

    return decorate


def create_actor(context: ActorContext) -> Actor:
    from . import noop, reference  # noqa: F401  (registration side effect)
    try:
        from . import llm  # noqa: F401
    except ImportError:
        pass  # the llm actor is optional until its module exists
    kind = context.agent.kind
    if kind not in _REGISTRY:
        raise KeyError(f"no actor registered for kind {kind!r} (known: {', '.join(sorted(_REGISTRY))})")
    return _REGISTRY[kind](context)
