#!/usr/bin/env bash
# Set up .venv (scripts/setup.sh), then run every check: ruff lint, ruff format, mypy on the public
# API, the test suite.
#
#   scripts/test.sh                          everything (hypothesis profile "ci")
#   scripts/test.sh tests/core/test_dispatch.py   extra arguments go to pytest
#   HYPOTHESIS_PROFILE=thorough scripts/test.sh
#   HEDERA_BACKENDS=torch scripts/test.sh    only the torch backend in backend-parametrised tests
#   HEDERA_TEST_WORKERS=1 scripts/test.sh    pytest-xdist workers (default 2; 0 = no xdist)
#
# Without arguments it then runs the dispatch tests again on the pure-Python fronts
# (HEDERA_PURE_PYTHON=1), the fallback where hedera's C extension is not built.
#
# A missing framework skips its tests with a reason; HEDERA_REQUIRE_BACKENDS=numpy,torch,...
# (set by .ci/run) turns that skip into a failure. Exits 1 if any step failed, including
# pytest's "no tests ran" (exit status 5).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

# Every step runs, so one run reports everything; the exit status is non-zero if any failed.
failed=()
echo "test: ruff check"
.venv/bin/ruff check . || failed+=("ruff check")
echo "test: ruff format --check"
.venv/bin/ruff format --check . || failed+=("ruff format")
echo "test: mypy (the public API's annotations, pyproject.toml [tool.mypy])"
.venv/bin/python -m mypy || failed+=("mypy")

workers=${HEDERA_TEST_WORKERS:-2}
xdist=()
if [ "$workers" != 0 ]; then
    xdist=(-n "$workers")
    # one xdist worker per core: keep each framework's own thread pool to one thread, or
    # torch/XLA/TF threads oversubscribe the cores and the suite runs several times slower
    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
    export TF_NUM_INTRAOP_THREADS=${TF_NUM_INTRAOP_THREADS:-1} TF_NUM_INTEROP_THREADS=${TF_NUM_INTEROP_THREADS:-1}
    export XLA_FLAGS="${XLA_FLAGS:-} --xla_cpu_multi_thread_eigen=false"
fi
echo "test: pytest (HEDERA_REQUIRE_BACKENDS=${HEDERA_REQUIRE_BACKENDS:-<none>})"
status=0
.venv/bin/python -m pytest ${xdist[@]+"${xdist[@]}"} --timeout=900 --durations=20 "$@" || status=$?
if [ "$status" = 5 ]; then
    failed+=("pytest (no tests ran)")
elif [ "$status" != 0 ]; then
    failed+=("pytest (exit status $status)")
fi

# The fronts' pure-Python fallback (no C extension: hedera/_fastpath.py) runs the dispatch tests.
if [ $# = 0 ]; then
    echo "test: pytest, dispatch tests with HEDERA_PURE_PYTHON=1"
    HEDERA_PURE_PYTHON=1 HEDERA_REQUIRE_FAST_PATH=0 .venv/bin/python -m pytest ${xdist[@]+"${xdist[@]}"} \
        --timeout=900 -q tests/core/test_dispatch.py tests/core/test_compiled_dispatch.py tests/core/test_errors.py \
        tests/core/test_front_generated.py tests/core/test_argument_checks.py || failed+=("pytest (HEDERA_PURE_PYTHON=1)")
fi

if [ ${#failed[@]} -gt 0 ]; then
    printf 'test: FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "test: all checks passed"
