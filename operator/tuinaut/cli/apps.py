"""``tuinaut apps``: list or install the applications a benchmark needs."""

from __future__ import annotations

from pathlib import Path

import click

from ..catalog import load_catalog
from ..install import apply_install, installed_versions, plan_install


@click.command("apps")
@click.argument("benchmark", type=click.Path(exists=True, file_okay=False, path_type=Path), default="benchmark")
@click.option("--install", "do_install", is_flag=True, help="Install them (apt-get and pip; needs root).")
@click.pass_context
def command(ctx: click.Context, benchmark: Path, do_install: bool) -> None:
    """List the apps under BENCHMARK with their pinned and installed versions; --install installs them.

    Exit code 1 when an app's main Debian package is missing or at another version than app.yaml pins.
    """
    catalog = load_catalog(benchmark)
    apps = list(catalog.apps.values())
    if do_install:
        apply_install(plan_install(apps), echo=lambda line: click.echo(line, err=True))
    mismatched = 0
    main_packages = {app.name: app.install.apt[0] for app in apps if app.install.apt}
    installed = installed_versions(list(main_packages.values()))
    for app in apps:
        package = main_packages.get(app.name)
        have = installed.get(package) if package else "(pip)"
        ok = package is None or have == app.version
        mismatched += not ok
        click.echo(f"{'ok ' if ok else 'BAD'} {app.name:<14} {app.domain:<22} pinned {app.version:<20} installed {have}")
    ctx.exit(1 if mismatched else 0)
