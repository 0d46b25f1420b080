"""``tuinaut crds``: write the CustomResourceDefinitions generated from the models."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("crds")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("crds"), show_default=True)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when the files differ from the models.")
def command(out: Path, check: bool) -> None:
    """Generate crds/*.yaml (Evaluation, Attempt) from the pydantic models."""
    from ..k8s.crd import all_crds, render, write_crds

    if check:
        stale = [name for name, crd in all_crds().items()
                 if not (out / name).exists() or (out / name).read_text() != render(crd)]
        if stale:
            raise click.ClickException(f"out of date: {', '.join(stale)} (run `tuinaut crds`)")
        return
    for path in write_crds(out):
        click.echo(f"wrote {path}")
