"""``tuinaut compare BASELINE CANDIDATE``: per-measure differences with CIs and a gating verdict."""

from __future__ import annotations

import json

import click

from ..analysis.compare import compare_runs
from ..analysis.formatting import comparison_text
from ..analysis.loading import load_run


@click.command("compare")
@click.argument("baseline", type=click.Path(exists=True, file_okay=False))
@click.argument("candidate", type=click.Path(exists=True, file_okay=False))
@click.option("--resamples", default=10_000, show_default=True, help="Hierarchical bootstrap resamples.")
@click.option("--seed", default=0, show_default=True, help="Seed of the bootstrap RNG.")
@click.option("--level", default=0.95, show_default=True, help="Confidence level of the intervals.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.pass_context
def command(ctx: click.Context, baseline: str, candidate: str, resamples: int, seed: int, level: float,
            as_json: bool) -> None:
    """Compare two runs task by task; exit 1 when success fell or a cost rose (CI excluding 0).

    BASELINE and CANDIDATE are run directories: two implementations of a TUI, or two agent
    configurations on the same tasks. Exit code 0 means no detected regression.
    """
    result = compare_runs(load_run(baseline), load_run(candidate), n_resamples=resamples, seed=seed, level=level)
    click.echo(json.dumps(result.as_dict(), indent=2) if as_json else comparison_text(result))
    ctx.exit(1 if result.regressions else 0)
