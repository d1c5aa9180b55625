#!/usr/bin/env bash
# Set up .venv-mxnet (scripts/setup-mxnet.sh), then run the MXNet backend's tests in it: the
# cross-backend harness and the namespace conformance tests on numpy (1.23) and mxnet, the
# mxnet-specific tests, and the MXNet half of examples/mxnet_to_torch.py. A few minutes.
#
#   scripts/test-mxnet.sh                          everything (hypothesis profile "ci")
#   scripts/test-mxnet.sh -k sin                   extra arguments go to pytest
#   HYPOTHESIS_PROFILE=thorough scripts/test-mxnet.sh
#
# Both backends are required (a missing mxnet fails the run). Exits 1 if any test failed.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-mxnet.sh

export HEDERA_BACKENDS=numpy,mxnet HEDERA_REQUIRE_BACKENDS=numpy,mxnet
# MXNet's engine is asynchronous: an operator's error would surface at a later, unrelated call.
# The naive engine runs each operator synchronously, so every error is raised where it happens.
export MXNET_ENGINE_TYPE=${MXNET_ENGINE_TYPE:-NaiveEngine}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MKL_NUM_THREADS=${MKL_NUM_THREADS:-1}
workers=${HEDERA_TEST_WORKERS:-2}
xdist=()
[ "$workers" != 0 ] && xdist=(-n "$workers")

echo "test-mxnet: pytest in .venv-mxnet (HEDERA_BACKENDS=$HEDERA_BACKENDS)"
# test_inspection_api[mxnet]: the standard asks for at least 8 dimensions; MXNet's transposes
# support 6, and its __array_namespace_info__ says so (docs/mxnet.md).
.venv-mxnet/bin/python -m pytest ${xdist[@]+"${xdist[@]}"} --timeout=600 -p no:cacheprovider \
    tests/core/test_functions.py tests/core/test_namespaces.py tests/backends/test_backend_mxnet.py tests/project/test_example_mxnet.py \
    tests/core/test_special_cases.py tests/core/test_signed_zero_scalars.py tests/core/test_finfo_iinfo_scalars.py \
    tests/control/test_control.py tests/control/test_control_errors.py tests/control/test_control_matrix.py \
    --deselect "tests/core/test_namespaces.py::test_inspection_api[mxnet]" "$@"
echo "test-mxnet: all checks passed"
