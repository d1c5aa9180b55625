"""Random numbers for the numpy backend, and the contract every backend's ``random`` module follows.

Every function takes ``key=None``: ``None`` draws from the backend's one stateful
generator (seeded by :func:`seed`), a key array draws deterministically from
that key. The front (:mod:`hedera.random`) normalises ``shape`` to a tuple of
ints and checks ``key`` belongs to this backend; it documents the parameters.

numpy: keys are ``uint32`` arrays of shape ``(2,)``. A key seeds a
``numpy.random.Generator`` (PCG64, through ``SeedSequence``); ``split`` derives
children through ``SeedSequence`` with a distinct spawn key. The stateful
generator is a PCG64 ``Generator`` too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import DtypeError, InvalidArgumentError
from ._core import check_device, native_dtype

_STATE: dict[str, np.random.Generator] = {}


def seed(n: int) -> None:
    """Re-seed the stateful generator."""
    _STATE["generator"] = np.random.Generator(np.random.PCG64(n))


def _stateful() -> np.random.Generator:
    try:
        return _STATE["generator"]
    except KeyError:
        _STATE["generator"] = np.random.default_rng()  # unseeded: OS entropy
        return _STATE["generator"]


def key(seed: int, *, device: Any = None) -> np.ndarray:
    """A key array for ``seed`` (an int below 2**64): ``uint32 [seed >> 32, seed & 0xFFFFFFFF]``."""
    check_device(device)
    return np.array([(seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF], dtype=np.uint32)


def _entropy(key: Any) -> list[int]:
    key = np.asarray(key)
    if key.shape != (2,) or key.dtype != np.uint32:
        raise InvalidArgumentError(
            f"key: expected a key from hd.random.key or hd.random.split (uint32, shape (2,)), "
            f"got {key.dtype} array of shape {key.shape}"
        )
    return [int(k) for k in key]


def split(key: Any, num: int = 2) -> tuple[np.ndarray, ...]:
    """``num`` new independent keys derived from ``key``."""
    words = np.random.SeedSequence(_entropy(key), spawn_key=(1,)).generate_state(2 * num, dtype=np.uint32)
    return tuple(words.reshape(num, 2))


def _generator(key: Any) -> np.random.Generator:
    if key is None:
        return _stateful()
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(_entropy(key))))


def _float_dtype(dtype: Any) -> np.dtype:
    dt = native_dtype(dtype) if dtype is not None else np.dtype(np.float64)
    if dt.kind != "f":
        raise DtypeError(f"dtype: expected a real floating-point dtype, got {dt}")
    return dt


def _int_dtype(dtype: Any) -> np.dtype:
    dt = native_dtype(dtype) if dtype is not None else np.dtype(np.int64)
    if dt.kind not in "iu":
        raise DtypeError(f"dtype: expected an integer dtype, got {dt}")
    return dt


def _u01(gen: np.random.Generator, shape: tuple, dt: np.dtype) -> np.ndarray:
    """Uniform in [0, 1) of dtype ``dt`` (float16 drawn as float32 and rounded down below 1)."""
    if dt in (np.float32, np.float64):
        return gen.random(shape, dtype=dt)
    u = gen.random(shape, dtype=np.float32).astype(dt)
    return np.minimum(u, np.nextafter(dt.type(1), dt.type(0)))


def uniform(shape, minval=0.0, maxval=1.0, *, dtype=None, device=None, key=None):
    check_device(device)
    dt = _float_dtype(dtype)
    u = _u01(_generator(key), shape, dt)
    return np.asarray(minval + (maxval - minval) * u, dtype=dt)


def normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    check_device(device)
    dt = _float_dtype(dtype)
    z = _generator(key).standard_normal(shape, dtype=dt if dt in (np.float32, np.float64) else np.float32)
    return np.asarray(mean + std * z, dtype=dt)


def truncated_normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    check_device(device)
    dt = _float_dtype(dtype)
    gen = _generator(key)
    z = gen.standard_normal(shape)
    bad = np.abs(z) >= 2.0
    while bad.any():  # rejection: about 4.6% of draws fall outside (-2, 2)
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) >= 2.0
    return np.asarray(mean + std * z, dtype=dt)


def randint(shape, low, high, *, dtype=None, device=None, key=None):
    check_device(device)
    return _generator(key).integers(low, high, size=shape, dtype=_int_dtype(dtype))


def bernoulli(p=0.5, shape=None, *, device=None, key=None):
    check_device(device)
    shape = np.shape(p) if shape is None else shape
    return _generator(key).random(shape) < p


def permutation(x, *, axis=0, device=None, key=None):
    check_device(device)
    gen = _generator(key)
    if isinstance(x, (int, np.integer)):
        return gen.permutation(int(x))
    return gen.permutation(np.asarray(x), axis=axis)


def shuffle(x, axis=0, *, key=None):
    return _generator(key).permutation(np.asarray(x), axis=axis)


def categorical(logits, shape=None, *, axis=-1, key=None):
    logits = np.moveaxis(np.asarray(logits), axis, -1)
    batch = logits.shape[:-1]
    shape = batch if shape is None else shape
    g = _generator(key).gumbel(size=(*shape, logits.shape[-1]))
    return np.argmax(logits + g, axis=-1).astype(np.int64)


def default_float_dtype() -> Any:
    return np.dtype(np.float64)
