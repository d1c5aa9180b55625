"""The up-front checks of the API table's non-array arguments: what each argument kind accepts.

Most bad input is diagnosed after the framework fails (``hedera/_diagnose.py``), which costs the
success path nothing. But the frameworks accept some wrong kinds *silently*: jax and TensorFlow
take ``axis=True`` as axis 1, numpy's ``tril`` a float ``k``, jax a float ``repeats``, TF an
array where a creation shape goes, numpy and torch bytes as einsum's subscripts. So every front
checks the arguments whose kind (:func:`hedera._api.argument_kind`: ``axes``, ``shape``,
``count``, ``number``, ...) is one of
:data:`ARGUMENT_KINDS` before it calls the backend, in two steps:

* a *fast test* of the common case, a few pointer comparisons (an exact ``int``, ``None`` where
  allowed, a ``tuple`` of exact ints, an exact ``int``/``float``/``complex``/``bool`` for
  numbers, a ``tuple`` or ``list`` of exact ints as split points or each of tensordot's pair of
  axes, an exact ``str`` for einsum's subscripts, ``True`` or ``False`` for a flag), run by the
  C front (``hedera/_fastfront.c``: ``check_arguments``) and, as the same test written in Python,
  by the generated Python front (``tools/gen_front.py``: :func:`python_guard`);
* only where it fails, :func:`check_argument`, which accepts the legitimate others (a NumPy
  integer scalar or anything else ``numbers.Integral`` that is not a bool, a list of ints or a
  ``tf.TensorShape`` as a shape, not as axes, which NumPy refuses; a 0-d array as a number),
  hands the backend NumPy integer scalars as Python ints (not every framework takes them), and
  raises :class:`~hedera.ArgumentTypeError` (a ``TypeError``) for a wrong kind or
  :class:`~hedera.InvalidArgumentError` (a ``ValueError``) for a value below the kind's
  minimum, naming the function, the argument and what it expected.

The table also drives ``hedera._diagnose``'s kind check of a failed call and the bad-input sweep
(``tests/project/test_bad_input_sweep.py``), and ``docs/dispatch.md`` lists it
(:func:`markdown_table`, written by ``tools/gen_front.py``).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import errors
from ._api import BY_QUALNAME, Function, Param, argument_kind
from ._dispatch import is_array

__all__ = [
    "ARGUMENT_KINDS",
    "FAST_INT",
    "FAST_INTS",
    "FAST_INT_SEQUENCE",
    "FAST_NUMBER",
    "FAST_NONE",
    "FAST_SECTIONS",
    "FAST_CONTRACTION",
    "FAST_STR",
    "FAST_BOOL",
    "ArgumentKind",
    "check_argument",
    "front_checks",
    "markdown_table",
    "python_guard",
]

#: the fast tests (the C front's codes): an exact int (>= the minimum); an exact int or a tuple
#: (a subclass too: ``torch.Size``) of exact ints (each >= the minimum); the same or a list of
#: them; an exact int, float, complex or bool; none (always the slow check); an exact int (>= the
#: minimum) or a tuple or list of exact ints of any value (split points); an exact int (>= the
#: minimum) or a tuple or list of two items, each an exact int or a tuple or list of exact ints
#: of any value (tensordot's pair of axes); an exact str (einsum's subscripts: NumPy and torch
#: take bytes too, which JAX and TensorFlow refuse); True or False (a flag: JAX and TensorFlow
#: took any value by its truthiness, ``keepdims="no"`` as True)
FAST_INT, FAST_INTS, FAST_INT_SEQUENCE, FAST_NUMBER, FAST_NONE = 0, 1, 2, 3, 4
FAST_SECTIONS, FAST_CONTRACTION, FAST_STR, FAST_BOOL = 5, 6, 7, 8


#: type -> whether it is an integer type other than bool (``numbers.Integral``: ``int``, NumPy's
#: integer scalars; no array type), memoized: an ABC's isinstance costs about a microsecond here
_INTEGER_TYPES: dict[type, bool] = {int: True, bool: False}
#: type -> whether it is a number type (``numbers.Number``: bools and NumPy's scalars included)
_NUMBER_TYPES: dict[type, bool] = {int: True, float: True, bool: True, complex: True}

# The memoized tests below (and _checked_memo) are constant-result functions to torch.compile (see
# hedera._dispatch): dynamo calls them at trace time and takes the answer as a constant, without
# guarding on their dicts. Read inline, a dict was guarded as the first trace found it, which that
# trace then filled (a first torch.Size or SymInt seen, a first parameter checked): the next call
# of the compiled function failed the guard and recompiled.


def _is_integer_type(t: type) -> bool:
    """Whether ``t`` is an integer type other than bool, memoized in :data:`_INTEGER_TYPES`."""
    known = _INTEGER_TYPES.get(t)
    if known is None:
        known = _INTEGER_TYPES[t] = issubclass(t, numbers.Integral) and not issubclass(t, bool)
    return known


def _is_number_type(t: type) -> bool:
    """Whether ``t`` is a number type, memoized in :data:`_NUMBER_TYPES`."""
    known = _NUMBER_TYPES.get(t)
    if known is None:
        known = _NUMBER_TYPES[t] = issubclass(t, numbers.Number)
    return known


_is_integer_type._dynamo_marked_constant = True  # type: ignore[attr-defined]
_is_number_type._dynamo_marked_constant = True  # type: ignore[attr-defined]


def _is_int(v: Any) -> bool:
    """An integer that is not a bool: an ``int``, a NumPy integer scalar (not an array)."""
    t = type(v)
    return t is int or (t is not bool and _is_integer_type(t))


def _is_size(v: Any) -> bool:
    """A size in a shape: an int, or a 0-d integer array (a size known only at run time, as
    ``tf.shape(x)[0]`` in a ``tf.function``)."""
    if _is_int(v):
        return True
    return is_array(v) and getattr(v, "ndim", None) == 0 and "int" in str(getattr(v, "dtype", ""))


def _is_ints(v: Any) -> bool:
    """A tuple or list of sizes, or a framework's shape object (``tf.TensorShape``) of known sizes."""
    if isinstance(v, (tuple, list)):
        return all(_is_size(d) for d in v)
    as_list = getattr(type(v), "as_list", None)  # tf.TensorShape (None: a size not known)
    return as_list is not None and not is_array(v) and all(_is_int(d) for d in as_list(v))


def _is_int_or_ints(v: Any) -> bool:
    return _is_int(v) or _is_ints(v)


def _is_axes(v: Any) -> bool:
    """An axis or a tuple of axes; not a list, which NumPy refuses and torch takes."""
    return _is_int(v) or (isinstance(v, tuple) and all(_is_int(d) for d in v))


def _is_nested_ints(v: Any) -> bool:
    return _is_int(v) or (isinstance(v, (tuple, list)) and all(_is_nested_ints(d) for d in v))


def _is_contraction(v: Any) -> bool:
    """tensordot's axes: a count, or a pair of an axis or axes for each input."""
    return _is_int(v) or (isinstance(v, (tuple, list)) and len(v) == 2 and all(_is_int_or_ints(a) for a in v))


def _is_number(v: Any) -> bool:
    """A Python or NumPy number (bools included: a bool array's fill value), or a 0-d array."""
    t = type(v)
    if t is float or t is int or t is bool or t is complex or _is_number_type(t):
        return True
    return is_array(v) and getattr(v, "ndim", None) == 0


def _is_repeats(v: Any) -> bool:
    return _is_int(v) or is_array(v)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_bool(v: Any) -> bool:
    """A flag: a Python bool or a NumPy bool scalar (as torch takes); not an int, not a 0-d array."""
    t = type(v)
    return t is bool or (t.__module__ == "numpy" and t.__name__ in ("bool", "bool_"))


@dataclass(frozen=True)
class ArgumentKind:
    """What an argument kind accepts.

    ``fast``: the fast test (``FAST_*``) that accepts its common values without a call;
    ``minimum``: the least int it takes (for sequences: each element; ``widths``: each leaf),
    None: any; ``expected``: in words, for the messages; ``accepts``: the full test of the
    value's kind (the slow path)."""

    fast: int
    minimum: int | None
    expected: str
    accepts: Callable[[Any], bool]


#: kind name (``hedera._api.ARGUMENT_KINDS``' values, without the ``?`` that allows None) -> rule
ARGUMENT_KINDS: dict[str, ArgumentKind] = {
    "int": ArgumentKind(FAST_INT, None, "an int", _is_int),
    "count": ArgumentKind(FAST_INT, 0, "an int >= 0", _is_int),
    "size": ArgumentKind(FAST_INT, 1, "an int >= 1", _is_int),
    "axes": ArgumentKind(FAST_INTS, None, "an int or a tuple of ints", _is_axes),
    "shape": ArgumentKind(FAST_INT_SEQUENCE, 0, "an int >= 0 or a tuple of ints >= 0", _is_int_or_ints),
    "newshape": ArgumentKind(
        FAST_INT_SEQUENCE,
        -1,
        "an int or a tuple of ints >= 0 (or one -1: the size that fits)",
        _is_int_or_ints,
    ),
    "sections": ArgumentKind(FAST_SECTIONS, 1, "an int >= 1 or a sequence of ints", _is_int_or_ints),
    "widths": ArgumentKind(
        FAST_INT_SEQUENCE, 0, "an int >= 0 or (nested) sequences of such ints", _is_nested_ints
    ),
    "contraction": ArgumentKind(
        FAST_CONTRACTION,
        0,
        "an int >= 0 or a pair of axes (an int or a sequence of ints for each input)",
        _is_contraction,
    ),
    "repeats": ArgumentKind(FAST_INT, 0, "an int >= 0 or an integer array", _is_repeats),
    "number": ArgumentKind(FAST_NUMBER, None, "a number", _is_number),
    "str": ArgumentKind(FAST_STR, None, "a str", _is_str),
    "bool": ArgumentKind(FAST_BOOL, None, "a bool", _is_bool),
}

#: the elements the minimum applies to, where not the value itself or its elements
_BELOW_MINIMUM_EXEMPT = {"sections": "sequence", "contraction": "sequence"}


def _kind_text(value: Any) -> str:
    if is_array(value):
        return f"an array of shape {tuple(getattr(value, 'shape', ()))}"
    return f"{type(value).__name__} {value!r}"


def _int_leaves(value: Any) -> list[Any]:
    if _is_int(value):
        return [value]
    if isinstance(value, (tuple, list)) or getattr(type(value), "as_list", None) is not None:
        return [leaf for v in value for leaf in _int_leaves(v)]
    return []


def _split_kind(kind: str) -> tuple[ArgumentKind, bool]:
    return ARGUMENT_KINDS[kind.rstrip("?")], kind.endswith("?")


def _plain_ints(value: Any) -> Any:
    """``value`` with its NumPy integer scalars as Python ints (the frameworks do not all take
    them), or ``value`` itself where it holds none."""
    if value.__class__ is int:
        return value
    if _is_int(value):
        return int(value)
    if isinstance(value, (tuple, list)):
        plain = [_plain_ints(v) for v in value]
        if any(p is not v for p, v in zip(plain, value, strict=True)):
            return type(value)(plain)
    return value


def check_value(qualname: str, name: str, kind: str, value: Any) -> Any:
    """``value`` as the backend gets it (its NumPy integer scalars as ints) if it is of ``kind``
    (a key of :data:`ARGUMENT_KINDS`, with a trailing ``?`` where None is allowed) for the argument
    ``name`` of ``qualname``; otherwise hedera's error."""
    rule, optional = _split_kind(kind)
    if value is None and optional:
        return value
    expected = rule.expected + (" or None" if optional else "")
    if not rule.accepts(value):
        raise errors.ArgumentTypeError(f"{qualname}: {name} must be {expected}, got {_kind_text(value)}")
    if rule.minimum is not None:
        exempt = _BELOW_MINIMUM_EXEMPT.get(kind.rstrip("?")) == "sequence" and not _is_int(value)
        if not exempt and any(leaf < rule.minimum for leaf in _int_leaves(value)):
            raise errors.InvalidArgumentError(f"{qualname}: {name} must be {expected}, got {value!r}")
    if rule.fast == FAST_BOOL:
        return bool(value)  # a NumPy bool: not every framework takes one
    return value if rule.fast == FAST_NUMBER else _plain_ints(value)


#: (qualname, parameter) -> its checked kind, the kind's fast test and the least int of its
#: sequences' elements, or None: not checked (memoized: the slow path's common values cost no
#: table lookups)
_CHECKED: dict[tuple[str, str], tuple[str, int, float] | None] = {}

#: below every int (a sequence of a kind without a minimum has no least element)
_NO_LEAST = float("-inf")


def _exact_ints(value: Any, least: float) -> bool:
    """Whether every element of the tuple or list ``value`` is an exact int >= ``least``."""
    for d in value:
        if d.__class__ is not int or d < least:
            return False
    return True


def _exact_pairs(value: tuple, least: float) -> bool:
    """Whether every element of the tuple ``value`` is a tuple of two exact ints >= ``least``."""
    for pair in value:
        if pair.__class__ is not tuple or len(pair) != 2 or not _exact_ints(pair, least):
            return False
    return True


def _exact_axes(value: Any) -> bool:
    """An exact int, or a tuple or list of exact ints: one side of tensordot's pair of axes."""
    cls = value.__class__
    return cls is int or ((cls is tuple or cls is list) and _exact_ints(value, _NO_LEAST))


def _fast_sequence(fast: int, least: float, value: Any) -> bool:
    """The C front's fast test of a tuple or list ``value`` (exact classes only): whether it is
    of its kind as it is (:func:`check_value` would hand it on unchanged)."""
    if fast == FAST_INT_SEQUENCE or (fast == FAST_INTS and value.__class__ is tuple):
        return _exact_ints(value, least)
    if fast == FAST_SECTIONS:
        return _exact_ints(value, _NO_LEAST)
    if fast == FAST_CONTRACTION and len(value) == 2:
        return _exact_axes(value[0]) and _exact_axes(value[1])
    return False


def _checked(qualname: str, name: str) -> tuple[str, int, float] | None:
    kind = checked_kind(BY_QUALNAME[qualname], name)
    if kind is None:
        return None
    rule = ARGUMENT_KINDS[kind.rstrip("?")]
    return kind, rule.fast, _NO_LEAST if rule.minimum is None else rule.minimum


def _checked_memo(qualname: str, name: str) -> tuple[str, int, float] | None:
    """:func:`_checked`, memoized in :data:`_CHECKED`."""
    try:
        return _CHECKED[qualname, name]
    except KeyError:
        checked = _CHECKED[qualname, name] = _checked(qualname, name)
        return checked


_checked_memo._dynamo_marked_constant = True  # type: ignore[attr-defined]


def check_argument(qualname: str, name: str, value: Any) -> Any:
    """The slow path of the up-front check of argument ``name`` of the row ``qualname``: the
    value to call the backend with (``value``, or ``value`` with NumPy integer scalars as ints)
    where its kind takes it; ``ArgumentTypeError``/``InvalidArgumentError`` otherwise."""
    checked = _checked_memo(qualname, name)
    if checked is None:
        return value
    kind, fast, least = checked
    cls = value.__class__
    # the Python front's common case: a shape, split points or tensordot's axes of plain ints
    if (cls is tuple or cls is list) and _fast_sequence(fast, least, value):
        return value
    # an array of counts (repeat's common case): check_value would take it and hand it on as it
    # is (its dtype is the backend's to check), at ~2 us of tests
    if kind == "repeats" and is_array(value):
        return value
    # pad's one (before, after) pair per axis, of plain ints >= 0: passed as it is, at ~4 us
    if kind == "widths" and cls is tuple and _exact_pairs(value, least):
        return value
    return check_value(qualname, name, kind, value)


def checked_kind(fn: Function, name: str) -> str | None:
    """The kind the fronts check up front for the parameter ``name`` of ``fn``, or None."""
    kind = argument_kind(fn.qualname, name)
    return kind if isinstance(kind, str) and kind.rstrip("?") in ARGUMENT_KINDS else None


def front_checks(fn: Function) -> tuple[tuple[str, int, int, bool, int | None], ...]:
    """The up-front checks of ``fn``'s front, as the C front takes them: for each checked
    parameter ``(name, position, fast test, None allowed, minimum)``, its position among the
    positional arguments, or -1 where it is keyword-only."""
    out, position, keyword_only = [], 0, False
    for p in fn.signature:
        if p == "*":
            keyword_only = True
            continue
        if not isinstance(p, Param):
            continue
        if p.name.startswith("*"):
            keyword_only = True
            continue
        kind = checked_kind(fn, p.bare)
        if kind is not None:
            rule, optional = _split_kind(kind)
            out.append((p.bare, -1 if keyword_only else position, rule.fast, optional, rule.minimum))
        if not keyword_only:
            position += 1
    return tuple(out)


def python_guard(name: str, fast: int, none_ok: bool, minimum: int | None) -> str:
    """The generated Python front's fast test of a checked parameter, as an expression that is
    true where :func:`check_argument` must decide: the C front's test, for exact ints and
    numbers alone (a tuple or list takes the call, whose first test is the C front's)."""
    if fast == FAST_STR:
        test = f"{name}.__class__ is not str"
    elif fast == FAST_BOOL:
        test = f"{name}.__class__ is not bool"
    elif fast == FAST_NUMBER:
        test = " and ".join(f"{name}.__class__ is not {t}" for t in ("int", "float", "complex", "bool"))
    elif fast == FAST_NONE:
        test = "True"
    elif minimum is None:
        test = f"{name}.__class__ is not int"
    else:
        test = f"({name}.__class__ is not int or {name} < {minimum})"
    return f"{name} is not None and {test}" if none_ok else test


def markdown_table() -> str:
    """The kinds and which of the API table's parameters have them, for docs/dispatch.md."""
    by_kind: dict[str, list[str]] = {}
    for fn in BY_QUALNAME.values():
        if fn.manual:
            continue
        for p in fn.signature:
            if isinstance(p, Param) and not p.name.startswith("*"):
                kind = checked_kind(fn, p.bare)
                if kind is not None:
                    by_kind.setdefault(kind.rstrip("?"), []).append(f"{fn.qualname}({p.bare})")
    lines = ["| kind | accepts | fast test (no call) | parameters |", "|---|---|---|---|"]
    fast_text = {
        FAST_INT: "an exact `int` (at least the minimum)",
        FAST_INTS: "an exact `int`, a `tuple` of exact ints",
        FAST_INT_SEQUENCE: "an exact `int`, a `tuple` or `list` of exact ints (at least the minimum)",
        FAST_NUMBER: "an exact `int`, `float`, `complex` or `bool`",
        FAST_NONE: "none",
        FAST_SECTIONS: "an exact `int` (at least the minimum), a `tuple` or `list` of exact ints",
        FAST_CONTRACTION: "an exact `int` (at least the minimum), a pair of exact ints or "
        "`tuple`s or `list`s of exact ints",
        FAST_STR: "an exact `str`",
        FAST_BOOL: "`True` or `False`",
    }
    for kind, rule in ARGUMENT_KINDS.items():
        names = by_kind.get(kind, [])
        shown = ", ".join(f"`{n}`" for n in names[:8]) + (
            f" and {len(names) - 8} more" if len(names) > 8 else ""
        )
        lines.append(f"| `{kind}` | {rule.expected} | {fast_text[rule.fast]} | {shown} |")
    return "\n".join(lines) + "\n"
