"""``tuinaut images``: generate the app images' Dockerfiles and the app container entrypoint."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("images")
@click.option("--benchmark", type=click.Path(file_okay=False, path_type=Path), default=Path("benchmark"), show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("images"), show_default=True)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 when a generated file differs.")
def command(benchmark: Path, out: Path, check: bool) -> None:
    """Write images/apps/<app>/Dockerfile from each app.yaml, and images/app-base/tuinaut-app."""
    from ..k8s.images import generated_files, write_images

    if check:
        stale = [str(rel) for rel, text in generated_files(benchmark).items()
                 if not (out / rel).exists() or (out / rel).read_text() != text]
        if stale:
            raise click.ClickException(f"out of date under {out}: {', '.join(stale)} (run `tuinaut images`)")
        return
    for path in write_images(benchmark, out):
        click.echo(f"wrote {path}")
