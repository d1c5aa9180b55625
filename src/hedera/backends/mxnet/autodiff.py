"""Function transformations for the mxnet backend: ``mxnet.autograd``.

Flat inputs, as described in ``hedera/backends/numpy/autodiff.py``.

* Reverse mode is ``mx.autograd``: the inputs are copied, the copies get
  gradient buffers (``attach_grad``), ``f`` runs under ``mx.autograd.record()``
  and ``backward`` fills the buffers. The caller's arrays are never modified
  (no gradient buffer is attached to them).
* ``vjp``'s pullback may be called more than once (the graph is retained).
* Not available: forward mode (``jvp``: MXNet's autograd is reverse mode only;
  ``jacobian(mode="forward")`` is computed in reverse mode, with the same
  result), and gradients of gradients (``hd.grad(hd.grad(f))``: MXNet's
  higher-order gradients cover few operators). Both raise
  :class:`hedera.errors.UnsupportedError`.
* ``vmap`` is a Python loop over the batch axis; ``jit`` returns ``f`` unchanged
  (eager: MXNet compiles Gluon ``HybridBlock``\\ s, not functions).
* Functions hedera computes on the host (``_core.host``) are not differentiable
  and raise ``UnsupportedError`` inside ``f``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mxnet as mx
import numpy as np

from ...errors import UnsupportedError

AUTODIFF = True
_FLOATS = (np.float16, np.float32, np.float64)


def user_function(f: Callable) -> Callable:
    """``f`` as hedera should call it (unchanged)."""
    return f


def is_inexact(x: Any) -> bool:
    return x.dtype in _FLOATS


def is_real_floating(x: Any) -> bool:
    return x.dtype in _FLOATS


def _check_not_nested(fname: str) -> None:
    if mx.autograd.is_recording():
        raise UnsupportedError(
            f"{fname}: gradients of gradients are not supported on the mxnet backend "
            f"(MXNet's higher-order autograd covers few operators); use torch or jax"
        )


def _watched(leaves: tuple) -> tuple:
    """Copies of ``leaves`` with gradient buffers (the caller's arrays stay untouched)."""
    copies = tuple(x.copy() for x in leaves)
    for x in copies:
        x.attach_grad()
    return copies


def _grads(watched: tuple) -> tuple:
    return tuple(x.grad.copy() for x in watched)


def _split_aux(result: Any, has_aux: bool) -> tuple[Any, Any]:
    return (result[0], result[1]) if has_aux else (result, None)


def _backward(heads: Sequence[Any], head_grads: Sequence[Any] | None, watched: tuple) -> tuple:
    """Gradients of ``heads`` (weighted by ``head_grads``) for ``watched``; zeros where unconnected."""
    for x in watched:
        x.grad[()] = 0
    try:
        mx.autograd.backward(list(heads), head_grads=head_grads, retain_graph=True)
    except mx.base.MXNetError as error:
        if "not in a computational graph" not in str(error) and "does not require gradient" not in str(error):
            raise
    return _grads(watched)


def value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> tuple[Any, tuple]:
    _check_not_nested("value_and_grad")
    watched = _watched(leaves)
    with mx.autograd.record():
        result = f(watched)
    value, _ = _split_aux(result, has_aux)
    return result, _backward([value], None, watched)


def vjp(f: Callable, leaves: tuple, has_aux: bool) -> tuple:
    _check_not_nested("vjp")
    watched = _watched(leaves)
    with mx.autograd.record():
        result = f(*watched)
    out, aux = _split_aux(result, has_aux)
    out = tuple(out)

    def vjp_fn(cotangents: Sequence[Any]) -> tuple:
        return _backward(out, list(cotangents), watched)

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def jvp(f: Callable, leaves: tuple, tangents: tuple, has_aux: bool) -> Any:
    raise UnsupportedError(
        "jvp: MXNet's autograd has no forward mode; use hd.vjp, or torch/jax for forward mode"
    )


def jacobian(f: Callable, leaves: tuple, mode: str, has_aux: bool) -> Any:
    """Reverse mode in either ``mode``: one backward pass per output element."""
    _check_not_nested("jacobian")
    watched = _watched(leaves)
    with mx.autograd.record():
        result = f(watched)
    out, aux = _split_aux(result, has_aux)
    out = tuple(out)
    jac = []
    for i, o in enumerate(out):
        rows = []
        for k in range(o.size):
            seeds = [mx.np.zeros(p.shape, dtype=p.dtype, ctx=p.ctx) for p in out]
            one_hot = np.zeros(o.size, dtype=o.dtype)
            one_hot[k] = 1
            seeds[i] = mx.np.array(one_hot.reshape(o.shape), dtype=o.dtype, ctx=o.ctx)
            rows.append(_backward(out, seeds, watched))
        per_leaf = []
        for j, leaf in enumerate(leaves):
            if rows:
                stacked = mx.np.stack([r[j] for r in rows])
            else:
                stacked = mx.np.zeros((0, *leaf.shape), dtype=leaf.dtype, ctx=leaf.ctx)
            per_leaf.append(stacked.reshape(o.shape + leaf.shape))
        jac.append(tuple(per_leaf))
    jac = tuple(jac)
    return (jac, aux) if has_aux else jac


def vmap(f: Callable, leaves: tuple, axes: Sequence[int]) -> tuple:
    """Map ``f`` over the batch axis with a Python loop, stacking the results on axis 0."""
    size = leaves[0].shape[axes[0]]
    if size == 0:
        raise ValueError("vmap over an axis of size 0 is not supported on the mxnet backend")
    results = [
        f(tuple(mx.np.moveaxis(x, a, 0)[i] for x, a in zip(leaves, axes, strict=True))) for i in range(size)
    ]
    return tuple(mx.np.stack(list(outs)) for outs in zip(*results, strict=True))


def moveaxis(x: Any, source: int, destination: int) -> Any:
    return mx.np.moveaxis(x, source, destination)


def stop_gradient(x: Any) -> Any:
    """``x`` cut off from the graph (``x.detach()``)."""
    return x.detach()


def jit(
    f: Callable, static_argnums: tuple[int, ...], static_argnames: tuple[str, ...], **options: Any
) -> Callable:
    """``f`` itself: eager on MXNet (hybridisation compiles Gluon blocks, not functions)."""
    return f


def is_compiling() -> bool:
    return False
