"""Sorting functions (jax backend): ``jax.numpy``'s conform (stable by default, descending kept stable)."""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in

__all__ = names_in("sorting")  # the API table's sorting rows

argsort = jnp.argsort
sort = jnp.sort
