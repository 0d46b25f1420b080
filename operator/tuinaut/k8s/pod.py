"""The Pod of one Attempt try: the app container (the TUI's own image, tmux server) and the agent sidecar.

Both run as uid 1000 without a service-account token and share ``/run/tuinaut`` (emptyDir): the
tmux socket, the tmux configuration and the control files of hidden windows. The agent gets its
work as JSON in ``TUINAUT_ATTEMPT``, the API key from a Secret, writes the full trajectory under
``/results`` and the compact result to its termination message.
"""

from __future__ import annotations

import json
from typing import Any

from ..catalog import TaskPackage
from ..sandbox.base import SANDBOX_HOME, SANDBOX_PATH, SANDBOX_UID, SANDBOX_USER
from ..sandbox.pod import RUN_DIR
from . import API_VERSION, LABEL_AGENT, LABEL_APP, LABEL_ATTEMPT, LABEL_EVALUATION, LABEL_TASK, LABEL_TRY
from .images import app_image
from .resources import AttemptSpecResource
from .settings import OperatorSettings

RESULTS_DIR = "/results"
_RESTRICTED = {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}, "runAsNonRoot": True,
               "runAsUser": SANDBOX_UID, "runAsGroup": SANDBOX_UID}


def pod_name(attempt: str, try_number: int) -> str:
    return f"{attempt}-t{try_number}"


def results_subpath(namespace: str, evaluation: str, attempt: str, try_number: int) -> str:
    return f"{namespace}/{evaluation}/{attempt}/t{try_number}"


def build_pod(attempt: dict[str, Any], try_number: int, package: TaskPackage, settings: OperatorSettings) -> dict[str, Any]:
    meta = attempt["metadata"]
    name, namespace = meta["name"], meta["namespace"]
    spec = AttemptSpecResource.model_validate(attempt["spec"])
    agent = spec.agent
    limits = spec.limits
    app = package.app
    work = {"attempt": name, "evaluation": spec.evaluation, "task": spec.task, "repeat": spec.repeat,
            "try": try_number, "agent": agent.dump(), "limits": limits.dump()}
    results = f"{RESULTS_DIR}/{results_subpath(namespace, spec.evaluation, name, try_number)}"
    agent_env: list[dict[str, Any]] = [
        {"name": "TUINAUT_ATTEMPT", "value": json.dumps(work, separators=(",", ":"))},
        {"name": "TUINAUT_RESULTS", "value": results},
    ]
    if agent.api_key_secret is not None:
        agent_env.append({"name": agent.api_key_env, "valueFrom": {"secretKeyRef": {
            "name": agent.api_key_secret.name, "key": agent.api_key_secret.key}}})
    app_env = [{"name": k, "value": v} for k, v in {
        "HOME": SANDBOX_HOME, "USER": SANDBOX_USER, "LOGNAME": SANDBOX_USER, "PATH": SANDBOX_PATH,
        "TERM": "xterm-256color", "LANG": "C.UTF-8", "SHELL": "/bin/sh", "TUINAUT_RUN": RUN_DIR}.items()]
    run_mount = {"name": "run", "mountPath": RUN_DIR}
    results_volume: dict[str, Any] = {"name": "results", "emptyDir": {}}
    if settings.pods.results_host_path:
        results_volume = {"name": "results", "hostPath": {"path": settings.pods.results_host_path, "type": "Directory"}}
    labels = {LABEL_EVALUATION: spec.evaluation, LABEL_ATTEMPT: name, LABEL_APP: app.name,
              LABEL_TASK: package.task.id[:63], LABEL_AGENT: agent.name, LABEL_TRY: str(try_number)}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": pod_name(name, try_number),
            "namespace": namespace,
            "labels": labels,
            "ownerReferences": [{"apiVersion": API_VERSION, "kind": "Attempt", "name": name, "uid": meta["uid"],
                                 "controller": True, "blockOwnerDeletion": True}],
        },
        "spec": {
            "restartPolicy": "Never",
            "automountServiceAccountToken": False,
            "enableServiceLinks": False,
            "activeDeadlineSeconds": int(limits.attempt_timeout_s) + settings.pods.deadline_margin_s,
            "terminationGracePeriodSeconds": settings.pods.termination_grace_s,
            "securityContext": {"runAsNonRoot": True, "runAsUser": SANDBOX_UID, "runAsGroup": SANDBOX_UID,
                                "fsGroup": SANDBOX_UID},
            "volumes": [{"name": "run", "emptyDir": {}}, results_volume],
            "containers": [
                {
                    "name": "app",
                    "image": app_image(app, settings.images),
                    "imagePullPolicy": settings.images.pull_policy,
                    "command": ["/usr/local/bin/tuinaut-app"],
                    "workingDir": SANDBOX_HOME,
                    "env": app_env + [{"name": k, "value": v} for k, v in app.env.items()],
                    "volumeMounts": [run_mount],
                    "securityContext": _RESTRICTED,
                },
                {
                    "name": "agent",
                    "image": settings.images.agent,
                    "imagePullPolicy": settings.images.pull_policy,
                    "command": ["tuinaut", "pod", "agent"],
                    "env": agent_env,
                    "volumeMounts": [run_mount, {"name": "results", "mountPath": RESULTS_DIR}],
                    "securityContext": _RESTRICTED,
                    "terminationMessagePath": "/dev/termination-log",
                    "terminationMessagePolicy": "File",
                },
            ],
        },
    }
