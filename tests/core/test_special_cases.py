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
from spec_special_cases import SPECIAL_CASES
from special_cases import GENERAL_OPERATORS, IMAGINARY_PARTS, INF, NAN, PARTS, REALS, Rule, rounded, rules

RULES, UNREAD = rules()
BY_FUNCTION: dict[tuple[str, str], list[Rule]] = defaultdict(list)
for _rule in RULES:
    BY_FUNCTION[_rule.function, _rule.kind, _rule.arity].append(_rule)

DTYPES = {"real": ("float32", "float64"), "complex": ("complex64", "complex128")}
ORDERS = ("positive first", "negative first")
#: the parts of x1 = a + bj and x2 = c + dj in binary complex rules (each sign of zero and infinity)
PARTS4 = (NAN, INF, -INF, 0.0, -0.0, -1.5)
#: clip's bounds (None: absent) beside the real grid for x
BOUNDS = (None, NAN, -1.0, 2.0, -INF, INF, -0.0)

#: (backend, function, kind) -> why the backend still differs from the standard there (docs/backends.md)
KNOWN_DIFFERENCES: dict[tuple[str, str, str], str] = {}


def _grid(arity: int, kind: str, order: str) -> list[tuple]:
    if arity == 4:
        parts = PARTS4 if order == ORDERS[0] else tuple(reversed(PARTS4))
        return list(itertools.product(parts, repeat=4))
    if arity == 3:  # clip(x, min, max), bounds in order (min > max is unspecified)
        xs = REALS if order == ORDERS[0] else tuple(reversed(REALS))
        grid = itertools.product(xs, BOUNDS, BOUNDS)
        return [v for v in grid if v[1] is None or v[2] is None or not v[1] > v[2]]
    first, second = (REALS, REALS) if kind == "real" else (PARTS, IMAGINARY_PARTS)
    if order == ORDERS[1]:
        first, second = tuple(reversed(first)), tuple(reversed(second))
    return list(itertools.product(first, second)) if arity == 2 else [(v,) for v in first]


def _points(function_rules: list[Rule], order: str) -> list[tuple]:
    """The grid points where some rule of the function holds, in the given order."""
    rule = function_rules[0]
    return [v for v in _grid(rule.arity, rule.kind, order) if any(r.holds(v) for r in function_rules)]


def _python(out) -> float | complex | bool:
    return np.asarray(hd.to_numpy(out)).item()


def _calls(function: str, kind: str, arity: int, v: tuple, dtype: str, backend: str):
    """(spelling, result) for each way of passing the operands ``v``, made from Python scalars."""
    fn = getattr(hd, function)
    if arity == 3:  # clip: bounds as arrays and as Python scalars
        x = hd.asarray(v[0], dtype=dtype, backend=backend)
        bounds = [None if b is None else hd.asarray(b, dtype=dtype, backend=backend) for b in v[1:]]
        yield "array bounds", fn(x, min=bounds[0], max=bounds[1])
        yield "Python scalar bounds", fn(x, min=v[1], max=v[2])
        return
    if arity == 4:
        operands = (complex(v[0], v[1]), complex(v[2], v[3]))
    elif kind == "complex":
        yield "array", fn(hd.asarray(complex(*v), dtype=dtype, backend=backend))
        return
    else:
        operands = v
    if len(operands) == 1:
        yield "array", fn(hd.asarray(operands[0], dtype=dtype, backend=backend))
        return
    x1, x2 = (hd.asarray(x, dtype=dtype, backend=backend) for x in operands)
    yield "array, array", fn(x1, x2)
    yield "array, Python scalar", fn(x1, operands[1])
    yield "Python scalar, array", fn(operands[0], x2)


def _describe(v: tuple, kind: str, arity: int) -> str:
    if arity == 4:
        return f"{complex(v[0], v[1])!r}, {complex(v[2], v[3])!r}"
    return repr(complex(*v)) if kind == "complex" and arity == 2 else ", ".join(map(repr, v))


def _applicable(function_rules: list[Rule], v: tuple) -> list[Rule]:
    """The rules checked at ``v``: the first that holds (as in C99 Annex G), and each sign rule that holds."""
    primary = next((r for r in function_rules if r.holds(v) and not r.additive), None)
    return [r for r in function_rules if r is primary or (r.additive and r.holds(v))]


def _failures(function_rules: list[Rule], points, dtype: str, backend: str) -> list[str]:
    rule = function_rules[0]
    out = []
    for v in points:
        for spelling, result in _calls(rule.function, rule.kind, rule.arity, v, dtype, backend):
            y = _python(result)
            for r in _applicable(function_rules, v):
                if not r.check(y, v, dtype):
                    call = f"{r.function}({_describe(v, r.kind, r.arity)}) [{dtype}, {spelling}]"
                    out.append(f"{call} = {y!r}: {r.sentence}")
    return out


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize(
    "function, kind, arity", sorted(BY_FUNCTION), ids=lambda p: p if isinstance(p, str) else str(p)
)
def test_special_cases(backend: str, function: str, kind: str, arity: int, order: str) -> None:
    if (backend, function, kind) in KNOWN_DIFFERENCES:
        pytest.xfail(KNOWN_DIFFERENCES[backend, function, kind])
    function_rules = BY_FUNCTION[function, kind, arity]
    failures = []
    for dtype in DTYPES[kind]:
        if dtype in unsupported_dtypes(backend):  # (MXNet has no complex dtypes) never converted silently
            with pytest.raises(hd.UnsupportedDtypeError):
                hd.asarray(1.0, dtype=dtype, backend=backend)
            continue
        failures += _failures(function_rules, _points(function_rules, order), dtype, backend)
    assert not failures, f"{len(failures)} special cases differ on {backend}:\n" + "\n".join(failures[:40])


# ---- the general rules at the dtype's extremes: overflow to an infinity, underflow to a zero ---------

GENERAL = {r.function: r for r in RULES if r.general and r.kind == "real"}


def _extremes(dtype: str) -> tuple[float, ...]:
    info = np.finfo(dtype)
    big, tiny = float(info.max), float(info.smallest_normal)
    return (big, -big, big / 4, tiny, -tiny, 4 * tiny, 0.5, -0.5, 3.0, -3.0)


def _flushed(value: float, dtype: str) -> bool:
    """A nonzero result below the smallest normal number: TensorFlow's and XLA's CPU kernels flush it."""
    return value != 0 and abs(value) < float(np.finfo(dtype).smallest_normal)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("function", sorted(GENERAL))
def test_general_rules_at_extremes(backend: str, function: str) -> None:
    """The general rule ("the quotient must be computed and rounded ... overflows ... underflows") at the
    dtype's largest and smallest normal numbers, where the other sentences do not hold."""
    function_rules = BY_FUNCTION[function, "real", 2]
    failures = []
    for dtype in DTYPES["real"]:
        points = []
        for v in itertools.product(_extremes(dtype), repeat=2):
            if GENERAL[function] not in _applicable(function_rules, v):
                continue
            want = rounded(GENERAL_OPERATORS[function](*v), dtype)
            if _flushed(want, dtype):  # a subnormal result (docs/backends.md: flushed to zero on TF and JAX)
                continue
            if function == "floor_divide" and (v[0] / v[1] == 0 or _flushed(v[0] / v[1], dtype)):
                # the quotient underflows: the standard says "a zero", Python and NumPy floor the exact
                # quotient (-1.0 for -tiny // 3.0); XLA flushes a subnormal quotient to -0.0 first
                continue
            points.append(v)
        assert points
        failures += _failures(function_rules, points, dtype, backend)
    assert not failures, f"{len(failures)} cases differ on {backend}:\n" + "\n".join(failures[:40])


def test_every_sentence_is_read() -> None:
    """Every special-case sentence is machine-checked (UNREAD is empty); each rule meets the grid."""
    assert len(RULES) == sum(len(s) for kinds in SPECIAL_CASES.values() for s in kinds.values()) == 486
    for rule in RULES:
        assert _points([rule], ORDERS[0]), f"no grid point meets {rule!r}"
    assert not UNREAD, UNREAD


def test_grid_has_both_twins() -> None:
    """The grid holds each signed twin, so each order puts one twin first."""
    for values in (REALS, PARTS, PARTS4):
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
