"""Devices (torch backend): ``"cpu"``, and ``"gpu:i"`` for CUDA device ``i``."""

from __future__ import annotations

import torch

from ..._api import names_in
from ._core import device_name, native_device

__all__ = names_in("device")  # the API table's device rows


def device(x, /):
    """hedera's spelling of the device ``x`` lives on: ``"cpu"`` or ``"gpu:0"``."""
    return device_name(x.device)


def to_device(x, device, /, *, stream=None):
    """``x`` on ``device`` (a hedera string or a ``torch.device``); ``x`` itself if it is there already.

    ``stream`` may be a ``torch.cuda.Stream``: the copy is then issued on it.
    """
    target = native_device(device)
    if isinstance(stream, torch.cuda.Stream):
        with torch.cuda.stream(stream):
            return x.to(target)
    return x.to(target)
