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
from conftest import BENCHMARK

kmock = pytest.importorskip("kmock")

from tuinaut.k8s.api import Credentials, Kube  # noqa: E402
from tuinaut.k8s.controller import Controller  # noqa: E402
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
    assert stored == {p.name for p in planned}
    posts = emulator.call(lambda: [r for r in emulator.server if r.method.upper() == "POST" and "/attempts" in str(r.url)])
    assert len(posts) == len(planned) + 1  # one retry for the fault, never a duplicate
    patches = emulator.call(lambda: [r for r in emulator.server
                                     if r.method.upper() == "PATCH" and "/evaluations/starter/status" in str(r.url)])
    assert len(patches) == 3  # two answered 503, the third stored; the second reconcile changed nothing
    status = kube.get(kube.custom("evaluations", NS, "starter"))["status"]
    assert status["phase"] == "Running" and status["counts"]["created"] == 3 and status["counts"]["total"] == 3
