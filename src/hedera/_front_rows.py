"""What the generated fronts (``hedera/_front.py``) take from the API table at import.

``tools/gen_front.py`` writes, for each row, only what is specific to it: the front's annotated
signature and its dispatch (which arguments it looks at, how it calls the backend function).
Everything else a front has comes from its row here, when ``_front`` is imported, through the
decorator :func:`front`: its numpydoc docstring (summary, where it runs, semantics, parameters,
and the Returns section of its return column), and its C hot path
(:func:`hedera._fastpath.accelerate`). So a docstring cannot go stale, and the generated file
holds no text that the table already says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ._api import BY_QUALNAME, PARAMETERS, RETURNS, Function, Param
from ._argkinds import front_checks
from ._fastpath import CURRENT, SEQUENCE, VARIADIC, VARIADIC_AFTER_FIRST, accelerate

__all__ = [
    "cache_name",
    "docstring",
    "fast_path_arity",
    "front",
    "front_name",
    "optional_arrays",
    "python_only_arrays",
]

F = TypeVar("F", bound=Callable[..., Any])


def front_name(fn: Function) -> str:
    """The name of ``fn``'s front in this module: ``sin``, ``linalg_inv``."""
    return fn.name if fn.namespace == "core" else f"{fn.namespace}_{fn.name}"


def cache_name(fn: Function) -> str:
    """The module global holding ``fn``'s front cache: argument type(s) -> backend function
    (``_sin_by_type``), or backend name -> function for fronts without arrays
    (``_zeros_by_backend``)."""
    return f"_{front_name(fn)}_{'by_type' if fn.array_params else 'by_backend'}"


def fast_path_arity(fn: Function) -> int | None:
    """How the C hot path finds ``fn``'s arrays (hedera/_fastpath.py), or None for no hot path.

    Eligible: fronts whose arrays are their leading positional parameters (``add``: 2), a leading
    sequence of arrays (``concat``: SEQUENCE), all positional arguments (``meshgrid``:
    VARIADIC) or all after a leading non-array one (``einsum``'s operands after its subscripts:
    VARIADIC_AFTER_FIRST), and fronts without arrays (``zeros``: CURRENT, keyed on the current
    backend). Optional keyword-only arrays (``searchsorted``'s ``sorter``, :func:`python_only_arrays`)
    do not count: a call that passes one goes to the Python front.
    """
    python_only = python_only_arrays(fn)
    arrays = tuple(a for a in fn.array_params if a not in python_only)
    if not arrays:
        if python_only:
            return None

        return CURRENT
    names = [p.name for p in fn.signature if isinstance(p, Param)]
    if len(arrays) == 1 and names[0] == "*" + arrays[0]:
        return VARIADIC
    if len(arrays) == 1 and names[1:2] == ["*" + arrays[0]]:
        return VARIADIC_AFTER_FIRST
    if len(arrays) == 1 and arrays[0] in fn.sequence_params and names[0] == arrays[0]:
        return SEQUENCE
    if len(arrays) <= 3 and _positional_names(fn)[: len(arrays)] == list(arrays):
        return len(arrays)
    return None


def python_only_arrays(fn: Function) -> tuple[str, ...]:
    """The keyword-only arrays of ``fn`` that default to None (``searchsorted``'s ``sorter``,
    ``diff``'s ``prepend`` and ``append``): the C front takes no call that passes one (its signature
    leaves them out, so such a call does not fit it), and the Python front looks at their types."""
    names, keyword_only = [], False
    for p in fn.signature:
        if p == "*" or (isinstance(p, Param) and p.name.startswith("*")):
            keyword_only = True
        elif isinstance(p, Param) and keyword_only and p.name in fn.array_params and p.default == "None":
            names.append(p.name)
    return tuple(names)


def optional_arrays(fn: Function) -> tuple[str, ...]:
    """The names of the last of the C front's arrays (``fast_path_arity`` >= 1 of them) that
    default to None, which a call may omit or pass by keyword (``clip``'s ``min`` and ``max``);
    () for the other fronts."""
    arity = fast_path_arity(fn)
    if arity is None or arity < 1:
        return ()
    leading = [p for p in fn.signature if isinstance(p, Param)][:arity]
    optional: list[str] = []
    for p in leading[1:]:
        optional = [*optional, p.name] if p.default == "None" else []
    return tuple(optional)


def _positional_names(fn: Function) -> list[str]:
    """The parameters a positional argument can fill, in order (up to a variadic or ``*``)."""
    out = []
    for p in fn.signature:
        if p == "*" or (isinstance(p, Param) and p.name.startswith("*")):
            break
        if isinstance(p, Param):
            out.append(p.name)
    return out


def _returns_section(fn: Function) -> list[str]:
    """The numpydoc Returns section of ``fn``: its return column, in words."""
    backend = "the inputs' backend" if fn.array_params else "the current backend"
    if "backend" in fn.param_names:
        backend = "``backend``, else of the current backend"
    if fn.return_fields:
        kind = f"tuple ({', '.join(fn.return_fields)})"
        text = f"A named tuple of native arrays of {backend}."
    else:
        _, kind, text = RETURNS[fn.returns]
        text = text.format(backend=backend)
    return ["", "Returns", "-------", kind, "    " + text]


def docstring(fn: Function) -> str:
    """``fn``'s numpydoc docstring (not indented): summary, where it runs, semantics, the
    parameters the table describes (:data:`hedera._api.PARAMETERS`), and its return column."""
    if fn.array_params:
        arrays = "``, ``".join(fn.array_params)
        runs = f"Runs on the backend of ``{arrays}``; Python scalars follow the arrays."
    elif "backend" in fn.param_names:
        runs = (
            "Runs on ``backend``, else on the current backend (``hd.use_backend``, ``hd.set_backend``, "
            "``HEDERA_BACKEND``)."
        )
    else:
        runs = "Runs on the current backend (``hd.use_backend``, ``hd.set_backend``, ``HEDERA_BACKEND``)."
    if fn.standard:
        semantics = (
            "Semantics: the Python Array API standard 2024.12, "
            "https://data-apis.org/array-api/2024.12/API_specification/generated/"
            f"array_api.{fn.qualname}.html"
        )
    else:
        semantics = f"hedera extension; semantics in ``hedera.backends.numpy.{fn.qualname}``."
    lines = [fn.summary, "", runs, semantics]
    documented = [p for p in fn.param_names if p in PARAMETERS]
    if documented:
        lines += ["", "Parameters", "----------"]
        for p in documented:
            _, kind, text = PARAMETERS[p]
            lines += [f"{p} : {kind}", "    " + text]
    return "\n".join(lines + _returns_section(fn))


def front(cache: dict, qualname: str) -> Callable[[F], F]:
    """The decorator of each generated front: its docstring from the row of ``qualname``, then
    the C hot path (:func:`hedera._fastpath.accelerate`, over ``cache``) where the row's arrays
    are where C finds them (:func:`fast_path_arity`)."""
    fn = BY_QUALNAME[qualname]

    def finish(python: F) -> F:
        python.__doc__ = docstring(fn)
        arity = fast_path_arity(fn)
        if arity is None:
            return python
        return accelerate(
            python,
            cache,
            arity,
            qualname,
            fn.params,
            front_checks(fn),
            optional_arrays(fn),
            python_only_arrays(fn),
        )

    return finish
