"""Indexing functions (jax backend), plus the functional indexed update behind ``hd.at``.

JAX clamps (``x[i]``) or fills (``take``) out-of-bounds indices instead of
raising, since it cannot check them under ``jit``; the standard leaves
out-of-bounds indices undefined.
"""

from __future__ import annotations

import jax.numpy as jnp

from ...errors import InvalidArgumentError
from .._common import check_index_update_op

__all__ = ["index_get", "index_update", "take", "take_along_axis"]


def take(x, indices, /, *, axis=None):
    # jnp.take flattens x when axis is None; the standard allows that only for 1-d x
    if axis is None:
        if x.ndim != 1:
            raise InvalidArgumentError("take: axis must be given for arrays of more than one dimension")
        axis = 0
    return jnp.take(x, indices, axis=axis)


def take_along_axis(x, indices, /, *, axis=-1):
    return jnp.take_along_axis(x, indices, axis=axis)


def index_get(x, index, /):
    return x[index]


def index_update(x, index, values, /, *, op="set"):
    """A copy of ``x`` with ``values`` written (``op="set"``) or combined into ``x[index]``.

    ``x.at[index].<op>(values)``: out of place, differentiable with respect to
    ``x`` and ``values``, and usable under ``jit``. Repeated indices accumulate
    for every op but ``"set"``.
    """
    check_index_update_op(op)
    return getattr(x.at[index], op)(values)
