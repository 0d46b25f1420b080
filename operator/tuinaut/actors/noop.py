"""The noop actor submits at once: the baseline every sound task must fail."""

from __future__ import annotations

from ..model import SubmitAction
from .base import ActorContext, Decision, Observation, register


class NoopActor:
    needs_observation = True

    def act(self, observation: Observation) -> Decision:
        return Decision(SubmitAction())

    def close(self) -> None:
        pass


@register("noop")
def _factory(context: ActorContext) -> NoopActor:
    return NoopActor()
