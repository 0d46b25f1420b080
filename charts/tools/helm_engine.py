"""Real Helm engines for the chart tests, run with .venv-helm's Python (helm-sdkpy needs >= 3.12).

The tests (Python 3.11) call this as a subprocess and read one JSON document from stdout:

    helm_engine.py lint CHART [--values V.json] [--kube-version v1.20.2]
        helm-sdkpy's lint (default values) and helm-python-sdk's lint (with the values, strict):
        {"sdkpy": {"errors": N, "severities": [...]}, "helm": {"errors": [...], "messages": [...]}}
    helm_engine.py render CHART [--values V.json] [--name R] [--namespace NS] [--validate 1.20]
        Helm's template engine offline; every document (CRDs included), and with --validate each
        one checked by kubernetes-validate against that Kubernetes version's schemas:
        {"documents": [{"source", "kind", "name", "namespace", "errors": [...], "object"}]}
    helm_engine.py install CHART --name R --namespace NS --kubeconfig K [--values V.json] [--timeout S]
    helm_engine.py uninstall --name R --namespace NS --kubeconfig K
        helm-sdkpy against a cluster (install waits until the release's resources are ready).

A Helm failure exits 1 with {"error": "..."}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import yaml

SEVERITY = {0: "unknown", 1: "info", 2: "warning", 3: "error"}


def load_values(path: str | None) -> dict[str, Any] | None:
    return json.loads(Path(path).read_text()) if path else None


def lint(args: argparse.Namespace) -> dict[str, Any]:
    import helm_python
    import helm_sdkpy

    config = helm_sdkpy.Configuration(namespace="default")
    report = asyncio.run(helm_sdkpy.Lint(config).run(args.chart))
    # helm-sdkpy serialises lint errors as empty objects: only their severities and paths are left.
    severities = [{"severity": SEVERITY.get(m["Severity"], "?"), "path": m["Path"]} for m in report["Messages"]]
    sdkpy = {"errors": sum(m["severity"] == "error" for m in severities), "severities": severities}
    full = helm_python.lint(args.chart, load_values(args.values), strict=True, kube_version=args.kube_version,
                            namespace="default")
    messages = [{"severity": SEVERITY.get(m["severity"], "?"), "path": m["path"], "error": m["error"]}
                for m in full["messages"]]
    return {"sdkpy": sdkpy, "helm": {"errors": full.get("errors") or [], "messages": messages}}


def render(args: argparse.Namespace) -> dict[str, Any]:
    import helm_python

    chart = helm_python.Chart.load(args.chart)
    values = load_values(args.values)
    chart.validate_schema(values)  # what helm install does before rendering
    sources = [(f"crds/{Path(c['name']).name}", c["data"]) for c in chart.crds]
    rendered = chart.render(values, name=args.name, namespace=args.namespace, is_install=True)
    sources += sorted((path, text) for path, text in rendered.items() if not path.endswith("NOTES.txt"))
    documents = []
    for source, text in sources:
        for obj in yaml.safe_load_all(text):
            if not obj:
                continue
            meta = obj.get("metadata") or {}
            doc = {"source": source, "kind": obj.get("kind"), "name": meta.get("name"),
                   "namespace": meta.get("namespace"), "object": obj}
            if args.validate:
                doc["errors"] = validate(obj, args.validate)
            documents.append(doc)
    notes = next((text for path, text in rendered.items() if path.endswith("NOTES.txt")), "")
    return {"documents": documents, "notes": notes}


def validate(obj: dict[str, Any], version: str) -> list[str]:
    import kubernetes_validate

    try:
        kubernetes_validate.validate(obj, version, strict=True)
    except kubernetes_validate.SchemaNotFoundError:
        return [f"no schema for {obj.get('kind')} {obj.get('apiVersion')} in Kubernetes {version}"]
    except kubernetes_validate.ValidationError as e:
        return [f"{'.'.join(str(p) for p in e.path)}: {e.message}"]
    return []


def install(args: argparse.Namespace) -> dict[str, Any]:
    import helm_sdkpy

    config = helm_sdkpy.Configuration(namespace=args.namespace, kubeconfig=args.kubeconfig)
    result = asyncio.run(helm_sdkpy.Install(config).run(args.name, args.chart, values=load_values(args.values),
                                                        create_namespace=True, wait=True, timeout=args.timeout))
    return {"release": {k: result.get(k) for k in ("name", "namespace", "version", "info") if k in result}}


def uninstall(args: argparse.Namespace) -> dict[str, Any]:
    import helm_sdkpy

    config = helm_sdkpy.Configuration(namespace=args.namespace, kubeconfig=args.kubeconfig)
    return {"result": asyncio.run(helm_sdkpy.Uninstall(config).run(args.name, wait=True, timeout=args.timeout))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("lint")
    p.add_argument("chart")
    p.add_argument("--values")
    p.add_argument("--kube-version", default="v1.20.2")
    p = sub.add_parser("render")
    p.add_argument("chart")
    p.add_argument("--values")
    p.add_argument("--name", default="tuinaut")
    p.add_argument("--namespace", default="tuinaut-system")
    p.add_argument("--validate", metavar="KUBERNETES_VERSION")
    for name in ("install", "uninstall"):
        p = sub.add_parser(name)
        if name == "install":
            p.add_argument("chart")
            p.add_argument("--values")
        p.add_argument("--name", required=True)
        p.add_argument("--namespace", required=True)
        p.add_argument("--kubeconfig", required=True)
        p.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()
    try:
        out = {"lint": lint, "render": render, "install": install, "uninstall": uninstall}[args.command](args)
    except Exception as e:  # reason: any Helm failure becomes data for the calling test
        json.dump({"error": f"{type(e).__name__}: {e}"}, sys.stdout)
        sys.exit(1)
    json.dump(out, sys.stdout, default=str)


if __name__ == "__main__":
    main()
