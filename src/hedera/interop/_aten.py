"""The Core ATen op table of :func:`hedera.interop.from_torch`: one row per op, as data.

Each row names the hedera function that computes the op or a small lowering written on hedera's
public API (below), how the converter casts the op's tensor arguments first (torch's type
promotion, decided once at conversion time from the graph's dtypes), and the backends that cannot
run it, with the reason. ``docs/interop.md``'s coverage table is generated from :data:`ROWS`
(``tools/gen_interop_docs.py``).

Conventions of the lowerings: arguments come in the order of the ATen schema (native arrays for
tensors, Python numbers and lists for the rest, hedera dtypes for ``dtype``); devices, layouts and
memory formats are dropped by the converter. Arrays are channels-first, as in torch. Nothing here
imports torch or another framework: this module is pure hedera.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import hedera as hd
from hedera.nn import functional as nnf
from hedera.typing import Array

#: backends a converted program runs on, in the coverage table's column order
BACKENDS = ("numpy", "torch", "jax", "tensorflow")
_NO_AUTODIFF = "lowered with hd.vjp of the forward convolution: numpy has no autodiff"


@dataclass(frozen=True)
class Row:
    """How one ATen op (packet or ``packet.overload``) becomes hedera calls.

    Attributes
    ----------
    fn : callable
        A hedera function or a lowering of this module, called with the op's arguments.
    promote : {"out", "common", None}
        Casts the converter emits on the op's tensor arguments before the call: ``"out"`` to the
        op's result dtype (arithmetic: torch computes in it), ``"common"`` to torch's common dtype
        of the arguments (comparisons, whose result is bool); ``None``: none.
    operands : tuple of int, optional
        The argument positions ``promote`` casts (default: every tensor argument); indices and
        conditions keep their dtypes.
    unsupported : dict
        backend name -> why the op does not run there (the program raises ``hd.UnsupportedError``).
    note : str
        What a user should know (shown in the coverage table).
    """

    fn: Callable
    promote: str | None = None
    operands: tuple[int, ...] | None = None
    unsupported: dict[str, str] = field(default_factory=dict)
    note: str = ""


# ---- elementwise --------------------------------------------------------------------------------


def _constant(like: Array, value: np.ndarray, dtype: Any = None) -> Array:
    """A NumPy constant (an index table, interpolation weights) on the backend of ``like``."""
    return hd.asarray(value, dtype=dtype, backend=hd.backend_of(like))


_is_array = hd.is_array


def _like(x: Array, value: Any) -> Array:
    """``value`` as an array of ``x``'s backend and dtype (for scalar-first binary ops)."""
    return value if _is_array(value) else hd.full_like(x, value)


def add(x: Array, y: Any, alpha: Any = 1) -> Array:
    return hd.add(x, y if alpha == 1 else hd.multiply(y, alpha) if _is_array(y) else y * alpha)


def sub(x: Array, y: Any, alpha: Any = 1) -> Array:
    return hd.subtract(x, y if alpha == 1 else hd.multiply(y, alpha) if _is_array(y) else y * alpha)


def _truncated_division(x: Array, y: Any) -> Array:
    if hd.isdtype(hd.dtype(x), "integral"):
        q = hd.floor_divide(x, y)
        inexact = hd.logical_and(hd.not_equal(hd.remainder(x, y), 0), hd.less(hd.multiply(q, 1), 0))
        return hd.where(inexact, q + 1, q)
    return hd.trunc(hd.divide(x, y))


def div(x: Array, y: Any, rounding_mode: str | None = None) -> Array:
    if rounding_mode is None:
        return hd.divide(x, y)
    if rounding_mode == "floor":
        if hd.isdtype(hd.dtype(x), "integral"):
            return hd.floor_divide(x, y)
        return hd.floor(hd.divide(x, y))
    return _truncated_division(x, y)


def fmod(x: Array, y: Any) -> Array:
    """C's ``fmod``: the remainder has the sign of ``x`` (``hd.remainder`` has the sign of ``y``)."""
    r = hd.remainder(x, y)
    y_arr = _like(x, y)
    wrong_sign = hd.logical_and(hd.not_equal(r, 0), hd.not_equal(hd.less(r, 0), hd.less(x, 0)))
    return hd.where(wrong_sign, hd.subtract(r, y_arr), r)


def pow_(x: Any, y: Any) -> Array:
    if not _is_array(x):
        x = hd.full_like(y, x)
    if hd.isdtype(hd.dtype(x), "integral") and not _is_array(y) and y >= 0:
        y = int(y)
    return hd.pow(x, y)


def rsqrt(x: Array) -> Array:
    return hd.reciprocal(hd.sqrt(x))


def _as_bool(x: Any) -> Any:
    if not _is_array(x):
        return bool(x)
    return x if hd.dtype(x) == hd.bool else hd.not_equal(x, 0)


def logical_and(x: Array, y: Array) -> Array:
    return hd.logical_and(_as_bool(x), _as_bool(y))


def logical_or(x: Array, y: Array) -> Array:
    return hd.logical_or(_as_bool(x), _as_bool(y))


def logical_xor(x: Array, y: Array) -> Array:
    return hd.logical_xor(_as_bool(x), _as_bool(y))


def logical_not(x: Array) -> Array:
    return hd.logical_not(_as_bool(x))


def bitwise_not(x: Array) -> Array:
    return hd.logical_not(x) if hd.dtype(x) == hd.bool else hd.bitwise_invert(x)


def _bitwise(bool_fn: Callable, int_fn: Callable) -> Callable:
    def lowering(x: Array, y: Any) -> Array:
        return bool_fn(x, _as_bool(y)) if hd.dtype(x) == hd.bool else int_fn(x, y)

    lowering.__name__ = int_fn.__name__
    return lowering


bitwise_and = _bitwise(hd.logical_and, hd.bitwise_and)
bitwise_or = _bitwise(hd.logical_or, hd.bitwise_or)
bitwise_xor = _bitwise(hd.logical_xor, hd.bitwise_xor)


def sign(x: Array) -> Array:
    return x if hd.dtype(x) == hd.bool else hd.sign(x)


def _unary_on_floats(fn: Callable) -> Callable:
    """``fn`` for floats; the identity on integers and bools (torch's floor/ceil/trunc/round)."""

    def lowering(x: Array) -> Array:
        return fn(x) if hd.isdtype(hd.dtype(x), ("real floating", "complex floating")) else x

    lowering.__name__ = fn.__name__
    return lowering


_ERF_TAYLOR = tuple((-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(12))


def erf(x: Array) -> Array:
    """The error function, from hedera's exact GELU (``x Φ(x)``) away from 0, its series near 0."""
    small = hd.less(hd.abs(x), 0.5)
    safe = hd.where(small, hd.ones_like(x), x)
    from_gelu = hd.subtract(hd.divide(nnf.gelu(safe * math.sqrt(2.0)), safe * (math.sqrt(2.0) / 2.0)), 1.0)
    x2 = hd.square(x)
    series = hd.zeros_like(x)
    for c in reversed(_ERF_TAYLOR):
        series = hd.add(hd.multiply(series, x2), c)
    return hd.where(small, hd.multiply(series, x * (2.0 / math.sqrt(math.pi))), from_gelu)


def clamp(x: Array, min: Any = None, max: Any = None) -> Array:
    out = x
    if min is not None:
        out = (
            hd.where(hd.isnan(out), out, hd.maximum(out, _like(x, min)))
            if _float(x)
            else hd.maximum(out, _like(x, min))
        )
    if max is not None:
        out = (
            hd.where(hd.isnan(out), out, hd.minimum(out, _like(x, max)))
            if _float(x)
            else hd.minimum(out, _like(x, max))
        )
    return out


def _float(x: Array) -> bool:
    return hd.isdtype(hd.dtype(x), "real floating")


def maximum(x: Array, y: Array) -> Array:
    """Element-wise maximum that propagates NaN, as torch does."""
    out = hd.maximum(x, y)
    if _float(out):
        out = hd.where(hd.isnan(x), x, hd.where(hd.isnan(y), y, out))
    return out


def minimum(x: Array, y: Array) -> Array:
    out = hd.minimum(x, y)
    if _float(out):
        out = hd.where(hd.isnan(x), x, hd.where(hd.isnan(y), y, out))
    return out


def hardtanh(x: Array, min_val: float = -1.0, max_val: float = 1.0) -> Array:
    return clamp(x, min_val, max_val)


def leaky_relu(x: Array, negative_slope: float = 0.01) -> Array:
    return hd.where(hd.greater(x, 0), x, hd.multiply(x, negative_slope))


def elu(x: Array, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> Array:
    negative = hd.multiply(hd.expm1(hd.multiply(x, input_scale)), alpha)
    return hd.multiply(hd.where(hd.greater(x, 0), x, negative), scale)


def gelu(x: Array, approximate: str = "none") -> Array:
    return nnf.gelu(x, approximate=approximate == "tanh")


def sigmoid(x: Array) -> Array:
    return nnf.sigmoid(x)


def where(condition: Array, x: Any, y: Any) -> Array:
    if not _is_array(x):
        x = hd.full_like(y, x) if _is_array(y) else x
    if not _is_array(y):
        y = hd.full_like(x, y)
    return hd.where(condition, x, y)


# ---- reductions ---------------------------------------------------------------------------------


def _axes(dim: Any) -> tuple[int, ...] | None:
    """ATen's reduction ``dim``: ``None`` or ``[]`` reduce every axis."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim) or None


def _reduce(fn: Callable) -> Callable:
    def lowering(x: Array, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Array:
        if dtype is not None:
            x = hd.astype(x, dtype)
        if x.ndim == 0:
            return fn(x)
        return fn(x, axis=_axes(dim), keepdims=keepdim)

    lowering.__name__ = fn.__name__
    return lowering


sum_ = _reduce(hd.sum)
mean = _reduce(hd.mean)


def prod(x: Array, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Array:
    if dtype is not None:
        x = hd.astype(x, dtype)
    return hd.prod(x, axis=None if dim is None else dim, keepdims=keepdim) if x.ndim else x


def amax(x: Array, dim: Any = (), keepdim: bool = False) -> Array:
    return hd.max(x, axis=_axes(dim), keepdims=keepdim) if x.ndim else x


def amin(x: Array, dim: Any = (), keepdim: bool = False) -> Array:
    return hd.min(x, axis=_axes(dim), keepdims=keepdim) if x.ndim else x


def any_(x: Array, dim: Any = None, keepdim: bool = False) -> Array:
    x = _as_bool(x)
    return hd.any(x, axis=_axes(dim), keepdims=keepdim) if x.ndim else x


def _arg(fn: Callable) -> Callable:
    def lowering(x: Array, dim: int | None = None, keepdim: bool = False) -> Array:
        if x.ndim == 0:
            return hd.astype(hd.zeros_like(x), _index())
        if dim is None:
            out = fn(hd.reshape(x, (-1,)))
            return hd.reshape(out, (1,) * x.ndim) if keepdim else out
        return fn(x, axis=dim, keepdims=keepdim)

    lowering.__name__ = fn.__name__
    return lowering


argmax = _arg(hd.argmax)
argmin = _arg(hd.argmin)


def _value_and_index(fn: Callable, arg: Callable) -> Callable:
    def lowering(x: Array, dim: int, keepdim: bool = False) -> tuple[Array, Array]:
        if x.ndim == 0:
            return x, hd.astype(hd.zeros_like(x), _index())
        return fn(x, axis=dim, keepdims=keepdim), arg(x, axis=dim, keepdims=keepdim)

    return lowering


max_dim = _value_and_index(hd.max, hd.argmax)
min_dim = _value_and_index(hd.min, hd.argmin)


def var(x: Array, dim: Any = None, correction: Any = None, keepdim: bool = False) -> Array:
    correction = 1 if correction is None else correction
    return hd.var(x, axis=_axes(dim), correction=correction, keepdims=keepdim)


def var_dim(x: Array, dim: Any = None, unbiased: bool = True, keepdim: bool = False) -> Array:
    return var(x, dim, 1 if unbiased else 0, keepdim)


def cumsum(x: Array, dim: int, dtype: Any = None) -> Array:
    if dtype is not None:
        x = hd.astype(x, dtype)
    return hd.cumulative_sum(x, axis=dim) if x.ndim else x


#: the dtype that stands for torch's int64 on each backend (int32 on JAX without its 64-bit mode:
#: hedera never enables it); hedera.interop.torch fills it in when a program first runs there
INT64_ON: dict[str, Any] = {}


def _index() -> Any:
    return INT64_ON.get(hd.current_backend(), hd.int64)


# ---- linear algebra -----------------------------------------------------------------------------


def addmm(bias: Array, m1: Array, m2: Array, beta: Any = 1, alpha: Any = 1) -> Array:
    product = hd.matmul(m1, m2)
    if alpha != 1:
        product = hd.multiply(product, alpha)
    if beta == 0:
        return product
    return hd.add(product, bias if beta == 1 else hd.multiply(bias, beta))


def _p_norm_last(diff: Array, p: float) -> Array:
    """The p-norm of ``diff`` over its last axis (torch's ``cdist``/``pdist`` meaning of ``p``:
    0 counts the nonzero elements, inf takes the largest magnitude)."""
    if p == 2:
        return hd.sqrt(hd.sum(hd.square(diff), axis=-1))
    if p == 0:
        return hd.astype(hd.count_nonzero(diff, axis=-1), hd.dtype(diff))
    if math.isinf(p):
        return hd.max(hd.abs(diff), axis=-1)
    if p == 1:
        return hd.sum(hd.abs(diff), axis=-1)
    return hd.pow(hd.sum(hd.pow(hd.abs(diff), p), axis=-1), 1.0 / p)


def _cdist(x1: Array, x2: Array, p: float) -> Array:
    return _p_norm_last(hd.subtract(hd.expand_dims(x1, axis=-2), hd.expand_dims(x2, axis=-3)), p)


def cdist_forward(x1: Array, x2: Array, p: float, compute_mode: int | None = None) -> Array:
    return _cdist(x1, x2, p)


def pdist_forward(x: Array, p: float = 2.0) -> Array:
    n = x.shape[0]
    rows, cols = np.triu_indices(n, k=1)
    rows_a, cols_a = _constant(x, rows.astype(np.int32)), _constant(x, cols.astype(np.int32))
    return _p_norm_last(hd.subtract(hd.take(x, rows_a, axis=0), hd.take(x, cols_a, axis=0)), p)


# ---- shapes and views ---------------------------------------------------------------------------


def view(x: Array, size: Sequence[int]) -> Array:
    return hd.reshape(x, tuple(size))


def expand(x: Array, size: Sequence[int], implicit: bool = False) -> Array:
    lead = len(size) - x.ndim
    shape = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(size))
    return hd.broadcast_to(x, shape)


def permute(x: Array, dims: Sequence[int]) -> Array:
    return hd.permute_dims(x, tuple(d % x.ndim for d in dims)) if x.ndim else x


def unsqueeze(x: Array, dim: int) -> Array:
    return hd.expand_dims(x, axis=dim)


def squeeze(x: Array, dim: Any = None) -> Array:
    """torch's squeeze: axes of size 1 among ``dim`` go, others stay (no error)."""
    if x.ndim == 0:
        return x
    dims = range(x.ndim) if dim is None else [dim] if isinstance(dim, int) else dim
    axes = tuple(sorted({d % x.ndim for d in dims if x.shape[d % x.ndim] == 1}))
    return hd.squeeze(x, axis=axes) if axes else x


def cat(tensors: Sequence[Array], dim: int = 0) -> Array:
    # torch's legacy rule: 1-d empty tensors are skipped whatever the others' shapes
    kept = [t for t in tensors if not (t.ndim == 1 and t.shape[0] == 0)] or list(tensors[:1])
    return hd.concat(kept, axis=dim) if len(kept) > 1 else kept[0]


def _index_along(x: Array, dim: int, index: Any) -> Array:
    return x[(slice(None),) * (dim % x.ndim) + (index,)]


def select(x: Array, dim: int, index: int) -> Array:
    return _index_along(x, dim, index)


def slice_(x: Array, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Array:
    return _index_along(x, dim, _clamped_slice(x.shape[dim], start, end, step))


def _clamped_slice(n: int, start: int | None, end: int | None, step: int) -> slice:
    start = 0 if start is None else max(-n, min(start, n))
    end = n if end is None else max(-n, min(end, n))
    return slice(start, end, step)


def diagonal(x: Array, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Array:
    moved = hd.moveaxis(x, (dim1, dim2), (-2, -1))
    return hd.linalg.diagonal(moved, offset=offset)


def flip(x: Array, dims: Sequence[int]) -> Array:
    return hd.flip(x, axis=tuple(dims)) if x.ndim and len(dims) else x


def repeat(x: Array, repeats: Sequence[int]) -> Array:
    lead = len(repeats) - x.ndim
    x = hd.reshape(x, (1,) * lead + tuple(x.shape))
    return hd.tile(x, tuple(repeats))


def split_with_sizes(x: Array, split_sizes: Sequence[int], dim: int = 0) -> list[Array]:
    bounds = list(np.cumsum(split_sizes)[:-1])
    return list(hd.split(x, [int(b) for b in bounds], axis=dim))


def clone(x: Array, memory_format: Any = None) -> Array:
    return x


def alias(x: Array) -> Array:
    return x


def copy(x: Array, src: Array, non_blocking: bool = False) -> Array:
    src = src if hd.dtype(src) == hd.dtype(x) else hd.astype(src, hd.dtype(x))
    return hd.broadcast_to(src, tuple(x.shape))


def to_copy(x: Array, dtype: Any = None, non_blocking: bool = False) -> Array:
    return x if dtype is None or dtype == hd.dtype(x) else hd.astype(x, dtype)


def as_strided(
    x: Array, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None
) -> Array:
    """A strided view of ``x``'s elements in row-major order (the storage of a contiguous tensor)."""
    flat_index = np.full(tuple(size), storage_offset or 0, dtype=np.int64)
    for axis, (n, s) in enumerate(zip(size, stride, strict=True)):
        shape = [1] * len(size)
        shape[axis] = n
        flat_index = flat_index + (np.arange(n) * s).reshape(shape)
    index = _constant(x, flat_index.astype(np.int32))
    return hd.reshape(hd.take(hd.reshape(x, (-1,)), hd.reshape(index, (-1,)), axis=0), tuple(size))


# ---- creation -----------------------------------------------------------------------------------


def full(size: Sequence[int], fill_value: Any, dtype: Any = None) -> Array:
    return hd.full(tuple(size), fill_value, dtype=dtype or _default_dtype(fill_value))


def _default_dtype(value: Any) -> Any:
    if isinstance(value, bool):
        return hd.bool
    return _index() if isinstance(value, int) else hd.float32


def full_like(x: Array, fill_value: Any, dtype: Any = None, memory_format: Any = None) -> Array:
    return hd.full_like(x, fill_value, dtype=dtype or hd.dtype(x))


def fill(x: Array, value: Any) -> Array:
    if _is_array(value):
        return hd.broadcast_to(hd.astype(value, hd.dtype(x)), tuple(x.shape))
    return hd.full_like(x, value)


def empty(size: Sequence[int], dtype: Any = None, memory_format: Any = None) -> Array:
    """Zeros: torch leaves the memory uninitialised; zeros are one valid answer, and deterministic."""
    return hd.zeros(tuple(size), dtype=dtype or hd.float32)


def empty_strided(size: Sequence[int], stride: Sequence[int], dtype: Any = None) -> Array:
    return empty(size, dtype)


def scalar_tensor(s: Any, dtype: Any = None) -> Array:
    return hd.asarray(s, dtype=dtype or hd.float32)


def arange(start: Any, end: Any = None, step: Any = 1, dtype: Any = None) -> Array:
    if dtype is None:
        dtype = _index() if all(isinstance(v, (int, type(None))) for v in (start, end, step)) else hd.float32
    if hd.isdtype(dtype, "integral"):
        # torch converts the bounds and the step to the integer type first (toward zero):
        # arange(0.1, -7.9, -4.0, dtype=int64) is arange(0, -7, -4) = [0, -4], not [0, -3]
        start, end, step = (None if v is None else int(v) for v in (start, end, step))
    return hd.arange(start, end, step, dtype=dtype)


def _random_shape(size: Sequence[int]) -> tuple[int, ...]:
    return tuple(size)


def rand(size: Sequence[int], dtype: Any = None) -> Array:
    return hd.random.uniform(_random_shape(size), dtype=dtype or hd.float32)


def randn(size: Sequence[int], dtype: Any = None) -> Array:
    return hd.random.normal(_random_shape(size), dtype=dtype or hd.float32)


def randperm(n: int, dtype: Any = None) -> Array:
    return hd.astype(hd.random.permutation(n), dtype or _index())


def native_dropout(x: Array, p: float, train: bool | None) -> tuple[Array, Array]:
    if not train or p == 0:
        return x, hd.ones_like(x, dtype=hd.bool)
    keep = hd.greater_equal(hd.random.uniform(tuple(x.shape), dtype=hd.dtype(x)), p)
    return hd.where(keep, hd.divide(x, 1.0 - p), hd.zeros_like(x)), keep


# ---- indexing, gather and scatter ---------------------------------------------------------------


def _normalized(index: Array, n: int) -> Array:
    """Negative indices counted from the end (boolean masks stay masks)."""
    if hd.dtype(index) == hd.bool:
        return index
    return hd.where(hd.less(index, 0), hd.add(index, n), index)


def index(x: Array, indices: Sequence[Array | None]) -> Array:
    """``x[indices]`` with torch's (NumPy's) advanced indexing: integer arrays, ``None`` = all."""
    indices = list(indices)
    positions = [i for i, ix in enumerate(indices) if ix is not None]
    flat = [_normalized(indices[i], x.shape[i]) for i in positions]
    flat = list(hd.broadcast_arrays(*flat)) if len(flat) > 1 else flat
    rest = [i for i in range(x.ndim) if i not in positions]
    moved = hd.permute_dims(x, tuple(positions + rest))
    stacked = hd.stack([hd.astype(a, _index()) for a in flat], axis=-1)
    gathered = hd.gather_nd(moved, stacked)
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    if adjacent and positions[0] > 0:
        b = flat[0].ndim
        order = (
            list(range(b, b + positions[0])) + list(range(b)) + list(range(b + positions[0], gathered.ndim))
        )
        gathered = hd.permute_dims(gathered, tuple(order))
    return gathered


def index_put(x: Array, indices: Sequence[Array | None], values: Array, accumulate: bool = False) -> Array:
    key = tuple(slice(None) if ix is None else _normalized(ix, x.shape[i]) for i, ix in enumerate(indices))
    values = values if hd.dtype(values) == hd.dtype(x) else hd.astype(values, hd.dtype(x))
    target = hd.at(x)[key]
    return target.add(values) if accumulate else target.set(values)


def index_select(x: Array, dim: int, index: Array) -> Array:
    if x.ndim == 0:
        return x
    return hd.take(x, hd.reshape(_normalized(index, x.shape[dim]), (-1,)), axis=dim)


def _fit_to(x: Array, shape: Sequence[int], skip: int) -> Array:
    """``x`` cut to ``shape`` on every axis but ``skip`` (torch's gather/scatter read a corner)."""
    key = tuple(slice(None) if a == skip else slice(0, n) for a, n in enumerate(shape))
    return x[key]


def gather(x: Array, dim: int, index: Array, sparse_grad: bool = False) -> Array:
    if x.ndim == 0:  # every index is 0: x repeated in index's shape
        return hd.broadcast_to(x, tuple(index.shape))
    if math.prod(index.shape) == 0:  # torch allows any rank for an empty index
        return hd.zeros(tuple(index.shape), dtype=hd.dtype(x))
    dim = dim % x.ndim
    return hd.take_along_axis(_fit_to(x, index.shape, dim), _normalized(index, x.shape[dim]), axis=dim)


def _scatter_key(x: Array, dim: int, index: Array) -> tuple:
    """The full index tuple of torch's scatter: ``index`` on ``dim``, the positions elsewhere."""
    key = []
    for a in range(index.ndim):
        if a == dim:
            key.append(_normalized(index, x.shape[dim]))
            continue
        shape = [1] * index.ndim
        shape[a] = index.shape[a]
        with hd.use_backend(hd.backend_of(index)):
            key.append(
                hd.broadcast_to(
                    hd.reshape(hd.arange(index.shape[a], dtype=_index()), tuple(shape)), tuple(index.shape)
                )
            )
    return tuple(key)


def _scatter_source(src: Any, index: Array, dtype: Any) -> Array:
    if not _is_array(src):
        with hd.use_backend(hd.backend_of(index)):
            return hd.full(tuple(index.shape), src, dtype=dtype)
    src = src if hd.dtype(src) == dtype else hd.astype(src, dtype)
    return src[tuple(slice(0, n) for n in index.shape)]


def scatter(x: Array, dim: int, index: Array, src: Any, reduce: str | None = None) -> Array:
    if x.ndim == 0:
        if not math.prod(index.shape):
            return x
        value = _scatter_source(src, hd.reshape(index, ()), hd.dtype(x))
        return (
            hd.add(x, value) if reduce == "add" else hd.multiply(x, value) if reduce == "multiply" else value
        )
    if math.prod(index.shape) == 0:
        return x
    key = _scatter_key(x, dim % x.ndim, index)
    values = _scatter_source(src, index, hd.dtype(x))
    target = hd.at(x)[key]
    if reduce == "add":
        return target.add(values)
    if reduce == "multiply":
        return target.multiply(values)
    return target.set(values)


def scatter_add(x: Array, dim: int, index: Array, src: Array) -> Array:
    return scatter(x, dim, index, src, reduce="add")


def scatter_reduce(
    x: Array, dim: int, index: Array, src: Array, reduce: str, include_self: bool = True
) -> Array:
    if x.ndim == 0 or math.prod(index.shape) == 0:
        return _scatter_reduce_0d(x, index, src, reduce, include_self)
    key = _scatter_key(x, dim % x.ndim, index)
    values = _scatter_source(src, index, hd.dtype(x))
    method = {"sum": "add", "prod": "multiply", "amax": "max", "amin": "min", "mean": "add"}[reduce]
    base = x
    if not include_self:
        neutral = _neutral(reduce, x)
        base = hd.at(x)[key].set(
            hd.full_like(values, neutral) if not isinstance(neutral, type(None)) else values
        )
    out = getattr(hd.at(base)[key], method)(values)
    if reduce == "mean":
        counts = hd.at(hd.full_like(x, 1 if include_self else 0))[key].add(hd.ones_like(values))
        safe = hd.where(hd.equal(counts, 0), hd.ones_like(counts), counts)
        out = hd.divide(out, safe) if _float(x) else hd.floor_divide(out, safe)
        out = hd.where(hd.equal(counts, 0), x, out)
    return out


def _neutral(reduce: str, x: Array) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    info = hd.finfo(hd.dtype(x)) if _float(x) else hd.iinfo(hd.dtype(x))
    big = float("inf") if _float(x) else info.max
    small = float("-inf") if _float(x) else info.min
    return small if reduce == "amax" else big


def _scatter_reduce_0d(x: Array, index: Array, src: Array, reduce: str, include_self: bool) -> Array:
    if math.prod(index.shape) == 0:
        return x
    values = hd.reshape(_scatter_source(src, index, hd.dtype(x)), ())
    if not include_self:
        return values
    combine = {"sum": hd.add, "prod": hd.multiply, "amax": maximum, "amin": minimum}
    if reduce == "mean":
        return hd.divide(hd.add(x, values), 2) if _float(x) else hd.floor_divide(hd.add(x, values), 2)
    return combine[reduce](x, values)


def select_scatter(x: Array, src: Array, dim: int, index: int) -> Array:
    return hd.at(x)[(slice(None),) * (dim % x.ndim) + (index,)].set(hd.astype(src, hd.dtype(x)))


def slice_scatter(
    x: Array, src: Array, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> Array:
    key = (slice(None),) * (dim % x.ndim) + (_clamped_slice(x.shape[dim], start, end, step),)
    return hd.at(x)[key].set(hd.astype(src, hd.dtype(x)))


def masked_scatter(x: Array, mask: Array, source: Array) -> Array:
    """``x`` with the elements under ``mask`` replaced, in order, by ``source``'s first elements.

    ``x`` and ``mask`` broadcast together first, as torch's out-of-place op does (a mask with more
    dimensions than ``x`` widens the result).
    """
    shape = tuple(np.broadcast_shapes(tuple(x.shape), tuple(mask.shape)))
    x, mask = hd.broadcast_to(x, shape), hd.broadcast_to(mask, shape)
    flat_mask = hd.reshape(mask, (-1,))
    position = hd.subtract(hd.cumulative_sum(hd.astype(flat_mask, _index())), 1)
    position = hd.clip(position, 0, None)
    taken = hd.take(hd.reshape(source, (-1,)), position, axis=0)
    return hd.where(mask, hd.reshape(taken, tuple(x.shape)), x)


def embedding(
    weight: Array, indices: Array, padding_idx: int = -1, scale_grad: bool = False, sparse: bool = False
) -> Array:
    rows = hd.take(weight, hd.reshape(indices, (-1,)), axis=0)
    return hd.reshape(rows, (*indices.shape, weight.shape[-1]))


def embedding_dense_backward(
    grad: Array, indices: Array, num_weights: int, padding_idx: int, scale_grad_by_freq: bool
) -> Array:
    flat_idx = hd.reshape(indices, (-1,))
    flat_grad = hd.reshape(grad, (-1, grad.shape[-1]))
    if padding_idx >= 0:
        flat_grad = hd.where(
            hd.expand_dims(hd.equal(flat_idx, padding_idx), axis=-1), hd.zeros_like(flat_grad), flat_grad
        )
    with hd.use_backend(hd.backend_of(grad)):
        out = hd.zeros((num_weights, grad.shape[-1]), dtype=hd.dtype(grad))
    if scale_grad_by_freq:
        counts = hd.at(hd.zeros_like(out[:, 0]))[flat_idx].add(hd.ones_like(flat_grad[:, 0]))
        flat_grad = hd.divide(flat_grad, hd.expand_dims(hd.take(counts, flat_idx, axis=0), axis=-1))
    return hd.at(out)[flat_idx].add(flat_grad)


def nonzero(x: Array) -> Array:
    coords = hd.nonzero(x) if x.ndim else hd.nonzero(hd.reshape(x, (1,)))[:0]
    if not coords:
        with hd.use_backend(hd.backend_of(x)):
            return hd.zeros((int(hd.count_nonzero(x)), 0), dtype=_index())
    return hd.stack([hd.astype(c, _index()) for c in coords], axis=-1)


def local_scalar_dense(x: Array) -> Any:
    return hd.to_numpy(x).item()


def sort(
    x: Array, dim: int = -1, descending: bool = False, *, stable: bool | None = None
) -> tuple[Array, Array]:
    # always stable (``stable=False`` lets torch choose; a stable order is one of its answers)
    if x.ndim == 0:
        return x, hd.astype(hd.zeros_like(x), _index())
    order = hd.argsort(x, axis=dim, descending=descending, stable=True)
    return hd.take_along_axis(x, order, axis=dim), hd.astype(order, _index())


def topk(x: Array, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Array, Array]:
    if x.ndim == 0:
        return x, hd.astype(hd.zeros_like(x), _index())
    values, indices = hd.top_k(x, k, axis=dim, largest=largest)
    return values, hd.astype(indices, _index())


# ---- padding ------------------------------------------------------------------------------------


def _torch_pad_pairs(ndim: int, pad: Sequence[int]) -> list[tuple[int, int]]:
    """torch's flat ``pad`` (last axis first) as one ``(low, high)`` pair per axis of ``x``."""
    pairs = [(0, 0)] * ndim
    for i in range(len(pad) // 2):
        pairs[ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    return pairs


def _crop_negative(x: Array, pairs: list[tuple[int, int]]) -> tuple[Array, list[tuple[int, int]]]:
    """torch's negative padding crops: ``x`` cut there, and the remaining (non-negative) pads."""
    crop = tuple(
        slice(-lo if lo < 0 else 0, n + hi if hi < 0 else n)
        for (lo, hi), n in zip(pairs, x.shape, strict=True)
    )
    return x[crop], [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]


def constant_pad_nd(x: Array, pad: Sequence[int], value: Any = 0) -> Array:
    pairs = _torch_pad_pairs(x.ndim, pad)
    crop = tuple(
        slice(-lo if lo < 0 else 0, n + hi if hi < 0 else n)
        for (lo, hi), n in zip(pairs, x.shape, strict=True)
    )
    x = x[crop]
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in pairs]
    return hd.pad(x, grow, constant_values=value) if any(lo or hi for lo, hi in grow) else x


def _pad_mode(mode: str) -> Callable:
    def lowering(x: Array, padding: Sequence[int]) -> Array:
        cropped, pairs = _crop_negative(x, _torch_pad_pairs(x.ndim, padding))
        return hd.pad(cropped, pairs, mode=mode) if any(lo or hi for lo, hi in pairs) else cropped

    lowering.__name__ = f"{mode}_pad"
    return lowering


reflection_pad = _pad_mode("reflect")
replication_pad = _pad_mode("edge")


# ---- normalization ------------------------------------------------------------------------------


def _channel_shape(x: Array) -> tuple[int, ...]:
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _affine(out: Array, weight: Array | None, bias: Array | None, shape: tuple[int, ...]) -> Array:
    if weight is not None:
        out = hd.multiply(out, hd.reshape(weight, shape))
    if bias is not None:
        out = hd.add(out, hd.reshape(bias, shape))
    return out


def batch_norm_no_training(
    x: Array,
    weight: Array | None,
    bias: Array | None,
    running_mean: Array,
    running_var: Array,
    momentum: float,
    eps: float,
) -> tuple[Array, Array, Array]:
    shape = _channel_shape(x)
    inv = hd.reciprocal(hd.sqrt(hd.add(hd.reshape(running_var, shape), eps)))
    out = hd.multiply(hd.subtract(x, hd.reshape(running_mean, shape)), inv)
    empty = x[(slice(0, 0),) + (0,) * (x.ndim - 1)]  # torch returns empty saved statistics here
    return _affine(out, weight, bias, shape), empty, empty


def batch_norm_training(
    x: Array,
    weight: Array | None,
    bias: Array | None,
    running_mean: Array | None,
    running_var: Array | None,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[Array, Array, Array]:
    if not training and running_mean is not None:
        return batch_norm_no_training(x, weight, bias, running_mean, running_var, momentum, eps)
    axes = (0, *range(2, x.ndim))
    shape = _channel_shape(x)
    mu = hd.mean(x, axis=axes)
    rstd = hd.reciprocal(hd.sqrt(hd.add(hd.var(x, axis=axes), eps)))
    out = hd.multiply(hd.subtract(x, hd.reshape(mu, shape)), hd.reshape(rstd, shape))
    return _affine(out, weight, bias, shape), mu, rstd


def batch_norm_functional(
    x: Array,
    weight: Array | None,
    bias: Array | None,
    running_mean: Array,
    running_var: Array,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[Array, Array, Array, Array, Array]:
    """Batch norm that returns the updated running statistics instead of writing them in place."""
    out, mu, rstd = batch_norm_training(x, weight, bias, running_mean, running_var, training, momentum, eps)
    if not training:
        return out, mu, rstd, running_mean, running_var
    count = math.prod(x.shape) // x.shape[1]
    unbiased = hd.var(x, axis=(0, *range(2, x.ndim)), correction=1) if count > 1 else hd.zeros_like(mu)
    new_mean = hd.add(hd.multiply(running_mean, 1.0 - momentum), hd.multiply(mu, momentum))
    new_var = hd.add(hd.multiply(running_var, 1.0 - momentum), hd.multiply(unbiased, momentum))
    return out, mu, rstd, new_mean, new_var


def batch_norm_no_stats(
    x: Array, weight: Array | None, bias: Array | None, training: bool, momentum: float, eps: float
) -> tuple[Array, Array, Array]:
    return batch_norm_training(x, weight, bias, None, None, True, momentum, eps)


def native_layer_norm(
    x: Array, normalized_shape: Sequence[int], weight: Array | None, bias: Array | None, eps: float
) -> tuple[Array, Array, Array]:
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    mu = hd.mean(x, axis=axes, keepdims=True)
    rstd = hd.reciprocal(hd.sqrt(hd.add(hd.var(x, axis=axes, keepdims=True), eps)))
    out = hd.multiply(hd.subtract(x, mu), rstd)
    if weight is not None:
        out = hd.multiply(out, weight)
    if bias is not None:
        out = hd.add(out, bias)
    return out, mu, rstd


def native_group_norm(
    x: Array, weight: Array | None, bias: Array | None, n: int, c: int, hxw: int, group: int, eps: float
) -> tuple[Array, Array, Array]:
    grouped = hd.reshape(x, (n, group, (c // group) * hxw))  # not -1: n may be 0
    mu = hd.mean(grouped, axis=-1, keepdims=True)
    rstd = hd.reciprocal(hd.sqrt(hd.add(hd.var(grouped, axis=-1, keepdims=True), eps)))
    out = hd.reshape(hd.multiply(hd.subtract(grouped, mu), rstd), tuple(x.shape))
    return (
        _affine(out, weight, bias, _channel_shape(x)),
        hd.reshape(mu, (n, group)),
        hd.reshape(rstd, (n, group)),
    )


def softmax(x: Array, dim: int, half_to_float: bool = False) -> Array:
    if math.prod(x.shape) == 0:
        return x
    return nnf.softmax(x, axis=dim) if x.ndim else hd.ones_like(x)


def log_softmax(x: Array, dim: int, half_to_float: bool = False) -> Array:
    if math.prod(x.shape) == 0:
        return x
    return nnf.log_softmax(x, axis=dim) if x.ndim else hd.zeros_like(x)


# ---- convolution and pooling --------------------------------------------------------------------


def convolution(
    x: Array,
    weight: Array,
    bias: Array | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
) -> Array:
    nd = weight.ndim - 2
    if hd.backend_of(x) == "tensorflow" and hd.isdtype(hd.dtype(x), "integral") and hd.dtype(x) != hd.int32:
        raise hd.UnsupportedError(
            f"aten.convolution: {hd.dtype(x)} convolution does not run on tensorflow "
            "(TensorFlow's convolutions have no kernel for it; cast to float64 first)"
        )
    batched = x.ndim == nd + 2
    if not batched:
        x = hd.expand_dims(x, axis=0)
    # torch's (out, in // groups, *k) [or (in, out // groups, *k) transposed] -> hedera's (*k, ., .)
    w = hd.permute_dims(weight, (*range(2, nd + 2), 1, 0))
    # torch repeats a one-element stride, padding... over every spatial axis
    options = {
        "stride": tuple(_as_list(stride, nd)),
        "padding": [(p, p) for p in _as_list(padding, nd)],
        "dilation": tuple(_as_list(dilation, nd)),
        "groups": groups,
        "data_format": "channels_first",
    }
    if transposed:
        fn = (nnf.conv_transpose1d, nnf.conv_transpose2d, nnf.conv_transpose3d)[nd - 1]
        options["output_padding"] = tuple(_as_list(output_padding, nd))
    else:
        fn = (nnf.conv1d, nnf.conv2d, nnf.conv3d)[nd - 1]
    out = fn(x, w, bias, **options)
    return out if batched else hd.squeeze(out, axis=0)


def _pool_geometry(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> tuple[int, int]:
    """Output size and extra end padding of one pooled axis, torch's rule (a window must start in-bounds)."""
    span = d * (k - 1) + 1
    numerator = n + 2 * p - span
    out = (numerator + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    extra = max((out - 1) * s + span - (n + 2 * p), 0)
    return out, extra


def _windows(
    x: Array,
    kernel: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    ceil_mode: bool,
    pad_value: float,
) -> tuple[Array, list[np.ndarray]]:
    """``x`` (batch, channels, *spatial) as (batch, channels, *out, *kernel) windows, and per spatial
    axis the input positions (out, kernel) they read (negative or past the end: padding)."""
    nd = len(kernel)
    lead = x.ndim - nd
    positions, pairs = [], [(0, 0)] * lead
    for a in range(nd):
        n = x.shape[lead + a]
        out, extra = _pool_geometry(n, kernel[a], stride[a], padding[a], dilation[a], ceil_mode)
        pos = np.arange(out)[:, None] * stride[a] + np.arange(kernel[a])[None, :] * dilation[a] - padding[a]
        positions.append(pos)
        pairs.append((padding[a], padding[a] + extra))
    padded = hd.pad(x, pairs, constant_values=pad_value) if any(lo or hi for lo, hi in pairs) else x
    for a, pos in enumerate(positions):
        taken = hd.take(
            padded, _constant(x, (pos + padding[a]).reshape(-1).astype(np.int32)), axis=lead + 2 * a
        )
        padded = hd.reshape(
            taken, (*taken.shape[: lead + 2 * a], *pos.shape, *taken.shape[lead + 2 * a + 1 :])
        )
    # now (batch, channels, o1, k1, o2, k2, ...): kernel axes last
    order = list(range(lead)) + [lead + 2 * a for a in range(nd)] + [lead + 2 * a + 1 for a in range(nd)]
    return hd.permute_dims(padded, tuple(order)), positions


def _as_list(v: Any, nd: int) -> list[int]:
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * nd if len(v) == 1 else v


def _max_pool(nd: int) -> Callable:
    def lowering(
        x: Array,
        kernel_size: Sequence[int],
        stride: Sequence[int] = (),
        padding: Any = 0,
        dilation: Any = 1,
        ceil_mode: bool = False,
    ) -> tuple[Array, Array]:
        kernel = _as_list(kernel_size, nd)
        stride = _as_list(stride, nd) if len(stride) else kernel
        pad, dil = _as_list(padding, nd), _as_list(dilation, nd)
        low = float("-inf") if _float(x) else hd.iinfo(hd.dtype(x)).min
        win, positions = _windows(x, kernel, stride, pad, dil, ceil_mode, low)
        flat = hd.reshape(win, (*win.shape[: win.ndim - nd], -1))
        values = hd.max(flat, axis=-1)
        which = hd.argmax(flat, axis=-1)
        return values, _flat_input_index(which, positions, x.shape[x.ndim - nd :])

    lowering.__name__ = f"max_pool{nd}d_with_indices"
    return lowering


def _flat_input_index(which: Array, positions: list[np.ndarray], sizes: Sequence[int]) -> Array:
    """torch's max-pool indices: the input's flat spatial index of each window's argmax."""
    nd = len(positions)
    kernel = [p.shape[1] for p in positions]
    outs = [p.shape[0] for p in positions]
    # the flat spatial index of every (out position, kernel offset) pair, as a table to gather from
    table = np.zeros((*outs, *kernel), dtype=np.int64)
    for a, pos in enumerate(positions):
        shape = [1] * (2 * nd)
        shape[a], shape[nd + a] = pos.shape
        table = table * sizes[a] + pos.reshape(shape)
    table = table.reshape(*outs, -1)
    t = _constant(which, table.astype(np.int32))
    t = hd.broadcast_to(t, (*which.shape, table.shape[-1]))
    picked = hd.take_along_axis(t, hd.expand_dims(hd.astype(which, hd.int32), axis=-1), axis=-1)
    return hd.astype(hd.squeeze(picked, axis=-1), _index())


def _avg_pool(nd: int) -> Callable:
    def lowering(
        x: Array,
        kernel_size: Sequence[int],
        stride: Sequence[int] = (),
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> Array:
        kernel = _as_list(kernel_size, nd)
        stride = _as_list(stride, nd) if stride is not None and len(stride) else kernel
        pad = _as_list(padding, nd)
        win, positions = _windows(x, kernel, stride, pad, [1] * nd, ceil_mode, 0.0)
        total = hd.sum(win, axis=tuple(range(win.ndim - nd, win.ndim)), dtype=hd.dtype(x))
        counts = divisor_override or _window_counts(positions, x.shape[x.ndim - nd :], pad, count_include_pad)
        if hd.isdtype(hd.dtype(x), "integral"):  # torch divides integer windows toward zero
            return _truncated_division(total, counts if isinstance(counts, int) else _constant(x, counts))
        if isinstance(counts, int):
            return hd.divide(total, counts)
        return hd.divide(total, _constant(x, counts.astype(np.float32), hd.dtype(x)))

    lowering.__name__ = f"avg_pool{nd}d"
    return lowering


def _window_counts(
    positions: list[np.ndarray], sizes: Sequence[int], pad: Sequence[int], include_pad: bool
) -> np.ndarray:
    """Divisor of each average-pool window: its elements inside the input (or the padded input)."""
    counts = np.ones((), dtype=np.int64)
    for pos, n, p in zip(positions, sizes, pad, strict=True):
        lo, hi = (-p, n + p) if include_pad else (0, n)
        per_axis = ((pos >= lo) & (pos < hi)).sum(axis=1)
        counts = np.multiply.outer(counts, per_axis)
    return counts


def _adaptive_matrix(n_in: int, n_out: int) -> np.ndarray:
    """(n_out, n_in) averaging weights of torch's adaptive pooling (floor/ceil window bounds)."""
    m = np.zeros((n_out, n_in), dtype=np.float64)
    for i in range(n_out):
        start, end = (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)
        m[i, start:end] = 1.0 / (end - start)
    return m


def _adaptive_avg_pool(nd: int) -> Callable:
    def lowering(x: Array, output_size: Sequence[int]) -> Array:
        out = x
        for a, size in enumerate(_as_list(output_size, nd)):
            axis = x.ndim - nd + a
            m = _constant(x, _adaptive_matrix(x.shape[axis], size).astype(np.float32), hd.dtype(x))
            out = hd.moveaxis(hd.tensordot(out, m, axes=([axis], [1])), -1, axis)
        return out

    lowering.__name__ = f"adaptive_avg_pool{nd}d"
    return lowering


def _source_index(n_in: int, n_out: int, scale: float | None) -> np.ndarray:
    ratio = 1.0 / scale if scale else n_in / n_out
    return np.minimum(np.floor(np.arange(n_out) * ratio).astype(np.int64), n_in - 1)


def upsample_nearest2d(
    x: Array, output_size: Sequence[int] | None, scale_factors: Sequence[float] | None = None
) -> Array:
    sizes = _upsample_sizes(x, output_size, scale_factors)
    for a in range(2):
        axis = x.ndim - 2 + a
        scale = scale_factors[a] if scale_factors else None
        idx = _constant(x, _source_index(x.shape[axis], sizes[a], scale).astype(np.int32))
        x = hd.take(x, idx, axis=axis)
    return x


def _upsample_sizes(x: Array, output_size: Any, scale_factors: Any) -> list[int]:
    if output_size is not None:
        return list(output_size)
    return [math.floor(n * s) for n, s in zip(x.shape[-len(scale_factors) :], scale_factors, strict=True)]


def _linear_weights(n_in: int, n_out: int, align_corners: bool, scale: float | None) -> np.ndarray:
    """(n_out, n_in) interpolation weights of torch's bilinear upsampling along one axis."""
    if align_corners:
        src = np.arange(n_out) * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    else:
        ratio = 1.0 / scale if scale else n_in / n_out
        src = np.maximum((np.arange(n_out) + 0.5) * ratio - 0.5, 0.0)
    lo = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    hi = np.minimum(lo + 1, n_in - 1)
    frac = src - lo
    m = np.zeros((n_out, n_in))
    np.add.at(m, (np.arange(n_out), lo), 1.0 - frac)
    np.add.at(m, (np.arange(n_out), hi), frac)
    return m


def upsample_bilinear2d(
    x: Array,
    output_size: Sequence[int] | None,
    align_corners: bool,
    scale_factors: Sequence[float] | None = None,
) -> Array:
    sizes = _upsample_sizes(x, output_size, scale_factors)
    for a in range(2):
        axis = x.ndim - 2 + a
        scale = scale_factors[a] if scale_factors else None
        weights = _linear_weights(x.shape[axis], sizes[a], align_corners, scale)
        m = _constant(x, weights.astype(np.float32), hd.dtype(x))
        x = hd.moveaxis(hd.tensordot(x, m, axes=([axis], [1])), -1, axis)
    return x


def grid_sampler_2d(
    x: Array, grid: Array, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> Array:
    """Bilinear (mode 0) or nearest (1) sampling of (N, C, H, W) at grid (N, Ho, Wo, 2) in [-1, 1]."""
    if interpolation_mode not in (0, 1) or padding_mode not in (0, 1):
        raise hd.UnsupportedError(
            f"aten.grid_sampler_2d: interpolation_mode={interpolation_mode}, padding_mode={padding_mode} "
            "is not lowered (bilinear or nearest with zeros or border padding are)"
        )
    n, c, h, w = x.shape
    gx, gy = grid[..., 0], grid[..., 1]

    def unnormalize(g: Array, size: int) -> Array:
        if align_corners:
            return hd.multiply(hd.add(g, 1.0), (size - 1) / 2.0)
        return hd.divide(hd.subtract(hd.multiply(hd.add(g, 1.0), size), 1.0), 2.0)

    ix, iy = unnormalize(gx, w), unnormalize(gy, h)
    if padding_mode == 1:
        ix, iy = hd.clip(ix, 0.0, float(w - 1)), hd.clip(iy, 0.0, float(h - 1))
    flat = hd.reshape(x, (n, c, h * w))

    def sample(yy: Array, xx: Array) -> Array:
        inside = hd.logical_and(
            hd.logical_and(hd.greater_equal(xx, 0), hd.less(xx, w)),
            hd.logical_and(hd.greater_equal(yy, 0), hd.less(yy, h)),
        )
        lin = hd.add(hd.multiply(hd.clip(yy, 0, h - 1), w), hd.clip(xx, 0, w - 1))
        lin = hd.reshape(hd.astype(lin, hd.int32), (n, 1, -1))
        vals = hd.take_along_axis(flat, hd.broadcast_to(lin, (n, c, lin.shape[-1])), axis=-1)
        vals = hd.reshape(vals, (n, c, *yy.shape[1:]))
        return hd.where(hd.expand_dims(inside, axis=1), vals, hd.zeros_like(vals))

    if interpolation_mode == 1:
        return sample(hd.round(iy), hd.round(ix))
    x0, y0 = hd.floor(ix), hd.floor(iy)
    x1, y1 = hd.add(x0, 1.0), hd.add(y0, 1.0)
    wx1, wy1 = hd.subtract(ix, x0), hd.subtract(iy, y0)
    wx0, wy0 = hd.subtract(1.0, wx1), hd.subtract(1.0, wy1)

    def weighted(yy: Array, xx: Array, wgt: Array) -> Array:
        return hd.multiply(sample(yy, xx), hd.expand_dims(wgt, axis=1))

    return (
        weighted(y0, x0, wy0 * wx0)
        + weighted(y0, x1, wy0 * wx1)
        + weighted(y1, x0, wy1 * wx0)
        + weighted(y1, x1, wy1 * wx1)
    )


def col2im(
    x: Array,
    output_size: Sequence[int],
    kernel_size: Sequence[int],
    dilation: Sequence[int],
    padding: Sequence[int],
    stride: Sequence[int],
) -> Array:
    """Sum of sliding blocks (N, C*kh*kw, L) into an image (N, C, H, W): the adjoint of unfold."""
    batched = x.ndim == 3
    if not batched:
        x = hd.expand_dims(x, axis=0)
    n, ckk, _ = x.shape
    kh, kw = kernel_size
    c = ckk // (kh * kw)
    h, w = output_size
    hp, wp = h + 2 * padding[0], w + 2 * padding[1]
    oh = (hp - (dilation[0] * (kh - 1) + 1)) // stride[0] + 1
    ow = (wp - (dilation[1] * (kw - 1) + 1)) // stride[1] + 1
    rows = np.arange(oh)[None, :] * stride[0] + np.arange(kh)[:, None] * dilation[0]  # (kh, oh)
    cols = np.arange(ow)[None, :] * stride[1] + np.arange(kw)[:, None] * dilation[1]  # (kw, ow)
    target = (rows[:, None, :, None] * wp + cols[None, :, None, :]).reshape(-1)  # (kh*kw*oh*ow)
    blocks = hd.reshape(x, (n, c, kh * kw * oh * ow))
    image = _constant(x, np.zeros((n, c, hp * wp), np.float32), hd.dtype(x))
    idx = _constant(x, target.astype(np.int32))
    image = hd.at(image)[:, :, idx].add(blocks)
    image = hd.reshape(image, (n, c, hp, wp))[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w]
    return image if batched else hd.squeeze(image, axis=0)


# ---- FFT ----------------------------------------------------------------------------------------

_NORM = {0: "backward", 1: "ortho", 2: "forward"}


def fft_r2c(x: Array, dim: Sequence[int], normalization: int, onesided: bool) -> Array:
    out = hd.fft.rfftn(x, axes=tuple(dim), norm=_NORM[normalization])
    if onesided:
        return out
    full = hd.fft.fftn(hd.astype(x, _complex_of(x)), axes=tuple(dim), norm=_NORM[normalization])
    return full


def _complex_of(x: Array) -> Any:
    return hd.complex128 if hd.dtype(x) == hd.float64 else hd.complex64


#: the inverse transform's scaling by torch's code (0: none, 1: 1/sqrt(n), 2: 1/n) as NumPy's name
_INVERSE_NORM = {0: "forward", 1: "ortho", 2: "backward"}


def fft_c2r(x: Array, dim: Sequence[int], normalization: int, last_dim_size: int) -> Array:
    sizes = [x.shape[d] for d in dim[:-1]] + [last_dim_size]
    return hd.fft.irfftn(x, s=tuple(sizes), axes=tuple(dim), norm=_INVERSE_NORM[normalization])


# ---- backward ops: closed forms, and the vjp of the forward convolution ------------------------


def avg_pool2d_backward(
    grad: Array,
    x: Array,
    kernel_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: int | None,
) -> Array:
    """The adjoint of :func:`avg_pool2d`: each window's share of ``grad`` added back where it read."""
    nd = 2
    kernel = _as_list(kernel_size, nd)
    stride = _as_list(stride, nd) if stride is not None and len(stride) else kernel
    pad = _as_list(padding, nd)
    sizes = [int(s) for s in x.shape[x.ndim - nd :]]
    positions = [
        np.arange(_pool_geometry(n, k, s, p, 1, ceil_mode)[0])[:, None] * s + np.arange(k)[None, :] - p
        for n, k, s, p in zip(sizes, kernel, stride, pad, strict=True)
    ]
    counts = divisor_override or _window_counts(positions, sizes, pad, count_include_pad)
    share = hd.divide(
        grad,
        counts if isinstance(counts, int) else _constant(grad, counts.astype(np.float32), hd.dtype(grad)),
    )
    # every (out, kernel) pair reads input position pos (when inside): a scatter-add of the share
    rows, cols = positions
    target = (
        rows[:, None, :, None] * sizes[1] + cols[None, :, None, :]
    )  # (o1, o2, k1, k2) as (o1, 1, k1, 1)+...
    inside = ((rows >= 0) & (rows < sizes[0]))[:, None, :, None] & ((cols >= 0) & (cols < sizes[1]))[
        None, :, None, :
    ]
    target = np.where(inside, target, sizes[0] * sizes[1])  # outside: a spare slot, dropped below
    lead = tuple(grad.shape[: grad.ndim - nd])
    spread = hd.broadcast_to(
        hd.reshape(share, (*lead, rows.shape[0], cols.shape[0], 1, 1)),
        (*lead, rows.shape[0], cols.shape[0], rows.shape[1], cols.shape[1]),
    )
    flat = _constant(grad, np.zeros((*lead, sizes[0] * sizes[1] + 1), np.float32), hd.dtype(grad))
    index = _constant(grad, target.reshape(-1).astype(np.int32))
    added = hd.at(flat)[..., index].add(hd.reshape(spread, (*lead, -1)))
    return hd.reshape(added[..., :-1], tuple(x.shape))


def adaptive_avg_pool2d_backward(grad: Array, x: Array) -> Array:
    """The adjoint of :func:`adaptive_avg_pool2d`: the averaging matrices transposed."""
    out = grad
    for a in range(2):
        axis = x.ndim - 2 + a
        m = _constant(
            grad,
            _adaptive_matrix(int(x.shape[axis]), int(grad.shape[axis])).astype(np.float32),
            hd.dtype(grad),
        )
        out = hd.moveaxis(hd.tensordot(out, m, axes=([axis], [0])), -1, axis)
    return out


def max_pool2d_with_indices_backward(
    grad: Array,
    x: Array,
    kernel_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    ceil_mode: bool,
    indices: Array,
) -> Array:
    flat_grad = hd.reshape(grad, (*grad.shape[:-2], -1))
    flat_idx = hd.reshape(indices, (*indices.shape[:-2], -1))
    out = hd.zeros_like(hd.reshape(x, (*x.shape[:-2], -1)))
    added = _scatter_last(out, flat_idx, flat_grad)
    return hd.reshape(added, tuple(x.shape))


def _scatter_last(out: Array, index: Array, values: Array) -> Array:
    key = _scatter_key(out, index.ndim - 1, index)
    return hd.at(out)[key].add(values)


def convolution_backward(
    grad: Array,
    x: Array,
    weight: Array,
    bias_sizes: Any,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
    output_mask: Sequence[bool],
) -> tuple[Array | None, Array | None, Array | None]:
    def forward(v: Array, w: Array) -> Array:
        return convolution(v, w, None, stride, padding, dilation, transposed, output_padding, groups)

    _, pullback = hd.vjp(forward, x, weight)
    gx, gw = pullback(grad)
    gb = hd.sum(grad, axis=(0, *range(2, grad.ndim))) if output_mask[2] else None
    return (gx if output_mask[0] else None, gw if output_mask[1] else None, gb)


def _normalized_backward(grad_hat: Array, x_hat: Array, rstd: Array, axes: tuple[int, ...]) -> Array:
    """d(loss)/dx of ``x_hat = (x - mean) * rstd`` (statistics over ``axes``) from d(loss)/d(x_hat)."""
    mean_g = hd.mean(grad_hat, axis=axes, keepdims=True)
    mean_gx = hd.mean(hd.multiply(grad_hat, x_hat), axis=axes, keepdims=True)
    return hd.multiply(rstd, hd.subtract(hd.subtract(grad_hat, mean_g), hd.multiply(x_hat, mean_gx)))


def native_layer_norm_backward(
    grad: Array,
    x: Array,
    normalized_shape: Sequence[int],
    mean: Array,
    rstd: Array,
    weight: Array | None,
    bias: Array | None,
    output_mask: Sequence[bool],
) -> tuple:
    """torch's closed form, with the saved statistics ``mean`` and ``rstd`` (shaped like x, 1 on
    the normalized axes)."""
    k = len(normalized_shape)
    axes = tuple(range(x.ndim - k, x.ndim))
    batch_axes = tuple(range(x.ndim - k))
    x_hat = hd.multiply(hd.subtract(x, mean), rstd)
    grad_hat = grad if weight is None else hd.multiply(grad, weight)
    gx = _normalized_backward(grad_hat, x_hat, rstd, axes) if output_mask[0] else None
    gw = hd.sum(hd.multiply(grad, x_hat), axis=batch_axes) if output_mask[1] and weight is not None else None
    gb = hd.sum(grad, axis=batch_axes) if output_mask[2] and bias is not None else None
    return gx, gw, gb


def native_group_norm_backward(
    grad: Array,
    x: Array,
    mean: Array,
    rstd: Array,
    weight: Array | None,
    n: int,
    c: int,
    hxw: int,
    group: int,
    output_mask: Sequence[bool],
) -> tuple:
    """torch's closed form; ``mean`` and ``rstd`` are the saved (n, group) statistics."""
    shape = _channel_shape(x)
    grad_hat = grad if weight is None else hd.multiply(grad, hd.reshape(weight, shape))
    stats = (n, group, 1)
    x_hat = hd.multiply(
        hd.subtract(hd.reshape(x, (n, group, -1)), hd.reshape(mean, stats)), hd.reshape(rstd, stats)
    )
    gx = _normalized_backward(hd.reshape(grad_hat, (n, group, -1)), x_hat, hd.reshape(rstd, stats), (-1,))
    spatial = (0, *range(2, x.ndim))
    x_hat_full = hd.reshape(x_hat, tuple(x.shape))
    gw = (
        hd.sum(hd.multiply(grad, x_hat_full), axis=spatial) if output_mask[1] and weight is not None else None
    )
    gb = hd.sum(grad, axis=spatial) if output_mask[2] else None
    return (hd.reshape(gx, tuple(x.shape)) if output_mask[0] else None), gw, gb


# ---- symbolic sizes (dynamic shapes) ------------------------------------------------------------


def sym_size(x: Array, dim: int) -> int:
    return x.shape[dim]


def sym_numel(x: Array) -> int:
    return math.prod(x.shape)


def sym_stride(x: Array, dim: int) -> int:
    return math.prod(x.shape[dim % x.ndim + 1 :])


def sym_storage_offset(x: Array) -> int:
    return 0


def sym_is_contiguous(x: Array, memory_format: Any = None) -> bool:
    return True


def assertion(*args: Any, **kwargs: Any) -> None:
    """torch's runtime assertions on sizes and metadata: checked at export; nothing to compute."""
    return None


def _in_place(name: str) -> Callable:
    def lowering(*args: Any, **kwargs: Any) -> Any:
        raise hd.UnsupportedError(f"aten.{name}: an in-place op; a hedera program is functional")

    lowering.__name__ = name
    return lowering


ceil = _unary_on_floats(hd.ceil)
floor = _unary_on_floats(hd.floor)


def round_(x: Array, decimals: int = 0) -> Array:
    """torch's round (half to even), to ``decimals`` places as torch computes it: scaled by
    ``10**|decimals|`` in the input's dtype, rounded, scaled back; the identity on integers."""
    if not hd.isdtype(hd.dtype(x), ("real floating", "complex floating")):
        return x
    if decimals == 0:
        return hd.round(x)
    scale = 10.0 ** abs(decimals)
    if decimals > 0:
        return hd.divide(hd.round(hd.multiply(x, scale)), scale)
    return hd.multiply(hd.round(hd.divide(x, scale)), scale)


trunc = _unary_on_floats(hd.trunc)
max_pool2d_with_indices = _max_pool(2)
max_pool3d_with_indices = _max_pool(3)
avg_pool1d = _avg_pool(1)
avg_pool2d = _avg_pool(2)
avg_pool3d = _avg_pool(3)
adaptive_avg_pool1d = _adaptive_avg_pool(1)
adaptive_avg_pool2d = _adaptive_avg_pool(2)
adaptive_avg_pool3d = _adaptive_avg_pool(3)
resize_ = _in_place("resize_")


# ---- the table ----------------------------------------------------------------------------------

_OUT, _COMMON = "out", "common"
_AUTODIFF_ONLY = {"numpy": _NO_AUTODIFF}

ROWS: dict[str, Row] = {
    # elementwise, unary
    "abs": Row(hd.abs, _OUT),
    "acos": Row(hd.acos, _OUT),
    "acosh": Row(hd.acosh, _OUT),
    "asin": Row(hd.asin, _OUT),
    "asinh": Row(hd.asinh, _OUT),
    "atan": Row(hd.atan, _OUT),
    "atanh": Row(hd.atanh, _OUT),
    "ceil": Row(ceil, _OUT),
    "cos": Row(hd.cos, _OUT),
    "cosh": Row(hd.cosh, _OUT),
    "erf": Row(erf, _OUT),
    "exp": Row(hd.exp, _OUT),
    "expm1": Row(hd.expm1, _OUT),
    "floor": Row(floor, _OUT),
    "log": Row(hd.log, _OUT),
    "log10": Row(hd.log10, _OUT),
    "log1p": Row(hd.log1p, _OUT),
    "log2": Row(hd.log2, _OUT),
    "neg": Row(hd.negative, _OUT),
    "reciprocal": Row(hd.reciprocal, _OUT),
    "round": Row(round_, _OUT),
    "rsqrt": Row(rsqrt, _OUT),
    "sigmoid": Row(sigmoid, _OUT),
    "sign": Row(sign, _OUT),
    "sin": Row(hd.sin, _OUT),
    "sinh": Row(hd.sinh, _OUT),
    "sqrt": Row(hd.sqrt, _OUT),
    "tan": Row(hd.tan, _OUT),
    "tanh": Row(hd.tanh, _OUT),
    "trunc": Row(trunc, _OUT),
    "relu": Row(nnf.relu, _OUT),
    "bitwise_not": Row(bitwise_not),
    "isinf": Row(hd.isinf),
    "isnan": Row(hd.isnan),
    "logical_not": Row(logical_not),
    "gelu": Row(gelu, _OUT),
    "elu": Row(elu, _OUT),
    "leaky_relu": Row(leaky_relu, _OUT),
    "hardtanh": Row(hardtanh, _OUT),
    "clamp": Row(clamp, _OUT),
    # elementwise, binary
    "add": Row(add, _OUT),
    "sub": Row(sub, _OUT),
    "mul": Row(hd.multiply, _OUT),
    "div": Row(div, _OUT),
    "atan2": Row(hd.atan2, _OUT),
    "fmod": Row(fmod, _OUT),
    "remainder": Row(hd.remainder, _OUT),
    "pow": Row(pow_, _OUT),
    "maximum": Row(maximum, _OUT),
    "minimum": Row(minimum, _OUT),
    "bitwise_and": Row(bitwise_and, _OUT),
    "bitwise_or": Row(bitwise_or, _OUT),
    "bitwise_xor": Row(bitwise_xor, _OUT),
    "eq": Row(hd.equal, _COMMON),
    "ne": Row(hd.not_equal, _COMMON),
    "lt": Row(hd.less, _COMMON),
    "le": Row(hd.less_equal, _COMMON),
    "gt": Row(hd.greater, _COMMON),
    "ge": Row(hd.greater_equal, _COMMON),
    "logical_and": Row(logical_and),
    "logical_or": Row(logical_or),
    "logical_xor": Row(logical_xor),
    "where": Row(where, _OUT, operands=(1, 2)),
    # reductions
    "amax": Row(amax),
    "amin": Row(amin),
    "any": Row(any_),
    "argmax": Row(argmax),
    "argmin": Row(argmin),
    "max": Row(max_dim),
    "min": Row(min_dim),
    "mean": Row(mean, _OUT, operands=(0,)),
    "sum": Row(sum_, _OUT, operands=(0,)),
    "prod": Row(prod, _OUT, operands=(0,)),
    "var": Row(var),
    "var.dim": Row(var_dim),
    "cumsum": Row(cumsum, _OUT, operands=(0,)),
    # linear algebra
    "addmm": Row(addmm, _OUT),
    "bmm": Row(hd.matmul, _OUT),
    "mm": Row(hd.matmul, _OUT),
    "_cdist_forward": Row(cdist_forward),
    "_pdist_forward": Row(pdist_forward),
    # shapes and views
    "view": Row(view),
    "expand": Row(expand),
    "permute": Row(permute),
    "unsqueeze": Row(unsqueeze),
    "squeeze": Row(squeeze),
    "cat": Row(cat, _OUT),
    "select": Row(select),
    "slice": Row(slice_),
    "diagonal": Row(diagonal),
    "flip": Row(flip),
    "repeat": Row(repeat),
    "split_with_sizes": Row(split_with_sizes),
    "clone": Row(clone),
    "alias": Row(alias),
    "copy": Row(copy),
    "_to_copy": Row(to_copy),
    "as_strided": Row(as_strided, note="reads the input as contiguous row-major storage"),
    # creation
    "full": Row(full),
    "full_like": Row(full_like),
    "fill": Row(fill),
    "empty": Row(empty, note="zeros (torch leaves the memory uninitialised)"),
    "empty_strided": Row(empty_strided, note="zeros (torch leaves the memory uninitialised)"),
    "scalar_tensor": Row(scalar_tensor),
    "arange": Row(arange),
    "rand": Row(rand, note="hedera's random stream (hd.random), not torch's; stateful: not under hd.jit"),
    "randn": Row(randn, note="hedera's random stream (hd.random), not torch's; stateful: not under hd.jit"),
    "randperm": Row(
        randperm, note="hedera's random stream (hd.random), not torch's; stateful: not under hd.jit"
    ),
    "native_dropout": Row(native_dropout, note="identity in eval mode; in training, hedera's random stream"),
    # indexing, gather, scatter
    "index": Row(index),
    "index_put": Row(index_put),
    "index_select": Row(index_select),
    "gather": Row(gather),
    "scatter": Row(scatter, _OUT, operands=(0, 3)),
    "scatter_add": Row(scatter_add, _OUT, operands=(0, 3)),
    "scatter_reduce": Row(scatter_reduce, _OUT, operands=(0, 3)),
    "select_scatter": Row(select_scatter),
    "slice_scatter": Row(slice_scatter),
    "masked_scatter": Row(masked_scatter),
    "embedding": Row(embedding),
    "embedding_dense_backward": Row(embedding_dense_backward),
    "nonzero": Row(nonzero, note="data-dependent shape: eager only (not under hd.jit)"),
    "_local_scalar_dense": Row(
        local_scalar_dense, note="reads a value to Python: eager only (not under hd.jit)"
    ),
    "sort": Row(sort),
    "topk": Row(topk),
    # padding
    "constant_pad_nd": Row(constant_pad_nd),
    "reflection_pad1d": Row(reflection_pad),
    "reflection_pad2d": Row(reflection_pad),
    "reflection_pad3d": Row(reflection_pad),
    "replication_pad2d": Row(replication_pad),
    "replication_pad3d": Row(replication_pad),
    # normalization and activations with a dim
    "_native_batch_norm_legit_no_training": Row(batch_norm_no_training),
    "_native_batch_norm_legit": Row(batch_norm_training),
    "_native_batch_norm_legit.no_stats": Row(batch_norm_no_stats),
    "_native_batch_norm_legit_functional": Row(batch_norm_functional),
    "native_layer_norm": Row(native_layer_norm),
    "native_group_norm": Row(native_group_norm),
    "_softmax": Row(softmax),
    "_log_softmax": Row(log_softmax),
    # convolution, pooling, resampling
    "convolution": Row(convolution),
    "max_pool2d_with_indices": Row(max_pool2d_with_indices),
    "max_pool3d_with_indices": Row(max_pool3d_with_indices),
    "avg_pool1d": Row(avg_pool1d),
    "avg_pool2d": Row(avg_pool2d),
    "avg_pool3d": Row(avg_pool3d),
    "adaptive_avg_pool1d": Row(adaptive_avg_pool1d),
    "_adaptive_avg_pool2d": Row(adaptive_avg_pool2d),
    "_adaptive_avg_pool3d": Row(adaptive_avg_pool3d),
    "upsample_nearest2d": Row(upsample_nearest2d),
    "upsample_bilinear2d": Row(upsample_bilinear2d),
    "grid_sampler_2d": Row(grid_sampler_2d, note="bilinear and nearest, zeros and border padding"),
    "col2im": Row(col2im),
    # FFT
    "_fft_r2c": Row(fft_r2c),
    "_fft_c2r": Row(fft_c2r),
    # backward ops
    "avg_pool2d_backward": Row(avg_pool2d_backward),
    "_adaptive_avg_pool2d_backward": Row(adaptive_avg_pool2d_backward),
    "max_pool2d_with_indices_backward": Row(max_pool2d_with_indices_backward),
    "convolution_backward": Row(convolution_backward, unsupported=_AUTODIFF_ONLY),
    "native_layer_norm_backward": Row(native_layer_norm_backward),
    "native_group_norm_backward": Row(native_group_norm_backward),
    # symbolic sizes
    "sym_size": Row(sym_size),
    "sym_numel": Row(sym_numel),
    "sym_stride": Row(sym_stride),
    "sym_storage_offset": Row(sym_storage_offset),
    "sym_is_contiguous": Row(sym_is_contiguous),
    # assertions (export's runtime checks) and in-place ops
    "_assert_tensor_metadata": Row(assertion, note="an export-time check"),
    "_assert_scalar": Row(assertion, note="an export-time check"),
    "sym_constrain_range_for_size": Row(assertion, note="an export-time check"),
    "resize_": Row(
        resize_, unsupported=dict.fromkeys(BACKENDS, "an in-place op (functionalized graphs never hold it)")
    ),
}


def row_for(packet: str, overload: str) -> Row | None:
    """The row of ``aten.<packet>.<overload>``: an overload's own row, else the packet's."""
    return ROWS.get(f"{packet}.{overload}") or ROWS.get(packet)
