"""Function transformations for the numpy backend, and the contract every backend follows.

NumPy has no automatic differentiation: the gradient transformations raise
:class:`hedera.errors.NoAutodiffError`. ``vmap`` works (a Python loop and a
stack), ``stop_gradient`` is the identity and ``jit`` returns ``f`` unchanged.

The contract (the front, :mod:`hedera.autodiff`, flattens nests, checks the
arguments and rebuilds the structure; the functions here see flat tuples):

``value_and_grad(f, leaves, has_aux)``
    ``f`` maps a tuple of arrays to a scalar (or ``(scalar, aux)``); returns
    ``(value, grads)`` (or ``((value, aux), grads)``), ``grads`` a tuple like ``leaves``.
``vjp(f, leaves, has_aux)``
    ``f`` maps arrays (one positional argument each) to a tuple of arrays;
    returns ``(out, vjp_fn)`` (or ``(out, vjp_fn, aux)``); ``vjp_fn(cotangents)``
    takes a tuple like ``out`` and returns a tuple like ``leaves``.
``jvp(f, leaves, tangents, has_aux)``
    ``f`` as for ``vjp``; returns ``(out, tangents_out)`` (or with ``aux``).
``jacobian(f, leaves, mode, has_aux)``
    ``f`` maps a tuple of arrays to a tuple of arrays; returns ``jac[i][j]`` of
    shape ``out[i].shape + leaves[j].shape`` (and ``aux`` if asked).
``vmap(f, leaves, axes)``
    ``f`` maps a tuple of unbatched arrays to a tuple of arrays; ``leaves[k]``
    is batched along ``axes[k]``; returns the outputs batched along axis 0.
``jit(f, static_argnums, static_argnames, **options)``
    The compiled ``f``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

from ...errors import NoAutodiffError

AUTODIFF = False


def no_autodiff(fname: str) -> NoAutodiffError:
    """The error every gradient transformation raises on numpy arrays."""
    return NoAutodiffError(
        f"{fname}: numpy has no automatic differentiation; use torch, jax or tensorflow arrays "
        f"(convert with hd.asarray(x, backend='torch'), for example)"
    )


def user_function(f: Callable) -> Callable:
    """``f`` as hedera should call it (unchanged; TensorFlow applies AutoGraph here)."""
    return f


def is_inexact(x: Any) -> bool:
    return np.issubdtype(np.asarray(x).dtype, np.inexact)


def is_real_floating(x: Any) -> bool:
    return np.issubdtype(np.asarray(x).dtype, np.floating)


def value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> NoReturn:
    raise no_autodiff("value_and_grad")


def vjp(f: Callable, leaves: tuple, has_aux: bool) -> NoReturn:
    raise no_autodiff("vjp")


def jvp(f: Callable, leaves: tuple, tangents: tuple, has_aux: bool) -> NoReturn:
    raise no_autodiff("jvp")


def jacobian(f: Callable, leaves: tuple, mode: str, has_aux: bool) -> NoReturn:
    raise no_autodiff("jacobian")


def vmap(f: Callable, leaves: tuple, axes: Sequence[int]) -> tuple:
    """Map ``f`` over the batch axis with a Python loop, stacking the results on axis 0."""
    size = np.shape(leaves[0])[axes[0]]
    results = [
        f(tuple(np.take(x, i, axis=a) for x, a in zip(leaves, axes, strict=True))) for i in range(size)
    ]
    if not results:
        raise ValueError("vmap over an axis of size 0 is not supported on the numpy backend")
    return tuple(np.stack(outs) for outs in zip(*results, strict=True))


def moveaxis(x: Any, source: int, destination: int) -> Any:
    return np.moveaxis(x, source, destination)


def stop_gradient(x: Any) -> Any:
    """The identity: numpy arrays carry no gradient."""
    return x


def jit(
    f: Callable, static_argnums: tuple[int, ...], static_argnames: tuple[str, ...], **options: Any
) -> Callable:
    """``f`` itself: numpy has no compiler."""
    return f


def is_compiling() -> bool:
    return False
