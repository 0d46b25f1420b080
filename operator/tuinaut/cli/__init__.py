"""The ``tuinaut`` command: a thin layer, one module per subcommand, each calling the library API."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import click

from ..errors import ConfigError, MissingToolError, TuinautError

# Subcommand modules; each defines a click command named ``command``. They load lazily, so one
# command's heavy imports (kubernetes, matplotlib) never slow down or break another.
COMMAND_MODULES = ("run", "validate", "apps", "report", "compare", "human", "crds", "pod", "results", "operator", "images")


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMAND_MODULES if importlib.util.find_spec(f"{__name__}.{name}") is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.list_commands(ctx):
            return None
        return importlib.import_module(f"{__name__}.{cmd_name}").command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tuinaut")
def cli() -> None:
    """TUINaut: measure how easy a terminal UI is to use, with an actor in the user's seat.

    Typical use: ``tuinaut run benchmark/evaluations/starter.yaml --out runs/starter``.
    """


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
