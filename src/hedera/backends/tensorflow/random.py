"""Random numbers for the tensorflow backend (contract: ``hedera/backends/numpy/random.py``).

Keys are TensorFlow stateless seeds: ``int64`` tensors of shape ``(2,)``.
Keyed calls are the ``tf.random.stateless_*`` ops with ``alg="philox"`` pinned
(the default ``"auto_select"`` may pick different algorithms on different
devices), so they work the same eagerly and inside ``tf.function``. The
stateful API draws a fresh key from one ``tf.random.Generator`` (Philox) kept by
hedera and then makes the same keyed call.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ...errors import DtypeError, InvalidArgumentError
from ._core import native_device, native_dtype

_M32 = 0xFFFFFFFF
_ALG = "philox"


def _float_dtype(dtype: Any) -> tf.DType:
    dt = tf.float32 if dtype is None else native_dtype(dtype)
    if not dt.is_floating:
        raise DtypeError(f"dtype: expected a real floating-point dtype, got {dt.name}")
    return dt


def _int_dtype(dtype: Any) -> tf.DType:
    dt = tf.int64 if dtype is None else native_dtype(dtype)
    if not dt.is_integer:
        raise DtypeError(f"dtype: expected an integer dtype, got {dt.name}")
    return dt


# ---- keys ---------------------------------------------------------------------------------------

_STATE: dict[str, tf.random.Generator] = {}


def key(seed: int, *, device: Any = None) -> tf.Tensor:
    """``int64 [seed >> 32, seed & 0xFFFFFFFF]`` (a stateless seed)."""
    with tf.device(native_device(device)):
        return tf.constant([(seed >> 32) & _M32, seed & _M32], dtype=tf.int64)


def _check_key(key: Any) -> Any:
    if key.dtype not in (tf.int64, tf.int32) or tuple(key.shape) != (2,):
        raise InvalidArgumentError(
            f"key: expected a key from hd.random.key or hd.random.split (int64, shape (2,)), "
            f"got {key.dtype.name} tensor of shape {tuple(key.shape)}"
        )
    return key


def split(key: Any, num: int = 2) -> tuple[Any, ...]:
    return tuple(tf.unstack(tf.random.split(_check_key(key), num, alg=_ALG), num=num))


def seed(n: int) -> None:
    """Re-seed the stateful generator."""
    _STATE["generator"] = tf.random.Generator.from_seed(n & 0xFFFFFFFFFFFFFFFF, alg=_ALG)


def _key_for(key: Any) -> Any:
    if key is not None:
        return _check_key(key)
    try:
        gen = _STATE["generator"]
    except KeyError:
        entropy = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
        gen = _STATE["generator"] = tf.random.Generator.from_seed(entropy, alg=_ALG)
    return gen.make_seeds(1)[:, 0]


# ---- distributions ------------------------------------------------------------------------------


def _u01(shape: tuple, dt: tf.DType, key: Any) -> tf.Tensor:
    return tf.random.stateless_uniform(shape, _key_for(key), dtype=dt, alg=_ALG)


def uniform(shape, minval=0.0, maxval=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    with tf.device(native_device(device)):
        u = _u01(shape, dt, key)
        return tf.cast(minval + (maxval - minval) * u, dt)


def normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    with tf.device(native_device(device)):
        z = tf.random.stateless_normal(shape, _key_for(key), dtype=dt, alg=_ALG)
        return tf.cast(mean + std * z, dt)


def truncated_normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    with tf.device(native_device(device)):
        z = tf.random.stateless_truncated_normal(shape, _key_for(key), dtype=dt, alg=_ALG)
        return tf.cast(mean + std * z, dt)


def randint(shape, low, high, *, dtype=None, device=None, key=None):
    dt = _int_dtype(dtype)
    draw = dt if dt in (tf.int32, tf.int64) else tf.int64  # the dtypes stateless_uniform draws
    with tf.device(native_device(device)):
        r = tf.random.stateless_uniform(shape, _key_for(key), minval=low, maxval=high, dtype=draw, alg=_ALG)
        return tf.cast(r, dt)


def bernoulli(p=0.5, shape=None, *, device=None, key=None):
    if shape is None:
        shape = tuple(p.shape) if isinstance(p, (tf.Tensor, tf.Variable)) else ()
    dt = p.dtype if isinstance(p, (tf.Tensor, tf.Variable)) and p.dtype.is_floating else tf.float32
    with tf.device(native_device(device)):
        return _u01(shape, dt, key) < p


def _order(n: int, key: Any) -> tf.Tensor:
    return tf.random.experimental.stateless_shuffle(tf.range(n, dtype=tf.int64), _key_for(key), alg=_ALG)


def permutation(x, *, axis=0, device=None, key=None):
    with tf.device(native_device(device)):
        if isinstance(x, int):
            return _order(x, key)
        return tf.gather(x, _order(tf.shape(x, out_type=tf.int64)[axis], key), axis=axis)


def shuffle(x, axis=0, *, key=None):
    return permutation(x, axis=axis, key=key)


def categorical(logits, shape=None, *, axis=-1, key=None):
    logits = tf.experimental.numpy.moveaxis(logits, axis, -1)
    batch = tuple(logits.shape[:-1])
    shape = batch if shape is None else tuple(shape)
    dt = logits.dtype if logits.dtype in (tf.float32, tf.float64) else tf.float32
    tiny = float(np.finfo(dt.as_numpy_dtype).tiny)
    u = tf.random.stateless_uniform(
        (*shape, logits.shape[-1]), _key_for(key), minval=tiny, maxval=1.0, dtype=dt, alg=_ALG
    )
    gumbel = -tf.math.log(-tf.math.log(u))
    return tf.argmax(tf.cast(logits, dt) + gumbel, axis=-1, output_type=tf.int64)


def default_float_dtype() -> tf.DType:
    return tf.float32
