"""Linear algebra functions of the main namespace (tensorflow backend).

TensorFlow's ``MatMul`` has no kernels for 8- and 16-bit or unsigned integers:
those multiply in int64 (uint64 as a bit-cast int64) and cast back, which is exact
modulo the dtype's range, like NumPy's wrap-around.
"""

from __future__ import annotations

import math

import tensorflow as tf

from ..._api import names_in
from ...errors import DtypeError, InvalidAxisError, ShapeError
from .._common import normalize_axis
from ._core import DTypeSet, broadcast_shape, ndim, promote, shape_list
from ._private import EagerTensor
from ._private import gen_array_ops as _ga
from ._private import gen_math_ops as _gm

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows

_MATMUL_NATIVE = DTypeSet((tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.complex64, tf.complex128,
                            tf.int32, tf.int64))  # fmt: skip


def _matmul_dtype(x1, x2):
    """Promoted operands in a dtype ``MatMul`` supports, and the function that casts the result back."""
    x1, x2 = promote(x1, x2) if x1.dtype is not x2.dtype else (x1, x2)
    dtype = x1.dtype
    if dtype in _MATMUL_NATIVE:
        return x1, x2, lambda out: out
    if dtype is tf.uint64:
        return tf.bitcast(x1, tf.int64), tf.bitcast(x2, tf.int64), lambda out: tf.bitcast(out, tf.uint64)
    if dtype is tf.bool:
        raise DtypeError("matmul: boolean arrays are not supported (the standard requires numbers)")
    return tf.cast(x1, tf.int64), tf.cast(x2, tf.int64), lambda out: tf.cast(out, dtype)


def matmul(x1, x2, /):
    """The matrix product, broadcasting stacks; a 1-d operand is a vector (its axis is dropped after)."""
    r1, r2 = ndim(x1), ndim(x2)
    if r1 == 0 or r2 == 0:
        raise ShapeError("matmul: x1 and x2 must have at least one dimension")
    x1, x2, back = _matmul_dtype(x1, x2)
    a = _ga.expand_dims(x1, 0) if r1 == 1 else x1
    b = _ga.expand_dims(x2, -1) if r2 == 1 else x2
    out = _matmul_op(a, b, max(r1, r2))
    if r1 == 1:
        out = _ga.squeeze(out, [-2])
    if r2 == 1:
        out = _ga.squeeze(out, [-1])
    return back(out)


def _matmul_op(a, b, rank):
    """``tf.linalg.matmul(a, b)`` of operands of one dtype, ``rank`` the larger rank: its op."""
    return _gm.mat_mul(a, b) if rank <= 2 else _gm.batch_mat_mul_v2(a, b)


def matrix_transpose(x, /):
    """Each matrix of ``x`` transposed (the last two axes swapped)."""
    rank = ndim(x)
    if rank < 2:
        raise ShapeError("matrix_transpose: x must have at least two dimensions")
    if type(x) is not EagerTensor:
        return tf.linalg.matrix_transpose(x)
    perm = _MATRIX_PERMS.get(rank)
    if perm is None:  # tf.linalg.matrix_transpose builds this permutation on every call
        with tf.device("/CPU:0"):
            perm = _MATRIX_PERMS[rank] = tf.constant([*range(rank - 2), rank - 1, rank - 2], tf.int32)
    return _ga.transpose(x, perm)


_MATRIX_PERMS: dict[int, tf.Tensor] = {}


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over ``axes``: an int n (the last n axes of x1, first n of x2) or two sequences."""
    r1, r2 = ndim(x1), ndim(x2)
    if isinstance(axes, int):
        if axes < 0 or axes > min(r1, r2):
            raise InvalidAxisError(f"tensordot: axes={axes} must be in [0, {min(r1, r2)}]")
        a1, a2 = list(range(r1 - axes, r1)), list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)  # (an int: one axis)
        if len(a1) != len(a2):
            raise InvalidAxisError("tensordot: the two sequences of axes must have the same length")
        a1 = [normalize_axis(a, r1, "axes") for a in a1]
        a2 = [normalize_axis(a, r2, "axes") for a in a2]
    s1, s2 = x1.shape.as_list(), x2.shape.as_list()
    for i, j in zip(a1, a2, strict=False):
        if s1[i] is not None and s2[j] is not None and s1[i] != s2[j]:
            raise ShapeError(
                f"tensordot: axis {i} of x1 (size {s1[i]}) does not match axis {j} of x2 (size {s2[j]})"
            )
    x1, x2, back = _matmul_dtype(x1, x2)
    if None in s1 or None in s2:
        return back(tf.tensordot(x1, x2, axes=[a1, a2]))
    return back(_tensordot_static(x1, x2, s1, s2, a1, a2))


def _tensordot_static(x1, x2, s1, s2, a1, a2):
    """``tf.tensordot(x1, x2, [a1, a2])`` of known shapes ``s1``, ``s2``: its ops (transposes,
    reshapes and one matmul, each only where TF's own runs it) without its Python (~100 us)."""
    free1 = [i for i in range(len(s1)) if i not in a1]
    free2 = [i for i in range(len(s2)) if i not in a2]
    m1 = _as_matrix(x1, s1, free1 + a1, [math.prod(s1[i] for i in free1), math.prod(s1[i] for i in a1)])
    m2 = _as_matrix(x2, s2, a2 + free2, [math.prod(s2[i] for i in a2), math.prod(s2[i] for i in free2)])
    out = _gm.mat_mul(m1, m2)
    shape = [s1[i] for i in free1] + [s2[i] for i in free2]
    return out if out.shape.as_list() == shape else _ga.reshape(out, shape)


def _as_matrix(x, shape, perm, matrix_shape):
    if perm != list(range(len(shape))):
        x = _ga.transpose(x, perm)
        shape = [shape[i] for i in perm]
    return x if shape == matrix_shape else _ga.reshape(x, matrix_shape)


def vecdot(x1, x2, /, *, axis=-1):
    """``sum(conj(x1) * x2, axis)`` after broadcasting (``axis`` counts in the broadcast shape)."""
    x1, x2 = promote(x1, x2) if x1.dtype is not x2.dtype else (x1, x2)
    s1, s2 = x1.shape.as_list(), x2.shape.as_list()
    if isinstance(axis, int) and -min(len(s1), len(s2)) <= axis < 0 and None not in (s1[axis], s2[axis]):
        if s1[axis] != s2[axis]:  # before broadcasting, which would name the wrong problem
            raise ShapeError(
                f"vecdot: x1 and x2 must have the same size along axis {axis}, got {s1[axis]} and {s2[axis]}"
            )
    shape = broadcast_shape(shape_list(x1), shape_list(x2))
    rank = len(shape) if isinstance(shape, list) else int(shape.shape[0])
    axis = normalize_axis(axis, rank)
    k1, k2 = (
        s1[axis - rank] if axis - rank >= -len(s1) else 1,
        s2[axis - rank] if axis - rank >= -len(s2) else 1,
    )
    if k1 is not None and k2 is not None and k1 != k2:
        raise ShapeError(f"vecdot: x1 and x2 must have the same size along axis {axis}, got {k1} and {k2}")
    if x1.dtype.is_complex:
        x1 = tf.math.conj(x1)
    product = x1 * x2 if x1.dtype is not tf.bool else tf.logical_and(x1, x2)
    return tf.reduce_sum(product, axis=axis)
