"""Hypothesis building blocks for the cross-backend harness (tests/harness.py).

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
):
    """Scalars of ``dtype``: integers in ``ints`` (clipped to the dtype), reals in ``floats``.

    Complex numbers have both parts drawn as reals. ``special`` adds NaN, +-inf, +-0.
    """
    if dtype.kind == "bool":
        return st.booleans()
    if dtype.kind in ("signed integer", "unsigned integer"):
        return st.integers(*_int_range(dtype, *ints))
    width = 32 if dtype in (hd.float32, hd.complex64) else 64
    real = st.floats(floats[0], floats[1], width=width)
    if special:
        real = st.one_of(real, st.sampled_from(SPECIAL_FLOATS))
    if dtype.kind == "complex floating":
        return st.builds(complex, real, real)
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


@st.composite
def binary(draw, kinds="numeric", kinds2=None, **element_options) -> Case:
    """``f(x1, x2)`` with broadcast-compatible shapes and dtypes the standard promotes together.

    ``kinds2`` gives ``x2`` its own kinds (then the dtypes are drawn independently).
    """
    s1, s2 = draw(broadcastable_shapes(2))
    if kinds2 is None:
        d1, d2 = draw(dtype_pair(kinds))
    else:
        d1, d2 = draw(dtypes(kinds)), draw(dtypes(kinds2))
    return Case((draw(arrays(d1, s1, **element_options)), draw(arrays(d2, s2, **element_options))), {})


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
