"""The standard's element-wise special cases (signed zeros, infinities, NaN, branch cuts) on every backend.

Each sentence of the standard's "Special cases" sections (tests/core/spec_special_cases.py,
read by tests/core/special_cases.py) is checked on every grid point where its conditions
hold, in float32 and float64 (complex64 and complex128 for complex operands). Operands are
made from Python scalars the way users make them: ``hd.asarray(-0.0, dtype=...)``, and as
Python scalar operands of binary functions (``hd.atan2(y, -0.0)``, ``hd.atan2(-0.0, x)``).

Branch cuts are checked on both sides against Python's cmath (C99 Annex G), the sign of a zero part
choosing the side.

The grid runs in both orders in one process: with the positive twin first (``+0.0`` before
``-0.0``, ``+inf`` before ``-inf``) and last. A framework that caches the tensors it makes
from Python scalars by value (TensorFlow does: ``0.0 == -0.0``) gives the second twin the
first one's sign; both orders make that visible.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pytest

import hedera as hd
from harness import unsupported_dtypes
from special_cases import IMAGINARY_PARTS, PARTS, REALS, Rule, rules

RULES, UNREAD = rules()
BY_FUNCTION: dict[tuple[str, str], list[Rule]] = defaultdict(list)
for _rule in RULES:
    BY_FUNCTION[_rule.function, _rule.kind].append(_rule)

DTYPES = {"real": ("float32", "float64"), "complex": ("complex64", "complex128")}
ORDERS = ("positive first", "negative first")

#: (backend, function, kind) -> why the backend still differs from the standard there (docs/backends.md)
KNOWN_DIFFERENCES: dict[tuple[str, str, str], str] = {}


def _points(function_rules: list[Rule], order: str) -> list[tuple[float, ...]]:
    """The grid points where some rule of the function holds, in the given order."""
    rule = function_rules[0]
    first, second = (REALS, REALS) if rule.kind == "real" else (PARTS, IMAGINARY_PARTS)
    if order == "negative first":
        first, second = tuple(reversed(first)), tuple(reversed(second))
    grid = itertools.product(first, second) if rule.arity == 2 else ((v,) for v in first)
    return [v for v in grid if any(r.holds(v) for r in function_rules)]


def _python(out) -> float | complex | bool:
    return np.asarray(hd.to_numpy(out)).item()


def _calls(function: str, kind: str, v: tuple[float, ...], dtype: str, backend: str):
    """(spelling, result) for each way of passing the operands ``v``, made from Python scalars."""
    fn = getattr(hd, function)
    if kind == "complex":
        yield "array", fn(hd.asarray(complex(*v), dtype=dtype, backend=backend))
    elif len(v) == 1:
        yield "array", fn(hd.asarray(v[0], dtype=dtype, backend=backend))
    else:
        x1, x2 = (hd.asarray(x, dtype=dtype, backend=backend) for x in v)
        yield "array, array", fn(x1, x2)
        yield "array, Python scalar", fn(x1, v[1])
        yield "Python scalar, array", fn(v[0], x2)


def _describe(v: tuple[float, ...], kind: str) -> str:
    return repr(complex(*v)) if kind == "complex" else ", ".join(map(repr, v))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("function, kind", sorted(BY_FUNCTION), ids=lambda p: p if isinstance(p, str) else "")
def test_special_cases(backend: str, function: str, kind: str, order: str) -> None:
    if (backend, function, kind) in KNOWN_DIFFERENCES:
        pytest.xfail(KNOWN_DIFFERENCES[backend, function, kind])
    function_rules = BY_FUNCTION[function, kind]
    failures = []
    for dtype in DTYPES[kind]:
        if dtype in unsupported_dtypes(backend):  # (MXNet has no complex dtypes) never converted silently
            with pytest.raises(hd.UnsupportedDtypeError):
                hd.asarray(1.0, dtype=dtype, backend=backend)
            continue
        for v in _points(function_rules, order):
            for spelling, out in _calls(function, kind, v, dtype, backend):
                y = _python(out)
                rule = next(
                    r for r in function_rules if r.holds(v)
                )  # the first that applies, as in C99 Annex G
                if not rule.check(y, v):
                    failures.append(
                        f"{function}({_describe(v, kind)}) [{dtype}, {spelling}] = {y!r}: {rule.sentence}"
                    )
    assert not failures, f"{len(failures)} special cases differ on {backend}:\n" + "\n".join(failures[:40])


def test_every_sentence_is_read() -> None:
    """Every special-case sentence is machine-checked or in UNREAD with a reason; each rule meets the grid."""
    assert len(RULES) > 400
    for rule in RULES:
        assert _points([rule], ORDERS[0]), f"no grid point meets {rule!r}"
    reasons = {reason for _, _, reason in UNREAD}
    assert all(reasons), "every unread sentence has a reason"
    assert len(UNREAD) < 40, "the grammar reads fewer sentences than it did"


def test_grid_has_both_twins() -> None:
    """The grid holds each signed twin, so each order puts one twin first."""
    for values in (REALS, PARTS):
        signs = {(v, math.copysign(1, v)) for v in values if v == 0 or math.isinf(v)}
        assert signs >= {(0.0, 1.0), (0.0, -1.0), (math.inf, 1.0), (-math.inf, -1.0)}


# ---- complex branch cuts: both sides, by the sign of a zero part -----------------------------------

#: function -> points on its branch cuts (the standard's, as C99's): each is tried with +0 and -0
BRANCH_CUTS: dict[str, tuple[complex, ...]] = {
    "sqrt": (-2.0, -0.5),  # (-inf, 0]
    "log": (-2.0, -0.5),
    "log10": (-2.0,),
    "acos": (2.0, -2.0),  # (-inf, -1) and (1, inf)
    "asin": (2.0, -2.0),
    "atanh": (2.0, -2.0),
    "acosh": (0.5, -2.0),  # (-inf, 1)
    "atan": (2j, -2j),  # the imaginary axis beyond +-i: the cut is crossed by the real part's sign
    "asinh": (2j, -2j),
}


def _on_both_sides(point: complex) -> list[complex]:
    if point.real == 0:  # a cut along the imaginary axis
        return [complex(0.0, point.imag), complex(-0.0, point.imag)]
    return [complex(point.real, 0.0), complex(point.real, -0.0)]


@pytest.mark.parametrize("function", sorted(BRANCH_CUTS))
def test_branch_cuts(backend: str, function: str) -> None:
    """Each side of a branch cut gives that side's value, as Python's cmath (C99 Annex G) does."""
    import cmath

    failures = []
    for dtype, rtol in (("complex64", 1e-5), ("complex128", 1e-12)):
        if dtype in unsupported_dtypes(backend):
            continue  # (MXNet has no complex dtypes; test_special_cases checks that it says so)
        for point in BRANCH_CUTS[function]:
            for z in _on_both_sides(point):
                want = getattr(cmath, function)(z)
                got = _python(getattr(hd, function)(hd.asarray(z, dtype=dtype, backend=backend)))
                parts_close = all(
                    math.isclose(g, w, rel_tol=rtol, abs_tol=rtol) and (w != 0 or _same_sign(g, w))
                    for g, w in ((got.real, want.real), (got.imag, want.imag))
                )
                if not parts_close:
                    failures.append(f"{function}({z!r}) [{dtype}] = {got!r}, cmath: {want!r}")
    assert not failures, "\n".join(failures)


def _same_sign(a: float, b: float) -> bool:
    return math.copysign(1, a) == math.copysign(1, b)
