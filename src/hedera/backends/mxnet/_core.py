"""dtype and device conversions for the mxnet backend, its capability table, and the host path.

MXNet's NumPy-compatible arrays (``mxnet.numpy.ndarray``) have ``bool``, ``int8``,
``int32``, ``int64``, ``uint8``, ``float16``, ``float32`` and ``float64``. The
others (``int16``, ``uint16``/``uint32``/``uint64``, both complex dtypes, and
``bfloat16``) are unsupported: asking for one, or calling a function whose
standard result would have one (``int8 + uint8`` is ``int16``, ``fft.fft`` is
complex), raises :class:`hedera.errors.UnsupportedDtypeError`.

Importing this module turns on MXNet's NumPy shape semantics process-wide
(``mx.util.set_np_shape(2)``, "global on"): without it MXNet cannot create 0-d
or empty arrays.

The host path (:func:`host`): functions ``mxnet.numpy`` lacks or gets wrong
are computed exactly by hedera's numpy backend on a host copy and copied back
to the input's device. They are exact but not differentiable: under
``mx.autograd.record()`` they raise :class:`hedera.errors.UnsupportedError`
rather than silently cutting the gradient.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import mxnet as mx
import numpy as np

from ... import _api
from ... import dtypes as _hd
from ...errors import DtypeError, InvalidArgumentError, UnsupportedError
from .._common import parse_device
from ._capabilities import CAPABILITIES as CAPABILITIES  # re-exported: the capability table
from ._capabilities import DEFAULT_DTYPES as DEFAULT_DTYPES
from ._capabilities import LIMITATIONS as LIMITATIONS
from ._capabilities import SPECIAL_VALUE_FIXES as SPECIAL_VALUE_FIXES
from ._capabilities import UNSUPPORTED_DTYPES as UNSUPPORTED_DTYPES

BACKEND = "mxnet"

mx.util.set_np_shape(2)  # 2: global (every thread); 0-d and zero-size shapes are valid

# hedera dtype name -> the NumPy scalar type MXNet uses as its dtype object (x.dtype is np.float32)
MX_DTYPES: dict[str, Any] = {
    "bool": np.bool_, "int8": np.int8, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
}  # fmt: skip

# every spelling of a supported dtype -> MXNet's dtype object
_NATIVE_OF: dict[Any, Any] = {}
for _name, _native in MX_DTYPES.items():
    for _spelling in (_name, _native, np.dtype(_native), getattr(_hd, _name)):
        _NATIVE_OF[_spelling] = _native


def native_dtype(dtype: Any) -> Any:
    """MXNet's dtype object (a NumPy scalar type) for ``dtype``: a hedera, NumPy or MXNet dtype, or a name.

    ``None`` stays ``None``.

    Raises
    ------
    UnsupportedDtypeError
        For a dtype MXNet lacks (:data:`UNSUPPORTED_DTYPES`), in any spelling.
    DtypeError
        If ``dtype`` names no dtype.
    """
    if dtype is None:
        return None
    try:
        return _NATIVE_OF[dtype]
    except (KeyError, TypeError):
        pass
    if isinstance(dtype, (int, float, complex)):
        raise DtypeError(f"dtype: expected a dtype (hd.float32, a native dtype, or a name), got {dtype!r}")
    d = _hd.as_hedera_dtype(dtype)
    if d.name in MX_DTYPES:
        return MX_DTYPES[d.name]
    raise _hd.unsupported(BACKEND, d)


def check_numpy_dtype(a: np.ndarray) -> None:
    """Raise UnsupportedDtypeError if NumPy array ``a`` has a dtype MXNet lacks."""
    if a.dtype.name not in MX_DTYPES:
        raise _hd.unsupported(BACKEND, a.dtype)


def default_float() -> Any:
    return np.float32


# ---- devices ----------------------------------------------------------------------------------


def native_device(device: Any) -> mx.Context | None:
    """An ``mx.Context`` for ``device``: ``"cpu"``, ``"gpu:i"``, or an ``mx.Context``; None stays None."""
    if device is None:
        return None
    if isinstance(device, mx.Context):
        return device
    if not isinstance(device, str):
        raise InvalidArgumentError(f"device: expected 'cpu', 'gpu:i' or an mx.Context, got {device!r}")
    kind, index = parse_device(device)
    if kind == "cpu":
        return mx.cpu()
    if kind == "gpu":
        if index >= mx.context.num_gpus():
            raise UnsupportedError(
                f"device: {device!r} is not available (MXNet sees {mx.context.num_gpus()} GPUs)"
            )
        return mx.gpu(index)
    raise UnsupportedError(f"device: MXNet has no {kind!r} devices")


def device_string(ctx: mx.Context) -> str:
    return "cpu" if ctx.device_type.startswith("cpu") else f"gpu:{ctx.device_id}"


# ---- the host path ----------------------------------------------------------------------------


def from_numpy(a: Any, ctx: mx.Context | None = None) -> Any:
    """A NumPy array (or NumPy scalar) as an MXNet array on ``ctx``, keeping its dtype."""
    a = np.asarray(a)
    check_numpy_dtype(a)
    return mx.np.array(a, dtype=a.dtype, ctx=ctx)


def _to_host(value: Any, found: list) -> Any:
    if isinstance(value, mx.np.ndarray):
        found.append(value)
        return value.asnumpy()
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_to_host(v, found) for v in value)
    return value


def _from_host(value: Any, ctx: mx.Context | None) -> Any:
    if isinstance(value, (np.ndarray, np.generic)):
        return from_numpy(value, ctx)
    if isinstance(value, tuple):
        items = [_from_host(v, ctx) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [_from_host(v, ctx) for v in value]
    return value


def host(fn: Any, qualname: str | None = None) -> Any:
    """``fn`` (a numpy-backend function) as an mxnet-backend function computed on the host.

    MXNet array arguments are copied to NumPy, results copied back to the device
    of the first array argument, with their dtypes (a dtype MXNet lacks raises
    UnsupportedDtypeError). Not differentiable: raises UnsupportedError while
    ``mx.autograd`` records and a floating-point array is among the arguments (integer and
    boolean arrays carry no gradient, so they may take this path inside a differentiated function).
    """
    name = qualname or fn.__name__

    @functools.wraps(fn)
    def on_host(*args: Any, **kwargs: Any) -> Any:
        found: list = []
        hargs = _to_host(args, found)
        hkwargs = {k: _to_host(v, found) for k, v in kwargs.items()}
        if mx.autograd.is_recording() and any(a.dtype.kind == "f" for a in found):
            raise UnsupportedError(
                f"{name}: not differentiable on the mxnet backend for these arguments (hedera computes "
                f"it exactly on the host through NumPy), so it cannot run under mx.autograd.record() "
                f"with floating-point arrays; see docs/mxnet.md"
            )
        ctx = found[0].ctx if found else native_device(kwargs.get("device"))
        if "device" in hkwargs:
            hkwargs["device"] = None
        return _from_host(fn(*hargs, **hkwargs), ctx)

    on_host.__module__ = __name__.rpartition(".")[0]
    # (functools.wraps copied fn's __dict__: a native common case of the numpy backend's, which the
    # C front would call with MXNet arrays, skipping the copies to and from the host)
    on_host.__dict__.pop("__hedera_native__", None)
    signature = _table_signature(name)
    if signature is not None:  # the numpy backend may alias a ufunc (np.invert), which has none
        on_host.__signature__ = signature
    return on_host


def _table_signature(qualname: str) -> inspect.Signature | None:
    """The signature ``hedera._api`` gives ``qualname`` (without front-only parameters)."""
    row = _api.BY_QUALNAME.get(qualname)
    if row is None:
        return None
    scope: dict = {}
    exec(f"def f({row.params}): pass", scope)  # the table's own text, no user input
    sig = inspect.signature(scope["f"])
    return sig.replace(parameters=[p for p in sig.parameters.values() if p.name != "backend"])
