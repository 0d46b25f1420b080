"""kopf wiring: watch Evaluations, Attempts and attempt Pods; every event reconciles its object.

Only ``on.event`` handlers and a resync thread: kopf then stores nothing on the objects (no
progress annotations, no finalizers), so deleting an Evaluation is plain garbage collection and a
restarted operator rebuilds everything from the API server.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

import kopf

from . import ATTEMPTS, EVALUATIONS, GROUP, LABEL_ATTEMPT, LABEL_EVALUATION, VERSION
from .api import Credentials, Kube, KubeError
from .controller import Controller
from .settings import OperatorSettings

log = logging.getLogger("tuinaut.operator")


def build_registry(controller: Controller, credentials: Credentials,
                   configure: Callable[[kopf.OperatorSettings], None] | None = None) -> kopf.OperatorRegistry:
    """Handlers bound to ``controller``; ``configure`` may adjust kopf's settings after ours (tests)."""
    registry = kopf.OperatorRegistry()
    stop_resync = threading.Event()

    @kopf.on.login(registry=registry)
    def login(**_: Any) -> kopf.ConnectionInfo:
        return kopf.ConnectionInfo(server=credentials.server, ca_path=credentials.ca_path,
                                   certificate_path=credentials.cert_path, private_key_path=credentials.key_path,
                                   token=credentials.token, insecure=credentials.insecure or None)

    @kopf.on.startup(registry=registry)
    def startup(settings: kopf.OperatorSettings, **_: Any) -> None:
        settings.peering.standalone = True
        settings.posting.level = logging.WARNING
        settings.watching.server_timeout = 120
        settings.watching.client_timeout = 150
        settings.execution.max_workers = 8
        if configure is not None:
            configure(settings)
        stop_resync.clear()
        threading.Thread(target=_resync_loop, args=(controller, stop_resync), name="tuinaut-resync",
                         daemon=True).start()

    @kopf.on.cleanup(registry=registry)
    def cleanup(**_: Any) -> None:
        stop_resync.set()

    @kopf.on.event(GROUP, VERSION, EVALUATIONS, registry=registry)
    def evaluation_event(event: dict[str, Any], namespace: str, name: str, **_: Any) -> None:
        if event.get("type") != "DELETED":
            _guard(controller.reconcile_evaluation, namespace, name)

    @kopf.on.event(GROUP, VERSION, ATTEMPTS, registry=registry)
    def attempt_event(event: dict[str, Any], body: kopf.Body, namespace: str, name: str, **_: Any) -> None:
        if event.get("type") != "DELETED":
            _guard(controller.reconcile_attempt, namespace, name)
        evaluation = (body.get("metadata", {}).get("labels") or {}).get(LABEL_EVALUATION)
        if evaluation:
            _guard(controller.reconcile_evaluation, namespace, evaluation)

    @kopf.on.event("", "v1", "pods", labels={LABEL_ATTEMPT: kopf.PRESENT}, registry=registry)
    def pod_event(body: kopf.Body, namespace: str, **_: Any) -> None:
        attempt = (body.get("metadata", {}).get("labels") or {}).get(LABEL_ATTEMPT)
        if attempt:
            _guard(controller.reconcile_attempt, namespace, attempt)

    return registry


def _guard(fn: Any, namespace: str, name: str) -> None:
    """An API error in one reconcile must not end the watch: log it; the resync retries it."""
    try:
        fn(namespace, name)
    except KubeError as exc:
        log.warning("%s %s/%s: %s (retried at the next event or resync)", fn.__name__, namespace, name, exc)


def _resync_loop(controller: Controller, stop: threading.Event) -> None:
    while not stop.wait(controller.settings.controller.resync_s):
        try:
            controller.resync()
        except Exception:  # the loop must survive anything: the next round retries
            log.exception("resync failed")


def run_operator(settings: OperatorSettings, credentials: Credentials, *, stop_flag: Any = None,
                 ready_flag: Any = None, metrics: Any = None,
                 configure: Callable[[kopf.OperatorSettings], None] | None = None) -> None:
    """Run the operator in this thread until ``stop_flag`` is set (or forever)."""
    controller = Controller(Kube(credentials), settings, metrics)
    registry = build_registry(controller, credentials, configure)
    namespaces = settings.controller.namespaces
    asyncio.run(kopf.operator(registry=registry, standalone=True, clusterwide=not namespaces,
                              namespaces=namespaces, stop_flag=stop_flag, ready_flag=ready_flag))
