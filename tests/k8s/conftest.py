"""Fixtures for the real-cluster tests: the cluster from ../shared/k8s (started by scripts/k8s-stage.sh),
a namespace per test, the CRDs, the operator running in-process, and a test that plays the kubelet."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from k8s_helpers import BENCHMARK, K8S_HOME, wait_for


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "node: needs the full node (kubelet, containerd): Pods really run")


@pytest.fixture(scope="session")
def kube() -> Any:
    from tuinaut.k8s.api import Credentials, Kube, KubeError
    from tuinaut.k8s.crd import all_crds

    kubeconfig = os.environ.get("TUINAUT_KUBECONFIG") or str(K8S_HOME / "run" / "admin.kubeconfig")
    required = bool(os.environ.get("TUINAUT_K8S_REQUIRED"))
    try:
        client = Kube(Credentials.load(kubeconfig), retries=1, timeout_s=5)
        client.request("GET", "/readyz", raw=True)
    except Exception as exc:  # no cluster here: these tests belong to scripts/k8s-stage.sh
        if required:
            raise
        pytest.skip(f"no cluster at {kubeconfig} ({exc}); run scripts/k8s-stage.sh")
    client = Kube(Credentials.load(kubeconfig))
    for crd in all_crds().values():
        path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
        if client.create(path, crd) is None:
            current = client.get(f"{path}/{crd['metadata']['name']}")
            crd = {**crd, "metadata": {**crd["metadata"], "resourceVersion": current["metadata"]["resourceVersion"]}}
            client.request("PUT", f"{path}/{crd['metadata']['name']}", crd)

    def established() -> bool:
        for name in ("evaluations.tuinaut.dev", "attempts.tuinaut.dev"):
            crd = client.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}") or {}
            conditions = {c["type"]: c["status"] for c in (crd.get("status") or {}).get("conditions", [])}
            if conditions.get("Established") != "True":
                return False
        try:
            client.list(client.custom("evaluations", "default"))
        except KubeError:
            return False
        return True

    wait_for(established, 30, "the CRDs to be served")
    return client


@pytest.fixture
def namespace(kube: Any) -> Iterator[str]:
    name = f"t-{secrets.token_hex(4)}"
    kube.create("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    yield name
    kube.delete(f"/api/v1/namespaces/{name}")


class OperatorRunner:
    """The operator in a thread, as `tuinaut operator` runs it; stop() and start() again mid-test."""

    def __init__(self, settings: Any, credentials: Any) -> None:
        self.settings = settings
        self.credentials = credentials
        self._thread: threading.Thread | None = None
        self._stop: threading.Event | None = None
        self.errors: list[BaseException] = []

    def start(self) -> None:
        from tuinaut.k8s.handlers import run_operator

        stop, ready = threading.Event(), threading.Event()

        def target() -> None:
            try:
                run_operator(self.settings, self.credentials, stop_flag=stop, ready_flag=ready)
            except BaseException as exc:  # surfaced by the test through self.errors
                self.errors.append(exc)

        self._stop = stop
        self._thread = threading.Thread(target=target, name="operator", daemon=True)
        self._thread.start()
        wait_for(lambda: ready.is_set() or self.errors, 30, "the operator to start")
        assert not self.errors, self.errors

    def stop(self) -> None:
        if self._thread is not None and self._stop is not None:
            self._stop.set()
            self._thread.join(timeout=30)
            assert not self._thread.is_alive(), "the operator did not stop"
            self._thread = None


@pytest.fixture
def operator_factory(kube: Any) -> Iterator[Callable[..., OperatorRunner]]:
    from tuinaut.k8s.settings import ControllerSettings, ImageSettings, OperatorSettings, PodSettings

    runners: list[OperatorRunner] = []

    def make(namespace: str, *, results_host_path: str | None = None, resync_s: float = 2.0) -> OperatorRunner:
        settings = OperatorSettings(
            benchmark=BENCHMARK,
            images=ImageSettings(agent=os.environ.get("TUINAUT_AGENT_IMAGE", "localhost/tuinaut-agent:latest")),
            pods=PodSettings(results_host_path=results_host_path),
            controller=ControllerSettings(resync_s=resync_s, namespaces=[namespace]),
        )
        runner = OperatorRunner(settings, kube.credentials)
        runners.append(runner)
        return runner

    yield make
    for runner in runners:
        runner.stop()
