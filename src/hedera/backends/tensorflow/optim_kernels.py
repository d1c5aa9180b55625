"""The fused optimizer kernel of :mod:`hedera.nn_ops` on TensorFlow: Adam/AdamW in fewer ops.

``fused_adam`` runs hedera's Adam update of every parameter (the formula of
:class:`hedera.optim.ScaleByAdam`, ``eps`` added to ``sqrt(v_hat)``, torch.optim's) in the form of
TensorFlow's ``ResourceApplyAdam`` kernel, with ``eps`` scaled by ``sqrt(1 - b2**t)`` so that it
lands where torch.optim adds it: ``m += (g - m) * (1 - b1)``, ``v += (g**2 - v) * (1 - b2)``,
``p -= (m * alpha) / (sqrt(v) + eps * sqrt(1 - b2**t))`` with ``alpha = lr * sqrt(1 - b2**t) /
(1 - b1**t)`` (no division by ``lr``, which a warm-up schedule starts at 0). The rounding differs
from the stages' in the last bits (as torch's fused kernels' do).

* Inside the trace of ``hd.jit(..., donate_argnums=...)``, where the parameters and the moments
  are the reads of their donated variables (:func:`hedera.backends.tensorflow.autodiff.variable_read`):
  ``ResourceApplyAdam`` itself, in place, one kernel (one pass over four arrays) per parameter
  (Adam without weight decay or AMSGrad). The function then assigns nothing to those variables.
* Elsewhere (eagerly as one ``tf.function`` call, in a ``tf.function``, ``hd.jit`` without
  donation, with weight decay or AMSGrad): the same formula in 12 elementwise ops per parameter,
  equal to the kernel bit for bit (``step`` equals ``update``, donated or not).

It applies to float32/float64 tensors of one dtype with fully known shapes; where a gradient tape
or forward accumulator could record (the update differentiated, ``hd.grad`` over it) it returns
None and the stages run. Measured (benchmarks/optimizer_step.py): one XLA cluster per parameter
list (a nested ``tf.function(jit_compile=True)``) was slower than the stages for the smaller models
on CPU, so it is not used.
"""

from __future__ import annotations

import math
from functools import lru_cache

import tensorflow as tf

from ._private import could_possibly_record
from .autodiff import updated_in_place, variable_read

#: float32 and float64 only: XLA computes float16/bfloat16 elementwise ops in float32 on some
#: devices, which would differ from the stages (computed in the parameters' dtype) by more than a bit
_FUSED_DTYPES = frozenset({tf.float32, tf.float64})


def _applies(lists) -> bool:
    """Tensors of one float32/float64 dtype, the lists of one length and fully known matching shapes,
    and no tape that could record (the update is then differentiated: the stages run)."""
    if could_possibly_record():  # a tape or accumulator could record
        return False
    first = lists[0]
    dtype = getattr(first[0], "dtype", None)
    if dtype not in _FUSED_DTYPES:
        return False
    shapes = []
    for x in first:
        if not isinstance(x, tf.Tensor) or x.dtype != dtype or not x.shape.is_fully_defined():
            return False
        shapes.append(x.shape)
    for xs in lists[1:]:
        if len(xs) != len(first):
            return False
        for x, shape in zip(xs, shapes, strict=True):
            if not isinstance(x, tf.Tensor) or x.dtype != dtype or x.shape != shape:
                return False
    return True


def _powers(count, b1: float, b2: float, dtype):
    """``(beta1**t, beta2**t)`` in ``dtype`` for the step ``t = count``, as the stages compute
    them (``exp(t * log(beta))``; 0 for a beta of 0)."""
    t = tf.cast(count, dtype)
    zero = tf.zeros((), dtype)
    return (
        tf.exp(t * math.log(b1)) if b1 > 0 else zero,
        tf.exp(t * math.log(b2)) if b2 > 0 else zero,
    )


@lru_cache(maxsize=64)
def _adam_kernel(b1: float, b2: float, eps: float, weight_decay: float, decoupled: bool, amsgrad: bool):
    """``(update, tf.function(update))`` for these hyper-parameters (the arrays, ``lr`` and ``count``
    are arguments): TensorFlow's ``ResourceApplyAdam`` formula written in ops, 12 elementwise ops
    per parameter (Adam without weight decay or AMSGrad), equal to that kernel bit for bit."""

    def update(params, grads, mu, nu, nu_max, count, lr):
        dtype = params[0].dtype
        alpha, scaled_eps, one_minus_b1, one_minus_b2 = _apply_adam_scalars(count, lr, b1, b2, eps, dtype)
        decay = 1.0 - lr * weight_decay if decoupled and weight_decay else None
        out_p, out_mu, out_nu, out_max = [], [], [], []
        for i, (p, g, m, v) in enumerate(zip(params, grads, mu, nu, strict=True)):
            if weight_decay and not decoupled:
                g = g + weight_decay * p
            m = m + (g - m) * one_minus_b1
            v = v + (tf.square(g) - v) * one_minus_b2
            second = v
            if amsgrad:
                second = tf.maximum(nu_max[i], v)
                out_max.append(second)
            if decay is not None:
                p = p * decay
            out_p.append(p - (m * alpha) / (tf.sqrt(second) + scaled_eps))
            out_mu.append(m)
            out_nu.append(v)
        return out_p, out_mu, out_nu, out_max

    return update, tf.function(update, autograph=False, reduce_retracing=True)


def _apply_adam_scalars(count, lr, b1: float, b2: float, eps: float, dtype):
    """The scalars of ``ResourceApplyAdam``'s formula, computed once per call in ``dtype``:
    ``alpha = lr * sqrt(1 - b2**t) / (1 - b1**t)``, ``eps * sqrt(1 - b2**t)`` (``eps`` scaled so
    that it is added to ``sqrt(v_hat)``, torch.optim's placement), ``1 - b1`` and ``1 - b2``.
    No division by ``lr`` (a warm-up schedule's is 0 at first)."""
    b1_power, b2_power = _powers(count, b1, b2, dtype)
    root = tf.sqrt(1.0 - b2_power)
    alpha = lr * root / (1.0 - b1_power)
    return alpha, eps * root, 1.0 - tf.constant(b1, dtype), 1.0 - tf.constant(b2, dtype)


def _in_place_adam(params, grads, mu, nu, count, lr, b1, b2, eps):
    """Adam applied in place to the donated variables that ``params``, ``mu`` and ``nu`` were read
    from (``ResourceApplyAdam``, one kernel per parameter: one pass over its four arrays), inside
    the trace of ``hd.jit(..., donate_argnums=...)``; the variables' new values, or None where the
    arrays are not reads of distinct donated variables."""
    variables = [variable_read(x) for x in (*params, *mu, *nu)]
    if any(v is None for v in variables) or len({id(v) for v in variables}) != len(variables):
        return None
    n = len(params)
    dtype = params[0].dtype
    b1_power, b2_power = _powers(count, b1, b2, dtype)
    scaled_eps = eps * tf.sqrt(1.0 - b2_power)
    beta1, beta2 = tf.constant(b1, dtype), tf.constant(b2, dtype)
    for p, m, v, g in zip(variables[:n], variables[n : 2 * n], variables[2 * n :], grads, strict=True):
        tf.raw_ops.ResourceApplyAdam(
            var=p.handle, m=m.handle, v=v.handle, beta1_power=b1_power, beta2_power=b2_power,
            lr=lr, beta1=beta1, beta2=beta2, epsilon=scaled_eps, grad=g,
        )  # fmt: skip
    values = [updated_in_place(v) for v in variables]
    return values[:n], values[n : 2 * n], values[2 * n :], None


def fused_adam(
    params, grads, mu, nu, nu_max, count, lr, b1, b2, eps, weight_decay, decoupled, reuse_params, reuse_state
):
    lists = [params, grads, mu, nu] if nu_max is None else [params, grads, mu, nu, nu_max]
    if not _applies(lists) or not isinstance(count, tf.Tensor) or count.shape.rank != 0:
        return None
    dtype = params[0].dtype
    if isinstance(lr, tf.Tensor):
        if lr.shape.rank != 0 or lr.dtype != dtype:
            return None
    else:
        lr = tf.constant(float(lr), dtype)  # an argument, not a constant of the trace: no retracing
    if nu_max is None and not weight_decay and tf.inside_function():
        done = _in_place_adam(
            list(params), list(grads), list(mu), list(nu), count, lr, float(b1), float(b2), float(eps)
        )
        if done is not None:
            return done
    body, function = _adam_kernel(
        float(b1), float(b2), float(eps), float(weight_decay), bool(decoupled), nu_max is not None
    )
    # in a trace (the user's tf.function, hd.jit) the ops go into its graph; eagerly, one function call
    kernel = body if tf.inside_function() else function
    new_p, new_mu, new_nu, new_max = kernel(
        list(params), list(grads), list(mu), list(nu), list(nu_max or []), count, lr
    )
    # arrays are immutable: nothing is written into, whatever reuse_params / reuse_state allow
    return list(new_p), list(new_mu), list(new_nu), (list(new_max) if nu_max is not None else None)
