"""hedera's type aliases, under their former private name: see :mod:`hedera.typing`."""

from .typing import Array, DeviceLike, DTypeLike, Nest

__all__ = ["Array", "DTypeLike", "DeviceLike", "Nest"]
