"""Statistical functions (mxnet backend).

Floating-point reductions are MXNet's (differentiable). Integer and boolean
inputs go through the host path: MXNet sums ``int8`` in ``int8`` (the standard
accumulates in the default integer dtype, ``int64``).
"""

from __future__ import annotations

import mxnet as mx
import numpy as np

from ..._api import names_in
from ..numpy import statistical as _ref
from ._core import host, native_dtype
from .elementwise import FLOATS, axes, native_ok

__all__ = names_in("statistical")  # the API table's statistical rows

_mnp = mx.np


def _restore_infinities(x, out, axis, keepdims):
    """``out``, a sum or mean of ``x``, with the infinities MXNet's compensated summation loses.

    MXNet sums with Kahan compensation, which turns any infinite term into NaN (``sum([inf, 1])``
    is NaN there). Where a slice holds an infinity, the result is that infinity, or NaN if the
    slice also holds the opposite infinity or a NaN. Checked with one reduction; the correction
    (differentiable, MXNet's kernels) runs only when an infinity is present.
    """
    if not bool(_mnp.isinf(x).any()):
        return out

    def anywhere(mask):
        return _mnp.max(mask.astype(x.dtype), axis=axis, keepdims=keepdims) > 0

    inf = _mnp.isinf(x)  # (MXNet refuses inf as a scalar operand: x == inf raises)
    pos, neg, nan = anywhere(inf & (x > 0)), anywhere(inf & (x < 0)), anywhere(_mnp.isnan(x))

    def const(value):  # a 0-d array: MXNet refuses inf and NaN as scalar operands
        return _mnp.array(np.asarray(value, dtype=x.dtype), dtype=x.dtype, ctx=x.ctx)

    out = _mnp.where(pos, const(np.inf), _mnp.where(neg, const(-np.inf), out))
    return _mnp.where(nan | (pos & neg), const(np.nan), out)


def _reduction(native, name, with_dtype=False, compensated=False):
    on_host = host(getattr(_ref, name), name)

    def run(x, axis, keepdims):
        ax = axes(axis, x.ndim)
        if ax == ():  # no axis to reduce (MXNet reads () as all of them)
            return on_host(x, axis=(), keepdims=keepdims)
        out = native(x, axis=ax, keepdims=keepdims)
        return _restore_infinities(x, out, ax, keepdims) if compensated else out

    if with_dtype:

        def reduce(x, /, *, axis=None, dtype=None, keepdims=False):
            dt = native_dtype(dtype)
            if native_ok(x) and (dt is None or np.dtype(dt) in FLOATS):
                if dt is not None and x.dtype != dt:
                    x = x.astype(dt)  # accumulate in the dtype asked for
                return run(x, axis, keepdims)
            return on_host(x, axis=axis, dtype=dtype, keepdims=keepdims)

    else:

        def reduce(x, /, *, axis=None, keepdims=False):
            if native_ok(x):
                return run(x, axis, keepdims)
            return on_host(x, axis=axis, keepdims=keepdims)

    reduce.__name__ = name
    return reduce


sum = _reduction(_mnp.sum, "sum", with_dtype=True, compensated=True)
prod = _reduction(_mnp.prod, "prod", with_dtype=True)
mean = _reduction(_mnp.mean, "mean", compensated=True)
_max = _reduction(_mnp.max, "max")
_min = _reduction(_mnp.min, "min")


def max(x, /, *, axis=None, keepdims=False):
    if x.size == 0:  # NumPy (the host path) raises for an empty reduction; MXNet returns garbage
        return _ref_max(x, axis=axis, keepdims=keepdims)
    return _max(x, axis=axis, keepdims=keepdims)


def min(x, /, *, axis=None, keepdims=False):
    if x.size == 0:
        return _ref_min(x, axis=axis, keepdims=keepdims)
    return _min(x, axis=axis, keepdims=keepdims)


_ref_max = host(_ref.max, "max")
_ref_min = host(_ref.min, "min")
_std = host(_ref.std, "std")
_var = host(_ref.var, "var")


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    if native_ok(x) and float(correction).is_integer() and axis != ():
        return _mnp.std(x, axis=axes(axis, x.ndim), ddof=int(correction), keepdims=keepdims)
    return _std(x, axis=axis, correction=correction, keepdims=keepdims)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    if native_ok(x) and float(correction).is_integer() and axis != ():
        return _mnp.var(x, axis=axes(axis, x.ndim), ddof=int(correction), keepdims=keepdims)
    return _var(x, axis=axis, correction=correction, keepdims=keepdims)


_cumsum = host(_ref.cumulative_sum, "cumulative_sum")
cumulative_prod = host(_ref.cumulative_prod, "cumulative_prod")  # MXNet has no cumprod


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    dt = native_dtype(dtype)
    if native_ok(x) and (dt is None or dt == x.dtype) and not include_initial:
        if axis is None:
            if x.ndim > 1:
                raise ValueError("axis: must be given for arrays of more than one dimension")
            axis = 0
        return _mnp.cumsum(x, axis=axes(axis, x.ndim))
    return _cumsum(x, axis=axis, dtype=dtype, include_initial=include_initial)
