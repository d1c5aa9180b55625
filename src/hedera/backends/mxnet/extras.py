"""hedera's functions beyond the standard (mxnet backend); semantics as in the numpy backend's extras."""

from __future__ import annotations

import mxnet as mx
import numpy as np

from ..._api import names_in
from .._common import check_pad_mode, normalize_axis, normalize_pad_width
from ..numpy import extras as _ref
from ._core import default_float, host, native_dtype
from .elementwise import FLOATS, MAX_NDIM, axes, native_ok
from .statistical import cumulative_prod, cumulative_sum
from .statistical import sum as _sum

__all__ = names_in("extra")  # the API table's extra rows

_mnp = mx.np
cumsum = cumulative_sum
cumprod = cumulative_prod
allclose = host(_ref.allclose, "allclose")
isclose = host(_ref.isclose, "isclose")
gather_nd = host(_ref.gather_nd, "gather_nd")
scatter_nd = host(_ref.scatter_nd, "scatter_nd")
split = host(_ref.split, "split")
top_k = host(_ref.top_k, "top_k")
_einsum = host(_ref.einsum, "einsum")
_logsumexp = host(_ref.logsumexp, "logsumexp")
_pad = host(_ref.pad, "pad")
_one_hot = host(_ref.one_hot, "one_hot")


def einsum(subscripts, /, *operands):
    """Einstein summation; MXNet's kernel for floating-point operands of one dtype, else the host."""
    dtypes = {o.dtype for o in operands}
    if len(dtypes) == 1 and dtypes <= FLOATS and all(native_ok(o) for o in operands):
        return _mnp.einsum(subscripts, *operands)
    return _einsum(subscripts, *operands)


def logsumexp(x, /, *, axis=None, keepdims=False):
    """``log(sum(exp(x), axis))``, shifted by the maximum (MXNet's kernels for non-empty floats).

    Integer and boolean ``x`` is cast to the default floating dtype first, as on every backend.
    """
    if x.dtype not in FLOATS:
        x = x.astype(default_float())
    if not native_ok(x) or axis == ():
        return _logsumexp(x, axis=axis, keepdims=keepdims)
    axis = axes(axis, x.ndim)
    m = mx.np.max(x, axis=axis, keepdims=True)
    m = _mnp.where(_mnp.isfinite(m), m, _mnp.zeros_like(m))
    out = _mnp.log(_sum(_mnp.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else _mnp.squeeze(out, axis=axis)


def one_hot(indices, num_classes, /, *, dtype=None, axis=-1):
    """One-hot encoding (out-of-range indices give all-zero rows); dtype defaults to float32."""
    dt = native_dtype(dtype) or np.float32
    if indices.ndim >= MAX_NDIM or indices.size == 0 or np.dtype(dt) not in FLOATS:
        return _one_hot(indices, num_classes, dtype=dt, axis=axis)
    classes = _mnp.arange(num_classes, dtype=np.int64, ctx=indices.ctx)
    out = (_mnp.expand_dims(indices.astype(np.int64), -1) == classes).astype(dt)
    return _mnp.moveaxis(out, -1, normalize_axis(axis, indices.ndim + 1))


def pad(x, /, pad_width, *, mode="constant", constant_values=0):
    """Pad ``x`` (MXNet's kernel for constant padding of floats, else the host)."""
    check_pad_mode(mode)
    widths = normalize_pad_width(pad_width, x.ndim)
    # MXNet's pad fails on 1-d arrays and ignores constant_values
    if mode == "constant" and native_ok(x) and x.ndim >= 2 and constant_values == 0:
        return _mnp.pad(x, widths, mode="constant", constant_values=constant_values)
    return _pad(x, pad_width, mode=mode, constant_values=constant_values)


def to_numpy(x, /):
    """``x`` as a NumPy array (a copy on the host; waits for MXNet's asynchronous engine)."""
    return x.asnumpy()
