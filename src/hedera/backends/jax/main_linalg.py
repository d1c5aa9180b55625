"""Linear algebra functions of the main namespace (jax backend): all conform in ``jax.numpy``."""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows

matmul = jnp.matmul
matrix_transpose = jnp.matrix_transpose


def tensordot(x1, x2, /, *, axes=2):
    # jnp.linalg.tensordot's keyword-only axes (the standard's), without its extra layer (~2 us);
    # jnp refuses a pair of an int and a sequence, which NumPy takes (an int: one axis)
    if axes.__class__ is not int and any(isinstance(a, int) for a in axes):
        axes = tuple((a,) if isinstance(a, int) else a for a in axes)
    return jnp.tensordot(x1, x2, axes)


vecdot = jnp.vecdot
