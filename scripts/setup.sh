#!/usr/bin/env bash
# Set up TUINaut on a fresh Debian machine (as root, or with sudo): system packages, a Python venv
# in .venv with TUINaut and its test tools, then the benchmark's apps. Idempotent; safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive

need="tmux bubblewrap python3-venv fonts-dejavu-core procps"
missing=$(for p in $need; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  echo "[setup] apt-get install $missing" >&2
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv with $($PY --version)" >&2
  $PY -m venv .venv
fi
echo "[setup] pip install -e .[test]" >&2
# (this machine's pip config names mirror folders that may be absent: drop those warnings only)
.venv/bin/pip install -q --disable-pip-version-check -e ".[test]" 2> >(grep -v "^WARNING: Location" >&2)

# The benchmark's apps (Debian packages, PyPI apps in /opt/tuinaut/apps), from their app.yaml files.
if ! .venv/bin/tuinaut apps benchmark >/dev/null 2>&1; then
  echo "[setup] installing benchmark apps" >&2
  $SUDO apt-get update -qq
  $SUDO .venv/bin/tuinaut apps benchmark --install >&2 || true
  .venv/bin/tuinaut apps benchmark >&2
fi
echo "[setup] ready: .venv/bin/tuinaut" >&2
