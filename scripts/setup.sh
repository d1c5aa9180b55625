#!/usr/bin/env bash
# Create (or reuse) the virtual environment .venv in this checkout and install hedera into it,
# editable, with all four frameworks and the test tools, at the versions in constraints.txt.
#
#   scripts/setup.sh                        install; a no-op when nothing changed since the last one
#   HEDERA_REINSTALL=1 scripts/setup.sh     install again regardless
#   PYTHON=python3.12 scripts/setup.sh      the interpreter that creates .venv (3.10+; default python3)
#
# Needs only Python 3.10+ (with its venv module) and a package index pip can reach.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv
PY=${PYTHON:-python3}
STAMP=$VENV/.hedera-setup

fail() { echo "setup: $*" >&2; exit 1; }

if ! "$VENV/bin/python" -c '' 2>/dev/null; then
    command -v "$PY" >/dev/null 2>&1 || fail "$PY not found; install Python 3.10+ or set PYTHON=/path/to/python3"
    "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
        || fail "hedera needs Python 3.10+, but $PY is $("$PY" -V 2>&1); set PYTHON=/path/to/python3.x"
    echo "setup: creating $VENV with $("$PY" -V 2>&1)"
    "$PY" -m venv "$VENV" || fail "could not create $VENV (on Debian/Ubuntu: apt install python3-venv)"
fi

# What the install depends on; if it matches the last successful install, there is nothing to do.
wanted=$("$VENV/bin/python" - <<'PY'
import hashlib, pathlib, sys
h = hashlib.sha256(sys.version.encode())
for name in ("pyproject.toml", "setup.py", "src/hedera/_fastfront.c", "constraints.txt"):
    h.update(pathlib.Path(name).read_bytes())
print(h.hexdigest())
PY
)
installed_here() {  # hedera is importable from .venv, and from this checkout's src/
    "$VENV/bin/python" - <<'PY' 2>/dev/null
import pathlib, hedera
pathlib.Path(hedera.__file__).resolve().relative_to(pathlib.Path("src").resolve())
PY
}
if [ "${HEDERA_REINSTALL:-0}" != 1 ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$wanted" ] && installed_here; then
    echo "setup: $VENV is up to date (HEDERA_REINSTALL=1 to install again)"
    exit 0
fi

# Editable installs of pyproject-only projects need pip >= 21.3; Python 3.10.0 ships 21.2.
if ! "$VENV/bin/python" -c 'import sys, pip; sys.exit(int(pip.__version__.split(".")[0]) < 23)'; then
    "$VENV/bin/python" -m pip install --upgrade "pip>=23"
fi

echo "setup: installing hedera[dev] into $VENV (all four frameworks; a few minutes the first time)"
rm -f "$STAMP"
"$VENV/bin/python" -m pip install -c constraints.txt -e ".[dev]"
installed_here || fail "hedera is not importable from $VENV after the install"
echo "$wanted" > "$STAMP"
echo "setup: done"
