"""The shipped Grafana dashboard queries only series the metrics module exports, with their labels."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from tuinaut.k8s.metrics import Metrics
from tuinaut.model import AttemptResult
from tuinaut.model.result import KeyCosts, TokenCosts

DASHBOARD = Path(__file__).resolve().parents[2] / "charts" / "tuinaut" / "dashboards" / "tuinaut.json"

# PromQL words that are not metric names.
FUNCTIONS = {"sum", "max", "min", "avg", "count", "rate", "increase", "irate", "histogram_quantile", "time",
             "clamp_min", "clamp_max", "sort", "sort_desc", "topk", "bottomk", "abs", "round", "vector",
             "label_values", "delta", "deriv", "last_over_time", "max_over_time", "avg_over_time"}
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset"}
VARIABLES = {"namespace", "evaluation", "app", "agent", "window", "datasource"}


def exported() -> dict[str, set[str]]:
    """Every sample name the metrics module exports, with its label names (from a real scrape)."""
    metrics = Metrics(CollectorRegistry())
    for outcome, kind in (("passed", "llm"), ("failed", "llm"), ("infra_error", "reference")):
        metrics.record_attempt_finished(AttemptResult(
            attempt_id="a", app="nano", task="t", agent="g", agent_kind=kind, repeat=1, outcome=outcome,
            passed=outcome == "passed", stop_reason="submitted", keys=KeyCosts(ake=3), tokens=TokenCosts(reasoning=9),
            duration_s=1.0, finished_at=datetime.now(UTC)), "ns", "ev")
    metrics.set_running("ns", "ev", 1)
    metrics.record_infra_retry("ns", "ev", "nano", "t", "g")
    names: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(generate_latest(metrics.registry).decode()):
        for sample in family.samples:
            names.setdefault(sample.name, set()).update(sample.labels)
    return names


def expressions(dashboard: dict[str, Any]) -> list[tuple[str, str]]:
    """(where, PromQL) for every panel target and every query variable."""
    found = []
    for panel in dashboard["panels"]:
        for nested in [panel, *panel.get("panels", [])]:
            for target in nested.get("targets", []):
                found.append((f"panel {nested['title']!r} {target['refId']}", target["expr"]))
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]
            found.append((f"variable {variable['name']}", query["query"] if isinstance(query, dict) else query))
    return found


def references(expr: str) -> list[tuple[str, set[str]]]:
    """(metric name, label names in its matcher) for every metric an expression selects.

    Fails on any identifier that is neither a function, a keyword, nor a ``tuinaut_`` metric.
    """
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)          # string literals
    text = re.sub(r"\[[^\]]*\]", "", text)                   # range selectors [$window]
    text = re.sub(r",\s*\w+\s*\)\s*$", ")", text) if text.startswith("label_values(") else text  # its label arg
    grouping = r"\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)"
    grouped_labels = {label.strip() for _, labels in re.findall(grouping, text) for label in labels.split(",")}
    text = re.sub(grouping, " ", text)
    found = []
    for match in re.finditer(r"([A-Za-z_:][A-Za-z0-9_:]*)\s*(\{[^}]*\})?", text):
        name, matcher = match.group(1), match.group(2) or ""
        if name in FUNCTIONS or name in KEYWORDS or re.fullmatch(r"__\w+", name):
            continue
        labels = set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)", matcher))
        found.append((name, labels))
    names = {name for name, _ in found}
    for label in grouped_labels - {"le", ""}:
        assert label in {"namespace", "evaluation", "app", "task", "agent", "outcome"}, (label, expr)
    return found if names else []


def test_dashboard_queries_only_exported_metrics_and_labels() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    series = exported()
    checked = 0
    for where, expr in expressions(dashboard):
        refs = references(expr.replace("$__rate_interval", "5m"))
        assert refs, f"{where}: no metric in {expr!r}"
        for name, labels in refs:
            assert name in series, f"{where}: {name} is not exported (exported: {sorted(series)})"
            assert labels <= series[name], f"{where}: {name} has no label(s) {labels - series[name]}"
            checked += 1
        # label_values(metric{...}, label): the label must be one the metric has.
        for metric, label in re.findall(r"label_values\(\s*(\w+)[^,]*,\s*(\w+)\s*\)", expr):
            assert label in series[metric], f"{where}: {metric} has no label {label}"
    assert checked >= 20


@pytest.mark.parametrize(("expr", "problem"), [
    ('sum(rate(tuinaut_attempts_succeeded_total{app=~"$app"}[$window]))', "not exported"),
    ('sum(increase(tuinaut_infra_retries_total{outcome="passed"}[$window]))', "has no label"),
    ('sum by (pod) (tuinaut_attempts_running)', "pod"),
])
def test_the_check_catches_unknown_metrics_and_labels(expr: str, problem: str) -> None:
    series = exported()
    with pytest.raises(AssertionError, match=problem):
        for name, labels in references(expr):
            assert name in series, f"{name} is not exported"
            assert labels <= series[name], f"{name} has no label(s) {labels - series[name]}"


def test_dashboard_has_the_panels_and_variables_users_need() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert {"namespace", "evaluation", "app", "agent"} <= set(variables)
    for name in ("namespace", "evaluation", "app", "agent"):
        assert variables[name]["includeAll"] and variables[name]["multi"]
    exprs = " ".join(expr for _, expr in expressions(dashboard))
    for name in ("tuinaut_attempts_total", "tuinaut_attempt_reasoning_tokens", "tuinaut_attempt_atomic_key_events",
                 "tuinaut_infra_retries_total", "tuinaut_evaluation_success_ratio"):
        assert name in exprs, name
    titles = " ".join(p["title"].lower() for p in dashboard["panels"])
    for words in ("success rate", "interpretation cost", "operation cost", "outcome", "infrastructure"):
        assert words in titles, words
    # Every panel's every query filters by the dashboard's variables (where the metric has the label).
    for where, expr in expressions(dashboard):
        if where.startswith("panel") and "tuinaut_evaluation_last_completion" not in expr \
                and "tuinaut_attempts_running" not in expr:
            for variable in ("namespace", "evaluation", "app", "agent"):
                assert f'{variable}=~"${variable}"' in expr, (where, variable)
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))
