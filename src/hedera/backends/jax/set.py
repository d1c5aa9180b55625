"""Set functions (jax backend). NaNs are distinct values, as the standard says.

Their output shapes depend on the data, so they run eagerly only (under ``jit``,
JAX needs its ``size=`` argument, which the standard does not have).
"""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in
from .._common import UniqueAllResult, UniqueCountsResult, UniqueInverseResult

__all__ = names_in("set")  # the API table's set rows

unique_values = jnp.unique_values


isin = jnp.isin


# hedera's own result classes, so that every backend returns the same named tuples


def unique_all(x, /):
    return UniqueAllResult(*jnp.unique_all(x))


def unique_counts(x, /):
    return UniqueCountsResult(*jnp.unique_counts(x))


def unique_inverse(x, /):
    return UniqueInverseResult(*jnp.unique_inverse(x))
