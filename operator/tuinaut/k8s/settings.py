"""The operator's settings: one object of small groups, every field defaulted and documented."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ImageSettings:
    agent: str = "localhost/tuinaut-agent:latest"
    """Image of the agent sidecar (TUINaut, Python, the benchmark at /opt/tuinaut/benchmark)."""
    app_template: str = "localhost/tuinaut-app-{app}:{tag}"
    """Image of an app container; ``{app}`` is the app name, ``{tag}`` its version as an image tag."""
    pull_policy: str = "IfNotPresent"
    """imagePullPolicy of both containers (there is no registry on the test cluster)."""


@dataclass
class PodSettings:
    deadline_margin_s: int = 240
    """Added to limits.attemptTimeoutS for activeDeadlineSeconds: provisioning, init and verification."""
    results_host_path: str | None = None
    """A node directory (writable by uid 1000) for full trajectories; unset keeps them in the Pod only."""
    termination_grace_s: int = 5
    """terminationGracePeriodSeconds of attempt Pods."""


@dataclass
class ControllerSettings:
    resync_s: float = 10.0
    """Every so often every Evaluation and unfinished Attempt is reconciled, events or not."""
    namespaces: list[str] = field(default_factory=list)
    """Namespaces to serve; empty means cluster-wide."""


@dataclass
class OperatorSettings:
    benchmark: Path = Path("benchmark")
    """The benchmark the Evaluations select tasks from (the same as baked into the agent image)."""
    images: ImageSettings = field(default_factory=ImageSettings)
    pods: PodSettings = field(default_factory=PodSettings)
    controller: ControllerSettings = field(default_factory=ControllerSettings)
