"""Hypothesis building blocks for the cross-backend harness (tests/core/harness.py).

Strategies produce *NumPy* inputs (arrays, Python scalars, hedera dtypes); the
harness converts them to each backend and to the reference. Everything here is
framework-free.

Conventions
-----------
* Dtypes are drawn as hedera dtypes (``hd.float32``); their ``.dtype`` is the NumPy one.
* ``kinds`` are the standard's kind names ("bool", "signed integer", "unsigned
  integer", "integral", "real floating", "complex floating", "numeric") or tuples of them.
* Elements stay in ranges where the standard specifies the result: integer
  arithmetic never overflows (wrap-around is unspecified), and float ranges are
  moderate. ``special=True`` mixes in NaN, +-inf and +-0, whose results the
  standard specifies for the element-wise functions.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import hedera as hd
from hedera import dtypes as hdt

STANDARD_DTYPES = tuple(getattr(hd, n) for n in hd._api.DTYPE_NAMES)


def dtypes_of(kinds: str | tuple[str, ...]) -> tuple[hdt.DType, ...]:
    """The standard's dtypes of ``kinds``."""
    return tuple(d for d in STANDARD_DTYPES if hdt.isdtype(d, kinds))


def dtypes(kinds: str | tuple[str, ...] = "numeric") -> st.SearchStrategy[hdt.DType]:
    return st.sampled_from(dtypes_of(kinds))


class Case(NamedTuple):
    """One call: positional and keyword arguments (NumPy arrays, Python values, hedera dtypes)."""

    args: tuple
    kwargs: dict

    def __repr__(self) -> str:  # short, readable falsifying examples
        def show(v: Any) -> str:
            if isinstance(v, np.ndarray):
                return f"np.array({v.tolist()!r}, dtype={v.dtype.name})"
            if isinstance(v, (list, tuple)):
                inner = ", ".join(show(i) for i in v)
                return f"[{inner}]" if isinstance(v, list) else f"({inner},)"
            return repr(v)

        parts = [show(a) for a in self.args] + [f"{k}={show(v)}" for k, v in self.kwargs.items()]
        return f"Case({', '.join(parts)})"


class Device:
    """A device argument: ``"cpu"`` as a string, or the backend's default device as its native object.

    The harness passes it to hedera in that spelling and leaves it out of the reference call.
    """

    def __init__(self, spelling: str) -> None:
        self.spelling = spelling

    def __repr__(self) -> str:
        return f"Device({self.spelling!r})"


def with_device(cases):
    """``cases`` with a ``device`` argument: None, ``"cpu"``, or the native default device."""
    devices = st.sampled_from((None, Device("cpu"), Device("native")))
    return st.tuples(cases, devices).map(lambda t: Case(t[0].args, {**t[0].kwargs, "device": t[1]}))


# ---- shapes ---------------------------------------------------------------------------------


def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 4):
    """Array shapes, 0-d and empty ones included by default."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


@st.composite
def broadcastable_shapes(draw, n: int = 2, min_dims: int = 0, max_dims: int = 3, max_side: int = 4):
    """``n`` mutually broadcastable shapes; sometimes with a zero-size axis."""
    min_side = draw(st.sampled_from((1, 1, 1, 0)))
    found = draw(
        hnp.mutually_broadcastable_shapes(
            num_shapes=n, min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        )
    )
    return found.input_shapes


# ---- elements -------------------------------------------------------------------------------

SPECIAL_FLOATS = (float("nan"), float("inf"), float("-inf"), 0.0, -0.0)


def _int_range(dtype: hdt.DType, lo: int, hi: int) -> tuple[int, int]:
    info = np.iinfo(dtype.dtype)
    return max(lo, int(info.min)), min(hi, int(info.max))


def elements(
    dtype: hdt.DType,
    *,
    ints: tuple[int, int] = (-50, 50),
    floats: tuple[float, float] = (-100.0, 100.0),
    special: bool = False,
    pool: tuple | None = None,
):
    """Scalars of ``dtype``: integers in ``ints`` (clipped to the dtype), reals in ``floats``.

    Complex numbers have both parts drawn as reals. ``special`` adds NaN, +-inf, +-0.
    ``pool`` draws from a few values instead (ties and duplicates for sorting and sets).
    """
    if dtype.kind == "bool":
        return st.booleans()
    if pool is not None:
        if dtype.kind in ("signed integer", "unsigned integer"):
            pool = tuple(abs(v) if dtype.kind == "unsigned integer" else v for v in pool if v == v)
        return st.sampled_from(pool).map(dtype.dtype.type)
    if dtype.kind in ("signed integer", "unsigned integer"):
        return st.integers(*_int_range(dtype, *ints))
    width = 32 if dtype in (hd.float32, hd.complex64) else 64
    if width == 32:  # bounds must be float32 numbers (rounding may widen them by an ulp)
        floats = (float(np.float32(floats[0])), float(np.float32(floats[1])))
    # no subnormals: XLA (jax) and TensorFlow flush them to zero, and the standard does not require them
    real = st.floats(floats[0], floats[1], width=width, allow_subnormal=False)
    if special:
        real = st.one_of(real, st.sampled_from(SPECIAL_FLOATS))
    if dtype.kind == "complex floating":
        # NumPy (the reference) overflows intermediate terms of complex kernels where the standard
        # does not (np.expm1(89+0j) is inf+nanj, the standard says inf+0j): complex parts stay small
        small = st.floats(max(floats[0], -20.0), min(floats[1], 20.0), width=width, allow_subnormal=False)
        part = st.one_of(small, st.sampled_from(SPECIAL_FLOATS)) if special else small
        return st.builds(complex, part, part)
    return real


def arrays(dtype: hdt.DType, shape, **element_options):
    """NumPy arrays of ``dtype`` and ``shape`` (a tuple or a strategy of tuples)."""
    return hnp.arrays(dtype.dtype, shape, elements=elements(dtype, **element_options))


@st.composite
def array(draw, kinds="numeric", shape=None, **element_options) -> np.ndarray:
    """One array of a dtype of ``kinds`` and any shape (0-d and empty included)."""
    d = draw(dtypes(kinds))
    return draw(arrays(d, shape if shape is not None else shapes(), **element_options))


# ---- dtype pairs ----------------------------------------------------------------------------


def _promotable(a: hdt.DType, b: hdt.DType) -> bool:
    """Whether the standard defines ``result_type(a, b)`` (within one kind family)."""
    cat = {"bool": 0, "signed integer": 1, "unsigned integer": 1}
    if cat.get(a.kind, 2) != cat.get(b.kind, 2):
        return False
    try:
        hdt.promote_types(a, b)
    except hd.DtypeError:
        return False
    return True


@st.composite
def dtype_pair(draw, kinds="numeric", same_prob: float = 0.6):
    """Two dtypes of ``kinds`` the standard promotes together (often equal)."""
    a = draw(dtypes(kinds))
    if draw(st.floats(0, 1)) < same_prob:
        return a, a
    partners = [b for b in dtypes_of(kinds) if _promotable(a, b)]
    return a, draw(st.sampled_from(partners))


# ---- axes -----------------------------------------------------------------------------------


@st.composite
def axis(draw, ndim: int, *, allow_none: bool = True, allow_tuple: bool = True):
    """An axis argument for an array of ``ndim`` dimensions: None, an int (negative too), or a tuple."""
    options = []
    if allow_none:
        options.append(st.none())
    if ndim > 0:
        options.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            options.append(
                st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).flatmap(
                    lambda axes: st.tuples(*[st.sampled_from((a, a - ndim)) for a in axes])
                )
            )
    if not options:
        return None
    return draw(st.one_of(*options))


def single_axis(ndim: int):
    """An int axis in ``[-ndim, ndim)`` (``ndim >= 1``)."""
    return st.integers(-ndim, ndim - 1)


# ---- whole cases ----------------------------------------------------------------------------


@st.composite
def unary(draw, kinds="numeric", shape=None, **element_options) -> Case:
    """``f(x)`` for one array ``x`` of ``kinds``."""
    return Case((draw(array(kinds, shape, **element_options)),), {})


def python_scalar(value: Any, d: hdt.DType) -> bool | int | float | complex:
    """``value`` as the Python scalar of ``d``'s kind."""
    kind = {"bool": bool, "signed integer": int, "unsigned integer": int, "real floating": float}
    return kind.get(d.kind, complex)(value)


@st.composite
def binary(draw, kinds="numeric", kinds2=None, scalars: bool = True, **element_options) -> Case:
    """``f(x1, x2)`` with broadcast-compatible shapes and dtypes the standard promotes together.

    ``kinds2`` gives ``x2`` its own kinds (then the dtypes are drawn independently). With
    ``scalars``, one operand is sometimes a Python scalar of the other's kind (as the standard allows).
    """
    s1, s2 = draw(broadcastable_shapes(2))
    if kinds2 is None:
        d1, d2 = draw(dtype_pair(kinds))
    else:
        d1, d2 = draw(dtypes(kinds)), draw(dtypes(kinds2))
    x1, x2 = draw(arrays(d1, s1, **element_options)), draw(arrays(d2, s2, **element_options))
    form = draw(st.sampled_from(("arrays", "arrays", "arrays", "scalar x1", "scalar x2"))) if scalars else ""
    if form == "scalar x1":
        x1 = python_scalar(draw(elements(d2, **element_options)), d2)
    elif form == "scalar x2":
        x2 = python_scalar(draw(elements(d1, **element_options)), d1)
    return Case((x1, x2), {})


@st.composite
def reduction(
    draw, kinds="numeric", keepdims=True, dtype_kinds=None, tuple_axes=True, **element_options
) -> Case:
    """``f(x, axis=..., keepdims=...)``; with ``dtype_kinds`` also a ``dtype`` argument (often None)."""
    x = draw(array(kinds, **element_options))
    kwargs = {"axis": draw(axis(x.ndim, allow_tuple=tuple_axes))}
    if keepdims:
        kwargs["keepdims"] = draw(st.booleans())
    if dtype_kinds is not None:
        kwargs["dtype"] = draw(st.one_of(st.none(), dtypes(dtype_kinds)))
    return Case((x,), kwargs)


def same_dtype_arrays(d: hdt.DType, shape_list, **element_options):
    """A tuple of arrays of one dtype, one per shape."""
    return st.tuples(*[arrays(d, s, **element_options) for s in shape_list])


def _kind_of(d: hdt.DType) -> str:
    return "int" if d.kind in ("signed integer", "unsigned integer") else d.kind


@st.composite
def accumulation_dtype(draw, d: hdt.DType):
    """A ``dtype`` argument for sum/prod/cumulative_*/trace on ``d`` arrays: None or a wide one of its kind.

    Narrow integer targets could overflow (unspecified), so integers get only 64-bit ones.
    """
    if d.kind in ("signed integer", "unsigned integer"):
        options = [t for t in (hd.int64, hd.uint64) if hdt.can_cast(d, t)]
    elif d.kind == "bool":
        options = []
    else:
        options = [t for t in dtypes_of(d.kind) if hdt.can_cast(d, t)]
    return draw(st.sampled_from([None, *options]))


@st.composite
def accumulation(draw, kinds="numeric", *, cumulative=False, **element_options) -> Case:
    """sum/prod (axis, keepdims, dtype) or cumulative_sum/prod (axis, dtype, include_initial)."""
    d = draw(dtypes(kinds))
    x = draw(arrays(d, shapes(min_dims=1 if cumulative else 0, max_side=3), **element_options))
    kwargs: dict[str, Any] = {"dtype": draw(accumulation_dtype(d))}
    if cumulative:
        ax = draw(single_axis(x.ndim))
        kwargs["axis"] = None if x.ndim == 1 and draw(st.booleans()) else ax
        kwargs["include_initial"] = draw(st.booleans())
    else:
        kwargs["axis"] = draw(axis(x.ndim))
        kwargs["keepdims"] = draw(st.booleans())
    return Case((x,), kwargs)


@st.composite
def nonempty_reduction(draw, kinds="real floating", *, tuple_axes=True, keepdims=True, **element_options):
    """max/min/argmax/argmin: every axis has size >= 1 (reducing nothing is unspecified)."""
    x = draw(array(kinds, shapes(min_side=1), **element_options))
    kwargs: dict[str, Any] = {"axis": draw(axis(x.ndim, allow_tuple=tuple_axes))}
    if keepdims:
        kwargs["keepdims"] = draw(st.booleans())
    return Case((x,), kwargs)


# ---- creation -----------------------------------------------------------------------------------


@st.composite
def fill_value_for(draw, d: hdt.DType | None):
    """A Python scalar representable in ``d`` (any kind when ``d`` is None)."""
    if d is None:
        return draw(
            st.one_of(
                st.booleans(),
                st.integers(-100, 100),
                st.floats(-100, 100, allow_subnormal=False),
                st.complex_numbers(max_magnitude=100),
            )
        )
    if d.kind == "bool":
        return draw(st.booleans())
    if d.kind in ("signed integer", "unsigned integer"):
        return draw(st.integers(*_int_range(d, -100, 100)))
    if d.kind == "real floating":
        return draw(
            st.floats(-100, 100, width=32, allow_subnormal=False)
            | st.sampled_from((float("inf"), float("nan")))
        )
    return draw(
        st.builds(
            complex,
            st.floats(-100, 100, width=32, allow_subnormal=False),
            st.floats(-100, 100, width=32, allow_subnormal=False),
        )
    )


def python_kind(value: Any) -> str:
    """The default-dtype kind of a Python scalar."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "integral"
    if isinstance(value, float):
        return "real floating"
    return "complex floating"


@st.composite
def arange_case(draw) -> Case:
    """Integer or exactly representable float ranges (so the length is unambiguous), <= 20 elements."""
    if draw(st.booleans()):
        d = draw(st.none() | dtypes("integral"))
        lo = 0 if d is not None and d.kind == "unsigned integer" else -10
        start, stop = draw(st.integers(lo, 10)), draw(st.none() | st.integers(lo, 10))
        step = draw(st.sampled_from((1, 2, 3, -1, -2)))
    else:
        d = draw(st.none() | dtypes("real floating"))
        start = draw(st.integers(-20, 20)) / 4
        stop = draw(st.none() | st.integers(-20, 20).map(lambda v: v / 4))
        step = draw(st.sampled_from((1.0, 0.5, 0.25, -0.5, -1.0)))
    if stop is None and (step < 0 or start < 0):
        step = abs(step)
        start = abs(start)
    return Case((start,), {"stop": stop, "step": step, "dtype": d})


@st.composite
def asarray_case(draw) -> Case:
    """A nested list, a Python scalar, or an array, with an optional dtype of a compatible kind."""
    form = draw(st.sampled_from(("list", "scalar", "array")))
    if form == "array":
        x = draw(array(("bool", "numeric"), ints=(0, 100), floats=(0, 100)))
        return Case((x,), {"dtype": draw(st.none() | st.just(hdt.as_hedera_dtype(x.dtype)))})
    kind = draw(st.sampled_from(("bool", "integral", "real floating", "complex floating")))
    d = draw(st.none() | dtypes(kind))
    scalar = {
        "bool": st.booleans(),
        "integral": st.integers(0, 100),
        "real floating": st.floats(-100, 100, width=32, allow_subnormal=False),
        "complex floating": st.builds(
            complex,
            st.floats(-100, 100, width=32, allow_subnormal=False),
            st.floats(-100, 100, width=32, allow_subnormal=False),
        ),
    }[kind]
    if form == "scalar":
        return Case((draw(scalar),), {"dtype": d})
    shape = draw(shapes(min_dims=1, max_dims=2, max_side=3))
    flat = draw(st.lists(scalar, min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    nested = np.array(flat, dtype=object).reshape(shape).tolist()
    return Case((nested,), {"dtype": d})


@st.composite
def like_case(draw, fill=False) -> Case:
    """``*_like(x, [fill_value,] dtype=...)``."""
    x = draw(array(("bool", "numeric")))
    d = draw(st.none() | dtypes(("bool", "numeric")))
    args: tuple = (x,)
    if fill:
        args = (x, draw(fill_value_for(d or hdt.as_hedera_dtype(x.dtype))))
    return Case(args, {"dtype": d})


@st.composite
def eye_case(draw) -> Case:
    n = draw(st.integers(0, 5))
    m = draw(st.none() | st.integers(0, 5))
    return Case(
        (n, m), {"k": draw(st.integers(-6, 6)), "dtype": draw(st.none() | dtypes(("bool", "numeric")))}
    )


@st.composite
def linspace_case(draw) -> Case:
    d = draw(st.none() | dtypes(("real floating", "complex floating")))
    real = st.floats(-100, 100, width=32, allow_subnormal=False)
    value = st.builds(complex, real, real) if d is not None and d.kind == "complex floating" else real
    return Case(
        (draw(value), draw(value)),
        {"num": draw(st.integers(0, 10)), "endpoint": draw(st.booleans()), "dtype": d},
    )


@st.composite
def meshgrid_case(draw) -> Case:
    d = draw(dtypes(("bool", "numeric")))
    n = draw(st.integers(1, 3))  # with no arrays there is no backend to dispatch to
    xs = [draw(arrays(d, shapes(1, 1, 0, 4))) for _ in range(n)]
    return Case(tuple(xs), {"indexing": draw(st.sampled_from(("xy", "ij")))})


@st.composite
def triangle_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(min_dims=2)))
    return Case((x,), {"k": draw(st.integers(-4, 4))})


# ---- data types ---------------------------------------------------------------------------------


@st.composite
def astype_case(draw) -> Case:
    """Casts whose result the standard specifies: values exactly representable in every dtype.

    Complex to real or bool casts are not permitted (tests/core/test_errors.py) and not drawn.
    """
    source = draw(dtypes(("bool", "numeric")))
    target = draw(dtypes(("bool", "numeric")))
    if source.kind == "complex floating" and target.kind != "complex floating":
        target = draw(dtypes("complex floating"))
    x = draw(arrays(source, shapes(), pool=(0, 1, 2, 3, 100, 127)))
    return Case((x, target), {"copy": draw(st.booleans())})


# ---- element-wise -------------------------------------------------------------------------------


def _no_unsigned_underflow(case: Case) -> Case:
    """x1 - x2 on unsigned integers is unspecified below zero: shift x1 up by max(x2)."""
    x1, x2 = case.args
    if np.result_type(x1, x2).kind == "u" and np.size(x2):
        top = int(np.max(x2))
        x1 = x1 + top if isinstance(x1, int) else np.asarray(x1 + top).astype(x1.dtype)
    return Case((x1, x2), case.kwargs)


def subtract_case():
    return binary("numeric", special=True).map(_no_unsigned_underflow)


@st.composite
def nonzero_divisor(draw, kinds) -> Case:
    """floor_divide/remainder: integer divisors are never zero (that is unspecified)."""
    case = draw(binary(kinds, special=True, ints=(-50, 50)))
    x1, x2 = case.args
    if isinstance(x2, np.ndarray) and x2.dtype.kind in "iu":
        x2 = np.where(x2 == 0, 1, x2).astype(x2.dtype)
    elif isinstance(x2, int) and x2 == 0:
        x2 = 1
    return Case((x1, x2), {})


@st.composite
def pow_case(draw) -> Case:
    """Integer powers: small bases, exponents 0..3 (negative integer exponents are unspecified)."""
    s1, s2 = draw(broadcastable_shapes(2))
    d1, d2 = draw(dtype_pair("numeric"))
    if d1.kind in ("signed integer", "unsigned integer"):
        return Case((draw(arrays(d1, s1, ints=(-3, 3))), draw(arrays(d2, s2, ints=(0, 3)))), {})
    special = d1.kind != "complex floating"
    return Case(
        (draw(arrays(d1, s1, floats=(-10, 10), special=special)), draw(arrays(d2, s2, floats=(-3, 3)))), {}
    )


@st.composite
def shift_case(draw) -> Case:
    """Shifts by 0..bits-1 of the narrower type; left shifts keep small values so nothing overflows."""
    case = draw(binary("integral", scalars=False, ints=(-10, 10)))
    x1, x2 = case.args
    bits = min(x1.dtype.itemsize, x2.dtype.itemsize) * 8
    x2 = np.abs(x2) % min(bits, 4)
    return Case((x1, x2.astype(case.args[1].dtype)), {})


@st.composite
def clip_case(draw) -> Case:
    """clip(x, min, max): same dtype kind, bounds broadcastable to x, min <= max (else unspecified).

    ``min`` is drawn from the lower half of the range and ``max`` from the upper half.
    """
    d = draw(dtypes(("integral", "real floating")))
    x = draw(arrays(d, shapes(), special=d.kind == "real floating"))

    def bound(ints, floats):
        form = draw(st.sampled_from(("none", "scalar", "array")))
        if form == "none":
            return None
        if form == "scalar":
            value = draw(elements(d, ints=ints, floats=floats))
            return float(value) if d.kind == "real floating" else int(value)
        shape = tuple(draw(st.sampled_from((1, n))) for n in x.shape[draw(st.integers(0, x.ndim)) :])
        return draw(arrays(d, shape, ints=ints, floats=floats))

    return Case((x,), {"min": bound((-50, 0), (-100, 0)), "max": bound((0, 50), (0, 100))})


# ---- searching, sets, sorting ---------------------------------------------------------------------


@st.composite
def where_case(draw) -> Case:
    s0, s1, s2 = draw(broadcastable_shapes(3))
    d1, d2 = draw(dtype_pair(("bool", "numeric")))
    return Case((draw(arrays(hd.bool, s0)), draw(arrays(d1, s1)), draw(arrays(d2, s2))), {})


@st.composite
def searchsorted_case(draw) -> Case:
    """x1 is sorted (or ``sorter`` sorts it); one dtype for both (mixed kinds are unspecified); no NaN."""
    d = draw(dtypes(("integral", "real floating")))
    x1 = draw(arrays(d, shapes(1, 1), pool=(-3, -1, 0, 1, 2, 5)))
    x2 = draw(arrays(d, shapes(max_dims=2), pool=(-4, -3, -1, 0, 1, 2, 3, 5, 6)))
    kwargs: dict[str, Any] = {"side": draw(st.sampled_from(("left", "right")))}
    if draw(st.booleans()):
        kwargs["sorter"] = np.argsort(x1, kind="stable").astype(np.int64)
    else:
        x1 = np.sort(x1)
    return Case((x1, x2), kwargs)


@st.composite
def sort_case(draw, argsort: bool = False) -> Case:
    """Real arrays with ties, no NaN (their order is unspecified). ``argsort`` of ties needs ``stable``."""
    x = draw(array(("integral", "real floating"), shapes(min_dims=1), pool=(-2, -1, 0, 1, 3)))
    kwargs = {
        "axis": draw(single_axis(x.ndim)),
        "descending": draw(st.booleans()),
        "stable": True if argsort else draw(st.booleans()),
    }
    return Case((x,), kwargs)


def set_case():
    """Arrays with duplicate values (NaN included: NaNs are distinct, as the standard says)."""
    return unary(("bool", "numeric"), pool=(-2, 0, 1, 3, 1, 0, float("nan")))


@st.composite
def isin_case(draw) -> Case:
    """isin on integers (what the standard defines it for)."""
    s1, s2 = draw(shapes()), draw(shapes())
    d1, d2 = draw(dtype_pair("integral"))
    return Case(
        (draw(arrays(d1, s1, ints=(-5, 5))), draw(arrays(d2, s2, ints=(-5, 5)))),
        {"invert": draw(st.booleans())},
    )


# ---- manipulation -------------------------------------------------------------------------------


@st.composite
def broadcast_to_case(draw) -> Case:
    target = draw(shapes(max_dims=4))
    kept = target[draw(st.integers(0, len(target))) :]
    shape = tuple(draw(st.sampled_from((1, n))) for n in kept)
    return Case((draw(array(("bool", "numeric"), shape)),), {"shape": target})


@st.composite
def broadcast_arrays_case(draw) -> Case:
    n = draw(st.integers(1, 3))
    found = draw(broadcastable_shapes(n))
    return Case(tuple(draw(array(("bool", "numeric"), s)) for s in found), {})


@st.composite
def concat_case(draw) -> Case:
    """Arrays equal in shape but along ``axis`` (or flattened with ``axis=None``), promotable dtypes."""
    d1, d2 = draw(dtype_pair(("bool", "numeric")))
    base = draw(shapes(min_dims=1))
    n = draw(st.integers(1, 3))
    if draw(st.integers(0, 4)) == 0:
        ax = None
        shape_list = [draw(shapes()) for _ in range(n)]
    else:
        ax = draw(single_axis(len(base)))
        shape_list = []
        for _ in range(n):
            s = list(base)
            s[ax] = draw(st.integers(0, 3))
            shape_list.append(tuple(s))
    xs = [draw(arrays(d1 if i % 2 == 0 else d2, s)) for i, s in enumerate(shape_list)]
    return Case((xs,), {"axis": ax})


@st.composite
def stack_case(draw) -> Case:
    d = draw(dtypes(("bool", "numeric")))
    shape = draw(shapes())
    xs = [draw(arrays(d, shape)) for _ in range(draw(st.integers(1, 3)))]
    return Case((xs,), {"axis": draw(st.integers(-len(shape) - 1, len(shape)))})


@st.composite
def expand_dims_case(draw) -> Case:
    x = draw(array(("bool", "numeric")))
    return Case((x,), {"axis": draw(st.integers(-x.ndim - 1, x.ndim))})


@st.composite
def flip_case(draw) -> Case:
    x = draw(array(("bool", "numeric")))
    return Case((x,), {"axis": draw(axis(x.ndim))})


@st.composite
def moveaxis_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(min_dims=1)))
    if draw(st.booleans()):
        return Case((x, draw(single_axis(x.ndim)), draw(single_axis(x.ndim))), {})
    k = draw(st.integers(1, x.ndim))
    source = draw(st.permutations(range(x.ndim)))[:k]
    dest = draw(st.permutations(range(-x.ndim, 0)))[:k]
    return Case((x, tuple(source), tuple(dest)), {})


@st.composite
def permute_dims_case(draw) -> Case:
    x = draw(array(("bool", "numeric")))
    return Case((x,), {"axes": tuple(draw(st.permutations(range(x.ndim))))})


@st.composite
def repeat_case(draw) -> Case:
    """``repeats`` an int or a 1-d int array (one count per element along the axis, or a single one)."""
    x = draw(array(("bool", "numeric"), shapes(max_dims=3, max_side=3)))
    ax = draw(st.none() | single_axis(x.ndim)) if x.ndim else None
    n = x.size if ax is None else x.shape[ax]
    if draw(st.booleans()):
        repeats: Any = draw(st.integers(0, 3))
    else:
        length = draw(st.sampled_from((1, n)))
        repeats = draw(arrays(hd.int64, (length,), ints=(0, 3)))
    return Case((x, repeats), {"axis": ax})


@st.composite
def reshape_case(draw) -> Case:
    x = draw(array(("bool", "numeric")))
    size = x.size
    divisors = [k for k in range(1, size + 1) if size % k == 0] or [0]
    first = draw(st.sampled_from(divisors))
    rest = size // first if first else draw(st.integers(0, 3))
    shape: list[int] = [first, rest] if draw(st.booleans()) else [size]
    if size and draw(st.booleans()):
        shape[draw(st.integers(0, len(shape) - 1))] = -1
    return Case((x,), {"shape": tuple(shape), "copy": draw(st.sampled_from((None, True)))})


@st.composite
def roll_case(draw) -> Case:
    x = draw(array(("bool", "numeric")))
    if x.ndim and draw(st.booleans()):
        axes = tuple(draw(st.lists(single_axis(x.ndim), min_size=1, max_size=3)))
        shift: Any = tuple(draw(st.integers(-5, 5)) for _ in axes)
        if len(axes) == 1 and draw(st.booleans()):
            axes, shift = axes[0], shift[0]
        return Case((x,), {"shift": shift, "axis": axes})
    return Case((x,), {"shift": draw(st.integers(-5, 5)), "axis": None})


@st.composite
def squeeze_case(draw) -> Case:
    shape = draw(shapes(max_dims=4).filter(lambda s: 1 in s))
    x = draw(array(("bool", "numeric"), shape))
    ones = [i for i, n in enumerate(shape) if n == 1]
    chosen = draw(st.lists(st.sampled_from(ones), min_size=1, unique=True))
    chosen = [a - x.ndim if draw(st.booleans()) else a for a in chosen]
    return Case((x,), {"axis": chosen[0] if len(chosen) == 1 else tuple(chosen)})


@st.composite
def tile_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(max_side=3)))
    return Case((x, tuple(draw(st.lists(st.integers(0, 3), max_size=4)))), {})


@st.composite
def unstack_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(min_dims=1)))
    return Case((x,), {"axis": draw(single_axis(x.ndim))})


# ---- indexing -----------------------------------------------------------------------------------


@st.composite
def take_case(draw) -> Case:
    """Non-negative in-range indices (out-of-range and negative ones are unspecified)."""
    x = draw(array(("bool", "numeric"), shapes(min_dims=1, min_side=1)))
    ax = None if x.ndim == 1 and draw(st.booleans()) else draw(single_axis(x.ndim))
    n = x.shape[0 if ax is None else ax]
    idx = draw(arrays(draw(dtypes("integral")), shapes(1, 1), ints=(0, n - 1)))
    return Case((x, idx), {"axis": ax})


@st.composite
def take_along_axis_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(min_dims=1, min_side=1)))
    ax = draw(single_axis(x.ndim))
    shape = list(x.shape)
    shape[ax] = draw(st.integers(0, 4))
    idx = draw(arrays(hd.int64, tuple(shape), ints=(0, x.shape[ax] - 1)))
    return Case((x, idx), {"axis": ax})


# ---- linear algebra -----------------------------------------------------------------------------


def batch_shapes(max_dims: int = 2):
    return shapes(max_dims=max_dims, min_side=1, max_side=3)


@st.composite
def matmul_case(draw) -> Case:
    """Matrix products: 1-d and n-d operands, broadcast batch axes, small integers so nothing overflows."""
    d1, d2 = draw(dtype_pair("numeric"))
    b1, b2 = draw(broadcastable_shapes(2, max_dims=2, max_side=3))
    m, k, n = (draw(st.integers(0, 4)) for _ in range(3))
    s1 = (k,) if draw(st.integers(0, 3)) == 0 else (*b1, m, k)
    s2 = (k,) if draw(st.integers(0, 3)) == 0 else (*b2, k, n)
    opts = {"ints": (-5, 5), "floats": (-10, 10)}
    return Case((draw(arrays(d1, s1, **opts)), draw(arrays(d2, s2, **opts))), {})


@st.composite
def tensordot_case(draw) -> Case:
    d1, d2 = draw(dtype_pair("numeric"))
    contracted = draw(shapes(max_dims=2, max_side=3))
    left, right = draw(shapes(max_dims=2, max_side=3)), draw(shapes(max_dims=2, max_side=3))
    opts = {"ints": (-5, 5), "floats": (-10, 10)}
    x1 = draw(arrays(d1, left + contracted, **opts))
    if draw(st.booleans()):
        x2 = draw(arrays(d2, contracted + right, **opts))
        return Case((x1, x2), {"axes": len(contracted)})
    # explicit axis lists: contract x1's trailing axes with a permutation of x2's axes
    order = draw(st.permutations(range(len(contracted))))
    x2_shape = tuple(contracted[i] for i in order) + right
    x2 = draw(arrays(d2, x2_shape, **opts))
    axes1 = [len(left) + i for i in order]
    axes2 = list(range(len(contracted)))
    return Case((x1, x2), {"axes": (axes1, axes2)})


@st.composite
def vecdot_case(draw) -> Case:
    d1, d2 = draw(dtype_pair("numeric"))
    s1, s2 = draw(broadcastable_shapes(2, max_dims=2, max_side=3))
    k = draw(st.integers(0, 4))
    opts = {"ints": (-5, 5), "floats": (-10, 10)}
    x1, x2 = draw(arrays(d1, (*s1, k), **opts)), draw(arrays(d2, (*s2, k), **opts))
    return Case((x1, x2), {"axis": -1})  # the standard allows only negative axes


def float_dtypes(complex_: bool = True):
    return dtypes(("real floating", "complex floating") if complex_ else "real floating")


@st.composite
def matrices(
    draw, square: bool = True, complex_: bool = True, min_n: int = 1, max_n: int = 4, batch: bool = True
):
    """(..., m, n) float matrices with entries in [-1, 1]."""
    d = draw(float_dtypes(complex_))
    m = draw(st.integers(min_n, max_n))
    n = m if square else draw(st.integers(min_n, max_n))
    b = draw(batch_shapes()) if batch else ()
    return draw(arrays(d, (*b, m, n), floats=(-1, 1)))


def well_conditioned(a: np.ndarray) -> np.ndarray:
    """``a`` (entries in [-1, 1]) plus ``(n + 1) I``: strictly diagonally dominant, so invertible."""
    n = a.shape[-1]
    return (a + (n + 1) * np.eye(n, dtype=a.dtype)).astype(a.dtype)


def full_rank(a: np.ndarray) -> np.ndarray:
    """``a`` (m, n), entries in [-1, 1], plus ``(max(m, n) + 1)`` on its main diagonal: well conditioned."""
    m, n = a.shape[-2:]
    return (a + (max(m, n) + 1) * np.eye(m, n, dtype=a.dtype)).astype(a.dtype)


def hermitian_positive_definite(a: np.ndarray) -> np.ndarray:
    """``a a^H + n I``: Hermitian, positive definite, well conditioned."""
    n = a.shape[-1]
    product = a @ np.conj(np.swapaxes(a, -1, -2))
    return (product + n * np.eye(n, dtype=a.dtype)).astype(a.dtype)


def hermitian(a: np.ndarray) -> np.ndarray:
    return ((a + np.conj(np.swapaxes(a, -1, -2))) / 2).astype(a.dtype)


def invertible_matrices(**kw):
    return matrices(**kw).map(well_conditioned)


@st.composite
def solve_case(draw) -> Case:
    a = draw(invertible_matrices())
    n = a.shape[-1]
    if draw(st.booleans()):
        b = draw(arrays(hdt.as_hedera_dtype(a.dtype), (n,), floats=(-1, 1)))
    else:
        batch = a.shape[:-2][draw(st.integers(0, a.ndim - 2)) :]
        b = draw(arrays(hdt.as_hedera_dtype(a.dtype), (*batch, n, draw(st.integers(1, 3))), floats=(-1, 1)))
    return Case((a, b), {})


@st.composite
def low_rank_case(draw) -> Case:
    """A product of (m, r) and (r, n) small-integer matrices: its rank is exactly r (almost always)."""
    d = draw(float_dtypes(complex_=False))
    m, n = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    r = draw(st.integers(0, min(m, n)))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    a = rng.integers(-3, 4, (m, r)) @ rng.integers(-3, 4, (r, n))
    return Case((a.astype(d.dtype),), {})


@st.composite
def cross_case(draw) -> Case:
    d1, d2 = draw(dtype_pair(("integral", "real floating", "complex floating")))
    if "unsigned integer" in (d1.kind, d2.kind):
        d1 = d2 = draw(dtypes(("signed integer", "real floating")))  # differences of unsigned can underflow
    s1, s2 = draw(broadcastable_shapes(2, max_dims=2, max_side=3))
    opts = {"ints": (-5, 5), "floats": (-10, 10)}
    x1, x2 = draw(arrays(d1, (*s1, 3), **opts)), draw(arrays(d2, (*s2, 3), **opts))
    return Case((x1, x2), {"axis": -1})


@st.composite
def vector_norm_case(draw) -> Case:
    """The +-inf norms take a max/min, unspecified over no elements: those get non-empty arrays."""
    order = draw(st.sampled_from((1, 2, 3, float("inf"), float("-inf"), 0)))
    min_side = 1 if order in (float("inf"), float("-inf")) else 0
    x = draw(array(("real floating", "complex floating"), shapes(min_side=min_side), floats=(-10, 10)))
    return Case((x,), {"axis": draw(axis(x.ndim)), "keepdims": draw(st.booleans()), "ord": order})


# ---- fft ----------------------------------------------------------------------------------------


@st.composite
def fft_case(draw, kinds, irfft: bool = False) -> Case:
    """One-axis transforms: ``n`` crops or zero-pads; ``irfft``'s default ``n`` needs >= 2 inputs."""
    x = draw(array(kinds, shapes(min_dims=1, min_side=2 if irfft else 1, max_side=5), floats=(-10, 10)))
    return Case(
        (x,),
        {
            "n": draw(st.none() | st.integers(2 if irfft else 1, 8)),
            "axis": draw(single_axis(x.ndim)),
            "norm": draw(st.sampled_from(("backward", "ortho", "forward"))),
        },
    )


@st.composite
def fftn_case(draw, kinds, irfft: bool = False) -> Case:
    x = draw(array(kinds, shapes(min_dims=1, min_side=2 if irfft else 1, max_side=4), floats=(-10, 10)))
    axes = draw(st.permutations(range(x.ndim)))[: draw(st.integers(1, x.ndim))]
    kwargs: dict[str, Any] = {"norm": draw(st.sampled_from(("backward", "ortho", "forward")))}
    if draw(st.booleans()):
        kwargs["axes"] = tuple(a - x.ndim if draw(st.booleans()) else a for a in axes)
        if draw(st.booleans()):
            kwargs["s"] = tuple(draw(st.integers(2 if irfft else 1, 5)) for _ in axes)
    return Case((x,), kwargs)


@st.composite
def fftfreq_case(draw) -> Case:
    return Case(
        (draw(st.integers(1, 10)),),
        {
            "d": draw(st.sampled_from((1.0, 0.5, 0.1, 2.0))),
            "dtype": draw(st.none() | dtypes("real floating")),
        },
    )


@st.composite
def fftshift_case(draw) -> Case:
    x = draw(array(("real floating", "complex floating"), shapes(min_dims=1)))
    axes = draw(axis(x.ndim))
    return Case((x,), {"axes": axes})


# ---- hedera's extras ----------------------------------------------------------------------------


@st.composite
def isclose_case(draw) -> Case:
    """x2 is x1 plus noise of varied size, so both outcomes occur; NaN and inf included."""
    d = draw(dtypes("real floating"))
    s1, s2 = draw(broadcastable_shapes(2))
    x1 = draw(arrays(d, s1, special=True))
    noise = draw(arrays(d, s2, floats=(-1e-3, 1e-3), special=True))
    x2 = (x1 * draw(st.sampled_from((0.0, 1.0))) + noise).astype(d.dtype) if x1.shape == s2 else noise
    return Case(
        (x1, x2),
        {
            "rtol": draw(st.sampled_from((1e-5, 1e-3, 0.0))),
            "atol": draw(st.sampled_from((1e-8, 1e-3, 0.0))),
            "equal_nan": draw(st.booleans()),
        },
    )


EINSUM_TEMPLATES = (
    ("ij,jk->ik", "ij", "jk"),
    ("ii->i", "ii"),
    ("ij->ji", "ij"),
    ("i,i->", "i", "i"),
    ("bij,bjk->bik", "bij", "bjk"),
    ("ij->", "ij"),
    ("i,j->ij", "i", "j"),
    ("ijk->kj", "ijk"),
    ("...ij,...jk->...ik", "bij", "bjk"),
)


@st.composite
def einsum_case(draw) -> Case:
    subscripts, *operands = draw(st.sampled_from(EINSUM_TEMPLATES))
    sizes = {c: draw(st.integers(0, 3)) for c in "ijkb"}
    d = draw(dtypes("numeric"))
    xs = [draw(arrays(d, tuple(sizes[c] for c in op), ints=(-5, 5), floats=(-10, 10))) for op in operands]
    return Case((subscripts, *xs), {})


@st.composite
def gather_nd_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(min_dims=1, min_side=1)))
    batch_dims = draw(st.integers(0, x.ndim - 1))
    k = draw(st.integers(1, x.ndim - batch_dims))
    outer = draw(shapes(max_dims=2, max_side=3))
    columns = [
        draw(arrays(hd.int64, (*x.shape[:batch_dims], *outer, 1), ints=(0, x.shape[batch_dims + j] - 1)))
        for j in range(k)
    ]
    return Case((x, np.concatenate(columns, axis=-1)), {"batch_dims": batch_dims})


@st.composite
def scatter_nd_case(draw) -> Case:
    """Repeated indices included (their updates are summed)."""
    shape = draw(shapes(min_dims=1, min_side=1, max_side=4))
    k = draw(st.integers(1, len(shape)))
    outer = draw(shapes(max_dims=2, max_side=3))
    columns = [draw(arrays(hd.int64, (*outer, 1), ints=(0, shape[j] - 1))) for j in range(k)]
    d = draw(dtypes("numeric"))
    updates = draw(arrays(d, (*outer, *shape[k:]), ints=(-5, 5)))
    return Case((np.concatenate(columns, axis=-1), updates, shape), {})


@st.composite
def one_hot_case(draw) -> Case:
    """Indices in [-1, num_classes]: the out-of-range ones give all-zero rows."""
    num_classes = draw(st.integers(1, 5))
    idx = draw(arrays(draw(dtypes("signed integer")), shapes(max_dims=2), ints=(-1, num_classes)))
    return Case(
        (idx, num_classes),
        {
            "dtype": draw(st.none() | dtypes(("bool", "numeric"))),
            "axis": draw(st.integers(-idx.ndim - 1, idx.ndim)),
        },
    )


@st.composite
def pad_case(draw) -> Case:
    """Widths within what every framework pads in one step: reflect < size, symmetric/wrap <= size."""
    mode = draw(st.sampled_from(("constant", "reflect", "symmetric", "edge", "wrap")))
    min_side = {"reflect": 2, "constant": 0}.get(mode, 1)
    x = draw(array(("bool", "numeric") if mode != "constant" else "numeric", shapes(min_side=min_side)))
    limit = {"reflect": -1, "constant": 3}.get(mode, 0)
    pairs = [tuple(draw(st.integers(0, 3 if limit == 3 else n + limit)) for _ in range(2)) for n in x.shape]
    form = draw(st.sampled_from(("pairs", "pair", "int")))
    if form == "pair" and len(set(pairs)) <= 1 and pairs:
        pad_width: Any = pairs[0]
    elif form == "int" and len({p for pair in pairs for p in pair}) <= 1 and pairs:
        pad_width = pairs[0][0]
    else:
        pad_width = tuple(pairs)
    kwargs: dict[str, Any] = {"mode": mode}
    if mode == "constant":
        kwargs["constant_values"] = int(
            draw(elements(hdt.as_hedera_dtype(x.dtype), ints=(0, 5), floats=(0, 5))).real
        )
    return Case((x, pad_width), kwargs)


@st.composite
def split_case(draw) -> Case:
    x = draw(array(("bool", "numeric"), shapes(min_dims=1)))
    ax = draw(single_axis(x.ndim))
    n = x.shape[ax]
    if draw(st.booleans()):
        sections: Any = draw(st.sampled_from([k for k in range(1, 5) if n % k == 0]))
    else:
        # NumPy reads indices as slice bounds: negative, out-of-range and decreasing ones are allowed
        sections = draw(st.lists(st.integers(-n - 1, n + 1), max_size=3))
    return Case((x, sections), {"axis": ax})


@st.composite
def top_k_case(draw) -> Case:
    """Real arrays with ties (the lower index comes first); no NaN."""
    x = draw(array(("integral", "real floating"), shapes(min_dims=1), pool=(-2, -1, 0, 1, 3)))
    ax = draw(single_axis(x.ndim))
    return Case((x, draw(st.integers(0, x.shape[ax]))), {"axis": ax, "largest": draw(st.booleans())})


@st.composite
def index_update_case(draw):
    """``(x, index, op, values)`` for ``hd.at(x)[index].<op>(values)``; integer indices may repeat."""
    x = draw(array("real floating", shapes(min_dims=1, min_side=1, max_dims=2)))
    form = draw(st.sampled_from(("int", "slice", "int array", "mask", "tuple")))
    n = x.shape[0]
    if form == "int":
        index: Any = draw(st.integers(-n, n - 1))
    elif form == "slice":
        index = slice(
            draw(st.none() | st.integers(-n, n)),
            draw(st.none() | st.integers(-n, n)),
            draw(st.sampled_from((None, 1, 2, -1))),
        )
    elif form == "int array":
        index = draw(arrays(hd.int64, (draw(st.integers(0, 4)),), ints=(0, n - 1)))
    elif form == "mask":
        index = draw(arrays(hd.bool, x.shape))
    else:
        index = (draw(st.integers(-n, n - 1)),) + ((slice(None),) if x.ndim > 1 else ())
    op = draw(st.sampled_from(("set", "add", "multiply", "min", "max")))
    target_shape = np.empty(x.shape)[index].shape
    values: Any = (
        draw(st.floats(-10, 10, allow_subnormal=False))
        if draw(st.booleans())
        else draw(arrays(hdt.as_hedera_dtype(x.dtype), target_shape, floats=(-10, 10)))
    )
    if op == "set" and form == "int array":  # which repeated write wins is unspecified: make them unique
        index = np.unique(index)
        values = values if not isinstance(values, np.ndarray) else values[: len(index)]
    return x, index, op, values
