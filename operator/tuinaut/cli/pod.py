"""``tuinaut pod app|agent``: the two sides of an Attempt Pod."""

from __future__ import annotations

import click


@click.group("pod")
def command() -> None:
    """The in-pod runtime of an Attempt (the operator puts these in its Pods)."""


@command.command("app")
@click.option("--run-dir", default="/run/tuinaut", show_default=True, help="The directory shared with the agent.")
def app(run_dir: str) -> None:
    """App container: start the tmux server on RUN_DIR/tmux.sock and wait for RUN_DIR/done."""
    from ..sandbox.pod import run_app_side

    run_app_side(run_dir)


@command.command("agent")
def agent() -> None:
    """Agent sidecar: run the attempt in $TUINAUT_ATTEMPT against the app container, report the result."""
    from ..k8s.inpod import main_from_env

    result = main_from_env()
    click.echo(f"{result.attempt_id}: {result.outcome} ({result.stop_reason})")
