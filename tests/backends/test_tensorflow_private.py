"""The tensorflow backend's uses of TensorFlow's private API live in one module, ``_private``, each
with a public fallback: on the pinned TensorFlow none falls back, and the fallback of the
generated op functions (``tf.raw_ops``) computes what they compute."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from conftest import require_backend

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "hedera"


@pytest.fixture
def tf():
    require_backend("tensorflow")
    import tensorflow

    import hedera.backends.tensorflow  # noqa: F401  (loads _private with the backend)

    return tensorflow


def test_no_fallback_on_the_pinned_tensorflow(tf):
    from hedera.backends.tensorflow import _private

    assert _private.FALLBACKS == []


def test_private_tensorflow_is_imported_in_one_module_only():
    users = [
        p.name
        for p in sorted((SRC / "backends" / "tensorflow").glob("*.py"))
        if "tensorflow.python" in p.read_text() and p.name != "_private.py"
    ]
    assert users == []


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("add_v2", ([1.0, 2.0], [3.0, 4.0])),
        ("_abs", ([-1.5, 2.0],)),
        ("_pow", ([2.0, 3.0], [2.0, 0.5])),
        ("floor_div", ([7, -7], [2, 2])),
        ("next_after", ([1.0], [2.0])),
        ("is_finite", ([1.0, np.inf],)),
        ("equal", ([1, 2], [1, 3])),
    ],
)
def test_raw_ops_fallback_computes_what_the_generated_op_does(tf, name, args):
    from hedera.backends.tensorflow import _private

    tensors = [tf.constant(a) for a in args]
    expected = getattr(_private.gen_math_ops, name)(*tensors)
    fallback = getattr(_private.RawOps(), name)(*tensors)
    np.testing.assert_array_equal(fallback.numpy(), expected.numpy())
    assert fallback.dtype == expected.dtype


def test_raw_ops_fallback_of_the_bitwise_ops(tf):
    from hedera.backends.tensorflow import _private

    x, y = tf.constant([12, 10]), tf.constant([10, 6])
    np.testing.assert_array_equal(
        _private.RawOps().bitwise_and(x, y).numpy(), _private.gen_bitwise_ops.bitwise_and(x, y).numpy()
    )
    np.testing.assert_array_equal(_private.RawOps().invert(x).numpy(), (~np.array([12, 10])))


def test_loading_the_backend_leaves_tensorflow_unconfigured():
    """Loading the backend makes no tensor: TensorFlow's runtime, once started, refuses logical
    devices and ``MultiWorkerMirroredStrategy`` (a tensor made at import broke both)."""
    require_backend("tensorflow")
    import subprocess
    import sys

    code = (
        "import tensorflow as tf\n"
        "from tensorflow.python.eager import context\n"
        "import hedera.backends.tensorflow, hedera.backends.tensorflow.distributed\n"
        "print(context.context()._initialized)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "False"
