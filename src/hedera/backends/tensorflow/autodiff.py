"""Function transformations for the tensorflow backend.

Flat inputs, as described in ``hedera/backends/numpy/autodiff.py``.

* Reverse mode is ``tf.GradientTape``. Tapes nest, so ``grad(grad(f))`` works:
  the inner gradient is computed while the outer tape records.
* Forward mode is ``tf.autodiff.ForwardAccumulator``. TensorFlow has no batched
  forward mode, so ``jacobian(mode="forward")`` runs one ``jvp`` per input element.
* ``vmap`` is ``tf.vectorized_map`` (``pfor``), which maps axis 0: the inputs'
  batch axes are moved there first. Ops ``pfor`` cannot vectorise fall back to a
  ``tf.while_loop``, as ``tf.vectorized_map`` does.
* Gradients that do not depend on an input are zeros, not ``None``, and sparse
  gradients (``tf.IndexedSlices``, from ``gather``) are made dense.
* AutoGraph: hedera's own modules are excluded from AutoGraph conversion (as
  TensorFlow excludes itself and Keras): converting hedera's dispatch code inside
  a ``tf.function`` would be slow and breaks it. User functions that hedera calls
  (the ``f`` of ``hd.grad(f)``, say) are converted where the enclosing
  ``tf.function`` has AutoGraph on, through :func:`user_function`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from ...errors import UnsupportedError
from ._private import exclude_from_autograph

AUTODIFF = True
_ZERO = tf.UnconnectedGradients.ZERO


exclude_from_autograph("hedera")  # AutoGraph leaves hedera's code alone (tf.function traces it as is)


def user_function(f: Callable) -> Callable:
    """``f`` converted by AutoGraph if it is called inside a ``tf.function`` that has AutoGraph on."""
    if tf.executing_eagerly():
        return f
    return tf.__internal__.autograph.tf_convert(f, tf.__internal__.autograph.control_status_ctx())


def is_inexact(x: Any) -> bool:
    return x.dtype.is_floating or x.dtype.is_complex


def is_real_floating(x: Any) -> bool:
    return x.dtype.is_floating


def _dense(g: Any) -> Any:
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


def _split_aux(result: Any, has_aux: bool) -> tuple[Any, Any]:
    return (result[0], result[1]) if has_aux else (result, None)


def value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> tuple[Any, tuple]:
    with tf.GradientTape() as tape:
        tape.watch(leaves)
        result = f(leaves)
    value, _ = _split_aux(result, has_aux)
    grads = tape.gradient(value, leaves, unconnected_gradients=_ZERO)
    return result, tuple(_dense(g) for g in grads)


def vjp(f: Callable, leaves: tuple, has_aux: bool) -> tuple:
    # persistent: the pullback may be called more than once, as in jax
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(leaves)
        result = f(*leaves)
    out, aux = _split_aux(result, has_aux)

    def vjp_fn(cotangents: Sequence[Any]) -> tuple:
        grads = tape.gradient(
            list(out), list(leaves), output_gradients=list(cotangents), unconnected_gradients=_ZERO
        )
        return tuple(_dense(g) for g in grads)

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def jvp(f: Callable, leaves: tuple, tangents: tuple, has_aux: bool) -> tuple:
    with tf.autodiff.ForwardAccumulator(list(leaves), list(tangents)) as acc:
        result = f(*leaves)
    out, aux = _split_aux(result, has_aux)
    tangents_out = tuple(acc.jvp(o, unconnected_gradients=_ZERO) for o in out)
    return (out, tangents_out, aux) if has_aux else (out, tangents_out)


def jacobian(f: Callable, leaves: tuple, mode: str, has_aux: bool) -> Any:
    if mode == "forward":
        return _jacobian_forward(f, leaves, has_aux)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(leaves)
        result = f(leaves)
    out, aux = _split_aux(result, has_aux)
    jac = tuple(tuple(_dense(j) for j in tape.jacobian(o, leaves, unconnected_gradients=_ZERO)) for o in out)
    return (jac, aux) if has_aux else jac


def _jacobian_forward(f: Callable, leaves: tuple, has_aux: bool) -> Any:
    """One jvp per input element, stacked: TensorFlow has no batched forward mode."""
    result = f(leaves)
    out, aux = _split_aux(result, has_aux)
    columns: list[list[Any]] = []  # columns[j]: per output, the stacked jvps for leaf j
    for j, leaf in enumerate(leaves):
        n = leaf.shape.num_elements()
        if n is None:
            raise UnsupportedError(
                "jacobian: mode='forward' on tensorflow needs inputs of known shape; use mode='reverse'"
            )
        per_out: list[list[Any]] = [[] for _ in out]
        for k in range(n):
            basis = tf.reshape(tf.one_hot(k, n, dtype=leaf.dtype), tf.shape(leaf))
            tangents = [basis if i == j else tf.zeros_like(x) for i, x in enumerate(leaves)]
            with tf.autodiff.ForwardAccumulator(list(leaves), tangents) as acc:
                o_k = _split_aux(f(leaves), has_aux)[0]
            for i, o in enumerate(o_k):
                per_out[i].append(acc.jvp(o, unconnected_gradients=_ZERO))
        columns.append([_assemble(cols, o, leaf) for cols, o in zip(per_out, out, strict=False)])
    jac = tuple(tuple(columns[j][i] for j in range(len(leaves))) for i in range(len(out)))
    return (jac, aux) if has_aux else jac


def _assemble(cols: list[Any], out: Any, leaf: Any) -> Any:
    """Columns ``d out / d leaf[k]`` (k over leaf's elements) as one array of shape out.shape + leaf.shape."""
    if not cols:
        return tf.zeros(tf.concat([tf.shape(out), tf.shape(leaf)], 0), dtype=out.dtype)
    stacked = tf.stack(cols, axis=-1)  # out.shape + (n,)
    return tf.reshape(stacked, tf.concat([tf.shape(out), tf.shape(leaf)], 0))


def vmap(f: Callable, leaves: tuple, axes: Sequence[int]) -> tuple:
    moved = tuple(x if a == 0 else moveaxis(x, a, 0) for x, a in zip(leaves, axes, strict=False))
    return tuple(tf.vectorized_map(f, moved))


def moveaxis(x: Any, source: int, destination: int) -> Any:
    return tf.experimental.numpy.moveaxis(x, source, destination)


stop_gradient = tf.stop_gradient


def jit(
    f: Callable, static_argnums: tuple[int, ...], static_argnames: tuple[str, ...], **options: Any
) -> Callable:
    """``tf.function(f, **options)`` (``jit_compile=True`` compiles with XLA).

    Static arguments need no declaration: ``tf.function`` retraces for each new
    value of a Python (non-tensor) argument, so those are static by nature.
    """
    if getattr(f, "__hedera_transform__", False):
        # hd.grad(g) & co: AutoGraph converts the top-level function whatever its module; give it
        # this trampoline, so that hedera's wrapper is skipped and converts g itself (user_function)
        transform = f

        def f(*args: Any, **kwargs: Any) -> Any:
            return transform(*args, **kwargs)

    return tf.function(f, **options)


def is_compiling() -> bool:
    """Whether TensorFlow is building a graph (inside ``tf.function``)."""
    return not tf.executing_eagerly()
