"""dtype and device conversions for the numpy backend."""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import dtypes as _hd
from ...errors import UnsupportedError
from .._common import parse_device, wrong_device_kind

BACKEND = "numpy"

#: hedera dtypes numpy lacks (creation and casts to them raise UnsupportedDtypeError)
UNSUPPORTED_DTYPES: tuple[str, ...] = ("bfloat16",)

#: function qualname -> why it cannot be done exactly (it raises UnsupportedError); none on numpy
LIMITATIONS: dict[str, str] = {}

#: function -> why it costs more than its native twin beyond the dispatch benchmark's targets (the
#: native answer differs for some inputs), and the measured cost (docs/backends.md)
CONFORMANCE_COSTS: dict[str, str] = {
    "floor_divide": "NumPy follows Python where an operand is infinite (inf // 2 is NaN, -1 // inf is -1; "
    "the standard: inf, -0): x1 / x2 there, selected by np.where, only where an operand holds an "
    "infinity, found by one isinf and one count_nonzero per operand (~0.5 us per operand at 1 element, "
    "ufunc call overhead; a test with one add or multiply of the operands would raise NumPy's "
    "overflow/invalid warnings): +1.2 us at 1 element (np.floor_divide: 0.2 us), 1.3x at 2x1000 "
    "float32 (load 15)",
    "sort": "a stable sort keeps +0.0 and -0.0 in their input order, which np.sort's default "
    "(introsort) may not; it runs only where x holds a zero (one count_nonzero): +0.8 us, 1.4x "
    "np.sort at 1000 float32 (the stable sort itself: +6.8 us, 4.7x)",
    "pow": "x ** 0.5 (a scalar exponent) is NumPy's sqrt, which keeps -0.0 and gives NaN at -inf (the "
    "standard: +0, +inf): the fix-up runs only where x holds a sign bit, found by one signbit and one "
    "count_nonzero: +0.6 us at 1 element, 1.41x np.power at 1000 float32 (np.power's sqrt is 1.8 us "
    "there; load 20)",
    "argsort": "stable=True, the standard's default, is a stable sort (radix sort or timsort), which "
    "np.argsort's default (introsort) is not: equal elements may come out in another order, and "
    "ties cannot be ruled out without sorting, so the stable sort runs: +3.1 us, 1.4x np.argsort at "
    "1000 float32 (stable=False: introsort, np.argsort's cost)",
}

#: function -> how this backend gives the standard's special values where NumPy's own call does not
#: (docs/backends.md; checked by tests/core/test_special_cases.py)
SPECIAL_VALUE_FIXES: dict[str, str] = {
    "floor_divide": "x1 / x2 where an operand is infinite (NumPy follows Python: inf // 2 is NaN, "
    "-1 // inf is -1); only where an operand holds an infinity (one isinf and count_nonzero each)",
    "pow": "abs(x1) ** 0.5 at x1 = -0 or -inf for a scalar exponent 0.5 "
    "(NumPy computes sqrt(x1): -0.0 and NaN); only where x1 holds a sign bit (one signbit, one count)",
    "tanh": "+-1 + 0j (b's sign of zero) at +-inf + bj for finite b (NumPy: the sign of sin(2b))",
    "expm1": "exp(x) - 1 where a complex part is not finite (np.expm1(inf + 0j) is inf + NaN j)",
    "sign": "x / abs(x) for complex x (NumPy < 2 differs)",
    "acosh": "NaN + pi/2 j at +-0 + NaN j, on NumPy < 2 only (the MXNet environment)",
}


def native_dtype(dtype: Any) -> Any:
    """A numpy dtype for ``dtype`` (a hedera dtype, a numpy dtype, or None -> None)."""
    if dtype is None:
        return None
    if isinstance(dtype, _hd.DType):
        if dtype.dtype is None:
            raise _hd.unsupported(BACKEND, dtype)
        return dtype.dtype
    if isinstance(dtype, str):
        return native_dtype(_hd.as_hedera_dtype(dtype))
    if isinstance(dtype, np.dtype) or (isinstance(dtype, type) and issubclass(dtype, np.generic)):
        return np.dtype(dtype)
    return native_dtype(_hd.as_hedera_dtype(dtype))


def check_device(device: Any) -> None:
    """numpy arrays live on the CPU; anything else is an error."""
    if device is None or device == "cpu":
        return
    if not isinstance(device, str):
        raise wrong_device_kind(device)
    if parse_device(device) == ("cpu", 0):
        return
    raise UnsupportedError(f"device: the numpy backend has only the 'cpu' device, got {device!r}")
