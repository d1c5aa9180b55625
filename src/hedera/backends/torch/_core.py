"""dtype and device conversions for the torch backend, and its constants.

torch (2.3 and later) has ``uint16``/``uint32``/``uint64`` with a subset of its kernels: hedera
creates, converts, saves and loads them and runs every function torch implements for them; a
function torch lacks a kernel for raises :class:`hedera.errors.UnsupportedDtypeError`
(:data:`MISSING_UNSIGNED_KERNELS`, listed in docs/backends.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ... import dtypes as _hd
from ...errors import DtypeError, NotAnArrayError, UnsupportedError
from .._common import KeywordTranslation, parse_device, wrong_device_kind

BACKEND = "torch"

#: hedera dtype names torch lacks (none: its uint16/32/64 lack some kernels, MISSING_UNSIGNED_KERNELS)
UNSUPPORTED_DTYPES: tuple[str, ...] = ()

#: the dtypes of torch's partial unsigned support
PARTIAL_UNSIGNED = ("uint16", "uint32", "uint64")

#: functions torch has no kernel for on its uint16/uint32/uint64 (found by running the harness,
#: tests/core/test_functions.py, on those dtypes; kept exact by tests/backends/test_backend_torch.py):
#: a call with such an array raises UnsupportedDtypeError (hedera's error path, no cost on success)
MISSING_KERNELS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        (
            "abs", "add", "arange", "argmax", "argmin", "bitwise_invert", "bitwise_left_shift",
            "bitwise_right_shift", "clip", "count_nonzero", "diff", "flip", "floor_divide", "greater",
            "greater_equal", "isin", "less", "less_equal", "linalg.cross", "linalg.matmul", "linalg.trace",
            "linalg.vecdot", "linspace", "matmul", "max", "maximum", "min", "minimum", "negative",
            "nonzero", "one_hot", "pow", "remainder", "scatter_nd", "searchsorted", "sign",
            "square", "subtract", "take", "take_along_axis", "tensordot", "top_k", "tril", "triu", "vecdot",
        ),
        PARTIAL_UNSIGNED,
    ),
    # the standard sums uint8/16/32 in uint64, which torch's sums of them cannot accumulate in
    # (pass dtype=); pad's reflect/edge modes and repeat with an array of counts need index_select
    **dict.fromkeys(
        ("cumprod", "cumulative_prod"), ("uint8", "uint16", "uint32")
    ),
    **dict.fromkeys(("cumsum", "cumulative_sum", "sum"), ("uint8", *PARTIAL_UNSIGNED)),
    "prod": ("uint8", *PARTIAL_UNSIGNED),
    **dict.fromkeys(("pad", "repeat"), PARTIAL_UNSIGNED),
}  # fmt: skip

#: function name -> why the torch backend cannot compute it (it raises UnsupportedError with the reason)
LIMITATIONS: dict[str, str] = {
    "einsum": "integer operands on a CUDA device: torch has no integer matrix-multiply kernels there "
    "(cast to a floating dtype, or use matmul/tensordot, which fall back to an exact product)",
}

#: function -> why it costs more than its native twin beyond the dispatch benchmark's targets (the
#: native answer differs for some inputs), and the measured cost (docs/backends.md)
CONFORMANCE_COSTS: dict[str, str] = {
    "sign": "torch.sign gives 0 for NaN (the standard: NaN), put back with torch.where(isnan(x), "
    "x, sign): two kernels more, +2.6 us at 1 element, 4.7x at 1000 float32 (load 15; integer and "
    "complex x: torch.sgn, called by the C front directly). Tried: s.masked_fill_(isnan(x), nan) "
    "saves under 10 %; clamp(x, s, s) (one kernel) gives -0 for -0 (now +0)",
    "floor_divide": "torch follows Python where one operand is infinite (inf // 2 is NaN, -1 // inf is "
    "-1; the standard: inf, -0): x1 / x2 there, selected by one torch.where on a mask from "
    "isnan(x1 * 0 + 0 * x2) (4 kernels; torch has no cheaper way to know that a tensor holds no "
    "infinity): +9 us at 1 element, 4.0x at 2x1000 float32 (load 15); with a finite Python scalar "
    "x2 the mask is isnan of torch's result (one kernel, where isinf(x1) is two): 2.6x at 1000 (load 15)",
    "remainder": "torch gives zero results x1's sign (-0.0 % 1.0 is -0; the standard: x2's sign): "
    "torch.copysign(r, x2), one kernel: +1.4 us at 1 element, 1.7x at 2x1000 float32 (load 15)",
    "sort": "stable=True, the standard's default, is torch's stable sort, which its default sort (what "
    "torch.sort(x) runs) is not: +0.0 and -0.0 are equal yet distinct, so floating x sorts stably "
    "(integers and booleans: torch's default sort, any order of equal integers being the stable one): "
    "+3 us, 1.3x torch.sort(x) at 1000 float32 (load 20)",
    "argsort": "stable=True, the standard's default, is torch's stable sort: equal elements keep their "
    "order, which torch.argsort(x) does not promise, and ties cannot be ruled out without sorting: "
    "+3 us, 1.3x torch.argsort(x) at 1000 float32 (load 20; stable=False: torch's default sort)",
    "linalg.vecdot": "torch.linalg.vecdot broadcasts a contracted axis of size 1 against the other "
    "operand's (the standard: the sizes must match; hedera raises ShapeError), so the C front calls it "
    "only for operands of one shape, which it compares first (two torch.Size objects, ~0.18 us of the "
    "cost; the same-dtype test is the rest); other shapes take the shim's test of the contracted axis "
    "(~0.45 us): +0.27-0.30 us, 1.3x torch.linalg.vecdot at 2x4 float32 (load 9). hd.vecdot is the same "
    "function",
    "pow": "x ** +-0.5 (a Python scalar exponent) is torch's sqrt, exact, fixed in place at -0 and -inf "
    "(abs_, masked_fill_ of isneginf): +3 us at 1 element, 2.2x at 1000 (load 15; before: 2.7x). A 0-d "
    "tensor exponent would take torch's general pow kernel, which conforms in one call (+-0 us at 1 "
    "element, 1.5x at 1000) but is 1 ulp off sqrt for 17% of float32 results",
}

#: function -> how this backend gives the standard's special values where torch's own call does not
#: (docs/backends.md; checked by tests/core/test_special_cases.py)
SPECIAL_VALUE_FIXES: dict[str, str] = {
    "floor_divide": "x1 / x2 where an operand is infinite (torch: inf // 2 is NaN, -1 // inf is -1)",
    "remainder": "the sign of x2 on zero results too (torch: -0.0 % 1.0 is -0)",
    "pow": "abs of torch's result, +inf (+0) at -inf, for a Python exponent 0.5 (-0.5), which torch "
    "computes as (r)sqrt; "
    "complex x ** 0 is 1",
    "tanh": "+-1 + 0j (b's sign of zero) at +-inf + bj for finite b (torch: the sign of sin(2b))",
    "add": "complex parts added separately (torch leaks a NaN imaginary part into the real one)",
}

# hedera dtype name -> torch dtype, for the dtypes torch supports
TORCH_DTYPES: dict[str, torch.dtype] = {
    "bool": torch.bool,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "uint8": torch.uint8,
    "uint16": torch.uint16,
    "uint32": torch.uint32,
    "uint64": torch.uint64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
    "complex64": torch.complex64,
    "complex128": torch.complex128,
}

for _name, _native in TORCH_DTYPES.items():
    _hd.register_native(_native, getattr(_hd, _name))

#: a dtype keyword as the C front passes it to a torch function (native_common_case's ``translated``):
#: hedera's dtypes as torch's, torch's as they are; what native_dtype returns for them
DTYPE_KEYWORD = KeywordTranslation(
    {getattr(_hd, name): native for name, native in TORCH_DTYPES.items()}, (torch.dtype,)
)
#: ``DTYPE_KEYWORD`` for the floating and complex dtypes only
INEXACT_DTYPE_KEYWORD = KeywordTranslation(
    {getattr(_hd, name): d for name, d in TORCH_DTYPES.items() if d.is_floating_point or d.is_complex}
)
#: a device keyword: a torch.device as it is (what native_device returns for it)
DEVICE_KEYWORD = KeywordTranslation({}, (torch.device,))

# names and numpy dtypes of a supported dtype -> the torch dtype (native_dtype handles torch and
# hedera dtypes before this lookup)
_NATIVE_OF: dict[Any, torch.dtype] = {}
for _name, _native in TORCH_DTYPES.items():
    _NATIVE_OF[_name] = _native
    _np = getattr(_hd, _name).dtype
    if _np is not None:
        _NATIVE_OF[_np] = _native
        _NATIVE_OF[_np.type] = _native


def native_dtype(dtype: Any) -> torch.dtype | None:
    """The torch dtype for ``dtype``: a hedera dtype, a torch or NumPy dtype, or a name; None stays None.

    Raises
    ------
    UnsupportedDtypeError
        For ``uint16``/``uint32``/``uint64`` in any spelling.
    DtypeError
        If ``dtype`` names no dtype.
    """
    if dtype is None:
        return None
    # torch dtypes first, without the dict lookup: under torch.compile dynamo traces that lookup
    # through hd.DType.__eq__ and, inside torch.func transforms, builds a guard it cannot evaluate
    if isinstance(dtype, torch.dtype):
        return dtype  # (float8 and other dtypes hedera has no name for too: the caller asked for it)
    # hedera dtypes by name, not through _NATIVE_OF: dynamo guards a user-object dict key with a
    # source it cannot evaluate when hd.dtype() ran earlier in the frame (guard error at run time)
    if type(dtype) is _hd.DType:
        if dtype.name in TORCH_DTYPES:
            return TORCH_DTYPES[dtype.name]
        raise _hd.unsupported(BACKEND, dtype)
    try:
        return _NATIVE_OF[dtype]
    except (KeyError, TypeError):
        pass
    if isinstance(dtype, (int, float, complex)):  # TensorFlow's dtypes compare equal to their enum ints
        raise DtypeError(f"dtype: expected a dtype (hd.float32, a native dtype, or a name), got {dtype!r}")
    d = _hd.as_hedera_dtype(dtype)
    if d.name in TORCH_DTYPES:
        return TORCH_DTYPES[d.name]
    raise _hd.unsupported(BACKEND, d)


def default_float() -> torch.dtype:
    return torch.get_default_dtype()


def default_complex() -> torch.dtype:
    return torch.complex128 if torch.get_default_dtype() is torch.float64 else torch.complex64


# ---- devices ----------------------------------------------------------------------

_DEVICE_OF: dict[str, torch.device] = {}


def native_device(device: Any) -> torch.device | None:
    """A ``torch.device`` for ``device``: a hedera string (``"cpu"``, ``"gpu:1"``) or a torch device.

    ``"gpu:i"`` is CUDA device ``i`` (on a machine with Apple's MPS and no CUDA, ``"gpu"`` is MPS).
    Native devices (``torch.device("cuda", 1)``) pass through unchecked.

    Raises
    ------
    InvalidArgumentError
        For a string that is not a device.
    UnsupportedError
        For a TPU, or a GPU on a machine where torch sees none.
    """
    if device is None or isinstance(device, torch.device):
        return device
    try:
        return _DEVICE_OF[device]
    except (KeyError, TypeError):
        pass
    if not isinstance(device, str):
        raise wrong_device_kind(device)
    kind, index = parse_device(device)
    if kind == "cpu":
        if index != 0:
            raise UnsupportedError(f"device: the torch backend has one CPU device, 'cpu'; got {device!r}")
        out = torch.device("cpu")
    elif kind == "gpu":
        mps = getattr(torch.backends, "mps", None)
        if torch.cuda.is_available():
            out = torch.device("cuda", index)
        elif mps is not None and mps.is_available():
            out = torch.device("mps", index)
        else:
            raise UnsupportedError(f"device: {device!r}, but torch sees no GPU (CUDA or MPS) on this machine")
    else:
        raise UnsupportedError(f"device: the torch backend has no {kind} device ({device!r})")
    _DEVICE_OF[device] = out
    return out


def device_name(device: torch.device) -> str:
    """hedera's spelling of a torch device: ``"cpu"``, ``"gpu:0"``; others as torch writes them."""
    if device.type == "cpu":
        return "cpu"
    if device.type in ("cuda", "mps"):
        index = device.index
        if index is None:
            index = torch.cuda.current_device() if device.type == "cuda" else 0
        return f"gpu:{index}"
    return str(device)


def to_tensor_like(value: Any, other: torch.Tensor) -> Any:
    """A Python scalar as a 0-d tensor of ``other``'s dtype where its kind fits, on ``other``'s device.

    Where the kind does not fit (a float with an integer array, which the standard
    leaves unspecified), torch's own promotion picks the dtype.
    """
    if isinstance(value, torch.Tensor):
        return value
    if not isinstance(value, (bool, int, float, complex)):
        if isinstance(value, np.ndarray | np.generic):
            raise NotAnArrayError(f"expected a tensor or Python scalar, got NumPy {type(value).__name__}")
        return value
    return torch.as_tensor(value, dtype=scalar_dtype(value, other.dtype), device=other.device)


def scalar_dtype(value: bool | int | float | complex, dtype: torch.dtype) -> torch.dtype:
    """The dtype of a Python scalar combined with an array of ``dtype`` (standard rule, else torch's)."""
    if isinstance(value, bool):
        return dtype
    if isinstance(value, int):
        return dtype if dtype is not torch.bool else torch.int64
    if isinstance(value, float):
        return dtype if (dtype.is_floating_point or dtype.is_complex) else default_float()
    if dtype.is_complex:
        return dtype
    return torch.complex128 if dtype is torch.float64 else default_complex()


# ---- type promotion -----------------------------------------------------------------
# torch promotes like the standard between arrays of the same rank class, but a 0-d
# tensor does not take part in promotion within a kind (int8[n] + int64[] -> int8), so the
# shims below cast when exactly one operand is 0-d and the dtypes differ.


def _promote_outside_the_standard(a: torch.dtype, b: torch.dtype) -> torch.dtype:
    """torch's promotion, or NumPy's where torch has none (its uint16/32/64 with bool or a signed
    integer: bool + uint16 is uint16, uint64 + int64 float64, as NumPy and JAX)."""
    try:
        return torch.promote_types(a, b)
    except RuntimeError:
        named = np.promote_types(_hd.as_hedera_dtype(a).dtype, _hd.as_hedera_dtype(b).dtype)
        return TORCH_DTYPES[_hd.as_hedera_dtype(named).name]


def _build_promotion() -> dict[tuple[torch.dtype, torch.dtype], torch.dtype]:
    table = {}
    natives = list(TORCH_DTYPES.values())
    for a in natives:
        for b in natives:
            try:
                out = _hd.promote_types(_hd.as_hedera_dtype(a), _hd.as_hedera_dtype(b))
                table[a, b] = TORCH_DTYPES[out.name]
            except (DtypeError, KeyError):  # undefined by the standard (bool with a number): torch's rule
                table[a, b] = _promote_outside_the_standard(a, b)
    return table


PROMOTION = _build_promotion()


def result_dtype(a: torch.dtype, b: torch.dtype) -> torch.dtype:
    """The standard's promotion of two torch dtypes (torch's own rule where the standard has none)."""
    try:
        return PROMOTION[a, b]
    except KeyError:
        return torch.promote_types(a, b)


def promote(x1: Any, x2: Any) -> tuple[Any, Any]:
    """``x1, x2`` (tensors or Python scalars) made safe for a torch binary function.

    Tensors of different dtypes where exactly one is 0-d are cast to the standard's
    result dtype; Python scalars become 0-d tensors of the other operand's dtype.
    """
    t1, t2 = isinstance(x1, torch.Tensor), isinstance(x2, torch.Tensor)
    if t1 and t2:
        if x1.dtype is not x2.dtype and (x1.ndim == 0) is not (x2.ndim == 0):
            dt = result_dtype(x1.dtype, x2.dtype)
            return x1.to(dt), x2.to(dt)
        return x1, x2
    if t1:
        return x1, to_tensor_like(x2, x1)
    if t2:
        return to_tensor_like(x1, x2), x2
    return x1, x2


def promote_all(x1: Any, x2: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """``x1, x2`` as tensors of one dtype (for torch functions that do not promote at all)."""
    x1, x2 = promote(x1, x2)
    if x1.dtype is not x2.dtype:
        dt = result_dtype(x1.dtype, x2.dtype)
        return x1.to(dt), x2.to(dt)
    return x1, x2
