"""Turning a backend's failure into hedera's error for the argument at fault.

Front functions do no validation on the way in: that would tax every call. When
the backend raises, :func:`diagnose` re-examines the arguments and, if it can
name the bad one, raises the hedera exception for it (the same class on every
backend), chained to the framework's own error. Otherwise the framework's
exception propagates unchanged.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

from . import _dispatch, errors
from ._api import BY_QUALNAME, FUNCTIONS, Param, argument_kind, with_shape
from ._argkinds import check_value
from ._dispatch import backend_name_of_type, is_array
from .dtypes import as_hedera_dtype, isdtype

# the tables below are columns of the API table (hedera/_api.py): dtype kinds and shape classes
_AXIS_PARAMS = ("axis", "axes", "source", "destination")  # axes of the first array argument
_AXIS_ONE_PAST = with_shape("axis+1")  # expand_dims/stack may name one past the end
_AXIS_OF_EACH = ("vecdot", "linalg.vecdot", "linalg.cross")  # axis indexes x1 and x2 alike

# dtype kinds a function accepts, where the standard restricts them (consulted only once the backend
# has failed: a framework that computes on other dtypes, as NumPy's sin on integers, still does)
_ALLOWED_KINDS: dict[str, tuple[str, ...]] = {f.qualname: f.dtype_kinds for f in FUNCTIONS if f.dtype_kinds}

# functions whose array arguments broadcast together (element-wise and the like), by parameter
_BROADCASTING = with_shape("broadcast")
_CUMULATIVE = with_shape("cumulative")
# linear algebra on stacks of matrices: square ones, or at least two dimensions
_SQUARE = with_shape("square")
_MATRIX = with_shape("matrix")


_is_array = is_array


def _shape(v: Any) -> tuple[int | None, ...]:
    return tuple(None if d is None else int(d) for d in v.shape)


def broadcast_shapes_or_none(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...] | None:
    """The broadcast of ``shapes``, or None if they do not broadcast. Unknown sizes (None) fit anything."""
    ndim = max((len(s) for s in shapes), default=0)
    out: list[int | None] = []
    for i in range(-ndim, 0):
        size: int | None = 1
        for s in shapes:
            d = s[i] if -i <= len(s) else 1
            if d is None or d == 1:
                continue
            if size in (1, None):
                size = d
            elif d != size:
                return None
        out.append(size)
    return tuple(out)


def _kind_text(value: Any) -> str:
    return f"an array of shape {_shape(value)}" if _is_array(value) else f"{type(value).__name__} {value!r}"


def _check_kinds(qualname: str, values: dict[str, Any]) -> None:
    """Non-array arguments of the wrong kind (a float axis, a str shape, an unknown option): Python
    type checks against the API table's argument kinds (``hedera._api.ARGUMENT_KINDS``)."""
    for name, value in values.items():
        kind = argument_kind(qualname, name)
        if kind is None:
            continue
        if isinstance(kind, tuple):  # the option strings it takes
            if not isinstance(value, str):
                raise errors.ArgumentTypeError(
                    f"{qualname}: {name} must be one of {list(kind)}, got {_kind_text(value)}"
                )
            if value not in kind:
                raise errors.InvalidArgumentError(
                    f"{qualname}: {name} must be one of {list(kind)}, got {value!r}"
                )
            continue
        check_value(qualname, name, kind, value)


def check_kinds(qualname: str, values: dict[str, Any]) -> None:
    """Raise :class:`~hedera.ArgumentTypeError` (or ``InvalidArgumentError``) for a non-array
    argument of ``values`` of the wrong kind for ``qualname`` (the API table's kinds).

    For the few backend functions whose framework *accepts* a wrong kind silently (numpy's and
    jax's ``roll`` take an array shift): they call this up front, and only when a Python-type
    test of the common case (``shift.__class__ is int``) fails, so the success path costs one
    type comparison. A NumPy integer scalar (``np.int64(1)``) counts as an int, as in NumPy."""
    _check_kinds(qualname, {k: _plain_int(v) for k, v in values.items()})


def _plain_int(v: Any) -> Any:
    integral = isinstance(v, numbers.Integral) and not isinstance(v, bool)
    return int(v) if integral and not getattr(v, "shape", ()) else v


def check_required_arrays(qualname: str, values: dict[str, Any]) -> None:
    """None where an array is required (``hd.add(x, None)``): dispatch lets None follow the
    arrays, for the array parameters that default to None (``clip``'s bounds), so the frameworks
    met it, and raised TypeError, AttributeError or ValueError of their own."""
    fn = BY_QUALNAME.get(qualname)
    if fn is None:
        return
    for p in fn.signature:
        if (
            isinstance(p, Param)
            and p.bare in fn.array_params
            and p.default is None
            and not p.name.startswith("*")
        ):
            if p.bare in values and values[p.bare] is None:
                raise errors.NotAnArrayError(
                    f"{qualname}: {p.bare} must be an array or a Python scalar, got None"
                )


def _check_asarray_object(qualname: str, values: dict[str, Any]) -> None:
    """asarray's object: a ragged nesting, or an item that is no number or array (the frameworks'
    errors differ: ValueError, TypeError, RuntimeError)."""
    if qualname == "asarray" and "obj" in values:
        from .backends._common import check_nested_numbers

        check_nested_numbers(values["obj"])


def _check_axes(qualname: str, values: dict[str, Any]) -> None:
    x = next((v for v in values.values() if _is_array(v)), None)
    if x is None and isinstance(values.get("arrays"), (list, tuple)) and values["arrays"]:
        x = values["arrays"][0]
    if x is None or not _is_array(x):
        return
    if qualname in ("tensordot", "linalg.tensordot"):
        _check_tensordot_axes(qualname, values)
        return
    if qualname == "expand_dims" and isinstance(values.get("axis"), (tuple, list)):
        ndim = len(x.shape) + len(values["axis"])  # the axes index the result
    else:
        ndim = len(x.shape) + (1 if qualname in _AXIS_ONE_PAST else 0)
    for param in _AXIS_PARAMS:
        value = values.get(param)
        if value is None:
            continue
        axes = value if isinstance(value, (tuple, list)) else (value,)
        for a in axes:
            if isinstance(a, int) and not isinstance(a, bool) and not -ndim <= a < max(ndim, 1):
                raise errors.InvalidAxisError(
                    f"{qualname}: {param}={value!r} is out of range for an array of {len(x.shape)} "
                    f"dimensions; expected an integer in [{-ndim}, {max(ndim, 1) - 1}]"
                )
        ints = [a % max(ndim, 1) for a in axes if isinstance(a, int) and not isinstance(a, bool)]
        if len(set(ints)) < len(ints):
            raise errors.InvalidAxisError(f"{qualname}: {param}={value!r} repeats an axis")
    if qualname in _AXIS_OF_EACH:
        _check_axis_of_each(qualname, values)


def _check_axis_of_each(qualname: str, values: dict[str, Any]) -> None:
    """vecdot's and cross's axis indexes x2 as it does x1 (the check above sees x1 alone)."""
    axis = values.get("axis", -1)
    if not isinstance(axis, int) or isinstance(axis, bool):
        return
    for name in ("x1", "x2"):
        v = values.get(name)
        if _is_array(v) and not -len(v.shape) <= axis < max(len(v.shape), 1):
            raise errors.InvalidAxisError(
                f"{qualname}: axis={axis} is out of range for {name} of shape {_shape(v)}; expected an "
                f"integer in [{-len(v.shape)}, {max(len(v.shape), 1) - 1}]"
            )


def _check_tensordot_axes(qualname: str, values: dict[str, Any]) -> None:
    x1, x2, axes = values.get("x1"), values.get("x2"), values.get("axes", 2)
    if not (_is_array(x1) and _is_array(x2)):
        return
    s1, s2 = _shape(x1), _shape(x2)
    if isinstance(axes, int) and not isinstance(axes, bool):
        if not 0 <= axes <= min(len(s1), len(s2)):
            raise errors.InvalidAxisError(
                f"{qualname}: axes={axes} must be in [0, {min(len(s1), len(s2))}] for x1 of shape {s1} "
                f"and x2 of shape {s2}"
            )
        pairs = list(zip(range(len(s1) - axes, len(s1)), range(axes), strict=True))
    elif isinstance(axes, (tuple, list)) and len(axes) == 2:
        a1, a2 = ((a,) if isinstance(a, int) else tuple(a) for a in axes)
        for name, shape, ax in (("x1", s1, a1), ("x2", s2, a2)):
            for a in ax:
                if not -len(shape) <= a < max(len(shape), 1):
                    raise errors.InvalidAxisError(
                        f"{qualname}: axes={axes!r}: axis {a} is out of range for {name} of shape {shape}"
                    )
        if len(a1) != len(a2):
            raise errors.InvalidAxisError(f"{qualname}: axes={axes!r} pairs {len(a1)} axes with {len(a2)}")
        pairs = list(zip(a1, a2, strict=True))
    else:
        return
    for a, b in pairs:
        if None not in (s1[a], s2[b]) and s1[a] != s2[b]:
            raise errors.ShapeError(
                f"{qualname}: axes={axes!r}: contracted axis {a} of x1 (shape {s1}) and axis {b} of x2 "
                f"(shape {s2}) differ"
            )


def _raise_unless_broadcast(qualname: str, shapes: dict[str, tuple[int | None, ...]]) -> None:
    if broadcast_shapes_or_none(*shapes.values()) is None:
        described = ", ".join(f"{n} has shape {s}" for n, s in shapes.items())
        raise errors.BroadcastError(f"{qualname}: shapes do not broadcast together ({described})")


def _check_broadcast(qualname: str, values: dict[str, Any]) -> None:
    fn = BY_QUALNAME.get(qualname)
    if fn is None:
        return
    if qualname in _BROADCASTING:
        arrays = {n: values[n] for n in fn.array_params if n in values and _is_array(values[n])}
        if len(arrays) >= 2:
            _raise_unless_broadcast(qualname, {n: _shape(v) for n, v in arrays.items()})
    elif qualname == "broadcast_arrays":
        arrays = [a for a in values.get("arrays") or () if _is_array(a)]
        _raise_unless_broadcast(qualname, {f"arrays[{i}]": _shape(a) for i, a in enumerate(arrays)})
    elif qualname == "broadcast_to" and _is_array(values.get("x")):
        shape = values.get("shape")
        shape = (shape,) if isinstance(shape, int) else tuple(shape or ())
        s = _shape(values["x"])
        if broadcast_shapes_or_none(s, shape) != shape:
            raise errors.BroadcastError(f"{qualname}: x of shape {s} does not broadcast to shape {shape}")
    elif qualname in ("matmul", "linalg.matmul", "linalg.solve", "take_along_axis"):
        _check_batch_broadcast(qualname, values)


def _check_batch_broadcast(qualname: str, values: dict[str, Any]) -> None:
    """The batch dimensions of matmul/solve, or the non-``axis`` ones of take_along_axis, must broadcast."""
    names = ("x", "indices") if qualname == "take_along_axis" else ("x1", "x2")
    a, b = values.get(names[0]), values.get(names[1])
    if not (_is_array(a) and _is_array(b)):
        return
    sa, sb = _shape(a), _shape(b)
    if qualname == "take_along_axis":
        axis = values.get("axis", -1)
        if len(sa) != len(sb) or not isinstance(axis, int) or not -len(sa) <= axis < len(sa):
            return
        axis %= len(sa)
        batch = {names[0]: sa[:axis] + sa[axis + 1 :], names[1]: sb[:axis] + sb[axis + 1 :]}
    else:
        vector2 = qualname == "linalg.solve" and len(sb) == 1
        batch = {names[0]: sa[:-2], names[1]: () if vector2 or len(sb) < 2 else sb[:-2]}
    if broadcast_shapes_or_none(*batch.values()) is None:
        raise errors.BroadcastError(
            f"{qualname}: the batch dimensions of {names[0]} (shape {sa}) and {names[1]} (shape {sb}) "
            "do not broadcast together"
        )


def _check_matmul(qualname: str, values: dict[str, Any]) -> None:
    if qualname not in ("matmul", "linalg.matmul"):
        return
    x1, x2 = values.get("x1"), values.get("x2")
    if not (_is_array(x1) and _is_array(x2)):
        return
    s1, s2 = _shape(x1), _shape(x2)
    if len(s1) == 0 or len(s2) == 0:
        raise errors.ShapeError(f"{qualname}: x1 and x2 must have at least one dimension, got {s1} and {s2}")
    k1 = s1[-1]
    k2 = s2[-2] if len(s2) > 1 else s2[0]
    if None not in (k1, k2) and k1 != k2:
        raise errors.ShapeError(
            f"{qualname}: the last axis of x1 (shape {s1}) must match the "
            f"{'second-to-last' if len(s2) > 1 else 'only'} axis of x2 (shape {s2})"
        )


def _check_dtypes(qualname: str, values: dict[str, Any]) -> None:
    kinds = _ALLOWED_KINDS.get(qualname)
    fn = BY_QUALNAME.get(qualname)
    if kinds is None or fn is None:
        return
    for name in fn.array_params:
        v = values.get(name)
        if not _is_array(v):
            continue
        try:
            d = as_hedera_dtype(v.dtype)
        except errors.DtypeError:
            continue
        if not isdtype(d, kinds):
            raise errors.DtypeError(
                f"{qualname}: {name} has dtype {d.name}; expected a dtype of kind {' or '.join(kinds)}"
            )


def _check_matrices(qualname: str, values: dict[str, Any]) -> None:
    """Stacks of matrices (shape class ``matrix``), square ones (``square``), and solve's right side."""
    x = values.get("x", values.get("x1"))
    if not _is_array(x):
        return
    s = _shape(x)
    name = "x1" if "x1" in values else "x"
    if len(s) < 2:
        raise errors.ShapeError(f"{qualname}: {name} must have at least 2 dimensions, got shape {s}")
    if qualname in _SQUARE and None not in s[-2:] and s[-1] != s[-2]:
        raise errors.ShapeError(f"{qualname}: {name} must be square (shape (..., n, n)), got shape {s}")
    if qualname == "linalg.solve" and _is_array(values.get("x2")):
        s2 = _shape(values["x2"])
        k = s2[0] if len(s2) == 1 else (s2[-2] if len(s2) > 1 else None)
        if len(s2) == 0 or (None not in (k, s[-1]) and k != s[-1]):
            raise errors.ShapeError(f"{qualname}: x2 of shape {s2} does not fit x1 of shape {s}")


def _check_squeeze(qualname: str, values: dict[str, Any]) -> None:
    x = values.get("x")
    if not _is_array(x):
        return
    s, axis = _shape(x), values.get("axis")
    for a in axis if isinstance(axis, (tuple, list)) else (axis,):
        if isinstance(a, int) and -len(s) <= a < len(s) and s[a] not in (1, None):
            raise errors.ShapeError(f"squeeze: axis {a} of x (shape {s}) has size {s[a]}, not 1")


def _check_take_along_axis(qualname: str, values: dict[str, Any]) -> None:
    x, indices = values.get("x"), values.get("indices")
    if _is_array(x) and _is_array(indices) and len(indices.shape) != len(x.shape):
        raise errors.ShapeError(
            f"take_along_axis: indices (shape {_shape(indices)}) must have as many dimensions "
            f"as x (shape {_shape(x)})"
        )


def _check_cumulative(qualname: str, values: dict[str, Any]) -> None:
    x = values.get("x")
    if not _is_array(x):
        return
    if len(x.shape) == 0:
        raise errors.ShapeError(f"{qualname}: x needs at least one dimension, got a 0-d array")
    if values.get("axis") is None and len(x.shape) > 1:
        raise errors.InvalidArgumentError(f"{qualname}: axis must be given for x of shape {_shape(x)}")


def _check_roll(qualname: str, values: dict[str, Any]) -> None:
    if isinstance(values.get("shift"), (tuple, list)):
        axis = values.get("axis")
        if not isinstance(axis, (tuple, list)) or len(axis) != len(values["shift"]):
            raise errors.InvalidArgumentError(
                f"roll: shift={values['shift']!r} needs an axis tuple of the same length, got axis={axis!r}"
            )


def _check_one_dimension(qualname: str, values: dict[str, Any]) -> None:
    """nonzero, unstack, split: x needs an axis."""
    x = values.get("x")
    if _is_array(x) and len(x.shape) == 0:
        cls = errors.ShapeError if qualname == "nonzero" else errors.InvalidAxisError
        raise cls(f"{qualname}: x must have at least one dimension (axis), got a 0-d array")


def _check_nonempty_reduction(qualname: str, values: dict[str, Any]) -> None:
    """max, min, argmax, argmin have no identity: the reduced axes must not be empty."""
    x = values.get("x")
    if not _is_array(x) or None in _shape(x):
        return
    s, axis = _shape(x), values.get("axis")
    axes = range(len(s)) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)
    if any(isinstance(a, int) and -len(s) <= a < len(s) and s[a] == 0 for a in axes) or (
        axis is None and 0 in s
    ):
        raise errors.ShapeError(f"{qualname}: x (shape {s}) has no elements to reduce over axis={axis}")


def _check_searchsorted(qualname: str, values: dict[str, Any]) -> None:
    x = values.get("x1")
    if _is_array(x) and len(x.shape) != 1:
        raise errors.ShapeError(f"searchsorted: x1 must be one-dimensional, got shape {_shape(x)}")


def _check_cross(qualname: str, values: dict[str, Any]) -> None:
    if not (_is_array(values.get("x1")) and _is_array(values.get("x2"))):
        return
    # the whole shapes broadcast (as JAX's and TensorFlow's own checks say first)
    _raise_unless_broadcast(qualname, {"x1": _shape(values["x1"]), "x2": _shape(values["x2"])})
    axis = values.get("axis", -1)
    for name in ("x1", "x2"):
        s = _shape(values[name])
        if isinstance(axis, int) and -len(s) <= axis < len(s) and s[axis] not in (3, None):
            raise errors.ShapeError(f"{qualname}: axis {axis} of {name} (shape {s}) must have size 3")


def _check_vecdot(qualname: str, values: dict[str, Any]) -> None:
    x1, x2 = values.get("x1"), values.get("x2")
    if not (_is_array(x1) and _is_array(x2)):
        return
    s1, s2, axis = _shape(x1), _shape(x2), values.get("axis", -1)
    if isinstance(axis, int) and -min(len(s1), len(s2)) <= axis < 0 and None not in (s1[axis], s2[axis]):
        if s1[axis] != s2[axis]:
            raise errors.ShapeError(f"{qualname}: axis {axis} of x1 (shape {s1}) and x2 (shape {s2}) differ")
    _raise_unless_broadcast(qualname, {"x1": s1, "x2": s2})  # the contracted axis does not broadcast


def _check_gather_nd(qualname: str, values: dict[str, Any]) -> None:
    x, indices = values.get("x"), values.get("indices")
    if not (_is_array(x) and _is_array(indices)):
        return
    si, batch = _shape(indices), values.get("batch_dims", 0)
    if not si:
        raise errors.ShapeError(
            "gather_nd: indices must have at least one dimension (its last holds the index tuples), "
            "got a 0-d array"
        )
    if si and isinstance(si[-1], int) and isinstance(batch, int) and si[-1] > len(x.shape) - batch:
        raise errors.ShapeError(
            f"gather_nd: indices (shape {si}) index {si[-1]} axes, but x (shape {_shape(x)}) has "
            f"{len(x.shape) - batch} after its {batch} batch dimensions"
        )


def _shape_checks() -> dict[str, Callable[[str, dict[str, Any]], None]]:
    """Function -> its shape check (other than broadcasting): the table's shape classes, and the
    functions whose rule is their own."""
    by_class = {q: _check_matrices for q in _SQUARE | _MATRIX} | {q: _check_cumulative for q in _CUMULATIVE}
    own: dict[str, Callable[[str, dict[str, Any]], None]] = {
        "concat": _check_sequence_shapes,
        "stack": _check_sequence_shapes,
        "reshape": lambda qualname, values: _check_reshape(values) if _is_array(values.get("x")) else None,
        "squeeze": _check_squeeze,
        "take_along_axis": _check_take_along_axis,
        "roll": _check_roll,
        **{q: _check_one_dimension for q in ("nonzero", "unstack", "split")},
        **{q: _check_nonempty_reduction for q in ("max", "min", "argmax", "argmin")},
        "searchsorted": _check_searchsorted,
        "linalg.cross": _check_cross,
        "vecdot": _check_vecdot,
        "linalg.vecdot": _check_vecdot,
        "scatter_nd": lambda qualname, values: _check_scatter_nd(values),
        "gather_nd": _check_gather_nd,
        "einsum": lambda qualname, values: _check_einsum(values),
    }
    assert not set(by_class) & set(own)
    return by_class | own


def _check_shapes(qualname: str, values: dict[str, Any]) -> None:
    """Shapes a function needs, other than broadcasting (stacks of matrices, concat, reshape, ...)."""
    check = _SHAPE_CHECKS.get(qualname)
    if check is not None:
        check(qualname, values)


def _check_sequence_shapes(qualname: str, values: dict[str, Any]) -> None:
    arrays = values.get("arrays")
    if not isinstance(arrays, (list, tuple)) or not arrays or not all(_is_array(a) for a in arrays):
        return
    shapes = [_shape(a) for a in arrays]
    axis = values.get("axis", 0)
    if qualname == "stack":
        for i, s in enumerate(shapes[1:], 1):
            if len(s) != len(shapes[0]) or any(
                None not in (a, b) and a != b for a, b in zip(s, shapes[0], strict=True)
            ):
                raise errors.ShapeError(f"stack: arrays must have one shape; arrays[0] has {shapes[0]}, "
                                        f"arrays[{i}] has {s}")  # fmt: skip
        return
    if axis is None:
        return
    for i, s in enumerate(shapes):
        if not s:
            raise errors.ShapeError(f"concat: arrays[{i}] is 0-d; concat needs at least one dimension")
        if len(s) != len(shapes[0]):
            raise errors.ShapeError(f"concat: arrays[0] has shape {shapes[0]} but arrays[{i}] has {s}")
    if not isinstance(axis, int) or not -len(shapes[0]) <= axis < len(shapes[0]):
        return
    axis %= len(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        if any(
            d != axis and None not in (a, b) and a != b
            for d, (a, b) in enumerate(zip(s, shapes[0], strict=True))
        ):
            raise errors.ShapeError(
                f"concat: arrays[0] (shape {shapes[0]}) and arrays[{i}] (shape {s}) differ off axis {axis}"
            )


def _check_reshape(values: dict[str, Any]) -> None:
    s, shape = _shape(values["x"]), values.get("shape")
    shape = (shape,) if isinstance(shape, int) else tuple(shape) if isinstance(shape, (tuple, list)) else None
    if shape is None or None in s or not all(isinstance(d, int) for d in shape):
        return
    size = 1
    for d in s:
        size *= d
    known = 1
    for d in shape:
        known *= d if d != -1 else 1
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        raise errors.InvalidArgumentError(
            f"reshape: shape={shape} may hold one -1 and no other negative size"
        )
    if (known != size) if -1 not in shape else (known == 0 or size % known):
        raise errors.ShapeError(f"reshape: x of shape {s} ({size} elements) cannot take shape {shape}")


def _check_scatter_nd(values: dict[str, Any]) -> None:
    indices, updates, shape = values.get("indices"), values.get("updates"), values.get("shape")
    if not _is_array(indices) or not isinstance(shape, (tuple, list)):
        return
    si = _shape(indices)
    if not si:
        raise errors.ShapeError(
            "scatter_nd: indices must have at least one dimension (its last holds the index tuples), "
            "got a 0-d array"
        )
    if si[-1] is not None and si[-1] > len(shape):
        raise errors.ShapeError(
            f"scatter_nd: indices (shape {si}) index {si[-1]} axes, but shape {tuple(shape)} has {len(shape)}"
        )
    if not _is_array(updates):
        return
    su = _shape(updates)
    if si and si[-1] is not None and None not in si[:-1]:
        expected = si[:-1] + tuple(shape[si[-1] :])
        if su != expected:
            raise errors.ShapeError(
                f"scatter_nd: updates must have shape indices.shape[:-1] + shape[K:] = {expected} "
                f"(indices {si}, shape {tuple(shape)}), got {su}"
            )


def _check_einsum(values: dict[str, Any]) -> None:
    """One term of ``subscripts`` per operand, as many labels as its dimensions (a Python scalar
    operand is a 0-d array by then: ``_dispatch.miss_operands``), one size per label, and
    output labels that some input names."""
    subscripts, operands = values.get("subscripts"), values.get("operands")
    if not isinstance(subscripts, str) or not isinstance(operands, (list, tuple)):
        return
    spec = subscripts.replace(" ", "")
    inputs, _, output = spec.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise errors.InvalidArgumentError(
            f"einsum: subscripts {subscripts!r} name {len(terms)} operand{'s' * (len(terms) != 1)}, "
            f"got {len(operands)}"
        )
    if "." in subscripts or not all(_is_array(o) for o in operands):
        return
    sizes: dict[str, int] = {}
    for i, (term, op) in enumerate(zip(terms, operands, strict=True)):
        s = _shape(op)
        if len(term) != len(s):
            raise errors.ShapeError(
                f"einsum: operand {i} has {len(s)} dimensions, but '{term}' names {len(term)}"
            )
        for label, d in zip(term, s, strict=True):
            if d in (None, 1):
                continue
            if sizes.setdefault(label, d) != d:
                raise errors.ShapeError(
                    f"einsum: label '{label}' has size {sizes[label]} and {d} (operand {i})"
                )
    missing = sorted(set(output) - set(inputs))
    if missing:
        raise errors.InvalidArgumentError(
            f"einsum: output labels {missing} appear in no input of {subscripts!r}"
        )


def _check_at(qualname: str, values: dict[str, Any]) -> None:
    """``hd.at(x)[index]``: index arrays must be integers or booleans; values must fit ``x[index]``."""
    if qualname != "at":
        return
    index = values["index"] if isinstance(values["index"], tuple) else (values["index"],)
    for item in index:
        if _is_array(item) and not isdtype(as_hedera_dtype(item.dtype), ("integral", "bool")):
            name = as_hedera_dtype(item.dtype).name
            raise errors.DtypeError(f"at: index arrays must have an integer or boolean dtype, got {name}")
    v = values.get("values")
    if not _is_array(v):
        return
    try:
        target = _shape(values["namespace"].index_get(values["x"], values["index"]))
    except Exception:
        return  # the index itself is at fault; the framework's error says how
    if broadcast_shapes_or_none(_shape(v), target) != target:
        raise errors.BroadcastError(
            f"at: values of shape {_shape(v)} do not broadcast to x[index]'s shape {target}"
        )


def _negative(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v < 0


def _check_sizes(qualname: str, values: dict[str, Any]) -> None:
    """Sizes and counts that must not be negative (or zero, arange's step)."""
    shape = values.get("shape")
    if qualname in ("zeros", "ones", "empty", "full", "scatter_nd", "broadcast_to") and shape is not None:
        dims = (shape,) if isinstance(shape, int) else shape if isinstance(shape, (tuple, list)) else ()
        if any(_negative(d) for d in dims):
            raise errors.InvalidArgumentError(f"{qualname}: shape={shape!r} has a negative size")
    for name in {"eye": ("n_rows", "n_cols"), "linspace": ("num",), "one_hot": ("num_classes",),
                 "fft.fftfreq": ("n",), "fft.rfftfreq": ("n",)}.get(qualname, ()):  # fmt: skip
        if _negative(values.get(name)):
            raise errors.InvalidArgumentError(f"{qualname}: {name} must be non-negative, got {values[name]}")
    if qualname == "arange" and values.get("step") == 0:
        raise errors.InvalidArgumentError("arange: step must not be zero")
    if qualname.startswith("fft.") and isinstance(values.get("n"), int) and values["n"] < 1:
        raise errors.InvalidArgumentError(f"{qualname}: n must be at least 1, got {values['n']}")
    if qualname.startswith("fft.") and isinstance(values.get("s"), (tuple, list)):
        if any(isinstance(d, int) and d < 1 and d != -1 for d in values["s"]):
            raise errors.InvalidArgumentError(f"{qualname}: s={values['s']!r} must hold sizes of at least 1")
    if qualname == "diff" and _negative(values.get("n")):
        raise errors.InvalidArgumentError(f"diff: n must be non-negative, got {values['n']}")
    if qualname == "repeat" and _is_array(values.get("repeats")) and _is_array(values.get("x")):
        _check_repeat(values)
    reps = values.get("repetitions")
    if qualname == "tile" and isinstance(reps, (tuple, list)) and any(_negative(r) for r in reps):
        raise errors.InvalidArgumentError(f"tile: repetitions={reps!r} has a negative count")
    ord_ = values.get("ord")
    if qualname == "linalg.vector_norm" and (not isinstance(ord_, (int, float)) or isinstance(ord_, bool)):
        raise errors.InvalidArgumentError(f"{qualname}: ord must be a number (or +-inf), got {ord_!r}")
    if qualname == "linalg.matrix_norm" and ord_ not in ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
        raise errors.InvalidArgumentError(
            f"{qualname}: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord_!r}"
        )


def _check_repeat(values: dict[str, Any]) -> None:
    """An array of counts: one non-negative count per element along the axis, or one for all."""
    from ._front import to_numpy
    from .backends._common import check_repeat_counts

    x, axis = values["x"], values.get("axis")
    try:
        counts = to_numpy(values["repeats"])
        size = math.prod(_shape(x)) if axis is None else _shape(x)[axis]
    except Exception:  # a traced array, an axis out of range (the axis check's): nothing to read here
        return
    if size is not None:
        check_repeat_counts(counts, size)


def _check_overflow(exc: BaseException, qualname: str) -> None:
    """A Python int that does not fit the integer dtype (NumPy, JAX: OverflowError; torch: RuntimeError)."""
    if qualname in ("asarray", "full", "full_like") and (
        isinstance(exc, OverflowError) or "overflow" in str(exc).lower()
    ):
        raise errors.InvalidArgumentError(f"{qualname}: a value does not fit the dtype ({exc})")


def _name_the_function(exc: errors.HederaError, qualname: str) -> None:
    """A hedera error raised inside a backend function (a dtype argument that is no dtype, say)
    whose message does not name the function: raise it again, of the same class, naming it."""
    name = qualname.rsplit(".", 1)[-1]
    text = str(exc)
    if name not in text and not isinstance(exc, ImportError) and type(exc).__init__ is Exception.__init__:
        raise type(exc)(f"{qualname}: {text}") from exc


def diagnose(exc: BaseException, qualname: str, values: dict[str, Any]) -> None:
    """Raise the hedera error that explains ``exc``, if the arguments show one; else return.

    Called by the front functions from their ``except`` clause, which re-raises
    ``exc`` when this returns.
    """
    if isinstance(exc, errors.HederaError):
        if not isinstance(exc, errors.ArgumentTypeError):
            try:  # a backend's own check of a value can have met an argument of the wrong kind
                _check_kinds(qualname, values)
            except errors.ArgumentTypeError as found:
                raise found from exc
        if qualname in _AXIS_OF_EACH:
            # or an axis out of range, or shapes that do not broadcast, which the backends' own
            # checks of vecdot and cross do not all see first (TensorFlow's vecdot checks sizes
            # along the axis, NumPy's and torch's cross its size 3)
            for check in (_check_axes, _check_shapes):
                try:
                    check(qualname, values)
                except errors.HederaError as found:
                    if type(found) is not type(exc):
                        raise found from exc
                    break
        _name_the_function(exc, qualname)
        return
    for check in (
        check_required_arrays,
        _check_asarray_object,
        _check_kinds,
        _check_axes,
        _check_broadcast,
        _check_matmul,
        _check_shapes,
        _check_sizes,
        _check_dtypes,
        _check_at,
    ):
        try:
            check(qualname, values)
        except errors.HederaError as found:
            raise found from exc
    try:
        _check_missing_kernels(qualname, values)
        _check_unsigned_promotion(exc, qualname)
    except errors.HederaError as found:
        raise found from exc
    try:
        _check_overflow(exc, qualname)
    except errors.HederaError as found:
        raise found from exc


def _check_missing_kernels(qualname: str, values: dict[str, Any]) -> None:
    """An array of a dtype its framework has no kernel of ``qualname`` for (torch's uint16/32/64:
    the backend's ``_core.MISSING_KERNELS``, listed in docs/backends.md)."""
    import sys

    arrays = [v for v in values.values() if is_array(v)]
    named = values.get("backend")
    backends = {backend_name_of_type(type(v)) for v in arrays} or {
        named if isinstance(named, str) else _dispatch.current_backend()
    }
    for backend in backends:
        core = sys.modules.get(f"hedera.backends.{backend}._core")
        missing = getattr(core, "MISSING_KERNELS", {}).get(qualname, ())
        if missing:
            _raise_missing_kernel(qualname, values, backend, missing)


def _check_unsigned_promotion(exc: BaseException, qualname: str) -> None:
    """torch cannot promote its uint16/32/64 with another dtype (``int8 | uint16``)."""
    text = str(exc)
    if type(exc).__name__ == "RuntimeError" and "Promotion for uint16, uint32, uint64" in text:
        raise errors.UnsupportedDtypeError(
            f"{qualname}: torch cannot promote its uint16/uint32/uint64 with another dtype here "
            f"({text}); cast the arguments to one dtype first (hd.astype)"
        )


def _raise_missing_kernel(
    qualname: str, values: dict[str, Any], backend: str, missing: tuple[str, ...]
) -> None:
    for argname, value in values.items():
        if is_array(value) and backend_name_of_type(type(value)) == backend:
            dtype = as_hedera_dtype(value.dtype).name
        elif argname == "dtype" and value is not None:
            try:
                dtype = as_hedera_dtype(value).name
            except errors.HederaError:
                continue
        else:
            continue
        if dtype in missing:
            raise errors.UnsupportedDtypeError(
                f"{qualname}: {backend} has no {dtype} kernel for this function ({argname} is {dtype}; "
                f"torch's uint16/uint32/uint64 have a subset of its operators, docs/backends.md); "
                f"cast first, e.g. hd.astype({argname}, hd.int64)"
            )


#: function -> the check of its shapes (see _shape_checks)
_SHAPE_CHECKS = _shape_checks()
