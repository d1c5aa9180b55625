"""The ``linalg`` extension (jax backend).

``jax.numpy.linalg`` conforms except where noted on the shims. Like LAPACK
wrappers under ``jit``, JAX cannot raise for a singular or indefinite matrix:
``inv``/``solve`` of a singular matrix and ``cholesky`` of an indefinite one
give ``inf``/``nan`` entries instead of an error.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._api import names_in
from .._common import EighResult, QRResult, SlogdetResult, SVDResult, native_common_case
from ._core import compiled_common_case, native_dtype
from .main_linalg import matmul, matrix_transpose, tensordot, vecdot  # noqa: F401  (hd.linalg has them too)

__all__ = names_in("linalg", "linalg")  # the API table's hd.linalg rows

cholesky = jnp.linalg.cholesky
cross = jnp.linalg.cross
det = jnp.linalg.det
diagonal = jnp.linalg.diagonal
eigvalsh = jnp.linalg.eigvalsh
inv = jnp.linalg.inv
matrix_norm = jnp.linalg.matrix_norm
matrix_power = jnp.linalg.matrix_power
outer = jnp.linalg.outer
solve = jnp.linalg.solve  # JAX >= 0.5 treats a 1-d x2 as a vector and anything else as matrices
svdvals = jnp.linalg.svdvals
vector_norm = jnp.linalg.vector_norm

# hedera's own result classes, so that every backend returns the same named tuples


@compiled_common_case(1)
def eigh(x, /):
    return EighResult(*jnp.linalg.eigh(x))


@compiled_common_case(1, ("mode",), ("mode",))
def qr(x, /, *, mode="reduced"):
    return QRResult(*jnp.linalg.qr(x, mode=mode))


@compiled_common_case(1)
def slogdet(x, /):
    return SlogdetResult(*jnp.linalg.slogdet(x))


@compiled_common_case(1, ("full_matrices",), ("full_matrices",))
def svd(x, /, *, full_matrices=True):
    return SVDResult(*jnp.linalg.svd(x, full_matrices=full_matrices))


def _default_rtol(x):
    return max(x.shape[-2:]) * jnp.finfo(x.dtype).eps


@jax.jit
def _matrix_rank(x, rtol=None):
    s = jnp.linalg.svdvals(x)
    rtol = _default_rtol(s) if rtol is None else jnp.asarray(rtol)[..., None]
    tol = jnp.max(s, axis=-1, keepdims=True, initial=0.0) * rtol
    return jnp.count_nonzero(s > tol, axis=-1)


@native_common_case(_matrix_rank, 1, forwarded=("rtol",))  # (the shim's own call)
def matrix_rank(x, /, *, rtol=None):
    # jnp.linalg.matrix_rank uses a given rtol as an absolute tolerance; the standard's is relative.
    # Compiled as one program, as jnp.linalg.matrix_rank is: five eager ops cost ~20 us more
    return _matrix_rank(x, rtol)


@jax.jit
def _pinv_default(x):
    return jnp.linalg.pinv(x, rtol=_default_rtol(x))


@native_common_case(_pinv_default, 1)  # (the shim's own call for rtol=None)
def pinv(x, /, *, rtol=None):
    # JAX's default cutoff is ten times the standard's max(M, N) * eps; the standard's, compiled
    # into the program (a Python float rtol is an argument of jnp.linalg.pinv's: ~5 us a call)
    return _pinv_default(x) if rtol is None else jnp.linalg.pinv(x, rtol=rtol)


@compiled_common_case(1, ("offset", "dtype"), ("offset", "dtype"))
def trace(x, /, *, offset=0, dtype=None):
    return jnp.linalg.trace(x, offset=offset, dtype=native_dtype(dtype))
