"""The fused optimizer kernel of :mod:`hedera.nn_ops` on TensorFlow: Adam/AdamW in fewer ops.

``fused_adam`` runs hedera's Adam update of every parameter (the formula of
:class:`hedera.optim.ScaleByAdam`, ``eps`` added to ``sqrt(v_hat)``, torch.optim's) with the bias
corrections folded into scalars computed once per call, as torch.optim writes it: ``p - (lr / c1) *
(m / (sqrt(v) / sqrt(c2) + eps))`` (no division by ``lr``, which a warm-up schedule starts at 0), 13
elementwise ops per parameter where the stages make 14 (plus their scalar ops per leaf), so the
rounding differs from the stages' in the last bits (as torch's fused kernels' do). In a trace (the
user's ``tf.function``, ``hd.jit``) the ops go into the caller's graph; eagerly they run as one
``tf.function`` call. It applies to float32/float64 tensors of one dtype with fully known shapes;
where a gradient tape or forward accumulator could record (the update differentiated, ``hd.grad``
over it) it returns None and the stages run. Measured (benchmarks/optimizer_step.py): one XLA
cluster per parameter list (a nested ``tf.function(jit_compile=True)``) was slower than the stages
for the smaller models on CPU, so it is not used. TensorFlow's ``ResourceApplyAdam`` is not used
either: it adds ``eps`` to ``sqrt(v)`` before the bias correction (Keras' placement).
"""

from __future__ import annotations

import math
from functools import lru_cache

import tensorflow as tf

from ._private import could_possibly_record

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


def _correction(count, beta: float):
    """``1 - beta**count`` as the stages compute it, ``1 - exp(count * log(beta))``, in count's dtype."""
    return 1.0 - tf.exp(count * math.log(beta))


@lru_cache(maxsize=64)
def _adam_kernel(b1: float, b2: float, eps: float, weight_decay: float, decoupled: bool, amsgrad: bool):
    """``(update, tf.function(update))`` for these hyper-parameters (the arrays, ``lr`` and ``count``
    are arguments): 13 elementwise ops per parameter (Adam without weight decay or AMSGrad)."""

    def update(params, grads, mu, nu, nu_max, count, lr):
        t = tf.cast(count, params[0].dtype)
        # lr * m_hat / (sqrt(v_hat) + eps) = (lr / c1) * (m / (sqrt(v) / sqrt(c2) + eps)), as
        # torch.optim writes it; no division by lr (a warm-up schedule's lr is 0 at first)
        c1 = _correction(t, b1) if b1 > 0 else 1.0
        step_size = lr / c1
        root_scale = tf.math.rsqrt(_correction(t, b2)) if b2 > 0 else None
        decay = 1.0 - lr * weight_decay if decoupled and weight_decay else None
        out_p, out_mu, out_nu, out_max = [], [], [], []
        for i, (p, g, m, v) in enumerate(zip(params, grads, mu, nu, strict=True)):
            if weight_decay and not decoupled:
                g = g + weight_decay * p
            m = b1 * m + (1.0 - b1) * g
            v = b2 * v + g * ((1.0 - b2) * g)
            second = v
            if amsgrad:
                second = tf.maximum(nu_max[i], v)
                out_max.append(second)
            if decay is not None:
                p = p * decay
            root = tf.sqrt(second) if root_scale is None else tf.sqrt(second) * root_scale
            out_p.append(p - step_size * (m / (root + eps)))
            out_mu.append(m)
            out_nu.append(v)
        return out_p, out_mu, out_nu, out_max

    return update, tf.function(update, autograph=False, reduce_retracing=True)


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
