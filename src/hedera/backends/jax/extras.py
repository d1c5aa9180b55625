"""hedera's functions beyond the standard (jax backend).

Semantics as documented in ``hedera.backends.numpy.extras``. Everything here
traces under ``jax.jit`` except ``allclose``'s conversion to a Python bool,
which it skips for traced inputs.
"""

from __future__ import annotations

import itertools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from ..._api import names_in
from ...errors import InvalidArgumentError
from .._common import (
    TopKResult,
    check_integer_indices,
    check_pad_mode,
    native_common_case,
    normalize_axis,
    normalize_pad_width,
)
from ._core import default_float, default_int, native_dtype
from .statistical import cumulative_prod, cumulative_sum

__all__ = names_in("extra")  # the API table's extra rows

cumsum = cumulative_sum
cumprod = cumulative_prod
isclose = jnp.isclose


def _einsum(subscripts, /, *operands):
    return jnp.einsum(subscripts, *operands)


# jnp.einsum finds its contraction path in Python at every call (~0.1 ms at one element) before it
# runs its compiled program; compiled with the subscripts static, the path is found once per
# subscripts and shapes, and the program is jnp.einsum's own (which it inlines)
@native_common_case(jax.jit(_einsum, static_argnums=0, inline=True), (1, 16))
def einsum(subscripts, /, *operands):
    return jnp.einsum(subscripts, *operands)


def allclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|x1 - x2| <= atol + rtol * |x2|`` everywhere (broadcasting).

    A Python bool; under ``jit`` (traced inputs) a 0-d boolean array, since the
    value is not known while tracing.
    """
    out = jnp.allclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return out if isinstance(out, jax.core.Tracer) else bool(out)


def _batch_index(x_shape, indices, batch_dims):
    idx = [indices[..., k] for k in range(indices.shape[-1])]
    batch = []
    for b in range(batch_dims):
        shape = [1] * (indices.ndim - 1)
        shape[b] = x_shape[b]
        batch.append(jnp.arange(x_shape[b]).reshape(shape))
    return tuple(batch + idx)


def gather_nd(x, indices, /, *, batch_dims=0):
    """Gather slices of ``x`` at multi-indices, as ``tf.gather_nd`` (see the numpy backend)."""
    check_integer_indices("gather_nd", "indices", indices)
    indices = jnp.asarray(indices)
    return x[_batch_index(x.shape, indices, batch_dims)]


def scatter_nd(indices, updates, shape, /):
    """A zero array of ``shape`` with ``updates`` added at ``indices`` (repeated indices summed)."""
    check_integer_indices("scatter_nd", "indices", indices)
    updates = jnp.asarray(updates)
    index = tuple(jnp.moveaxis(jnp.asarray(indices), -1, 0))
    return jnp.zeros(tuple(shape), dtype=updates.dtype).at[index].add(updates)


def logsumexp(x, /, *, axis=None, keepdims=False):
    """``log(sum(exp(x), axis))``, computed stably (``jax.nn.logsumexp``).

    Integer and boolean ``x`` is cast to the default floating dtype first (JAX would keep int8 as
    float32 but int64 as float64).
    """
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(default_float())
    return jax.nn.logsumexp(x, axis=axis, keepdims=keepdims)


def one_hot(indices, num_classes, /, *, dtype=None, axis=-1):
    """One-hot encoding; out-of-range indices give all-zero rows; ``dtype`` defaults to the default float."""
    check_integer_indices("one_hot", "indices", indices)  # a float 0.7 would match no class
    axis = normalize_axis(axis, jnp.ndim(indices) + 1)
    dt = native_dtype(dtype)
    return jax.nn.one_hot(indices, num_classes, dtype=default_float() if dt is None else dt, axis=axis)


def pad(x, /, pad_width, *, mode="constant", constant_values=0):
    """Pad ``x``. ``pad_width`` as in NumPy; ``mode`` one of constant, reflect, symmetric, edge, wrap."""
    if mode != "constant":
        check_pad_mode(mode)
    try:
        shape = x.shape  # (jnp.shape costs ~0.5 us)
    except AttributeError:
        shape = jnp.shape(x)
    widths = normalize_pad_width(pad_width, len(shape))
    if not widths:  # a 0-d array has nothing to pad (jnp.pad rejects the empty pad_width)
        return jnp.asarray(x)
    if mode == "constant":
        return _pad(x, widths, mode, constant_values)
    for axis, (before, after) in enumerate(widths):
        if (before or after) and shape[axis] == 0:
            raise InvalidArgumentError(f"pad: cannot pad an empty axis ({axis}) in mode {mode!r}")
    return _pad(x, widths, mode, 0)


# jnp.pad's program, compiled with the widths (pairs of ints, hashable, whatever the caller's form:
# jit's C++ dispatch would refuse a list) and the mode static, as jnp.pad compiles it, without its
# Python steps at every call (~10 us); not the shim's native common case: a list, which jit refuses,
# would cost ~40 us in its error before the shim
@partial(jax.jit, static_argnums=(1, 2), inline=True)
def _pad(x, widths, mode, constant_values):
    if mode == "constant":
        return jnp.pad(x, widths, constant_values=constant_values)
    return jnp.pad(x, widths, mode=mode)


def split(x, indices_or_sections, /, *, axis=0):
    """Split ``x`` along ``axis`` into equal sections (an int) or at the given indices (a sequence).

    Indices are read as NumPy reads them: piece ``i`` is ``x[idx[i-1]:idx[i]]`` with Python's slice
    rules, so negative indices count from the end and decreasing ones give empty pieces.
    """
    n = x.shape[normalize_axis(axis, x.ndim)]
    if isinstance(indices_or_sections, int):
        if indices_or_sections <= 0 or n % indices_or_sections:
            raise InvalidArgumentError(
                f"indices_or_sections: {indices_or_sections} does not divide axis {axis} of size {n}"
            )
        return tuple(jnp.split(x, indices_or_sections, axis=axis))
    # by slicing: jnp.split turns the indices into sizes, and rejects the negative ones that
    # negative, out-of-range or decreasing indices give
    bounds = [0, *(int(i) for i in indices_or_sections), n]
    head = (slice(None),) * normalize_axis(axis, x.ndim)
    return tuple(x[(*head, slice(a, b))] for a, b in itertools.pairwise(bounds))


def top_k(x, k, /, *, axis=-1, largest=True):
    """The ``k`` largest (or smallest) elements along ``axis`` and their indices, sorted.

    Among equal elements the lower index comes first; NaN counts as the largest value.
    """
    n = x.shape[axis]
    if not 0 <= k <= n:
        raise InvalidArgumentError(f"k: expected 0 <= k <= {n}, got {k}")
    if largest and x.dtype.kind in "biuf":
        # lax.top_k orders -0 below +0; adding +0 makes them equal, as in a comparison sort
        key = x + np.zeros((), x.dtype) if x.dtype.kind == "f" else x
        idx = jax.lax.top_k(key, k, axis=axis)[1].astype(default_int())
    else:
        order = jnp.argsort(x, axis=axis, descending=largest, stable=True)
        idx = jax.lax.slice_in_dim(order, 0, k, axis=axis)
    return TopKResult(jnp.take_along_axis(x, idx, axis=axis), idx)


def to_numpy(x, /):
    """``x`` as a NumPy array (a copy from device memory where needed)."""
    return np.asarray(x)
