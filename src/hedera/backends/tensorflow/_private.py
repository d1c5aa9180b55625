"""Every use of TensorFlow's private API in the tensorflow backend, each with a public fallback.

TensorFlow does not promise these names across releases, so a TensorFlow upgrade that moves one
breaks this file, visibly, and nothing else: each access is tried once here, and where it fails
the backend uses the public API instead (slower, or without a convenience) and
:data:`FALLBACKS` names what fell back (``tests/backends/test_tensorflow_private.py`` requires it
to be empty on the pinned TensorFlow).

* ``gen_math_ops``, ``gen_bitwise_ops``, ``gen_array_ops``, ``gen_linalg_ops``,
  ``gen_spectral_ops``: the generated op functions (``gen_math_ops.add_v2``), which skip
  ``tf.math``'s name scopes, conversions and dispatch decorators (1-3 us a call of TF's public
  functions, against a 5-20 us eager op); and under the WeakTensor wrappers TF puts over some of
  them (``gen_math_ops.log``, ``maximum``: :class:`PlainOps`, read through ``__wrapped__``).
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
    "PlainOps",
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
    "own_op",
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


def _weak_tensor_wrapped(function: Any, module: Any) -> Any:
    """The generated op function that ``function`` wraps, where ``function`` is the WeakTensor wrapper
    TF puts over some of a generated module's functions (``tensorflow/python/ops/weak_tensor_ops.py``
    replaces ``gen_math_ops.log``, ``maximum``, ``sub``, ``gen_bitwise_ops.invert``, ...); else None."""
    code = getattr(function, "__code__", None)
    inner = getattr(function, "__wrapped__", None)
    if code is None or inner is None or not code.co_filename.endswith("weak_tensor_ops.py"):
        return None
    if getattr(inner, "__module__", None) != module.__name__ or not callable(inner):
        return None
    return inner


class PlainOps:
    """A generated op module (``gen_math_ops``) whose functions come without TF's WeakTensor wrappers.

    TensorFlow (``weak_tensor_ops``) replaces some generated op functions (``log``, ``tanh``,
    ``maximum``, ``minimum``, ``sub``, ``equal``, ``invert``, ...) with a wrapper that asks
    ``ops.is_auto_dtype_conversion_enabled()`` (two Enum comparisons) on every call and, where that
    is off (TensorFlow's default; hedera never turns it on), calls the generated function with the
    same arguments: ~1 us of Python a call (measured on the shared 2-core machine, +12% of a 1-element
    op), so ``tf.math.log(x)`` costs more than the op it runs. Here each name is the generated
    function itself: the same op, the same answers. (Where the mode is on, the wrapper would
    apply TF's own "weak" promotion to mixed operands; hedera applies the standard's in every
    mode, so its answers do not depend on that global setting.) Any other attribute is the
    module's own; each is looked up once, then read as a plain attribute.
    """

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        inner = _weak_tensor_wrapped(value, self._module)
        if inner is not None:
            value = inner
        setattr(self, name, value)
        return value


def own_op(ops: Any, name: str) -> Any:
    """The generated op function ``name`` as TensorFlow exports it (``tf.math.sin``, with TF's
    WeakTensor wrapper where it has one), from ``ops`` (a :class:`PlainOps` or the fallback)."""
    return getattr(getattr(ops, "_module", ops), name)


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
else:
    gen_math_ops = PlainOps(gen_math_ops)  # type: ignore[assignment]
    gen_bitwise_ops = PlainOps(gen_bitwise_ops)  # type: ignore[assignment]
    gen_array_ops = PlainOps(gen_array_ops)  # type: ignore[assignment]
    gen_linalg_ops = PlainOps(gen_linalg_ops)  # type: ignore[assignment]
    gen_spectral_ops = PlainOps(gen_spectral_ops)  # type: ignore[assignment]


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
