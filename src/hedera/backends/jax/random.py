"""Random numbers for the jax backend (contract: ``hedera/backends/numpy/random.py``).

Keys are jax's own: ``uint32`` arrays of shape ``(2,)`` (``jax.random.PRNGKey``
layout; typed keys from ``jax.random.key`` are accepted too), and keyed calls
are ``jax.random``'s functions. The stateful API keeps one key in hedera and
splits it on every call; that cannot work while jax traces (the new state would
be a tracer), so a stateful call under ``jax.jit`` raises.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ...errors import DtypeError, InvalidArgumentError
from ._core import default_float, default_int, native_device, native_dtype

_M32 = 0xFFFFFFFF


def _float_dtype(dtype: Any) -> Any:
    dt = default_float() if dtype is None else native_dtype(dtype)
    if not jnp.issubdtype(dt, jnp.floating):
        raise DtypeError(f"dtype: expected a real floating-point dtype, got {dt}")
    return dt


def _int_dtype(dtype: Any) -> Any:
    dt = default_int() if dtype is None else native_dtype(dtype)
    if not jnp.issubdtype(dt, jnp.integer):
        raise DtypeError(f"dtype: expected an integer dtype, got {dt}")
    return dt


def _put(x: Any, device: Any) -> Any:
    return x if device is None else jax.device_put(x, native_device(device))


# ---- keys ---------------------------------------------------------------------------------------

_STATE: dict[str, Any] = {}


def key(seed: int, *, device: Any = None) -> Any:
    """``uint32 [seed >> 32, seed & 0xFFFFFFFF]``, jax's ``PRNGKey`` layout for 64-bit seeds."""
    if jax.config.jax_default_prng_impl != "threefry2x32":
        return _put(jax.random.PRNGKey(seed), device)
    return _put(jnp.array([(seed >> 32) & _M32, seed & _M32], dtype=jnp.uint32), device)


def _check_key(key: Any) -> Any:
    if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    if key.dtype != jnp.uint32 or key.ndim != 1:
        raise InvalidArgumentError(
            f"key: expected a key from hd.random.key or hd.random.split (uint32, shape (2,)), "
            f"got {key.dtype} array of shape {tuple(key.shape)}"
        )
    return key


def split(key: Any, num: int = 2) -> tuple[Any, ...]:
    keys = jax.random.split(_check_key(key), num)
    return tuple(keys[i] for i in range(num))


def seed(n: int) -> None:
    """Re-seed the stateful key."""
    _STATE["key"] = key(n)


def _next_key() -> Any:
    try:
        state = _STATE["key"]
    except KeyError:
        state = key(int(np.random.SeedSequence().generate_state(2, dtype=np.uint64)[0]))
    state, sub = jax.random.split(state)
    if isinstance(state, jax.core.Tracer):
        raise InvalidArgumentError(
            "a stateful hd.random call (no key=) inside jax.jit would be traced once and give the "
            "same numbers on every call; pass key=... (hd.random.key, hd.random.split)"
        )
    _STATE["key"] = state
    return sub


def _key_for(key: Any, device: Any) -> Any:
    return _put(_next_key(), device) if key is None else _put(_check_key(key), device)


# ---- distributions ------------------------------------------------------------------------------


def uniform(shape, minval=0.0, maxval=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    return jax.random.uniform(_key_for(key, device), shape, dt, minval, maxval)


def normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    return (mean + std * jax.random.normal(_key_for(key, device), shape, dt)).astype(dt)


def truncated_normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    z = jax.random.truncated_normal(_key_for(key, device), -2.0, 2.0, shape, dt)
    return (mean + std * z).astype(dt)


def randint(shape, low, high, *, dtype=None, device=None, key=None):
    return jax.random.randint(_key_for(key, device), shape, low, high, _int_dtype(dtype))


def bernoulli(p=0.5, shape=None, *, device=None, key=None):
    return jax.random.bernoulli(_key_for(key, device), p, shape)


def permutation(x, *, axis=0, device=None, key=None):
    return jax.random.permutation(_key_for(key, device), x, axis=axis)


def shuffle(x, axis=0, *, key=None):
    return jax.random.permutation(_key_for(key, None), x, axis=axis)


def categorical(logits, shape=None, *, axis=-1, key=None):
    return jax.random.categorical(_key_for(key, None), logits, axis=axis, shape=shape)


def default_float_dtype() -> Any:
    return default_float()
