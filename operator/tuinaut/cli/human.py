"""``tuinaut human``: a person takes the seat for one or more tasks (see docs/human.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ..human.session import plan_from_evaluation, plan_tasks, run_session
from ..human.terminal import PersonTerminal


@click.command("human")
@click.argument("tasks", nargs=-1)
@click.option("--evaluation", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Run an evaluation's tasks and repeats (its agents are ignored) instead of TASKS.")
@click.option("--participant", required=True, help="Participant id (e.g. p01): names the result directories.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Run directory; rerunning into it resumes the session.")
@click.option("--benchmark", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Benchmark root holding apps/ (default: ./benchmark, or the nearest above the evaluation).")
@click.option("--repeats", type=click.IntRange(1, 100), default=1, show_default=True,
              help="Attempts per task (with TASKS; an evaluation has its own).")
@click.option("--seed", type=int, default=None, help="Seed for the task order (default: derived from the participant).")
@click.option("--time-limit", "time_limit", type=click.FloatRange(min=1), default=None,
              help="Seconds per attempt (with TASKS; a task's own limit may be lower).")
@click.pass_context
def command(ctx: click.Context, tasks: tuple[str, ...], evaluation: Path | None, participant: str, out: Path,
            benchmark: Path | None, repeats: int, seed: int | None, time_limit: float | None) -> None:
    """A person does TASKS (app/task, globs allowed) or an --evaluation's tasks, at this terminal.

    Each task is provisioned exactly as for an agent; the person reads the task, then works in the
    live TUI with the keyboard and presses Ctrl+G three times to submit. Keys, timings, the final
    screen and the oracle's verdict are recorded in the same files as an agent's attempts. Task
    order is shuffled with a seed (never two tasks of one app in a row when avoidable); the person
    may stop between tasks, and the same command resumes. Exit code 1 when an attempt ended in an
    infrastructure error.
    """
    if bool(tasks) == bool(evaluation):
        raise click.UsageError("give TASKS (e.g. nano/write-note) or --evaluation FILE, not both or neither")
    if evaluation is not None:
        plan = plan_from_evaluation(evaluation, participant=participant, benchmark=benchmark, seed=seed)
    else:
        plan = plan_tasks(list(tasks), participant=participant, benchmark=benchmark, repeats=repeats, seed=seed,
                          time_limit_s=time_limit)
    terminal = PersonTerminal()
    outcome = run_session(plan, out, terminal)
    done = [r for r in outcome.results if r.outcome != "infra_error"]
    click.echo(f"\n{len(done)} of {len(plan.attempts)} tasks recorded for {participant} in {out}"
               + (" (stopped; run the same command to resume)" if outcome.stopped else "") + ".")
    for result in outcome.results:
        mark = {"passed": "PASS", "failed": "FAIL", "infra_error": "INFRA"}[result.outcome]
        click.echo(f"  {mark:5} {result.app}/{result.task} r{result.repeat}  {result.stop_reason}  "
                   f"{result.keys.ake} keys  {result.interaction_s:.1f}s")
    ctx.exit(1 if outcome.infra_errors else 0)
