#!/usr/bin/env bash
# The test suite, in three stages:
#   1. pytest: real tmux, bubblewrap and TUIs, the analysis, the chart (a few minutes);
#   2. the benchmark's soundness, one reference run per task plus the noop actor and every near
#      miss (`tuinaut validate --execute`; the full 5-run check is `--repeats 5`, see benchmark/README.md);
#   3. the real-cluster stage, scripts/k8s-stage.sh (skip it with TUINAUT_SKIP_K8S=1).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pytest -q -m "not k8s" "$@"
if [ -z "${TUINAUT_SKIP_VALIDATE:-}" ]; then
  echo "[test] benchmark soundness: tuinaut validate --execute --repeats 1 benchmark/" >&2
  start=$(date +%s)
  # exits 1 and lists every problem when a task is unsound
  .venv/bin/tuinaut validate --execute --repeats 1 --parallel 2 --json benchmark/
  echo "[test] benchmark validated in $(( $(date +%s) - start )) s" >&2
fi
if [ -x scripts/k8s-stage.sh ] && [ -z "${TUINAUT_SKIP_K8S:-}" ]; then
  scripts/k8s-stage.sh
fi
