"""Actors: who sits in the user's seat. See ``base`` for the protocol."""

from .base import Actor, ActorContext, Decision, Observation, StopAttempt, create_actor, register

__all__ = ["Actor", "ActorContext", "Decision", "Observation", "StopAttempt", "create_actor", "register"]
