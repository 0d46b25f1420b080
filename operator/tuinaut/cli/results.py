"""``tuinaut results pull``: full trajectories of an Evaluation, from the cluster's results volume."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("results")
def command() -> None:
    """Results kept by the Kubernetes executor."""


@command.command("pull")
@click.argument("evaluation")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("-n", "--namespace", default="default", show_default=True)
@click.option("--results-host-path", envvar="TUINAUT_RESULTS_HOST_PATH", required=True,
              help="The node directory the operator was given (--results-host-path).")
@click.option("--image", envvar="TUINAUT_AGENT_IMAGE", default="localhost/tuinaut-agent:latest", show_default=True)
@click.option("--kubeconfig", envvar="KUBECONFIG", default=None)
def pull(evaluation: str, out: Path, namespace: str, results_host_path: str, image: str, kubeconfig: str | None) -> None:
    """Copy EVALUATION's trajectories and results into OUT/<attempt>/t<N>/."""
    from ..k8s.api import Credentials, Kube
    from ..k8s.results import pull_results

    found = pull_results(Kube(Credentials.load(kubeconfig)), namespace, evaluation, out, image=image,
                         host_path=results_host_path)
    click.echo(f"{len(found)} attempt results in {out}")
