"""Type aliases used in hedera's public signatures.

hedera has no array class of its own: ``Array`` is whatever native array the
backend uses (``numpy.ndarray``, ``torch.Tensor``, ``jax.Array``, ``tf.Tensor``).
"""

from __future__ import annotations

from typing import Any, Union

from .dtypes import DType

#: a native array of any backend
Array = Any
#: a hedera dtype, a native dtype of any framework, or a dtype name
DTypeLike = Union[DType, Any, str]
#: ``"cpu"``, ``"gpu"``, ``"gpu:1"``, or a native device object
DeviceLike = Union[str, Any]
