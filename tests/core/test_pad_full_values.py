"""``pad``, ``full`` and ``full_like`` against NumPy's own ``np.pad`` / ``np.full`` / ``np.full_like``.

Every backend takes shortcuts here for the common case (a constant pad with an int or pair width,
a Python scalar fill, no dtype or device): these tests pin that the shortcuts give NumPy's values,
bit for bit (the sign of zero, NaN, rounding into the dtype), NumPy's dtype, and, on the NumPy
backend, NumPy's memory order; and that the forms the shortcuts do not take still work and still
refuse bad input.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import hedera as hd
from harness import unsupported_dtypes

WIDTHS = (0, 2, (1, 2), [1, 0], [(1, 2)], ((0, 1),), [(2, 1), (0, 3)], ((1, 1), (1, 1)))
VALUES = (0, 0.0, -0.0, 0.1, 1.5, -7, math.inf, -math.inf, math.nan)


def _same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal values, NaNs in the same places and zeros of the same sign (and the same dtype)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        for part in (np.real, np.imag) if got.dtype.kind == "c" else (np.asarray,):
            g, w = part(got), part(want)
            if not np.array_equal(g, w, equal_nan=True) or not np.array_equal(np.signbit(g), np.signbit(w)):
                return False
        return True
    return np.array_equal(got, want)


def _source(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return (np.arange(1, math.prod(shape) + 1).reshape(shape) % 5 + 1).astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32", "uint8", "bool"])
def test_constant_pad_matches_numpy(backend: str, dtype: str) -> None:
    if dtype in unsupported_dtypes(backend):
        pytest.skip(f"{backend} has no {dtype}")
    wrong = []
    for shape in ((3,), (2, 3)):
        source = _source(shape, dtype)
        x = hd.asarray(source, backend=backend)
        for width in WIDTHS:
            try:
                np.pad(source, width)  # the forms NumPy reads for this rank
            except ValueError:
                continue
            for value in VALUES if dtype[0] in "fc" else (0, 3, True):
                want = np.pad(source, width, constant_values=value)
                got = hd.to_numpy(hd.pad(x, width, constant_values=value))
                if not _same_bits(np.asarray(got), want):
                    wrong.append(f"pad({shape}, {width!r}, {value!r}): {got!r}, want {want!r}")
    assert not wrong, "\n".join(wrong[:10])


def test_numpy_pad_keeps_numpy_memory_order() -> None:
    """np.pad gives a Fortran-ordered result for a Fortran-ordered (not also C-ordered) input."""
    source = np.asfortranarray(_source((3, 4), "float64"))
    for width in (1, (1, 2), [(0, 1), (2, 0)]):
        for value in (-0.0, 2.5):
            want = np.pad(source, width, constant_values=value)
            got = hd.pad(source, width, constant_values=value)
            assert _same_bits(got, want)
            assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
                want.flags.c_contiguous,
                want.flags.f_contiguous,
            )
    copy = hd.pad(np.ones(3), 0)
    assert copy.base is None or not np.shares_memory(copy, np.ones(3))  # a new array, as np.pad's


@pytest.mark.parametrize(
    "width", [-1, (1, -1), [(1, 2), (3, 4)], [(1, 2, 3)], "1", 1.5, [(1.5, 1)], None], ids=repr
)
def test_bad_pad_width_is_refused(backend: str, width) -> None:
    """A negative width, a wrong count or a non-integer is refused, never truncated (1.5 is not 1)."""
    x = hd.asarray(np.ones(3, np.float32), backend=backend)
    with pytest.raises((hd.InvalidArgumentError, hd.ArgumentTypeError), match="pad_width"):
        hd.pad(x, width)


def test_bad_pad_mode_is_refused(backend: str) -> None:
    x = hd.asarray(np.ones(3, np.float32), backend=backend)
    with pytest.raises(hd.InvalidArgumentError, match="mode"):
        hd.pad(x, 1, mode="nearest")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64", "int8", "bool"])
def test_full_and_full_like_match_numpy(backend: str, dtype: str) -> None:
    if dtype in unsupported_dtypes(backend):
        pytest.skip(f"{backend} has no {dtype}")
    x = hd.asarray(_source((2, 3), dtype), backend=backend)
    inexact = (0.0, -0.0, 1.5, -2, math.inf, math.nan, complex(-0.0, 1.0))
    values = inexact if dtype[0] in "fc" else (0, 5, True)
    wrong = []
    for value in values:
        if isinstance(value, complex) and dtype[0] != "c":
            continue
        want = np.full((2, 3), value, dtype=dtype)
        for what, out in {
            "full_like": hd.full_like(x, value),
            "full(dtype=)": hd.full((2, 3), value, dtype=dtype, backend=backend),
        }.items():
            got = np.asarray(hd.to_numpy(out))
            if not _same_bits(got, want):
                wrong.append(f"{what}({value!r}) in {dtype}: {got!r}, want {want!r}")
    assert not wrong, "\n".join(wrong)


def test_full_without_dtype_takes_the_default_of_the_scalars_kind(backend: str) -> None:
    default_float = np.dtype(hd.to_numpy(hd.asarray(1.0, backend=backend)).dtype)
    for value, dtype in ((-0.0, default_float), (3, np.dtype("int64")), (True, np.dtype("bool"))):
        got = np.asarray(hd.to_numpy(hd.full(4, value, backend=backend)))
        assert _same_bits(got, np.full(4, value, dtype=dtype)), (value, got)
        got = np.asarray(hd.to_numpy(hd.full((2, 2), value, backend=backend)))
        assert got.shape == (2, 2)


def test_full_casts_a_float_into_an_integer_dtype_as_numpy(backend: str) -> None:
    got = hd.to_numpy(hd.full(3, 2.75, dtype="int32", backend=backend))
    assert got.dtype == np.int32 and got.tolist() == [2, 2, 2]


def test_full_like_refuses_an_int_that_does_not_fit(backend: str) -> None:
    x = hd.asarray(np.zeros(3, np.uint8), backend=backend)
    with pytest.raises(hd.InvalidArgumentError, match="does not fit uint8"):
        hd.full_like(x, 256)
    with pytest.raises(hd.InvalidArgumentError, match="does not fit uint8"):
        hd.full_like(x, -1)
    assert hd.to_numpy(hd.full_like(x, 255)).tolist() == [255, 255, 255]
    y = hd.asarray(np.zeros(2, np.float32), backend=backend)
    assert hd.to_numpy(hd.full_like(y, 3, dtype="int8")).dtype == np.int8
    with pytest.raises(hd.InvalidArgumentError, match="does not fit int8"):
        hd.full_like(y, 128, dtype="int8")
