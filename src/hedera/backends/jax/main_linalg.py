"""Linear algebra functions of the main namespace (jax backend): all conform in ``jax.numpy``."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp

from ..._api import names_in

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows

matmul = jnp.matmul
matrix_transpose = jnp.matrix_transpose


def tensordot(x1, x2, /, *, axes=2):
    # jnp.tensordot runs its two operations eagerly (~60 us at one element): compiled, with the axes
    # static, as jax.numpy's own functions are (~7 us). jnp refuses a pair of an int and a sequence,
    # which NumPy takes (an int: one axis); lists become tuples (hashable), which jnp reads alike
    if axes.__class__ is not int:
        if axes.__class__ not in _PAIRS or len(axes) != 2:
            return jnp.tensordot(x1, x2, axes)  # (which raises, as for any other form)
        axes = (_axes_of(axes[0]), _axes_of(axes[1]))
        try:
            hash(axes)
        except TypeError:  # (an array among them: jnp.tensordot refuses it)
            return jnp.tensordot(x1, x2, axes)
    return _tensordot(x1, x2, axes)


_PAIRS = (tuple, list)


def _axes_of(a):
    return (a,) if isinstance(a, int) else tuple(a) if a.__class__ in _PAIRS else a


@partial(jax.jit, static_argnames="axes", inline=True)
def _tensordot(x1, x2, axes):
    return jnp.tensordot(x1, x2, axes)


vecdot = jnp.vecdot
