"""Prometheus metrics for TUINaut executors: the operator and ``tuinaut run --metrics-port``.

Every series is named by Prometheus conventions (``tuinaut_`` prefix, base units, ``_total`` for
counters) and labelled only with values of bounded cardinality: namespace, evaluation, app, task,
agent, outcome. Pod and Attempt names never become labels.

- ``tuinaut_attempts_total`` (counter; namespace evaluation app task agent outcome)
- ``tuinaut_attempt_duration_seconds`` (histogram; namespace evaluation app task agent outcome)
- ``tuinaut_attempt_reasoning_tokens`` (histogram; namespace evaluation app task agent outcome)
- ``tuinaut_attempt_atomic_key_events`` (histogram; namespace evaluation app task agent outcome)
- ``tuinaut_attempts_running`` (gauge; namespace evaluation)
- ``tuinaut_evaluation_success_ratio`` (gauge; namespace evaluation app task agent)
- ``tuinaut_evaluation_last_completion_timestamp_seconds`` (gauge; namespace evaluation)
- ``tuinaut_infra_retries_total`` (counter; namespace evaluation app task agent)

``outcome`` is ``passed``, ``failed`` or ``infra_error``. The cost histograms (reasoning tokens:
interpretation cost; atomic key events: operation cost) observe judged attempts only (passed or
failed), like every TUINaut measure; reasoning tokens only for LLM agents. The success ratio is
passed / judged for one task and agent of one evaluation.

Use one :class:`Metrics` per process, on a registry it owns (or one passed in, for tests)::

    metrics = Metrics()
    start_metrics_server(8080, metrics.registry)
    metrics.set_running("default", "starter", 2)
    metrics.record_attempt_finished(result, "default", "starter")
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from ..model.result import AttemptResult

OUTCOMES = ("passed", "failed", "infra_error")
JUDGED = ("passed", "failed")

ATTEMPT_LABELS = ("namespace", "evaluation", "app", "task", "agent", "outcome")
TASK_LABELS = ("namespace", "evaluation", "app", "task", "agent")
EVALUATION_LABELS = ("namespace", "evaluation")

# Buckets: an attempt takes seconds (reference path) to tens of minutes (a slow LLM agent).
DURATION_BUCKETS = (1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600)
REASONING_TOKEN_BUCKETS = (0, 100, 300, 1000, 3000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
AKE_BUCKETS = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)

LOCAL_NAMESPACE = "local"
"""The namespace label the local executor uses (its evaluations live in no Kubernetes namespace)."""


class Metrics:
    """TUINaut's metric families on one registry, with the few calls an executor makes.

    All methods are thread-safe (attempts finish on worker threads).
    """

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry(auto_describe=True)
        r = self.registry
        self.attempts = Counter("tuinaut_attempts", "Attempts finished, by outcome (infra_error after all retries).",
                                ATTEMPT_LABELS, registry=r)
        self.duration = Histogram("tuinaut_attempt_duration_seconds",
                                  "Whole attempt, provision to verification, in seconds.",
                                  ATTEMPT_LABELS, buckets=DURATION_BUCKETS, registry=r)
        self.reasoning_tokens = Histogram("tuinaut_attempt_reasoning_tokens",
                                          "Interpretation cost: reasoning tokens of a judged LLM attempt.",
                                          ATTEMPT_LABELS, buckets=REASONING_TOKEN_BUCKETS, registry=r)
        self.ake = Histogram("tuinaut_attempt_atomic_key_events",
                             "Operation cost: atomic key events (default rule) of a judged attempt.",
                             ATTEMPT_LABELS, buckets=AKE_BUCKETS, registry=r)
        self.running = Gauge("tuinaut_attempts_running", "Attempts running now.", EVALUATION_LABELS, registry=r)
        self.success_ratio = Gauge("tuinaut_evaluation_success_ratio",
                                   "Passed / judged attempts of one task and agent in one evaluation "
                                   "(infrastructure errors excluded).", TASK_LABELS, registry=r)
        self.last_completion = Gauge("tuinaut_evaluation_last_completion_timestamp_seconds",
                                     "Unix time the evaluation's last attempt finished.", EVALUATION_LABELS, registry=r)
        self.infra_retries = Counter("tuinaut_infra_retries",
                                     "Attempts retried because of an infrastructure failure.", TASK_LABELS, registry=r)
        self._lock = threading.Lock()
        self._tallies: dict[tuple[str, ...], list[int]] = {}  # TASK_LABELS values -> [passed, judged]
        self._last: dict[tuple[str, str], float] = {}  # (namespace, evaluation) -> latest finish time

    # -- calls an executor makes

    def record_attempt_finished(self, result: AttemptResult, namespace: str, evaluation: str) -> None:
        """Count a final attempt result (after its infrastructure retries) and observe its costs."""
        if result.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {result.outcome!r}; expected one of {OUTCOMES}")
        task_key = (namespace, evaluation, result.app, result.task, result.agent)
        labels = (*task_key, result.outcome)
        self.attempts.labels(*labels).inc()
        self.duration.labels(*labels).observe(max(0.0, result.duration_s))
        if result.outcome in JUDGED:
            self.ake.labels(*labels).observe(result.keys.ake)
            if result.agent_kind == "llm":
                self.reasoning_tokens.labels(*labels).observe(result.tokens.reasoning)
        finished = result.finished_at.timestamp() if result.finished_at else time.time()
        with self._lock:
            if result.outcome in JUDGED:
                tally = self._tallies.setdefault(task_key, [0, 0])
                tally[0] += result.passed
                tally[1] += 1
                self.success_ratio.labels(*task_key).set(tally[0] / tally[1])
            if finished > self._last.get((namespace, evaluation), 0.0):  # results may arrive out of order
                self._last[(namespace, evaluation)] = finished
                self.last_completion.labels(namespace, evaluation).set(finished)

    def set_success_counts(self, namespace: str, evaluation: str, app: str, task: str, agent: str,
                           passed: int, judged: int) -> None:
        """Set one task and agent's success ratio from authoritative counts (e.g. an Evaluation's status).

        Later :meth:`record_attempt_finished` calls count on from these numbers, so an operator that
        restarts and reloads counts from status keeps a correct ratio. ``judged == 0`` removes the series.
        """
        if not 0 <= passed <= judged:
            raise ValueError(f"need 0 <= passed <= judged, got passed={passed} judged={judged}")
        key = (namespace, evaluation, app, task, agent)
        with self._lock:
            if judged == 0:
                self._tallies.pop(key, None)
                _remove(self.success_ratio, key)
            else:
                self._tallies[key] = [passed, judged]
                self.success_ratio.labels(*key).set(passed / judged)

    def set_running(self, namespace: str, evaluation: str, n: int) -> None:
        """Attempts of this evaluation running now (the operator counts them from its Attempts)."""
        self.running.labels(namespace, evaluation).set(n)

    def add_running(self, namespace: str, evaluation: str, delta: int) -> None:
        """Change the running count by ``delta`` (an executor that sees starts and finishes one by one)."""
        self.running.labels(namespace, evaluation).inc(delta)

    def record_infra_retry(self, namespace: str, evaluation: str, app: str, task: str, agent: str,
                           count: int = 1) -> None:
        """Count ``count`` retries of an attempt whose try failed for infrastructure reasons."""
        if count < 0:
            raise ValueError(f"retry count must be >= 0, got {count}")
        if count:
            self.infra_retries.labels(namespace, evaluation, app, task, agent).inc(count)

    def forget_evaluation(self, namespace: str, evaluation: str) -> None:
        """Drop the gauges of a deleted evaluation (counters and histograms stay: they are cumulative)."""
        with self._lock:
            for key in [k for k in self._tallies if k[:2] == (namespace, evaluation)]:
                del self._tallies[key]
            self._last.pop((namespace, evaluation), None)
            for gauge in (self.success_ratio, self.running, self.last_completion):
                for labels in _label_sets(gauge):
                    if labels[:2] == (namespace, evaluation):
                        _remove(gauge, labels)


def _label_sets(gauge: Gauge) -> Iterable[tuple[str, ...]]:
    """The label values of a gauge's live series (read from the collected samples, public API)."""
    names = None
    for family in gauge.collect():
        for sample in family.samples:
            names = names or list(sample.labels)
            yield tuple(sample.labels[n] for n in names)


def _remove(gauge: Gauge, labels: tuple[str, ...]) -> None:
    with contextlib.suppress(KeyError):  # the series was never set: nothing to drop
        gauge.remove(*labels)


def start_metrics_server(port: int, registry: CollectorRegistry, addr: str = "0.0.0.0") -> WSGIServer:
    """Serve ``registry`` on ``http://addr:port/metrics`` from a daemon thread; returns the server.

    ``port=0`` picks a free port (read it from ``server.server_port``); ``server.shutdown()`` stops it.
    """
    server, _thread = start_http_server(port, addr=addr, registry=registry)
    return server
