"""Helpers of the real-cluster tests: polling, and the test playing the kubelet (it writes Pod status
as a kubelet would) on a control plane without a node."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tuinaut.k8s.message import compact, encode
from tuinaut.model import AttemptResult
from tuinaut.model.result import AssertionVerdict, KeyCosts

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = Path(os.environ.get("TUINAUT_TEST_BENCHMARK", ROOT / "benchmark"))
K8S_HOME = Path(os.environ.get("K8S_HOME", Path.home() / ".cache" / "tuinaut-k8s"))

T = TypeVar("T")


def wait_for(condition: Callable[[], T], timeout_s: float = 30.0, what: str = "condition") -> T:
    """Poll until ``condition()`` is truthy; its value is returned."""
    deadline = time.monotonic() + timeout_s
    delay = 0.05
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f}s waiting for {what}")
        time.sleep(delay)
        delay = min(delay * 1.5, 0.5)


def agent_message(outcome: str = "passed", stop_reason: str = "submitted", ake: int = 5) -> str:
    passed = outcome == "passed"
    result = AttemptResult(attempt_id="x", app="nano", task="t", agent="reference", agent_kind="reference", repeat=1,
                           outcome=outcome, passed=passed, stop_reason=stop_reason,
                           error="endpoint down" if outcome == "infra_error" else None,
                           assertions=[AssertionVerdict(type="check_screen", passed=passed, evidence="seen")],
                           keys=KeyCosts(ake=ake, ake_physical=ake + 1), duration_s=1.5)
    return encode(compact(result, trajectory="/results/x/trajectory.jsonl"))


def _container(name: str, state: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "ready": False, "restartCount": 0, "image": f"{name}:test", "imageID": "", "state": state}


def set_pod_status(kube: Any, namespace: str, name: str, status: dict[str, Any]) -> None:
    kube.patch(kube.core("pods", namespace, name, "status"), {"status": status})


def run_pod(kube: Any, namespace: str, name: str) -> None:
    set_pod_status(kube, namespace, name, {"phase": "Running", "containerStatuses": [
        _container("app", {"running": {"startedAt": "2026-01-01T00:00:00Z"}}),
        _container("agent", {"running": {"startedAt": "2026-01-01T00:00:00Z"}})]})


def finish_pod(kube: Any, namespace: str, name: str, outcome: str = "passed", stop_reason: str = "submitted") -> None:
    done = {"exitCode": 0, "reason": "Completed", "startedAt": "2026-01-01T00:00:00Z",
            "finishedAt": "2026-01-01T00:00:09Z"}
    set_pod_status(kube, namespace, name, {"phase": "Succeeded", "containerStatuses": [
        _container("app", {"terminated": done}),
        _container("agent", {"terminated": {**done, "message": agent_message(outcome, stop_reason)}})]})


def evict_pod(kube: Any, namespace: str, name: str) -> None:
    set_pod_status(kube, namespace, name, {"phase": "Failed", "reason": "Evicted",
                                           "message": "The node was low on resource: memory."})


def oom_kill_pod(kube: Any, namespace: str, name: str) -> None:
    killed = {"exitCode": 137, "reason": "OOMKilled", "startedAt": "2026-01-01T00:00:00Z",
              "finishedAt": "2026-01-01T00:00:03Z"}
    set_pod_status(kube, namespace, name, {"phase": "Failed", "containerStatuses": [
        _container("app", {"terminated": killed}),
        _container("agent", {"terminated": {**killed, "exitCode": 143, "reason": "Error"}})]})
