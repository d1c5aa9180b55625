"""Type aliases of hedera's public signatures, for code written on hedera (``hd.typing``).

hedera has no array class of its own: :data:`Array` is whatever native array the backend uses
(``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``, ``tf.Tensor``), so to a type checker it is
``Any``; the names say what a parameter holds::

    from hedera.typing import Array, Nest

    def loss(params: Nest, x: Array) -> Array: ...
"""

from __future__ import annotations

from typing import Any, Union

from .dtypes import DType

__all__ = ["Array", "DTypeLike", "DeviceLike", "Nest"]

#: a native array of any backend
Array = Any
#: a hedera dtype, a native dtype of any framework, or a dtype name
DTypeLike = Union[DType, Any, str]
#: ``"cpu"``, ``"gpu"``, ``"gpu:1"``, or a native device object
DeviceLike = Union[str, Any]
#: a nest (pytree) of arrays: nested dicts, lists, tuples, named tuples and ``hd.Container`` s
#: with arrays (or other leaves) at the leaves (``hd.tree``)
Nest = Any
