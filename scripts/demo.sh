#!/usr/bin/env bash
# Set up .venv (scripts/setup.sh), then run the main demo: the same hedera code on every
# installed backend, with its results and hedera's dispatch overhead per call.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec .venv/bin/python examples/demo.py "$@"
