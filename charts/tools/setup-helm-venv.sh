#!/usr/bin/env bash
# Create .venv-helm (Python >= 3.12, which helm-sdkpy needs) with the Helm engines the chart tests
# run as a subprocess. Idempotent: reinstalls only when requirements-helm.txt changed.
# Usage: charts/tools/setup-helm-venv.sh [VENV]   (default: <repo>/.venv-helm)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
venv=${1:-$repo/.venv-helm}
req=$here/requirements-helm.txt

find_python() {
  for py in ${HELM_PYTHON:-} python3.13 python3.12 /root/.pyenv/versions/3.12*/bin/python \
            /root/.pyenv/versions/3.13*/bin/python "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python; do
    [ -n "$py" ] || continue
    command -v "$py" >/dev/null 2>&1 || [ -x "$py" ] || continue
    if "$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then echo "$py"; return; fi
  done
  echo "setup-helm-venv: no Python >= 3.12 found (set HELM_PYTHON)" >&2
  exit 1
}

stamp=$venv/.requirements-helm.sha256
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
  py=$(find_python)
  echo "[helm-venv] creating $venv with $("$py" --version)" >&2
  "$py" -m venv "$venv"
fi
echo "[helm-venv] pip install -r $req" >&2
"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
echo "$want" > "$stamp"
