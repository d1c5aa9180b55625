"""Set functions (mxnet backend): on the host (exact; data-dependent shapes, not differentiable)."""

from __future__ import annotations

from ..._api import names_in
from ..numpy import set as _ref
from ._core import host

__all__ = names_in("set")  # the API table's set rows

isin = host(_ref.isin, "isin")
unique_all = host(_ref.unique_all, "unique_all")
unique_counts = host(_ref.unique_counts, "unique_counts")
unique_inverse = host(_ref.unique_inverse, "unique_inverse")
unique_values = host(_ref.unique_values, "unique_values")
