"""Prometheus metrics: names, labels and values as a scrape sees them (real prometheus-client)."""

from __future__ import annotations

import re
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from tuinaut.cli import cli
from tuinaut.k8s.metrics import LOCAL_NAMESPACE, Metrics, start_metrics_server
from tuinaut.model import AttemptResult
from tuinaut.model.result import KeyCosts, TokenCosts

ALLOWED_LABELS = {"namespace", "evaluation", "app", "task", "agent", "outcome", "le"}
NS, EV = "team-a", "starter"


def result(outcome: str, *, task: str = "write-note", agent: str = "gpt", kind: str = "llm", ake: int = 7,
           reasoning: int = 1200, duration: float = 42.0, finished: float = 1_700_000_000.0,
           attempt_id: str = "nano-write-note-gpt-r1") -> AttemptResult:
    return AttemptResult(attempt_id=attempt_id, app="nano", task=task, agent=agent, agent_kind=kind, repeat=1,
                         outcome=outcome, passed=outcome == "passed", stop_reason="submitted",
                         keys=KeyCosts(ake=ake), tokens=TokenCosts(reasoning=reasoning), duration_s=duration,
                         finished_at=datetime.fromtimestamp(finished, tz=UTC))


def scrape(metrics: Metrics) -> dict[tuple[str, frozenset], float]:
    """Sample name + labels -> value, parsed from the text exposition format as Prometheus reads it."""
    text = generate_latest(metrics.registry).decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def labels(**extra: str) -> frozenset:
    return frozenset({"namespace": NS, "evaluation": EV, "app": "nano", "task": "write-note", "agent": "gpt",
                      **extra}.items())


@pytest.fixture
def metrics() -> Metrics:
    return Metrics(CollectorRegistry())


def test_finished_attempts_are_counted_by_outcome_with_their_costs(metrics: Metrics) -> None:
    metrics.record_attempt_finished(result("passed", ake=7, reasoning=1200, duration=42.0), NS, EV)
    metrics.record_attempt_finished(result("failed", ake=30, reasoning=5000, duration=100.0), NS, EV)
    metrics.record_attempt_finished(result("passed", ake=9, reasoning=800, duration=8.0), NS, EV)
    metrics.record_attempt_finished(result("infra_error", ake=3, reasoning=50, duration=5.0), NS, EV)
    s = scrape(metrics)

    assert s["tuinaut_attempts_total", labels(outcome="passed")] == 2
    assert s["tuinaut_attempts_total", labels(outcome="failed")] == 1
    assert s["tuinaut_attempts_total", labels(outcome="infra_error")] == 1
    assert s["tuinaut_attempt_duration_seconds_count", labels(outcome="passed")] == 2
    assert s["tuinaut_attempt_duration_seconds_sum", labels(outcome="passed")] == 50.0
    assert s["tuinaut_attempt_duration_seconds_bucket", labels(outcome="passed", le="10.0")] == 1
    assert s["tuinaut_attempt_duration_seconds_count", labels(outcome="infra_error")] == 1
    # Costs are measures of judged attempts only: an infrastructure error has none.
    assert s["tuinaut_attempt_atomic_key_events_sum", labels(outcome="passed")] == 16
    assert s["tuinaut_attempt_atomic_key_events_bucket", labels(outcome="failed", le="20.0")] == 0
    assert s["tuinaut_attempt_atomic_key_events_bucket", labels(outcome="failed", le="50.0")] == 1
    assert s["tuinaut_attempt_reasoning_tokens_sum", labels(outcome="passed")] == 2000
    assert s["tuinaut_attempt_reasoning_tokens_count", labels(outcome="failed")] == 1
    assert ("tuinaut_attempt_atomic_key_events_count", labels(outcome="infra_error")) not in s
    assert ("tuinaut_attempt_reasoning_tokens_count", labels(outcome="infra_error")) not in s
    assert s["tuinaut_evaluation_success_ratio", labels()] == pytest.approx(2 / 3)
    assert s["tuinaut_evaluation_last_completion_timestamp_seconds",
             frozenset({"namespace": NS, "evaluation": EV}.items())] == 1_700_000_000.0


def test_reasoning_tokens_are_observed_for_llm_agents_only(metrics: Metrics) -> None:
    metrics.record_attempt_finished(result("passed", agent="reference", kind="reference", reasoning=0), NS, EV)
    s = scrape(metrics)
    ref = dict(labels(outcome="passed"), agent="reference")
    assert s["tuinaut_attempt_atomic_key_events_count", frozenset(ref.items())] == 1
    assert not [key for key in s if key[0].startswith("tuinaut_attempt_reasoning_tokens")]


def test_last_completion_keeps_the_latest_when_results_arrive_out_of_order(metrics: Metrics) -> None:
    metrics.record_attempt_finished(result("passed", finished=2000.0), NS, EV)
    metrics.record_attempt_finished(result("failed", finished=1000.0), NS, EV)
    evaluation = frozenset({"namespace": NS, "evaluation": EV}.items())
    key = ("tuinaut_evaluation_last_completion_timestamp_seconds", evaluation)
    assert scrape(metrics)[key] == 2000.0


def test_success_counts_from_status_are_continued_by_later_results(metrics: Metrics) -> None:
    metrics.set_success_counts(NS, EV, "nano", "write-note", "gpt", passed=3, judged=4)
    assert scrape(metrics)["tuinaut_evaluation_success_ratio", labels()] == 0.75
    metrics.record_attempt_finished(result("failed"), NS, EV)
    metrics.record_attempt_finished(result("infra_error"), NS, EV)  # not judged: the ratio ignores it
    assert scrape(metrics)["tuinaut_evaluation_success_ratio", labels()] == 0.6
    metrics.set_success_counts(NS, EV, "nano", "write-note", "gpt", passed=0, judged=0)
    assert ("tuinaut_evaluation_success_ratio", labels()) not in scrape(metrics)
    with pytest.raises(ValueError, match="passed <= judged"):
        metrics.set_success_counts(NS, EV, "nano", "write-note", "gpt", passed=5, judged=4)


def test_running_and_infra_retries(metrics: Metrics) -> None:
    metrics.set_running(NS, EV, 3)
    metrics.add_running(NS, EV, -1)
    metrics.record_infra_retry(NS, EV, "nano", "write-note", "gpt")
    metrics.record_infra_retry(NS, EV, "nano", "write-note", "gpt", count=2)
    metrics.record_infra_retry(NS, EV, "nano", "fix-typo", "gpt", count=0)  # no retry: no series
    s = scrape(metrics)
    assert s["tuinaut_attempts_running", frozenset({"namespace": NS, "evaluation": EV}.items())] == 2
    assert s["tuinaut_infra_retries_total", labels()] == 3
    assert ("tuinaut_infra_retries_total", labels(task="fix-typo")) not in s


def test_forget_evaluation_drops_only_its_gauges(metrics: Metrics) -> None:
    for evaluation in (EV, "other"):
        metrics.set_running(NS, evaluation, 1)
        metrics.record_attempt_finished(result("passed"), NS, evaluation)
    metrics.forget_evaluation(NS, EV)
    gauges = {"tuinaut_attempts_running", "tuinaut_evaluation_success_ratio",
              "tuinaut_evaluation_last_completion_timestamp_seconds"}
    s = scrape(metrics)
    left = {(name, dict(lbl)["evaluation"]) for name, lbl in s if name in gauges}
    assert left == {(name, "other") for name in gauges}
    assert s["tuinaut_attempts_total", labels(outcome="passed")] == 1  # counters stay cumulative
    metrics.record_attempt_finished(result("failed"), NS, EV)  # a recreated evaluation starts afresh
    assert scrape(metrics)["tuinaut_evaluation_success_ratio", labels()] == 0.0


def test_names_follow_prometheus_conventions_and_labels_are_bounded(metrics: Metrics) -> None:
    metrics.record_attempt_finished(result("passed", attempt_id="nano-write-note-gpt-r1-pod-xyz"), NS, EV)
    metrics.set_running(NS, EV, 1)
    metrics.record_infra_retry(NS, EV, "nano", "write-note", "gpt")
    text = generate_latest(metrics.registry).decode()
    assert "pod-xyz" not in text and "nano-write-note-gpt-r1" not in text
    # The text format carries counters' and histograms' creation times as separate *_created gauges.
    families = {f.name: f for f in text_string_to_metric_families(text) if not f.name.endswith("_created")}
    assert set(families) == {
        "tuinaut_attempts", "tuinaut_attempt_duration_seconds", "tuinaut_attempt_reasoning_tokens",
        "tuinaut_attempt_atomic_key_events", "tuinaut_attempts_running", "tuinaut_evaluation_success_ratio",
        "tuinaut_evaluation_last_completion_timestamp_seconds", "tuinaut_infra_retries"}
    for family in families.values():
        assert family.name.startswith("tuinaut_")
        assert family.documentation, family.name
        for sample in family.samples:
            assert set(sample.labels) <= ALLOWED_LABELS, sample
            if family.type == "counter":
                assert sample.name.endswith("_total"), sample.name
    assert families["tuinaut_attempt_duration_seconds"].type == "histogram"
    assert families["tuinaut_attempts_running"].type == "gauge"


def test_each_metrics_object_owns_its_registry() -> None:
    one, two = Metrics(), Metrics()  # a shared default registry would refuse the second set of names
    one.set_running(NS, EV, 5)
    assert ("tuinaut_attempts_running", frozenset({"namespace": NS, "evaluation": EV}.items())) not in scrape(two)


def test_unknown_outcome_is_refused(metrics: Metrics) -> None:
    bad = result("passed").model_copy(update={"outcome": "skipped"})
    with pytest.raises(ValueError, match="unknown outcome"):
        metrics.record_attempt_finished(bad, NS, EV)


def test_server_serves_the_registry_over_http(metrics: Metrics) -> None:
    metrics.record_attempt_finished(result("passed"), NS, EV)
    server = start_metrics_server(0, metrics.registry, addr="127.0.0.1")
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/metrics", timeout=10) as response:
            body = response.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    assert re.search(r'^tuinaut_attempts_total\{.*outcome="passed".*\} 1\.0$', body, re.MULTILINE), body


@pytest.mark.slow
def test_tuinaut_run_serves_metrics_of_its_attempts(bench, tmp_path: Path) -> None:
    """``tuinaut run --metrics-port``: the local executor's attempts (real nano in tmux) become series."""
    bench.app("nano", "nano notes.txt", ready={"pattern": "GNU nano"})
    bench.task("nano", "save", reference=[{"type": "hi"}, {"press": "ctrl+o"}, {"press": "enter"},
                                          {"wait": {"ms": 3000, "until": "Wrote"}}],
               assertions=[{"type": "check_filesystem_content", "path": "~/notes.txt", "contains": "hi"}])
    bench.task("nano", "unsaved", reference=[{"type": "hi"}],
               assertions=[{"type": "check_filesystem", "path": "~/notes.txt", "exists": True}])
    evaluation = bench.evaluation("metrics-e2e", parallelism=2, limits={"infraRetries": 0})
    res = CliRunner().invoke(cli, ["run", str(evaluation), "--out", str(tmp_path / "out"), "--metrics-port", "0"])
    assert res.exit_code == 0, res.output
    port = re.search(r"metrics on http://[^:]+:(\d+)/metrics", res.output)
    assert port, res.output
    with urllib.request.urlopen(f"http://127.0.0.1:{port.group(1)}/metrics", timeout=10) as response:
        families = {f.name: f for f in text_string_to_metric_families(response.read().decode())}
    values = {(s.name, s.labels.get("task"), s.labels.get("outcome")): s.value
              for f in families.values() for s in f.samples if "le" not in s.labels}
    base = {"namespace": LOCAL_NAMESPACE, "evaluation": "metrics-e2e", "app": "nano", "agent": "reference"}
    sample = next(s for s in families["tuinaut_attempts"].samples if s.name == "tuinaut_attempts_total")
    assert {k: sample.labels[k] for k in base} == base
    assert values["tuinaut_attempts_total", "save", "passed"] == 1
    assert values["tuinaut_attempts_total", "unsaved", "failed"] == 1
    assert values["tuinaut_attempt_atomic_key_events_sum", "save", "passed"] == 4  # h, i, ctrl+o, enter
    assert values["tuinaut_evaluation_success_ratio", "save", None] == 1.0
    assert values["tuinaut_evaluation_success_ratio", "unsaved", None] == 0.0
    assert values["tuinaut_attempts_running", None, None] == 0
