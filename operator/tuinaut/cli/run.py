"""``tuinaut run``: an evaluation on this machine, with progress and a summary table."""

from __future__ import annotations

import shutil
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..local.executor import attempt_dir, plan_evaluation, run_plan
from ..local.summary import group_rows


@click.command("run")
@click.argument("evaluation", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Run directory. Rerunning into it skips finished attempts and redoes interrupted ones.")
@click.option("--parallel", type=click.IntRange(1, 64), default=None,
              help="Attempts at once (default: the evaluation's spec.parallelism).")
@click.option("--benchmark", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Benchmark root holding apps/ (default: nearest above the evaluation file).")
@click.option("--metrics-port", type=click.IntRange(0, 65535), default=None,
              help="Serve Prometheus metrics on this port (/metrics) while the run lasts.")
@click.pass_context
def command(ctx: click.Context, evaluation: Path, out: Path, parallel: int | None, benchmark: Path | None,
            metrics_port: int | None) -> None:
    """Run EVALUATION (an Evaluation YAML file) on this machine and write results to --out.

    Each attempt runs the TUI in a bubblewrap sandbox inside tmux, drives it with the configured
    actor, verifies the task's oracle and records key costs. Exit code: 0 when every attempt ran
    (pass or fail), 1 when some ended in an infrastructure error, 130 when interrupted.
    """
    console = Console(stderr=True, width=shutil.get_terminal_size((140, 24)).columns)
    plan = plan_evaluation(evaluation, benchmark)
    console.print(f"[bold]{plan.evaluation.metadata.name}[/]: {len(plan.attempts)} attempts "
                  f"({len({a.package.id for a in plan.attempts})} tasks x {len(plan.evaluation.spec.agents)} agents "
                  f"x {plan.evaluation.spec.repeats} repeats) -> {out}")
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, transient=True)
    metrics, labels = _serve_metrics(metrics_port, plan, console)

    def finished(spec, result) -> None:  # type: ignore[no-untyped-def]
        mark = {"passed": "[green]PASS[/]", "failed": "[red]FAIL[/]", "infra_error": "[yellow]INFRA[/]"}[result.outcome]
        console.print(f"{mark} {spec.id}  {result.stop_reason}  AKE {result.keys.ake}  {result.duration_s:.1f}s"
                      + (f"  [dim]{(result.error or '').splitlines()[0][:120]}[/]" if result.error else ""))
        progress.advance(bar)
        if metrics:
            metrics.add_running(*labels, -1)
            metrics.record_attempt_finished(result, *labels)
            metrics.record_infra_retry(*labels, result.app, result.task, result.agent, count=result.infra_attempts - 1)

    def started(spec, result) -> None:  # type: ignore[no-untyped-def]
        if metrics:
            metrics.add_running(*labels, 1)

    with progress:
        bar = progress.add_task("attempts", total=len(plan.attempts))
        outcome = run_plan(plan, out, parallel=parallel, on_start=started, on_finish=finished)
        progress.update(bar, completed=len(plan.attempts))
    if outcome.skipped:
        console.print(f"[dim]{outcome.skipped} attempts already finished in {out}: kept[/]")
    console.print(_table(outcome.results))
    infra = sum(r.outcome == "infra_error" for r in outcome.results)
    passed = sum(r.passed for r in outcome.results)
    console.print(f"{passed}/{len(outcome.results)} passed, {infra} infrastructure errors. "
                  f"Summary: {out / 'summary.json'}; attempts under {attempt_dir(out, plan.attempts[0]).parents[3]}")
    ctx.exit(1 if infra else 0)


def _serve_metrics(port: int | None, plan, console: Console):  # type: ignore[no-untyped-def]
    if port is None:
        return None, ()
    from ..k8s.metrics import LOCAL_NAMESPACE, Metrics, start_metrics_server  # lazy: keeps the CLI start fast

    metrics = Metrics()
    server = start_metrics_server(port, metrics.registry)
    console.print(f"[dim]metrics on http://{server.server_address[0]}:{server.server_port}/metrics[/]")
    return metrics, (plan.evaluation.metadata.namespace or LOCAL_NAMESPACE, plan.evaluation.metadata.name)


def _table(results) -> Table:  # type: ignore[no-untyped-def]
    table = Table(title="Results by task and agent")
    for column in ("task", "agent", "passed", "success", "median AKE", "median reasoning tok", "median s", "infra"):
        table.add_column(column, justify="left" if column in ("task", "agent") else "right")
    for row in group_rows(results):
        rate = row.success_rate
        table.add_row(row.task, row.agent, f"{row.passed}/{row.attempts - row.infra_errors}",
                      "n/a" if rate is None else f"{rate:.0%}", _fmt(row.median_ake),
                      _fmt(row.median_reasoning_tokens), _fmt(row.median_duration_s, 1), str(row.infra_errors))
    return table


def _fmt(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
