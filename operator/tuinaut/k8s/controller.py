"""Reconcilers: level-triggered, idempotent, and safe to run again after a restart.

Everything is derived from what the API server holds: Attempts carry deterministic names (a second
create is a 409, not a duplicate), the current Pod is ``<attempt>-t<tries>``, and a result lives in
the Pod's termination message until it is copied into the Attempt's status. Any event (Evaluation,
Attempt, Pod) or the periodic resync calls the same two functions.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from ..catalog import TaskPackage, load_catalog
from ..errors import ConfigError
from ..model import AttemptResult
from ..model.result import KeyCosts, TokenCosts
from . import API_VERSION, ATTEMPTS, EVALUATIONS, LABEL_ATTEMPT, LABEL_EVALUATION
from .api import Kube
from .classify import PodVerdict, classify_pod
from .plan import PlannedAttempt, attempt_labels, plan_from_body
from .pod import build_pod, pod_name
from .resources import AttemptSpecResource
from .settings import OperatorSettings
from .status import is_final, now, set_condition, summarize

log = logging.getLogger("tuinaut.operator")


def attempt_object(evaluation: dict[str, Any], item: PlannedAttempt) -> dict[str, Any]:
    """The Attempt an Evaluation fans out for one planned item (owned by the Evaluation)."""
    meta = evaluation["metadata"]
    spec = item.spec
    return {
        "apiVersion": API_VERSION, "kind": "Attempt",
        "metadata": {
            "name": item.name, "namespace": meta["namespace"],
            "labels": attempt_labels(meta["name"], spec),
            "ownerReferences": [{"apiVersion": API_VERSION, "kind": "Evaluation", "name": meta["name"],
                                 "uid": meta["uid"], "controller": True, "blockOwnerDeletion": True}],
        },
        "spec": AttemptSpecResource(evaluation=meta["name"], task=item.task, agent=spec.agent,
                                    repeat=spec.repeat, limits=spec.limits).dump(),
    }


class Controller:
    def __init__(self, kube: Kube, settings: OperatorSettings, metrics: Any = None) -> None:
        self.kube = kube
        self.settings = settings
        self.metrics = metrics
        self._locks: dict[str, threading.Lock] = defaultdict(threading.Lock)
        self._locks_guard = threading.Lock()
        self._plans: dict[tuple[str, int], tuple[Any, list[PlannedAttempt]]] = {}

    def _lock(self, key: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks[key]

    # -- Evaluation ---------------------------------------------------------------------------------
    def _plan(self, body: dict[str, Any]) -> tuple[Any, list[PlannedAttempt]]:
        key = (body["metadata"]["uid"], body["metadata"].get("generation", 0))
        if key not in self._plans:
            if len(self._plans) > 256:  # bounded: old generations and deleted Evaluations fall out
                self._plans.clear()
            self._plans[key] = plan_from_body(body, self.settings.benchmark)
        return self._plans[key]

    def reconcile_evaluation(self, namespace: str, name: str) -> None:
        with self._lock(f"{namespace}/evaluations/{name}"):
            body = self.kube.get(self.kube.custom(EVALUATIONS, namespace, name))
            if body is None or body["metadata"].get("deletionTimestamp"):
                return
            self._reconcile_evaluation(body)

    def _reconcile_evaluation(self, body: dict[str, Any]) -> None:
        meta = body["metadata"]
        namespace, name, generation = meta["namespace"], meta["name"], meta.get("generation")
        status = dict(body.get("status") or {})
        conditions = status.get("conditions") or []
        try:
            plan, planned = self._plan(body)
        except ConfigError as exc:
            new = {"phase": "Failed", "observedGeneration": generation,
                   "conditions": set_condition(conditions, "Failed", "True", "InvalidSpec", str(exc), generation)}
            if self._patch_status(EVALUATIONS, body, new):
                self.kube.event(body, "InvalidSpec", str(exc), "Warning")
            return
        spec = plan.evaluation.spec
        listed = self.kube.list(self.kube.custom(ATTEMPTS, namespace), {LABEL_EVALUATION: name})
        attempts = {a["metadata"]["name"]: a for a in listed}
        counts, _ = summarize(planned, attempts)
        budget = spec.limits.infra_failure_budget
        failed = status.get("phase") == "Failed" and any(
            c.get("type") == "Failed" and c.get("reason") == "InfraFailureBudgetExceeded" for c in conditions)
        if budget is not None and counts.infra_failures >= budget:
            failed = True
        if failed:
            for attempt in attempts.values():
                if not is_final(attempt) and not attempt["spec"].get("stop"):
                    self.kube.patch(self.kube.custom(ATTEMPTS, namespace, attempt["metadata"]["name"]), {"spec": {"stop": True}})
        elif not spec.suspend:
            active = sum(1 for a in attempts.values() if not is_final(a))
            for item in planned:
                if active >= spec.parallelism:
                    break
                if item.name in attempts:
                    continue
                created = self._create_attempt(body, item)
                if created is not None:
                    attempts[item.name] = created
                    active += 1
        counts, summary = summarize(planned, attempts)
        all_final = counts.created == counts.total and all(is_final(attempts[p.name]) for p in planned)
        if failed:
            phase = "Failed"
            conditions = set_condition(conditions, "Failed", "True", "InfraFailureBudgetExceeded",
                                       f"{counts.infra_failures} infrastructure failures reached the budget of {budget}; "
                                       "running attempts were stopped", generation)
        elif all_final:
            phase = "Completed"
            conditions = set_condition(conditions, "Complete", "True", "AllAttemptsFinished",
                                       f"{counts.passed} of {counts.total} attempts passed, {counts.failed} failed, "
                                       f"{counts.infra_error} infrastructure errors", generation)
        elif spec.suspend:
            phase = "Suspended"
        else:
            phase = "Running" if counts.created else "Pending"
            conditions = set_condition(conditions, "Complete", "False", "AttemptsRunning",
                                       f"{counts.total - counts.pending - counts.running} of {counts.total} finished",
                                       generation)
        conditions = set_condition(conditions, "Suspended", "True" if spec.suspend else "False",
                                   "Suspended" if spec.suspend else "NotSuspended",
                                   "spec.suspend is set: no new attempts start" if spec.suspend else "", generation)
        new = {"phase": phase, "counts": counts.dump(), "summary": [row.dump() for row in summary],
               "conditions": conditions, "observedGeneration": generation}
        if counts.created and not status.get("startTime"):
            new["startTime"] = now()
        if phase in ("Completed", "Failed") and not status.get("completionTime"):
            new["completionTime"] = now()
        if phase not in ("Completed", "Failed") and status.get("completionTime"):
            new["completionTime"] = None
        if self._patch_status(EVALUATIONS, body, new) and phase != status.get("phase"):
            self.kube.event(body, phase, f"evaluation {phase.lower()}: {counts.passed}/{counts.total} passed",
                            "Warning" if phase == "Failed" else "Normal")
        if self.metrics is not None:
            self.metrics.set_running(namespace, name, counts.running)
            for row in summary:
                app, _, task = row.task.partition("/")
                self.metrics.set_success_counts(namespace, name, app, task, row.agent, row.passed, row.judged)

    def _create_attempt(self, evaluation: dict[str, Any], item: PlannedAttempt) -> dict[str, Any] | None:
        meta = evaluation["metadata"]
        body = attempt_object(evaluation, item)
        created = self.kube.create(self.kube.custom(ATTEMPTS, meta["namespace"]), body)
        if created is None:  # it exists already (a restart, a concurrent reconcile): adopt it
            return self.kube.get(self.kube.custom(ATTEMPTS, meta["namespace"], item.name))
        log.info("created attempt %s/%s", meta["namespace"], item.name)
        return created

    # -- Attempt ------------------------------------------------------------------------------------
    def reconcile_attempt(self, namespace: str, name: str) -> None:
        with self._lock(f"{namespace}/attempts/{name}"):
            body = self.kube.get(self.kube.custom(ATTEMPTS, namespace, name))
            if body is None or body["metadata"].get("deletionTimestamp") or is_final(body):
                return
            self._reconcile_attempt(body)

    def _reconcile_attempt(self, body: dict[str, Any]) -> None:
        meta = body["metadata"]
        namespace, name = meta["namespace"], meta["name"]
        spec = AttemptSpecResource.model_validate(body["spec"])
        status = body.get("status") or {}
        tries = int(status.get("tries") or 0)
        failures = int(status.get("infraFailures") or 0)
        if spec.stop:
            self._finish(body, {"phase": "Stopped"}, "Stopped", "stopped: the evaluation's failure budget is spent",
                         "Warning")
            for pod in self.kube.list(self.kube.core("pods", namespace), {LABEL_ATTEMPT: name}):
                self.kube.delete(self.kube.core("pods", namespace, pod["metadata"]["name"]))
            return
        if tries == 0:
            self._start_try(body, spec, 1, {})
            return
        pod = self.kube.get(self.kube.core("pods", namespace, pod_name(name, tries)))
        verdict = classify_pod(pod)
        if verdict.still_running:
            phase = "Running" if verdict.kind == "running" else "Pending"
            new = {"phase": phase}
            if phase == "Running" and not status.get("startTime"):
                new["startTime"] = now()
            self._patch_status(ATTEMPTS, body, new)
            return
        if verdict.kind == "done":
            assert verdict.result is not None
            phase = "Passed" if verdict.result.passed else "Failed"
            self._finish(body, {"phase": phase, "result": verdict.result.dump()}, phase,
                         f"{phase.lower()} ({verdict.result.stop_reason}): {verdict.result.ake} key events", "Normal",
                         verdict)
            return
        # an infrastructure failure: retry within the limit, else give up on this attempt
        failures += 1
        if pod is not None and pod.get("status", {}).get("phase") not in ("Succeeded", "Failed"):
            self.kube.delete(self.kube.core("pods", namespace, pod_name(name, tries)))  # e.g. stuck pulling an image
        infra = {"infraFailures": failures, "lastInfraReason": verdict.reason, "lastInfraMessage": verdict.message}
        self.kube.event(body, "InfraError", f"try {tries}: {verdict.reason}: {verdict.message}", "Warning")
        if self.metrics is not None and failures <= spec.limits.infra_retries:
            app, _, task = spec.task.partition("/")
            self.metrics.record_infra_retry(namespace, spec.evaluation, app, task, spec.agent.name)
        if failures <= spec.limits.infra_retries:
            self._start_try(body, spec, tries + 1, infra)
        else:
            final = {"phase": "InfraError", **infra}
            if verdict.result is not None:
                final["result"] = verdict.result.dump()
            self._finish(body, final, "InfraError", f"gave up after {tries} tries: {verdict.reason}", "Warning",
                         verdict)

    def _start_try(self, body: dict[str, Any], spec: AttemptSpecResource, try_number: int, extra: dict[str, Any]) -> None:
        package = self._package(spec.task)
        if package is None:
            self._finish(body, {"phase": "InfraError", "lastInfraReason": "unknown_task",
                                "lastInfraMessage": f"task {spec.task} is not in the operator's benchmark"},
                         "InfraError", f"task {spec.task} is not in the operator's benchmark", "Warning")
            return
        pod = build_pod(body, try_number, package, self.settings)
        self.kube.create(self.kube.core("pods", body["metadata"]["namespace"]), pod)  # 409: made before a restart
        self._patch_status(ATTEMPTS, body, {"phase": "Pending", "tries": try_number,
                                            "podName": pod["metadata"]["name"], **extra})
        if try_number == 1:
            self.kube.event(body, "Started", f"pod {pod['metadata']['name']}")

    def _finish(self, body: dict[str, Any], status: dict[str, Any], reason: str, message: str, type_: str,
                verdict: PodVerdict | None = None) -> None:
        generation = body["metadata"].get("generation")
        conditions = set_condition((body.get("status") or {}).get("conditions") or [], "Finished", "True", reason,
                                   message, generation)
        status = {**status, "completionTime": now(), "conditions": conditions, "observedGeneration": generation}
        if self._patch_status(ATTEMPTS, body, status):
            self.kube.event(body, reason, message, type_)
            self._record_metrics(body, status, verdict)

    def _record_metrics(self, body: dict[str, Any], status: dict[str, Any], verdict: PodVerdict | None) -> None:
        if self.metrics is None or status["phase"] == "Stopped":
            return
        spec = AttemptSpecResource.model_validate(body["spec"])
        app, _, task = spec.task.partition("/")
        result = verdict.result if verdict is not None else None
        outcome = result.outcome if result is not None else "infra_error"
        self.metrics.record_attempt_finished(AttemptResult(
            attempt_id=body["metadata"]["name"], app=app, task=task, agent=spec.agent.name, agent_kind=spec.agent.kind,
            repeat=spec.repeat, outcome=outcome if status["phase"] != "InfraError" else "infra_error",
            passed=status["phase"] == "Passed", stop_reason=result.stop_reason if result else status.get("lastInfraReason", ""),
            keys=KeyCosts(ake=result.ake, ake_physical=result.ake_physical) if result else KeyCosts(),
            tokens=TokenCosts(reasoning=result.reasoning_tokens) if result else TokenCosts(),
            duration_s=result.duration_s if result else 0.0, finished_at=datetime.now(UTC),
        ), body["metadata"]["namespace"], spec.evaluation)

    def _package(self, task: str) -> TaskPackage | None:
        catalog = load_catalog(self.settings.benchmark, strict=False)
        return catalog.tasks.get(task)

    # -- helpers ------------------------------------------------------------------------------------
    def _patch_status(self, plural: str, body: dict[str, Any], new: dict[str, Any]) -> bool:
        """Merge-patch the status subresource when something changed; True if it did."""
        old = body.get("status") or {}
        if all(old.get(k) == v for k, v in new.items() if v is not None) and \
                all(k not in old for k, v in new.items() if v is None):
            return False
        meta = body["metadata"]
        patched = self.kube.patch(self.kube.custom(plural, meta["namespace"], meta["name"], "status"),
                                  {"status": _without_empty_strings(new)})
        if patched is not None:
            body["status"] = patched.get("status") or {}
        return patched is not None

    def on_pod(self, pod: dict[str, Any]) -> None:
        labels = pod.get("metadata", {}).get("labels") or {}
        if LABEL_ATTEMPT in labels:
            self.reconcile_attempt(pod["metadata"]["namespace"], labels[LABEL_ATTEMPT])

    def resync(self) -> None:
        """Reconcile everything once: what events may have missed (or what changed while stopped)."""
        namespaces = self.settings.controller.namespaces or [None]
        for namespace in namespaces:
            for attempt in self.kube.list(self.kube.custom(ATTEMPTS, namespace)):
                if not is_final(attempt):
                    self.reconcile_attempt(attempt["metadata"]["namespace"], attempt["metadata"]["name"])
            for evaluation in self.kube.list(self.kube.custom(EVALUATIONS, namespace)):
                self.reconcile_evaluation(evaluation["metadata"]["namespace"], evaluation["metadata"]["name"])


def _without_empty_strings(value: Any) -> Any:
    """Kubernetes 1.20 reads "" in a custom resource's typed string field as null and rejects it: leave them out."""
    if isinstance(value, dict):
        return {k: _without_empty_strings(v) for k, v in value.items() if v != ""}
    if isinstance(value, list):
        return [_without_empty_strings(v) for v in value]
    return value
