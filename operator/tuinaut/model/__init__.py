"""Pydantic models for everything TUINaut reads (apps, tasks, evaluations) and writes (results)."""

from .actions import ACTION_ADAPTER, Action, PressAction, SubmitAction, TypeAction, WaitAction
from .app import App
from .assertions import PRIMITIVES, Assertion
from .evaluation import API_VERSION, AgentConfig, Evaluation, EvaluationSpec, Limits
from .result import AssertionVerdict, AttemptResult, KeyCosts, KeyEvent, TokenCosts, TrajectoryEvent
from .task import Fixture, NearMiss, Task

__all__ = [
    "ACTION_ADAPTER",
    "API_VERSION",
    "PRIMITIVES",
    "Action",
    "AgentConfig",
    "App",
    "Assertion",
    "AssertionVerdict",
    "AttemptResult",
    "Evaluation",
    "EvaluationSpec",
    "Fixture",
    "KeyCosts",
    "KeyEvent",
    "Limits",
    "NearMiss",
    "PressAction",
    "SubmitAction",
    "Task",
    "TokenCosts",
    "TrajectoryEvent",
    "TypeAction",
    "WaitAction",
]
