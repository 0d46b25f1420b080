"""Controller behaviour against a real API server (control plane only: the test plays the kubelet)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from k8s_helpers import evict_pod, finish_pod, oom_kill_pod, run_pod, wait_for

from tuinaut.k8s.api import KubeError

pytestmark = pytest.mark.k8s
NANO = ["nano/fix-typo", "nano/show-help", "nano/write-note"]  # fixed: the benchmark grows


def evaluation(name: str, tasks: list[str], *, repeats: int = 1, parallelism: int = 1, **limits: Any) -> dict:
    return {"apiVersion": "tuinaut.dev/v1alpha1", "kind": "Evaluation", "metadata": {"name": name},
            "spec": {"tasks": tasks, "agents": [{"name": "reference", "kind": "reference"}], "repeats": repeats,
                     "parallelism": parallelism, "limits": {"attemptTimeoutS": 60, **limits}}}


def apply(kube: Any, namespace: str, body: dict) -> dict:
    created = kube.create(kube.custom("evaluations", namespace), body)
    assert created is not None
    return created


def get_eval(kube: Any, namespace: str, name: str) -> dict:
    return kube.get(kube.custom("evaluations", namespace, name)) or {}


def attempts(kube: Any, namespace: str) -> dict[str, dict]:
    return {a["metadata"]["name"]: a for a in kube.list(kube.custom("attempts", namespace))}


def pods(kube: Any, namespace: str) -> dict[str, dict]:
    return {p["metadata"]["name"]: p for p in kube.list(kube.core("pods", namespace))}


def phase_of(obj: dict) -> str | None:
    return (obj.get("status") or {}).get("phase")


def pending_pods(kube: Any, namespace: str) -> list[str]:
    return sorted(name for name, pod in pods(kube, namespace).items() if phase_of(pod) in (None, "Pending"))


def test_crd_validation_rejects_a_bad_evaluation_with_a_clear_message(kube: Any, namespace: str) -> None:
    bad = evaluation("bad", ["nano"], repeats=0)
    bad["spec"]["agents"][0]["kind"] = "robot"
    with pytest.raises(KubeError) as caught:
        kube.create(kube.custom("evaluations", namespace), bad)
    assert caught.value.status == 422
    message = caught.value.message
    assert 'kind: Unsupported value: "robot"' in message  # 1.20 says spec.agents.kind, newer ones index it
    assert '"reference", "noop", "llm", "human"' in message
    assert "spec.repeats" in message and "greater than or equal to 1" in message
    assert "spec.tasks" in message and "should match '^[^/]+/[^/]+$'" in message
    no_agents = evaluation("bad2", [*NANO])
    no_agents["spec"]["agents"] = []
    with pytest.raises(KubeError, match="spec.agents"):
        kube.create(kube.custom("evaluations", namespace), no_agents)


def test_an_unknown_task_fails_the_evaluation_with_the_reason(kube: Any, namespace: str, operator_factory: Any) -> None:
    operator_factory(namespace).start()
    apply(kube, namespace, evaluation("typo", ["nano/no-such-task"]))
    body = wait_for(lambda: phase_of(e := get_eval(kube, namespace, "typo")) == "Failed" and e, 30, "Failed")
    failed = next(c for c in body["status"]["conditions"] if c["type"] == "Failed")
    assert failed["reason"] == "InvalidSpec" and "nano/no-such-task" in failed["message"] and "matches no task" in failed["message"]
    assert attempts(kube, namespace) == {}


def test_parallelism_is_respected_and_status_fills(kube: Any, namespace: str, operator_factory: Any) -> None:
    operator_factory(namespace).start()
    apply(kube, namespace, evaluation("par", [*NANO], repeats=2, parallelism=2))
    finished = 0
    most_active = 0
    deadline = time.monotonic() + 120
    while finished < 6:
        assert time.monotonic() < deadline, "evaluation did not progress"
        listed = attempts(kube, namespace)
        active = [a for a in listed.values() if phase_of(a) not in ("Passed", "Failed", "InfraError", "Stopped")]
        most_active = max(most_active, len(active))
        assert len(active) <= 2, f"parallelism 2 exceeded: {sorted(listed)}"
        for name in pending_pods(kube, namespace):
            run_pod(kube, namespace, name)
            finish_pod(kube, namespace, name, outcome="passed" if finished % 3 else "failed")
            finished += 1
        time.sleep(0.2)
    body = wait_for(lambda: phase_of(e := get_eval(kube, namespace, "par")) == "Completed" and e, 60, "Completed")
    status = body["status"]
    assert most_active == 2
    assert status["counts"]["total"] == 6 and status["counts"]["passed"] == 4 and status["counts"]["failed"] == 2
    assert len(status["summary"]) == 3 and "attempts" not in status
    assert {row["task"] for row in status["summary"]} == {"nano/fix-typo", "nano/show-help", "nano/write-note"}
    assert status["completionTime"] and status["startTime"]
    complete = next(c for c in status["conditions"] if c["type"] == "Complete")
    assert complete["status"] == "True" and complete["observedGeneration"] == body["metadata"]["generation"]
    one = next(iter(attempts(kube, namespace).values()))
    assert one["status"]["result"]["ake"] == 5 and one["status"]["result"]["assertions"][0]["type"] == "check_screen"
    assert one["metadata"]["ownerReferences"][0]["kind"] == "Evaluation"


def test_evicted_and_oom_killed_pods_are_retried_but_a_failed_oracle_is_not(kube: Any, namespace: str,
                                                                              operator_factory: Any) -> None:
    operator_factory(namespace).start()
    apply(kube, namespace, evaluation("retry", ["nano/write-note"], repeats=3, parallelism=3, infraRetries=2))
    first = wait_for(lambda: len(p := pending_pods(kube, namespace)) == 3 and p, 30, "three pods")
    evict_pod(kube, namespace, first[0])
    oom_kill_pod(kube, namespace, first[1])
    finish_pod(kube, namespace, first[2], outcome="failed")
    retried = wait_for(lambda: len(p := pending_pods(kube, namespace)) == 2 and p, 30, "two retry pods")
    assert retried == sorted(name.replace("-t1", "-t2") for name in first[:2])
    for name in retried:
        finish_pod(kube, namespace, name)
    body = wait_for(lambda: phase_of(e := get_eval(kube, namespace, "retry")) == "Completed" and e, 30, "Completed")
    assert body["status"]["counts"] | {} == body["status"]["counts"]
    assert (body["status"]["counts"]["passed"], body["status"]["counts"]["failed"],
            body["status"]["counts"]["infraFailures"]) == (2, 1, 2)
    listed = attempts(kube, namespace)
    by_pod = {a["status"]["podName"]: a["status"] for a in listed.values()}
    assert by_pod[retried[0]]["lastInfraReason"] in ("evicted", "oom_killed")
    assert {by_pod[n]["lastInfraReason"] for n in retried} == {"evicted", "oom_killed"}
    assert all(by_pod[n]["tries"] == 2 and by_pod[n]["infraFailures"] == 1 for n in retried)
    failed = by_pod[first[2]]
    assert failed["phase"] == "Failed" and failed["tries"] == 1
    reasons = {e["reason"] for e in kube.list(kube.core("events", namespace))}
    assert {"InfraError", "Passed", "Failed", "Completed"} <= reasons


def test_failure_budget_fails_the_evaluation_and_stops_running_attempts(kube: Any, namespace: str,
                                                                         operator_factory: Any) -> None:
    operator_factory(namespace).start()
    apply(kube, namespace, evaluation("budget", [*NANO], repeats=2, parallelism=3, infraRetries=5,
                                      infraFailureBudget=2))
    first = wait_for(lambda: len(p := pending_pods(kube, namespace)) == 3 and p, 30, "three pods")
    evict_pod(kube, namespace, first[0])
    wait_for(lambda: f"{first[0][:-3]}-t2" in pods(kube, namespace), 30, "the retry")
    evict_pod(kube, namespace, f"{first[0][:-3]}-t2")
    body = wait_for(lambda: phase_of(e := get_eval(kube, namespace, "budget")) == "Failed" and e, 30, "Failed")
    condition = next(c for c in body["status"]["conditions"] if c["type"] == "Failed")
    assert condition["reason"] == "InfraFailureBudgetExceeded"
    wait_for(lambda: all(phase_of(a) == "Stopped" for a in attempts(kube, namespace).values()), 30, "all Stopped")
    wait_for(lambda: all(phase_of(p) in ("Failed",) for p in pods(kube, namespace).values()), 30,
             "running pods deleted")
    time.sleep(3)  # a few resyncs: nothing new may start
    assert len(attempts(kube, namespace)) == 3
    counts = get_eval(kube, namespace, "budget")["status"]["counts"]
    assert counts["stopped"] == 3 and counts["created"] == 3 and counts["total"] == 6


def test_deleting_the_evaluation_cleans_up_by_garbage_collection(kube: Any, namespace: str,
                                                                 operator_factory: Any) -> None:
    operator_factory(namespace).start()
    apply(kube, namespace, evaluation("gc", [*NANO], repeats=1, parallelism=2))
    wait_for(lambda: len(pending_pods(kube, namespace)) == 2, 30, "two pods")
    kube.delete(kube.custom("evaluations", namespace, "gc"))
    wait_for(lambda: not attempts(kube, namespace) and not pods(kube, namespace), 60, "attempts and pods collected")


def test_restarting_the_operator_mid_way_duplicates_nothing_and_loses_no_result(kube: Any, namespace: str,
                                                                                 operator_factory: Any) -> None:
    runner = operator_factory(namespace, resync_s=1.0)
    runner.start()
    apply(kube, namespace, evaluation("restart", [*NANO], repeats=2, parallelism=2))
    first = wait_for(lambda: len(p := pending_pods(kube, namespace)) == 2 and p, 30, "two pods")
    runner.stop()
    finish_pod(kube, namespace, first[0])  # finishes while no operator watches
    runner.start()
    second = runner  # the same settings, a new kopf operator and controller
    assert second is runner
    done = set()
    deadline = time.monotonic() + 120
    while phase_of(get_eval(kube, namespace, "restart")) != "Completed":
        assert time.monotonic() < deadline, "the evaluation did not complete after the restart"
        for name in pending_pods(kube, namespace):
            if name == first[0]:
                continue
            finish_pod(kube, namespace, name)
            done.add(name)
        if len(done) == 3:  # a second restart in the middle of the fan-out
            runner.stop()
            runner.start()
            done.add("restarted")
        time.sleep(0.2)
    listed = attempts(kube, namespace)
    assert len(listed) == 6
    assert all(a["status"]["tries"] == 1 and a["status"]["phase"] == "Passed" for a in listed.values())
    assert sorted(pods(kube, namespace)) == sorted(f"{name}-t1" for name in listed)
    counts = get_eval(kube, namespace, "restart")["status"]["counts"]
    assert counts["passed"] == 6 and counts["total"] == 6


def test_suspend_starts_nothing_until_lifted(kube: Any, namespace: str, operator_factory: Any) -> None:
    operator_factory(namespace).start()
    body = evaluation("held", [*NANO], parallelism=2)
    body["spec"]["suspend"] = True
    apply(kube, namespace, body)
    wait_for(lambda: phase_of(get_eval(kube, namespace, "held")) == "Suspended", 30, "Suspended")
    time.sleep(2)
    assert attempts(kube, namespace) == {}
    kube.patch(kube.custom("evaluations", namespace, "held"), {"spec": {"suspend": False}})
    wait_for(lambda: len(attempts(kube, namespace)) == 2, 30, "two attempts after the suspension is lifted")
    status = wait_for(lambda: phase_of(e := get_eval(kube, namespace, "held")) == "Running" and e, 30, "Running")["status"]
    suspended = next(c for c in status["conditions"] if c["type"] == "Suspended")
    assert suspended["status"] == "False"
