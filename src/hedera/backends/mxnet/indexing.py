"""Indexing functions (mxnet backend), plus the functional indexed update behind ``hd.at``.

MXNet reads a boolean array index as integers (``x[mask]`` gathers rows 0 and
1): :func:`index_get` turns boolean masks into the integer indices they stand
for. ``take`` uses ``mode="wrap"`` (MXNet's default clips negative indices to 0).
"""

from __future__ import annotations

import mxnet as mx
import numpy as np

from .._common import check_index_update_op
from ..numpy import indexing as _ref
from ._core import host
from .elementwise import axes, native_ok

__all__ = ["index_get", "index_update", "take", "take_along_axis"]

_mnp = mx.np


def take(x, indices, /, *, axis=None):
    if axis is None and x.ndim != 1:
        raise ValueError("axis: must be given for arrays of more than one dimension")
    if not isinstance(indices, _mnp.ndarray):
        indices = _mnp.array(np.asarray(indices, dtype=np.int64), dtype=np.int64, ctx=x.ctx)
    if not native_ok(x) or not 0 < indices.size or indices.ndim + x.ndim > 6:
        return _take(x, indices, axis=axis)
    return _mnp.take(x, indices, axis=axes(axis, x.ndim), mode="wrap")


_take = host(_ref.take, "take")


_take_along_axis = host(_ref.take_along_axis, "take_along_axis")


def take_along_axis(x, indices, /, *, axis=-1):
    """Gather along ``axis`` by advanced indexing (differentiable for floats); the other axes broadcast."""
    if not native_ok(x) or indices.size == 0:
        return _take_along_axis(x, indices, axis=axis)
    ndim = x.ndim
    axis = axis % ndim if ndim else 0
    if indices.ndim != ndim:
        raise ValueError("take_along_axis: x and indices must have the same number of dimensions")
    shape = np.broadcast_shapes(
        tuple(s for i, s in enumerate(x.shape) if i != axis),
        tuple(s for i, s in enumerate(indices.shape) if i != axis),
    )
    full = (*shape[:axis], indices.shape[axis], *shape[axis:])
    idx = _mnp.broadcast_to(indices.astype(np.int64), full)
    index = []
    for i in range(ndim):
        if i == axis:
            index.append(_mnp.where(idx < 0, idx + x.shape[axis], idx))
        else:
            view = [1] * ndim
            view[i] = full[i]
            index.append(
                _mnp.broadcast_to(_mnp.arange(full[i], dtype=np.int64, ctx=x.ctx).reshape(tuple(view)), full)
            )
    if 0 in full:
        return _mnp.zeros(full, dtype=x.dtype, ctx=x.ctx)
    return x[tuple(index)]


def _integer_index(index, ctx):
    """``index`` with each boolean array replaced by the integer arrays of its True positions."""
    items = index if isinstance(index, tuple) else (index,)
    out = []
    for item in items:
        if isinstance(item, (_mnp.ndarray, np.ndarray)) and item.dtype in (np.bool_, bool):
            mask = item.asnumpy() if isinstance(item, _mnp.ndarray) else item
            out.extend(_mnp.array(i, dtype=np.int64, ctx=ctx) for i in np.nonzero(mask))
        elif isinstance(item, bool):
            return None  # a Python bool index (a new axis of size 0 or 1): on the host
        else:
            out.append(item)
    return tuple(out) if isinstance(index, tuple) or len(out) != 1 else out[0]


_index_get = host(_ref.index_get, "index_get")


def index_get(x, index, /):
    converted = _integer_index(index, x.ctx)
    if converted is not None and native_ok(x):
        try:
            return x[converted]
        except (mx.base.MXNetError, IndexError, ValueError, TypeError):
            pass  # what MXNet's indexing cannot do (x[1:0], say): NumPy's rules on the host
    return _index_get(x, index)


_index_update = host(_ref.index_update, "index_update")


def index_update(x, index, values, /, *, op="set"):
    """A copy of ``x`` with ``values`` written (``op="set"``) or combined into ``x[index]``.

    On the host (exact; repeated indices accumulate for every op but ``"set"``).
    """
    check_index_update_op(op)
    return _index_update(x, index, values, op=op)
