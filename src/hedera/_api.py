"""The one table of hedera's functional API.

Every function of the front namespace (``hd.*``, ``hd.linalg.*``, ``hd.fft.*``) has one row
here, and everything hedera knows about a function is a column of its row. A row is two lines::

    namespace | category | signature -> returns | arrays | dtype kinds | shape | flags
        One-line summary.

* **signature**: the parameters, with the standard's positional-only ``/`` and keyword-only ``*``
  markers, and an annotation where the parameter's default one (:data:`PARAMETERS`) does not fit
  (``axis: int = -1``);
* **returns**: what the function returns (:data:`RETURNS`: ``array``, ``arrays``, ``bool``, ...,
  or a named tuple of arrays, ``(eigenvalues, eigenvectors)``);
* **arrays**: the parameters that hold arrays (or Python scalars standing for arrays);
  ``name[]`` is a sequence of arrays (``concat``'s ``arrays``), ``*name`` a variadic one;
  ``-``: none, the call runs on the current backend (``hd.use_backend``);
* **dtype kinds**: the dtype kinds the standard allows for its arrays (:data:`KINDS`); ``-``: any;
* **shape**: its shape class (:data:`SHAPES`); ``-``: none of them;
* **flags**: ``std`` (the Array API standard defines it) or ``ext`` (a hedera extension), and
  ``manual`` where the front is written by hand (``hedera/_front_manual.py``).

The table drives

* the generated fronts and their annotations (``tools/gen_front.py`` writes ``hedera/_front.py``,
  ``linalg.py`` and ``fft.py``), and their docstrings, made from the row at import
  (``hedera/_front_rows.py``),
* the errors of a failed call (``hedera/_diagnose.py``: dtype kinds, shape classes),
* which arguments dispatch looks into (:data:`SEQUENCE_PARAMS`, ``hedera/_dispatch.py``),
* the conformance test that every backend namespace has every function with this signature
  (``tests/core/test_namespaces.py``) and the cross-backend harness, which must cover every row
  (``tests/core/test_functions.py``),
* the API listing ``docs/api.md`` (``tools/gen_front.py``).

Adding a function is adding its row here and its implementation in every backend
(docs/contributing.md).
"""
# ruff: noqa: E501  (a table: one row a line)

from __future__ import annotations

import re
from typing import NamedTuple

#: dtype kinds of the table's column: alias -> the standard's kind names (``hd.isdtype``)
KINDS: dict[str, tuple[str, ...]] = {
    "-": (),
    "bool": ("bool",),
    "integral": ("integral",),
    "integral/bool": ("integral", "bool"),
    "real floating": ("real floating",),
    "floating": ("real floating", "complex floating"),
    "real": ("integral", "real floating"),
    "numeric": ("numeric",),
}

#: shape classes of the table's column (what ``hedera._diagnose`` checks when a call fails)
SHAPES: dict[str, str] = {
    "-": "no shape rule beyond the function's own",
    "broadcast": "the array arguments broadcast together",
    "square": "a stack of square matrices (..., n, n)",
    "matrix": "a stack of matrices: at least two dimensions",
    "cumulative": "at least one dimension; axis required for more than one",
    "axis+1": "axis may name one past the last axis of the input (the result's new axis)",
}

#: return kinds of the table's column: kind -> (annotation, numpydoc type, description);
#: ``{backend}`` is the inputs' backend, or the current one for functions without arrays.
#: A row may instead name a tuple's fields, ``(Q, R)``: a named tuple of arrays.
RETURNS: dict[str, tuple[str, str, str]] = {
    "array": ("Array", "array", "A native array of {backend}."),
    "arrays": ("tuple[Array, ...]", "tuple of arrays", "Native arrays of {backend}."),
    "bool": ("bool", "bool", "A Python bool."),
    "str": ("str", "str", "A Python string."),
    "numpy": ("numpy.ndarray", "numpy.ndarray", "A NumPy array in host memory."),
    "dtype": (
        "DTypeLike",
        "dtype",
        "A native dtype of the arguments' backend; a hedera dtype for hedera dtypes alone.",
    ),
    "finfo": (
        "Any",
        "finfo object",
        "The standard's finfo fields (bits, eps, max, min, smallest_normal, dtype).",
    ),
    "iinfo": ("Any", "iinfo object", "The standard's iinfo fields (bits, max, min, dtype)."),
}

#: recurring parameters: name -> (default annotation, numpydoc type, description). A row's
#: signature overrides the annotation where it differs (``vecdot(..., axis: int = -1)``); array
#: parameters (the arrays column) are annotated ``Array`` (``Sequence[Array]``).
PARAMETERS: dict[str, tuple[str | None, str, str]] = {
    "x": (None, "array", "Input array, native to any backend."),
    "x1": (None, "array or Python scalar", "First input; broadcasts with x2."),
    "x2": (None, "array or Python scalar", "Second input; broadcasts with x1."),
    "condition": (None, "array", "Boolean array selecting x1 (true) or x2 (false)."),
    "arrays": (None, "sequence of arrays", "Arrays of one backend."),
    "axis": ("int | tuple[int, ...] | None", "int or tuple of ints, optional",
             "Axis or axes to operate along; negative values count from the end."),
    "axes": (None, "int or tuple of ints", "Axes; negative values count from the end."),
    "keepdims": ("bool", "bool", "Keep reduced axes as axes of size one."),
    "dtype": ("DTypeLike | None", "dtype, optional", "A hedera dtype (``hd.float32``), a native dtype, or a name."),
    "device": ("DeviceLike | None", "device, optional", '``"cpu"``, ``"gpu"``, ``"gpu:N"``, or a native device object.'),
    "shape": ("int | tuple[int, ...]", "int or tuple of ints", "Output shape."),
    "copy": ("bool | None", "bool, optional",
             "True: always copy; False: never copy (error if needed); None: copy if needed."),
    "indices": (None, "array", "Integer indices."),
    "norm": (None, '{"backward", "ortho", "forward"}', "Normalisation mode."),
    "backend": ("str | None", "str, optional",
                'The backend of the result (``"numpy"``, ``"torch"``, ...). Default: the current backend.'),
}  # fmt: skip

#: the kind of value each non-array parameter takes, where its annotation does not say (or says
#: less): ``"name"`` for every row, ``"function.name"`` for one row's own. Kinds: ``int``, ``axes``
#: (an int or a tuple of ints), ``shape`` (the same, as sizes), ``count`` (an int >= 0), ``size``
#: (an int >= 1), ``sections`` (a size or a sequence of ints), ``widths`` (an int >= 0 or nested
#: sequences of them: ``pad``'s widths, ``tensordot``'s axes), ``repeats`` (a count or an integer
#: array), ``number`` (an int or a float), ``str`` (a str: not bytes), ``bool`` (a flag: True or
#: False, not an int or any other value taken by its truthiness);
#: a trailing ``?`` allows None; a tuple is the option strings the parameter takes.
#: ``hedera._diagnose`` checks a failed call's arguments against their kinds (a wrong kind:
#: ``ArgumentTypeError``; a wrong value: ``InvalidArgumentError``), and the bad-input sweep
#: (``tests/project/test_bad_input_sweep.py``) tries every wrong kind of each.
ARGUMENT_KINDS: dict[str, str | tuple[str, ...]] = {
    "shape": "shape",
    "source": "axes",
    "destination": "axes",
    "axes": "axes",
    "k": "int",
    "offset": "int",
    "shift": "axes",
    "n": "count?",
    "repetitions": "shape",
    "num": "count",
    "num_classes": "count",
    "n_rows": "count",
    "n_cols": "count?",
    "batch_dims": "count",
    "pad_width": "widths",
    "indices_or_sections": "sections",
    "start": "number",
    "stop": "number?",
    "step": "number",
    "fill_value": "number",
    "correction": "number",
    "s": "shape?",
    "norm": ("backward", "ortho", "forward"),
    "side": ("left", "right"),
    "indexing": ("xy", "ij"),
    "pad.mode": ("constant", "reflect", "symmetric", "edge", "wrap"),
    "linalg.qr.mode": ("reduced", "complete"),
    "repeat.repeats": "repeats",
    "top_k.k": "count",
    "linalg.matrix_power.n": "int",
    "tensordot.axes": "contraction",
    "linalg.tensordot.axes": "contraction",
    "einsum.subscripts": "str",
    **dict.fromkeys(
        (
            "endpoint",
            "invert",
            "descending",
            "stable",
            "include_initial",
            "equal_nan",
            "largest",
            "upper",
            "full_matrices",
        ),
        "bool",
    ),
    **{f"{f}.{p}": "number" for f in ("isclose", "allclose") for p in ("rtol", "atol")},
    "linspace.stop": "number",  # (arange's may be None)
    "diff.n": "count",  # (fft's n may be None)
    "reshape.shape": "newshape",
    "fft.fftfreq.n": "size",
    "fft.rfftfreq.n": "size",
    **{f"fft.{f}.n": "size?" for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft.{f}.axes": "axes?" for f in ("fftn", "ifftn", "rfftn", "irfftn", "fftshift", "ifftshift")},
    **{f"fft.{f}.d": "number" for f in ("fftfreq", "rfftfreq")},
}

#: kinds of the annotations of non-array parameters (the row's own, else PARAMETERS')
_ANNOTATION_KINDS: dict[str, str] = {
    "int | tuple[int, ...] | None": "axes?",
    "int | tuple[int, ...]": "axes",
    "int": "int",
    "int | None": "int?",
    "bool": "bool",
    "bool | None": "bool?",
}


def argument_kind(qualname: str, param: str) -> str | tuple[str, ...] | None:
    """The kind of ``param`` of the row ``qualname`` (:data:`ARGUMENT_KINDS`), or None (any value)."""
    kind = ARGUMENT_KINDS.get(f"{qualname}.{param}") or ARGUMENT_KINDS.get(param)
    if kind is not None:
        return kind
    row = BY_QUALNAME.get(qualname)
    if row is None or param in row.array_params:
        return None
    annotation = next((p.annotation for p in row.signature if isinstance(p, Param) and p.bare == param), None)
    return _ANNOTATION_KINDS.get(annotation or "")


_TABLE = """
core | creation | arange(start, /, stop=None, step=1, *, dtype=None, device=None, backend=None) -> array | - | - | - | std
    Evenly spaced values in the half-open interval [start, stop), like Python's range.
core | creation | asarray(obj, /, *, dtype=None, device=None, copy=None, backend=None) -> array | obj | - | - | ext manual
    Convert obj to an array, of obj's backend, of `backend`, or of the current backend.
core | creation | empty(shape, *, dtype=None, device=None, backend=None) -> array | - | - | - | std
    An uninitialised array of the given shape.
core | creation | empty_like(x, /, *, dtype=None, device=None) -> array | x | - | - | std
    An uninitialised array with the shape (and, by default, dtype and device) of x.
core | creation | eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None, backend=None) -> array | - | - | - | std
    A two-dimensional array with ones on the k-th diagonal and zeros elsewhere.
core | creation | from_dlpack(x, /, *, device=None, copy=None) -> array | x | - | - | std
    An array sharing memory with x through the DLPack protocol.
core | creation | full(shape, fill_value, *, dtype=None, device=None, backend=None) -> array | - | - | - | std
    An array of the given shape filled with fill_value.
core | creation | full_like(x, /, fill_value, *, dtype=None, device=None) -> array | x | - | - | std
    An array like x filled with fill_value.
core | creation | linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True, backend=None) -> array | - | - | - | std
    num evenly spaced samples over [start, stop] (or [start, stop) when endpoint is False).
core | creation | meshgrid(*arrays, indexing='xy') -> arrays | *arrays | - | - | std
    Coordinate grids from one-dimensional arrays ("xy" Cartesian or "ij" matrix indexing).
core | creation | ones(shape, *, dtype=None, device=None, backend=None) -> array | - | - | - | std
    An array of the given shape filled with ones.
core | creation | ones_like(x, /, *, dtype=None, device=None) -> array | x | - | - | std
    An array like x filled with ones.
core | creation | tril(x, /, *, k=0) -> array | x | - | matrix | std
    The lower triangle of x's last two axes (elements above the k-th diagonal zeroed).
core | creation | triu(x, /, *, k=0) -> array | x | - | matrix | std
    The upper triangle of x's last two axes (elements below the k-th diagonal zeroed).
core | creation | zeros(shape, *, dtype=None, device=None, backend=None) -> array | - | - | - | std
    An array of the given shape filled with zeros.
core | creation | zeros_like(x, /, *, dtype=None, device=None) -> array | x | - | - | std
    An array like x filled with zeros.
core | data_type | astype(x, dtype, /, *, copy: bool = True, device=None) -> array | x | - | - | std
    A copy (or, with copy=False, possibly x itself) of x cast to dtype.
core | data_type | can_cast(from_, to, /) -> bool | from_ | - | - | std manual
    Whether from_ can be cast to `to` under the standard's type promotion rules.
core | data_type | finfo(type, /) -> finfo | type | - | - | std manual
    Machine limits of a floating-point dtype.
core | data_type | iinfo(type, /) -> iinfo | type | - | - | std manual
    Machine limits of an integer dtype.
core | data_type | isdtype(dtype, kind) -> bool | - | - | - | std manual
    Whether dtype is of the given kind.
core | data_type | result_type(*arrays_and_dtypes) -> dtype | *arrays_and_dtypes | - | - | std manual
    The dtype that the standard's promotion rules give for the arguments.
core | elementwise | abs(x, /) -> array | x | numeric | - | std
    Absolute value, element-wise.
core | elementwise | acos(x, /) -> array | x | floating | - | std
    Inverse cosine, element-wise, in radians.
core | elementwise | acosh(x, /) -> array | x | floating | - | std
    Inverse hyperbolic cosine, element-wise.
core | elementwise | add(x1, x2, /) -> array | x1, x2 | numeric | broadcast | std
    x1 + x2, element-wise, with broadcasting.
core | elementwise | asin(x, /) -> array | x | floating | - | std
    Inverse sine, element-wise, in radians.
core | elementwise | asinh(x, /) -> array | x | floating | - | std
    Inverse hyperbolic sine, element-wise.
core | elementwise | atan(x, /) -> array | x | floating | - | std
    Inverse tangent, element-wise, in radians.
core | elementwise | atan2(x1, x2, /) -> array | x1, x2 | real floating | broadcast | std
    Angle of the point (x2, x1) from the positive x axis, in radians, element-wise.
core | elementwise | atanh(x, /) -> array | x | floating | - | std
    Inverse hyperbolic tangent, element-wise.
core | elementwise | bitwise_and(x1, x2, /) -> array | x1, x2 | integral/bool | broadcast | std
    Bitwise AND of integer or boolean arrays, element-wise.
core | elementwise | bitwise_left_shift(x1, x2, /) -> array | x1, x2 | integral | broadcast | std
    x1 shifted left by x2 bits, element-wise.
core | elementwise | bitwise_invert(x, /) -> array | x | integral/bool | - | std
    Bitwise NOT of an integer or boolean array, element-wise.
core | elementwise | bitwise_or(x1, x2, /) -> array | x1, x2 | integral/bool | broadcast | std
    Bitwise OR of integer or boolean arrays, element-wise.
core | elementwise | bitwise_right_shift(x1, x2, /) -> array | x1, x2 | integral | broadcast | std
    x1 shifted right by x2 bits (arithmetic shift for signed), element-wise.
core | elementwise | bitwise_xor(x1, x2, /) -> array | x1, x2 | integral/bool | broadcast | std
    Bitwise XOR of integer or boolean arrays, element-wise.
core | elementwise | ceil(x, /) -> array | x | real | - | std
    Smallest integer-valued number not less than each element.
core | elementwise | clip(x, /, min=None, max=None) -> array | x, min, max | real | broadcast | std
    x clamped to [min, max], element-wise; the result keeps x's dtype.
core | elementwise | conj(x, /) -> array | x | - | - | std
    Complex conjugate, element-wise.
core | elementwise | copysign(x1, x2, /) -> array | x1, x2 | real floating | broadcast | std
    The magnitude of x1 with the sign of x2, element-wise.
core | elementwise | cos(x, /) -> array | x | floating | - | std
    Cosine, element-wise, of angles in radians.
core | elementwise | cosh(x, /) -> array | x | floating | - | std
    Hyperbolic cosine, element-wise.
core | elementwise | divide(x1, x2, /) -> array | x1, x2 | floating | broadcast | std
    True division x1 / x2, element-wise.
core | elementwise | equal(x1, x2, /) -> array | x1, x2 | - | broadcast | std
    x1 == x2, element-wise.
core | elementwise | exp(x, /) -> array | x | floating | - | std
    e raised to each element.
core | elementwise | expm1(x, /) -> array | x | floating | - | std
    exp(x) - 1, accurate for small x.
core | elementwise | floor(x, /) -> array | x | real | - | std
    Largest integer-valued number not greater than each element.
core | elementwise | floor_divide(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    x1 // x2, element-wise (rounded towards negative infinity).
core | elementwise | greater(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    x1 > x2, element-wise.
core | elementwise | greater_equal(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    x1 >= x2, element-wise.
core | elementwise | hypot(x1, x2, /) -> array | x1, x2 | real floating | broadcast | std
    sqrt(x1**2 + x2**2), element-wise, without undue overflow.
core | elementwise | imag(x, /) -> array | x | - | - | std
    Imaginary part, element-wise.
core | elementwise | isfinite(x, /) -> array | x | - | - | std
    Whether each element is finite.
core | elementwise | isinf(x, /) -> array | x | - | - | std
    Whether each element is positive or negative infinity.
core | elementwise | isnan(x, /) -> array | x | - | - | std
    Whether each element is NaN.
core | elementwise | less(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    x1 < x2, element-wise.
core | elementwise | less_equal(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    x1 <= x2, element-wise.
core | elementwise | log(x, /) -> array | x | floating | - | std
    Natural logarithm, element-wise.
core | elementwise | log1p(x, /) -> array | x | floating | - | std
    log(1 + x), accurate for small x.
core | elementwise | log2(x, /) -> array | x | floating | - | std
    Base-2 logarithm, element-wise.
core | elementwise | log10(x, /) -> array | x | floating | - | std
    Base-10 logarithm, element-wise.
core | elementwise | logaddexp(x1, x2, /) -> array | x1, x2 | real floating | broadcast | std
    log(exp(x1) + exp(x2)), element-wise, computed stably.
core | elementwise | logical_and(x1, x2, /) -> array | x1, x2 | bool | broadcast | std
    Logical AND, element-wise.
core | elementwise | logical_not(x, /) -> array | x | bool | - | std
    Logical NOT, element-wise.
core | elementwise | logical_or(x1, x2, /) -> array | x1, x2 | bool | broadcast | std
    Logical OR, element-wise.
core | elementwise | logical_xor(x1, x2, /) -> array | x1, x2 | bool | broadcast | std
    Logical XOR, element-wise.
core | elementwise | maximum(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    Element-wise maximum (NaN if either is NaN).
core | elementwise | minimum(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    Element-wise minimum (NaN if either is NaN).
core | elementwise | multiply(x1, x2, /) -> array | x1, x2 | numeric | broadcast | std
    x1 * x2, element-wise.
core | elementwise | negative(x, /) -> array | x | numeric | - | std
    -x, element-wise.
core | elementwise | nextafter(x1, x2, /) -> array | x1, x2 | real floating | broadcast | std
    The next representable floating-point value after x1 towards x2.
core | elementwise | not_equal(x1, x2, /) -> array | x1, x2 | - | broadcast | std
    x1 != x2, element-wise.
core | elementwise | positive(x, /) -> array | x | numeric | - | std
    +x, element-wise.
core | elementwise | pow(x1, x2, /) -> array | x1, x2 | numeric | broadcast | std
    x1 raised to the power x2, element-wise.
core | elementwise | real(x, /) -> array | x | - | - | std
    Real part, element-wise.
core | elementwise | reciprocal(x, /) -> array | x | floating | - | std
    1 / x, element-wise.
core | elementwise | remainder(x1, x2, /) -> array | x1, x2 | real | broadcast | std
    Remainder of x1 / x2 with the sign of x2 (Python's %), element-wise.
core | elementwise | round(x, /) -> array | x | - | - | std
    Round to the nearest integer-valued number, halves to even.
core | elementwise | sign(x, /) -> array | x | numeric | - | std
    Sign of each element (-1, 0, 1; x / |x| for complex).
core | elementwise | signbit(x, /) -> array | x | real floating | - | std
    Whether the sign bit of each element is set (true for -0.0).
core | elementwise | sin(x, /) -> array | x | floating | - | std
    Sine, element-wise, of angles in radians.
core | elementwise | sinh(x, /) -> array | x | floating | - | std
    Hyperbolic sine, element-wise.
core | elementwise | square(x, /) -> array | x | numeric | - | std
    x * x, element-wise.
core | elementwise | sqrt(x, /) -> array | x | floating | - | std
    Principal square root, element-wise.
core | elementwise | subtract(x1, x2, /) -> array | x1, x2 | numeric | broadcast | std
    x1 - x2, element-wise.
core | elementwise | tan(x, /) -> array | x | floating | - | std
    Tangent, element-wise, of angles in radians.
core | elementwise | tanh(x, /) -> array | x | floating | - | std
    Hyperbolic tangent, element-wise.
core | elementwise | trunc(x, /) -> array | x | real | - | std
    Round towards zero to an integer-valued number.
core | indexing | take(x, indices, /, *, axis: int | None = None) -> array | x, indices | - | - | std
    Elements of x at integer indices along axis.
core | indexing | take_along_axis(x, indices, /, *, axis: int = -1) -> array | x, indices | - | - | std
    Elements of x picked by indices along axis (indices broadcast with x).
core | linear_algebra | matmul(x1, x2, /) -> array | x1, x2 | numeric | - | std
    Matrix product of the last two axes, broadcasting the leading (batch) axes.
core | linear_algebra | matrix_transpose(x, /) -> array | x | - | matrix | std
    x with its last two axes swapped.
core | linear_algebra | tensordot(x1, x2, /, *, axes=2) -> array | x1, x2 | numeric | - | std
    Tensor contraction of x1 and x2 over the given axes.
core | linear_algebra | vecdot(x1, x2, /, *, axis: int = -1) -> array | x1, x2 | numeric | - | std
    Dot product of vectors along axis (x1 conjugated), broadcasting the other axes.
core | manipulation | broadcast_arrays(*arrays) -> arrays | *arrays | - | - | std
    The arrays broadcast to their common shape.
core | manipulation | broadcast_to(x, /, shape) -> array | x | - | - | std
    x broadcast to shape.
core | manipulation | concat(arrays, /, *, axis: int | None = 0) -> array | arrays[] | - | - | std
    The arrays joined along an existing axis (flattened first if axis is None).
core | manipulation | expand_dims(x, /, axis: int | tuple[int, ...]) -> array | x | - | axis+1 | std
    x with a new axis of size one at position axis.
core | manipulation | flip(x, /, *, axis=None) -> array | x | - | - | std
    x with the order of elements reversed along axis (all axes if None).
core | manipulation | moveaxis(x, source, destination, /) -> array | x | - | - | std
    x with axes moved from source to destination positions.
core | manipulation | permute_dims(x, /, axes) -> array | x | - | - | std
    x with its axes permuted.
core | manipulation | repeat(x, repeats, /, *, axis=None) -> array | x, repeats | - | - | std
    Each element of x repeated `repeats` times along axis (flattened if None).
core | manipulation | reshape(x, /, shape, *, copy=None) -> array | x | - | - | std
    x with a new shape, same data (copy controls whether a copy is allowed or forced).
core | manipulation | roll(x, /, shift, *, axis=None) -> array | x | - | - | std
    x with elements shifted by `shift` along axis, wrapping around.
core | manipulation | squeeze(x, /, axis: int | tuple[int, ...]) -> array | x | - | - | std
    x with the given size-one axes removed.
core | manipulation | stack(arrays, /, *, axis: int = 0) -> array | arrays[] | - | axis+1 | std
    The arrays joined along a new axis.
core | manipulation | tile(x, repetitions, /) -> array | x | - | - | std
    x repeated `repetitions` times along each axis.
core | manipulation | unstack(x, /, *, axis: int = 0) -> arrays | x | - | - | std
    The slices of x along axis, as a tuple.
core | searching | argmax(x, /, *, axis: int | None = None, keepdims=False) -> array | x | real | - | std
    Index of the first maximum along axis.
core | searching | argmin(x, /, *, axis: int | None = None, keepdims=False) -> array | x | real | - | std
    Index of the first minimum along axis.
core | searching | count_nonzero(x, /, *, axis=None, keepdims=False) -> array | x | - | - | std
    Number of non-zero elements along axis.
core | searching | nonzero(x, /) -> arrays | x | - | - | std
    Indices of the non-zero elements, one array per axis.
core | searching | searchsorted(x1, x2, /, *, side='left', sorter=None) -> array | x1, x2, sorter | real | - | std
    Indices at which to insert x2 into the sorted one-dimensional x1 to keep it sorted.
core | searching | where(condition, x1, x2, /) -> array | condition, x1, x2 | - | broadcast | std
    Elements of x1 where condition is true, else of x2.
core | set | isin(x1, x2, /, *, invert=False) -> array | x1, x2 | - | - | std
    Whether each element of x1 occurs in x2.
core | set | unique_all(x, /) -> (values, indices, inverse_indices, counts) | x | - | - | std
    Unique values of x with their first indices, inverse indices and counts.
core | set | unique_counts(x, /) -> (values, counts) | x | - | - | std
    Unique values of x and their counts.
core | set | unique_inverse(x, /) -> (values, inverse_indices) | x | - | - | std
    Unique values of x and the indices that rebuild x from them.
core | set | unique_values(x, /) -> array | x | - | - | std
    Unique values of x, sorted.
core | sorting | argsort(x, /, *, axis: int = -1, descending=False, stable=True) -> array | x | real | - | std
    Indices that sort x along axis.
core | sorting | sort(x, /, *, axis: int = -1, descending=False, stable=True) -> array | x | real | - | std
    x sorted along axis.
core | statistical | cumulative_prod(x, /, *, axis: int | None = None, dtype=None, include_initial=False) -> array | x | numeric | cumulative | std
    Cumulative product along axis.
core | statistical | cumulative_sum(x, /, *, axis: int | None = None, dtype=None, include_initial=False) -> array | x | numeric | cumulative | std
    Cumulative sum along axis.
core | statistical | max(x, /, *, axis=None, keepdims=False) -> array | x | real | - | std
    Maximum along axis.
core | statistical | mean(x, /, *, axis=None, keepdims=False) -> array | x | floating | - | std
    Arithmetic mean along axis.
core | statistical | min(x, /, *, axis=None, keepdims=False) -> array | x | real | - | std
    Minimum along axis.
core | statistical | prod(x, /, *, axis=None, dtype=None, keepdims=False) -> array | x | numeric | - | std
    Product along axis.
core | statistical | std(x, /, *, axis=None, correction=0.0, keepdims=False) -> array | x | real floating | - | std
    Standard deviation along axis, with `correction` degrees of freedom removed.
core | statistical | sum(x, /, *, axis=None, dtype=None, keepdims=False) -> array | x | numeric | - | std
    Sum along axis.
core | statistical | var(x, /, *, axis=None, correction=0.0, keepdims=False) -> array | x | real floating | - | std
    Variance along axis, with `correction` degrees of freedom removed.
core | utility | all(x, /, *, axis=None, keepdims=False) -> array | x | - | - | std
    Whether all elements along axis are true.
core | utility | any(x, /, *, axis=None, keepdims=False) -> array | x | - | - | std
    Whether any element along axis is true.
core | utility | diff(x, /, *, axis: int = -1, n=1, prepend=None, append=None) -> array | x, prepend, append | - | - | std
    n-th discrete difference along axis.
core | extra | allclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool | x1, x2 | - | broadcast | ext
    Whether all of |x1 - x2| <= atol + rtol * |x2| (a Python bool).
core | extra | cumprod(x, /, *, axis: int | None = None, dtype=None, include_initial=False) -> array | x | numeric | cumulative | ext
    Alias of cumulative_prod.
core | extra | cumsum(x, /, *, axis: int | None = None, dtype=None, include_initial=False) -> array | x | numeric | cumulative | ext
    Alias of cumulative_sum.
core | extra | einsum(subscripts: str, /, *operands) -> array | *operands | - | - | ext
    Einstein summation of the operands, in NumPy's subscript notation.
core | extra | gather_nd(x, indices, /, *, batch_dims=0) -> array | x, indices | - | - | ext
    Slices of x gathered at multi-indices, as tf.gather_nd.
core | extra | isclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False) -> array | x1, x2 | - | broadcast | ext
    Element-wise |x1 - x2| <= atol + rtol * |x2|.
core | extra | logsumexp(x, /, *, axis=None, keepdims=False) -> array | x | - | - | ext
    log(sum(exp(x))) along axis, computed stably.
core | extra | one_hot(indices, num_classes, /, *, dtype=None, axis: int = -1) -> array | indices | - | - | ext
    One-hot encoding of integer indices along a new axis of size num_classes.
core | extra | pad(x, /, pad_width, *, mode='constant', constant_values=0) -> array | x | - | - | ext
    x padded along each axis (modes constant, reflect, symmetric, edge, wrap).
core | extra | scatter_nd(indices, updates, shape, /) -> array | indices, updates | - | - | ext
    A zero array of shape with updates summed in at multi-indices, as tf.scatter_nd.
core | extra | split(x, indices_or_sections, /, *, axis: int = 0) -> arrays | x | - | - | ext
    x split along axis into equal sections or at the given indices.
core | extra | top_k(x, k, /, *, axis: int = -1, largest=True) -> (values, indices) | x | real | - | ext
    The k largest (or smallest) elements along axis and their indices, sorted.
core | extra | to_numpy(x, /) -> numpy | x | - | - | ext
    x as a NumPy array (copied to host memory if needed).
core | device | device(x, /) -> str | x | - | - | ext
    The device x lives on, in hedera's spelling ("cpu", "gpu:0").
core | device | to_device(x, device, /, *, stream=None) -> array | x | - | - | ext
    x moved to device.
linalg | linalg | cholesky(x, /, *, upper=False) -> array | x | floating | square | std
    Cholesky factor of symmetric (Hermitian) positive-definite matrices.
linalg | linalg | cross(x1, x2, /, *, axis: int = -1) -> array | x1, x2 | numeric | broadcast | std
    Cross product of three-element vectors along axis.
linalg | linalg | det(x, /) -> array | x | floating | square | std
    Determinant of square matrices.
linalg | linalg | diagonal(x, /, *, offset=0) -> array | x | - | matrix | std
    The offset diagonal of the last two axes.
linalg | linalg | eigh(x, /) -> (eigenvalues, eigenvectors) | x | floating | square | std
    Eigenvalues (ascending) and eigenvectors of symmetric (Hermitian) matrices.
linalg | linalg | eigvalsh(x, /) -> array | x | floating | square | std
    Eigenvalues (ascending) of symmetric (Hermitian) matrices.
linalg | linalg | inv(x, /) -> array | x | floating | square | std
    Inverse of square matrices.
linalg | linalg | matmul(x1, x2, /) -> array | x1, x2 | numeric | - | std
    Matrix product (same as matmul).
linalg | linalg | matrix_norm(x, /, *, keepdims=False, ord='fro') -> array | x | floating | matrix | std
    Matrix norm over the last two axes ("fro", "nuc", 1, 2, inf, ...).
linalg | linalg | matrix_power(x, n, /) -> array | x | numeric | square | std
    Square matrices raised to the integer power n.
linalg | linalg | matrix_rank(x, /, *, rtol=None) -> array | x | floating | matrix | std
    Rank of matrices: singular values above rtol times the largest.
linalg | linalg | matrix_transpose(x, /) -> array | x | - | matrix | std
    Matrix transpose (same as matrix_transpose).
linalg | linalg | outer(x1, x2, /) -> array | x1, x2 | numeric | - | std
    Outer product of two vectors.
linalg | linalg | pinv(x, /, *, rtol=None) -> array | x | floating | matrix | std
    Moore-Penrose pseudo-inverse.
linalg | linalg | qr(x, /, *, mode='reduced') -> (Q, R) | x | floating | matrix | std
    QR decomposition.
linalg | linalg | slogdet(x, /) -> (sign, logabsdet) | x | floating | square | std
    Sign and log of the absolute determinant.
linalg | linalg | solve(x1, x2, /) -> array | x1, x2 | floating | square | std
    Solution of x1 @ result = x2.
linalg | linalg | svd(x, /, *, full_matrices=True) -> (U, S, Vh) | x | floating | matrix | std
    Singular value decomposition U, S, Vh.
linalg | linalg | svdvals(x, /) -> array | x | floating | matrix | std
    Singular values, descending.
linalg | linalg | tensordot(x1, x2, /, *, axes=2) -> array | x1, x2 | numeric | - | std
    Tensor contraction (same as tensordot).
linalg | linalg | trace(x, /, *, offset=0, dtype=None) -> array | x | numeric | matrix | std
    Sum along the offset diagonal of the last two axes.
linalg | linalg | vecdot(x1, x2, /, *, axis: int = -1) -> array | x1, x2 | numeric | - | std
    Vector dot product (same as vecdot).
linalg | linalg | vector_norm(x, /, *, axis=None, keepdims=False, ord=2) -> array | x | floating | - | std
    Vector p-norm over axis (all axes if None).
fft | fft | fft(x, /, *, n=None, axis: int = -1, norm='backward') -> array | x | - | - | std
    One-dimensional discrete Fourier transform.
fft | fft | fftfreq(n, /, *, d=1.0, dtype=None, device=None) -> array | - | - | - | std
    Sample frequencies of an n-point DFT.
fft | fft | fftn(x, /, *, s=None, axes=None, norm='backward') -> array | x | - | - | std
    N-dimensional discrete Fourier transform.
fft | fft | fftshift(x, /, *, axes=None) -> array | x | - | - | std
    The zero-frequency term shifted to the centre.
fft | fft | hfft(x, /, *, n=None, axis: int = -1, norm='backward') -> array | x | - | - | std
    DFT of a signal with Hermitian symmetry (real output).
fft | fft | ifft(x, /, *, n=None, axis: int = -1, norm='backward') -> array | x | - | - | std
    One-dimensional inverse discrete Fourier transform.
fft | fft | ifftn(x, /, *, s=None, axes=None, norm='backward') -> array | x | - | - | std
    N-dimensional inverse discrete Fourier transform.
fft | fft | ifftshift(x, /, *, axes=None) -> array | x | - | - | std
    Inverse of fftshift.
fft | fft | ihfft(x, /, *, n=None, axis: int = -1, norm='backward') -> array | x | real floating | - | std
    Inverse of hfft.
fft | fft | irfft(x, /, *, n=None, axis: int = -1, norm='backward') -> array | x | - | - | std
    Inverse of rfft (real output).
fft | fft | irfftn(x, /, *, s=None, axes=None, norm='backward') -> array | x | - | - | std
    Inverse of rfftn (real output).
fft | fft | rfft(x, /, *, n=None, axis: int = -1, norm='backward') -> array | x | real floating | - | std
    One-dimensional DFT of a real signal (non-negative frequencies).
fft | fft | rfftfreq(n, /, *, d=1.0, dtype=None, device=None) -> array | - | - | - | std
    Sample frequencies of an n-point real DFT.
fft | fft | rfftn(x, /, *, s=None, axes=None, norm='backward') -> array | x | real floating | - | std
    N-dimensional DFT of a real signal.
"""

#: the standard's constants, present in every backend namespace and in ``hd``
CONSTANTS = ("e", "inf", "nan", "newaxis", "pi")

#: names of the standard's dtypes (every backend namespace has them as native dtype objects)
DTYPE_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)  # fmt: skip


class Param(NamedTuple):
    """One parameter of a row's signature."""

    name: str  # as written, with a leading ``*`` for a variadic parameter
    annotation: str | None  # the row's own annotation, else PARAMETERS' default, else None
    default: str | None  # the default as written, or None for a required parameter

    @property
    def bare(self) -> str:
        return self.name.lstrip("*")


class Function(NamedTuple):
    """One row of the API table (see the module docstring for its columns). A named tuple rather
    than a frozen dataclass: the fronts' docstrings are made from the table at ``import hedera``,
    and a dataclass costs a millisecond and a half to define there."""

    namespace: str  # "core", "linalg" or "fft"
    category: str
    name: str
    params: str  # the parameter list as written between the parentheses, annotations removed
    array_params: tuple[str, ...]  # parameters holding arrays, in signature order
    sequence_params: tuple[str, ...]  # those of array_params holding a sequence of arrays
    returns: str  # a key of RETURNS, or a named tuple's fields "(Q, R)"
    dtype_kinds: tuple[str, ...]  # the standard's kind names; () for any
    shape: str  # a key of SHAPES
    standard: bool  # defined by the Array API standard (else a hedera extension)
    manual: bool  # its front is hand-written in hedera/_front_manual.py
    summary: str
    signature: tuple[Param | str, ...]  # the parameters, with the markers "/" and "*"

    @property
    def qualname(self) -> str:
        return self.name if self.namespace == "core" else f"{self.namespace}.{self.name}"

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.bare for p in self.signature if isinstance(p, Param))

    @property
    def return_fields(self) -> tuple[str, ...]:
        """The fields of a named tuple of arrays (``("Q", "R")``), else ``()``."""
        if not self.returns.startswith("("):
            return ()
        return tuple(f.strip() for f in self.returns.strip("()").split(","))

    @property
    def return_annotation(self) -> str:
        fields = self.return_fields
        if fields:
            return f"tuple[{', '.join('Array' for _ in fields)}]"
        return RETURNS[self.returns][0]


def _split_params(params: str) -> list[str]:
    """``params`` split at the commas outside brackets (annotations hold ``tuple[int, ...]``)."""
    if "[" not in params and "(" not in params:  # most rows: split at every comma (at import)
        return [p.strip() for p in params.split(",") if p.strip()]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(params):
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(params[start:i].strip())
            start = i + 1
    tail = params[start:].strip()
    return [*parts, tail] if tail else parts


def _parse_signature(params: str, arrays: list[str]) -> tuple[Param | str, ...]:
    """The parameters of a row. A parameter's annotation is the row's own, else ``Array`` for an
    array parameter (``Sequence[Array]`` for a sequence of them), else :data:`PARAMETERS`'."""
    out: list[Param | str] = []
    for part in _split_params(params):
        if part in ("/", "*"):
            out.append(part)
            continue
        head, eq, default = part.partition("=")
        name, colon, annotation = (s.strip() for s in head.partition(":"))
        if not colon:
            bare = name.lstrip("*")
            if bare + "[]" in arrays:
                annotation = "Sequence[Array]"
            elif bare in arrays or name in arrays:
                annotation = "Array"
            else:
                annotation = PARAMETERS.get(bare, (None,))[0]
        out.append(Param(name, annotation or None, default.strip() if eq else None))
    return tuple(out)


_ROW = re.compile(r"(\w+) \| (\w+) \| (\w+)\((.*)\) -> (.+?) \| (.+?) \| (.+?) \| (.+?) \| (.+)")


def _parse(table: str) -> tuple[Function, ...]:
    rows = []
    lines = table.strip().splitlines()
    for line, summary in zip(lines[::2], lines[1::2], strict=True):
        match = _ROW.fullmatch(line)
        assert match and summary.startswith("    "), line
        namespace, category, name, params, returns, arrays, kinds, shape, flags = match.groups()
        declared = [] if arrays == "-" else [a.strip() for a in arrays.split(",")]
        signature = _parse_signature(params, declared)
        array_params = tuple(a.lstrip("*").removesuffix("[]") for a in declared)
        sequences = tuple(
            a.lstrip("*").removesuffix("[]") for a in declared if a[0] == "*" or a.endswith("[]")
        )
        names = [p.bare for p in signature if isinstance(p, Param)]
        assert all(a in names for a in array_params), line
        assert returns in RETURNS or returns.startswith("("), line
        assert shape in SHAPES, line
        plain = ", ".join(
            p if isinstance(p, str) else p.name + ("" if p.default is None else f"={p.default}")
            for p in signature
        )
        rows.append(
            Function(
                namespace, category, name, plain,
                tuple(n for n in names if n in array_params), sequences, returns, KINDS[kinds], shape,
                "std" in flags.split(), "manual" in flags.split(), summary.strip(), signature,
            )
        )  # fmt: skip
    return tuple(rows)


FUNCTIONS: tuple[Function, ...] = _parse(_TABLE)
BY_QUALNAME: dict[str, Function] = {f.qualname: f for f in FUNCTIONS}

#: parameter names that hold arrays in some row
ARRAY_PARAMS: frozenset[str] = frozenset(a for f in FUNCTIONS for a in f.array_params)
#: parameter names that hold a sequence of arrays in some row (dispatch looks into them)
SEQUENCE_PARAMS: frozenset[str] = frozenset(a for f in FUNCTIONS for a in f.sequence_params)


def with_kinds(*aliases: str) -> frozenset[str]:
    """Qualnames of the rows whose dtype kinds are one of ``aliases`` (``KINDS``' keys)."""
    wanted = {KINDS[a] for a in aliases}
    return frozenset(f.qualname for f in FUNCTIONS if f.dtype_kinds in wanted)


def names_in(category: str, namespace: str = "core") -> list[str]:
    """The names of the rows of ``category`` (``"elementwise"``...): a backend module's ``__all__``."""
    return [f.name for f in FUNCTIONS if f.category == category and f.namespace == namespace]


def with_shape(shape: str) -> frozenset[str]:
    """Qualnames of the rows of shape class ``shape`` (``SHAPES``' keys)."""
    return frozenset(f.qualname for f in FUNCTIONS if f.shape == shape)
