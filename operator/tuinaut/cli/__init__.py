"""The ``tuinaut`` command: a thin layer, one module per subcommand, each calling the library API."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import click

from ..errors import ConfigError, MissingToolError, TuinautError

# Subcommand modules; each defines a click command named like the module. Modules that a later
# piece of work adds are picked up when present.
COMMAND_MODULES = ("run", "validate", "report", "compare", "human", "crds", "pod", "results", "operator")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tuinaut")
def cli() -> None:
    """TUINaut: measure how easy a terminal UI is to use, with an actor in the user's seat.

    Typical use: ``tuinaut run benchmark/evaluations/starter.yaml --out runs/starter``.
    """


for _name in COMMAND_MODULES:
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        _module = importlib.import_module(f"{__name__}.{_name}")
        cli.add_command(getattr(_module, "command"))


def main() -> None:
    """Entry point: user errors print one clear line and exit 2, never a traceback."""
    try:
        code = cli.main(standalone_mode=False)  # a command's ctx.exit(n) comes back as n
        sys.exit(code if isinstance(code, int) else 0)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (ConfigError, MissingToolError) as exc:
        click.secho(f"error: {exc}", fg="red", err=True)
        sys.exit(2)
    except TuinautError as exc:
        click.secho(f"error: {exc}", fg="red", err=True)
        sys.exit(1)
