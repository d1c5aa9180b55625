"""Manipulation functions (jax backend)."""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in
from .._common import check_integer_indices

__all__ = names_in("manipulation")  # the API table's manipulation rows

broadcast_to = jnp.broadcast_to
concat = jnp.concat
expand_dims = jnp.expand_dims
flip = jnp.flip
moveaxis = jnp.moveaxis
permute_dims = jnp.permute_dims
reshape = jnp.reshape  # JAX arrays are immutable: copy=False never fails, copy=True is moot
roll = jnp.roll
squeeze = jnp.squeeze
stack = jnp.stack
tile = jnp.tile
unstack = jnp.unstack


def broadcast_arrays(*arrays):
    return tuple(jnp.broadcast_arrays(*arrays))  # a tuple, where JAX returns a list


def repeat(x, repeats, /, *, axis=None):
    check_integer_indices("repeat", "repeats", repeats)  # jnp.repeat casts boolean counts
    return jnp.repeat(x, repeats, axis=axis)
