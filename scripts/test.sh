#!/usr/bin/env bash
# The test suite: the main pytest run (real tmux, bubblewrap and TUIs; a few minutes), then the
# real-cluster stage when scripts/k8s-stage.sh exists (skip it with TUINAUT_SKIP_K8S=1).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest -q -m "not k8s" "$@"
if [ -x scripts/k8s-stage.sh ] && [ -z "${TUINAUT_SKIP_K8S:-}" ]; then
  scripts/k8s-stage.sh
fi
