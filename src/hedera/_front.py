"""The dispatching front functions (``hd.sin``, ``hd.linalg.inv``...), built at import from the
API table (:mod:`hedera._api`), as :mod:`dataclasses` builds a class's methods from its fields.

For each row that is not hand-written (``hedera/_front_manual.py``), :func:`_build` binds in this
module, under the front's name (``sin``; ``linalg_inv`` for ``hd.linalg.inv``):

* its **cache**, the global ``_sin_by_type`` (argument type, or tuple of types -> backend
  function, filled by :func:`hedera._dispatch.miss`), or ``_zeros_by_backend`` for a front
  without arrays (backend name -> function, :func:`hedera._dispatch.current_function`);
* its **Python front**, a closure of one of the makers below, chosen by where the row's arrays
  are: the leading positional arguments (:func:`_one_array`, :func:`_leading_arrays`), a sequence
  (:func:`_sequence`), somewhere else (:func:`_located`), or none (:func:`_current`). It looks the
  backend function up in the cache, calls it with the caller's arguments unchanged, and only
  when that raises works out which argument was at fault (:func:`hedera._error_path.diagnose_call`).
  Its ``__signature__`` (with the row's annotations) and numpydoc docstring are the row's;
* with the C extension, the **builtin** that does the same lookup in C
  (:func:`hedera._fastpath.accelerate`), which is what ``hd.sin`` is; the Python front is then its
  slow path and error path.

Type checkers and editors read ``_front.pyi`` beside this file, which ``tools/gen_front.py``
writes from the same table (``tests/core/test_front_generated.py`` fails while it is stale).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ._api import FUNCTIONS, PARAMETERS, RETURNS, Function, Param
from ._dispatch import current_function, miss
from ._error_path import bound_arguments, diagnose_call
from ._fastpath import CURRENT, SEQUENCE, VARIADIC, accelerate, enabled

# This module's globals become the fronts, some named as builtins are (abs, all, any, max, min,
# pow, round, sum): no code here may call those builtins.

__all__ = [fn.name for fn in FUNCTIONS if fn.namespace == "core" and not fn.manual]

_P = inspect.Parameter
_REQUIRED = _P.empty
_LITERALS: dict[str, Any] = {"None": None, "True": True, "False": False}
_SignatureOf = Callable[[], inspect.Signature]  # a front's signature, made on first use

#: every front's cache by its global's name (``"_sin_by_type"``). The Python fronts read their
#: cache here, through a module global, not from a closure cell: what torch.compile traces it
#: guards, and it names a guard by the path it read the object through, so a cache read here is
#: ``G['__import_hedera_dot__front']._CACHES[...]``, one of hedera's own globals, whose guards
#: ``hd.jit`` drops (hedera.backends.torch.autodiff.skip_hedera_guards); a closure's would be
#: named through the user's ``hd.sin``.
_CACHES: dict[str, dict] = {}


# ---- the facts of a row, as the fronts use them -----------------------------------------------


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
    sequence of arrays (``concat``: SEQUENCE) or all positional arguments (``meshgrid``:
    VARIADIC), and fronts without arrays (``zeros``: CURRENT, keyed on the current backend). The
    rest (keyword-only arrays such as ``searchsorted``'s ``sorter``, ``einsum``'s operands after a
    string) have the Python front alone.
    """
    arrays = fn.array_params
    if not arrays:
        return CURRENT
    names = [p.name for p in fn.signature if isinstance(p, Param)]
    if len(arrays) == 1 and names[0] == "*" + arrays[0]:
        return VARIADIC
    if len(arrays) == 1 and arrays[0] in fn.sequence_params and names[0] == arrays[0]:
        return SEQUENCE
    if len(arrays) <= 3 and _positional_names(fn)[: len(arrays)] == list(arrays):
        return len(arrays)
    return None


def _positional_names(fn: Function) -> list[str]:
    """The parameters a positional argument can fill, in order (up to a variadic or ``*``)."""
    out = []
    for p in fn.signature:
        if p == "*" or (isinstance(p, Param) and p.name.startswith("*")):
            break
        if isinstance(p, Param):
            out.append(p.name)
    return out


def _literal(text: str) -> Any:
    """A default as the table writes it (``None``, ``-1``, ``'xy'``, ``1.0``), as a value."""
    if text in _LITERALS:
        return _LITERALS[text]
    if text[0] in "'\"":
        return text[1:-1]
    try:
        return int(text)
    except ValueError:
        return float(text)


def signature(fn: Function) -> inspect.Signature:
    """``fn``'s signature, with the row's annotations (strings, as ``from __future__ import
    annotations`` leaves them)."""
    kind = _P.POSITIONAL_ONLY if "/" in fn.signature else _P.POSITIONAL_OR_KEYWORD
    params = []
    for p in fn.signature:
        if p == "/":
            kind = _P.POSITIONAL_OR_KEYWORD
        elif p == "*":
            kind = _P.KEYWORD_ONLY
        elif isinstance(p, Param):
            annotation = p.annotation or _P.empty
            if p.name.startswith("*"):
                params.append(_P(p.bare, _P.VAR_POSITIONAL, annotation=annotation))
                kind = _P.KEYWORD_ONLY
            else:
                default = _REQUIRED if p.default is None else _literal(p.default)
                params.append(_P(p.name, kind, default=default, annotation=annotation))
    return inspect.Signature(params, return_annotation=fn.return_annotation, __validate_parameters__=False)


def _returns_section(fn: Function) -> list[str]:
    """The numpydoc Returns section of ``fn``: its return column, in words."""
    backend = "the inputs' backend" if fn.array_params else "the current backend"
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


# ---- the Python fronts ------------------------------------------------------------------------


def _locator(fn: Function, signature_of: _SignatureOf) -> Callable[[tuple, dict], tuple]:
    """``locate(args, kwargs)``: the values of ``fn``'s array parameters in a call (a variadic
    one as the tuple of its arguments), or a TypeError naming ``fn`` for a call that does not
    fit its signature. Where they can be is worked out on the first call (a slow path), not at
    import."""
    places: list[tuple[int | None, str | None, Any, bool]] = []  # position, keyword, default, variadic
    qualname = fn.qualname

    def find_places() -> None:
        for position, p in enumerate(signature_of().parameters.values()):
            if p.name in fn.array_params:
                positional = p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD, _P.VAR_POSITIONAL)
                keyword = p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY)
                variadic = p.kind is _P.VAR_POSITIONAL
                place = (position if positional else None, p.name if keyword else None, p.default, variadic)
                places.append(place)

    def locate(args: tuple, kwargs: dict) -> tuple:
        if not places:
            find_places()
        values = []
        for position, keyword, default, variadic in places:
            if variadic:
                values.append(args[position:])
            elif position is not None and position < len(args):
                values.append(args[position])
            elif keyword is not None and keyword in kwargs:
                values.append(kwargs[keyword])
            elif default is not _REQUIRED:
                values.append(default)
            else:  # a required array missing: the call does not fit
                bound_arguments(qualname, signature_of(), args, kwargs)  # raises its TypeError
        return tuple(values)

    return locate


def _current(key: str, fn: Function, signature_of: _SignatureOf) -> Callable[..., Any]:
    """The front of a row without arrays (``zeros``): the current backend's function."""
    qualname = fn.qualname

    def front(*args: Any, **kwargs: Any) -> Any:
        f = current_function(_CACHES[key], qualname)
        try:
            return f(*args, **kwargs)
        except Exception as e:
            diagnose_call(e, qualname, signature_of(), args, kwargs)
            raise

    return front


def _one_array(key: str, fn: Function, signature_of: _SignatureOf) -> Callable[..., Any]:
    """The front of a row whose one array is its first positional argument (``sin``)."""
    qualname, names, locate = fn.qualname, fn.array_params, _locator(fn, signature_of)

    def front(*args: Any, **kwargs: Any) -> Any:
        cache = _CACHES[key]
        try:
            f = cache[type(args[0])]
        except KeyError:
            f = miss(cache, qualname, args[:1], names)
        except IndexError:  # the array by keyword, or missing
            f = miss(cache, qualname, locate(args, kwargs), names)
        try:
            return f(*args, **kwargs)
        except Exception as e:
            diagnose_call(e, qualname, signature_of(), args, kwargs)
            raise

    return front


def _leading_arrays(key: str, fn: Function, signature_of: _SignatureOf) -> Callable[..., Any]:
    """The front of a row whose 2 or 3 arrays are its leading positional arguments (``add``):
    arrays of one type hit the cache on that type, other combinations (a Python scalar, say) on
    the tuple of types, which miss() also caches."""
    qualname, names, locate = fn.qualname, fn.array_params, _locator(fn, signature_of)
    count = len(names)

    def front(*args: Any, **kwargs: Any) -> Any:
        cache = _CACHES[key]
        if len(args) >= count:
            types = tuple(map(type, args[:count]))
            t = types[0]
            try:
                f = cache[t] if t is types[1] and types[-1] is t else cache[types]
            except KeyError:
                f = miss(cache, qualname, args[:count], names)
        else:  # arrays by keyword, or omitted (clip's min and max)
            f = miss(cache, qualname, locate(args, kwargs), names)
        try:
            return f(*args, **kwargs)
        except Exception as e:
            diagnose_call(e, qualname, signature_of(), args, kwargs)
            raise

    return front


def _sequence(key: str, fn: Function, signature_of: _SignatureOf) -> Callable[..., Any]:
    """The front of a row whose arrays are one sequence (``concat``'s ``arrays``) or variadic
    (``meshgrid``, ``einsum``'s operands): elements of one type hit the cache on that type;
    mixed types (a Python scalar, another framework) and non-sequences take miss(), which
    resolves and raises."""
    qualname, names, locate = fn.qualname, fn.array_params, _locator(fn, signature_of)
    position = fn.param_names.index(names[0])
    variadic = "*" + names[0] in {p.name for p in fn.signature if isinstance(p, Param)}

    def front(*args: Any, **kwargs: Any) -> Any:
        cache = _CACHES[key]
        try:
            arrays = args[position:] if variadic else args[position]
        except IndexError:  # the sequence by keyword, or missing
            arrays = locate(args, kwargs)[0]
        try:
            t = type(arrays[0])
            f = cache[t]
        except (KeyError, IndexError, TypeError):
            f = miss(cache, qualname, (arrays,), names)
        else:
            for a in arrays:
                if type(a) is not t:
                    f = miss(cache, qualname, (arrays,), names)
                    break
        try:
            return f(*args, **kwargs)
        except Exception as e:
            diagnose_call(e, qualname, signature_of(), args, kwargs)
            raise

    return front


def _located(key: str, fn: Function, signature_of: _SignatureOf) -> Callable[..., Any]:
    """The front of a row with arrays the C lookup cannot find (keyword-only ``sorter`` of
    ``searchsorted``, ``prepend``/``append`` of ``diff``): keyed on the tuple of their types."""
    qualname, names, locate = fn.qualname, fn.array_params, _locator(fn, signature_of)

    def front(*args: Any, **kwargs: Any) -> Any:
        cache = _CACHES[key]
        arrays = locate(args, kwargs)
        try:
            f = cache[tuple(map(type, arrays))]
        except KeyError:
            f = miss(cache, qualname, arrays, names)
        try:
            return f(*args, **kwargs)
        except Exception as e:
            diagnose_call(e, qualname, signature_of(), args, kwargs)
            raise

    return front


def _maker(fn: Function) -> Callable[[str, Function, _SignatureOf], Callable[..., Any]]:
    if not fn.array_params:
        return _current
    if fn.sequence_params:
        return _sequence
    arity = fast_path_arity(fn)
    if arity == 1:
        return _one_array
    return _leading_arrays if arity is not None else _located


def _lazy_signature(fn: Function) -> Callable[[], inspect.Signature]:
    """``fn``'s :func:`signature`, made on first use: the error path, ``inspect`` of the Python
    front (:func:`hedera._fastpath.python_front`). Making all of them costs a millisecond at
    import."""
    made: list[inspect.Signature] = []

    def signature_of() -> inspect.Signature:
        if not made:
            made.append(signature(fn))
        return made[0]

    return signature_of


def _build(fn: Function, namespace: dict[str, Any]) -> None:
    """Bind ``fn``'s cache and front in ``namespace`` (see the module docstring)."""
    name, key, cache, signature_of = front_name(fn), cache_name(fn), {}, _lazy_signature(fn)
    _CACHES[key] = namespace[key] = cache
    front = _maker(fn)(key, fn, signature_of)
    front.__name__ = front.__qualname__ = name
    front.__doc__ = docstring(fn)
    arity = fast_path_arity(fn)
    if arity is None or not enabled():
        front.__signature__ = signature_of()  # type: ignore[attr-defined]  # the public front
        namespace[name] = front
    else:
        namespace[name] = accelerate(front, cache, arity, fn.qualname, fn.params, signature_of)


for _fn in FUNCTIONS:
    if not _fn.manual:
        _build(_fn, globals())
del _fn
