"""The cross-backend function harness: one table of rows, run on every backend.

A :class:`Row` names a function of ``hedera._api.FUNCTIONS`` by its qualname,
gives a hypothesis strategy of :class:`~strategies.Case` (NumPy inputs), and a
reference that never involves hedera: by default the function of the same name
in ``array_api_strict`` (the standard's own reference implementation), else a
NumPy/SciPy function.

For each generated case, :func:`check` converts the NumPy inputs to the backend
(``hd.asarray(a, backend=...)``), calls the front ``hd.<qualname>`` and the
backend namespace function directly, converts outputs with ``hd.to_numpy``
(tuples element-wise) and checks type, shape, dtype (``hd.dtype(out)``) and
values against the reference: exact for integers and booleans, by dtype
tolerance for floats, NaN and inf positions always exact (a complex number is
NaN if either part is, as the standard reads it). The inputs must come back
unmodified.

If the case's inputs or the reference's result use a dtype the backend does not
have, both calls must raise ``hd.UnsupportedDtypeError`` instead.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import array_api_strict as strict
import numpy as np
import pytest
from array_api_strict._array_object import Array as StrictArray
from hypothesis import reject

import hedera as hd
from hedera import dtypes as hdt
from hedera._api import DTYPE_NAMES
from strategies import Case, Device

strict.set_array_api_strict_flags(api_version="2024.12")

#: numpy < 2 (the MXNet environment, .venv-mxnet, has numpy 1.23)
NUMPY_1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"

#: default tolerances (rtol, atol) by the precision of the result
TOLERANCES = {
    "float32": (1e-4, 1e-5),
    "complex64": (1e-4, 1e-5),
    "float64": (1e-9, 1e-12),
    "complex128": (1e-9, 1e-12),
}


@dataclass(frozen=True)
class Example:
    """A fixed input of a :class:`Row`, checked on every run.

    Attributes
    ----------
    case : Case
        The call's arguments, as a drawn case gives them.
    signed_zeros : bool
        Also compare the sign of every zero result (part). False where the standard
        leaves a sign unspecified (``expm1(-inf + inf j)`` is ``-1 +- 0j``).
    """

    case: Case
    signed_zeros: bool = True


@dataclass(frozen=True, repr=False)
class Row:
    """One function under test.

    Attributes
    ----------
    qualname : str
        ``"sin"``, ``"linalg.det"``, ``"fft.fft"``: a key of ``hedera._api.BY_QUALNAME``.
    cases : SearchStrategy[Case]
        The inputs. Must stay inside the domain where the standard (or hedera's
        docs, for extras) specifies the result.
    ref : callable, optional
        The reference, called with the case's arguments converted for ``ref_ns``.
        Default: ``array_api_strict.<qualname>``.
    ref_ns : {"strict", "numpy"}
        What the reference receives: ``array_api_strict`` arrays and dtypes, or
        NumPy arrays and dtypes.
    tol : float
        Multiplier on :data:`TOLERANCES` (sums and linear algebra accumulate error).
    values : bool
        Compare values; if False only type, shape and dtype (``empty``).
    compare : callable, optional
        ``compare(out_numpy, expected_numpy, case)`` replaces the value check, for
        results defined only up to sign or order (eigenvectors, ``svd``'s U and V).
    default_kind : callable, optional
        ``default_kind(case)`` -> a kind of ``default_dtypes()`` ("real floating",
        "integral", ...) when the result dtype is the backend's default, else None.
        The expected dtype is then the backend's, and the reference is cast to it.
    direct : bool
        Also call ``hd.namespace(backend).<qualname>`` directly and check it the same way.
    pure_dtypes : bool
        hedera answers dtype arguments itself (``isdtype``, ``can_cast``): a dtype the
        backend lacks is then not an error; only arrays of such dtypes are.
    spellings : tuple of str
        How dtype arguments may be spelled: ``"hedera"`` (``hd.float32``), ``"name"``, ``"native"``.
    out_backend : str, optional
        The backend array results belong to, if not the backend under test (``to_numpy``).
    examples : tuple of Example
        Inputs checked on every run besides the drawn ones: special values the strategy
        may never draw together (``expm1(inf + 0j)``), with the sign of zeros compared too.
    """

    qualname: str
    cases: Any
    ref: Callable | None = None
    ref_ns: str = "strict"
    tol: float = 1.0
    values: bool = True
    compare: Callable | None = None
    default_kind: Callable | None = None
    direct: bool = True
    pure_dtypes: bool = False
    spellings: tuple[str, ...] = ("hedera", "name", "native")
    out_backend: str | None = None
    examples: tuple[Example, ...] = ()

    def __repr__(self) -> str:
        return f"Row({self.qualname!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis' falsifying examples
        printer.text(repr(self))

    @property
    def id(self) -> str:
        return self.qualname

    def reference(self) -> Callable:
        return self.ref if self.ref is not None else lookup(strict, self.qualname)


def lookup(root: Any, qualname: str) -> Any:
    for part in qualname.split("."):
        root = getattr(root, part)
    return root


# ---- backend facts ----------------------------------------------------------------------------


@functools.cache
def unsupported_dtypes(backend: str) -> frozenset[str]:
    """Names of the standard's dtypes ``backend`` lacks.

    From the backend's ``_core.UNSUPPORTED_DTYPES`` where it has one, else the
    standard dtypes missing from ``__array_namespace_info__().dtypes()``.
    """
    core = importlib.import_module(f"hedera.backends.{backend}._core")
    names = getattr(core, "UNSUPPORTED_DTYPES", None)
    if names is None:
        present = hd.namespace(backend).__array_namespace_info__().dtypes()
        return frozenset(set(DTYPE_NAMES) - set(present))
    return frozenset(n if isinstance(n, str) else hdt.as_hedera_dtype(n).name for n in names)


def missing_kernels(backend: str, qualname: str) -> frozenset[str]:
    """Names of the dtypes ``backend``'s framework lacks a ``qualname`` kernel for (``MISSING_KERNELS``)."""
    core = importlib.import_module(f"hedera.backends.{backend}._core")
    return frozenset(getattr(core, "MISSING_KERNELS", {}).get(qualname, ()))


def mixed_unsigned(backend: str, names: set[str]) -> frozenset[str]:
    """The backend's partially supported unsigned dtypes among ``names`` if they mix with other
    dtypes (torch cannot promote its uint16/32/64 with int8, say)."""
    core = importlib.import_module(f"hedera.backends.{backend}._core")
    partial = names & set(getattr(core, "PARTIAL_UNSIGNED", ()))
    return frozenset(partial) if partial and len(names) > 1 else frozenset()


def default_dtype(backend: str, kind: str) -> hdt.DType:
    """The backend's default dtype of ``kind`` (``"real floating"``, ``"integral"``, ...)."""
    info = hd.namespace(backend).__array_namespace_info__()
    return hdt.as_hedera_dtype(info.default_dtypes()[kind])


def case_dtypes(value: Any, arguments: bool = True) -> set[str]:
    """Names of every dtype a case uses: of its arrays, and of its dtype arguments if ``arguments``."""
    if isinstance(value, Case):
        return case_dtypes(value.args, arguments) | case_dtypes(tuple(value.kwargs.values()), arguments)
    if isinstance(value, (np.ndarray, np.generic)):
        return {value.dtype.name}
    if isinstance(value, hdt.DType):
        return {value.name} if arguments else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(case_dtypes(v, arguments) for v in value)) if value else set()
    return set()


# ---- converting a case -------------------------------------------------------------------------


def spell_dtype(d: hdt.DType, spelling: str, backend: str) -> Any:
    """``d`` as a hedera dtype, a name, or the backend's native dtype object."""
    if spelling == "name":
        return d.name
    if spelling == "native" and d.name not in unsupported_dtypes(backend):
        return getattr(hd.namespace(backend), d.name)
    return d


def for_backend(value: Any, backend: str, spelling: str) -> Any:
    """Case values as the hedera call gets them: NumPy arrays become backend arrays."""
    if isinstance(value, (np.ndarray, np.generic)):  # NumPy scalars stand for 0-d arrays
        return hd.asarray(value, backend=backend)
    if isinstance(value, hdt.DType):
        return spell_dtype(value, spelling, backend)
    if isinstance(value, Device):
        if value.spelling == "cpu":
            return "cpu"
        return hd.namespace(backend).__array_namespace_info__().default_device()
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(for_backend(v, backend, spelling) for v in value)
    return value


def for_reference(value: Any, ref_ns: str) -> Any:
    """Case values as the reference gets them: strict arrays/dtypes, or NumPy ones."""
    if isinstance(value, (np.ndarray, np.generic)):
        return strict.asarray(value) if ref_ns == "strict" else np.asarray(value)
    if isinstance(value, hdt.DType):
        return getattr(strict, value.name) if ref_ns == "strict" else value.dtype
    if isinstance(value, Device):
        return None  # the reference's own default device
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(for_reference(v, ref_ns) for v in value)
    return value


def reference_to_numpy(value: Any) -> Any:
    """A reference result with every array as a NumPy array (named tuples keep their fields)."""
    if isinstance(value, StrictArray) or isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, tuple):
        items = [reference_to_numpy(v) for v in value]
        return tuple(items) if not hasattr(value, "_fields") else _Named(value._fields, items)
    if isinstance(value, list):
        return tuple(reference_to_numpy(v) for v in value)
    return value


class _Named(tuple):
    """A reference named tuple, reduced to its field names and NumPy values."""

    def __new__(cls, fields: tuple[str, ...], items: list) -> _Named:
        obj = super().__new__(cls, items)
        obj._fields = fields
        return obj


# ---- checking ----------------------------------------------------------------------------------


def assert_values(
    out: np.ndarray, expected: np.ndarray, tol: float, where: str, signed_zeros: bool = False
) -> None:
    """Exact for integers and booleans; NaN/inf positions exact; else by dtype tolerance.

    With ``signed_zeros``, a zero (part) of ``expected`` must also have its sign in ``out``.
    """
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(out, expected, err_msg=where)  # (no strict=: numpy < 1.24)
        return
    if expected.dtype.kind == "c":
        # a complex number is NaN if either part is (the standard's reading); which part holds the NaN
        # is compared only where it is not, since NumPy itself differs from the standard's special cases
        # there (np.expm1(nan+0j) is nan+nanj, the standard says nan+0j)
        nan_out = np.isnan(out.real) | np.isnan(out.imag)
        nan_expected = np.isnan(expected.real) | np.isnan(expected.imag)
        np.testing.assert_array_equal(nan_out, nan_expected, err_msg=where + " (complex NaN positions)")
        keep = ~nan_expected
        assert_values(out.real[keep], expected.real[keep], tol, where + " (real part)", signed_zeros)
        assert_values(out.imag[keep], expected.imag[keep], tol, where + " (imaginary part)", signed_zeros)
        return
    rtol, atol = TOLERANCES[expected.dtype.name]
    np.testing.assert_allclose(out, expected, rtol=rtol * tol, atol=atol * tol, equal_nan=True, err_msg=where)
    if signed_zeros:
        zero = expected == 0
        np.testing.assert_array_equal(
            np.signbit(out[zero]), np.signbit(expected[zero]), err_msg=where + " (signs of zeros)"
        )


def compare(
    out: Any,
    expected: Any,
    row: Row,
    case: Case,
    backend: str,
    where: str = "out",
    signed_zeros: bool = False,
) -> None:
    """Check ``out`` (a backend result) against ``expected`` (a NumPy-converted reference result)."""
    if isinstance(expected, tuple):
        assert isinstance(out, (tuple, list)), f"{where}: expected a tuple, got {type(out).__name__}"
        assert len(out) == len(expected), f"{where}: expected {len(expected)} items, got {len(out)}"
        if hasattr(expected, "_fields"):
            assert getattr(out, "_fields", None) == expected._fields, (
                f"{where}: expected a named tuple with fields {expected._fields}, got {type(out).__name__}"
            )
        for i, (o, e) in enumerate(zip(out, expected, strict=True)):
            compare(o, e, row, case, backend, f"{where}[{i}]", signed_zeros)
        return
    if not isinstance(expected, np.ndarray):
        assert type(out) is type(expected) or isinstance(out, type(expected)), (
            f"{where}: expected a {type(expected).__name__}, got {type(out).__name__}"
        )
        assert out == expected or (
            isinstance(expected, float) and math.isnan(expected) and math.isnan(out)
        ), f"{where}: expected {expected!r}, got {out!r}"
        return
    assert hd.is_array(out), f"{where}: expected an array, got {type(out).__name__}"
    owner = row.out_backend or backend
    assert hd.backend_of(out) == owner, f"{where}: a {hd.backend_of(out)} array, expected a {owner} one"
    got = hd.to_numpy(out)
    assert isinstance(got, np.ndarray) or isinstance(got, np.generic), "hd.to_numpy did not return NumPy"
    got = np.asarray(got)
    assert got.shape == expected.shape, f"{where}: shape {got.shape}, expected {expected.shape}"
    assert hd.dtype(out) == expected.dtype, f"{where}: dtype {hd.dtype(out)}, expected {expected.dtype}"
    if row.values:
        assert_values(got, expected, row.tol, f"{where} with {case!r} on {backend}", signed_zeros)


def expected_result(row: Row, case: Case, backend: str) -> Any:
    ref = row.reference()
    args = for_reference(case.args, row.ref_ns)
    kwargs = {k: for_reference(v, row.ref_ns) for k, v in case.kwargs.items()}
    with np.errstate(all="ignore"):
        try:
            expected = reference_to_numpy(ref(*args, **kwargs))
        except TypeError as error:
            if NUMPY_1 and "uint64" in str(error):  # the reference's own limit on numpy < 2 (take)
                reject()
            raise
    kind = row.default_kind(case) if row.default_kind is not None else None
    if kind is not None:
        target = default_dtype(backend, kind).dtype
        expected = _cast(expected, target)
    return expected


def _cast(value: Any, target: np.dtype) -> Any:
    if isinstance(value, np.ndarray):
        return value.astype(target)
    if isinstance(value, tuple):
        return type(value)(_cast(v, target) for v in value)
    return value


def check(row: Row, case: Case, backend: str, spelling: str = "hedera", signed_zeros: bool = False) -> None:
    """Run ``case`` through the front (and the namespace) on ``backend`` and check the result.

    If the case's arrays, its dtype arguments or the reference's result have a dtype the
    backend lacks, both calls must raise ``hd.UnsupportedDtypeError`` instead. With
    ``signed_zeros``, zero results must also have the reference's sign.
    """
    expected = expected_result(row, case, backend)
    calls = [("hd." + row.qualname, lookup(hd, row.qualname))]
    if row.direct:
        calls.append(
            (f"hd.namespace({backend!r}).{row.qualname}", lookup(hd.namespace(backend), row.qualname))
        )
    lacking = (
        case_dtypes(case, arguments=not row.pure_dtypes) | result_dtypes(expected)
    ) & unsupported_dtypes(backend)
    no_kernel = (case_dtypes(case) | result_dtypes(expected)) & missing_kernels(backend, row.qualname)
    no_kernel |= mixed_unsigned(backend, case_dtypes(case))
    if no_kernel and not lacking:  # the front raises UnsupportedDtypeError (the namespace: torch's
        calls = calls[:1]  # error), or gives the right result where torch needs no kernel (empty x)
    with hd.use_backend(backend), np.errstate(all="ignore"):
        if lacking:  # never converted silently
            for name, fn in calls:
                with pytest.raises(hd.UnsupportedDtypeError):
                    args = for_backend(case.args, backend, spelling)
                    kwargs = {k: for_backend(v, backend, spelling) for k, v in case.kwargs.items()}
                    fn(*args, **kwargs)
                    pytest.fail(f"{name}: no UnsupportedDtypeError for {sorted(lacking)} on {backend}")
            return
        args = for_backend(case.args, backend, spelling)
        kwargs = {k: for_backend(v, backend, spelling) for k, v in case.kwargs.items()}
        for name, fn in calls:
            if no_kernel and not lacking:
                try:
                    out = fn(*args, **kwargs)
                except hd.UnsupportedDtypeError:
                    return
            else:
                out = fn(*args, **kwargs)
            if row.compare is not None:
                if isinstance(expected, (np.ndarray, tuple)):
                    compare_structure(out, expected, backend, name)
                row.compare(_to_numpy_tree(out), expected, case)
            else:
                compare(out, expected, row, case, backend, name, signed_zeros)
        for original, converted in _input_pairs((case.args, case.kwargs), (args, kwargs)):
            np.testing.assert_array_equal(
                np.asarray(hd.to_numpy(converted)), original, err_msg=f"{row.qualname} modified an input"
            )


def _input_pairs(original: Any, converted: Any):
    """(NumPy input, its backend array) pairs of a case, to check that no call modifies its inputs."""
    if isinstance(original, (np.ndarray, np.generic)):
        yield original, converted
    elif isinstance(original, dict):
        for key in original:
            yield from _input_pairs(original[key], converted[key])
    elif isinstance(original, (list, tuple)) and not hasattr(original, "_fields"):
        for o, c in zip(original, converted, strict=True):
            yield from _input_pairs(o, c)


def result_dtypes(expected: Any) -> set[str]:
    """Names of the dtypes of a (NumPy-converted) reference result's arrays."""
    if isinstance(expected, np.ndarray):
        return {expected.dtype.name}
    if isinstance(expected, tuple):
        return set().union(*(result_dtypes(e) for e in expected)) if expected else set()
    return set()


def _to_numpy_tree(value: Any) -> Any:
    if hd.is_array(value):
        return np.asarray(hd.to_numpy(value))
    if isinstance(value, (tuple, list)):
        return tuple(_to_numpy_tree(v) for v in value)
    return value


def compare_structure(out: Any, expected: Any, backend: str, where: str) -> None:
    """Type, shape and dtype only (values are checked by a row's own ``compare``)."""
    row = Row(where, None, values=False)
    compare(out, expected, row, Case((), {}), backend, where)
