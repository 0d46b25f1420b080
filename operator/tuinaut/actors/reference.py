"""The reference actor replays a known-good key path (the task's, or a near-miss for soundness checks)."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Action, SubmitAction
from .base import ActorContext, Decision, Observation, register


class ScriptedActor:
    needs_observation = True

    def __init__(self, path: Sequence[Action]) -> None:
        self._steps = list(path)
        self._next = 0

    def act(self, observation: Observation) -> Decision:
        if self._next >= len(self._steps):
            return Decision(SubmitAction())
        action = self._steps[self._next]
        self._next += 1
        return Decision(action)

    def close(self) -> None:
        pass


@register("reference")
def _factory(context: ActorContext) -> ScriptedActor:
    return ScriptedActor(context.package.task.reference)
