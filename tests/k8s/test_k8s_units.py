"""Pure parts of the Kubernetes executor: CRDs, generated images, the Pod, results, status, classification."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tuinaut.catalog import load_catalog
from tuinaut.k8s.classify import classify_pod
from tuinaut.k8s.crd import all_crds, openapi_schema, render
from tuinaut.k8s.images import generated_files, version_tag
from tuinaut.k8s.message import MESSAGE_LIMIT, compact, decode, encode
from tuinaut.k8s.plan import attempt_name, plan_from_body
from tuinaut.k8s.pod import build_pod
from tuinaut.k8s.settings import OperatorSettings, PodSettings
from tuinaut.k8s.status import set_condition, summarize
from tuinaut.model import AttemptResult
from tuinaut.model.result import AssertionVerdict, KeyCosts

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = ROOT / "benchmark"
STARTER = yaml.safe_load((BENCHMARK / "evaluations" / "starter.yaml").read_text())


# -- generated files ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(all_crds()))
def test_crds_in_the_repository_match_the_models(name: str) -> None:
    path = ROOT / "crds" / name
    assert path.exists(), "run `tuinaut crds`"
    assert path.read_text() == render(all_crds()[name]), "crds/ drifted from the models: run `tuinaut crds`"


def test_generated_image_files_match_app_yaml() -> None:
    stale = [str(rel) for rel, text in generated_files(BENCHMARK).items()
             if not (ROOT / "images" / rel).exists() or (ROOT / "images" / rel).read_text() != text]
    assert not stale, f"images/ drifted from app.yaml: run `tuinaut images` ({stale})"


def test_every_app_has_a_dockerfile_installing_its_packages() -> None:
    catalog = load_catalog(BENCHMARK, strict=False)
    for name, app in catalog.apps.items():
        dockerfile = (ROOT / "images" / "apps" / name / "Dockerfile").read_text()
        for package in app.install.apt:
            assert f" {package}" in dockerfile, (name, package)


def test_version_tags_are_valid_image_tags() -> None:
    assert version_tag("3:4.8.29-2") == "3-4.8.29-2"
    assert version_tag("7.2-1+deb12u1") == "7.2-1-deb12u1"


# -- CRD schemas ---------------------------------------------------------------------------------------
def _walk(node: dict, path: str = ""):
    yield path, node
    for key, sub in (node.get("properties") or {}).items():
        yield from _walk(sub, f"{path}.{key}")
    if isinstance(node.get("items"), dict):
        yield from _walk(node["items"], f"{path}[]")
    if isinstance(node.get("additionalProperties"), dict):
        yield from _walk(node["additionalProperties"], f"{path}{{}}")


def test_schemas_are_structural_without_cel() -> None:
    for crd in all_crds().values():
        version = crd["spec"]["versions"][0]
        assert version["subresources"] == {"status": {}}
        for path, node in _walk(version["schema"]["openAPIV3Schema"]):
            assert "type" in node, f"{path} has no type"
            assert not {"anyOf", "oneOf", "allOf", "$ref", "x-kubernetes-validations"} & node.keys(), path
            assert node.get("nullable") is not True, path


def test_evaluation_schema_carries_enums_minimums_and_defaults() -> None:
    crd = all_crds()["evaluations.tuinaut.dev.yaml"]
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    agent = spec["properties"]["agents"]["items"]
    assert agent["properties"]["kind"]["enum"] == ["reference", "noop", "llm", "human"]
    assert agent["required"] == ["name", "kind"]
    assert spec["properties"]["repeats"] == {"type": "integer", "description": "Attempts per task and agent.",
                                            "minimum": 1, "maximum": 1000, "default": 1}
    timeout = spec["properties"]["limits"]["properties"]["attemptTimeoutS"]
    assert timeout["minimum"] == 0 and timeout["exclusiveMinimum"] is True and timeout["default"] == 600.0
    assert spec["properties"]["tasks"]["items"]["pattern"] == r"^[^/]+/[^/]+$"
    assert agent["properties"]["extraBody"]["x-kubernetes-preserve-unknown-fields"] is True
    columns = {c["name"]: c["jsonPath"] for c in crd["spec"]["versions"][0]["additionalPrinterColumns"]}
    assert columns["Phase"] == ".status.phase" and columns["Passed"] == ".status.counts.passed"
    assert columns["Total"] == ".status.counts.total" and columns["Age"] == ".metadata.creationTimestamp"
    assert "evals" in crd["spec"]["names"]["shortNames"]


def test_union_types_are_refused() -> None:
    from pydantic import BaseModel

    class Bad(BaseModel):
        x: int | str

    with pytest.raises(ValueError, match="union"):
        openapi_schema(Bad)


# -- fan-out and the Pod ----------------------------------------------------------------------------------
def test_starter_fans_out_like_the_local_executor() -> None:
    plan, planned = plan_from_body(STARTER, BENCHMARK)
    assert [p.spec.id for p in planned] == [s.id for s in plan.attempts]
    assert len({p.name for p in planned}) == len(planned) == len(plan.attempts)
    assert all(len(p.name) <= 56 for p in planned)


def test_long_names_are_shortened_deterministically() -> None:
    _, planned = plan_from_body(STARTER, BENCHMARK)
    long_eval = "an-evaluation-with-a-rather-long-name-indeed"
    first, again = attempt_name(long_eval, planned[0].spec), attempt_name(long_eval, planned[0].spec)
    assert first == again and len(first) <= 56
    assert attempt_name(long_eval, planned[1].spec) != first


def _attempt_body(task: str = "nano/write-note", agent: dict | None = None) -> dict:
    return {"apiVersion": "tuinaut.dev/v1alpha1", "kind": "Attempt",
            "metadata": {"name": "starter-nano-write-note-reference-r1", "namespace": "ns1", "uid": "u-1"},
            "spec": {"evaluation": "starter", "task": task, "repeat": 1,
                     "agent": agent or {"name": "reference", "kind": "reference"},
                     "limits": {"attemptTimeoutS": 120}}}


def test_pod_shape() -> None:
    catalog = load_catalog(BENCHMARK)
    settings = OperatorSettings(pods=PodSettings(results_host_path="/var/lib/tuinaut"))
    agent = {"name": "gpt", "kind": "llm", "model": "m", "apiKeySecret": {"name": "keys", "key": "openai"}}
    pod = build_pod(_attempt_body(agent=agent), 2, catalog.tasks["nano/write-note"], settings)
    spec = pod["spec"]
    assert pod["metadata"]["name"] == "starter-nano-write-note-reference-r1-t2"
    assert pod["metadata"]["ownerReferences"][0]["uid"] == "u-1"
    assert spec["restartPolicy"] == "Never" and spec["automountServiceAccountToken"] is False
    assert spec["activeDeadlineSeconds"] == 120 + settings.pods.deadline_margin_s
    assert spec["securityContext"]["runAsNonRoot"] is True
    app, agent_c = spec["containers"]
    assert app["image"] == "localhost/tuinaut-app-nano:7.2-1-deb12u1"
    assert app["command"] == ["/usr/local/bin/tuinaut-app"]
    for container in (app, agent_c):
        assert container["securityContext"]["runAsUser"] == 1000
        assert {"name": "run", "mountPath": "/run/tuinaut"} in container["volumeMounts"]
    env = {e["name"]: e for e in agent_c["env"]}
    assert env["OPENAI_API_KEY"]["valueFrom"] == {"secretKeyRef": {"name": "keys", "key": "openai"}}
    work = json.loads(env["TUINAUT_ATTEMPT"]["value"])
    assert work["task"] == "nano/write-note" and work["try"] == 2 and work["agent"]["model"] == "m"
    assert env["TUINAUT_RESULTS"]["value"] == "/results/ns1/starter/starter-nano-write-note-reference-r1/t2"
    assert {"name": "results", "hostPath": {"path": "/var/lib/tuinaut", "type": "Directory"}} in spec["volumes"]
    assert "emptyDir" in spec["volumes"][0]


# -- termination message and classification ------------------------------------------------------------------
def _result(**fields) -> AttemptResult:
    base = dict(attempt_id="a", app="nano", task="t", agent="reference", agent_kind="reference", repeat=1,
                outcome="passed", passed=True, stop_reason="submitted", keys=KeyCosts(ake=7, ake_physical=9))
    return AttemptResult(**{**base, **fields})


def test_message_fits_the_kubelet_limit_even_with_huge_evidence() -> None:
    verdicts = [AssertionVerdict(type="check_shell", description="d" * 300, passed=False, evidence="x" * 5000)] * 12
    text = encode(compact(_result(passed=False, outcome="failed", assertions=verdicts)))
    assert len(text.encode()) < MESSAGE_LIMIT
    back = decode(text)
    assert back is not None and back.outcome == "failed" and len(back.assertions) == 12 and back.ake == 7


def _pod(phase: str = "Running", reason: str | None = None, containers: list | None = None) -> dict:
    status: dict = {"phase": phase, "containerStatuses": containers or []}
    if reason:
        status["reason"] = reason
    return {"metadata": {"name": "p"}, "status": status}


def _terminated(name: str, **state) -> dict:
    return {"name": name, "state": {"terminated": state}}


@pytest.mark.parametrize("pod, kind, reason", [
    (_pod("Pending"), "pending", ""),
    (_pod("Running"), "running", ""),
    (_pod("Failed", "Evicted"), "infra", "evicted"),
    (_pod("Failed", "DeadlineExceeded"), "infra", "deadline"),
    (_pod("Pending", containers=[{"name": "app", "state": {"waiting": {"reason": "ErrImageNeverPull"}}}]), "infra", "image_pull"),
    (_pod("Running", containers=[_terminated("app", reason="OOMKilled", exitCode=137)]), "infra", "oom_killed"),
    (_pod("Failed", containers=[_terminated("agent", exitCode=1, reason="Error")]), "infra", "agent_crashed"),
    (None, "infra", "pod_lost"),
])
def test_classification(pod, kind: str, reason: str) -> None:
    verdict = classify_pod(pod)
    assert (verdict.kind, verdict.reason) == (kind, reason)


def test_a_verdict_and_an_endpoint_outage_from_the_message() -> None:
    passed = encode(compact(_result()))
    verdict = classify_pod(_pod("Succeeded", containers=[_terminated("agent", exitCode=0, message=passed)]))
    assert verdict.kind == "done" and verdict.result is not None and verdict.result.passed
    outage = encode(compact(_result(outcome="infra_error", passed=False, stop_reason="endpoint_unavailable",
                                    error="503 from the endpoint")))
    verdict = classify_pod(_pod("Succeeded", containers=[_terminated("agent", exitCode=0, message=outage)]))
    assert (verdict.kind, verdict.reason) == ("infra", "endpoint_unavailable")
    failed = encode(compact(_result(outcome="failed", passed=False)))  # a failed oracle is a verdict, not infra
    assert classify_pod(_pod("Succeeded", containers=[_terminated("agent", exitCode=0, message=failed)])).kind == "done"


# -- status ----------------------------------------------------------------------------------------------------
def test_summary_is_bounded_and_counts_only_judged_attempts() -> None:
    _, planned = plan_from_body(STARTER, BENCHMARK)
    attempts = {}
    for index, item in enumerate(planned[:9]):
        phase = ["Passed", "Failed", "InfraError"][index % 3]
        attempts[item.name] = {"status": {"phase": phase, "infraFailures": 3 if phase == "InfraError" else 0,
                                          "result": {"ake": 10 * (index + 1), "reasoningTokens": 0}}}
    attempts[planned[9].name] = {"status": {"phase": "Running"}}
    counts, rows = summarize(planned, attempts)
    total = len(planned)
    assert (counts.total, counts.created, counts.passed, counts.failed, counts.infra_error, counts.running) == (total, 10, 3, 3, 3, 1)
    assert counts.pending == total - 10 and counts.infra_failures == 9
    assert len(rows) == total // 3  # one per task x agent (3 repeats), never one per attempt
    first = rows[0]
    assert (first.attempts, first.judged, first.passed, first.infra_errors) == (3, 2, 1, 1)
    assert first.success_rate == 0.5 and first.median_ake == 15.0


def test_condition_transition_time_moves_only_on_change() -> None:
    first = set_condition([], "Complete", "False", "AttemptsRunning", "0 of 3", 1)
    same = set_condition(first, "Complete", "False", "AttemptsRunning", "1 of 3", 1)
    assert same[0]["lastTransitionTime"] == first[0]["lastTransitionTime"] and same[0]["message"] == "1 of 3"
    assert set(first[0]) == {"type", "status", "reason", "message", "lastTransitionTime", "observedGeneration"}
