"""``finfo``/``iinfo`` fields are Python scalars on every backend, as the standard says.

``eps``, ``max``, ``min`` and ``smallest_normal`` are ``float``, ``bits``, ``max`` and ``min`` of
``iinfo`` are ``int`` (NumPy's and JAX's own objects hold NumPy scalars: ``numpy.float32``).
The values are NumPy's (``ml_dtypes`` for bfloat16), an independent reference.
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from harness import unsupported_dtypes

FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_REAL = {"complex64": "float32", "complex128": "float64"}


def _numpy_finfo(name: str):
    if name == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")  # installed with JAX and TensorFlow
        return ml_dtypes.finfo(ml_dtypes.bfloat16)
    return np.finfo(np.dtype(name))


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_fields_are_python_scalars(backend: str, name: str) -> None:
    if name in unsupported_dtypes(backend):
        with pytest.raises(hd.UnsupportedDtypeError):
            hd.namespace(backend).finfo(getattr(hd, name))
        return
    info = hd.namespace(backend).finfo(getattr(hd, name))
    want = _numpy_finfo(name)
    assert type(info.bits) is int and info.bits == int(want.bits)
    for field in ("eps", "max", "min", "smallest_normal"):
        value = getattr(info, field)
        assert type(value) is float, f"finfo({name}).{field} is a {type(value).__name__}, not a float"
        assert value == float(getattr(want, field)), field
    assert hd.dtype(hd.namespace(backend).zeros((), dtype=info.dtype)).name == _REAL.get(name, name)


@pytest.mark.parametrize("name", INTS)
def test_iinfo_fields_are_python_ints(backend: str, name: str) -> None:
    if name in unsupported_dtypes(backend):
        with pytest.raises(hd.UnsupportedDtypeError):
            hd.namespace(backend).iinfo(getattr(hd, name))
        return
    info = hd.namespace(backend).iinfo(getattr(hd, name))
    want = np.iinfo(np.dtype(name))
    for field in ("bits", "max", "min"):
        value = getattr(info, field)
        assert type(value) is int, f"iinfo({name}).{field} is a {type(value).__name__}, not an int"
        assert value == int(getattr(want, field)), field


def test_front_finfo_of_an_array(backend: str) -> None:
    x = hd.namespace(backend).ones((2,), dtype=hd.float32)
    assert type(hd.finfo(x).eps) is float and hd.finfo(x).eps == float(np.finfo(np.float32).eps)
    assert type(hd.finfo(hd.float32).eps) is float
