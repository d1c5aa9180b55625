"""Sorting functions (jax backend): ``jax.numpy``'s conform (stable by default, descending kept stable)."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["argsort", "sort"]

argsort = jnp.argsort
sort = jnp.sort
