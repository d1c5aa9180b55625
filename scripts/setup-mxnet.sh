#!/usr/bin/env bash
# Create (or reuse) .venv-mxnet, the MXNet environment, and install hedera into it, editable, with
# MXNet 1.9.1, numpy 1.23.5 and the test tools, at the versions in constraints-mxnet.txt.
#
#   scripts/setup-mxnet.sh                        install; a no-op when nothing changed since the last one
#   HEDERA_REINSTALL=1 scripts/setup-mxnet.sh     install again regardless
#   PYTHON=python3.11 scripts/setup-mxnet.sh      the interpreter that creates .venv-mxnet (default python3)
#
# MXNet imports only with numpy<=1.23.5, which JAX and TensorFlow cannot share, so this environment
# is separate from .venv (scripts/setup.sh) and has neither of them. See docs/mxnet.md.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-mxnet
PY=${PYTHON:-python3}
STAMP=$VENV/.hedera-setup
PACKAGES=(mxnet numpy optree safetensors pytest pytest-xdist pytest-timeout hypothesis array-api-strict scipy)

fail() { echo "setup-mxnet: $*" >&2; exit 1; }

if ! "$VENV/bin/python" -c '' 2>/dev/null; then
    command -v "$PY" >/dev/null 2>&1 || fail "$PY not found; install Python 3.10+ or set PYTHON=/path/to/python3"
    echo "setup-mxnet: creating $VENV with $("$PY" -V 2>&1)"
    "$PY" -m venv "$VENV" || fail "could not create $VENV (on Debian/Ubuntu: apt install python3-venv)"
fi

wanted=$("$VENV/bin/python" - <<'PY'
import hashlib, pathlib, sys
h = hashlib.sha256(sys.version.encode())
for name in ("pyproject.toml", "setup.py", "src/hedera/_fastfront.c", "constraints-mxnet.txt", "scripts/setup-mxnet.sh"):
    h.update(pathlib.Path(name).read_bytes())
print(h.hexdigest())
PY
)
if [ "${HEDERA_REINSTALL:-0}" != 1 ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$wanted" ] \
    && "$VENV/bin/python" -c 'import mxnet, hedera' 2>/dev/null; then
    echo "setup-mxnet: $VENV is up to date (HEDERA_REINSTALL=1 to install again)"
    exit 0
fi

echo "setup-mxnet: installing mxnet, numpy 1.23 and the test tools into $VENV"
rm -f "$STAMP"
"$VENV/bin/python" -m pip install -c constraints-mxnet.txt "${PACKAGES[@]}"
"$VENV/bin/python" -m pip install --no-deps -e .  # (its dependencies are among PACKAGES)
"$VENV/bin/python" -c 'import mxnet, numpy, hedera; hedera.namespace("mxnet")' \
    || fail "mxnet or hedera does not import in $VENV"
echo "$wanted" > "$STAMP"
echo "setup-mxnet: done"
