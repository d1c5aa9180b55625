"""The ``linalg`` extension (tensorflow backend), over ``tf.linalg``.

``svd`` returns ``Vh`` (TensorFlow returns ``V``), ``solve`` broadcasts the batch
dimensions (TensorFlow's kernel requires equal ones), and the default ``rtol`` of
``pinv``/``matrix_rank`` is the standard's ``max(M, N) * eps``.
"""

from __future__ import annotations

import math

import numpy as np
import tensorflow as tf

from ..._api import names_in
from ...errors import InvalidArgumentError, ShapeError
from .._common import EighResult, QRResult, SlogdetResult, SVDResult, normalize_axes, normalize_axis
from ._core import (
    _EAGER,
    COMPLEX,
    INEXACT,
    INT32_ENUM,
    DTypeSet,
    broadcast_shape,
    is_complex,
    ndim,
    promote,
    shape_list,
    shape_operand,
    small_constant,
)
from ._private import gen_array_ops, gen_linalg_ops, gen_math_ops
from .main_linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401  (hd.linalg has them too)
from .statistical import _accumulator

__all__ = names_in("linalg", "linalg")  # the API table's hd.linalg rows


def cholesky(x, /, *, upper=False):
    """The Cholesky factor of (each) Hermitian positive-definite matrix: ``L`` (``x = L L^H``) or ``L^H``."""
    lower = tf.linalg.cholesky(x)
    return tf.linalg.adjoint(lower) if upper else lower


_REFUSED = (tf.errors.InvalidArgumentError, TypeError)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along ``axis`` (of the broadcast shape)."""
    # the common case: one real dtype, the last axis: TF's own op, not ~15 ops. The op checks the
    # shapes itself (one shape, 3 along the last axis) and raises where they differ: then the
    # general path below broadcasts, or names the problem
    # (TF's op refuses complex tensors and mixed dtypes itself: checking the dtypes first cost ~0.3 us)
    if type(x1) is _EAGER and type(x2) is _EAGER and axis == -1 and type(axis) is int:
        try:
            return gen_math_ops.cross(x1, x2)
        except _REFUSED:
            pass
    x1, x2 = promote(x1, x2) if x1.dtype is not x2.dtype else (x1, x2)
    shape = broadcast_shape(shape_list(x1), shape_list(x2))
    x1, x2 = tf.broadcast_to(x1, shape), tf.broadcast_to(x2, shape)
    rank = ndim(x1)
    axis = normalize_axis(axis, rank)
    if x1.shape[axis] is not None and x1.shape[axis] != 3:
        raise ShapeError(f"cross: axis {axis} must have size 3, got {x1.shape[axis]}")
    a0, a1, a2 = tf.unstack(x1, num=3, axis=axis)
    b0, b1, b2 = tf.unstack(x2, num=3, axis=axis)
    return tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=axis)


def det(x, /):
    return tf.linalg.det(x)


def diagonal(x, /, *, offset=0):
    """The ``offset``-th diagonal of (each matrix in) ``x`` (above the main one for ``offset > 0``)."""
    if ndim(x) < 2:
        raise ShapeError("diagonal: x must have at least two dimensions")
    if x.dtype is tf.uint16:  # no uint16 kernel: move the bits as int16
        return tf.bitcast(tf.linalg.diag_part(tf.bitcast(x, tf.int16), k=offset), tf.uint16)
    rows, cols = x.shape[-2], x.shape[-1]
    if rows is not None and cols is not None and not -rows < offset < cols:
        # outside the matrix: an empty diagonal (TF would raise)
        return tf.zeros([*shape_list(x)[:-2], 0], x.dtype)
    return tf.linalg.diag_part(x, k=offset)


def _real(x):
    return tf.math.real(x) if x.dtype.is_complex else x


def eigh(x, /):
    """Eigenvalues (ascending, real) and eigenvectors (columns) of (each) Hermitian matrix."""
    values, vectors = gen_linalg_ops.self_adjoint_eig_v2(x, True)  # tf.linalg.eigh's op
    return EighResult(values if values.dtype in _REAL_EIG else tf.math.real(values), vectors)


def eigvalsh(x, /):
    """The eigenvalues (ascending, real) of (each) Hermitian matrix."""
    values = gen_linalg_ops.self_adjoint_eig_v2(x, False)[0]  # tf.linalg.eigvalsh's op
    return values if values.dtype in _REAL_EIG else tf.math.real(values)


_REAL_EIG = DTypeSet((tf.float16, tf.bfloat16, tf.float32, tf.float64))


def inv(x, /):
    return tf.linalg.inv(x)


def svdvals(x, /):
    """The singular values of (each matrix in) ``x``, in descending order."""
    return tf.linalg.svd(x, compute_uv=False)


def _keep(out, keepdims):
    return out[..., None, None] if keepdims else out


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm of (each matrix in) ``x``: ``"fro"``, ``"nuc"``, 1, -1, 2, -2, inf or -inf."""
    a = tf.abs(x)
    if ord == "fro":
        return _keep(tf.sqrt(tf.reduce_sum(a * a, axis=[-2, -1])), keepdims)
    if ord == "nuc":
        return _keep(tf.reduce_sum(svdvals(x), axis=-1), keepdims)
    if ord in (2, -2):
        s = svdvals(x)
        return _keep(tf.reduce_max(s, axis=-1) if ord == 2 else tf.reduce_min(s, axis=-1), keepdims)
    if ord in (1, -1):
        sums = tf.reduce_sum(a, axis=-2)
        return _keep(tf.reduce_max(sums, -1) if ord == 1 else tf.reduce_min(sums, -1), keepdims)
    if ord in (math.inf, -math.inf):
        sums = tf.reduce_sum(a, axis=-1)
        return _keep(tf.reduce_max(sums, -1) if ord > 0 else tf.reduce_min(sums, -1), keepdims)
    raise InvalidArgumentError(f"ord: expected 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}")


def matrix_power(x, n, /):
    """``x`` (a square matrix or a stack of them) to the integer power ``n`` (the inverse's for ``n < 0``)."""
    if not isinstance(n, (int, np.integer)):
        raise InvalidArgumentError(f"n: expected an integer, got {n!r}")
    n = int(n)
    if n < 0:
        x, n = tf.linalg.inv(x), -n
    result = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    if result is None:  # n == 0: identity matrices
        if type(x) is _EAGER:  # (tf.eye and tf.broadcast_to convert Python shapes: ~0.2 ms)
            return gen_array_ops.broadcast_to(
                _eye(x.shape[-1], x.dtype), shape_operand(tuple(x.shape), INT32_ENUM)
            )
        shape = shape_list(x)
        return tf.broadcast_to(tf.eye(shape[-1], dtype=x.dtype), shape)
    return result


_EYES: dict[tuple[int, int], tf.Tensor] = {}


def _eye(n, dtype):
    """``tf.eye(n, dtype=dtype)``, cached on the host for small ``n``."""
    found = _EYES.get((id(dtype), n))
    if found is None:
        with tf.device("/CPU:0"):
            found = tf.eye(n, dtype=dtype)
        if n <= 64 and len(_EYES) < 64:
            _EYES[(id(dtype), n)] = found
    return found


def _default_rtol(x):
    shape = shape_list(x)
    eps = np.finfo(x.dtype.real_dtype.as_numpy_dtype).eps
    return tf.cast(tf.maximum(shape[-2], shape[-1]), x.dtype.real_dtype) * eps


def _rtol(x, rtol):
    if rtol is None:
        return _default_rtol(x)
    return tf.cast(rtol, x.dtype.real_dtype)


_DEFAULT_RTOLS: dict[tuple[int, int], tf.Tensor] = {}


def _eager_default_rtol(x):
    """``_default_rtol(x)`` of an eager ``x``, cached per dtype and ``max(M, N)`` (its ops convert
    Python numbers on TF's slow path)."""
    shape = x.shape.as_list()
    key = (id(x.dtype), max(shape[-2], shape[-1]))
    found = _DEFAULT_RTOLS.get(key)
    if found is None:
        with tf.device("/CPU:0"):
            found = _default_rtol(x)
        if len(_DEFAULT_RTOLS) < 256:
            _DEFAULT_RTOLS[key] = found
    return found


def matrix_rank(x, /, *, rtol=None):
    """The number of singular values above ``rtol * largest`` (``rtol`` defaults to ``max(M, N) * eps``)."""
    s = svdvals(x)
    if rtol is None and type(s) is _EAGER and s.shape[-1] != 0:  # (the same ops, called directly)
        last = small_constant(-1, tf.int32)
        tol = gen_math_ops.mul(gen_math_ops._max(s, last, keep_dims=True), _eager_default_rtol(x))
        return gen_math_ops._sum(gen_math_ops.cast(gen_math_ops.greater(s, tol), tf.int64), last, False)
    largest = tf.reduce_max(s, axis=-1, keepdims=True) if s.shape[-1] != 0 else tf.zeros_like(s[..., :1])
    tol = largest * tf.expand_dims(_rtol(x, rtol), -1)
    return tf.reduce_sum(tf.cast(s > tol, tf.int64), axis=-1)


def outer(x1, x2, /):
    """The outer product of two 1-d arrays: ``out[i, j] = x1[i] * x2[j]``."""
    if ndim(x1) != 1 or ndim(x2) != 1:
        raise InvalidArgumentError("outer: x1 and x2 must be one-dimensional")
    x1, x2 = promote(x1, x2) if x1.dtype is not x2.dtype else (x1, x2)
    if type(x1) is _EAGER and type(x2) is _EAGER:  # (x1[:, None] & co. convert their slices: ~0.2 ms)
        column = gen_array_ops.expand_dims(x1, small_constant(1, tf.int32))
        row = gen_array_ops.expand_dims(x2, small_constant(0, tf.int32))
        if x1.dtype is tf.bool:
            return gen_math_ops.logical_and(column, row)
        return gen_math_ops.mul(column, row)
    if x1.dtype is tf.bool:
        return tf.logical_and(x1[:, None], x2[None, :])
    return x1[:, None] * x2[None, :]


def pinv(x, /, *, rtol=None):
    """The Moore-Penrose pseudo-inverse; singular values at most ``rtol * largest`` count as zero.

    Computed from the SVD (``tf.linalg.pinv`` refuses complex input; for real input it is that, with
    the standard's default cutoff ``max(M, N) * eps`` rather than TF's ten times that).
    """
    if x.dtype not in COMPLEX and x.shape.is_fully_defined() and x.shape.num_elements():
        if rtol is None:  # (a Python float: no ops)
            rtol = max(x.shape[-2:]) * _eps(x.dtype)
        else:
            rtol = _rtol(x, rtol)
        if type(x) is _EAGER:
            return _pinv_ops(x, rtol)
        return tf.linalg.pinv(x, rcond=rtol)
    s, u, v = tf.linalg.svd(x, full_matrices=False)
    largest = tf.reduce_max(s, axis=-1, keepdims=True) if s.shape[-1] != 0 else tf.zeros_like(s[..., :1])
    cutoff = largest * tf.expand_dims(_rtol(x, rtol), -1)
    safe = tf.where(s > cutoff, s, tf.ones_like(s))
    inverse = tf.where(s > cutoff, 1 / safe, tf.zeros_like(s))
    return tf.linalg.matmul(v * tf.cast(inverse, x.dtype)[..., None, :], u, adjoint_b=True)


def _pinv_ops(x, rcond):
    """``tf.linalg.pinv(x, rcond=rcond)`` for an eager real tensor: its own ops, in its order, called
    directly (its Python wrappers and conversions cost ~150 us against ~60 us of ops)."""
    if type(rcond) is float:
        rcond = _float_constant(rcond, x.dtype)
    s, u, v = gen_linalg_ops.svd(x, compute_uv=True, full_matrices=False)
    cutoff = gen_math_ops.mul(rcond, gen_math_ops._max(s, -1, keep_dims=False))
    kept = gen_math_ops.greater(s, gen_array_ops.expand_dims(cutoff, -1))
    s = gen_math_ops.select_v2(kept, s, _float_constant(math.inf, x.dtype))  # 1 / inf: 0
    scaled = gen_math_ops.real_div(v, gen_array_ops.expand_dims(s, -2))
    if len(x.shape) == 2:
        return gen_math_ops.mat_mul(scaled, u, transpose_b=True)
    return gen_math_ops.batch_mat_mul_v2(scaled, u, adj_y=True)


_FLOAT_CONSTANTS: dict[tuple[int, float], tf.Tensor] = {}


def _float_constant(value: float, dtype: tf.DType) -> tf.Tensor:
    """``value`` as an eager 0-d tensor of the real ``dtype`` (rounded as ``tf.convert_to_tensor`` does),
    cached: pinv's cutoffs (one per matrix size and dtype) and infinity."""
    key = (id(dtype), value)
    found = _FLOAT_CONSTANTS.get(key)
    if found is None:
        found = tf.constant(np.array(value, dtype.as_numpy_dtype))
        if len(_FLOAT_CONSTANTS) < 256:
            _FLOAT_CONSTANTS[key] = found
    return found


_EPS: dict[int, float] = {}


def _eps(dtype: tf.DType) -> float:
    """The machine epsilon of a real floating dtype, as a Python float (np.finfo costs ~1 us)."""
    found = _EPS.get(id(dtype))
    if found is None:
        found = _EPS[id(dtype)] = float(np.finfo(dtype.as_numpy_dtype).eps)
    return found


def qr(x, /, *, mode="reduced"):
    """The QR decomposition, ``mode`` ``"reduced"`` (``Q`` is ``M x K``) or ``"complete"`` (``M x M``)."""
    if mode == "reduced":  # (the common case first; tuple.__new__ skips the named tuple's Python __new__)
        return _new_result(QRResult, gen_linalg_ops.qr(x, full_matrices=False))  # (is tf.linalg.qr)
    if mode != "complete":
        raise InvalidArgumentError(f"mode: expected 'reduced' or 'complete', got {mode!r}")
    return _new_result(QRResult, gen_linalg_ops.qr(x, full_matrices=True))


_new_result = tuple.__new__  # a named tuple from a tuple of its fields, without its Python __new__


def slogdet(x, /):
    """The sign (a unit complex number for complex ``x``; 0 if singular) and the log of |det|."""
    sign, logabsdet = gen_linalg_ops.log_matrix_determinant(x)  # tf.linalg.slogdet's op
    if is_complex(logabsdet):  # (the dtype number: reading .dtype costs ~0.2 us)
        logabsdet = tf.math.real(logabsdet)
    return _new_result(SlogdetResult, (sign, logabsdet))


def solve(x1, x2, /):
    """The solution of ``x1 @ out = x2``; a 1-d ``x2`` is a vector, else a stack of matrices (broadcast)."""
    if type(x1) is _EAGER and type(x2) is _EAGER:
        # the common case, nothing to promote or broadcast: tf.linalg.solve, TF's op. It refuses
        # what it cannot solve as given (mixed dtypes, a vector x2, batches to broadcast, a singular
        # x1): then the general path below runs (and raises where that is the answer)
        try:
            return gen_linalg_ops.matrix_solve(x1, x2)
        except _REFUSED:
            pass
    x1, x2 = promote(x1, x2) if x1.dtype is not x2.dtype else (x1, x2)
    s1 = shape_list(x1)
    if ndim(x2) == 1:
        rhs = tf.broadcast_to(x2[:, None], [*s1[:-2], s1[-1], 1]) if len(s1) > 2 else x2[:, None]
        return tf.linalg.solve(x1, rhs)[..., 0]
    s2 = shape_list(x2)
    if s1[:-2] == s2[:-2] and all(type(n) is int for n in s1[:-2]):  # (the common case) nothing to broadcast
        return tf.linalg.solve(x1, x2)
    batch = broadcast_shape(s1[:-2], s2[:-2])
    if isinstance(batch, list):
        x1 = tf.broadcast_to(x1, batch + s1[-2:])
        x2 = tf.broadcast_to(x2, batch + s2[-2:])
    else:
        x1 = tf.broadcast_to(x1, tf.concat([batch, tf.shape(x1)[-2:]], 0))
        x2 = tf.broadcast_to(x2, tf.concat([batch, tf.shape(x2)[-2:]], 0))
    return tf.linalg.solve(x1, x2)


def svd(x, /, *, full_matrices=True):
    """``U, S, Vh`` with ``x = U @ diag(S) @ Vh``; S descending."""
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return SVDResult(u, s, tf.linalg.adjoint(v))


def trace(x, /, *, offset=0, dtype=None):
    """The sum of the ``offset``-th diagonal of (each matrix in) ``x``; integers accumulate as in ``sum``."""
    return tf.reduce_sum(_accumulator(diagonal(x, offset=offset), dtype), axis=-1)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector ``ord``-norm over ``axis`` (all axes if None): real, of ``x``'s precision.

    ``ord`` is any real number, ``inf`` or ``-inf``; 0 counts the non-zero elements.
    """
    axes = list(normalize_axes(axis, ndim(x)))
    if type(x) is _EAGER and x.dtype not in COMPLEX and ord in _EAGER_ORDS:
        return _eager_vector_norm(x, axes, keepdims, ord)
    if x.dtype not in INEXACT:
        x = tf.cast(x, tf.float32)
    a = tf.abs(x)
    if ord == math.inf:
        return tf.reduce_max(a, axis=axes, keepdims=keepdims)
    if ord == -math.inf:
        return tf.reduce_min(a, axis=axes, keepdims=keepdims)
    if ord == 0:
        return tf.reduce_sum(tf.cast(a != 0, a.dtype), axis=axes, keepdims=keepdims)
    if ord == 1:
        return tf.reduce_sum(a, axis=axes, keepdims=keepdims)
    if ord == 2:
        return tf.sqrt(tf.reduce_sum(a * a, axis=axes, keepdims=keepdims))
    p = tf.constant(ord, a.dtype)
    return tf.reduce_sum(a**p, axis=axes, keepdims=keepdims) ** (1 / p)


_EAGER_ORDS = (2, 1, math.inf, -math.inf)


def _eager_vector_norm(x, axes, keepdims, ord):
    """``vector_norm`` of an eager real ``x`` for the common orders: the same ops, called directly,
    the axes as a cached host tensor (``tf.reduce_sum`` converts a Python list on TF's slow path)."""
    if x.dtype not in INEXACT:
        x = gen_math_ops.cast(x, tf.float32)
    a = gen_math_ops._abs(x)
    axes = shape_operand(tuple(axes), INT32_ENUM)
    keepdims = bool(keepdims)
    if ord == 2:
        return gen_math_ops.sqrt(gen_math_ops._sum(gen_math_ops.mul(a, a), axes, keepdims))
    if ord == 1:
        return gen_math_ops._sum(a, axes, keepdims)
    if ord > 0:
        return gen_math_ops._max(a, axes, keepdims)
    return gen_math_ops._min(a, axes, keepdims)
