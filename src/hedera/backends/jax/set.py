"""Set functions (jax backend). NaNs are distinct values, as the standard says.

Their output shapes depend on the data, so they run eagerly only (under ``jit``,
JAX needs its ``size=`` argument, which the standard does not have).

For an eager CPU array of a real or bool dtype (``_core.eager_on_host``) the sort behind them,
jnp.unique's (a stable sort, then a mask of the first element of each run of equal values, NaNs
distinct), runs as one compiled jax function, and the values, indices, inverse and counts are
gathered from it with NumPy: the same answer, without jax.numpy's tens of small ops around its
device-to-host copy (0.2-2 ms at one element). Complex arrays (jnp.unique replaces a NaN part by
a NaN value first) and empty ones take jax.numpy's own path.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._api import names_in
from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._core import default_int, eager_on_host

__all__ = names_in("set")  # the API table's set rows

isin = jnp.isin


@jax.jit
def _sorted_runs(flat):
    """jnp.unique's sort of a non-empty 1-d array: the sorted values, a mask of the first of each
    run of equal values (NaNs unequal), and the sorting permutation."""
    perm = jnp.argsort(flat, stable=True)
    ordered = flat[perm]
    first = jnp.concatenate([jnp.ones(1, bool), ordered[1:] != ordered[:-1]])
    return ordered, first, perm


def _unique_parts(x, parts: tuple[str, ...]) -> list | None:
    """``parts`` (of "values", "indices", "inverse", "counts") of jnp.unique's answer for ``x``, as
    jax arrays; None where ``x`` takes jax.numpy's own path."""
    if x.size == 0 or x.dtype.kind == "c" or not eager_on_host(x):
        return None
    ordered, first, perm = (np.asarray(a) for a in _sorted_runs(x.reshape(-1)))
    starts = np.flatnonzero(first)
    dt = default_int()
    out = []
    for part in parts:
        if part == "values":
            out.append(ordered[starts])
        elif part == "indices":
            out.append(perm[starts].astype(dt, copy=False))
        elif part == "inverse":
            inverse = np.empty(perm.shape, dt)
            inverse[perm] = np.cumsum(first) - 1
            out.append(inverse.reshape(x.shape))
        else:
            out.append(np.diff(np.append(starts, perm.size)).astype(dt, copy=False))
    return [jnp.asarray(a) for a in out]


def unique_values(x, /):
    found = _unique_parts(x, ("values",))
    return jnp.unique_values(x) if found is None else found[0]


# hedera's own result classes, so that every backend returns the same named tuples


def unique_all(x, /):
    found = _unique_parts(x, ("values", "indices", "inverse", "counts"))
    return UniqueAllResult(*(jnp.unique_all(x) if found is None else found))


def unique_counts(x, /):
    found = _unique_parts(x, ("values", "counts"))
    return UniqueCountsResult(*(jnp.unique_counts(x) if found is None else found))


def unique_inverse(x, /):
    found = _unique_parts(x, ("values", "inverse"))
    return UniqueInverseResult(*(jnp.unique_inverse(x) if found is None else found))
