"""The TensorFlow backend's common-case paths (TF's ops called directly, operands cached) give what
TF's public functions give, bit for bit, eagerly and inside ``tf.function`` (unknown rank too).

The harness (tests/core) checks the answers against NumPy; this checks that the paths that skip
TF's Python wrappers run the same ops: same values, dtypes and shapes as ``tf.reduce_sum`` & co.
"""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import hedera as hd  # noqa: E402

RNG = np.random.default_rng(0)


def _same(got, want) -> None:
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape), (got, want)
    if got.dtype == tf.bfloat16:  # (NumPy cannot read a 0-d bfloat16 tensor; float32 holds it exactly)
        got, want = tf.cast(got, tf.float32), tf.cast(want, tf.float32)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


INPUTS = [
    tf.constant(1.5),
    tf.constant(RNG.standard_normal(5).astype(np.float32)),
    tf.constant(RNG.standard_normal((3, 4))),
]

REDUCTIONS = [
    (hd.sum, tf.reduce_sum),
    (hd.prod, tf.reduce_prod),
    (hd.max, tf.reduce_max),
    (hd.min, tf.reduce_min),
    (hd.mean, tf.reduce_mean),
    (hd.var, tf.math.reduce_variance),
    (hd.std, tf.math.reduce_std),
    (hd.logsumexp, tf.reduce_logsumexp),
]


@pytest.mark.parametrize("ours, theirs", REDUCTIONS, ids=lambda f: getattr(f, "__name__", ""))
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_tf(ours, theirs, keepdims) -> None:
    for x in INPUTS:
        axes = [None, *range(-x.shape.rank, x.shape.rank)]
        for axis in axes:
            _same(ours(x, axis=axis, keepdims=keepdims), theirs(x, axis=axis, keepdims=keepdims))
        _same(ours(x, keepdims=keepdims), theirs(x, keepdims=keepdims))  # twice: the cached axes


def test_reductions_in_tf_function_with_unknown_rank() -> None:
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def total(x):
        return hd.sum(x), hd.max(x), hd.logsumexp(x)

    x = tf.constant(RNG.standard_normal((2, 3)).astype(np.float32))
    for got, want in zip(total(x), (tf.reduce_sum(x), tf.reduce_max(x), tf.reduce_logsumexp(x)), strict=True):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=0, atol=0)


@pytest.mark.parametrize("shape", [(), 3, (2, 0), [2, 3]])
@pytest.mark.parametrize("name", ["float32", "bool", "int64", "bfloat16", "complex64"])
def test_zeros_ones_match_tf(shape, name) -> None:
    dt = getattr(tf, name)
    _same(hd.zeros(shape, dtype=getattr(hd, name), backend="tensorflow"), tf.zeros(shape, dt))
    _same(hd.ones(shape, dtype=getattr(hd, name), backend="tensorflow"), tf.ones(shape, dt))


@pytest.mark.parametrize("rows, cols", [(0, None), (3, None), (2, 4), (4, 2), (0, 3), (1, 1)])
def test_eye_matches_tf(rows, cols) -> None:
    for name in ("float32", "int32", "float64"):
        _same(
            hd.eye(rows, cols, dtype=getattr(hd, name), backend="tensorflow"),
            tf.eye(rows, cols, dtype=getattr(tf, name)),
        )


def test_creation_inside_tf_function_takes_the_graph_path() -> None:
    @tf.function
    def made():
        return hd.zeros((2,), backend="tensorflow"), hd.eye(2, backend="tensorflow")

    zeros, eye = made()
    _same(zeros, tf.zeros((2,)))
    _same(eye, tf.eye(2))


def test_linalg_and_manipulation_match_tf() -> None:
    a = tf.constant(RNG.standard_normal((2, 3, 4)).astype(np.float32))
    b = tf.constant(RNG.standard_normal((4, 3, 5)).astype(np.float32))
    _same(hd.tensordot(a, b, axes=([1, 2], [1, 0])), tf.tensordot(a, b, axes=([1, 2], [1, 0])))
    _same(hd.tensordot(a, a, axes=0), tf.tensordot(a, a, axes=0))
    m = tf.constant(RNG.standard_normal((3, 3)).astype(np.float32))
    _same(hd.matmul(m, m), tf.linalg.matmul(m, m))
    _same(hd.matrix_transpose(a), tf.linalg.matrix_transpose(a))
    _same(hd.linalg.solve(m, m), tf.linalg.solve(m, m))
    _same(hd.linalg.cross(a[..., :3], a[..., 1:]), tf.linalg.cross(a[..., :3], a[..., 1:]))
    _same(hd.squeeze(a[:1], 0), tf.squeeze(a[:1], 0))
    _same(hd.tile(m, (2, 1)), tf.tile(m, (2, 1)))
    _same(hd.astype(m, hd.int32), tf.cast(m, tf.int32))


def test_einsum_one_hot_gather_fft_match_tf() -> None:
    a = tf.constant(RNG.standard_normal((2, 3)).astype(np.float32))
    b = tf.constant(RNG.standard_normal((3, 4)).astype(np.float32))
    for equation in ("ij,jk", "ij,jk->ik", "...j,jk->...k", "ij->"):
        operands = (a, b) if "," in equation else (a,)
        for _ in range(2):  # the second call reads the cached equation
            _same(hd.einsum(equation, *operands), tf.einsum(equation, *operands))
    i = tf.constant([1, 0, 2])
    _same(hd.one_hot(i, 3), tf.one_hot(i, 3))
    _same(hd.one_hot(i, 3, dtype=hd.int32, axis=0), tf.one_hot(i, 3, dtype=tf.int32, axis=0))
    _same(hd.gather_nd(a, tf.constant([[1, 2]])), tf.gather_nd(a, [[1, 2]]))
    _same(hd.gather_nd(a, tf.constant([[-1, -2]])), tf.gather_nd(a, [[1, 1]]))  # negative: wrapped
    x = tf.constant(RNG.standard_normal(8).astype(np.float32))
    _same(hd.fft.rfft(x), tf.signal.rfft(x))
    _same(hd.fft.irfft(tf.signal.rfft(x)), tf.signal.irfft(tf.signal.rfft(x)))
