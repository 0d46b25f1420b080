"""End to end on the real node: the starter evaluation, applied as is, runs in real Pods.

The app containers come from images/apps/<app> and the agent sidecar from images/agent (built and
loaded by scripts/k8s-stage.sh). The verdicts must be those of a local run of the same tasks.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from k8s_helpers import BENCHMARK, K8S_HOME, wait_for

from tuinaut.k8s.results import pull_results
from tuinaut.local.executor import plan_evaluation, run_plan

pytestmark = [pytest.mark.k8s, pytest.mark.node]
STARTER = BENCHMARK / "evaluations" / "starter.yaml"


@pytest.fixture
def results_dir() -> Any:
    path = Path(f"/var/tmp/tuinaut-results-{secrets.token_hex(3)}")
    path.mkdir(mode=0o777)
    path.chmod(0o1777)  # the agent runs as uid 1000
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _local_verdicts(tmp_path: Path) -> dict[str, list[bool]]:
    """One local repeat of the starter tasks: per task, the verdict of each assertion."""
    plan = plan_evaluation(STARTER, benchmark=BENCHMARK)
    seen: set[str] = set()
    plan.attempts = [a for a in plan.attempts if not (a.package.id in seen or seen.add(a.package.id))]
    outcome = run_plan(plan, tmp_path / "local", parallel=2)
    return {f"{r.app}/{r.task}": [a.passed for a in r.assertions] for r in outcome.results}


def test_starter_runs_in_real_pods_with_the_local_verdicts(kube: Any, namespace: str, operator_factory: Any,
                                                          results_dir: Path, tmp_path: Path) -> None:
    local = _local_verdicts(tmp_path)
    expected = len(plan_evaluation(STARTER, benchmark=BENCHMARK).attempts)  # tasks x agents x repeats
    assert expected == 3 * len(local)
    started = time.monotonic()
    operator_factory(namespace, results_host_path=str(results_dir), resync_s=5).start()
    body = yaml.safe_load(STARTER.read_text())
    assert kube.create(kube.custom("evaluations", namespace), body) is not None

    def progress() -> dict | None:
        current = kube.get(kube.custom("evaluations", namespace, "starter")) or {}
        status = current.get("status") or {}
        running = (status.get("counts") or {}).get("running", 0)
        assert running <= body["spec"]["parallelism"]
        return current if status.get("phase") in ("Completed", "Failed") else None

    final = wait_for(progress, 900, "the starter evaluation to finish")
    elapsed = time.monotonic() - started
    status = final["status"]
    attempts = kube.list(kube.custom("attempts", namespace))
    report = {a["metadata"]["name"]: (a["status"]["phase"], a["status"].get("lastInfraMessage"),
                                      a["status"].get("result"))
              for a in attempts if a["status"]["phase"] != "Passed"}
    assert status["phase"] == "Completed", report
    assert status["counts"]["total"] == expected and status["counts"]["passed"] == expected, report
    assert status["counts"]["infraFailures"] == 0, report
    cluster: dict[str, list[list[bool]]] = {}
    for attempt in attempts:
        result = attempt["status"]["result"]
        assert result["stopReason"] == "submitted" and result["ake"] > 0
        cluster.setdefault(attempt["spec"]["task"], []).append([a["passed"] for a in result["assertions"]])
    for task, verdicts in local.items():
        assert cluster[task] == [verdicts] * 3, (task, cluster[task], verdicts)
    assert all(row["successRate"] == 1.0 and row["medianAke"] > 0 for row in status["summary"])

    # what `kubectl get evaluations` shows (printer columns), through the real kubectl when it is here
    kubectl = shutil.which("kubectl")
    if kubectl:
        shown = subprocess.run([kubectl, "--kubeconfig", str(K8S_HOME / "run" / "admin.kubeconfig"), "-n", namespace,
                                "get", "evaluations"], capture_output=True, text=True, check=True).stdout
        assert shown.split("\n")[1].split()[:4] == ["starter", "Completed", str(expected), str(expected)], shown

    # the full trajectories outlive the Pods
    for pod in kube.list(kube.core("pods", namespace)):
        kube.delete(kube.core("pods", namespace, pod["metadata"]["name"]))
    wait_for(lambda: not [p for p in kube.list(kube.core("pods", namespace))], 120, "the pods to go")
    pulled = pull_results(kube, namespace, "starter", tmp_path / "pulled",
                          image=os.environ.get("TUINAUT_AGENT_IMAGE", "localhost/tuinaut-agent:latest"),
                          host_path=str(results_dir))
    assert len(pulled) == expected
    assert all((path.parent / "trajectory.jsonl").stat().st_size > 0 for path in pulled)
    print(f"starter on the cluster: {expected} attempts in {elapsed:.0f}s")
