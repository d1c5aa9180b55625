"""Devices (mxnet backend): ``"cpu"`` and ``"gpu:i"``, or ``mx.Context`` objects."""

from __future__ import annotations

from ..._api import names_in
from ._core import device_string, native_device

__all__ = names_in("device")  # the API table's device rows


def device(x, /):
    """hedera's spelling of the device ``x`` lives on: ``"cpu"`` or ``"gpu:0"``."""
    return device_string(x.ctx)


def to_device(x, device, /, *, stream=None):
    """``x`` on ``device``; ``x`` itself if it is there already (``stream`` is ignored)."""
    ctx = native_device(device)
    return x if ctx == x.ctx else x.as_in_ctx(ctx)
