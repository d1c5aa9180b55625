"""Devices (jax backend): ``"cpu"`` is ``jax.devices("cpu")[0]``, ``"gpu:1"`` is ``jax.devices("gpu")[1]``."""

from __future__ import annotations

import jax

from ..._api import names_in
from .._common import device_string
from ._core import default_device, device_kind_index, native_device

__all__ = names_in("device")  # the API table's device rows

_SPELLING: dict[object, str] = {}


def device(x, /):
    """hedera's spelling of the device ``x`` lives on (``"cpu"``, ``"gpu:0"``).

    An array sharded over several devices gives its ``jax.sharding.Sharding``,
    which every ``device=`` argument accepts. A traced value (under ``jit``) has
    no placement yet; it gives JAX's default device.
    """
    try:
        devices = x.devices()
    except Exception:  # a tracer
        devices = {default_device()}
    if len(devices) != 1:
        return x.sharding
    (d,) = devices
    try:
        return _SPELLING[d]
    except KeyError:
        _SPELLING[d] = out = device_string(*device_kind_index(d))
        return out


def to_device(x, device, /, *, stream=None):
    """``x`` on ``device`` (``jax.device_put``); ``stream`` is accepted for the standard and ignored."""
    return jax.device_put(x, native_device(device))
