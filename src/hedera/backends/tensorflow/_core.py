"""dtype, device and promotion helpers for the tensorflow backend, and its constants.

Conventions of this backend
---------------------------
* Default dtypes: ``float32`` (real floating), ``complex64``, ``int64`` (integral and
  indexing). TensorFlow's own defaults (``tf.constant(1)`` is ``int32``) are not used.
* All 13 standard dtypes are supported. TensorFlow lacks kernels for some of them
  (``abs``/``sign``/``matmul`` on unsigned integers, ``tile`` on ``uint16``, ...);
  those functions compute through an equivalent dtype (an exact bit-cast or a
  widening cast), never through a lossy conversion.
* Type promotion follows the standard (:func:`hedera.dtypes.promote_types`): TF ops
  refuse mixed dtypes, so binary functions cast first. A Python scalar takes the
  dtype of the array it is combined with; a Python ``float`` with an integer array
  (which the standard leaves unspecified) promotes to the default float,
  ``float32``, as in PyTorch and JAX; a ``complex`` with a real array promotes to
  the complex dtype of the same precision.
* Integer division (``divide``) of integer arrays gives the default float dtype,
  ``float32``; integer ``floor_divide``/``remainder`` by zero give 0, as NumPy does
  (TensorFlow raises).
"""

from __future__ import annotations

import contextlib
import math
import re
from typing import Any

import numpy as np
import tensorflow as tf

from ... import dtypes as _hd
from ...errors import BroadcastError, DtypeError, InvalidArgumentError, UnsupportedError
from .._common import check_integer_indices, device_string, parse_device, wrong_device_kind
from ._private import EagerTensor, eager_context, gen_math_ops, register_dtype_spellings

BACKEND = "tensorflow"

#: hedera dtype names TensorFlow lacks (none: the unsigned ones are supported, with shims)
UNSUPPORTED_DTYPES: tuple[str, ...] = ()

#: function name -> why the tensorflow backend cannot compute it exactly (it raises UnsupportedError)
LIMITATIONS: dict[str, str] = {}

#: function -> how this backend gives the standard's special values where TensorFlow's own call does not
#: (docs/backends.md; checked by tests/core/test_special_cases.py)
SPECIAL_VALUE_FIXES: dict[str, str] = {
    "Python scalars": "a float zero or a complex with a zero part becomes a tensor without TF's scalar cache "
    "(keyed by value, 0.0 == -0.0: after tf.constant(0.0), -0.0 came back as +0.0), in every path: asarray, "
    "full, scalar operands, where, clip bounds, hd.at values, pad constants",
    "floor_divide": "NumPy's result (from the remainder), and floor(x1 / x2) where that is below 1 in "
    "magnitude (inf // 2 is inf, -1 // inf is -0)",
    "remainder": "abs(r) * sign(x2), so zero results have x2's sign too (TF: -0.0 % 1.0 is -0)",
    "tanh": "+-1 + 0j (b's sign of zero) at +-inf + bj for finite b (TF: the sign of sin(2b))",
    "divide, reciprocal, sign, pow": "complex arithmetic by NumPy's algorithms (TF's formulas give NaN at "
    "infinities and zeros)",
    "sqrt, expm1, log1p, log2, log10": "complex special values by NumPy's formulas",
}

# hedera dtype name -> tf dtype
TF_DTYPES: dict[str, tf.DType] = {
    "bool": tf.bool,
    "int8": tf.int8,
    "int16": tf.int16,
    "int32": tf.int32,
    "int64": tf.int64,
    "uint8": tf.uint8,
    "uint16": tf.uint16,
    "uint32": tf.uint32,
    "uint64": tf.uint64,
    "float16": tf.float16,
    "bfloat16": tf.bfloat16,
    "float32": tf.float32,
    "float64": tf.float64,
    "complex64": tf.complex64,
    "complex128": tf.complex128,
}

#: function -> why it costs more than its native twin beyond the dispatch benchmark's targets (the
#: native answer differs for some inputs), and the measured cost (docs/backends.md)
CONFORMANCE_COSTS: dict[str, str] = {
    "argmax": "TF's kernel does not return the first NaN (tf.math.argmax([1, nan, 3]) is 2, "
    "NumPy's 1): an eager CPU tensor is checked for NaNs in place (~1 us), then the raw ArgMax "
    "op runs: +1.1 us, 1.10x at 1000 elements; inside tf.function and on other devices the "
    "NaN-aware path (5 ops) always runs",
    "argmin": "as argmax: +1.3 us, 1.12x at 1000 elements",
    "bitwise_left_shift": "shifts by the bit width or more give 0, as in NumPy (TF leaves them "
    "undefined): where every shift is narrower (the shifts of an eager CPU tensor read in place, "
    "through a Python list for up to 64 of them) TF's one op, +1.7 us at 1 element (load 15), "
    "1.27x at 1000 int64 (+2.7 us, load 22); on the slower 2-core machine of 2026-12-06 (load 1.1) "
    "+2.6 us at 1 element, 1.35x at 1000 (+10 us: reading 1000 shifts to the host and their max); "
    "wider shifts, and inside tf.function, 4 ops (+75 us at 1 element)",
    "bitwise_right_shift": "as bitwise_left_shift (0 or -1 for wide shifts): +1.6 us at 1 element, "
    "1.22x at 1000 (2026-12-06: +2.7 us, 1.28x)",
    "floor_divide": "NumPy's exact floor division of floats (TF's floordiv rounds x / y first, "
    "off by one near integers) and 0 for integer division by zero (TF raises): rint((x1 - x1 mod x2) "
    "/ x2), and TF's floordiv where that is below 1 in magnitude (7 ops, 22 before): +47 us at 1 "
    "element, 7.2x at 1000 (load 15; before: +293 us, 39x); no path for inputs that cannot differ "
    "(that needs the remainder itself)",
    "remainder": "zero results take x2's sign (TF's FloorMod gives -0.0 % 1.0 = -0): abs(r) * sign(x2), "
    "2 ops (TF has no copysign kernel); a positive Python scalar x2 adds +0 instead (1 op): +18 us at "
    "1 element, 2.9x at 1000 (load 15)",
    "sort": "NaNs last, stable: without NaNs (eager CPU tensors, checked in place) one TopKV2, "
    "5x faster than tf.sort; with NaNs, and inside tf.function, the key sort (~13 ops, ~2x tf.sort)",
}

for _name, _native in TF_DTYPES.items():
    _hd.register_native(_native, getattr(_hd, _name))


def _teach_tf_hedera_dtypes() -> None:
    """Let TF read hedera dtypes itself: ``tf.bfloat16 == hd.bfloat16``, ``tf.zeros(2, hd.float32)``.

    TF's ``DType.__eq__`` converts the other side with ``tf.as_dtype``, which reads
    ``.dtype`` (the NumPy dtype) and so fails for ``hd.bfloat16`` (NumPy has none).
    Adding hedera's dtype objects to ``as_dtype``'s lookup table changes nothing for
    any other input. Skipped if a TF version lacks the (private) table (``_private``).
    """
    register_dtype_spellings({getattr(_hd, name): native for name, native in TF_DTYPES.items()})


_teach_tf_hedera_dtypes()

# every spelling of a dtype -> the tf dtype (hedera dtypes, names, tf and NumPy dtypes)
_NATIVE_OF: dict[Any, tf.DType] = {}
for _name, _native in TF_DTYPES.items():
    _NATIVE_OF[_native] = _native
    _NATIVE_OF[_name] = _native
    _NATIVE_OF[getattr(_hd, _name)] = _native
    _np_dtype = getattr(_hd, _name).dtype
    if _np_dtype is not None:
        _NATIVE_OF[_np_dtype] = _native
        _NATIVE_OF[_np_dtype.type] = _native

# the same for the singleton objects (hedera and tf dtypes), looked up by identity: hashing a
# tf.DType is slow (see DTypeSet)
_NATIVE_BY_ID: dict[int, tf.DType] = {}
for _name, _native in TF_DTYPES.items():
    _NATIVE_BY_ID[id(_native)] = _native
    _NATIVE_BY_ID[id(getattr(_hd, _name))] = _native

DEFAULT_FLOAT = tf.float32
DEFAULT_COMPLEX = tf.complex64
DEFAULT_INT = tf.int64
DEFAULT_INDEX = tf.int64


class DTypeSet:
    """A set of tf dtypes with a fast ``in``: by identity (TF interns its dtypes).

    ``hash(tf.float32)`` goes through pybind and TF's Python ``__eq__``; a frozenset
    lookup costs about ten times as much as the identity test, on every call of a shim.
    """

    __slots__ = ("_ids", "dtypes")

    def __init__(self, dtypes: Any) -> None:
        self.dtypes = tuple(dtypes)
        self._ids = frozenset(map(id, self.dtypes))

    def __contains__(self, dtype: Any) -> bool:
        return id(dtype) in self._ids

    def __or__(self, other: DTypeSet) -> DTypeSet:
        return DTypeSet(self.dtypes + other.dtypes)


class DTypeMap:
    """A dict from tf dtypes, looked up by identity (see :class:`DTypeSet`)."""

    __slots__ = ("_by_id",)

    def __init__(self, items: dict[Any, Any]) -> None:
        self._by_id = {id(k): v for k, v in items.items()}

    def get(self, dtype: Any, default: Any = None) -> Any:
        return self._by_id.get(id(dtype), default)

    def __getitem__(self, dtype: Any) -> Any:
        return self._by_id[id(dtype)]


def dtype_enum(x: Any) -> int:
    """``x``'s dtype as TF's ``DataType`` number, cheaply for eager tensors.

    ``x.dtype`` of an eager tensor is a Python property over ``x._datatype_enum()`` (a C
    call); reading the number directly saves most of it. Symbolic tensors (inside
    ``tf.function``) and variables go through ``x.dtype``.
    """
    try:
        return x._datatype_enum()
    except AttributeError:
        return x.dtype.as_datatype_enum


_COMPLEX_ENUMS = frozenset((tf.complex64.as_datatype_enum, tf.complex128.as_datatype_enum))
REAL_FLOAT_ENUMS = frozenset(d.as_datatype_enum for d in (tf.float16, tf.bfloat16, tf.float32, tf.float64))


def is_complex(x: Any) -> bool:
    """Whether the tensor ``x`` has a complex dtype (cheap for eager tensors, see :func:`dtype_enum`)."""
    try:
        return x._datatype_enum() in _COMPLEX_ENUMS
    except AttributeError:
        return x.dtype.as_datatype_enum in _COMPLEX_ENUMS


UNSIGNED = DTypeSet((tf.uint8, tf.uint16, tf.uint32, tf.uint64))
SIGNED = DTypeSet((tf.int8, tf.int16, tf.int32, tf.int64))
INTEGER = UNSIGNED | SIGNED
REAL_FLOAT = DTypeSet((tf.float16, tf.bfloat16, tf.float32, tf.float64))
COMPLEX = DTypeSet((tf.complex64, tf.complex128))
INEXACT = REAL_FLOAT | COMPLEX

#: the signed integer of the same width, for exact bit-casts of unsigned data
SIGNED_OF = DTypeMap({tf.uint8: tf.int8, tf.uint16: tf.int16, tf.uint32: tf.int32, tf.uint64: tf.int64})
#: the real dtype of each complex dtype's parts
REAL_OF = DTypeMap({tf.complex64: tf.float32, tf.complex128: tf.float64})
#: the complex dtype of each real floating dtype's precision
COMPLEX_OF = DTypeMap(
    {tf.float16: tf.complex64, tf.bfloat16: tf.complex64, tf.float32: tf.complex64, tf.float64: tf.complex128}
)


def native_dtype(dtype: Any) -> tf.DType | None:
    """The tf dtype for ``dtype``: a hedera dtype, a tf or NumPy dtype, or a name; None stays None.

    Raises
    ------
    DtypeError
        If ``dtype`` names no dtype.
    """
    if dtype is None:
        return None
    if isinstance(dtype, (int, float)):  # tf.DType hashes and compares equal to its enum number
        raise DtypeError(f"dtype: expected a dtype (hd.float32, a native dtype, or a name), got {dtype!r}")
    found = _NATIVE_BY_ID.get(id(dtype))  # hedera and tf dtype objects are singletons
    if found is not None:
        return found
    try:
        return _NATIVE_OF[dtype]
    except (KeyError, TypeError):
        pass
    if isinstance(dtype, tf.DType):
        return dtype  # a tf dtype hedera has no name for (float8, say): the caller asked for it
    d = _hd.as_hedera_dtype(dtype)
    try:
        return TF_DTYPES[d.name]
    except KeyError:
        raise _hd.unsupported(BACKEND, d) from None


def hd_dtype(dtype: tf.DType) -> _hd.DType:
    """The hedera dtype of a tf dtype."""
    return _hd.as_hedera_dtype(dtype)


# ---- Python scalars and promotion -------------------------------------------------------

PY_SCALARS = (bool, int, float, complex)
_PY_SCALAR_TYPES = frozenset(PY_SCALARS)


def is_scalar(value: Any) -> bool:
    """Whether ``value`` is a Python scalar (not a NumPy scalar)."""
    return type(value) in _PY_SCALAR_TYPES or (isinstance(value, PY_SCALARS) and not hasattr(value, "dtype"))


def default_dtype_of_scalar(value: Any) -> tf.DType:
    """The dtype a Python scalar becomes on its own: bool, int64, float32 or complex64."""
    if isinstance(value, bool):
        return tf.bool
    if isinstance(value, int):
        return DEFAULT_INT
    if isinstance(value, float):
        return DEFAULT_FLOAT
    return DEFAULT_COMPLEX


def scalar_dtype(value: Any, dtype: tf.DType) -> tf.DType:
    """The result dtype of combining Python scalar ``value`` with an array of ``dtype``.

    The array's dtype where the scalar's kind fits it (the standard's rule); beyond
    the standard: a float with an integer or bool array gives float32, a complex with
    a real array gives the complex dtype of that precision, an int with a bool array int64.
    """
    if isinstance(value, bool):
        return dtype
    if isinstance(value, int):
        return DEFAULT_INT if dtype is tf.bool else dtype
    if isinstance(value, float):
        return dtype if dtype in INEXACT else DEFAULT_FLOAT
    if dtype in COMPLEX:
        return dtype
    return COMPLEX_OF.get(dtype, DEFAULT_COMPLEX)


def promote_dtypes(a: tf.DType, b: tf.DType) -> tf.DType:
    """The standard's result dtype of two tf dtypes (DtypeError where it defines none)."""
    if a is b:
        return a
    return TF_DTYPES[_hd.promote_types(hd_dtype(a), hd_dtype(b)).name]


# ---- Python scalars as tensors: keeping the sign of zero ----------------------------------
#
# TF's eager runtime caches the tensors it makes from Python scalars, keyed by the Python
# value (and dtype and device). 0.0 == -0.0 (and complex(0.0, 1) == complex(-0.0, 1)), so
# whichever zero is converted first comes back for the other one too: after tf.constant(0.0),
# tf.constant(-0.0) and a -0.0 operand of an op are +0.0. Every hedera path from a Python float
# or complex to a tensor goes through scalar_tensor(), and binary shims hand TF no zero floats.


_EAGER_ZEROS: dict[tuple[Any, ...], tf.Tensor] = {}


def _uncached_scalar(value: Any, dtype: tf.DType) -> tf.Tensor:
    """A 0-d tensor of ``value`` (a float or complex with a zero part) with its signs of zero kept.

    Through NumPy, which TF's cache does not see (about 8 us). Eager zeros come from a cache of
    our own, keyed by dtype, device and the signs, so that ``full(n, 0.0)`` stays cheap.
    """
    if type(value) is complex and dtype not in COMPLEX:
        raise TypeError("a complex value for a real dtype")  # constant() casts (drops the imaginary part)
    ctx = eager_context()
    if value == 0 and ctx is not None and ctx.executing_eagerly():
        key = (id(dtype), ctx.device_name, math.copysign(1.0, value.real), math.copysign(1.0, value.imag))
        found = _EAGER_ZEROS.get(key)
        if found is None:
            found = _EAGER_ZEROS[key] = tf.constant(np.array(value, dtype.as_numpy_dtype))
        return found
    return tf.constant(np.array(value, dtype.as_numpy_dtype))


_ZEROS_LIKE: dict[tuple[int, str, bool], tf.Tensor] = {}


def zero_like(zero: float, x: Any) -> Any:
    """The float ``zero`` (0.0 or -0.0) as a 0-d tensor of eager float tensor ``x``'s dtype and device.

    The cheap path of binary functions with a zero scalar operand (``maximum(x, 0.0)``): one
    dict lookup, keyed by ``x``'s dtype number and device (both cheap to read from an eager
    tensor), instead of promotion and conversion. ``zero`` itself for anything else.
    """
    try:
        key = (x._datatype_enum(), x.device, math.copysign(1.0, zero) < 0)
    except AttributeError:  # symbolic tensors, variables: the general path
        return zero
    found = _ZEROS_LIKE.get(key)
    if found is None:
        if key[0] not in REAL_FLOAT_ENUMS:
            return zero
        with tf.device(key[1]):
            found = _ZEROS_LIKE[key] = tf.constant(np.array(zero, x.dtype.as_numpy_dtype))
    return found


def scalar_tensor(value: Any, dtype: tf.DType) -> tf.Tensor:
    """The Python scalar ``value`` as a 0-d tensor of ``dtype`` (of the same kind), signs of zero kept.

    A float zero or a complex with a zero part (exact types: NumPy scalars and ints are not
    cached that way) bypasses TF's scalar cache.
    """
    kind = type(value)
    if (kind is float and value == 0.0) or (kind is complex and (value.real == 0.0 or value.imag == 0.0)):
        if dtype in INEXACT:
            return _uncached_scalar(value, dtype)
    return tf.constant(value, dtype=dtype)


def as_tensor(value: Any, dtype: tf.DType | None = None) -> tf.Tensor:
    """``value`` (a tensor, variable, Python scalar or nested sequence) as a tensor, cast to ``dtype``."""
    if isinstance(value, (tf.Tensor, tf.Variable)):
        return value if dtype is None or value.dtype is dtype else tf.cast(value, dtype)
    if is_scalar(value):
        return scalar_tensor(value, dtype or default_dtype_of_scalar(value))
    out = tf.convert_to_tensor(value)
    return out if dtype is None or out.dtype is dtype else tf.cast(out, dtype)


def constant(value: Any, dtype: tf.DType) -> tf.Tensor:
    """A Python scalar as a 0-d tensor of ``dtype`` (cast when its kind differs: 1.5 as int32 is 1)."""
    try:
        return scalar_tensor(value, dtype)
    except (TypeError, ValueError):
        return tf.cast(scalar_tensor(value, default_dtype_of_scalar(value)), dtype)


def _check_operand(value: Any, argname: str) -> None:
    if isinstance(value, (np.ndarray, np.generic)):
        raise DtypeError(
            f"{argname}: expected a tf.Tensor or a Python scalar, got a NumPy {type(value).__name__}; "
            f"convert it with hd.asarray(..., backend='tensorflow')"
        )


def promote(x1: Any, x2: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """``x1`` and ``x2`` (tensors or Python scalars) as tensors of their common dtype.

    Raises
    ------
    DtypeError
        For dtypes the standard does not promote together (``uint64`` with ``int8``,
        ``bool`` with a number).
    """
    s1, s2 = is_scalar(x1), is_scalar(x2)
    if s1 and s2:
        return as_tensor(x1), as_tensor(x2)
    if s1:
        _check_operand(x2, "x2")
        d = scalar_dtype(x1, x2.dtype)
        return as_tensor(x1, d), as_tensor(x2, d)
    if s2:
        _check_operand(x1, "x1")
        d = scalar_dtype(x2, x1.dtype)
        return as_tensor(x1, d), as_tensor(x2, d)
    _check_operand(x1, "x1")
    _check_operand(x2, "x2")
    d = promote_dtypes(x1.dtype, x2.dtype)
    return as_tensor(x1, d), as_tensor(x2, d)


def promote_many(values: Any) -> list[tf.Tensor]:
    """Tensors (and Python scalars) as tensors of their common dtype, by the standard's rules."""
    values = list(values)
    dtype = None
    for v in values:
        if not is_scalar(v):
            _check_operand(v, "arrays")
            dtype = v.dtype if dtype is None else promote_dtypes(dtype, v.dtype)
    if dtype is None:
        return [as_tensor(v) for v in values]
    for v in values:
        if is_scalar(v):
            dtype = scalar_dtype(v, dtype)
    return [as_tensor(v, dtype) for v in values]


# errors TF raises for operands of different dtypes (eager and while tracing)
MIXED_DTYPE_ERRORS = (TypeError, ValueError, tf.errors.InvalidArgumentError)
# errors TF raises for a dtype an op does not accept: TypeError while tracing, InvalidArgumentError
# (op definition) or NotFoundError (no kernel) when eager
OP_DTYPE_ERRORS = (TypeError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError)


# ---- shapes ---------------------------------------------------------------------------


def ndim(x: Any) -> int:
    """The (static) rank of ``x``.

    Raises
    ------
    UnsupportedError
        If the rank is unknown (a ``tf.function`` input traced with ``shape=None``).
    """
    rank = x.shape.rank
    if rank is None:
        raise UnsupportedError("hedera's tensorflow backend needs arrays of known rank inside tf.function")
    return rank


_ALL_AXES: dict[int, tf.Tensor] = {}


def reduction_axes(x: Any, axis: Any) -> Any:
    """``axis`` (None, an int or a tuple) as TF's reduction ops (``Sum``, ``Max``, ...) take it.

    None, every axis, is a cached int32 constant for eager tensors: ``tf.reduce_sum(x)`` makes
    the same constant on every call (~5 us; for a 0-d tensor ``range(rank(x))``, 3 ops ~40 us).
    Inside ``tf.function`` a NumPy range (a graph constant), or the run-time range where the rank
    is unknown.
    """
    if axis is None:
        if type(x) is EagerTensor:
            rank = len(x.shape)
            found = _ALL_AXES.get(rank)
            if found is None:
                with tf.device("/CPU:0"):  # reduction indices live in host memory on every device
                    found = _ALL_AXES[rank] = tf.constant(np.arange(rank, dtype=np.int32))
            return found
        rank = x.shape.rank
        return np.arange(rank, dtype=np.int32) if rank is not None else tf.range(tf.rank(x))
    return list(axis) if type(axis) is tuple else axis


def shape_list(x: Any) -> list[Any]:
    """``x``'s shape as a list: Python ints where static, scalar tensors where unknown (in tf.function)."""
    static = x.shape.as_list()
    if None not in static:
        return static
    dynamic = tf.shape(x)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


def broadcast_shape(*shapes: list[Any]) -> list[Any] | tf.Tensor:
    """The broadcast of shapes given as lists (ints, or scalar tensors where unknown).

    A list of ints when every size is static, else a 1-d int32 shape tensor.

    Raises
    ------
    BroadcastError
        If static sizes do not broadcast.
    """
    if all(isinstance(d, int) for s in shapes for d in s):
        out: list[int] = []
        for i in range(-max((len(s) for s in shapes), default=0), 0):
            size = 1
            for s in shapes:
                d = s[i] if -i <= len(s) else 1
                if d != 1:
                    if size not in (1, d):
                        raise BroadcastError(f"shapes {[tuple(s) for s in shapes]} do not broadcast together")
                    size = d
            out.append(size)
        return out
    result = tf.constant([], tf.int32)
    for s in shapes:
        result = tf.broadcast_dynamic_shape(
            result, tf.stack([tf.cast(d, tf.int32) for d in s]) if s else tf.constant([], tf.int32)
        )
    return result


def size(x: Any) -> Any:
    """The number of elements of ``x``: an int where static, else a scalar int32 tensor."""
    n = x.shape.num_elements()
    return n if n is not None else tf.size(x)


# ---- devices ---------------------------------------------------------------------------

_DEVICE_OF: dict[Any, str] = {}
_HD_DEVICE_OF: dict[str, str] = {}
_TF_DEVICE_RE = re.compile(r"(?:device:)?([A-Za-z_]+):(\d+)$")


def native_device(device: Any) -> str | None:
    """A TF device string (``"/CPU:0"``, ``"/GPU:1"``) for ``device``.

    ``device`` is a hedera device string (``"cpu"``, ``"gpu"``, ``"gpu:1"``), a TF device
    string (``"/GPU:0"``, ``"/job:localhost/replica:0/task:0/device:GPU:0"``) or a
    ``tf.config.LogicalDevice``; None stays None.

    Raises
    ------
    InvalidArgumentError
        For anything else.
    UnsupportedError
        For a device this machine does not have (TF would silently use the CPU).
    """
    if device is None:
        return None
    try:
        return _DEVICE_OF[device]
    except (KeyError, TypeError):
        pass
    name = getattr(device, "name", device)  # a LogicalDevice or PhysicalDevice
    if not isinstance(name, str):
        raise wrong_device_kind(device)
    if "/" in name or name[:1].isupper():
        match = _TF_DEVICE_RE.search(name)
        if match is None:
            raise InvalidArgumentError(f"device: cannot read the TensorFlow device {device!r}")
        out = f"/{match.group(1).upper()}:{match.group(2)}"
    else:
        kind, index = parse_device(name)
        out = f"/{kind.upper()}:{index}"
    if out not in _present_devices():
        raise UnsupportedError(
            f"device: {device!r} is not a device of this machine (TensorFlow sees "
            f"{sorted(_present_devices())}); hedera never falls back to the CPU silently"
        )
    try:
        _DEVICE_OF[device] = out
    except TypeError:
        pass
    return out


_PRESENT: set[str] = set()


def _present_devices() -> set[str]:
    """The TF devices of this machine, as ``"/CPU:0"``, ``"/GPU:0"``... (read once)."""
    if not _PRESENT:
        for d in tf.config.list_logical_devices():
            match = _TF_DEVICE_RE.search(d.name)
            if match is not None:
                _PRESENT.add(f"/{match.group(1).upper()}:{match.group(2)}")
    return _PRESENT


def device_name(tf_device: str) -> str:
    """hedera's spelling (``"cpu"``, ``"gpu:0"``) of a TF device string such as ``x.device``.

    An empty string (a symbolic tensor inside ``tf.function``, not yet placed) is the
    default device: ``"gpu:0"`` where a GPU is visible, else ``"cpu"``.
    """
    try:
        return _HD_DEVICE_OF[tf_device]
    except KeyError:
        pass
    match = _TF_DEVICE_RE.search(tf_device)
    if match is None:
        out = "gpu:0" if tf.config.list_logical_devices("GPU") else "cpu"
    else:
        out = device_string(match.group(1).lower(), int(match.group(2)))
    _HD_DEVICE_OF[tf_device] = out
    return out


def on_device(device: Any) -> Any:
    """A context placing new tensors on ``device`` (a no-op context for None)."""
    if device is None:
        return contextlib.nullcontext()
    return tf.device(native_device(device))


# ---- cheap checks of the values of eager tensors -------------------------------------------------

#: the class of eager (concrete) tensors, whose values can be read without running ops
_EAGER = EagerTensor


def may_hold_nan(x: Any) -> bool:
    """Whether ``x`` (a real floating tensor) may hold a NaN.

    Exact for an eager tensor on the CPU: its buffer is read in place through NumPy, and its
    maximum is NaN exactly where some element is (NumPy's maximum propagates NaN; ``x . x``,
    as fast, overflowed to inf for large finite values with NumPy's warning): about 1-2 us,
    where TF's ``is_nan`` and ``reduce_any`` and a host read cost ~20 us. True for symbolic
    tensors (inside ``tf.function``) and other devices, where the caller's NaN-aware path stays
    in the graph.
    """
    if type(x) is _EAGER and x._datatype_enum() in _NUMPY_FLOAT_ENUMS and x.device.endswith("CPU:0"):
        flat = x._numpy()  # (numpy() would copy)
        if flat.ndim != 1:
            flat = flat.reshape(-1)
        return flat.size != 0 and math.isnan(_maximum(flat))
    return True


_NUMPY_FLOAT_ENUMS = frozenset(d.as_datatype_enum for d in (tf.float16, tf.float32, tf.float64))
_maximum = np.maximum.reduce


def all_finite(x: Any) -> bool:
    """Whether ``x`` is known to hold only finite numbers: exact for an eager float16/32/64 tensor on
    the CPU (read in place, ~2 us; not by ``x . x``, which can overflow, with NumPy's warning); False
    for anything else, where the caller keeps its NaN- and inf-aware ops."""
    if type(x) is _EAGER and x._datatype_enum() in _NUMPY_FLOAT_ENUMS and x.device.endswith("CPU:0"):
        return bool(_isfinite(x._numpy()).all())
    return False


_isfinite = np.isfinite


def host_values(x: Any) -> np.ndarray | None:
    """The values of an eager CPU tensor as a NumPy array read in place (no op, no copy); else None.

    For cheap value checks that decide whether a shim's extra ops can change the answer
    (``None``: a symbolic tensor inside ``tf.function``, or another device, where they always run).
    """
    if type(x) is _EAGER and x.device.endswith("CPU:0"):
        return x._numpy()  # (numpy() would copy)
    return None


def host_extreme(values: np.ndarray, largest: bool) -> Any:
    """The largest (or smallest) of the non-empty integer array ``values``: through Python lists for
    small arrays, where NumPy's reduction costs ~1-2 us against ~0.2 us."""
    if values.size <= 64:
        flat = values.ravel().tolist()
        return max(flat) if largest else min(flat)
    return values.max() if largest else values.min()


def may_be_negative(x: Any) -> bool:
    """Whether the integer tensor ``x`` may hold a negative value (exact for eager CPU tensors)."""
    values = host_values(x)
    return values is None or (
        values.size > 0 and values.dtype.kind == "i" and host_extreme(values, False) < 0
    )


_INTEGER_ENUMS = frozenset(d.as_datatype_enum for d in INTEGER.dtypes)


def check_index_dtype(fname: str, argname: str, indices: Any) -> None:
    """``_common.check_integer_indices`` with its common case (an eager integer tensor) read from
    the dtype number (~0.1 us; the general check converts the dtype, ~1 us)."""
    try:
        if indices._datatype_enum() in _INTEGER_ENUMS:
            return
    except AttributeError:
        pass
    check_integer_indices(fname, argname, indices)


_SMALL_CONSTANTS: dict[tuple, tf.Tensor] = {}
_SMALL_CONSTANTS_SIZE = 256


def small_constant(value: float, dtype: tf.DType) -> tf.Tensor:
    """The Python int or float ``value`` (0, 1, an axis, a tolerance, inf) as a cached eager 0-d
    tensor of ``dtype``, on the host: a nonzero float rounded as ``tf.constant(value, dtype)`` rounds
    it (through float32 for float16, unlike NumPy), an int or a zero through NumPy (which also makes
    0 and 1 bools).

    For the operands of eager ops that TF's Python makes anew on each call (``tf.one_hot``'s on and
    off values, ``tf.zeros``' value, isclose's tolerances): only where the op runs eagerly. A
    float's key holds its sign, so that -0.0 does not find 0.0's entry.
    """
    key = (id(dtype), value, math.copysign(1.0, value)) if type(value) is float else (id(dtype), value)
    found = _SMALL_CONSTANTS.get(key)
    if found is None:
        with tf.device("/CPU:0"):
            if type(value) is float and value:  # (a zero through NumPy: TF's scalar cache mixes 0.0, -0.0)
                found = tf.constant(value, dtype)
            else:
                found = tf.constant(np.array(value, dtype.as_numpy_dtype))
        if len(_SMALL_CONSTANTS) < _SMALL_CONSTANTS_SIZE:
            _SMALL_CONSTANTS[key] = found
    return found


def check_int_operand(value: int, other: Any, fname: str, argname: str) -> None:
    """Raise InvalidArgumentError for a Python int operand outside uint64's range against a uint64
    tensor ``other``, which TF cannot convert safely.

    TF's conversion of such an int to uint64 wraps it and leaves Python's OverflowError set; TF's
    scalar cache then aborts the process (``Check failed: !PyErr_Occurred()``) where the int's
    hash meets another cached int, or the op answers with the wrapped value. Every other int TF
    converts or refuses with an error of its own."""
    if 0 <= value < _UINT64_END or getattr(other, "dtype", None) is not tf.uint64:
        return
    raise InvalidArgumentError(
        f"{fname}: {argname}={value} does not fit the other operand's dtype (uint64); "
        "cast it, or the array, first"
    )


_UINT64_END = 2**64


def nonzero_mask(x: Any) -> Any:
    """``x != 0`` as a bool tensor of ``x``'s shape (``x`` itself where it is bool; NaN is non-zero,
    -0.0 is zero): one op, against a cached host zero for an eager tensor, where
    ``tf.zeros((), dtype)`` converts its Python shape on TF's slow path (~70 us a call)."""
    if x.dtype is tf.bool:
        return x
    zero = small_constant(0, x.dtype) if type(x) is EagerTensor else tf.zeros((), x.dtype)
    return gen_math_ops.not_equal(x, zero)


#: int32's DType number, the dtype of most shape and axis operands (shape_operand's ``enum``)
INT32_ENUM = tf.int32.as_datatype_enum

_SHAPE_OPERANDS: dict[tuple, tf.Tensor] = {}
_SHAPE_CACHE_SIZE = 256


def shape_operand(shape: Any, enum: int, minimum: int = 0) -> Any:
    """``shape`` (a tuple or list of exact ints >= ``minimum``: -1 for reshape's inferred size) as an
    op's shape operand: a cached eager tensor of the dtype numbered ``enum``, on the host (where TF
    keeps shape operands); anything else (made inside ``tf.function``, say) is ``shape`` itself, for
    the op to convert or refuse.

    TF's generated op functions convert a Python shape on their slow path (the fast path fails on the
    op's index-type attribute): ``tf.broadcast_to(x, (1000,))`` ~40-60 us, with a tensor ~9 us;
    ``tf.scatter_nd`` with int64 indices ~45 us more (shared 2-core machine). The values are the same.
    """
    kind = type(shape)
    if kind is not tuple and kind is not list:
        return shape
    for d in shape:  # (exact ints only: 3.0 and True would find 3's and 1's entries)
        if type(d) is not int:
            return shape
    key = (enum, *shape)
    found = _SHAPE_OPERANDS.get(key)
    if found is None:
        if min(shape, default=0) < minimum or not tf.executing_eagerly():
            return shape
        try:
            with tf.device("/CPU:0"):
                found = tf.constant(np.array(shape, tf.dtypes.as_dtype(enum).as_numpy_dtype))
        except (TypeError, ValueError, OverflowError):
            return shape  # (TF's own conversion names the problem)
        if len(_SHAPE_OPERANDS) < _SHAPE_CACHE_SIZE:
            _SHAPE_OPERANDS[key] = found
    return found
