"""Control flow on tensorflow: ``tf.cond``/``tf.switch_case``/``tf.while_loop`` in graphs, Python eagerly.

Inside a graph (``tf.function``, ``hd.jit``, ``tf.vectorized_map``) the primitives run, so
nothing unrolls; ``GradientTape``, ``ForwardAccumulator`` and ``pfor`` all go through them.
A scan is one ``tf.while_loop`` popping its inputs from TensorLists and writing its outputs
into ``TensorArray`` s; the dtypes and shapes of the per-step
outputs, which the ``TensorArray`` s need up front, come from a trace of the step in a graph of its
own (:func:`_y_specs`), so the loop runs every step and the outer graph holds nothing else.
Eagerly, Python loops run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from ...errors import UnsupportedError
from ...jit import traced_by
from .. import _control_python as _py
from . import autodiff as _autodiff
from .autodiff import user_function  # noqa: F401  (AutoGraph for user functions in graphs)

BACKEND = "tensorflow"
BOOL = tf.bool  # the native dtype of predicates


def arange(start: int, stop: int) -> Any:
    return tf.range(start, stop, dtype=tf.int32)


def _traced() -> bool:
    return traced_by(_autodiff)


def cond(pred: Any, true_fn: Callable, false_fn: Callable, operands: tuple) -> tuple:
    if not _traced():
        return _py.switch(pred, (false_fn, true_fn), operands)
    return tuple(tf.cond(pred, lambda: true_fn(operands), lambda: false_fn(operands)))


def switch(index: Any, branches: Sequence[Callable], operands: tuple) -> tuple:
    if not _traced():
        return _py.switch(index, branches, operands)
    index = tf.clip_by_value(tf.cast(index, tf.int32), 0, len(branches) - 1)
    try:
        return tuple(tf.switch_case(index, [lambda b=b: b(operands) for b in branches]))
    except TypeError as error:
        raise _forward_mode_error("switch", error) from error


def _forward_mode_error(construct: str, error: Exception) -> Exception:
    """TensorFlow 2.21's ForwardAccumulator inside a graph fails on ``tf.switch_case`` ("Could not
    generate a generic TraceType") and on a ``tf.while_loop`` carrying only ``TensorArray`` s (a scan
    without a carry: "dtype variant is not compatible"); other errors pass through."""
    if not any(text in str(error) for text in ("TraceType", "variant")):
        return error
    way_out = {
        "switch": "write it as nested hd.cond, or take hd.jvp outside hd.jit",
        "map": "give the scan a carry (hd.scan), use reverse mode, or take hd.jvp outside hd.jit",
    }[construct]
    return UnsupportedError(
        f"{construct}: forward-mode differentiation (hd.jvp) inside a compiled TensorFlow graph "
        f"(hd.jit, tf.function) fails in TensorFlow 2.21 ({type(error).__name__}: "
        f"{str(error).strip().splitlines()[0][:120]}); {way_out}"
    )


def while_loop(cond_fn: Callable, body_fn: Callable, init: tuple, max_iterations: int | None) -> tuple:
    if not _traced():
        return _py.while_loop(cond_fn, body_fn, init, max_iterations)
    if not init:
        return ()
    out = tf.while_loop(
        lambda *carry: cond_fn(carry),
        lambda *carry: body_fn(carry),
        init,
        maximum_iterations=max_iterations,
    )
    return tuple(out)


def scan(step: Callable, init: tuple, xs: tuple, length: int, reverse: bool, unroll: int) -> tuple:
    if not _traced():
        return _py.scan(
            step, init, xs, length, reverse, tf.unstack, tf.stack, lambda x: tf.zeros(x.shape[1:], x.dtype)
        )
    if length == 0:
        _, y = step(init, tuple(tf.zeros(x.shape[1:], x.dtype) for x in xs))
        return init, tuple(tf.zeros((0, *v.shape), v.dtype) for v in y)
    inputs = [_popping_list(x, length, reverse) for x in xs]
    y_specs = _y_specs(step, init, xs)
    outputs = [tf.TensorArray(dtype, size=length, element_shape=shape) for dtype, shape in y_specs]
    n, m = len(init), len(xs)

    def body(t: Any, *state: Any) -> tuple:
        carry, lists, outs = state[:n], state[n : n + m], state[n + m :]
        index = length - 1 - t if reverse else t
        popped = [_pop(lst, x) for lst, x in zip(lists, xs, strict=True)]
        carry, y = step(tuple(carry), tuple(x_t for _, x_t in popped))
        written = (ta.write(index, v) for ta, v in zip(outs, y, strict=True))
        return (t + 1, *carry, *(lst for lst, _ in popped), *written)

    try:
        state = tf.while_loop(
            lambda t, *_: t < length,
            body,
            (tf.constant(0), *init, *inputs, *outputs),
        )  # (no maximum_iterations: it adds a second counter and test per step; t < length bounds it)
    except (TypeError, ValueError) as error:
        if n:
            raise
        raise _forward_mode_error("map", error) from error
    return tuple(state[1 : n + 1]), tuple(ta.stack() for ta in state[n + m + 1 :])


def _popping_list(x: Any, length: int, reverse: bool) -> Any:
    """The ``length`` slices of ``x`` along axis 0 as a TensorList, the first step's last.

    The loop pops one slice per step (:func:`_pop`) rather than reading slice ``t`` of a list
    that every step shares: the gradient of a pop pushes the slice's cotangent (one step, one
    slice), while the gradient of a read builds a list of every slice's cotangent, zeros but
    one, added up over the steps (an LSTM's input projection on TensorFlow: T lists of T slices).
    """
    if reverse:
        return tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=_element_shape(x))
    # slice j at position length - 1 - j: the reversal in the one copy (its gradient: one gather)
    return tf.raw_ops.TensorListScatterV2(
        tensor=x,
        indices=tf.range(length - 1, -1, -1),
        element_shape=_element_shape(x),
        num_elements=length,
    )


def _pop(handle: Any, x: Any) -> tuple[Any, Any]:
    """(the list without its last slice, that slice) of a :func:`_popping_list` of ``x``."""
    rest, x_t = tf.raw_ops.TensorListPopBack(
        input_handle=handle, element_shape=_element_shape(x), element_dtype=x.dtype
    )
    return rest, x_t  # (of the static shape x.shape[1:]: the element_shape given)


def _element_shape(x: Any) -> Any:
    """The static shape of ``x``'s slices as the TensorList ops take it (-1: a dimension or the
    rank not known)."""
    if x.shape.rank is None:
        return tf.constant(-1, tf.int32)
    return tf.constant([-1 if d is None else d for d in x.shape[1:]], tf.int32)


def _y_specs(step: Callable, init: tuple, xs: tuple) -> list[tuple[Any, Any]]:
    """The dtype and static shape of each of ``step``'s per-step outputs, which the ``TensorArray`` s
    need before the loop: ``step`` traced once in a graph of its own, whose ops never run (so the
    outer graph holds the loop alone, and the body's side effects happen in the loop only)."""

    def probe(carry: list, x: list) -> tuple:
        return step(tuple(carry), tuple(x))[1]

    specs = (
        [tf.TensorSpec(v.shape, v.dtype) for v in init],
        [tf.TensorSpec(x.shape[1:], x.dtype) for x in xs],
    )
    outputs = tf.function(probe, autograph=False).get_concrete_function(*specs).structured_outputs
    return [(v.dtype, v.shape) for v in outputs]
