"""``tuinaut operator``: run the kopf operator in this process."""

from __future__ import annotations

import logging
from pathlib import Path

import click


@click.command("operator")
@click.option("--benchmark", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Benchmark the Evaluations select from (default: $TUINAUT_BENCHMARK or ./benchmark).")
@click.option("--namespace", "namespaces", multiple=True, help="Serve only these namespaces (default: all).")
@click.option("--agent-image", envvar="TUINAUT_AGENT_IMAGE", default="localhost/tuinaut-agent:latest", show_default=True)
@click.option("--app-image-template", envvar="TUINAUT_APP_IMAGE_TEMPLATE", default="localhost/tuinaut-app-{app}:{tag}",
              show_default=True)
@click.option("--pull-policy", default="IfNotPresent", show_default=True,
              type=click.Choice(["Always", "IfNotPresent", "Never"]))
@click.option("--results-host-path", envvar="TUINAUT_RESULTS_HOST_PATH", default=None,
              help="Node directory (writable by uid 1000) that keeps full trajectories.")
@click.option("--kubeconfig", envvar="KUBECONFIG", default=None, help="Default: $KUBECONFIG, then in-cluster.")
@click.option("--metrics-port", type=int, default=None, help="Serve Prometheus metrics on this port.")
@click.option("--resync", type=float, default=10.0, show_default=True, help="Seconds between full reconciles.")
@click.option("-v", "--verbose", is_flag=True)
def command(benchmark: Path | None, namespaces: tuple[str, ...], agent_image: str, app_image_template: str,
            pull_policy: str, results_host_path: str | None, kubeconfig: str | None, metrics_port: int | None,
            resync: float, verbose: bool) -> None:
    """Run the Evaluation/Attempt operator against the cluster of KUBECONFIG (or in-cluster)."""
    import os

    from ..k8s.api import Credentials
    from ..k8s.handlers import run_operator
    from ..k8s.settings import ControllerSettings, ImageSettings, OperatorSettings, PodSettings

    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = OperatorSettings(
        benchmark=benchmark or Path(os.environ.get("TUINAUT_BENCHMARK", "benchmark")),
        images=ImageSettings(agent=agent_image, app_template=app_image_template, pull_policy=pull_policy),
        pods=PodSettings(results_host_path=results_host_path),
        controller=ControllerSettings(resync_s=resync, namespaces=list(namespaces)),
    )
    metrics = None
    if metrics_port is not None:
        from ..k8s.metrics import Metrics, start_metrics_server

        metrics = Metrics()
        start_metrics_server(metrics_port, metrics.registry)
    run_operator(settings, Credentials.load(kubeconfig), metrics=metrics)
