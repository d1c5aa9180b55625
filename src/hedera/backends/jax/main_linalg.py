"""Linear algebra functions of the main namespace (jax backend): all conform in ``jax.numpy``."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

matmul = jnp.matmul
matrix_transpose = jnp.matrix_transpose
tensordot = jnp.linalg.tensordot  # keyword-only axes, as the standard
vecdot = jnp.vecdot
