"""What happened to an Attempt's Pod: still going, a verdict, or an infrastructure failure.

Only infrastructure failures are retried (image pull, eviction, OOM kill, deadline, a lost Pod, the
model endpoint down, any harness error the agent reports); a failed oracle is the measurement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .message import decode
from .resources import AttemptResultStatus

IMAGE_PULL = {"ErrImagePull", "ImagePullBackOff", "ErrImageNeverPull", "InvalidImageName", "RegistryUnavailable"}
CONTAINER_CONFIG = {"CreateContainerConfigError", "CreateContainerError", "RunContainerError"}
AGENT = "agent"


@dataclass(frozen=True)
class PodVerdict:
    kind: Literal["pending", "running", "done", "infra"]
    reason: str = ""
    message: str = ""
    result: AttemptResultStatus | None = None

    @property
    def still_running(self) -> bool:
        return self.kind in ("pending", "running")


def _infra(reason: str, message: str, result: AttemptResultStatus | None = None) -> PodVerdict:
    return PodVerdict("infra", reason, message[:500], result)


def classify_pod(pod: dict[str, Any] | None) -> PodVerdict:
    if pod is None:
        return _infra("pod_lost", "the Pod is gone and reported no result")
    status = pod.get("status") or {}
    phase = status.get("phase", "Pending")
    reason = status.get("reason") or ""
    if reason == "Evicted":
        return _infra("evicted", status.get("message") or "the Pod was evicted")
    if reason == "DeadlineExceeded":
        return _infra("deadline", status.get("message") or "the Pod ran past activeDeadlineSeconds")
    containers = (status.get("initContainerStatuses") or []) + (status.get("containerStatuses") or [])
    for container in containers:
        state = container.get("state") or {}
        waiting = state.get("waiting") or {}
        terminated = state.get("terminated") or {}
        if waiting.get("reason") in IMAGE_PULL:
            return _infra("image_pull", f"{container.get('name')}: {waiting.get('reason')}: {waiting.get('message', '')}")
        if waiting.get("reason") in CONTAINER_CONFIG:
            return _infra("container_config", f"{container.get('name')}: {waiting.get('reason')}: "
                                              f"{waiting.get('message', '')}")
        if terminated.get("reason") == "OOMKilled":
            return _infra("oom_killed", f"{container.get('name')} was killed for running out of memory")
    agent = next((c for c in status.get("containerStatuses") or [] if c.get("name") == AGENT), None)
    terminated = ((agent or {}).get("state") or {}).get("terminated")
    if terminated:
        result = decode(terminated.get("message"))
        if result is None:
            return _infra("agent_crashed", f"the agent exited {terminated.get('exitCode')} "
                                           f"({terminated.get('reason', '')}) without a result")
        if result.outcome == "infra_error":
            return _infra(result.stop_reason, result.error or result.stop_reason, result)
        return PodVerdict("done", result.outcome, result.stop_reason, result)
    if pod.get("metadata", {}).get("deletionTimestamp"):
        return _infra("pod_deleted", "the Pod was deleted before it reported a result")
    if phase == "Failed":
        return _infra("pod_failed", status.get("message") or reason or "the Pod failed")
    if phase == "Succeeded":
        return _infra("agent_crashed", "the Pod finished without the agent's result")
    return PodVerdict("running" if phase == "Running" else "pending")
