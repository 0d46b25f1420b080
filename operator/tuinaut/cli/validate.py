"""``tuinaut validate``: schema check of apps and tasks; with --execute, prove each task sound."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from ..validate import validate


@click.command("validate")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--execute", is_flag=True, help="Run each reference path (must pass), the noop actor and near misses (must fail).")
@click.option("--repeats", type=click.IntRange(1, 100), default=1, show_default=True, help="Reference runs per task.")
@click.option("--parallel", type=click.IntRange(1, 64), default=2, show_default=True, help="Checks at once.")
@click.option("--json", "as_json", is_flag=True, help='Print {"apps", "tasks", "fingerprinted", "problems"} as JSON.')
@click.pass_context
def command(ctx: click.Context, path: Path, execute: bool, repeats: int, parallel: int, as_json: bool) -> None:
    """Validate task packages under PATH (a benchmark root, an app or a task directory).

    Exit code 0 when there are no problems, 1 otherwise.
    """
    console = Console(stderr=True, width=shutil.get_terminal_size((140, 24)).columns)

    def progress(label: str, ok: bool) -> None:
        if not as_json:
            console.print(f"{'[green]ok[/]' if ok else '[red]PROBLEM[/]'} {escape(label)}")

    report = validate(path, execute=execute, repeats=repeats, parallel=parallel, on_check=progress)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2))
    else:
        for problem in report.problems:
            console.print(f"[red]problem[/] {escape(problem)}")
        console.print(f"{report.apps} apps, {report.tasks} tasks ({report.fingerprinted} fingerprinted), "
                      f"{report.checks} executed checks, {len(report.problems)} problems")
    ctx.exit(1 if report.problems else 0)
