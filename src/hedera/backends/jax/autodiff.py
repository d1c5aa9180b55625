"""Function transformations for the jax backend: jax's own.

Flat inputs, as described in ``hedera/backends/numpy/autodiff.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp

AUTODIFF = True


def user_function(f: Callable) -> Callable:
    """``f`` as hedera should call it (unchanged; TensorFlow applies AutoGraph here)."""
    return f


def is_inexact(x: Any) -> bool:
    return jnp.issubdtype(x.dtype, jnp.inexact)


def is_real_floating(x: Any) -> bool:
    return jnp.issubdtype(x.dtype, jnp.floating)


_WHILE_REVERSE = "Reverse-mode differentiation does not work for lax.while_loop"


def _reraise_while_loop_reverse(error: ValueError) -> None:
    """jax's error for reverse mode through ``lax.while_loop`` as hedera's, which says what to do."""
    if _WHILE_REVERSE in str(error):
        from .control import no_reverse_error

        raise no_reverse_error() from error


def value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> tuple[Any, tuple]:
    try:
        value, grads = jax.value_and_grad(f, has_aux=has_aux)(leaves)
    except ValueError as error:
        _reraise_while_loop_reverse(error)
        raise
    # complex inputs: jax returns df/dx - i df/dy; hedera (as torch and TF) df/dx + i df/dy
    return value, tuple(jnp.conj(g) if jnp.iscomplexobj(g) else g for g in grads)


def vjp(f: Callable, leaves: tuple, has_aux: bool) -> tuple:
    try:
        return jax.vjp(f, *leaves, has_aux=has_aux)
    except ValueError as error:
        _reraise_while_loop_reverse(error)
        raise


def jvp(f: Callable, leaves: tuple, tangents: tuple, has_aux: bool) -> tuple:
    return jax.jvp(f, leaves, tangents, has_aux=has_aux)


def jacobian(f: Callable, leaves: tuple, mode: str, has_aux: bool) -> Any:
    transform = jax.jacrev if mode == "reverse" else jax.jacfwd
    try:
        return transform(f, has_aux=has_aux)(leaves)
    except ValueError as error:
        _reraise_while_loop_reverse(error)
        raise


def vmap(f: Callable, leaves: tuple, axes: Sequence[int]) -> tuple:
    return jax.vmap(f, in_axes=(tuple(axes),), out_axes=0)(leaves)


def moveaxis(x: Any, source: int, destination: int) -> Any:
    return jnp.moveaxis(x, source, destination)


stop_gradient = jax.lax.stop_gradient


#: jax.jit runs ``f`` only to trace it (hd.jit then sets its in-jit flag inside the trace, not per call)
JIT_RUNS_F_ONLY_WHILE_TRACING = True


def jit(
    f: Callable, static_argnums: tuple[int, ...], static_argnames: tuple[str, ...], **options: Any
) -> Callable:
    """``jax.jit(f, static_argnums=..., static_argnames=..., **options)``."""
    options.pop("jit_compile", None)  # a TensorFlow option
    return jax.jit(f, static_argnums=static_argnums, static_argnames=static_argnames, **options)


def is_traced(x: Any) -> bool:
    """Whether ``x`` is a tracer of a jax trace (``jit``, ``grad``, ``vmap``...), not a concrete array."""
    return isinstance(x, jax.core.Tracer)


def is_compiling() -> bool:
    """Whether jax is tracing: an array made now is a tracer (true under jit, not under grad alone)."""
    return isinstance(jnp.zeros(()), jax.core.Tracer)
