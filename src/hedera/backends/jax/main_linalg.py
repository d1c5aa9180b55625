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
    # static, as jax.numpy's own functions are (~7 us), for an int or a pair of ints or of lists or
    # tuples of exact ints (lists as tuples: hashable, and jnp reads them alike)
    if axes.__class__ is not int:
        pair = _static_pair(axes)
        if pair is None:
            # jnp refuses a pair of an int and a sequence, which NumPy takes (an int: one axis)
            if any(isinstance(a, int) for a in axes):
                axes = tuple((a,) if isinstance(a, int) else a for a in axes)
            return jnp.tensordot(x1, x2, axes)
        axes = pair
    return _tensordot(x1, x2, axes)


_PAIRS = (tuple, list)


def _static_pair(axes):
    """``axes`` as a pair of tuples of exact ints (an int a as ``(a,)``), or None for any other form."""
    if axes.__class__ not in _PAIRS or len(axes) != 2:
        return None
    a, b = axes
    a = (a,) if a.__class__ is int else _exact_ints(a)
    b = (b,) if b.__class__ is int else _exact_ints(b)
    return None if a is None or b is None else (a, b)


def _exact_ints(axes):
    if axes.__class__ not in _PAIRS:
        return None
    for a in axes:
        if a.__class__ is not int:  # (NumPy integers compare to a tuple as arrays: jit's cache cannot)
            return None
    return tuple(axes)


@partial(jax.jit, static_argnames="axes", inline=True)
def _tensordot(x1, x2, axes):
    return jnp.tensordot(x1, x2, axes)


vecdot = jnp.vecdot
