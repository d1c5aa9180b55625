"""Every function of ``hedera._api.FUNCTIONS`` on every backend, against an independent reference.

The machinery is in tests/core/harness.py, the input strategies in tests/core/strategies.py.
Standard functions are checked against ``array_api_strict`` (the default
reference), hedera's extras against plain NumPy/SciPy written here. Where a
row's inputs are restricted to the domain the standard specifies, its strategy
(or a comment here) says so.

Run one function on one backend::

    HEDERA_BACKENDS=torch pytest tests/core/test_functions.py -k "sin"
"""

from __future__ import annotations

from collections import namedtuple

import array_api_strict as strict
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hedera as hd
import strategies as strat
from harness import TOLERANCES, Example, Row, assert_values, check, for_backend, unsupported_dtypes
from hedera import dtypes as hdt
from hedera._api import FUNCTIONS
from strategies import Case

FLOAT = "real floating"
COMPLEX = "complex floating"
INEXACT = (FLOAT, COMPLEX)
REAL = ("integral", FLOAT)
INT = "integral"
ANY = ("bool", "numeric")

TRANSCENDENTAL = (
    "acos acosh asin asinh atan atanh cos cosh exp log log1p log2 log10 sin sinh sqrt tan tanh".split()
)


# ---- default dtypes: which kind of the backend's default_dtypes() a result takes ----------------


def float_unless_dtype(case: Case) -> str | None:
    return FLOAT if case.kwargs.get("dtype") is None else None


def indexing(case: Case) -> str:
    return "indexing"


def _first_scalar(obj):
    while isinstance(obj, list):
        if not obj:
            return 0.0  # an empty list takes the default floating dtype
        obj = obj[0]
    return obj


def python_scalar_kind(value) -> str | None:
    kind = strat.python_kind(value)
    return None if kind == "bool" else kind


def asarray_default(case: Case) -> str | None:
    obj = case.args[0]
    if isinstance(obj, np.ndarray) or case.kwargs["dtype"] is not None:
        return None
    return python_scalar_kind(_first_scalar(obj))


def full_default(case: Case) -> str | None:
    return python_scalar_kind(case.args[1]) if case.kwargs["dtype"] is None else None


def arange_default(case: Case) -> str | None:
    if case.kwargs["dtype"] is not None:
        return None
    values = (case.args[0], case.kwargs["stop"], case.kwargs["step"])
    return FLOAT if any(isinstance(v, float) for v in values) else INT


# ---- fixed examples: the standard's complex special cases -----------------------------------------

INF, NAN = float("inf"), float("nan")


def complex_examples(signed: list[complex], unsigned: list[complex] = ()) -> tuple[Example, ...]:
    """Every value (and its conjugate) as a complex64 and a complex128 array, one example each.

    ``signed`` values have results whose zero parts have a sign the standard specifies;
    ``unsigned`` ones have a zero of unspecified sign, so only the values are compared.
    """
    out = []
    for values, signed_zeros in ((signed, True), (unsigned, False)):
        values = [v for z in values for v in (z, z.conjugate())]
        for dtype in (np.complex64, np.complex128):
            if values:
                out.append(Example(Case((np.array(values, dtype),), {}), signed_zeros))
    return tuple(out)


#: (-0 and +0 real parts give the same results here, the standard's "either +0 or -0")
EXP_SPECIAL = [0j, complex(-0.0, 0), complex(INF, 0), complex(NAN, 0), complex(-INF, 2), complex(INF, 2)]
EXP_UNSIGNED = [complex(-INF, INF), complex(INF, INF), complex(-INF, NAN), complex(INF, NAN)]
EXP_UNSIGNED += [complex(NAN, 2), complex(NAN, NAN), complex(2, INF), complex(2, NAN)]
LOG_SPECIAL = [complex(-0.0, 0), 0j, complex(2, INF), complex(-INF, 2), complex(INF, 2), complex(-INF, INF)]
LOG_SPECIAL += [complex(INF, INF), complex(INF, NAN), complex(-INF, NAN), complex(NAN, INF), complex(NAN, 2)]
LOG_SPECIAL += [complex(2, NAN), complex(NAN, NAN)]
ACOS_SPECIAL = [0j, complex(-0.0, 0), complex(2, INF), complex(-INF, 2), complex(INF, 2), complex(-INF, INF)]
ACOS_SPECIAL += [complex(INF, INF), complex(NAN, INF), complex(0, NAN), complex(2, NAN), complex(NAN, 2)]
SPECIAL_EXAMPLES = {
    "exp": complex_examples(EXP_SPECIAL, EXP_UNSIGNED),
    "expm1": complex_examples([0j, *EXP_SPECIAL[2:]], EXP_UNSIGNED),  # expm1(-0 + 0j): 0 + 0j, unsigned
    "log": complex_examples(LOG_SPECIAL),
    "log1p": complex_examples([complex(-1, 0), *LOG_SPECIAL[2:]]),
    "acos": complex_examples(ACOS_SPECIAL, [complex(INF, NAN), complex(-INF, NAN)]),
}


# ---- references for hedera's extras (NumPy/SciPy; never hedera) ---------------------------------


def ref_cumulative(np_fn, identity):
    def ref(x, /, *, axis=None, dtype=None, include_initial=False):
        axis = 0 if axis is None else axis
        out = np_fn(x, axis=axis, dtype=dtype)  # NumPy accumulates small integers in int64/uint64
        if include_initial:
            shape = list(out.shape)
            shape[axis] = 1
            out = np.concatenate([np.full(shape, identity, out.dtype), out], axis=axis)
        return out

    return ref


def ref_gather_nd(x, indices, /, *, batch_dims=0):
    k = indices.shape[-1]
    batch, outer = x.shape[:batch_dims], indices.shape[batch_dims:-1]
    out = np.empty(batch + outer + x.shape[batch_dims + k :], x.dtype)
    for b in np.ndindex(batch):
        for o in np.ndindex(outer):
            out[b + o] = x[b + tuple(indices[b + o])]
    return out


def ref_scatter_nd(indices, updates, shape, /):
    out = np.zeros(shape, updates.dtype)
    for o in np.ndindex(indices.shape[:-1]):
        out[tuple(indices[o])] += updates[o]
    return out


def ref_logsumexp(x, /, *, axis=None, keepdims=False):
    # the direct formula in float64 is exact enough for |x| <= 100 and right for NaN, +-inf and empty sums;
    # integer and boolean x gives the default floating dtype (cast by the harness, default_kind)
    with np.errstate(all="ignore"):
        out = np.log(np.sum(np.exp(x.astype(np.float64)), axis=axis, keepdims=keepdims))
    return np.asarray(out).astype(x.dtype if x.dtype.kind in "fc" else np.float64)


def float_unless_inexact(case: Case) -> str | None:
    return None if case.args[0].dtype.kind in "fc" else FLOAT


def ref_one_hot(indices, num_classes, /, *, dtype=None, axis=-1):
    table = np.eye(num_classes + 1, dtype=dtype or np.float64)[:, :num_classes]  # last row: all zeros
    valid = (indices >= 0) & (indices < num_classes)
    return np.moveaxis(table[np.where(valid, indices, num_classes)], -1, axis)


def ref_pad(x, pad_width, /, *, mode="constant", constant_values=0):
    if x.ndim == 0:  # no axes to pad (np.pad cannot read an empty pad_width)
        return x.copy()
    if mode == "constant":
        return np.pad(x, pad_width, mode="constant", constant_values=constant_values)
    return np.pad(x, pad_width, mode=mode)


TopK = namedtuple("TopK", ["values", "indices"])


def ref_top_k(x, k, /, *, axis=-1, largest=True):
    keys = x.astype(np.float64)  # exact for the drawn values
    order = np.argsort(-keys if largest else keys, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis)
    return TopK(np.take_along_axis(x, idx, axis=axis), idx)


def ref_split(x, sections, /, *, axis=0):
    return tuple(np.split(x, sections, axis=axis))


def ref_einsum(subscripts, /, *operands):
    return np.einsum(subscripts, *operands)


def ref_expm1(x, /):
    # np.expm1 misses the standard's complex special cases (np.expm1(inf+0j) is inf+nanj, the standard
    # says inf+0j); where a part is not finite, exp(x) - 1 (NumPy's exp follows C99 Annex G) is exact
    out = np.expm1(x)
    if x.dtype.kind == "c":
        out = np.where(np.isfinite(x), out, np.exp(x) - 1).astype(x.dtype)
    return out


def _float_operands(x1, x2, out):
    return np.broadcast_arrays(np.asarray(x1).astype(out.dtype), np.asarray(x2).astype(out.dtype))


def ref_floor_divide(x1, x2, /):
    """array_api_strict's (NumPy's) floor_divide, with the standard's special cases where NumPy follows
    Python instead.

    The standard (2024.12): an infinite ``x1`` over a finite nonzero ``x2`` is an infinity, and a
    zero ``x1`` over a nonzero ``x2`` or a finite nonzero ``x1`` over an infinite ``x2`` is a zero,
    both with the sign of the quotient (Python: NaN, and -1.0 for ``-1.0 // inf``).
    """
    out = np.asarray(strict.floor_divide(x1, x2))  # the standard's promotion (NumPy < 2 promotes by value)
    if out.dtype.kind != "f":
        return out
    a, b = _float_operands(x1, x2, out)
    negative = np.signbit(a) != np.signbit(b)
    infinite = np.isinf(a) & np.isfinite(b) & (b != 0)
    zero = ((a == 0) & (b != 0) & ~np.isnan(b)) | (np.isfinite(a) & (a != 0) & np.isinf(b))
    special = np.where(infinite, np.where(negative, -np.inf, np.inf), np.where(negative, -0.0, 0.0))
    return np.where(infinite | zero, special, out).astype(out.dtype)


def ref_pow(x1, x2, /):
    """array_api_strict's (NumPy's) pow, with the standard's cases of a ``-0`` or ``-inf`` base and an
    exponent that is not an odd integer: ``+0`` or ``+inf`` (NumPy computes ``x ** 0.5`` as ``sqrt(x)``)."""
    out = np.asarray(strict.pow(x1, x2))
    if out.dtype.kind != "f":
        return out
    a, b = _float_operands(x1, x2, out)
    not_odd = ~((b == np.round(b)) & (np.abs(b) % 2 == 1))
    zero_base, inf_base = (a == 0) & np.signbit(a), a == -np.inf
    positive = not_odd & ((zero_base & (b > 0)) | (inf_base & (b < 0)))
    infinite = not_odd & ((zero_base & (b < 0)) | (inf_base & (b > 0)))
    return np.where(positive, 0.0, np.where(infinite, np.inf, out)).astype(out.dtype)


def ref_isin(x1, x2, /, *, invert=False):
    # array_api_strict has isin only from API version 2025.12
    return np.isin(x1, x2, invert=invert)


# ---- comparisons for results defined up to order, sign or phase --------------------------------


def _tol(dtype, factor=10.0):
    rtol, atol = TOLERANCES[np.dtype(dtype).name]
    return rtol * factor, atol * factor


def _conj_t(a):
    return np.conj(np.swapaxes(a, -1, -2))


def _close(got, want, where, factor=10.0):
    got, want = np.asarray(got), np.asarray(want)
    assert_values(got.astype(want.dtype), want, factor, where)


def _eye_like(a, k):
    return np.broadcast_to(np.eye(k, dtype=a.dtype), (*a.shape[:-2], k, k))


def compare_eigh(out, expected, case):
    """Eigenvalue order is unspecified: compare sorted values, then A V = V diag(w) and V^H V = I."""
    x = case.args[0].astype(np.complex128 if np.iscomplexobj(case.args[0]) else np.float64)
    w, v = out
    _close(np.sort(w, axis=-1), np.sort(expected[0], axis=-1), "eigenvalues (sorted)")
    dt = expected[1].dtype
    _close(x @ v, (v * w[..., None, :]).astype(dt), "A @ eigenvectors == eigenvectors * eigenvalues")
    _close(_conj_t(v) @ v, _eye_like(v, v.shape[-1]).astype(dt), "eigenvectors are orthonormal")


def compare_eigvalsh(out, expected, case):
    _close(np.sort(out, axis=-1), np.sort(expected, axis=-1), "eigenvalues (sorted)")


def compare_qr(out, expected, case):
    """Q and R are unique only up to signs: check Q R == A, Q^H Q == I and R upper triangular."""
    q, r = out
    x = case.args[0]
    dt = expected[0].dtype
    _close(q @ r, x.astype(dt), "Q @ R == x")
    _close(_conj_t(q) @ q, _eye_like(q, q.shape[-1]).astype(dt), "Q has orthonormal columns")
    _close(np.tril(r, -1), np.zeros_like(r, dtype=dt), "R is upper triangular")


def compare_svd(out, expected, case):
    """U and Vh are unique only up to phases: check S, U diag(S) Vh == A and orthonormality."""
    u, s, vh = out
    x = case.args[0]
    dt = expected[0].dtype
    _close(s, expected[1], "singular values")
    k = s.shape[-1]
    _close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], x.astype(dt), "U diag(S) Vh == x")
    _close(_conj_t(u) @ u, _eye_like(u, u.shape[-1]).astype(dt), "U is unitary")
    _close(vh @ _conj_t(vh), _eye_like(vh, vh.shape[-2]).astype(dt), "Vh is unitary")


def compare_unique(fields):
    """The order of unique values is unspecified: check the set semantics against the input instead."""

    def compare(out, expected, case):
        x = case.args[0].reshape(-1)
        parts = dict(zip(fields, out if isinstance(out, tuple) else (out,), strict=True))
        ref_values = expected[0] if isinstance(expected, tuple) else expected
        values = parts["values"]
        np.testing.assert_array_equal(np.sort(values), np.sort(ref_values), err_msg="unique values")
        if "indices" in parts:
            np.testing.assert_array_equal(x[parts["indices"]], values, err_msg="x[indices] == values")
        if "inverse_indices" in parts:
            inverse = parts["inverse_indices"]
            assert inverse.shape == case.args[0].shape, "inverse_indices has x's shape"
            np.testing.assert_array_equal(values[inverse.reshape(-1)], x, err_msg="values[inverse] == x")
        if "counts" in parts:
            want = [1 if v != v else int(np.sum(x == v)) for v in values]
            np.testing.assert_array_equal(parts["counts"], want, err_msg="counts")

    return compare


def compare_dtype_result(out, expected, case):
    """``result_type``: a dtype (native or hedera) naming the same dtype as the reference's."""
    assert hdt.as_hedera_dtype(out).name == strict_dtype_name(expected), f"{out!r} != {expected!r}"


def compare_info(fields):
    def compare(out, expected, case):
        for f in fields:
            got, want = getattr(out, f), getattr(expected, f)
            if f == "dtype":
                assert hdt.as_hedera_dtype(got).name == strict_dtype_name(want), f"dtype: {got!r} != {want!r}"
            else:
                assert float(got) == float(want), f"{f}: {got!r} != {want!r}"

    return compare


def strict_dtype_name(d) -> str:
    import array_api_strict

    return next(n for n in hd._api.DTYPE_NAMES if getattr(array_api_strict, n) == d)


def float_matrices(**kw):
    return strat.matrices(**kw).map(lambda a: Case((a,), {}))


# ---- row-specific strategies -------------------------------------------------------------------


@st.composite
def _outer_cases(draw) -> Case:
    d1, d2 = draw(strat.dtype_pair("numeric"))
    n1, n2 = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    opts = {"ints": (-11, 11), "floats": (-10, 10)}
    return Case((draw(strat.arrays(d1, (n1,), **opts)), draw(strat.arrays(d2, (n2,), **opts))), {})


@st.composite
def _trace_cases(draw) -> Case:
    d = draw(strat.dtypes("numeric"))
    x = draw(strat.arrays(d, strat.shapes(min_dims=2), ints=(-11, 11)))
    return Case((x,), {"offset": draw(st.integers(-3, 3)), "dtype": draw(strat.accumulation_dtype(d))})


@st.composite
def _var_cases(draw) -> Case:
    x = draw(strat.array(FLOAT, strat.shapes(min_dims=1, min_side=2)))
    ax = draw(strat.axis(x.ndim).filter(lambda a: a != ()))
    return Case(
        (x,), {"axis": ax, "correction": draw(st.sampled_from((0, 1, 0.5))), "keepdims": draw(st.booleans())}
    )


@st.composite
def _diff_cases(draw) -> Case:
    """Signed integers and floats: unsigned differences can go below zero (unspecified)."""
    d = draw(strat.dtypes(("signed integer", FLOAT)))
    x = draw(strat.arrays(d, strat.shapes(min_dims=1), ints=(-30, 30)))
    ax = draw(strat.single_axis(x.ndim))
    kwargs = {"axis": ax, "n": draw(st.integers(0, 2))}
    for name in ("prepend", "append"):
        if draw(st.booleans()):
            shape = list(x.shape)
            shape[ax] = draw(st.integers(0, 2))
            kwargs[name] = draw(strat.arrays(d, tuple(shape), ints=(-30, 30)))
    return Case((x,), kwargs)


def _promotable_items(items) -> bool:
    """result_type's arguments must promote under the standard's rules (mixed kinds are undefined)."""
    found = [hdt.as_hedera_dtype(getattr(i, "dtype", i)) for i in items]
    return all(strat._promotable(found[0], d) for d in found[1:]) and _promotes_all(found)


def _promotes_all(found) -> bool:
    try:
        result = found[0]
        for d in found[1:]:
            result = hdt.promote_types(result, d)
    except hd.DtypeError:
        return False
    return True


# ---- the rows -----------------------------------------------------------------------------------

_unary = strat.unary
_binary = strat.binary

ROWS: list[Row] = [
    # ---- creation -------------------------------------------------------------------------------
    Row("arange", strat.with_device(strat.arange_case()), default_kind=arange_default),
    Row("asarray", strat.with_device(strat.asarray_case()), default_kind=asarray_default),
    Row(
        "empty",
        strat.with_device(
            st.builds(lambda s, d: Case((s,), {"dtype": d}), strat.shapes(), st.none() | strat.dtypes(ANY))
        ),
        values=False,  # values are unspecified; shape and dtype are checked
        default_kind=float_unless_dtype,
    ),
    Row("empty_like", strat.with_device(strat.like_case()), values=False),
    Row("eye", strat.with_device(strat.eye_case()), default_kind=float_unless_dtype),
    Row("from_dlpack", _unary(ANY), ref=lambda x, **kw: x, ref_ns="numpy"),
    Row(
        "full",
        strat.with_device(
            (st.none() | strat.dtypes(ANY)).flatmap(
                lambda d: st.builds(
                    lambda s, v: Case((s, v), {"dtype": d}), strat.shapes(), strat.fill_value_for(d)
                )
            )
        ),
        default_kind=full_default,
    ),
    Row("full_like", strat.with_device(strat.like_case(fill=True))),
    Row("linspace", strat.with_device(strat.linspace_case()), default_kind=float_unless_dtype, tol=10),
    Row("meshgrid", strat.meshgrid_case()),
    Row(
        "ones",
        strat.with_device(
            st.builds(lambda s, d: Case((s,), {"dtype": d}), strat.shapes(), st.none() | strat.dtypes(ANY))
        ),
        default_kind=float_unless_dtype,
    ),
    Row("ones_like", strat.with_device(strat.like_case())),
    Row("tril", strat.triangle_case()),
    Row("triu", strat.triangle_case()),
    Row(
        "zeros",
        strat.with_device(
            st.builds(lambda s, d: Case((s,), {"dtype": d}), strat.shapes(), st.none() | strat.dtypes(ANY))
        ),
        default_kind=float_unless_dtype,
    ),
    Row("zeros_like", strat.with_device(strat.like_case())),
    # ---- data types -----------------------------------------------------------------------------
    Row("astype", strat.with_device(strat.astype_case())),
    Row(
        "can_cast",
        st.builds(
            lambda a, to, as_array: Case((a if as_array else hdt.as_hedera_dtype(a.dtype), to), {}),
            strat.array(ANY, shape=(2,)),
            strat.dtypes(ANY),
            st.booleans(),
        ),
        pure_dtypes=True,
    ),
    Row(
        "finfo",
        st.builds(
            lambda d, as_array: Case((np.zeros(2, d.dtype) if as_array else d,), {}),
            strat.dtypes(INEXACT),
            st.booleans(),
        ),
        compare=compare_info(("bits", "eps", "max", "min", "smallest_normal", "dtype")),
    ),
    Row(
        "iinfo",
        st.builds(
            lambda d, as_array: Case((np.zeros(2, d.dtype) if as_array else d,), {}),
            strat.dtypes(INT),
            st.booleans(),
        ),
        compare=compare_info(("bits", "max", "min", "dtype")),
    ),
    Row(
        "isdtype",
        st.builds(
            lambda d, kind: Case((d, kind), {}),
            strat.dtypes(ANY),
            st.sampled_from(hdt.KINDS)
            | strat.dtypes(ANY)
            | st.tuples(st.sampled_from(hdt.KINDS), strat.dtypes(ANY)),
        ),
        pure_dtypes=True,
        spellings=("hedera", "native"),  # a dtype *name* as kind would read as a kind name
    ),
    Row(
        "result_type",
        st.lists(
            st.one_of(strat.dtypes(ANY), strat.array(ANY, shape=(1,))),
            min_size=1,
            max_size=3,
        )
        .filter(lambda items: _promotable_items(items))
        .map(lambda items: Case(tuple(items), {})),
        pure_dtypes=True,
        compare=compare_dtype_result,
    ),
    # ---- element-wise: unary ----------------------------------------------------------------------
    Row("abs", _unary("numeric", special=True)),
    *[
        Row(name, _unary(INEXACT, special=True), examples=SPECIAL_EXAMPLES.get(name, ()))
        for name in TRANSCENDENTAL
    ],
    Row(
        "expm1",
        _unary(INEXACT, special=True),
        ref=ref_expm1,
        ref_ns="numpy",
        examples=SPECIAL_EXAMPLES["expm1"],
    ),
    Row("bitwise_invert", _unary(("integral", "bool"))),
    *[Row(name, _unary(REAL, special=True)) for name in ("ceil", "floor", "trunc")],
    Row("round", _unary("numeric", special=True)),
    Row("conj", _unary("numeric", special=True)),
    Row("real", _unary("numeric", special=True)),
    Row("imag", _unary(COMPLEX, special=True)),
    *[Row(name, _unary("numeric", special=True)) for name in ("isfinite", "isinf", "isnan")],
    Row("logical_not", _unary("bool")),
    Row("negative", _unary("numeric", special=True)),
    Row("positive", _unary("numeric", special=True)),
    Row("reciprocal", _unary(INEXACT, special=True)),
    Row("sign", _unary("numeric", special=True)),
    Row("signbit", _unary(FLOAT, special=True)),
    Row("square", _unary("numeric", special=True, ints=(-11, 11))),
    # ---- element-wise: binary (broadcast shapes, promotable dtypes) -----------------------------------
    Row("add", _binary("numeric", special=True)),
    Row("subtract", strat.subtract_case()),
    Row("multiply", _binary("numeric", special=True, ints=(-11, 11))),
    Row("divide", _binary(INEXACT, special=True)),  # integer division is unspecified
    *[
        Row(name, _binary(FLOAT, special=True))
        for name in ("atan2", "copysign", "hypot", "logaddexp", "nextafter")
    ],
    *[Row(name, _binary(("integral", "bool"))) for name in ("bitwise_and", "bitwise_or", "bitwise_xor")],
    Row("bitwise_left_shift", strat.shift_case()),
    Row("bitwise_right_shift", strat.shift_case()),
    *[Row(name, _binary(ANY, special=True)) for name in ("equal", "not_equal")],
    *[
        Row(name, _binary(REAL, special=True))
        for name in ("greater", "greater_equal", "less", "less_equal", "maximum", "minimum")
    ],
    Row("floor_divide", strat.nonzero_divisor(REAL), ref=ref_floor_divide),
    Row("remainder", strat.nonzero_divisor(REAL)),
    *[Row(name, _binary("bool")) for name in ("logical_and", "logical_or", "logical_xor")],
    Row("pow", strat.pow_case(), ref=ref_pow, tol=10),
    Row("clip", strat.clip_case()),
    # ---- indexing -------------------------------------------------------------------------------
    Row("take", strat.take_case()),
    Row("take_along_axis", strat.take_along_axis_case()),
    # ---- linear algebra (main namespace and linalg) -------------------------------------------------
    *[Row(name, strat.matmul_case(), tol=10) for name in ("matmul", "linalg.matmul")],
    *[
        Row(name, _unary(ANY, shape=strat.shapes(min_dims=2)))
        for name in ("matrix_transpose", "linalg.matrix_transpose")
    ],
    *[Row(name, strat.tensordot_case(), tol=10) for name in ("tensordot", "linalg.tensordot")],
    *[Row(name, strat.vecdot_case(), tol=10) for name in ("vecdot", "linalg.vecdot")],
    Row(
        "linalg.cholesky",
        st.builds(
            lambda a, upper: Case((strat.hermitian_positive_definite(a),), {"upper": upper}),
            strat.matrices(),
            st.booleans(),
        ),
        tol=10,
    ),
    Row("linalg.cross", strat.cross_case(), tol=10),
    Row("linalg.det", strat.invertible_matrices().map(lambda a: Case((a,), {})), tol=10),
    Row(
        "linalg.diagonal",
        st.builds(
            lambda x, k: Case((x,), {"offset": k}),
            strat.array(ANY, strat.shapes(min_dims=2)),
            st.integers(-4, 4),
        ),
    ),
    Row(
        "linalg.eigh",
        strat.matrices().map(lambda a: Case((strat.hermitian(a),), {})),
        compare=compare_eigh,
    ),
    Row(
        "linalg.eigvalsh",
        strat.matrices().map(lambda a: Case((strat.hermitian(a),), {})),
        compare=compare_eigvalsh,
    ),
    Row("linalg.inv", strat.invertible_matrices().map(lambda a: Case((a,), {})), tol=10),
    Row(
        "linalg.matrix_norm",
        st.builds(
            lambda a, keepdims, order: Case((a,), {"keepdims": keepdims, "ord": order}),
            strat.matrices(square=False),
            st.booleans(),
            st.sampled_from(("fro", "nuc", 1, 2, -1, -2, float("inf"), float("-inf"))),
        ),
        tol=10,
    ),
    Row(
        "linalg.matrix_power",
        st.builds(
            lambda a, n: Case((a, n), {}),
            strat.invertible_matrices(),
            st.integers(-3, 4),  # negative powers need an invertible matrix
        ),
        tol=100,
    ),
    Row("linalg.matrix_rank", strat.low_rank_case()),
    Row("linalg.outer", _outer_cases(), tol=10),
    # the pseudo-inverse of a near-singular matrix is ill-conditioned: full-rank, well-conditioned inputs
    Row("linalg.pinv", strat.matrices(square=False).map(lambda a: Case((strat.full_rank(a),), {})), tol=10),
    Row(
        "linalg.qr",
        st.builds(
            lambda a, mode: Case((a,), {"mode": mode}),
            strat.matrices(square=False),
            st.sampled_from(("reduced", "complete")),
        ),
        compare=compare_qr,
    ),
    Row("linalg.slogdet", strat.invertible_matrices().map(lambda a: Case((a,), {})), tol=10),
    Row("linalg.solve", strat.solve_case(), tol=10),
    Row(
        "linalg.svd",
        st.builds(
            lambda a, full: Case((a,), {"full_matrices": full}),
            strat.matrices(square=False),
            st.booleans(),
        ),
        compare=compare_svd,
    ),
    Row("linalg.svdvals", float_matrices(square=False), tol=10),
    Row(
        "linalg.trace",
        _trace_cases(),
        tol=10,
    ),
    Row("linalg.vector_norm", strat.vector_norm_case(), tol=10),
    # ---- manipulation ---------------------------------------------------------------------------
    Row("broadcast_arrays", strat.broadcast_arrays_case()),
    Row("broadcast_to", strat.broadcast_to_case()),
    Row("concat", strat.concat_case()),
    Row("expand_dims", strat.expand_dims_case()),
    Row("flip", strat.flip_case()),
    Row("moveaxis", strat.moveaxis_case()),
    Row("permute_dims", strat.permute_dims_case()),
    Row("repeat", strat.repeat_case()),
    Row("reshape", strat.reshape_case()),
    Row("roll", strat.roll_case()),
    Row("squeeze", strat.squeeze_case()),
    Row("stack", strat.stack_case()),
    Row("tile", strat.tile_case()),
    Row("unstack", strat.unstack_case()),
    # ---- searching ------------------------------------------------------------------------------
    *[
        Row(name, strat.nonempty_reduction(REAL, tuple_axes=False, pool=(-2, 0, 1, 3)), default_kind=indexing)
        for name in ("argmax", "argmin")  # ties -> first occurrence; NaN is unspecified, so not drawn
    ],
    Row("count_nonzero", strat.reduction(ANY, special=True), default_kind=indexing),
    Row("nonzero", _unary(ANY, shape=strat.shapes(min_dims=1), special=True), default_kind=indexing),
    Row("searchsorted", strat.searchsorted_case(), default_kind=indexing),
    Row("where", strat.where_case()),
    # ---- sets -----------------------------------------------------------------------------------
    Row("isin", strat.isin_case(), ref=ref_isin, ref_ns="numpy"),
    Row(
        "unique_all",
        strat.set_case(),
        compare=compare_unique(("values", "indices", "inverse_indices", "counts")),
    ),
    Row("unique_counts", strat.set_case(), compare=compare_unique(("values", "counts"))),
    Row("unique_inverse", strat.set_case(), compare=compare_unique(("values", "inverse_indices"))),
    Row("unique_values", strat.set_case(), compare=compare_unique(("values",))),
    # ---- sorting --------------------------------------------------------------------------------
    Row("argsort", strat.sort_case(argsort=True), default_kind=indexing),
    Row("sort", strat.sort_case()),
    # ---- statistical ----------------------------------------------------------------------------
    Row("cumulative_sum", strat.accumulation("numeric", cumulative=True), tol=10),
    Row(
        "cumulative_prod",
        strat.accumulation("numeric", cumulative=True, ints=(-2, 2), floats=(-2, 2)),
        tol=10,
    ),
    Row("max", strat.nonempty_reduction(REAL, special=True)),
    Row("min", strat.nonempty_reduction(REAL, special=True)),
    # complex means of infinite parts divide inf by N, which NumPy (the reference) turns into NaN parts
    # (complex division special cases): only real means get NaN/inf inputs
    Row("mean", strat.reduction(FLOAT, special=True) | strat.reduction(COMPLEX), tol=10),
    Row("prod", strat.accumulation("numeric", ints=(-2, 2), floats=(-2, 2)), tol=10),
    Row("sum", strat.accumulation("numeric"), tol=100),
    *[
        Row(name, _var_cases(), tol=100)  # N - correction <= 0 is unspecified: every reduced axis has >= 2
        for name in ("std", "var")
    ],
    # ---- utility --------------------------------------------------------------------------------
    Row("all", strat.reduction(ANY, special=True)),
    Row("any", strat.reduction(ANY, special=True)),
    Row("diff", _diff_cases()),
    # ---- fft ------------------------------------------------------------------------------------
    Row("fft.fft", strat.fft_case(COMPLEX), tol=10),
    Row("fft.ifft", strat.fft_case(COMPLEX), tol=10),
    Row("fft.fftn", strat.fftn_case(COMPLEX), tol=10),
    Row("fft.ifftn", strat.fftn_case(COMPLEX), tol=10),
    Row("fft.rfft", strat.fft_case(FLOAT), tol=10),
    Row("fft.irfft", strat.fft_case(COMPLEX, irfft=True), tol=10),
    Row("fft.rfftn", strat.fftn_case(FLOAT), tol=10),
    Row("fft.irfftn", strat.fftn_case(COMPLEX, irfft=True), tol=10),
    Row("fft.hfft", strat.fft_case(COMPLEX, irfft=True), tol=10),
    Row("fft.ihfft", strat.fft_case(FLOAT), tol=10),
    Row("fft.fftfreq", strat.with_device(strat.fftfreq_case()), default_kind=float_unless_dtype),
    Row("fft.rfftfreq", strat.with_device(strat.fftfreq_case()), default_kind=float_unless_dtype),
    Row("fft.fftshift", strat.fftshift_case()),
    Row("fft.ifftshift", strat.fftshift_case()),
    # ---- hedera's extras (NumPy references) ------------------------------------------------------
    Row("allclose", strat.isclose_case(), ref=lambda *a, **k: bool(np.allclose(*a, **k)), ref_ns="numpy"),
    Row("isclose", strat.isclose_case(), ref=np.isclose, ref_ns="numpy"),
    Row(
        "cumsum",
        strat.accumulation("numeric", cumulative=True),
        ref=ref_cumulative(np.cumsum, 0),
        ref_ns="numpy",
        tol=10,
    ),
    Row(
        "cumprod",
        strat.accumulation("numeric", cumulative=True, ints=(-2, 2), floats=(-2, 2)),
        ref=ref_cumulative(np.cumprod, 1),
        ref_ns="numpy",
        tol=10,
    ),
    Row("einsum", strat.einsum_case(), ref=ref_einsum, ref_ns="numpy", tol=10),
    Row(
        "gather_nd",
        strat.gather_nd_case(),
        ref=ref_gather_nd,
        ref_ns="numpy",
        examples=(  # negative indices count from the end, as in NumPy (tf.gather_nd refuses them)
            Example(Case((np.arange(6.0).reshape(2, 3), np.array([[-1, -3], [0, 2]])), {})),
            Example(Case((np.arange(6.0).reshape(2, 3), np.array([[-1], [0]])), {"batch_dims": 1})),
        ),
    ),
    Row(
        "scatter_nd",
        strat.scatter_nd_case(),
        ref=ref_scatter_nd,
        ref_ns="numpy",
        examples=(Example(Case((np.array([[-1], [0], [-1]]), np.array([1.0, 2.0, 3.0]), (3,)), {})),),
    ),
    Row(
        "logsumexp",
        strat.reduction(FLOAT, special=True),
        ref=ref_logsumexp,
        ref_ns="numpy",
        tol=10,
        default_kind=float_unless_inexact,
        examples=(  # integers and booleans: the default floating dtype on every backend
            Example(Case((np.array([[1, 2, 3], [0, -1, 4]], np.int64),), {"axis": 1})),
            Example(Case((np.array([3, 100], np.int8),), {})),
            Example(Case((np.array([True, False]),), {"keepdims": True})),
        ),
    ),
    Row("one_hot", strat.one_hot_case(), ref=ref_one_hot, ref_ns="numpy", default_kind=float_unless_dtype),
    Row(
        "pad",
        strat.pad_case(),
        ref=ref_pad,
        ref_ns="numpy",
        examples=(  # a constant of another kind is cast to x's dtype, as NumPy does
            Example(Case((np.array([1, 2], np.int32), 1), {"constant_values": 1.5})),
            Example(Case((np.array([1j, 2.0], np.complex64), (1, 2)), {"constant_values": 2 - 1j})),
        ),
    ),
    Row(
        "split",
        strat.split_case(),
        ref=ref_split,
        ref_ns="numpy",
        examples=(  # NumPy's reading of indices: slices, so decreasing and out-of-range ones are allowed
            Example(Case((np.arange(5.0), [3, 1]), {"axis": 0})),
            Example(Case((np.arange(6).reshape(2, 3), [-1, 5]), {"axis": -1})),
        ),
    ),
    Row("top_k", strat.top_k_case(), ref=ref_top_k, ref_ns="numpy"),
    Row("to_numpy", _unary(ANY, special=True), ref=lambda x: x, ref_ns="numpy", out_backend="numpy"),
    # the harness makes every array on the default device, which is the CPU where these tests run
    Row("device", _unary(ANY), ref=lambda x: "cpu", ref_ns="numpy"),
    Row(
        "to_device",
        st.builds(
            lambda c, device: Case((c.args[0], device), {}),
            _unary(ANY),
            st.sampled_from((strat.Device("cpu"), strat.Device("native"))),
        ),
        ref=lambda x, device, **kw: x,
        ref_ns="numpy",
    ),
]

#: functions the harness does not run, each with the reason
NOT_IN_HARNESS: dict[str, str] = {}

_SUPPRESS = [*settings.default.suppress_health_check, HealthCheck.function_scoped_fixture]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on NaN results and empty means
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
@settings(suppress_health_check=_SUPPRESS)
@given(data=st.data())
def test_function(row: Row, backend: str, data) -> None:
    case = data.draw(row.cases, label="case")
    spelling = data.draw(st.sampled_from(row.spellings), label="dtype spelling")
    check(row, case, backend, spelling)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(
    "row, example",
    [(row, example) for row in ROWS for example in row.examples],
    ids=[f"{row.id}-{i}" for row in ROWS for i in range(len(row.examples))],
)
def test_function_example(row: Row, example: Example, backend: str) -> None:
    """A row's fixed examples (special values hypothesis may never draw), every run."""
    check(row, example.case, backend, signed_zeros=example.signed_zeros)


# ---- hd.at: the functional indexed update (not a row of the API table) ----------------------------

_UFUNC_AT = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def ref_index_update(x, index, op, values):
    out = x.copy()
    if op == "set":
        out[index] = values
    else:  # repeated indices accumulate
        _UFUNC_AT[op].at(out, index, values)
    return out


@settings(suppress_health_check=_SUPPRESS)
@given(data=st.data())
def test_index_update(backend: str, data) -> None:
    x, index, op, values = data.draw(strat.index_update_case(), label="x, index, op, values")
    if x.dtype.name in unsupported_dtypes(backend):
        with pytest.raises(hd.UnsupportedDtypeError):
            hd.asarray(x, backend=backend)
        return
    expected = ref_index_update(x, index, op, values)
    xb = hd.asarray(x, backend=backend)
    ib = for_backend(index, backend, "hedera")
    vb = for_backend(values, backend, "hedera")
    out = getattr(hd.at(xb)[ib], op)(vb)
    assert hd.backend_of(out) == backend
    assert hd.dtype(out) == x.dtype
    assert_values(np.asarray(hd.to_numpy(out)), expected, 1.0, f"hd.at(x)[{index!r}].{op}({values!r})")
    np.testing.assert_array_equal(np.asarray(hd.to_numpy(xb)), x, err_msg="hd.at must not modify x")
    got = hd.to_numpy(hd.at(xb)[ib].get())
    np.testing.assert_array_equal(np.asarray(got), x[index], err_msg="hd.at(x)[index].get()")


def test_unsupported_dtypes_match_inspection(backend: str) -> None:
    """The dtypes the harness expects to raise are exactly those ``__array_namespace_info__`` leaves out."""
    present = set(hd.namespace(backend).__array_namespace_info__().dtypes())
    standard = set(hd._api.DTYPE_NAMES)
    assert standard - present == unsupported_dtypes(backend) & standard


def test_every_function_has_a_row() -> None:
    covered = {r.qualname for r in ROWS}
    skipped = covered | set(NOT_IN_HARNESS)
    missing = sorted(f.qualname for f in FUNCTIONS if f.qualname not in skipped)
    assert not missing, f"functions with no harness row and no NOT_IN_HARNESS reason: {missing}"
    stale = sorted(set(NOT_IN_HARNESS) & covered)
    assert not stale, f"in NOT_IN_HARNESS but also have rows: {stale}"
    unknown = sorted(covered - {f.qualname for f in FUNCTIONS})
    assert not unknown, f"rows for functions not in the API table: {unknown}"
    duplicated = sorted(q for q in covered if sum(r.qualname == q for r in ROWS) > 1)
    assert not duplicated, f"functions with more than one row: {duplicated}"
