"""dtype and device conversions for the jax backend, and its constants.

JAX's array dtypes are NumPy dtype objects (``jnp.ones(2).dtype`` is
``np.dtype("float32")``), so this backend uses NumPy dtype objects as its native
dtypes, as ``jax.numpy.__array_namespace_info__().dtypes()`` does.

64-bit mode. JAX computes in 32 bits unless ``jax_enable_x64`` is on. hedera
never turns it on (that would change the user's program); instead an explicit
request for a 64-bit dtype while it is off raises
:class:`~hedera.errors.UnsupportedDtypeError` saying how to enable it, where
JAX would warn and silently truncate. Default dtypes follow the setting at call
time.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import config as _jax_config  # the fast, context-aware read of jax_enable_x64

from ... import dtypes as _hd
from ...errors import InvalidArgumentError, UnsupportedDtypeError, UnsupportedError
from .._common import KeywordTranslation, device_string, native_common_case, parse_device, wrong_device_kind

BACKEND = "jax"

#: hedera dtype names JAX lacks (none; the 64-bit ones need x64 mode, see :func:`native_dtype`)
UNSUPPORTED_DTYPES: tuple[str, ...] = ()

#: function name -> why it cannot be done exactly on this backend (it raises UnsupportedError)
LIMITATIONS: dict[str, str] = {}

_DEVICE_PLACEMENT_COST = (
    "with device= (the benchmark's draw: device='cpu'), the array is placed on that device as "
    "jax.numpy's own device= places it: committed to it, where {native}(x) (the twin, jax taking no "
    "device string) leaves it uncommitted, free to follow other operands; jax's device= path itself "
    "costs ~30 us ({native}(x, device=cpu) {timed}, load 2.9; "
    "hedera's shim adds ~1-2 us to it): +22-41 us, 1.6-1.7x at 1000 elements. Without device=, "
    "jax's call itself"
)

#: function -> why this backend's answer costs more than the native call's (docs/backends.md; the
#: every-function benchmark's exceptions)
CONFORMANCE_COSTS: dict[str, str] = {
    "empty_like": _DEVICE_PLACEMENT_COST.format(
        native="jnp.empty_like", timed="71.7 us vs jnp.empty_like(x) 41.2 us at 1000 float32"
    ),
    "ones_like": _DEVICE_PLACEMENT_COST.format(
        native="jnp.ones_like", timed="72.9 us vs jnp.ones_like(x) 42.3 us at 1000 int32"
    ),
    "astype": "the standard refuses a complex-to-real cast, which jnp.astype does (dropping the "
    "imaginary part, with a warning): the shim reads x's dtype and the target's before the cast, "
    "and converts hedera's dtype and device; with device= (the benchmark's draw, a 0.13-0.18 ms "
    "call) that Python costs +1.7-2.0 us at one element (1.01-1.02x; paired, 2-core machine shared "
    "with other benchmarks, load ~1-2). The dtype, a positional argument, cannot go to the C "
    "front's native common case (it translates keywords only)",
}

#: function -> how this backend gives the standard's special values where jax.numpy's own call does not
#: (docs/backends.md; checked by tests/core/test_special_cases.py)
SPECIAL_VALUE_FIXES: dict[str, str] = {
    "floor_divide": "x1 / x2 where it is zero or not finite; +0 for other zero floors "
    "(XLA: -0.0 // 1.0 is +0, -1 // -2 is -0, inf // 2 is NaN)",
    "remainder": "the sign of x2 on zero results too (XLA: -0.0 % 1.0 is -0)",
    "complex functions": "sin, cos, tan, their inverses and hyperbolic versions, exp, expm1, log*, sqrt: "
    "evaluated in the first quadrant and mapped by symmetry, with the standard's values patched in",
    "divide, reciprocal": "complex division by Smith's algorithm "
    "(XLA gives other values at zeros and infinities)",
}

_X64 = _jax_config.enable_x64

#: hedera dtype -> numpy dtype object (what JAX arrays report as ``x.dtype``)
_NATIVE_OF: dict[_hd.DType, np.dtype] = {
    d: (np.dtype(jnp.bfloat16) if d is _hd.bfloat16 else d.dtype) for d in _hd.all_dtypes
}
_WIDE = frozenset(np.dtype(n) for n in ("int64", "uint64", "float64", "complex128"))

#: a dtype keyword as the C front passes it to a jax.numpy function (native_common_case's
#: ``translated``): hedera's dtypes of 32 bits or fewer as the NumPy dtypes :func:`native_dtype`
#: returns for them in either x64 mode; the 64-bit ones keep the shim, whose x64 check raises
DTYPE_KEYWORD = KeywordTranslation({d: native for d, native in _NATIVE_OF.items() if native not in _WIDE})

_HD_DTYPE = _hd.DType
#: a hedera dtype's name -> its native dtype, for those that need no x64 check (32 bits or fewer)
_NARROW_BY_NAME: dict[str, np.dtype] = {d.name: n for d, n in _NATIVE_OF.items() if n not in _WIDE}

# every spelling seen so far -> numpy dtype (hedera dtypes, numpy dtypes and types, jnp types, names)
_CACHE: dict[Any, np.dtype] = {}


def _register() -> None:
    """Teach hedera's dtypes the JAX-specific dtype objects (``jnp.float32``, bfloat16)."""
    for hd_dtype, native in _NATIVE_OF.items():
        _hd.register_native(native, hd_dtype)
        _hd.register_native(native.type, hd_dtype)
        jnp_type = getattr(jnp, hd_dtype.name, None)
        if jnp_type is not None:
            _hd.register_native(jnp_type, hd_dtype)


_register()


def x64_enabled() -> bool:
    """Whether JAX's 64-bit mode is on (read at call time, so ``jax.experimental.enable_x64`` counts)."""
    return _X64.value


def x64_error(dtype: Any) -> UnsupportedDtypeError:
    """The error for an explicit request of a 64-bit dtype while x64 mode is off."""
    name = getattr(dtype, "name", dtype)
    return UnsupportedDtypeError(
        f"dtype {name} needs JAX's 64-bit mode, which is off; enable it at program start with "
        f'jax.config.update("jax_enable_x64", True) (or JAX_ENABLE_X64=1). '
        f"hedera never turns it on itself, and never truncates to 32 bits silently"
    )


def _lookup(dtype: Any) -> np.dtype:
    """The numpy dtype for any dtype spelling, without the x64 check (cached)."""
    try:
        return _CACHE[dtype]
    except (KeyError, TypeError):
        pass
    hd_dtype = _hd.as_hedera_dtype(dtype)  # DtypeError for what is not a dtype
    out = _NATIVE_OF[hd_dtype]
    try:
        _CACHE[dtype] = out
    except TypeError:  # unhashable spelling
        pass
    return out


def native_dtype(dtype: Any) -> np.dtype | None:
    """The JAX (numpy) dtype for ``dtype``: a hedera dtype, a native dtype, or a name; None stays None.

    Raises
    ------
    UnsupportedDtypeError
        For a 64-bit dtype while JAX's x64 mode is off; the message says how to enable it.
    DtypeError
        If ``dtype`` names no dtype.
    """
    if dtype is None:
        return None
    if dtype.__class__ is _HD_DTYPE:  # (by name: a DType's own hash and == run in Python, ~0.3 us)
        try:
            return _NARROW_BY_NAME[dtype.name]
        except KeyError:  # a 64-bit dtype
            pass
    out = _lookup(dtype)
    if out in _WIDE and not _X64.value:
        raise x64_error(out)
    return out


def dtype_unchecked(dtype: Any) -> np.dtype:
    """Like :func:`native_dtype` but without the x64 check, for dtype *queries* (finfo, result_type)."""
    return _lookup(dtype)


def default_float() -> np.dtype:
    return np.dtype("float64") if _X64.value else np.dtype("float32")


def default_complex() -> np.dtype:
    return np.dtype("complex128") if _X64.value else np.dtype("complex64")


def default_int() -> np.dtype:
    return np.dtype("int64") if _X64.value else np.dtype("int32")


def default_uint() -> np.dtype:
    return np.dtype("uint64") if _X64.value else np.dtype("uint32")


def eager_on_host(x: Any) -> bool:
    """Whether ``x`` is a concrete jax array on one CPU device, of a NumPy dtype.

    For the eager-only functions whose output shape depends on the data (``nonzero``,
    ``unique_*``): jax.numpy runs them as tens of small ops around a device-to-host copy
    (0.2-2 ms at one element). For such an array they compute the data-dependent part with one
    jax op (so with XLA's comparisons: the CPU runtime counts float32/float64 subnormals as zero)
    and the indices from it with NumPy, placed with :func:`placed_like`. Tracers, sharded arrays,
    other devices and extended dtypes take jax.numpy's path.
    """
    if not isinstance(x, jax.Array) or isinstance(x, jax.core.Tracer) or not isinstance(x.dtype, np.dtype):
        return False
    devices = x.devices()
    return len(devices) == 1 and next(iter(devices)).platform == "cpu"


def placed_like(x: Any, arrays: list[np.ndarray], committed: bool = True) -> list[Any]:
    """NumPy ``arrays`` as jax arrays placed as jax.numpy's ops on ``x`` place theirs: on ``x``'s
    device, committed, if ``x`` is committed (and ``committed``), else uncommitted on the default
    device."""
    if committed and x.committed:
        return jax.device_put(arrays, next(iter(x.devices())))
    return [jnp.asarray(a) for a in arrays]


def scalar_dtype(value: Any) -> np.dtype | None:
    """The default dtype of a Python scalar's kind (None for anything else).

    Used where JAX would otherwise make a *weakly typed* array, which promotes
    differently from the standard's rules.
    """
    t = type(value)
    if t is float:
        return default_float()
    if t is int:
        return default_int()
    if t is bool:
        return np.dtype("bool")
    if t is complex:
        return default_complex()
    return None


def compiled_common_case(
    nargs: int | tuple[int, int], static: tuple[str, ...] = (), forwarded: tuple[str, ...] = ()
) -> Any:
    """Mark a shim with ``jax.jit(shim)`` as its native common case (``_common.native_common_case``).

    A shim written in Python costs ~0.6-1 us a call on top of jax.numpy's (its frame, the C front
    entering the interpreter, and attribute reads of a jax array: ``x.ndim`` ~110 ns, ``x.dtype``
    ~60 ns); compiled with ``jax.jit`` it runs only when jit traces it, once per shapes, dtypes and
    static arguments, and a call costs what jax.numpy's own compiled functions cost (jaxlib's C++
    dispatch). For shims whose every step but jax.numpy's and lax's operations reads only what
    jit keeps static: the arrays' shapes and dtypes and the arguments named in ``static`` (which
    must then be hashable: jit raises for a list, and the C front then calls the shim), and
    whose operations are data movement, comparisons, or a single compiled function of
    jax.numpy's (whose program is the same inside the shim's). The C front calls the compiled
    function for calls of ``nargs`` positional arguments whose keywords are at their defaults or
    among ``forwarded``; where it raises (a tracing error, an unhashable static argument), the
    shim. x64 mode is part of jit's cache key, so the shim's reads of it stay right.
    """

    def mark(shim: Any) -> Any:
        # (inline: under an outer trace the shim's operations, as the shim itself gives them)
        native = jax.jit(shim, static_argnames=static, inline=True)
        return native_common_case(native, nargs, forwarded=forwarded)(shim)

    return mark


# ---- devices ------------------------------------------------------------------------

_DEVICE_CACHE: dict[str, Any] = {}
#: the exact types of the jax.Device objects seen so far (CpuDevice, ...): a device as it is
_DEVICE_TYPES: set[type] = set()


def native_device(device: Any, argname: str = "device") -> Any:
    """A JAX device (or sharding) for ``device``: ``"cpu"``, ``"gpu"``, ``"gpu:1"``, or a native object.

    None stays None (JAX then places the array on its default device).

    Raises
    ------
    InvalidArgumentError
        For a string that is not a device spelling.
    UnsupportedError
        For a device kind or index this process does not have.
    """
    if device is None or device.__class__ in _DEVICE_TYPES:
        return device
    if not isinstance(device, str):
        if not isinstance(device, (jax.Device, jax.sharding.Sharding)):
            raise wrong_device_kind(device, argname)
        if isinstance(device, jax.Device):
            _DEVICE_TYPES.add(device.__class__)  # (isinstance against Sharding, an ABC, takes ~0.3 us)
        return device
    try:
        return _DEVICE_CACHE[device]
    except KeyError:
        pass
    kind, index = parse_device(device, argname)
    try:
        devices = jax.devices(kind)
    except RuntimeError:
        devices = []
    if index >= len(devices):
        raise UnsupportedError(
            f"{argname}: no {kind} device {index} on the jax backend; "
            f"available: {[device_string(*device_kind_index(d)) for d in all_devices()]}"
        )
    _DEVICE_CACHE[device] = devices[index]
    return devices[index]


def device_kind_index(d: Any) -> tuple[str, int]:
    """``(kind, index)`` of a JAX device: its platform and its position among that platform's devices."""
    platform = "gpu" if d.platform in ("cuda", "rocm", "gpu") else d.platform
    try:
        index = jax.devices(d.platform).index(d)
    except (RuntimeError, ValueError):
        index = d.id
    return platform, index


def default_device() -> Any:
    """JAX's default device (``jax_default_device`` if set, else the first device of the default backend)."""
    d = jax.config.jax_default_device
    if d is None:
        return jax.devices()[0]
    return jax.devices(d)[0] if isinstance(d, str) else d


def all_devices() -> list[Any]:
    """Every device JAX can see: those of the default backend, then the CPU's if they differ."""
    out = list(jax.devices())
    if out and out[0].platform != "cpu":
        try:
            out += jax.devices("cpu")
        except RuntimeError:
            pass
    return out


def check_copy(copy: Any) -> None:
    if copy not in (None, True, False):
        raise InvalidArgumentError(f"copy: expected True, False or None, got {copy!r}")
