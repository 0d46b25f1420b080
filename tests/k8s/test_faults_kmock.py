"""Faults a real API server will not produce on demand, from kmock's Kubernetes emulator (by kopf's
author): a create that fails with 500 after it was stored (the retry meets 409), and status patches
that fail with 500 before they succeed. The controller must end with exactly the planned Attempts,
each created once, and with its status written."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from k8s_helpers import BENCHMARK

kmock = pytest.importorskip("kmock")

from tuinaut.k8s.api import Credentials, Kube  # noqa: E402
from tuinaut.k8s.controller import Controller, attempt_object  # noqa: E402
from tuinaut.k8s.plan import plan_from_body  # noqa: E402
from tuinaut.k8s.settings import OperatorSettings  # noqa: E402

NS = "faults"
ATTEMPTS = kmock.resource("tuinaut.dev", "v1alpha1", "attempts")
EVALUATIONS = kmock.resource("tuinaut.dev", "v1alpha1", "evaluations")


class Emulator:
    """kmock's emulator served from its own event loop in a thread, for the synchronous controller."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.url = ""
        self.server: Any = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        async with kmock.KubernetesEmulator() as server, kmock.Server(server) as http:
            self.server, self.url = server, str(http.url).rstrip("/")
            self.ready.set()
            await self._stop.wait()

    def __enter__(self) -> Emulator:
        self._thread.start()
        assert self.ready.wait(10), "kmock did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._stop is not None
        self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def call(self, fn: Any) -> Any:
        """Run ``fn()`` on the emulator's loop (its DSL is not thread-safe)."""
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)


class FirstN:
    """A request criterion true for the first ``n`` matching requests only (then kmock's emulator answers)."""

    def __init__(self, n: int, method: str, path_part: str) -> None:
        self.left, self.method, self.path_part, self.hits = n, method, path_part, 0

    def __call__(self, request: Any) -> bool:
        if request.method.upper() != self.method or self.path_part not in str(request.url):
            return False
        self.hits += 1
        if self.left > 0:
            self.left -= 1
            return True
        return False


@pytest.fixture
def emulator() -> Iterator[Emulator]:
    with Emulator() as emulator:
        yield emulator


def test_500_after_store_then_409_and_flaky_status_patches(emulator: Emulator) -> None:
    body = yaml.safe_load((BENCHMARK / "evaluations" / "starter.yaml").read_text())
    body["metadata"].update(namespace=NS, uid="uid-starter", generation=1)
    body["spec"].update(tasks=["nano/*"], repeats=1, parallelism=3)
    _, planned = plan_from_body(body, BENCHMARK)
    create_faults = FirstN(1, "POST", "/attempts")
    status_faults = FirstN(2, "PATCH", "/evaluations/starter/status")

    def script() -> None:
        server = emulator.server
        server.resources["tuinaut.dev/v1alpha1/evaluations"] = {"kind": "Evaluation", "namespaced": True}
        server.resources["tuinaut.dev/v1alpha1/attempts"] = {"kind": "Attempt", "namespaced": True}
        server.resources["v1/events"] = {"kind": "Event", "namespaced": True}
        server.objects[EVALUATIONS, NS, "starter"] = body
        server[create_faults] << 500
        server[status_faults] << 503

    emulator.call(script)
    kube = Kube(Credentials(server=emulator.url), retries=4, timeout_s=10)
    controller = Controller(kube, OperatorSettings(benchmark=BENCHMARK))
    controller.reconcile_evaluation(NS, "starter")
    controller.reconcile_evaluation(NS, "starter")  # a second event: nothing new may be created

    assert create_faults.hits >= 2 and create_faults.left == 0  # the 500 happened, the retry met a 409
    assert status_faults.left == 0  # both 503s were answered by retrying
    stored = {a["metadata"]["name"] for a in kube.list(kube.custom("attempts", NS))}
    assert stored == {p.name for p in planned[:3]}  # parallelism 3: the first three, once each
    posts = emulator.call(lambda: [r for r in emulator.server if r.method.upper() == "POST" and "/attempts" in str(r.url)])
    assert len(posts) == 3 + 1  # one retry for the fault, never a duplicate
    patches = emulator.call(lambda: [r for r in emulator.server
                                     if r.method.upper() == "PATCH" and "/evaluations/starter/status" in str(r.url)])
    assert len(patches) == 3  # two answered 503, the third stored; the second reconcile changed nothing
    status = kube.get(kube.custom("evaluations", NS, "starter"))["status"]
    assert status["phase"] == "Running" and status["counts"]["created"] == 3
    assert status["counts"]["total"] == len(planned)


def _no_namespace_scan(settings: Any) -> None:
    settings.scanning.disabled = True  # the emulator lists no namespaces: serve the one given


def test_operator_recovers_from_410_gone_and_dropped_watch_streams(emulator: Emulator) -> None:
    """kopf against the emulator: the first watch of Pods answers 410 Gone and the first watch of Attempts
    is cut off at once; the operator must re-list, watch again, and still act on a later Pod change
    (with resync disabled, only the watch can deliver it)."""
    from k8s_helpers import finish_pod, wait_for

    from tuinaut.k8s.handlers import run_operator
    from tuinaut.k8s.settings import ControllerSettings

    body = yaml.safe_load((BENCHMARK / "evaluations" / "starter.yaml").read_text())
    body["metadata"].update(namespace=NS, uid="uid-starter", generation=1)
    body["spec"].update(tasks=["nano/write-note"], repeats=1, parallelism=1)
    _, planned = plan_from_body(body, BENCHMARK)
    adopted = attempt_object(body, planned[0])  # made by an earlier operator: this one meets a 409 and adopts it
    adopted["metadata"]["uid"] = "uid-attempt"
    gone = FirstN(1, "GET", "/pods?")
    dropped = FirstN(1, "GET", "/attempts?")

    def script() -> None:
        server = emulator.server
        for resource, kind in (("tuinaut.dev/v1alpha1/evaluations", "Evaluation"), ("v1/pods", "Pod"),
                               ("tuinaut.dev/v1alpha1/attempts", "Attempt"), ("v1/events", "Event")):
            server.resources[resource] = {"kind": kind, "namespaced": True, "subresources": {"status"},
                                          "verbs": {"get", "list", "watch", "create", "patch", "delete"}}
            server.resources["v1/namespaces"] = {"kind": "Namespace", "namespaced": False, "verbs": {"get", "list", "watch"}}
        server.objects[EVALUATIONS, NS, "starter"] = body
        server.objects[ATTEMPTS, NS, adopted["metadata"]["name"]] = adopted
        server[kmock.action.WATCH][gone] << {"type": "ERROR", "object": {
            "kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 410, "reason": "Expired",
            "message": "too old resource version: 1 (2)"}}
        server[kmock.action.WATCH][dropped] << b""

    emulator.call(script)
    settings = OperatorSettings(benchmark=BENCHMARK, controller=ControllerSettings(resync_s=3600, namespaces=[NS]))
    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(target=run_operator, args=(settings, Credentials(server=emulator.url)),
                              kwargs={"stop_flag": stop, "ready_flag": ready, "configure": _no_namespace_scan},
                              daemon=True)
    thread.start()
    kube = Kube(Credentials(server=emulator.url))
    try:
        pod = wait_for(lambda: kube.list(kube.core("pods", NS)), 30, "the attempt's pod")[0]
        wait_for(lambda: gone.left == 0 and dropped.left == 0 and gone.hits >= 2 and dropped.hits >= 2, 30,
                 "the watches to be answered badly once and made again")
        finish_pod(kube, NS, pod["metadata"]["name"])
        attempt = wait_for(lambda: (a := kube.get(kube.custom("attempts", NS, pod["metadata"]["labels"]["tuinaut.dev/attempt"])))
                           and (a.get("status") or {}).get("phase") == "Passed" and a, 30, "the attempt to pass")
        assert attempt["status"]["result"]["ake"] == 5
    finally:
        stop.set()
        thread.join(30)
