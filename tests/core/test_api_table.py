"""The API table (hedera/_api.py) is the one place of a function's facts, and the fronts tell them.

* every generated docstring's Returns section and every front's return annotation is its row's
  return column;
* the return column is true: each function, called on NumPy arrays, returns what its row says
  (a bool, a str, a NumPy array, a tuple, a named tuple with these fields, or an array);
* the tables of hedera._diagnose and hedera._dispatch are the table's columns.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import hedera as hd
from hedera import _api, _diagnose, _fastpath
from hedera._api import BY_QUALNAME, FUNCTIONS, RETURNS

NAMESPACES = {"core": hd, "linalg": hd.linalg, "fft": hd.fft}


def front(fn: _api.Function):
    return getattr(NAMESPACES[fn.namespace], fn.name)


def returns_section(doc: str) -> list[str]:
    """The lines of a numpydoc Returns section (type line and description)."""
    lines = inspect.cleandoc(doc).splitlines()
    start = lines.index("Returns") + 2  # past the dashes
    section = []
    for line in lines[start:]:
        if not line.strip():
            break
        section.append(line.strip())
    return section


@pytest.mark.parametrize("fn", [f for f in FUNCTIONS if not f.manual], ids=lambda f: f.qualname)
def test_documented_return_is_the_return_column(fn):
    kind, text = returns_section(front(fn).__doc__)
    if fn.return_fields:
        assert kind == f"tuple ({', '.join(fn.return_fields)})"
        assert "named tuple" in text
    else:
        assert kind == RETURNS[fn.returns][1]
    backend = "the inputs' backend" if fn.array_params else "the current backend"
    if fn.returns in ("array", "arrays") or fn.return_fields:
        assert text.endswith(f"of {backend}."), text


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.qualname)
def test_return_annotation_is_the_return_column(fn):
    python = _fastpath.python_front(front(fn))
    annotation = inspect.signature(python).return_annotation
    assert annotation == fn.return_annotation, (annotation, fn.returns)


def test_annotations_of_the_rows_that_the_template_got_wrong():
    """vecdot's axis is one int; squeeze's axis is required; no generated front returns Any."""
    vecdot = inspect.signature(_fastpath.python_front(hd.vecdot)).parameters["axis"]
    assert vecdot.annotation == "int" and vecdot.default == -1
    squeeze = inspect.signature(_fastpath.python_front(hd.squeeze)).parameters["axis"]
    assert squeeze.annotation == "int | tuple[int, ...]" and squeeze.default is inspect.Parameter.empty
    assert [f.qualname for f in FUNCTIONS if f.return_annotation == "Any" and not f.manual] == []


X = np.arange(6.0).reshape(2, 3)
SQUARE = np.array([[2.0, 1.0], [1.0, 3.0]])
#: a call of every function whose row returns something other than one array
CALLS = {
    "meshgrid": lambda: hd.meshgrid(np.arange(2.0), np.arange(3.0)),
    "broadcast_arrays": lambda: hd.broadcast_arrays(X, X[0]),
    "unstack": lambda: hd.unstack(X),
    "nonzero": lambda: hd.nonzero(X),
    "split": lambda: hd.split(X, 3, axis=1),
    "top_k": lambda: hd.top_k(X, 2),
    "allclose": lambda: hd.allclose(X, X),
    "to_numpy": lambda: hd.to_numpy(X),
    "device": lambda: hd.device(X),
    "unique_all": lambda: hd.unique_all(X),
    "unique_counts": lambda: hd.unique_counts(X),
    "unique_inverse": lambda: hd.unique_inverse(X),
    "linalg.eigh": lambda: hd.linalg.eigh(SQUARE),
    "linalg.qr": lambda: hd.linalg.qr(SQUARE),
    "linalg.svd": lambda: hd.linalg.svd(SQUARE),
    "linalg.slogdet": lambda: hd.linalg.slogdet(SQUARE),
    "isdtype": lambda: hd.isdtype(hd.float32, "real floating"),
    "can_cast": lambda: hd.can_cast(hd.float32, hd.float64),
    "result_type": lambda: hd.result_type(X, X),
    "finfo": lambda: hd.finfo(hd.float32),
    "iinfo": lambda: hd.iinfo(hd.int8),
}


def test_every_non_array_row_is_called_here():
    assert {f.qualname for f in FUNCTIONS if f.returns != "array"} == set(CALLS)


@pytest.mark.parametrize("qualname", sorted(CALLS))
def test_return_column_is_what_the_function_returns(qualname):
    fn, out = BY_QUALNAME[qualname], CALLS[qualname]()
    if fn.return_fields:
        assert isinstance(out, tuple) and out._fields == fn.return_fields
        assert all(isinstance(a, (np.ndarray, np.generic)) for a in out)  # slogdet of one matrix: 0-d
    elif fn.returns == "arrays":
        assert type(out) is tuple and out and all(isinstance(a, np.ndarray) for a in out)
    elif fn.returns == "bool":
        assert type(out) is bool
    elif fn.returns == "str":
        assert out == "cpu"
    elif fn.returns == "numpy":
        assert type(out) is np.ndarray
    elif fn.returns == "dtype":
        assert out == np.float64
    else:
        assert fn.returns in ("finfo", "iinfo")
        assert {"bits", "max", "min", "dtype"} <= set(dir(out))


def test_array_rows_return_arrays():
    """A sample of the rows returning one array, one per category, do."""
    calls = {
        "zeros": lambda: hd.zeros(3),
        "add": lambda: hd.add(X, 1.0),
        "take": lambda: hd.take(X, np.array([0]), axis=1),
        "matmul": lambda: hd.matmul(SQUARE, SQUARE),
        "concat": lambda: hd.concat([X, X]),
        "argmax": lambda: hd.argmax(X),
        "isin": lambda: hd.isin(X, X),
        "sort": lambda: hd.sort(X),
        "sum": lambda: hd.sum(X),
        "any": lambda: hd.any(X),
        "isclose": lambda: hd.isclose(X, X),
        "linalg.inv": lambda: hd.linalg.inv(SQUARE),
        "fft.fft": lambda: hd.fft.fft(X),
    }
    for qualname, call in calls.items():
        assert BY_QUALNAME[qualname].returns == "array"
        assert isinstance(call(), (np.ndarray, np.generic)), qualname


def test_diagnose_and_dispatch_tables_are_columns_of_the_table():
    kinds = {f.qualname: f.dtype_kinds for f in FUNCTIONS if f.dtype_kinds}
    assert _diagnose._ALLOWED_KINDS == kinds
    for shape, table in (("square", _diagnose._SQUARE), ("matrix", _diagnose._MATRIX),
                         ("cumulative", _diagnose._CUMULATIVE), ("axis+1", _diagnose._AXIS_ONE_PAST),
                         ("broadcast", _diagnose._BROADCASTING)):  # fmt: skip
        assert set(table) == {f.qualname for f in FUNCTIONS if f.shape == shape}
    assert _api.SEQUENCE_PARAMS == {"arrays", "operands", "arrays_and_dtypes"}


def test_standard_is_a_column_not_a_guess():
    """Rows say std or ext; the standard's own functions are std, hedera's extras ext."""
    assert BY_QUALNAME["sin"].standard and BY_QUALNAME["linalg.inv"].standard
    assert not BY_QUALNAME["asarray"].standard  # backend= is hedera's
    assert not any(f.standard for f in FUNCTIONS if f.category in ("extra", "device"))
