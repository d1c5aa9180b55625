"""Backend-neutral dtypes.

``hd.float32`` and friends are :class:`DType` objects that compare equal to the
matching native dtype of every framework::

    torch.ones(2).dtype == hd.float32        # True
    hd.float32 == np.dtype("float32")        # True
    hd.dtype(tf.ones(2)) is hd.float32       # True

They carry a ``.dtype`` attribute holding the NumPy dtype, so NumPy, JAX and
TensorFlow accept them wherever they accept a dtype; hedera's backends accept
them everywhere (torch included).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._dispatch import _ROOT_TO_BACKEND, load_backend
from .errors import DtypeError, UnsupportedDtypeError

__all__ = [
    "DType",
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "all_dtypes",
    "as_hedera_dtype",
    "promote_types",
    "KINDS",
]

_builtin_bool = bool

KINDS = (
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric",
)


class DType:
    """A backend-neutral dtype.

    Attributes
    ----------
    name : str
        The standard's name (``"float32"``).
    kind : str
        One of ``"bool"``, ``"signed integer"``, ``"unsigned integer"``,
        ``"real floating"``, ``"complex floating"``.
    bits : int
        Width of one element in bits (``8`` for bool).
    dtype : numpy.dtype or None
        The NumPy dtype, where NumPy has one (``None`` for ``bfloat16``). Its
        presence is what lets NumPy, JAX and TensorFlow accept a hedera dtype
        directly.
    """

    __slots__ = ("bits", "dtype", "kind", "name")

    def __init__(self, name: str, kind: str, bits: int, numpy_name: str | None) -> None:
        self.name = name
        self.kind = kind
        self.bits = bits
        self.dtype = np.dtype(numpy_name) if numpy_name else None

    def __repr__(self) -> str:
        return f"hd.{self.name}"

    def __str__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        return hash(("hedera.dtype", self.name))

    def __eq__(self, other: object) -> _builtin_bool:
        if other is self:
            return True
        if isinstance(other, DType):
            return False
        return _native_name(other) == self.name

    def __ne__(self, other: object) -> _builtin_bool:
        return not self.__eq__(other)

    def __reduce__(self):  # pickles as a reference to the module-level singleton
        return (as_hedera_dtype, (self.name,))


bool = DType("bool", "bool", 8, "bool")
int8 = DType("int8", "signed integer", 8, "int8")
int16 = DType("int16", "signed integer", 16, "int16")
int32 = DType("int32", "signed integer", 32, "int32")
int64 = DType("int64", "signed integer", 64, "int64")
uint8 = DType("uint8", "unsigned integer", 8, "uint8")
uint16 = DType("uint16", "unsigned integer", 16, "uint16")
uint32 = DType("uint32", "unsigned integer", 32, "uint32")
uint64 = DType("uint64", "unsigned integer", 64, "uint64")
float16 = DType("float16", "real floating", 16, "float16")
bfloat16 = DType("bfloat16", "real floating", 16, None)
float32 = DType("float32", "real floating", 32, "float32")
float64 = DType("float64", "real floating", 64, "float64")
complex64 = DType("complex64", "complex floating", 64, "complex64")
complex128 = DType("complex128", "complex floating", 128, "complex128")

all_dtypes: tuple[DType, ...] = (
    bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float16, bfloat16, float32, float64, complex64, complex128,
)  # fmt: skip
_BY_NAME: dict[str, DType] = {d.name: d for d in all_dtypes}

# native dtype object -> the name of its hedera DType. Backends register their dtypes when they
# load; NumPy's are registered here since numpy is always present.
_NATIVE: dict[Any, str] = {}


def register_native(native: Any, hd_dtype: DType) -> None:
    """Record that the framework dtype object ``native`` means ``hd_dtype`` (called by backends)."""
    _NATIVE[native] = hd_dtype.name


for _d in all_dtypes:
    if _d.dtype is not None:
        register_native(_d.dtype, _d)
        register_native(_d.dtype.type, _d)


def _native_name(obj: Any) -> str | None:
    """The name of the hedera dtype for a native dtype object, or None. Never imports a framework."""
    if isinstance(obj, (int, float, complex)):
        # TensorFlow's DType objects hash and compare equal to their enum ints (tf.int16 == 5),
        # so without this a plain number would be taken for a registered TF dtype
        return None
    try:
        return _NATIVE[obj]
    except (KeyError, TypeError):
        pass
    # A framework dtype whose hedera backend has not been loaded yet: load it (the
    # framework is already imported, since one of its objects exists) and retry.
    root = type(obj).__module__.partition(".")[0]
    if root in ("torch", "tensorflow", "jax", "jaxlib", "ml_dtypes", "mxnet"):
        name = _ROOT_TO_BACKEND.get(root)
        if name is not None:
            try:
                load_backend(name)
            except Exception:
                return None
            try:
                return _NATIVE.get(obj)
            except TypeError:
                return None
    return None


# A constant to torch.compile (what torch.compiler.assume_constant_result sets): dynamo calls
# it at trace time instead of tracing the lookup in _NATIVE, whose keys (TensorFlow's C
# DType objects, say) it cannot hash. See docs/dispatch.md, "Compiled code". It returns a
# name, not the DType: dynamo stores a constant function's result under a global name of its
# own (a ConstantSource), and an *object* reached that way and also as ``hd.float32`` gets an
# aliasing guard naming that source, which torch 2.13 cannot evaluate ("Guard failed on the
# same frame it was created ... name 'sub_lookup_native' is not defined"); a str is a plain
# constant, and ``_BY_NAME[name]`` is traced.
_native_name._dynamo_marked_constant = True  # type: ignore[attr-defined]


def _lookup_native(obj: Any) -> DType | None:
    """The hedera dtype for a native dtype object, or None. Never imports a framework."""
    return _BY_NAME.get(_native_name(obj))  # type: ignore[arg-type]


def as_hedera_dtype(obj: Any, argname: str = "dtype") -> DType:
    """Convert a hedera dtype, a native dtype of any framework, or a dtype name to a :class:`DType`.

    Raises
    ------
    DtypeError
        If ``obj`` names no dtype hedera knows. The message names ``argname``.
    """
    if isinstance(obj, DType):
        return obj
    if isinstance(obj, str):
        try:
            return _BY_NAME[obj]
        except KeyError:
            raise DtypeError(
                f"{argname}: unknown dtype name {obj!r}; expected one of {sorted(_BY_NAME)}"
            ) from None
    found = _lookup_native(obj)
    if found is not None:
        return found
    if hasattr(obj, "dtype") and not isinstance(obj, type):
        found = _lookup_native(obj.dtype)
        if found is not None:
            return found
    raise DtypeError(f"{argname}: expected a dtype (hd.float32, a native dtype, or a name), got {obj!r}")


def unsupported(backend: str, dtype: Any) -> UnsupportedDtypeError:
    """The error a backend raises for a dtype its framework lacks."""
    name = getattr(dtype, "name", dtype)
    return UnsupportedDtypeError(
        f"dtype {name} is not supported by the {backend} backend; "
        f"see docs/backends.md for the capability table (hedera never converts it silently)"
    )


# ---- type promotion (the Array API standard's lattice) ---------------------------------

_SIGNED = (int8, int16, int32, int64)
_UNSIGNED = (uint8, uint16, uint32, uint64)
_REAL = (float16, float32, float64)
_COMPLEX = (complex64, complex128)


def _promote_int(a: DType, b: DType) -> DType | None:
    if a.kind == b.kind:
        return a if a.bits >= b.bits else b
    s, u = (a, b) if a.kind == "signed integer" else (b, a)
    for cand in _SIGNED:  # smallest signed type holding both
        if cand.bits > u.bits and cand.bits >= s.bits:
            return cand
    return None  # uint64 with any signed integer: not defined by the standard


def promote_types(a: Any, b: Any) -> DType:
    """The result dtype of combining arrays of dtypes ``a`` and ``b``, by the standard's rules.

    Mixed-kind pairs the standard leaves undefined (integer with floating point)
    promote to the floating type, as in JAX and PyTorch; ``uint64`` with a signed
    integer raises, as the standard gives no type for it.

    Raises
    ------
    DtypeError
        If the pair has no defined promotion (bool with a number, ``uint64`` with a signed integer).
    """
    a, b = as_hedera_dtype(a, "a"), as_hedera_dtype(b, "b")
    if a is b:
        return a
    ka, kb = _category(a), _category(b)
    if ka == kb == "int":
        out = _promote_int(a, b)
    elif ka == "bool" or kb == "bool":
        out = None
    elif ka == kb == "float":
        if a.kind == b.kind:
            if {a, b} == {float16, bfloat16}:
                out = float32
            else:
                out = a if a.bits >= b.bits else b
        else:
            c, r = (a, b) if a.kind == "complex floating" else (b, a)
            out = complex128 if (c is complex128 or r is float64) else complex64
    else:  # integer with floating point
        out = a if ka == "float" else b
    if out is None:
        raise DtypeError(f"no type promotion is defined between {a.name} and {b.name}")
    return out


def _category(d: DType) -> str:
    if d.kind == "bool":
        return "bool"
    if d.kind in ("signed integer", "unsigned integer"):
        return "int"
    return "float"


def isdtype(dtype: Any, kind: Any) -> _builtin_bool:
    """Whether ``dtype`` is of ``kind`` (a dtype, a kind name from :data:`KINDS`, or a tuple of them)."""
    d = as_hedera_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(d, k) for k in kind)
    if isinstance(kind, str):
        if kind == "integral":
            return d.kind in ("signed integer", "unsigned integer")
        if kind == "numeric":
            return d.kind != "bool"
        if kind not in KINDS:
            raise DtypeError(f"kind: unknown dtype kind {kind!r}; expected one of {KINDS}")
        return d.kind == kind
    return d == as_hedera_dtype(kind, "kind")


def can_cast(from_: Any, to: Any) -> _builtin_bool:
    """Whether the standard's promotion lattice allows casting ``from_`` to ``to``.

    True when promoting the two gives ``to``, within one kind family (booleans,
    integers, floating point). Casts across families (integer to float, say)
    are outside the lattice and answer False, as in the standard.
    """
    source, target = as_hedera_dtype(from_, "from_"), as_hedera_dtype(to, "to")
    if _category(source) != _category(target):
        return False
    try:
        return promote_types(source, target) is target
    except DtypeError:
        return False
