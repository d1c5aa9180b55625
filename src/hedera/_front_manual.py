"""Front functions whose dispatch is not "the backend of the array arguments".

* ``asarray`` converts between frameworks (``backend=``), through DLPack where it can.
* ``isdtype``, ``can_cast`` and ``result_type`` of dtypes alone are answered by
  hedera itself, from the standard's promotion lattice.
* ``finfo``/``iinfo`` take a dtype or an array.
* ``at`` is the functional indexed update, ``dtype`` reads an array's dtype.
"""

from __future__ import annotations

from typing import Any

from . import _dispatch
from . import dtypes as _dtypes
from ._dispatch import (
    backend_name_of_type,
    current_function,
    current_namespace,
    function_of,
    load_backend,
    resolve,
)
from ._error_path import diagnose as _diagnose
from ._fastpath import CURRENT, accelerate
from .dtypes import DType, as_hedera_dtype
from .errors import DtypeError, NotAnArrayError
from .typing import Array, DeviceLike, DTypeLike

__all__ = ["asarray", "at", "can_cast", "dtype", "finfo", "iinfo", "isdtype", "result_type"]


def _convert(obj: Array, source: str, target: str, copy: bool | None) -> Any:
    """``obj``, an array of backend ``source``, as an array of backend ``target``.

    Uses DLPack (zero-copy where the devices allow) and falls back to a copy
    through NumPy where the framework cannot export or import it (read-only
    NumPy arrays, say). Host memory into jax is handed on as a NumPy array (a view where
    it can be), which the caller's ``asarray`` brings in as ``jnp.asarray`` does: a copy on
    jax's default device, uncommitted unless ``device=`` is given, so free to join arrays on
    other devices. DLPack's import would commit it to the CPU; it is kept for ``copy=False``.
    """
    if target == "jax" and copy is not False and (source == "numpy" or _on_host(obj, source)):
        return obj if source == "numpy" else load_backend(source).to_numpy(obj)
    ns = load_backend(target)
    try:
        return ns.from_dlpack(obj)
    except Exception:
        return ns.asarray(load_backend(source).to_numpy(obj))


def _on_host(obj: Array, source: str) -> bool:
    try:
        return load_backend(source).device(obj) == "cpu"
    except Exception:  # no concrete placement (a symbolic tensor): the conversion decides
        return False


def asarray(
    obj: Any,
    /,
    *,
    dtype: DTypeLike | None = None,
    device: DeviceLike | None = None,
    copy: bool | None = None,
    backend: str | None = None,
) -> Array:
    """Convert ``obj`` to a native array.

    Parameters
    ----------
    obj : array, Python scalar, nested sequence, or buffer
        An array of any backend is converted to ``backend`` (DLPack where it can);
        anything else is built by the target backend.
    dtype, device, copy
        As in the Array API standard; ``dtype`` may be a hedera or a native dtype.
    backend : str, optional
        The backend of the result. Default: the backend of ``obj`` if it is an
        array, else the current backend (:func:`hedera.current_backend`).

    Examples
    --------
    >>> import hedera as hd
    >>> x = hd.asarray([1.0, 2.0], dtype=hd.float32, backend="numpy")
    >>> type(x).__name__, x.dtype == hd.float32
    ('ndarray', True)
    """
    source = backend_name_of_type(type(obj))
    if backend is None:
        ns = load_backend(source) if source else current_namespace()
        if not _dispatch._is_tracing():
            _remember_asarray(type(obj), source, ns)
    else:
        ns = load_backend(backend)
        if source is not None and source != backend:
            obj = _convert(obj, source, backend, copy)  # may share memory: copy=True still copies below
    try:
        return ns.asarray(obj, dtype=dtype, device=device, copy=copy)
    except Exception as e:
        _diagnose(e, "asarray", {"obj": obj, "dtype": dtype, "device": device, "copy": copy})
        raise


def _asarray_on_current(
    obj: Any, /, *, dtype: DTypeLike | None = None, device: DeviceLike | None = None, copy: bool | None = None
) -> Array:
    """``asarray`` of an object that is not an array, on the current backend: what ``asarray``'s
    C front calls for a list or a Python scalar, itself a C front keyed on the current backend, so
    that ``hd.asarray([1.0, 2.0])`` runs no Python frame of hedera's."""
    f = current_function(_asarray_by_backend, "asarray")
    try:
        return f(obj, dtype=dtype, device=device, copy=copy)
    except Exception as e:
        _diagnose(e, "asarray", {"obj": obj, "dtype": dtype, "device": device, "copy": copy})
        raise


#: the caches of asarray's C front: an array type -> its backend's asarray, and the type of an
#: object no backend owns (NOT_ARRAYS) -> _asarray_on_current; and of _asarray_on_current's: a
#: backend name -> its asarray
_asarray_by_type: dict = {}
_asarray_by_backend: dict = {}
#: the types of the objects asarray builds on the current backend that are never arrays
NOT_ARRAYS = (list, tuple, int, float, complex, bool)


def _remember_asarray(t: type, source: str | None, ns: Any) -> None:
    """Cache, for asarray's C front, what a call of ``asarray(obj)`` with ``type(obj) is t`` runs."""
    if source is not None:
        _asarray_by_type[t] = function_of(ns, "asarray")
    elif t in NOT_ARRAYS:
        _asarray_by_type[t] = _asarray_on_current


_asarray_on_current = accelerate(_asarray_on_current, _asarray_by_backend, CURRENT, "asarray")
asarray = accelerate(asarray, _asarray_by_type, 1, "asarray", left_to_python=("backend",))


def dtype(x: Array, /) -> DType:
    """The hedera dtype of array ``x`` (``hd.dtype(torch.ones(2)) is hd.float32``)."""
    try:
        native = x.dtype
    except AttributeError:
        raise NotAnArrayError(f"x: expected an array, got {type(x).__name__}") from None
    return as_hedera_dtype(native, "x.dtype")


def _dtype_of(value: Any, argname: str) -> DType:
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return as_hedera_dtype(value.dtype, argname)
    return as_hedera_dtype(value, argname)


def isdtype(dtype: DTypeLike, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind``.

    ``kind`` is a dtype, a kind name (``"real floating"``, ``"integral"``, ...) or a tuple of those.
    """
    return _dtypes.isdtype(dtype, kind)


def can_cast(from_: DTypeLike | Array, to: DTypeLike, /) -> bool:
    """Whether the standard's promotion rules allow casting ``from_`` (a dtype or array) to ``to``."""
    if type(from_) is DType and type(to) is DType:  # two hedera dtypes: each pair answered once
        key = (from_.name, to.name)  # (names: a DType's own hash runs in Python)
        try:
            return _CAN_CAST[key]
        except KeyError:
            out = _CAN_CAST[key] = _dtypes.can_cast(from_, to)
            return out
    return _dtypes.can_cast(_dtype_of(from_, "from_"), to)


#: (from_ name, to name) -> can_cast's answer, for hedera dtypes (the lattice never changes)
_CAN_CAST: dict[tuple[str, str], bool] = {}


def result_type(*arrays_and_dtypes: Any) -> DTypeLike:
    """The dtype the standard's promotion rules give for these arrays, dtypes and Python scalars.

    With an array or a native dtype among the arguments the answer is that
    backend's native dtype; with hedera dtypes alone it is a hedera dtype.
    """
    arrays = [a for a in arrays_and_dtypes if backend_name_of_type(type(a)) is not None]
    if arrays:
        # arrays decide the backend before native dtypes do: the jax backend's dtypes are NumPy's
        arrays = [a for a in arrays if hasattr(a, "shape") and hasattr(a, "dtype")] or arrays
        ns = resolve("result_type", (tuple(arrays),), ("arrays_and_dtypes",))
        return ns.result_type(*arrays_and_dtypes)
    result: DType | None = None
    scalars = []
    for item in arrays_and_dtypes:
        if isinstance(item, (bool, int, float, complex)):
            scalars.append(item)
            continue
        d = as_hedera_dtype(item, "arrays_and_dtypes")
        result = d if result is None else _dtypes.promote_types(result, d)
    if result is None:
        raise DtypeError("result_type: expected at least one array or dtype")
    for s in scalars:
        result = _promote_scalar(result, s)
    return result


def _promote_scalar(d: DType, s: bool | int | float | complex) -> DType:
    if isinstance(s, bool) or d.kind == "complex floating":
        return d
    if isinstance(s, int):
        return d
    if isinstance(s, float):
        return d if d.kind in ("real floating", "complex floating") else _dtypes.float64
    return _dtypes.complex128 if d is _dtypes.float64 else _dtypes.complex64


def _info(kind: str, type: Any) -> Any:
    name = backend_name_of_type(type.__class__) if not isinstance(type, DType) else None
    if hasattr(type, "shape") and hasattr(type, "dtype"):
        ns = load_backend(name) if name else current_namespace()
    elif name is not None and name != "numpy":
        ns = load_backend(name)  # a native dtype object of that framework
    else:
        ns = current_namespace()
    return getattr(ns, kind)(type)


def finfo(type: DTypeLike | Array, /) -> Any:
    """Machine limits of a floating-point dtype (or of an array's dtype), as the standard's ``finfo``."""
    return _info("finfo", type)


def iinfo(type: DTypeLike | Array, /) -> Any:
    """Machine limits of an integer dtype (or of an array's dtype), as the standard's ``iinfo``."""
    return _info("iinfo", type)


class _IndexUpdate:
    __slots__ = ("_index", "_x")

    def __init__(self, x: Array, index: Any) -> None:
        self._x, self._index = x, index

    def _apply(self, values: Any, op: str) -> Array:
        ns = resolve("at", (self._x, values), ("x", "values"))
        try:
            return ns.index_update(self._x, self._index, values, op=op)
        except Exception as e:
            _diagnose(e, "at", {"x": self._x, "index": self._index, "values": values, "namespace": ns})
            raise

    def get(self) -> Array:
        """``x[index]``."""
        ns = resolve("at", (self._x,), ("x",))
        try:
            return ns.index_get(self._x, self._index)
        except Exception as e:
            _diagnose(e, "at", {"x": self._x, "index": self._index, "namespace": ns})
            raise

    def set(self, values: Any) -> Array:
        """A copy of ``x`` with ``x[index] = values``."""
        return self._apply(values, "set")

    def add(self, values: Any) -> Array:
        """A copy of ``x`` with ``values`` added at ``index``; repeated indices accumulate."""
        return self._apply(values, "add")

    def multiply(self, values: Any) -> Array:
        """A copy of ``x`` with ``x[index]`` multiplied by ``values``; repeated indices accumulate."""
        return self._apply(values, "multiply")

    def min(self, values: Any) -> Array:
        """A copy of ``x`` with ``x[index] = minimum(x[index], values)``."""
        return self._apply(values, "min")

    def max(self, values: Any) -> Array:
        """A copy of ``x`` with ``x[index] = maximum(x[index], values)``."""
        return self._apply(values, "max")


class at:  # noqa: N801 - lower-case, as the call site reads hd.at(x)[i].set(v)
    """Functional indexed update, the way JAX spells it: ``hd.at(x)[idx].set(v)``.

    ``idx`` is anything the standard allows in ``x[idx]``: integers, slices,
    ``...``, ``None``, integer arrays and boolean masks. The result is a new
    array; ``x`` is never modified. Gradients flow through ``x`` and ``values``.

    Examples
    --------
    >>> import hedera as hd
    >>> x = hd.zeros(4)
    >>> hd.to_numpy(hd.at(x)[1:3].set(5.0)).tolist()
    [0.0, 5.0, 5.0, 0.0]
    """

    __slots__ = ("_x",)

    def __init__(self, x: Array) -> None:
        self._x = x

    def __getitem__(self, index: Any) -> _IndexUpdate:
        return _IndexUpdate(self._x, index)
