"""Indexing functions (torch backend), plus the functional indexed update behind ``hd.at``."""

from __future__ import annotations

import builtins

import torch

from ...errors import DtypeError, InvalidArgumentError
from .._common import check_index_update_op, check_integer_indices, normalize_axis

__all__ = ["index_get", "index_update", "take", "take_along_axis"]

# integer index dtypes torch indexes with as they are; others (int8, int16) are widened, and
# uint8, which torch would read as a boolean mask, too
_INDEX_DTYPES = (torch.int64, torch.int32, torch.bool)


def _as_index(index):
    if isinstance(index, torch.Tensor):
        if index.dtype in _INDEX_DTYPES:
            return index
        if index.dtype.is_floating_point or index.dtype.is_complex:  # .to(int64) would truncate
            raise DtypeError(f"index: array indices must be integers or booleans, got {index.dtype}")
        return index.to(torch.int64)
    if isinstance(index, tuple):
        return tuple(_as_index(i) for i in index)
    return index


def _width(item) -> int:
    """How many axes of ``x`` an index item consumes."""
    if item is None or item is Ellipsis or isinstance(item, bool):
        return 0
    if isinstance(item, torch.Tensor) and item.dtype is torch.bool:
        return item.ndim
    return 1


def _positive_steps(x, index):
    """``(axes, index)``: ``x[index] == flip(x, axes)[index']``, with every slice step of ``index'`` positive.

    torch slices take no negative steps; a slice stepping down an axis selects, on the
    flipped axis, the same elements stepping up.
    """
    items = index if isinstance(index, tuple) else (index,)
    if not builtins.any(isinstance(i, slice) and i.step is not None and i.step < 0 for i in items):
        return (), _as_index(index)
    rest = x.ndim - builtins.sum(_width(i) for i in items)
    axis, axes, out = 0, [], []
    for item in items:
        if isinstance(item, slice) and item.step is not None and item.step < 0:
            n = x.shape[axis]
            first, _, step = item.indices(n)
            count = len(range(*item.indices(n)))
            start = n - 1 - first  # the first selected element, on the flipped axis
            item = slice(start, start + (count - 1) * -step + 1, -step) if count else slice(0, 0)
            axes.append(axis)
        out.append(_as_index(item))
        axis += rest if item is Ellipsis else _width(item)
    return tuple(axes), tuple(out)


_TENSOR, _INT64, _take = torch.Tensor, torch.int64, torch.take


def _get(x, axes, index):
    return (torch.flip(x, axes) if axes else x)[index]


def take(x, indices, /, *, axis=None):
    # the common case: a 1-d x and integer indices, whose flat torch.take takes negative indices too
    # (module constants: each torch.<name> is a global and an attribute lookup)
    if indices.__class__ is _TENSOR and indices.dtype is _INT64 and x.ndim == 1:
        if axis is None or axis == 0 or axis == -1:
            return _take(x, indices)
    if axis is None:
        if x.ndim != 1:
            raise InvalidArgumentError("axis: must be given for arrays of more than one dimension")
        axis = 0
    check_integer_indices("take", "indices", indices)  # (a boolean tensor would select as a mask)
    axis = normalize_axis(axis, x.ndim)
    # advanced indexing takes negative indices, which torch.index_select does not
    return x[(slice(None),) * axis + (_as_index(indices),)]


def take_along_axis(x, indices, /, *, axis=-1):
    check_integer_indices("take_along_axis", "indices", indices)
    if indices.dtype is not torch.int64:
        indices = indices.to(torch.int64)
    # negative indices count from the end (torch.gather would fail on them on some devices)
    indices = torch.where(indices < 0, indices + x.shape[axis], indices)
    return torch.take_along_dim(x, indices, dim=axis)


def index_get(x, index, /):
    """``x[index]``, for any index the standard allows (negative slice steps, small integer index tensors)."""
    axes, index = _positive_steps(x, index)
    return _get(x, axes, index)


_REDUCE = {"add": "sum", "multiply": "prod", "min": "amin", "max": "amax"}


def index_update(x, index, values, /, *, op="set"):
    """A copy of ``x`` with ``values`` written (``op="set"``) or combined into ``x[index]``.

    Out of place and differentiable (gradients reach ``x`` and ``values``). Repeated
    indices accumulate for every op but ``"set"``: the positions selected by ``index``
    are found as flat offsets and combined with ``scatter_reduce``.
    """
    check_index_update_op(op)
    axes, index = _positive_steps(x, index)
    if not isinstance(values, torch.Tensor):
        values = torch.as_tensor(values, dtype=x.dtype, device=x.device)
    elif values.dtype is not x.dtype:
        values = values.to(x.dtype)
    if op == "set" and not axes:
        out = x.clone()
        try:
            out[index] = values
            return out
        except RuntimeError:  # under torch.func.vmap with values batched and x not: no in-place write
            pass
    positions = _get(torch.arange(x.numel(), device=x.device).reshape(x.shape), axes, index)
    offsets = torch.reshape(positions, (-1,))
    src = torch.reshape(torch.broadcast_to(values, positions.shape), (-1,))
    flat = torch.reshape(x, (-1,))
    if op == "set":
        return flat.scatter(0, offsets, src).reshape(x.shape)
    return flat.scatter_reduce(0, offsets, src, _REDUCE[op]).reshape(x.shape)
