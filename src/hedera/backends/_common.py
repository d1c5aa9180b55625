"""Pieces every backend shares: device spelling, axis normalisation, the inspection API.

Framework-free: each backend passes in what differs.
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import dtypes as _hd_dtypes
from ..errors import (
    ArgumentTypeError,
    DtypeError,
    InvalidArgumentError,
    InvalidAxisError,
    NotAnArrayError,
    ShapeError,
)

_KIND_OF_DEVICE = {"cpu": "cpu", "gpu": "gpu", "cuda": "gpu", "tpu": "tpu", "mps": "gpu"}


def parse_device(device: str, argname: str = "device") -> tuple[str, int]:
    """Split a hedera device string into ``(kind, index)``.

    ``"gpu:1"`` -> ``("gpu", 1)``, ``"cpu"`` -> ``("cpu", 0)``.

    ``"cuda"`` is accepted as a spelling of ``"gpu"``.

    Raises
    ------
    InvalidArgumentError
        For anything else, naming ``argname``.
    """
    kind, _, index = device.lower().partition(":")
    if kind not in _KIND_OF_DEVICE or (index and not index.isdigit()):
        raise InvalidArgumentError(
            f"{argname}: expected a device such as 'cpu', 'gpu' or 'gpu:0', got {device!r}"
        )
    return _KIND_OF_DEVICE[kind], int(index or 0)


def wrong_device_kind(device: Any, argname: str = "device") -> ArgumentTypeError:
    """The error for a ``device`` that is neither a device string nor the framework's device object
    (an int, say: the same error on every backend, where torch alone would read a CUDA ordinal)."""
    return ArgumentTypeError(
        f"{argname}: expected a device such as 'cpu', 'gpu' or 'gpu:0' (or the framework's device "
        f"object), got {type(device).__name__} {device!r}"
    )


def device_string(kind: str, index: int) -> str:
    """hedera's spelling of a device: ``"cpu"``, or ``"gpu:0"``/``"tpu:0"`` with the index."""
    return "cpu" if kind == "cpu" else f"{kind}:{index}"


def normalize_axis(axis: int, ndim: int, argname: str = "axis") -> int:
    """``axis`` as a non-negative index into ``ndim`` dimensions.

    Raises
    ------
    InvalidAxisError
        If ``axis`` is outside ``[-ndim, ndim)``.
    """
    if not -ndim <= axis < max(ndim, 1):
        raise InvalidAxisError(
            f"{argname}={axis} is out of range for an array of {ndim} dimensions; "
            f"expected an integer in [{-ndim}, {max(ndim, 1) - 1}]"
        )
    return axis % max(ndim, 1)


def normalize_axes(axis: int | Sequence[int] | None, ndim: int, argname: str = "axis") -> tuple[int, ...]:
    """``axis`` (an int, a sequence of ints, or None for all) as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        return (normalize_axis(axis, ndim, argname),)
    out = tuple(sorted(normalize_axis(a, ndim, argname) for a in axis))
    if len(set(out)) != len(out):
        raise InvalidAxisError(f"{argname}={tuple(axis)} repeats an axis")
    return out


_STANDARD_DTYPES = tuple(d for d in _hd_dtypes.all_dtypes if d.name not in ("float16", "bfloat16"))
_KIND_MEMBERS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
    "numeric": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128"),
}  # fmt: skip


class NamespaceInfo:
    """The standard's inspection API (``xp.__array_namespace_info__()``), shared by every backend.

    Parameters
    ----------
    native_dtypes : dict
        Standard dtype name -> the framework's dtype object, for the dtypes it has.
    default_dtypes : dict
        ``{"real floating": ..., "complex floating": ..., "integral": ..., "indexing": ...}``.
    devices : callable
        Returns the framework's devices, in its native form.
    default_device : callable
        Returns the default device.
    capabilities : dict
        ``{"boolean indexing": bool, "data-dependent shapes": bool, "max dimensions": int | None}``.
    """

    def __init__(
        self,
        native_dtypes: dict[str, Any],
        default_dtypes: dict[str, Any],
        devices: Callable[[], list[Any]],
        default_device: Callable[[], Any],
        capabilities: dict[str, Any],
    ) -> None:
        self._native = native_dtypes
        self._defaults = default_dtypes
        self._devices = devices
        self._default_device = default_device
        self._capabilities = capabilities

    def capabilities(self) -> dict[str, Any]:
        return dict(self._capabilities)

    def default_device(self) -> Any:
        return self._default_device()

    def devices(self) -> list[Any]:
        return list(self._devices())

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        return dict(self._defaults)

    def dtypes(self, *, device: Any = None, kind: str | tuple[str, ...] | None = None) -> dict[str, Any]:
        if kind is None:
            names = [d.name for d in _STANDARD_DTYPES]
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            names = []
            for k in kinds:
                if k not in _KIND_MEMBERS:
                    raise InvalidArgumentError(
                        f"kind: unknown dtype kind {k!r}; expected one of {sorted(_KIND_MEMBERS)}"
                    )
                names += [n for n in _KIND_MEMBERS[k] if n not in names]
        return {n: self._native[n] for n in names if n in self._native}


# ---- the standard's named-tuple results, shared so every backend returns the same classes ----

from typing import NamedTuple  # noqa: E402


class UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


class TopKResult(NamedTuple):
    values: Any
    indices: Any


PAD_MODES = ("constant", "reflect", "symmetric", "edge", "wrap")


def normalize_pad_width(pad_width: Any, ndim: int) -> tuple[tuple[int, int], ...]:
    """NumPy-style ``pad_width`` as one ``(before, after)`` pair per axis.

    ``pad_width`` is an int, a ``(before, after)`` pair, or one pair per axis.

    Raises
    ------
    InvalidArgumentError
        If ``pad_width`` has another form or a negative width.
    """
    kind = type(pad_width)
    if kind is int and pad_width >= 0:  # the common forms first, without the general parse
        return ((pad_width, pad_width),) * ndim
    if (kind is list or kind is tuple) and len(pad_width) == 2:
        before, after = pad_width
        if type(before) is int and type(after) is int and before >= 0 and after >= 0:
            return ((before, after),) * ndim
    if (kind is list or kind is tuple) and len(pad_width) == ndim:  # already one pair of ints per axis
        for p in pad_width:
            if type(p) is not tuple or len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int:
                break
            if p[0] < 0 or p[1] < 0:
                break
        else:
            return tuple(pad_width)
    try:
        if isinstance(pad_width, int):
            pairs = ((pad_width, pad_width),) * ndim
        else:
            items = [tuple(p) if isinstance(p, (tuple, list)) else p for p in pad_width]
            if len(items) == 2 and all(isinstance(p, int) for p in items):
                pairs = (tuple(items),) * ndim
            elif len(items) == 1 and isinstance(items[0], tuple):
                pairs = (items[0],) * ndim
            else:
                pairs = tuple(tuple(operator.index(v) for v in p) for p in items)  # (1.5: refused)
        if len(pairs) != ndim or any(len(p) != 2 or min(p) < 0 for p in pairs):
            raise ValueError
        return tuple((operator.index(a), operator.index(b)) for a, b in pairs)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"pad_width: expected an int, a (before, after) pair, or {ndim} such pairs of "
            f"non-negative ints, got {pad_width!r}"
        ) from None


def check_pad_mode(mode: str) -> None:
    if mode not in PAD_MODES:
        raise InvalidArgumentError(f"mode: unknown padding mode {mode!r}; expected one of {PAD_MODES}")


def check_index_update_op(op: str) -> None:
    if op not in ("set", "add", "multiply", "min", "max"):
        raise InvalidArgumentError(f"op: expected one of 'set', 'add', 'multiply', 'min', 'max', got {op!r}")


_INTEGER_KINDS = ("signed integer", "unsigned integer")


def check_fill_value(fname: str, value: Any, dtype: Any, argname: str = "fill_value") -> None:
    """Raise ``InvalidArgumentError`` if the Python int ``value`` does not fit the integer ``dtype``.

    Frameworks wrap it silently (``full(2, 300, dtype=uint8)`` is 44 on JAX and TF) or
    raise their own errors; anything but a Python int (or an int into a float dtype) passes.
    """
    if type(value) is not int or dtype is None:
        return
    try:
        bounds = _INTEGER_RANGES[dtype]
    except (KeyError, TypeError):  # (TypeError: an unhashable dtype-like)
        bounds = _integer_range(dtype)
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        low, high, name = bounds
        raise InvalidArgumentError(f"{fname}: {argname} {value} does not fit {name} ([{low}, {high}])")


#: native or hedera dtype -> (low, high, name) of an integer dtype, None for the others
_INTEGER_RANGES: dict[Any, tuple[int, int, str] | None] = {}


def _integer_range(dtype: Any) -> tuple[int, int, str] | None:
    d = _hd_dtypes.as_hedera_dtype(dtype)  # (~0.7 us: memoised)
    if d.kind not in _INTEGER_KINDS:
        bounds = None
    elif d.kind == "signed integer":
        bounds = (-(2 ** (d.bits - 1)), 2 ** (d.bits - 1) - 1, d.name)
    else:
        bounds = (0, 2**d.bits - 1, d.name)
    try:
        _INTEGER_RANGES[dtype] = bounds
    except TypeError:
        pass
    return bounds


def exact_axes(value: Any) -> bool:
    """Whether ``value`` is an exact ``int`` or a ``tuple`` of exact ints: the common values of
    the "axes" kind (``roll``'s shift and axis), which its check (``check_kinds``) passes as
    they are, so a backend may skip it for them."""
    cls = value.__class__
    if cls is int:
        return True
    if cls is not tuple:
        return False
    for d in value:
        if d.__class__ is not int:
            return False
    return True


def check_integer_indices(fname: str, argname: str, indices: Any) -> None:
    """Raise ``DtypeError`` unless the array ``indices`` has an integer dtype.

    Frameworks cast float (and boolean) index arrays to integers silently (``torch``,
    ``tf.gather``), which truncates ``0.7`` to ``0``; hedera refuses them on every backend.
    Python ints and other non-arrays pass unchecked (the backend reads them).
    """
    dtype = getattr(indices, "dtype", None)
    if dtype is None:
        return
    d = _hd_dtypes.as_hedera_dtype(dtype)
    if d.kind not in _INTEGER_KINDS:
        raise DtypeError(f"{fname}: {argname} must have an integer dtype, got {d.name}")


def check_nested_numbers(obj: Any, qualname: str = "asarray", argname: str = "obj") -> None:
    """Raise hedera's error for what keeps ``obj`` from being an array of numbers, where ``obj`` is
    ``asarray``'s object: ShapeError for a ragged nesting of lists or tuples (``[[1], [2, 3]]``), or
    NotAnArrayError for an item that is neither a number nor an array (None, a str, a dict), named by
    its place (``obj[1][0]``); return where neither is found. The frameworks fail there with errors
    of their own, of different classes, or answer (NumPy and TensorFlow make a str an array of
    strings, which hedera has no dtype for)."""
    _nested_shape(obj, argname, qualname)


def _nested_shape(node: Any, place: str, qualname: str) -> tuple[int, ...]:
    """The shape of ``node`` as an array (for :func:`check_nested_numbers`), or its error."""
    if isinstance(node, (list, tuple)):
        shapes = [_nested_shape(item, f"{place}[{i}]", qualname) for i, item in enumerate(node)]
        for i, shape in enumerate(shapes[1:], 1):
            if shape != shapes[0]:
                raise ShapeError(
                    f"{qualname}: {place} is a ragged nested sequence: {place}[0] has shape {shapes[0]} "
                    f"and {place}[{i}] has shape {shape}; expected items of one shape"
                )
        return (len(node), *(shapes[0] if shapes else ()))
    if isinstance(node, (bool, int, float, complex)) or (hasattr(node, "shape") and hasattr(node, "dtype")):
        return tuple(getattr(node, "shape", ()))
    if isinstance(node, (str, dict, set)) or node is None or not _array_like(node):
        raise NotAnArrayError(
            f"{qualname}: {place} must be a number, an array or a nested list or tuple of them, "
            f"got {type(node).__name__}"
        )
    return ()  # (a buffer or an object with __array__: the framework reads it)


def _array_like(obj: Any) -> bool:
    """Whether a framework may read ``obj`` as an array or a number (a buffer, a NumPy-like)."""
    return isinstance(obj, (bytes, bytearray, memoryview)) or any(hasattr(obj, name) for name in _ARRAY_LIKE)


_ARRAY_LIKE = ("__array__", "__array_interface__", "__dlpack__", "__index__", "__float__", "__complex__")


def repeat_axis_of_0d(axis: int) -> None:
    """``repeat``'s ``axis`` for a 0-d ``x``: None, for axis 0 (which :func:`normalize_axis` allows
    a 0-d array), so that it is repeated as with ``axis=None``; hedera's InvalidAxisError for any
    other axis. The frameworks differ there: NumPy answers for 0 and -1, jnp.repeat with an int
    count for any axis, torch and TensorFlow raise their own errors."""
    normalize_axis(axis, 0)


def check_repeat_counts(counts: Any, size: int) -> None:
    """Raise hedera's error unless ``counts`` (a NumPy array of ``repeat``'s counts, read on the host)
    holds one non-negative count for each of the ``size`` elements along the axis, or one for all.

    Frameworks refuse them with their own errors (NumPy, torch) or answer (JAX, TensorFlow: a
    negative count as 0)."""
    if counts.ndim > 1 or counts.size not in (1, size):
        raise ShapeError(
            f"repeat: repeats must hold 1 or {size} counts (x's size along axis), got shape {counts.shape}"
        )
    if counts.size and counts.min() < 0:
        raise InvalidArgumentError(f"repeat: repeats must be >= 0, got {counts.min()}")


# ---- finfo / iinfo: the standard's objects, with Python scalar fields ---------------------------


@dataclass(frozen=True)
class FInfo:
    """The standard's ``finfo`` object: Python ``float`` limits and ``int`` bits.

    For a complex dtype the limits are those of its real and imaginary parts, and
    ``dtype`` is the real dtype of that precision.
    """

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Any


@dataclass(frozen=True)
class IInfo:
    """The standard's ``iinfo`` object: Python ``int`` fields."""

    bits: int
    max: int
    min: int
    dtype: Any


def finfo_of(info: Any) -> FInfo:
    """An :class:`FInfo` from a NumPy-style finfo (``np.finfo``, ``jnp.finfo``: NumPy scalar fields)."""
    return FInfo(
        int(info.bits),
        float(info.eps),
        float(info.max),
        float(info.min),
        float(info.smallest_normal),
        info.dtype,
    )


def iinfo_of(info: Any) -> IInfo:
    """An :class:`IInfo` from a NumPy-style iinfo (``np.iinfo``, ``jnp.iinfo``)."""
    return IInfo(int(info.bits), int(info.max), int(info.min), info.dtype)


# ---- can_cast / finfo / iinfo: answers memoised by argument ----------------------------------
#
# The dtype lattice and the limits never change, so a backend answers each argument once. The
# fronts are one closure each (a cell read costs what a module global does), built here for every
# backend that passes how it reads an argument's dtype and how it computes an answer.


def memoized_can_cast(arrays: tuple[type, ...] | Callable[[Any], Any]) -> Callable[[Any, Any], bool]:
    """A backend's ``can_cast(from_, to, /)``: :func:`hedera.dtypes.can_cast`, memoised by argument
    (hedera dtypes by name: their hash runs in Python; others as they are). An array stands for
    its dtype: ``arrays`` is the backend's array types, or a function from an argument to its
    dtype (duck-typed arrays: JAX's tracers). An unhashable argument is answered (and rejected)
    without the cache."""
    answers: dict = {}
    answer = _hd_dtypes.can_cast
    hedera_dtype = _hd_dtypes.DType
    dtype_of = _dtype_reader(arrays)

    def can_cast(from_: Any, to: Any, /) -> bool:
        from_ = dtype_of(from_)
        key = (
            from_.name if type(from_) is hedera_dtype else from_,
            to.name if type(to) is hedera_dtype else to,
        )
        try:
            return answers[key]
        except KeyError:
            out = answers[key] = answer(from_, to)
            return out
        except TypeError:
            return answer(from_, to)

    def can_cast_of_types(from_: Any, to: Any, /) -> bool:  # the same, the array test inline
        if isinstance(from_, arrays):
            from_ = from_.dtype
        key = (
            from_.name if type(from_) is hedera_dtype else from_,
            to.name if type(to) is hedera_dtype else to,
        )
        try:
            return answers[key]
        except KeyError:
            out = answers[key] = answer(from_, to)
            return out
        except TypeError:
            return answer(from_, to)

    return _named(can_cast_of_types if isinstance(arrays, tuple) else can_cast, "can_cast")


def memoized_info(
    name: str, arrays: tuple[type, ...] | Callable[[Any], Any], compute: Callable[[Any], Any]
) -> Callable[[Any], Any]:
    """A backend's ``finfo(type, /)`` or ``iinfo(type, /)`` (``name``): ``compute(dtype)``,
    memoised by that dtype (a hedera dtype by name), an array standing for its dtype as in
    :func:`memoized_can_cast`. ``compute`` raises for a dtype of the wrong kind (nothing is
    cached then); an unhashable argument is computed without the cache."""
    answers: dict = {}
    hedera_dtype = _hd_dtypes.DType
    dtype_of = _dtype_reader(arrays)

    def info(type: Any, /) -> Any:
        dtype = dtype_of(type)
        key = dtype.name if dtype.__class__ is hedera_dtype else dtype
        try:
            return answers[key]
        except KeyError:
            out = answers[key] = compute(dtype)
            return out
        except TypeError:
            return compute(dtype)

    def info_of_types(type: Any, /) -> Any:  # the same, the array test inline
        dtype = type.dtype if isinstance(type, arrays) else type
        key = dtype.name if dtype.__class__ is hedera_dtype else dtype
        try:
            return answers[key]
        except KeyError:
            out = answers[key] = compute(dtype)
            return out
        except TypeError:
            return compute(dtype)

    return _named(info_of_types if isinstance(arrays, tuple) else info, name)


def _dtype_reader(arrays: tuple[type, ...] | Callable[[Any], Any]) -> Callable[[Any], Any]:
    if isinstance(arrays, tuple):
        return lambda value: value.dtype if isinstance(value, arrays) else value
    return arrays


def _named(f: Callable, name: str) -> Callable:
    f.__name__ = f.__qualname__ = name
    return f


#: the most arguments the C front forwards to a native common case (MAX_FORWARDED in _fastfront.c)
MAX_FORWARDED = 16


@dataclass(frozen=True)
class KeywordTranslation:
    """How the C front passes a keyword of a native common case on to the native, off its default.

    A value identical to a key of ``values`` reaches the native as that key's value (``hd.float32``
    as ``torch.float32``: compared by identity, so a hedera dtype costs no ``__eq__``), a value
    whose exact type is one of ``as_is`` as it is (a ``torch.dtype``); any other value sends the
    call to the shim. The shim's promise covers every translated value: given the translation,
    its answer is the native's.
    """

    values: Mapping[Any, Any]
    as_is: tuple[type, ...] = ()

    def entry(self, default: Any) -> tuple[Any, tuple[Any, ...], tuple[type, ...]]:
        """The spec's entry for this keyword (hedera/_fastfront.c, translated_keyword)."""
        pairs = tuple(item for pair in self.values.items() for item in pair)
        return (default, pairs, tuple(self.as_is))


def native_common_case(
    native: Callable[..., Any],
    nargs: int | tuple[int, int],
    dtypes: Sequence[Any] | None = None,
    forwarded: Sequence[str] = (),
    same_shape: bool = False,
    arg_types: Sequence[Sequence[type]] | None = None,
    translated: Mapping[str, KeywordTranslation] | None = None,
    leading: Sequence[Any] | None = None,
    one_type: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a conformance shim with its common case, which the C front then calls directly.

    The shim promises that its answer is ``native``'s for every call with
    ``nargs`` positional arguments (a number, or a ``(least, most)`` range), whose other
    parameters are left at their defaults (omitted, or passed by keyword as the default itself:
    the same object, an equal int or str, an equal float of the same sign), except those named in
    ``forwarded``, which ``native`` takes by the same keyword with the same meaning, and those
    named in ``translated``, which ``native`` takes by the same keyword as the
    :class:`KeywordTranslation` translates them, and whose array arguments (the front's, all of
    one type) share a ``.dtype`` that is one of the objects ``dtypes`` (compared by identity;
    ``None``: no condition), and, with ``same_shape`` (which needs ``dtypes``), equal ``.shape``s;
    for a function without array arguments (a creation function: ``arg_types`` instead of
    ``dtypes``), whose leading positional arguments are each of one of the types of their item
    of ``arg_types`` (exactly: ``zeros(3)``, not ``zeros((3,))``). With ``leading`` (dtypes too),
    the first array's dtype is one of ``leading`` and only the others share one of ``dtypes``
    (``where``'s bool condition and its operands). With ``one_type`` (no ``dtypes``), the array
    arguments are of one type, whatever their dtypes: two TensorFlow tensors, not a tensor and a
    Python scalar, which the native would convert itself. ``native`` gets the positional
    arguments and the forwarded and translated keywords.

    The C front (hedera/_fastfront.c) then calls ``native`` itself and skips the shim's Python
    frame (calling a Python function from C costs 60-80 ns more than calling a builtin); the
    Python fronts, torch.compile and the backend namespace still call the shim. Where ``native``
    raises an ``Exception``, the C front calls the shim, whose answer or error stands: the promise
    covers the answers ``native`` returns (a shim may leave the cases it must fix to native's
    error). tests/backends/test_native_common_case.py checks each promise.
    """
    least, most = (nargs, nargs) if isinstance(nargs, int) else nargs
    translated = dict(translated or {})
    assert dtypes is not None or not same_shape, "the C front compares shapes where it compares dtypes"
    assert dtypes is None or arg_types is None, "dtypes of array arguments, or types of leading arguments"
    assert arg_types is None or 1 <= len(arg_types) <= least, "types of arguments every such call has"
    assert most <= MAX_FORWARDED, "the C front ignores a spec of more arguments than it forwards"
    assert leading is None or (dtypes is not None and not same_shape), "leading: the first array's dtypes"
    assert not one_type or (dtypes is None and arg_types is None and not same_shape), "one_type: no dtypes"

    def mark(shim: Callable[..., Any]) -> Callable[..., Any]:
        # (only parameters no positional argument of such a call can fill: f(x, 0, axis=0) must fail)
        params = list(inspect.signature(shim).parameters.values())
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        later = positional[most:] + [p for p in params if p.kind is p.KEYWORD_ONLY]
        byname = [p for p in later if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        keywords: dict[str, Any] = {p.name: p.default for p in byname if p.default is not p.empty}
        assert set(forwarded) | set(translated) <= {p.name for p in byname}, (shim, forwarded, translated)
        assert not any(type(v) is tuple for v in keywords.values()), "a tuple entry is a translation"
        keywords.update(dict.fromkeys(forwarded, ...))
        keywords.update({name: t.entry(keywords[name]) for name, t in translated.items()})
        if arg_types is not None:
            condition: Any = tuple(tuple(types) for types in arg_types)
        elif one_type:
            condition = ...
        elif leading is not None:
            condition = (tuple(leading), tuple(dtypes))  # type: ignore[arg-type]
        else:
            condition = None if dtypes is None else tuple(dtypes)
        spec = (native, least, most, condition, keywords) + ((True,) if same_shape else ())
        shim.__hedera_native__ = spec  # type: ignore[attr-defined]
        return shim

    return mark
