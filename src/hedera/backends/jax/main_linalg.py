"""Linear algebra functions of the main namespace (jax backend): all conform in ``jax.numpy``."""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in

__all__ = names_in("linear_algebra")  # the API table's linear_algebra rows

matmul = jnp.matmul
matrix_transpose = jnp.matrix_transpose
tensordot = jnp.linalg.tensordot  # keyword-only axes, as the standard
vecdot = jnp.vecdot
