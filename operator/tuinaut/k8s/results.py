"""Trajectories back from the results volume after the Pods are gone (``tuinaut results pull``).

Agent sidecars write ``<results>/<namespace>/<evaluation>/<attempt>/t<N>/`` on the node's results
directory. Pulling runs one short Pod (the agent image, uid 1000, no token) that mounts it read-only
and streams a tarball of the Evaluation's directory through its log; nothing listens on the network.
"""

from __future__ import annotations

import base64
import io
import secrets
import shlex
import tarfile
import time
from pathlib import Path

from ..errors import InfraError
from . import LABEL_EVALUATION
from .api import Kube


def pull_results(kube: Kube, namespace: str, evaluation: str, out: Path, *, image: str, host_path: str,
                 timeout_s: float = 300.0) -> list[Path]:
    """Extract the Evaluation's results under ``out``; returns the result.json files found."""
    name = f"{evaluation[:40]}-pull-{secrets.token_hex(3)}"
    source = shlex.quote(f"/results/{namespace}/{evaluation}")
    pod = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": {LABEL_EVALUATION: evaluation}},
        "spec": {
            "restartPolicy": "Never", "automountServiceAccountToken": False, "enableServiceLinks": False,
            "securityContext": {"runAsNonRoot": True, "runAsUser": 1000, "runAsGroup": 1000},
            "volumes": [{"name": "results", "hostPath": {"path": host_path, "type": "Directory"}}],
            "containers": [{
                "name": "pull", "image": image, "imagePullPolicy": "IfNotPresent",
                "command": ["sh", "-c", f"test -d {source} || exit 3; tar -C {source} -czf - . | base64 -w0"],
                "volumeMounts": [{"name": "results", "mountPath": "/results", "readOnly": True}],
            }],
        },
    }
    kube.create(kube.core("pods", namespace), pod)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            current = kube.get(kube.core("pods", namespace, name)) or {}
            phase = (current.get("status") or {}).get("phase")
            if phase in ("Succeeded", "Failed"):
                break
            if time.monotonic() > deadline:
                raise InfraError("sandbox_error", f"results pod {name} did not finish within {timeout_s:.0f}s")
            time.sleep(0.5)
        if phase == "Failed":
            raise InfraError("sandbox_error", f"no results for {namespace}/{evaluation} under {host_path} "
                                              f"(pod {name} failed)")
        data = kube.request("GET", kube.core("pods", namespace, name, "log"), raw=True)
    finally:
        kube.delete(kube.core("pods", namespace, name))
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(base64.b64decode(data)), mode="r:gz") as archive:
        archive.extractall(out, filter="data")
    return sorted(out.rglob("result.json"))
