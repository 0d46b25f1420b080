"""The Helm chart, linted and rendered by real Helm engines; every rendered manifest validated
against the Kubernetes 1.20 schemas (kubernetes-validate).

Helm runs in its own venv (.venv-helm, Python >= 3.12, made by charts/tools/setup-helm-venv.sh on
first use) through charts/tools/helm_engine.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "charts" / "tuinaut"
TOOLS = REPO / "charts" / "tools"
KUBERNETES = "1.20"
NS = "tuinaut-system"

# Test cluster values: no kube-proxy, so the operator runs on the host network against 127.0.0.1:6443.
TEST_CLUSTER = {"hostNetwork": True, "extraEnv": [{"name": "KUBERNETES_SERVICE_HOST", "value": "127.0.0.1"},
                                                  {"name": "KUBERNETES_SERVICE_PORT", "value": "6443"}]}
EVERYTHING = {
    "operator": {"watchNamespaces": ["team-a", "team-b"], "agentImage": "registry.example/tuinaut-agent:1",
                 "appImageTemplate": "registry.example/app-{app}:{tag}", "attemptPullPolicy": "Always",
                 "resultsHostPath": "/var/lib/tuinaut", "resyncSeconds": 30, "verbose": True,
                 "extraArgs": ["--benchmark=/data/benchmark"]},
    **TEST_CLUSTER,
    "metrics": {"port": 9100, "service": {"enabled": True, "type": "ClusterIP", "port": 9200},
                "serviceMonitor": {"enabled": True, "namespace": "monitoring", "labels": {"release": "prom"},
                                   "interval": "15s"}},
    "dashboard": {"enabled": True, "namespace": "grafana", "sidecarLabel": "grafana_dashboard_tuinaut",
                  "sidecarLabelValue": "yes", "annotations": {"grafana_folder": "TUINaut"}},
    "networkPolicy": {"enabled": True, "modelEndpoint": {"cidrs": ["203.0.113.7/32"], "ports": [443, 8443]},
                      "dns": {"enabled": True, "port": 53}},
}
VARIANTS = {"defaults": {}, "test-cluster": TEST_CLUSTER, "everything": EVERYTHING}


@pytest.fixture(scope="session")
def helm_python() -> Path:
    subprocess.run([str(TOOLS / "setup-helm-venv.sh")], check=True, timeout=900)
    return REPO / ".venv-helm" / "bin" / "python"


def engine(helm_python: Path, tmp_path: Path, *args: str, values: dict[str, Any] | None = None,
           ok: bool = True) -> dict[str, Any]:
    """Run charts/tools/helm_engine.py; ``ok`` says whether Helm is expected to succeed."""
    command = [str(helm_python), str(TOOLS / "helm_engine.py"), *args]
    if values is not None:
        path = tmp_path / f"values-{len(list(tmp_path.glob('values-*')))}.json"
        path.write_text(json.dumps(values))
        command += ["--values", str(path)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    out = json.loads(proc.stdout) if proc.stdout.strip() else {"error": proc.stderr}
    assert (proc.returncode == 0) == ok, f"{args}: exit {proc.returncode}\n{out}\n{proc.stderr[-2000:]}"
    return out


_RENDERED: dict[tuple[str, str], list[dict[str, Any]]] = {}


def render(helm_python: Path, tmp_path: Path, values: dict[str, Any] | None = None,
           chart: Path = CHART) -> list[dict[str, Any]]:
    """Render and validate every document (cached per chart and values: validation takes seconds)."""
    key = (str(chart), json.dumps(values, sort_keys=True))
    if key not in _RENDERED:
        out = engine(helm_python, tmp_path, "render", str(chart), "--namespace", NS, "--validate", KUBERNETES,
                     values=values)
        _RENDERED[key] = out["documents"]
    return _RENDERED[key]


def find(documents: list[dict[str, Any]], kind: str, namespace: str | None = None) -> list[dict[str, Any]]:
    return [d["object"] for d in documents if d["kind"] == kind and (namespace is None or d["namespace"] == namespace)]


def one(documents: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    (obj,) = find(documents, kind)
    return obj


# -- lint -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_lint_is_clean(helm_python: Path, tmp_path: Path, variant: str) -> None:
    report = engine(helm_python, tmp_path, "lint", str(CHART), values=VARIANTS[variant] or None)
    assert report["sdkpy"]["errors"] == 0, report["sdkpy"]
    assert report["helm"]["errors"] == [], report["helm"]
    problems = [m for m in report["helm"]["messages"] if m["severity"] in ("warning", "error")]
    assert problems == []


def test_lint_catches_a_broken_template(helm_python: Path, tmp_path: Path) -> None:
    broken = tmp_path / "tuinaut"
    shutil.copytree(CHART, broken)
    service = broken / "templates" / "service.yaml"
    service.write_text(service.read_text().replace("{{- end }}", "", 1))  # an unclosed if
    report = engine(helm_python, tmp_path, "lint", str(broken))
    assert report["sdkpy"]["errors"] >= 1
    assert any("service.yaml" in e for e in report["helm"]["errors"]), report["helm"]


@pytest.mark.parametrize(("values", "complaint"), [
    ({"replicas": 2}, "replicas"),                                          # unknown key: one replica, always
    ({"metrics": {"port": 0}}, "port"),
    ({"image": {"pullPolicy": "Sometimes"}}, "pullPolicy"),
    ({"operator": {"watchNamespaces": ["Not_A_Namespace"]}}, "watchNamespaces"),
    ({"networkPolicy": {"modelEndpoint": {"cidrs": ["api.example.com"]}}}, "cidrs"),
])
def test_values_schema_refuses_bad_values(helm_python: Path, tmp_path: Path, values: dict, complaint: str) -> None:
    out = engine(helm_python, tmp_path, "render", str(CHART), values=values, ok=False)
    assert complaint in out["error"], out


# -- every manifest valid for Kubernetes 1.20 -------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rendered_manifest_is_valid_for_kubernetes_1_20(helm_python: Path, tmp_path: Path,
                                                               variant: str) -> None:
    documents = render(helm_python, tmp_path, VARIANTS[variant])
    kinds = {d["kind"] for d in documents}
    assert {"CustomResourceDefinition", "Deployment", "ServiceAccount", "Service", "ConfigMap"} <= kinds
    for doc in documents:
        if doc["kind"] == "ServiceMonitor":  # a Prometheus Operator CRD: no schema in Kubernetes itself
            no_schema = f"no schema for ServiceMonitor monitoring.coreos.com/v1 in Kubernetes {KUBERNETES}"
            assert doc["errors"] == [no_schema]
            continue
        assert doc["errors"] == [], f"{doc['source']} {doc['kind']}/{doc['name']}: {doc['errors']}"
        if doc["kind"] not in ("CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding"):
            assert doc["namespace"], f"{doc['kind']}/{doc['name']} has no namespace"


def test_validation_catches_an_invalid_manifest(helm_python: Path, tmp_path: Path) -> None:
    broken = tmp_path / "tuinaut"
    shutil.copytree(CHART, broken)
    deployment = broken / "templates" / "deployment.yaml"
    deployment.write_text(deployment.read_text().replace("replicas: 1", "replicas: one"))
    (doc,) = [d for d in render(helm_python, tmp_path, chart=broken) if d["kind"] == "Deployment"]
    assert doc["errors"] and "replicas" in doc["errors"][0]


# -- what the manifests say -------------------------------------------------------------------------

def test_crds_in_the_chart_are_the_generated_ones(helm_python: Path, tmp_path: Path) -> None:
    generated = sorted((REPO / "crds").glob("*.yaml"))
    assert [p.name for p in generated] == ["attempts.tuinaut.dev.yaml", "evaluations.tuinaut.dev.yaml"]
    assert sorted(p.name for p in (CHART / "crds").iterdir()) == [p.name for p in generated]
    for path in generated:
        assert (CHART / "crds" / path.name).read_bytes() == path.read_bytes(), (
            f"charts/tuinaut/crds/{path.name} differs from crds/{path.name}: copy it over")
    crds = find(render(helm_python, tmp_path), "CustomResourceDefinition")
    assert sorted(c["metadata"]["name"] for c in crds) == ["attempts.tuinaut.dev", "evaluations.tuinaut.dev"]


def test_deployment_runs_one_operator_with_recreate(helm_python: Path, tmp_path: Path) -> None:
    deployment = one(render(helm_python, tmp_path), "Deployment")
    assert deployment["spec"]["replicas"] == 1
    assert deployment["spec"]["strategy"] == {"type": "Recreate"}
    pod = deployment["spec"]["template"]["spec"]
    assert "hostNetwork" not in pod
    (container,) = pod["containers"]
    assert container["image"] == "localhost/tuinaut-operator:0.1.0"
    assert container["args"] == ["operator", "--metrics-port=8080", "--agent-image=localhost/tuinaut-agent:latest",
                                 "--app-image-template=localhost/tuinaut-app-{app}:{tag}", "--pull-policy=IfNotPresent",
                                 "--resync=10"]
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert pod["securityContext"]["runAsNonRoot"] is True


def test_test_cluster_values_put_the_operator_on_the_host_network(helm_python: Path, tmp_path: Path) -> None:
    pod = one(render(helm_python, tmp_path, TEST_CLUSTER), "Deployment")["spec"]["template"]["spec"]
    assert pod["hostNetwork"] is True
    assert pod["dnsPolicy"] == "ClusterFirstWithHostNet"
    env = {e["name"]: e.get("value") for e in pod["containers"][0]["env"]}
    assert env["KUBERNETES_SERVICE_HOST"] == "127.0.0.1" and env["KUBERNETES_SERVICE_PORT"] == "6443"


def test_metrics_service_and_service_monitor_point_at_the_operator_port(helm_python: Path, tmp_path: Path) -> None:
    documents = render(helm_python, tmp_path, EVERYTHING)
    deployment, service = one(documents, "Deployment"), one(documents, "Service")
    monitor = one(documents, "ServiceMonitor")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert {"name": "metrics", "containerPort": 9100, "protocol": "TCP"} in container["ports"]
    assert "--metrics-port=9100" in container["args"]
    assert service["spec"]["ports"] == [{"name": "metrics", "port": 9200, "targetPort": "metrics", "protocol": "TCP"}]
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pod_labels.items()
    assert monitor["metadata"]["namespace"] == "monitoring"
    assert monitor["metadata"]["labels"]["release"] == "prom"
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    assert monitor["spec"]["endpoints"] == [{"port": "metrics", "path": "/metrics", "interval": "15s"}]
    assert monitor["spec"]["namespaceSelector"] == {"matchNames": [NS]}
    assert not find(render(helm_python, tmp_path), "ServiceMonitor")  # off by default


def test_dashboard_configmap_carries_the_dashboard_with_the_sidecar_label(helm_python: Path, tmp_path: Path) -> None:
    configmap = one(render(helm_python, tmp_path, EVERYTHING), "ConfigMap")
    assert configmap["metadata"]["namespace"] == "grafana"
    assert configmap["metadata"]["labels"]["grafana_dashboard_tuinaut"] == "yes"
    assert configmap["metadata"]["annotations"] == {"grafana_folder": "TUINaut"}
    shipped = json.loads((CHART / "dashboards" / "tuinaut.json").read_text())
    assert json.loads(configmap["data"]["tuinaut.json"]) == shipped
    default = one(render(helm_python, tmp_path), "ConfigMap")
    assert default["metadata"]["namespace"] == NS and default["metadata"]["labels"]["grafana_dashboard"] == "1"


def test_network_policy_lets_attempt_pods_reach_only_the_model_endpoint(helm_python: Path, tmp_path: Path) -> None:
    documents = render(helm_python, tmp_path, EVERYTHING)
    policies = find(documents, "NetworkPolicy")
    assert sorted(p["metadata"]["namespace"] for p in policies) == ["team-a", "team-b"]
    spec = policies[0]["spec"]
    assert spec["podSelector"] == {"matchExpressions": [{"key": "tuinaut.dev/attempt", "operator": "Exists"}]}
    assert spec["policyTypes"] == ["Ingress", "Egress"] and spec["ingress"] == []
    model, dns = spec["egress"]
    assert model == {"to": [{"ipBlock": {"cidr": "203.0.113.7/32"}}],
                     "ports": [{"protocol": "TCP", "port": 443}, {"protocol": "TCP", "port": 8443}]}
    assert {p["port"] for p in dns["ports"]} == {53}
    assert dns["to"] == [{"namespaceSelector": {}, "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}]
    assert not find(render(helm_python, tmp_path), "NetworkPolicy")  # off by default
    out = engine(helm_python, tmp_path, "render", str(CHART), values={"networkPolicy": {"enabled": True}}, ok=False)
    assert "modelEndpoint.cidrs" in out["error"]


def test_notes_say_how_to_reach_metrics_and_that_helm_does_not_upgrade_crds(helm_python: Path, tmp_path: Path) -> None:
    notes = engine(helm_python, tmp_path, "render", str(CHART), "--namespace", NS)["notes"]
    assert f"/api/v1/namespaces/{NS}/services/tuinaut-metrics:8080/proxy/metrics" in notes
    assert "Helm never upgrades or deletes CRDs" in notes


# -- RBAC: least privilege --------------------------------------------------------------------------

OPERATOR_RULES = [
    {"apiGroups": ["tuinaut.dev"], "resources": ["evaluations"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": ["tuinaut.dev"], "resources": ["attempts"], "verbs": ["get", "list", "watch", "create", "patch"]},
    {"apiGroups": ["tuinaut.dev"], "resources": ["evaluations/status", "attempts/status"], "verbs": ["patch"]},
    {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch", "create", "delete"]},
    {"apiGroups": [""], "resources": ["events"], "verbs": ["create"]},
]
# kopf's own cluster-scoped observation (kopf/_core/reactor/observation.py): CRDs always; Namespace
# objects when it serves a list of namespaces. Without them it retries 403s, then degrades.
KOPF_CRDS = {"apiGroups": ["apiextensions.k8s.io"], "resources": ["customresourcedefinitions"],
             "verbs": ["list", "watch"]}
KOPF_NAMESPACES = {"apiGroups": [""], "resources": ["namespaces"], "verbs": ["list", "watch"]}


def test_cluster_wide_rbac_is_exactly_the_operators_verbs(helm_python: Path, tmp_path: Path) -> None:
    documents = render(helm_python, tmp_path)
    role, binding = one(documents, "ClusterRole"), one(documents, "ClusterRoleBinding")
    account = one(documents, "ServiceAccount")
    assert role["rules"] == [*OPERATOR_RULES, KOPF_CRDS]
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                                  "name": role["metadata"]["name"]}
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": account["metadata"]["name"], "namespace": NS}]
    deployment = one(documents, "Deployment")
    assert deployment["spec"]["template"]["spec"]["serviceAccountName"] == account["metadata"]["name"]
    assert not find(documents, "Role")


def test_namespaced_rbac_has_a_role_per_watched_namespace(helm_python: Path, tmp_path: Path) -> None:
    documents = render(helm_python, tmp_path, EVERYTHING)
    # Only kopf's observation of CRDs and Namespace objects is cluster-scoped.
    (cluster_role,) = find(documents, "ClusterRole")
    assert cluster_role["rules"] == [KOPF_CRDS, KOPF_NAMESPACES]
    (cluster_binding,) = find(documents, "ClusterRoleBinding")
    assert cluster_binding["roleRef"]["name"] == cluster_role["metadata"]["name"]
    assert cluster_binding["subjects"] == [{"kind": "ServiceAccount", "name": "tuinaut", "namespace": NS}]
    roles = find(documents, "Role")
    assert sorted(r["metadata"]["namespace"] for r in roles) == ["team-a", "team-b"]
    for role in roles:
        assert role["rules"] == OPERATOR_RULES
    bindings = find(documents, "RoleBinding")
    pairs = {(b["metadata"]["namespace"], b["subjects"][0]["namespace"]) for b in bindings}
    assert pairs == {("team-a", NS), ("team-b", NS)}
    args = one(documents, "Deployment")["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args == ["operator", "--namespace=team-a", "--namespace=team-b", "--metrics-port=9100",
                    "--agent-image=registry.example/tuinaut-agent:1",
                    "--app-image-template=registry.example/app-{app}:{tag}", "--pull-policy=Always", "--resync=30",
                    "--results-host-path=/var/lib/tuinaut", "--verbose", "--benchmark=/data/benchmark"]


def test_no_rule_grants_wildcards_or_secrets(helm_python: Path, tmp_path: Path) -> None:
    for values in VARIANTS.values():
        documents = render(helm_python, tmp_path, values)
        for role in find(documents, "ClusterRole") + find(documents, "Role"):
            for rule in role["rules"]:
                assert "*" not in rule["verbs"] + rule["resources"] + rule["apiGroups"], rule
                assert "secrets" not in rule["resources"], rule


def test_values_yaml_documents_every_default(helm_python: Path, tmp_path: Path) -> None:
    """values.yaml is the reference users read: the schema requires what it sets, and nothing else is hidden."""
    values = yaml.safe_load((CHART / "values.yaml").read_text())
    schema = json.loads((CHART / "values.schema.json").read_text())
    assert set(values) == set(schema["properties"]) - {"global"}


# The operator's package, minus modules the operator process never runs: results.py is the user's
# `tuinaut results` command (the user's own credentials), inpod.py runs inside attempt Pods (no token).
K8S_CODE = REPO / "operator" / "tuinaut" / "k8s"
NOT_THE_OPERATOR = {"results.py", "inpod.py"}
HTTP_VERBS = {"GET": "get", "POST": "create", "PATCH": "patch", "DELETE": "delete", "PUT": "update"}


def api_calls_in_operator_code() -> set[tuple[str, str, str]]:
    """(API group, resource, verb) for every request the operator's code makes, read from its AST.

    Kube client calls ``kube.get/list/create/patch/delete(kube.custom|core(PLURAL, ns, name, SUB))``,
    ``kube.request(METHOD, path)``, ``kube.event(...)``, and kopf watches ``@kopf.on.event(GROUP, VERSION, PLURAL)``.
    """
    import ast

    import tuinaut.k8s as k8s

    def constant(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and isinstance(getattr(k8s, node.id, None), str):
            return getattr(k8s, node.id)
        return None

    def resources(path: ast.AST) -> list[tuple[str, str]]:
        if not (isinstance(path, ast.Call) and isinstance(path.func, ast.Attribute)
                and path.func.attr in ("custom", "core")):
            return []
        group = "tuinaut.dev" if path.func.attr == "custom" else ""
        plural = constant(path.args[0])
        # A variable plural (e.g. _patch_status(plural, ...)) may be either custom resource.
        plurals = [plural] if plural else [k8s.EVALUATIONS, k8s.ATTEMPTS]
        sub_node = path.args[3] if len(path.args) > 3 else \
            next((k.value for k in path.keywords if k.arg == "sub"), None)
        sub = constant(sub_node) if sub_node is not None else None
        return [(group, f"{p}/{sub}" if sub else p) for p in plurals]

    used: set[tuple[str, str, str]] = set()
    for source in sorted(K8S_CODE.glob("*.py")):
        if source.name in NOT_THE_OPERATOR:
            continue
        for node in ast.walk(ast.parse(source.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            method = node.func.attr
            if method in ("get", "list", "create", "patch", "delete") and node.args:
                used |= {(g, r, method) for g, r in resources(node.args[0])}
            elif method == "request" and len(node.args) >= 2 and constant(node.args[0]) in HTTP_VERBS:
                used |= {(g, r, HTTP_VERBS[constant(node.args[0])]) for g, r in resources(node.args[1])}
            elif method == "event" and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "kube":
                used.add(("", "events", "create"))
            elif method == "event" and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "on":
                group, plural = constant(node.args[0]), constant(node.args[2])
                assert group is not None and plural, ast.dump(node)
                used |= {(group, plural, "list"), (group, plural, "watch")}
    return used


def test_rbac_grants_exactly_the_api_calls_the_operator_makes(helm_python: Path, tmp_path: Path) -> None:
    used = api_calls_in_operator_code()
    assert ("tuinaut.dev", "attempts", "create") in used and ("", "pods", "watch") in used  # the scan sees calls
    rules = [r for r in one(render(helm_python, tmp_path), "ClusterRole")["rules"] if r != KOPF_CRDS]
    granted = {(group, resource, verb) for rule in rules
               for group in rule["apiGroups"] for resource in rule["resources"] for verb in rule["verbs"]}
    assert granted - used == set(), "granted but never used"
    assert used - granted == set(), "used but not granted"
