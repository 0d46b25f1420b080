"""``tuinaut report RESULTS... --out DIR``: the paper's tables and figures for one or more runs."""

from __future__ import annotations

import click

from ..analysis.report import report_runs
from ..analysis.tables import Settings


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Directory to write into.")
@click.option("--agent", default=None, help="Agent configuration set against humans in Tables 1-2.")
@click.option("--k", "k", type=int, default=None, help="k of Pass@k / All-k (default: fewest runs per task).")
@click.option("--resamples", default=10_000, show_default=True, help="Hierarchical bootstrap resamples.")
@click.option("--seed", default=0, show_default=True, help="Seed of the bootstrap RNG.")
def command(results: tuple[str, ...], out: str, agent: str | None, k: int | None, resamples: int, seed: int) -> None:
    """Write report.md, report.html, report.json and PNG figures for RESULTS run directories.

    The first run is the reference: Tables 1-3 describe it (put human attempts in it). Further runs
    are alternative implementations, compared against the first in Table 4.
    """
    files = report_runs(list(results), out, Settings(n_resamples=resamples, seed=seed, agent=agent, k=k))
    click.echo(f"wrote {files['markdown']} and {files['html']} ({len(files) - 3} figures)")
