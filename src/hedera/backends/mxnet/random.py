"""Random numbers (mxnet backend): not provided yet; every function raises ``UnsupportedError``.

Draw on the numpy backend and convert: ``hd.asarray(hd.random.normal(shape, key=key,
backend="numpy"), backend="mxnet")``.
"""

from __future__ import annotations

from ...errors import UnsupportedError


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedError(
        f"random.{name}: hd.random has no mxnet implementation; draw on numpy and convert with "
        f"hd.asarray(..., backend='mxnet')"
    )
