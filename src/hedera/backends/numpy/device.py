"""Devices (numpy backend): there is only the CPU."""

from __future__ import annotations

from ..._api import names_in
from ._core import check_device

__all__ = names_in("device")  # the API table's device rows


def device(x, /):
    """hedera's spelling of the device ``x`` lives on: always ``"cpu"``."""
    return "cpu"


def to_device(x, device, /, *, stream=None):
    check_device(device)
    return x
