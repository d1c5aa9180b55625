"""hedera's functions beyond the standard (numpy backend).

Every backend has these with the same signatures; their semantics are documented
here once, and the other backends follow them.
"""

from __future__ import annotations

import numpy as np

from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import TopKResult, check_integer_indices, check_pad_mode, normalize_axis, normalize_pad_width
from ._core import native_dtype
from .statistical import cumulative_prod, cumulative_sum

__all__ = names_in("extra")  # the API table's extra rows

cumsum = cumulative_sum
cumprod = cumulative_prod


def allclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|x1 - x2| <= atol + rtol * |x2|`` everywhere (broadcasting); a Python bool."""
    return bool(np.allclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Element-wise ``|x1 - x2| <= atol + rtol * |x2|``, as a boolean array."""
    return np.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)


#: Einstein summation over ``operands``, in NumPy's subscript notation (``"ij,jk->ik"``):
#: np.einsum itself (a shim's Python frame cost ~150 ns, 12 % of np.einsum at 1 element)
einsum = np.einsum


def _batch_index(x_shape, indices, batch_dims):
    idx = [indices[..., k] for k in range(indices.shape[-1])]
    batch = []
    for b in range(batch_dims):
        shape = [1] * (indices.ndim - 1)
        shape[b] = x_shape[b]
        batch.append(np.arange(x_shape[b]).reshape(shape))
    return tuple(batch + idx)


def gather_nd(x, indices, /, *, batch_dims=0):
    """Gather slices of ``x`` at multi-indices, as ``tf.gather_nd``.

    ``indices`` has shape ``(*batch, *outer, K)``: each last-axis vector indexes the
    first ``K`` axes of ``x`` after its ``batch_dims`` leading (batch) axes. The
    result has shape ``(*batch, *outer, *x.shape[batch_dims + K:])``.
    """
    check_integer_indices("gather_nd", "indices", indices)
    indices = np.asarray(indices)
    return x[_batch_index(np.shape(x), indices, batch_dims)]


def scatter_nd(indices, updates, shape, /):
    """A zero array of ``shape`` with ``updates`` added at ``indices``, as ``tf.scatter_nd``.

    ``indices`` has shape ``(*outer, K)`` and ``updates`` ``(*outer, *shape[K:])``;
    repeated indices are summed.
    """
    check_integer_indices("scatter_nd", "indices", indices)
    out = np.zeros(shape, dtype=np.asarray(updates).dtype)
    np.add.at(out, tuple(np.moveaxis(np.asarray(indices), -1, 0)), updates)
    return out


def logsumexp(x, /, *, axis=None, keepdims=False):
    """``log(sum(exp(x), axis))``, computed stably (shifted by the maximum).

    Integer and boolean ``x`` is cast to the default floating dtype first (as torch does).
    """
    if x.dtype.kind in "biu":  # (the -inf initial below does not fit an integer)
        x = x.astype(np.float64)
    m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)  # initial: empty sums give -inf
    m = np.where(np.isfinite(m), m, np.zeros_like(m))  # (not 0: numpy < 2 would promote by value)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def one_hot(indices, num_classes, /, *, dtype=None, axis=-1):
    """One-hot encoding of integer ``indices``: a new axis of size ``num_classes`` at ``axis``.

    Out-of-range indices give all-zero rows. ``dtype`` defaults to the backend's
    default floating dtype.
    """
    check_integer_indices("one_hot", "indices", indices)  # a float 0.7 would match no class
    if num_classes < 0:  # np.arange would give no classes
        raise InvalidArgumentError(f"one_hot: num_classes must be non-negative, got {num_classes}")
    out = np.expand_dims(indices, -1) == np.arange(num_classes)
    out = out.astype(native_dtype(dtype) or np.float64)
    return np.moveaxis(out, -1, normalize_axis(axis, np.ndim(indices) + 1))


def pad(x, /, pad_width, *, mode="constant", constant_values=0):
    """Pad ``x``. ``pad_width`` as in NumPy; ``mode`` one of constant, reflect, symmetric, edge, wrap."""
    if mode != "constant":
        check_pad_mode(mode)
    exact = x.__class__ is np.ndarray  # (its .ndim and .shape, not np.ndim's and np.shape's ~0.2 us each)
    widths = normalize_pad_width(pad_width, x.ndim if exact else np.ndim(x))
    if not widths:  # a 0-d array has no axes to pad (np.pad cannot read an empty pad_width)
        return np.array(x, copy=True)
    if mode == "constant":
        kind = type(constant_values)
        if (kind is float or kind is int) and type(x) is np.ndarray and x.dtype.kind in "fc":
            return _pad_constant(x, widths, constant_values)
        return np.pad(x, widths, mode="constant", constant_values=constant_values)
    if not exact or not x.size:  # (an empty axis makes x empty)
        shape = np.shape(x)
        for axis, (before, after) in enumerate(widths):
            if (before or after) and shape[axis] == 0:
                raise InvalidArgumentError(f"pad: cannot pad an empty axis ({axis}) in mode {mode!r}")
    return np.pad(x, widths, mode=mode)


def _pad_constant(x, widths, value):
    """``np.pad(x, widths, constant_values=value)`` for a real Python scalar and an inexact ``x``.

    What np.pad does (a new array of ``x``'s dtype and memory order, filled, ``x`` copied in), without
    its ~6 us of argument handling. ``value`` rounds to the dtype as np.pad's assignment does, and a
    -0.0 keeps its sign.
    """
    shape = x.shape
    out = np.empty(
        tuple(a + n + b for n, (a, b) in zip(shape, widths, strict=True)),
        x.dtype,
        order="F" if x.flags.fnc else "C",  # (np.pad's rule: Fortran order only if not also C order)
    )
    out.fill(value)
    out[tuple(slice(a, a + n) for n, (a, _) in zip(shape, widths, strict=True))] = x
    return out


def split(x, indices_or_sections, /, *, axis=0):
    """Split ``x`` along ``axis`` into equal sections (an int) or at the given indices (a sequence)."""
    sections = indices_or_sections
    if isinstance(sections, int) and (sections <= 0 or np.shape(x)[axis] % sections):
        raise InvalidArgumentError(
            f"indices_or_sections: {indices_or_sections} does not divide axis {axis} "
            f"of size {np.shape(x)[axis]}"
        )
    return tuple(np.split(x, indices_or_sections, axis=axis))


def top_k(x, k, /, *, axis=-1, largest=True):
    """The ``k`` largest (or smallest) elements along ``axis`` and their indices, sorted.

    Among equal elements the lower index comes first.
    """
    if not 0 <= k <= np.shape(x)[axis]:
        raise InvalidArgumentError(f"k: expected 0 <= k <= {np.shape(x)[axis]}, got {k}")
    from .sorting import argsort

    order = argsort(x, axis=axis, descending=largest, stable=True)
    idx = np.take(order, np.arange(k), axis=axis)
    return TopKResult(np.take_along_axis(x, idx, axis=axis), idx)


def to_numpy(x, /):
    """``x`` as a NumPy array (numpy arrays come back as they are)."""
    return np.asarray(x)
