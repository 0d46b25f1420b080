#!/usr/bin/env bash
# The real-cluster stage of the test suite (scripts/test.sh runs it when this file is executable).
#   1. the single-node Kubernetes from ../shared/k8s: Debian packages, binaries, base images (all cached
#      in $K8S_HOME between runs on one machine);
#   2. images from images/ with buildah, each tagged with a hash of what it is built from and skipped
#      when that tag exists: app base, the apps the tests run, the agent sidecar;
#   3. under the cluster lock (/tmp/tuinaut-k8s.lock; one cluster per machine): the control plane alone
#      (NO_NODE) for the controller tests, then the full node for the end-to-end tests; stopped after.
# Env: K8S_HOME, TUINAUT_SHARED (default ../shared), TUINAUT_K8S_APPS (default: nano mc htop),
#      TUINAUT_K8S_ONLY=images|controller|e2e to run one part; extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-$ROOT/.venv/bin/python}; [ -x "$PY" ] || PY=$(command -v python3)
export K8S_HOME=${K8S_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/tuinaut-k8s}
SHARED=$(cd "${TUINAUT_SHARED:-$ROOT/../shared}/k8s" && pwd)
APPS=${TUINAUT_K8S_APPS:-nano mc htop}
ONLY=${TUINAUT_K8S_ONLY:-}
LOCK=/tmp/tuinaut-k8s.lock
log() { echo "[k8s-stage $(date +%H:%M:%S)] $*" >&2; }
t0=$(date +%s)

# shared/ may be read-only: work on a copy of its scripts (they keep their state in $K8S_HOME).
K8S=$(mktemp -d /tmp/tuinaut-k8s-scripts.XXXXXX); trap 'rm -rf "$K8S"' EXIT
cp -a "$SHARED"/. "$K8S"/

log "cluster tools (setup/build are cached)"
"$K8S/setup.sh" >/dev/null
"$K8S/build.sh" >/dev/null
"$K8S/images.sh" base >/dev/null

# -- images ---------------------------------------------------------------------------------------
hash_of() { (cd "$ROOT" && find "$@" -type f ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 | sort -z |
             xargs -0 sha256sum | sha256sum | cut -c1-12); }
build() { # name extra-tag dockerfile base-arg hash-inputs...
  local name=$1 tag=$2 dockerfile=$3 base=$4; shift 4
  local h; h=h$( { hash_of "$@"; echo "$base"; } | sha256sum | cut -c1-12)
  if buildah inspect --type image "$name:$h" >/dev/null 2>&1; then
    log "image $name:$h cached"
  else
    log "building $name:$h"
    local context=$ROOT
    if [ -n "${PREPARE:-}" ]; then context=$($PREPARE); fi
    buildah bud -q --layers --pull=never --network host ${base:+--build-arg BASE=$base} \
      -t "$name:$h" -f "$ROOT/$dockerfile" "$context" >/dev/null
    [ "$context" = "$ROOT" ] || rm -rf "$context"
  fi
  buildah tag "$name:$h" "$name:$tag"
  echo "$name:$h"
}
BASE_REF=$(build localhost/tuinaut-app-base latest images/app-base/Dockerfile "" images/app-base)
IMAGES=()
for app in $APPS; do
  tag=$("$PY" -c "import sys; from tuinaut.k8s.images import version_tag; from tuinaut.catalog import load_app; from pathlib import Path; print(version_tag(load_app(Path('benchmark/apps/$app')).version))")
  build "localhost/tuinaut-app-$app" "$tag" "images/apps/$app/Dockerfile" "$BASE_REF" "images/apps/$app" >/dev/null
  IMAGES+=("localhost/tuinaut-app-$app:$tag")
done
# The agent's build context: the sources plus every dependency as a wheel (downloaded here, where pip is
# configured; the image build then needs no index).
agent_context() {
CTX=$(mktemp -d /tmp/tuinaut-agent-ctx.XXXXXX)
cp -a pyproject.toml README.md operator analysis benchmark "$CTX"/
find "$CTX" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$CTX/wheels"
"$PY" -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
  > "$CTX/wheels/requirements.txt"
# wheels for the image's Python (3.11, manylinux x86_64); pip's own cache makes a repeat cheap
"$PY" -m pip download -q -d "$CTX/wheels" --only-binary=:all: --python-version 3.11 --implementation cp \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
  -r "$CTX/wheels/requirements.txt" "setuptools>=68" wheel >&2
echo "$CTX"
}
AGENT=$(PREPARE=agent_context build localhost/tuinaut-agent latest images/agent/Dockerfile "" images/agent pyproject.toml README.md operator analysis benchmark)
IMAGES+=("$AGENT")
export TUINAUT_AGENT_IMAGE=$AGENT
if [ -f images/operator/Dockerfile ]; then  # the Helm test's operator image (issue 8): the agent's context and layers
  OPERATOR=$(PREPARE=agent_context build localhost/tuinaut-operator latest images/operator/Dockerfile "" images/operator \
             pyproject.toml README.md operator analysis benchmark)
  IMAGES+=("$OPERATOR")
  export TUINAUT_OPERATOR_IMAGE=$OPERATOR
fi
export TUINAUT_K8S_REQUIRED=1 KUBECONFIG=$K8S_HOME/run/admin.kubeconfig
log "images ready ($(( $(date +%s) - t0 ))s): ${IMAGES[*]}"
[ "$ONLY" = images ] && exit 0

# -- cluster runs, one at a time per machine ------------------------------------------------------
exec 9>"$LOCK"
log "waiting for the cluster lock $LOCK"
flock 9
stop_cluster() { "$K8S/cluster.sh" stop >/dev/null 2>&1 || true; }
trap 'stop_cluster; rm -rf "$K8S"' EXIT
status=0
if [ -z "$ONLY" ] || [ "$ONLY" = controller ]; then
  log "control plane only (NO_NODE): controller tests"
  NO_NODE=1 "$K8S/cluster.sh" start >/dev/null
  TUINAUT_K8S_MODE=control-plane "$PY" -m pytest -q -m "k8s and not node" tests/k8s "$@" || status=$?
  stop_cluster
fi
if [ -z "$ONLY" ] || [ "$ONLY" = e2e ]; then
  log "full node: end-to-end tests"
  "$K8S/cluster.sh" start >/dev/null
  "$K8S/images.sh" load "${IMAGES[@]}" >/dev/null
  TUINAUT_K8S_MODE=node "$PY" -m pytest -q -m "k8s and node" tests/k8s "$@" || status=$?
  stop_cluster
fi
log "k8s stage done in $(( $(date +%s) - t0 ))s (exit $status)"
exit $status
