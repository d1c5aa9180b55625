"""Random numbers for the torch backend (contract: ``hedera/backends/numpy/random.py``).

torch has no stateless (counter-based) random ops, so hedera brings one:

* **Keyed calls** hash ``(key, counter)`` with Threefry-2x32 (20 rounds; the
  generator of jax and of Random123), written in ``int64`` tensor ops on values
  below ``2**32`` so that nothing overflows. A call is a pure function of the
  key and the shape: the same numbers eager and under ``torch.compile`` (where
  the rounds fuse into one kernel), on any device. Keys are ``int64`` tensors
  of shape ``(2,)`` holding two 32-bit words; they live on a device, and the
  numbers are drawn there.
* **Stateful calls** use one native ``torch.Generator`` per device, kept by
  hedera (torch's global generator is left alone), seeded by :func:`seed`.

Uniforms come from the top 24 (float32) or 53 (float64) bits; normals are
``sqrt(2) * erfinv(2u - 1)`` for keyed calls (as in jax) and ``torch.randn``
for stateful ones; truncated normals invert the normal CDF on ``(-2, 2)``.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from ...errors import DtypeError, InvalidArgumentError, UnsupportedError
from ._core import native_device, native_dtype

_M32 = 0xFFFFFFFF
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_DOMAIN_DRAW, _DOMAIN_SPLIT = 0, 1  # high counter word: keeps draws and split keys apart

# ---- dtypes and devices -------------------------------------------------------------------


def _float_dtype(dtype: Any) -> torch.dtype:
    dt = torch.get_default_dtype() if dtype is None else native_dtype(dtype)
    if not dt.is_floating_point:
        raise DtypeError(f"dtype: expected a real floating-point dtype, got {dt}")
    return dt


def _int_dtype(dtype: Any) -> torch.dtype:
    dt = torch.int64 if dtype is None else native_dtype(dtype)
    if dt.is_floating_point or dt.is_complex or dt == torch.bool:
        raise DtypeError(f"dtype: expected an integer dtype, got {dt}")
    return dt


def _device(device: Any) -> torch.device:
    return torch.get_default_device() if device is None else native_device(device)


# ---- the stateful generators ----------------------------------------------------------------

_SEED: list[int | None] = [None]
_GENERATORS: dict[torch.device, torch.Generator] = {}


def seed(n: int) -> None:
    """Re-seed hedera's torch generators (one per device, each seeded with ``n``)."""
    _SEED[0] = n
    _GENERATORS.clear()


def _generator(device: torch.device) -> torch.Generator:
    try:
        return _GENERATORS[device]
    except KeyError:
        pass
    g = torch.Generator(device=device)
    if _SEED[0] is None:
        g.seed()  # unseeded: non-deterministic
    else:
        g.manual_seed(_SEED[0] & 0xFFFFFFFFFFFFFFFF)
    _GENERATORS[device] = g
    return g


# ---- keys and Threefry ------------------------------------------------------------------------


def key(seed: int, *, device: Any = None) -> torch.Tensor:
    """``int64 [seed >> 32, seed & 0xFFFFFFFF]`` (64-bit seeds; negative ones wrap), on ``device``."""
    return torch.tensor([(seed >> 32) & _M32, seed & _M32], dtype=torch.int64, device=_device(device))


def _check_key(key: Any) -> torch.Tensor:
    if key.dtype != torch.int64 or tuple(key.shape) != (2,):
        raise InvalidArgumentError(
            f"key: expected a key from hd.random.key or hd.random.split (int64, shape (2,)), "
            f"got {key.dtype} tensor of shape {tuple(key.shape)}"
        )
    return key


def _rotl(x: torch.Tensor, r: int) -> torch.Tensor:
    return ((x << r) & _M32) | (x >> (32 - r))  # x < 2**32, r <= 29: no int64 overflow


def threefry2x32(key: torch.Tensor, x0: Any, x1: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Threefry-2x32 (20 rounds) of the counter words ``(x0, x1)`` under ``key``; int64 values below 2**32."""
    k0, k1 = key[0], key[1]
    ks = (k0, k1, k0 ^ k1 ^ 0x1BD11BDA)
    x0 = (x0 + ks[0]) & _M32
    x1 = (x1 + ks[1]) & _M32
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = (x0 + x1) & _M32
            x1 = _rotl(x1, r) ^ x0
        x0 = (x0 + ks[(i + 1) % 3]) & _M32
        x1 = (x1 + ks[(i + 2) % 3] + (i + 1)) & _M32
    return x0, x1


def _bits(key: torch.Tensor, n: int, domain: int = _DOMAIN_DRAW) -> tuple[torch.Tensor, torch.Tensor]:
    """Two words of 32 random bits for each of ``n`` draws (int64 tensors of shape ``(n,)``)."""
    counter = torch.arange(n, dtype=torch.int64, device=key.device)
    return threefry2x32(key, domain, counter)


def split(key: torch.Tensor, num: int = 2) -> tuple[torch.Tensor, ...]:
    y0, y1 = _bits(_check_key(key), num, _DOMAIN_SPLIT)
    return tuple(torch.stack([y0, y1], dim=-1).unbind(0))


def _keyed(key: torch.Tensor, device: Any) -> torch.Tensor:
    key = _check_key(key)
    return key if device is None else key.to(_device(device))


# ---- uniform bits to distributions ------------------------------------------------------------


def _u01(shape: tuple, dt: torch.dtype, device: Any, key: Any) -> torch.Tensor:
    """Uniform in [0, 1) of dtype ``dt``, from ``key`` or from the stateful generator."""
    if key is None:
        dev = _device(device)
        return torch.rand(shape, generator=_generator(dev), dtype=dt, device=dev)
    key = _keyed(key, device)
    n = math.prod(shape)
    if dt == torch.float64:  # 53 bits: both words of one counter
        y0, y1 = _bits(key, n)
        u = ((y0 << 21) | (y1 >> 11)).to(torch.float64) * 2.0**-53
    else:  # 24 bits: one word each, so half as many counters
        y0, y1 = _bits(key, (n + 1) // 2)
        u = (torch.cat([y0, y1])[:n] >> 8).to(torch.float32) * 2.0**-24
        if dt != torch.float32:  # float16/bfloat16: keep below 1 after rounding
            u = torch.clamp(u.to(dt), max=1.0 - torch.finfo(dt).eps / 2)
    return u.reshape(shape)


def _affine(z: torch.Tensor, shift: Any, scale: Any, dt: torch.dtype) -> torch.Tensor:
    """``shift + scale * z`` in dtype ``dt`` (no work for the standard 0 and 1)."""
    if isinstance(shift, (int, float)) and isinstance(scale, (int, float)) and shift == 0 and scale == 1:
        return z
    return (shift + scale * z).to(dt)


def uniform(shape, minval=0.0, maxval=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    return _affine(_u01(shape, dt, device, key), minval, maxval - minval, dt)


def _erfinv_normal(u: torch.Tensor, lo: float, hi: float) -> torch.Tensor:
    """``sqrt(2) * erfinv(v)`` for ``v = lo + (hi - lo) * u``, computed in at least float32."""
    work = u if u.dtype in (torch.float32, torch.float64) else u.float()
    v = lo + (hi - lo) * work
    v = torch.clamp(v, min=math.nextafter(-1.0, 0.0) if work.dtype == torch.float64 else -1.0 + 2.0**-24)
    return math.sqrt(2.0) * torch.erfinv(v)


def normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    if key is None:
        dev = _device(device)
        z = torch.randn(shape, generator=_generator(dev), dtype=dt, device=dev)
    else:
        z = _erfinv_normal(_u01(shape, dt, device, key), -1.0, 1.0).to(dt)
    return _affine(z, mean, std, dt)


_TRUNC = math.erf(2.0 / math.sqrt(2.0))  # erf at the +2 std bound


def truncated_normal(shape, mean=0.0, std=1.0, *, dtype=None, device=None, key=None):
    dt = _float_dtype(dtype)
    z = _erfinv_normal(_u01(shape, dt, device, key), -_TRUNC, _TRUNC)
    z = torch.clamp(z, -2.0, 2.0).to(dt)
    return _affine(z, mean, std, dt)


def randint(shape, low, high, *, dtype=None, device=None, key=None):
    dt = _int_dtype(dtype)
    if key is None:
        dev = _device(device)
        return torch.randint(low, high, shape, generator=_generator(dev), dtype=dt, device=dev)
    span = int(high) - int(low)
    if span > 2**31:
        raise UnsupportedError(
            f"randint: with a key, the torch backend draws from ranges of at most 2**31 values, "
            f"got high - low = {span}"
        )
    y0, y1 = _bits(_keyed(key, device), math.prod(shape))
    r = ((y0 % span) * (2**32 % span) + y1 % span) % span  # 64 random bits mod span; < 2**62
    return (r + int(low)).to(dt).reshape(shape)


def bernoulli(p=0.5, shape=None, *, device=None, key=None):
    p_is_tensor = isinstance(p, torch.Tensor)
    if shape is None:
        shape = tuple(p.shape) if p_is_tensor else ()
    if device is None and p_is_tensor and key is None:
        device = p.device
    dt = torch.float64 if p_is_tensor and p.dtype == torch.float64 else torch.float32
    return _u01(shape, dt, device, key) < p


def _random_order(n: int, device: Any, key: Any) -> torch.Tensor:
    if key is None:
        dev = _device(device)
        return torch.randperm(n, generator=_generator(dev), device=dev)
    y0, y1 = _bits(_keyed(key, device), n)
    return torch.argsort((y0 << 31) | (y1 >> 1), stable=True)  # 63 random bits each: ties vanishingly rare


def permutation(x, *, axis=0, device=None, key=None):
    if isinstance(x, int):
        return _random_order(x, device, key)
    perm = _random_order(x.shape[axis], x.device if device is None else device, key)
    return torch.index_select(x, axis, perm.to(x.device))


def shuffle(x, axis=0, *, key=None):
    return permutation(x, axis=axis, key=key)


def categorical(logits, shape=None, *, axis=-1, key=None):
    logits = torch.movedim(logits, axis, -1)
    batch = tuple(logits.shape[:-1])
    shape = batch if shape is None else tuple(shape)
    dt = logits.dtype if logits.dtype in (torch.float32, torch.float64) else torch.float32
    u = _u01((*shape, logits.shape[-1]), dt, logits.device, key)
    gumbel = -torch.log(-torch.log(torch.clamp(u, min=torch.finfo(dt).tiny)))
    return torch.argmax(logits + gumbel, dim=-1)


def default_float_dtype() -> torch.dtype:
    return torch.get_default_dtype()
