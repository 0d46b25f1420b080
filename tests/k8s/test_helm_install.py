"""`helm install` of charts/tuinaut on the real single-node cluster: the operator runs as a Pod under
the chart's ServiceAccount and RBAC (a missing verb is a failure), processes the starter Evaluation,
and its /metrics, read through the API server's Service proxy, shows the series the dashboard uses.

Needs (scripts/k8s-stage.sh provides them): the full node, the images loaded into it — operator
($TUINAUT_OPERATOR_IMAGE), agent ($TUINAUT_AGENT_IMAGE), the starter apps (nano, mc, htop) — and
.venv-helm (charts/tools/setup-helm-venv.sh; made on first use).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import secrets
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tuinaut.k8s import LABEL_ATTEMPT
from tuinaut.k8s.resources import EvaluationStatus

pytestmark = [pytest.mark.k8s, pytest.mark.node]

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "charts" / "tuinaut"
TOOLS = REPO / "charts" / "tools"
STARTER = REPO / "benchmark" / "evaluations" / "starter.yaml"
K8S_HOME = Path(os.environ.get("K8S_HOME", Path.home() / ".cache" / "tuinaut-k8s"))
KUBECONFIG = os.environ.get("TUINAUT_KUBECONFIG") or str(K8S_HOME / "run" / "admin.kubeconfig")
RELEASE = "tuinaut"
ALLOWED_LABELS = {"namespace", "evaluation", "app", "task", "agent", "outcome", "le"}
EVALUATION_TIMEOUT_S = float(os.environ.get("TUINAUT_HELM_E2E_TIMEOUT", 1800))


def _need(what: str, detail: str) -> None:
    if os.environ.get("TUINAUT_K8S_REQUIRED"):
        pytest.fail(f"{what}: {detail}")
    pytest.skip(f"{what}: {detail}; run scripts/k8s-stage.sh")


@pytest.fixture(scope="module")
def admin() -> Any:
    from tuinaut.k8s.api import Credentials, Kube

    try:
        client = Kube(Credentials.load(KUBECONFIG), retries=1, timeout_s=5)
        client.request("GET", "/readyz", raw=True)
        nodes = client.list("/api/v1/nodes")
    except Exception as exc:  # reason: no cluster here; these tests belong to scripts/k8s-stage.sh
        _need("no cluster", f"{KUBECONFIG}: {exc}")
    if not nodes:
        _need("no node", "the control plane runs without a node (NO_NODE): Pods would never run")
    return Kube(Credentials.load(KUBECONFIG))


@pytest.fixture(scope="module")
def helm_python() -> Path:
    subprocess.run([str(TOOLS / "setup-helm-venv.sh")], check=True, timeout=900)
    return REPO / ".venv-helm" / "bin" / "python"


def helm(helm_python: Path, tmp_path: Path, *args: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
    command = [str(helm_python), str(TOOLS / "helm_engine.py"), *args, "--kubeconfig", KUBECONFIG]
    if values is not None:
        (tmp_path / "values.json").write_text(json.dumps(values))
        command += ["--values", str(tmp_path / "values.json")]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=900)
    out = json.loads(proc.stdout) if proc.stdout.strip() else {"error": proc.stderr[-3000:]}
    assert proc.returncode == 0, f"helm {args[0]} failed: {out.get('error')}"
    return out


def free_port() -> int:
    """A port free on this machine: with hostNetwork the operator's metrics port is the node's."""
    with socket.socket() as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


def image(variable: str) -> tuple[str, str]:
    ref = os.environ.get(variable)
    if not ref:
        _need(f"${variable} is not set", "the stage builds this image and loads it into the node")
    repository, _, tag = ref.rpartition(":")
    return repository, tag


def wait_for(condition: Any, timeout_s: float, what: str, poll_s: float = 2.0, explain: Any = None) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f}s waiting for {what}"
                                 + (f"\n{explain()}" if explain else ""))
        time.sleep(poll_s)


@pytest.fixture(scope="module")
def images() -> dict[str, tuple[str, str]]:
    """(repository, tag) of the operator and agent images the stage built and loaded."""
    return {"operator": image("TUINAUT_OPERATOR_IMAGE"), "agent": image("TUINAUT_AGENT_IMAGE")}


@pytest.fixture
def namespaces(admin: Any) -> Iterator[tuple[str, str]]:
    """(release namespace, Evaluation namespace); both deleted afterwards."""
    suffix = secrets.token_hex(3)
    release_ns, evaluation_ns = f"tuinaut-{suffix}", f"helm-{suffix}"
    admin.create("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": evaluation_ns}})
    yield release_ns, evaluation_ns
    for name in (evaluation_ns, release_ns):
        admin.delete(f"/api/v1/namespaces/{name}")


def test_helm_install_runs_the_starter_evaluation_and_serves_its_metrics(
        admin: Any, images: dict[str, tuple[str, str]], helm_python: Path, namespaces: tuple[str, str],
        tmp_path: Path) -> None:
    release_ns, evaluation_ns = namespaces
    (repository, tag), (agent_repository, agent_tag) = images["operator"], images["agent"]
    values = {
        "image": {"repository": repository, "tag": tag, "pullPolicy": "Never"},
        # The test cluster has no kube-proxy: the operator reaches the API server on the host network.
        "hostNetwork": True,
        "extraEnv": [{"name": "KUBERNETES_SERVICE_HOST", "value": "127.0.0.1"},
                     {"name": "KUBERNETES_SERVICE_PORT", "value": "6443"}],
        # Namespaced (a Role): other tests of the stage run operators of their own in other namespaces.
        "operator": {"watchNamespaces": [evaluation_ns], "agentImage": f"{agent_repository}:{agent_tag}",
                     "resyncSeconds": 5},
        "metrics": {"port": free_port()},
    }
    helm(helm_python, tmp_path, "install", str(CHART), "--name", RELEASE, "--namespace", release_ns, values=values)
    try:
        _check_release(admin, release_ns, evaluation_ns)
    finally:
        helm(helm_python, tmp_path, "uninstall", "--name", RELEASE, "--namespace", release_ns)


def _operator_pod(admin: Any, release_ns: str) -> dict[str, Any]:
    pods = admin.list(admin.core("pods", release_ns), {"app.kubernetes.io/instance": RELEASE,
                                                       "app.kubernetes.io/component": "operator"})
    assert len(pods) == 1, [p["metadata"]["name"] for p in pods]
    return pods[0]


def _operator_log(admin: Any, release_ns: str) -> str:
    pod = _operator_pod(admin, release_ns)
    return admin.request("GET", admin.core("pods", release_ns, pod["metadata"]["name"], "log"),
                         raw=True).decode(errors="replace")


def _check_release(admin: Any, release_ns: str, evaluation_ns: str) -> None:
    pod = _operator_pod(admin, release_ns)
    assert pod["spec"]["serviceAccountName"] == RELEASE and pod["spec"]["hostNetwork"] is True
    assert pod["status"]["phase"] == "Running"

    starter = yaml.safe_load(STARTER.read_text())
    starter["metadata"]["namespace"] = evaluation_ns
    name = starter["metadata"]["name"]
    admin.create(admin.custom("evaluations", evaluation_ns), starter)

    def status() -> EvaluationStatus:
        body = admin.get(admin.custom("evaluations", evaluation_ns, name)) or {}
        return EvaluationStatus.model_validate(body.get("status") or {})

    def finished() -> EvaluationStatus | None:
        current = status()
        return current if current.phase in ("Completed", "Failed") else None

    def explain() -> str:
        return f"status: {status().dump()}\noperator log (tail):\n{_operator_log(admin, release_ns)[-4000:]}"

    final = wait_for(finished, EVALUATION_TIMEOUT_S, f"Evaluation {evaluation_ns}/{name} to finish", explain=explain)
    counts = final.counts
    assert final.phase == "Completed", explain()
    # The operator expands the Evaluation with the benchmark baked into its image: one row per task x
    # agent, each with spec.repeats attempts, every task one of the starter's selectors.
    repeats, selectors = starter["spec"]["repeats"], starter["spec"]["tasks"]
    assert final.summary and counts.total == len(final.summary) * repeats, explain()
    assert all(row.attempts == repeats and any(fnmatch.fnmatchcase(row.task, s) for s in selectors)
               for row in final.summary), explain()
    assert counts.passed + counts.failed + counts.infra_error == counts.total, explain()
    assert counts.passed >= 1, explain()  # reference paths: the starter tasks are meant to pass

    # RBAC: everything the operator did went through; a missing verb would be a 403 in its log
    # (or missing objects: the Attempts, their Pods, the Events it posts).
    log = _operator_log(admin, release_ns)
    assert not re.search(r"HTTP 403|Forbidden|forbidden", log), log[-4000:]
    assert len(admin.list(admin.custom("attempts", evaluation_ns))) == counts.total
    pods = admin.list(admin.core("pods", evaluation_ns))
    assert pods and all(LABEL_ATTEMPT in (p["metadata"].get("labels") or {}) for p in pods)
    events = admin.list(admin.core("events", evaluation_ns))
    posted = [e for e in events
              if "tuinaut-operator" in (e.get("reportingComponent"), (e.get("source") or {}).get("component"))]
    assert posted, [e.get("reason") for e in events]
    assert _operator_pod(admin, release_ns)["status"]["containerStatuses"][0]["restartCount"] == 0

    # /metrics through the API server's Service proxy (the traffic stays on this machine).
    service = f"{RELEASE}-metrics"
    text = admin.request("GET", f"/api/v1/namespaces/{release_ns}/services/{service}:8080/proxy/metrics",
                         raw=True).decode()
    samples = [s for family in text_string_to_metric_families(text) for s in family.samples
               if s.name.startswith("tuinaut_")]
    ours = [s for s in samples if s.labels.get("namespace") == evaluation_ns and s.labels.get("evaluation") == name]
    assert ours, text[:3000]
    for sample in samples:
        assert set(sample.labels) <= ALLOWED_LABELS, sample
    assert "-r1" not in text and "pod" not in {k for s in samples for k in s.labels}  # no Attempt/Pod names

    def total(metric: str, **labels: str) -> float:
        return sum(s.value for s in ours if s.name == metric and all(s.labels.get(k) == v for k, v in labels.items()))

    assert total("tuinaut_attempts_total", outcome="passed") == counts.passed, text
    assert total("tuinaut_attempts_total", outcome="failed") == counts.failed, text
    assert total("tuinaut_attempts_total", outcome="infra_error") == counts.infra_error, text
    assert total("tuinaut_attempt_duration_seconds_count") == counts.total
    assert total("tuinaut_attempt_atomic_key_events_count") == counts.passed + counts.failed
    assert total("tuinaut_attempt_atomic_key_events_sum") > 0
    assert total("tuinaut_attempts_running") == 0
    assert total("tuinaut_infra_retries_total") <= counts.infra_failures
    assert not [s for s in ours if s.name.startswith("tuinaut_attempt_reasoning_tokens")]  # reference agent: none
    last = total("tuinaut_evaluation_last_completion_timestamp_seconds")
    assert time.time() - 3600 < last <= time.time() + 5

    # The success ratio per task and agent is the one in the Evaluation's status.
    ratios = {(s.labels["app"], s.labels["task"], s.labels["agent"]): s.value
              for s in ours if s.name == "tuinaut_evaluation_success_ratio"}
    expected = {(*row.task.split("/"), row.agent): row.passed / row.judged for row in final.summary if row.judged}
    assert ratios == pytest.approx(expected), (ratios, expected)
    assert len(ratios) == len(final.summary)  # every task x agent
