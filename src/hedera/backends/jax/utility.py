"""Utility functions (jax backend): ``jax.numpy``'s conform, but for complex input."""

from __future__ import annotations

import jax.numpy as jnp

from ..._api import names_in
from ._core import compiled_common_case

__all__ = names_in("utility")  # the API table's utility rows

#: what all and any read besides x's shape and dtype
_REDUCTION = ("axis", "keepdims")


def _truth(x):
    # jnp.all/jnp.any cast complex to bool by the real part alone (jnp.all(1j) is False): the
    # standard's truth of a complex number is x != 0
    dtype = getattr(x, "dtype", None)
    return x != 0 if dtype is not None and dtype.kind == "c" else x


@compiled_common_case(1, _REDUCTION, _REDUCTION)
def all(x, /, *, axis=None, keepdims=False):
    return jnp.all(_truth(x), axis=axis, keepdims=keepdims)


@compiled_common_case(1, _REDUCTION, _REDUCTION)
def any(x, /, *, axis=None, keepdims=False):
    return jnp.any(_truth(x), axis=axis, keepdims=keepdims)


_jnp_diff = jnp.diff


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    # jnp.diff itself, but called as jax's compiled functions take arguments fastest: hd.diff's front
    # passes all four keywords, and jaxlib's dispatch takes ~0.5 us more for keywords (None ones too)
    if prepend is None and append is None:
        return _jnp_diff(x, n, axis)
    return _jnp_diff(x, n, axis, prepend, append)
