"""Every use of TensorFlow's private API in the tensorflow backend, each with a public fallback.

TensorFlow does not promise these names across releases, so a TensorFlow upgrade that moves one
breaks this file, visibly, and nothing else: each access is tried once here, and where it fails
the backend uses the public API instead (slower, or without a convenience) and
:data:`FALLBACKS` names what fell back (``tests/backends/test_tensorflow_private.py`` requires it
to be empty on the pinned TensorFlow).

* ``gen_math_ops``, ``gen_bitwise_ops``, ``gen_array_ops``, ``gen_linalg_ops``,
  ``gen_spectral_ops``: the generated op functions (``gen_math_ops.add_v2``), which skip
  ``tf.math``'s name scopes, conversions and dispatch decorators (1-3 us a call of TF's public
  functions, against a 5-20 us eager op).
  Fallback: the same ops through the public ``tf.raw_ops`` (:class:`RawOps`).
* ``special_math_ops._einsum_v2_parse_and_resolve_equation``: how ``tf.einsum`` completes an
  equation for its op (the implicit output, ellipses), cached per equation and shapes by
  ``extras.einsum``. Fallback: None, and ``tf.einsum`` itself runs (its Python on every call).
* ``dtypes._ANY_TO_TF``: ``tf.as_dtype``'s lookup table, taught hedera's dtype objects
  (:func:`register_dtype_spellings`). Fallback: none needed (``tf.bfloat16 == hd.bfloat16`` is
  then False; hedera converts its dtypes itself everywhere).
* ``autograph.core.config.CONVERSION_RULES``: keeps AutoGraph out of hedera's code
  (:func:`exclude_from_autograph`). Fallback: AutoGraph converts hedera's functions too (slower
  tracing, same results).
* ``eager.context.context()``: the eager context's device name, a cache key of ``_core``'s zero
  scalars (:func:`eager_context`). Fallback: None, and ``_core`` builds each zero scalar anew
  (slower, same values).
* ``framework.ops.EagerTensor``: the class of eager tensors, named without making one (making a
  tensor at import would initialise TensorFlow's runtime, after which logical devices and
  ``MultiWorkerMirroredStrategy`` can no longer be configured). Fallback: a class no tensor has,
  so ``_core.may_hold_nan`` answers True and the NaN-aware paths run (slower, same values).
* ``EagerTensor._datatype_enum()``: read directly by ``_core.dtype_enum`` / ``is_complex`` and
  ``elementwise.divide``, each with ``x.dtype.as_datatype_enum`` as its fallback on
  ``AttributeError`` (symbolic tensors, variables, and a TensorFlow without the method).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import tensorflow as tf

__all__ = [
    "FALLBACKS",
    "EagerTensor",
    "could_possibly_record",
    "RawOps",
    "eager_context",
    "einsum_resolve",
    "exclude_from_autograph",
    "gen_array_ops",
    "gen_bitwise_ops",
    "gen_linalg_ops",
    "gen_math_ops",
    "gen_spectral_ops",
]

#: the private names this TensorFlow lacks, each replaced by its public fallback
FALLBACKS: list[str] = []


class RawOps:
    """``gen_math_ops``' spelling (``add_v2(x, y)``, ``_abs(x)``) over the public ``tf.raw_ops``
    (``tf.raw_ops.AddV2(x=x, y=y)``), whose ops take keyword arguments only."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        spelled = "".join(part.capitalize() for part in name.strip("_").split("_"))
        op = getattr(tf.raw_ops, spelled, None) or getattr(tf.raw_ops, name.strip("_").upper())  # (RFFT)
        params = list(inspect.signature(op).parameters)

        def call(*args: Any, **kwargs: Any) -> Any:
            return op(**dict(zip(params, args, strict=False)), **kwargs)

        call.__name__ = name
        setattr(self, name, call)
        return call


try:
    from tensorflow.python.ops import (
        gen_array_ops,
        gen_bitwise_ops,
        gen_linalg_ops,
        gen_math_ops,
        gen_spectral_ops,
    )
except ImportError:
    gen_math_ops = gen_bitwise_ops = gen_array_ops = gen_linalg_ops = gen_spectral_ops = RawOps()  # type: ignore[assignment]
    FALLBACKS.append(
        "tensorflow.python.ops.gen_math_ops, gen_bitwise_ops, gen_array_ops, gen_linalg_ops, ..."
    )


try:
    from tensorflow.python.eager.context import context as _eager_context_or_none
except ImportError:
    FALLBACKS.append("tensorflow.python.eager.context")

    def _eager_context_or_none() -> Any:
        return None


try:
    from tensorflow.python.framework.ops import EagerTensor
except ImportError:
    FALLBACKS.append("tensorflow.python.framework.ops.EagerTensor")

    class EagerTensor:  # type: ignore[no-redef]
        """Stands for the class of eager tensors where TensorFlow does not name it: no tensor is one."""


try:
    from tensorflow.python.ops.special_math_ops import (
        _einsum_v2_parse_and_resolve_equation as einsum_resolve,
    )
except ImportError:
    FALLBACKS.append("tensorflow.python.ops.special_math_ops._einsum_v2_parse_and_resolve_equation")
    einsum_resolve = None


try:
    from tensorflow.python.eager.record import could_possibly_record
except ImportError:
    FALLBACKS.append("tensorflow.python.eager.record.could_possibly_record")

    def could_possibly_record() -> bool:
        """Without TensorFlow's own test, a tape may always record (the fused kernels stand aside)."""
        return True


#: ``() -> the eager context`` (``.executing_eagerly()``, ``.device_name``), or None without it
eager_context: Callable[[], Any] = _eager_context_or_none


def register_dtype_spellings(spellings: dict[Any, tf.DType]) -> None:
    """Add ``spellings`` (hedera's dtype objects -> TF dtypes) to ``tf.as_dtype``'s lookup table,
    so that TF reads them itself (``tf.zeros(2, hd.float32)``, ``tf.bfloat16 == hd.bfloat16``)."""
    try:
        from tensorflow.python.framework import dtypes as tf_dtypes

        table = tf_dtypes._ANY_TO_TF
    except (ImportError, AttributeError):
        table = None
    if not isinstance(table, dict):
        FALLBACKS.append("tensorflow.python.framework.dtypes._ANY_TO_TF")
        return
    for spelling, native in spellings.items():
        table.setdefault(spelling, native)


def exclude_from_autograph(package: str) -> None:
    """Add a do-not-convert rule for ``package`` to AutoGraph's rules (as TF and Keras do for theirs)."""
    try:
        from tensorflow.python.autograph.core import config
    except ImportError:
        FALLBACKS.append("tensorflow.python.autograph.core.config")
        return
    rule = config.DoNotConvert(package)
    if not any(str(r) == str(rule) for r in config.CONVERSION_RULES):
        config.CONVERSION_RULES = (rule, *config.CONVERSION_RULES)
