"""An Evaluation object expanded into Attempts, with deterministic names (restart-safe fan-out).

The expansion is the local executor's own (``plan_evaluation``): the same tasks x agents x
repeats, in the same order, validated by the same loader with the same error messages.
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..attempt import AttemptSpec
from ..local.executor import RunPlan, plan_evaluation
from . import API_VERSION, LABEL_AGENT, LABEL_APP, LABEL_EVALUATION, LABEL_TASK

MAX_NAME = 56  # leaves room for a Pod suffix (-t<N>) inside a 63-character DNS label


@dataclass(frozen=True)
class PlannedAttempt:
    name: str
    spec: AttemptSpec

    @property
    def task(self) -> str:
        return self.spec.package.id


def attempt_name(evaluation: str, spec: AttemptSpec) -> str:
    """``<evaluation>-<app>-<task>-<agent>-r<N>``, shortened with a hash when too long; lower case."""
    app, task, agent = spec.package.app.name, spec.package.task.id, spec.agent.name
    full = f"{evaluation}-{app}-{task}-{agent}-r{spec.repeat}".lower().replace("_", "-").replace(".", "-")
    if len(full) <= MAX_NAME:
        return full
    digest = hashlib.sha256(f"{evaluation}/{app}/{task}/{agent}/{spec.repeat}".encode()).hexdigest()[:8]
    return f"{full[:MAX_NAME - 9].rstrip('-')}-{digest}"


def evaluation_document(body: dict[str, Any]) -> dict[str, Any]:
    """The Evaluation as a file: what a user applied, without server-side fields."""
    meta = body.get("metadata", {})
    return {"apiVersion": body.get("apiVersion", API_VERSION), "kind": body.get("kind", "Evaluation"),
            "metadata": {"name": meta.get("name"), **({"namespace": meta["namespace"]} if meta.get("namespace") else {})},
            "spec": body.get("spec", {})}


def plan_from_body(body: dict[str, Any], benchmark: Path) -> tuple[RunPlan, list[PlannedAttempt]]:
    """Expand an Evaluation object; a ConfigError names the field at fault."""
    with tempfile.TemporaryDirectory(prefix="tuinaut-eval-") as tmp:
        path = Path(tmp) / f"{body.get('metadata', {}).get('name', 'evaluation')}.yaml"
        path.write_text(yaml.safe_dump(evaluation_document(body)))
        plan = plan_evaluation(path, benchmark=benchmark)
    name = plan.evaluation.metadata.name
    return plan, [PlannedAttempt(attempt_name(name, spec), spec) for spec in plan.attempts]


def attempt_labels(evaluation: str, spec: AttemptSpec) -> dict[str, str]:
    return {LABEL_EVALUATION: evaluation, LABEL_APP: spec.package.app.name,
            LABEL_TASK: spec.package.task.id[:63], LABEL_AGENT: spec.agent.name}
