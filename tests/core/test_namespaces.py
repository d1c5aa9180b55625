"""Every backend namespace is a complete Array API 2024.12 namespace with the table's signatures.

For each backend, every row of ``hedera._api.FUNCTIONS`` exists in ``hd.namespace(backend)``
(``linalg.*``/``fft.*`` in its submodules) with the table's parameter names, kinds
(positional-only, keyword-only, var-positional) and defaults. The table itself is checked
against ``array_api_strict``, the standard's reference implementation.

Two levels of strictness:

* hedera's own functions (shims, module ``hedera.*``) have the table's signature exactly:
  names, kinds and defaults, parameter by parameter. Extra parameters may follow, each with
  a default.
* A framework's own function aliased where it conforms (``add = jnp.add``) must accept every
  call the table allows, by the rule of the standard's conformance suite (array-api-tests,
  ``test_signatures.py``): a positional-only parameter may be positional-or-keyword under any
  name, a keyword-only one may be positional-or-keyword, defaults agree (a native default of
  ``None``, the framework's "not given", counts as the table's: ``jnp.fft.fft(norm=None)``
  is ``norm="backward"``), extras have defaults (``numpy.sin``'s ``out=None``). Aliases of
  C functions (``sin = torch.sin``) have no inspectable signature and are accepted as they
  are; the cross-backend harness checks how they behave.
"""

from __future__ import annotations

import importlib
import inspect
import math
import types

import array_api_strict as strict
import pytest

import hedera as hd
from hedera import dtypes
from hedera._api import BY_QUALNAME, CONSTANTS, DTYPE_NAMES, FUNCTIONS, Function

#: table parameters that only the front has (``hd.asarray(..., backend=)``); backends follow the standard
FRONT_ONLY_PARAMS = {"backend"}

#: hedera's additions every backend namespace has besides the table's functions
EXTRAS = ("index_get", "index_update", "to_numpy", "device", "to_device")

#: array_api_strict implements the 2025.12 standard; what it has that 2024.12 does not
NEW_IN_2025_12 = {"broadcast_shapes"}
#: array_api_strict's own helpers, not part of any standard
STRICT_HELPERS = {"set_array_api_strict_flags", "get_array_api_strict_flags", "reset_array_api_strict_flags"}

#: documented differences between the table and array_api_strict's signatures: {qualname: reason}
STRICT_SIGNATURE_DIFFERENCES: dict[str, str] = {}

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def table_signature(fn: Function, *, front: bool = False) -> inspect.Signature:
    """The signature a table row specifies (without front-only parameters unless ``front``)."""
    scope: dict = {}
    exec(f"def _f({fn.params}): pass", scope)
    sig = inspect.signature(scope["_f"])
    if front:
        return sig
    return sig.replace(parameters=[p for p in sig.parameters.values() if p.name not in FRONT_ONLY_PARAMS])


def _describe(p: inspect.Parameter) -> tuple:
    return (p.name, p.kind.name, p.default)


def signature_mismatches(expected: inspect.Signature, actual: inspect.Signature) -> list[str]:
    """How ``actual`` differs from ``expected`` (names, kinds, defaults), beyond allowed extras.

    Used for hedera's own functions, which must have the table's signature exactly; extra
    parameters are allowed only after the table's, each with a default.
    """
    problems = []
    exp, act = list(expected.parameters.values()), list(actual.parameters.values())
    for i, p in enumerate(exp):
        q = act[i] if i < len(act) else None
        if q is None or _describe(q) != _describe(p):
            problems.append(f"parameter {i}: expected {_describe(p)}, got {_describe(q) if q else 'nothing'}")
    problems += _bad_extras(exp, act)
    return problems


def native_mismatches(expected: inspect.Signature, actual: inspect.Signature) -> list[str]:
    """Calls the table allows that a framework's own function, aliased, would not accept.

    The rule of the standard's conformance suite (array-api-tests, ``test_signatures.py``):
    positional-only parameters may be positional-or-keyword under any name, keyword-only ones
    may be positional-or-keyword, defaults must agree, extra parameters need defaults.
    """
    problems = []
    exp, act = list(expected.parameters.values()), list(actual.parameters.values())
    act_by_name = {p.name: p for p in act}
    positional = [p for p in act if p.kind in _POSITIONAL or p.kind is inspect.Parameter.VAR_POSITIONAL]
    taken_by_varargs: list[inspect.Parameter] = []
    i = 0
    for p in exp:
        if p.kind is inspect.Parameter.KEYWORD_ONLY:
            q = act_by_name.get(p.name)
            if q is None or q.kind not in (
                inspect.Parameter.KEYWORD_ONLY,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
            ):
                problems.append(f"keyword {p.name!r} is not accepted")
            elif not _same_default(q.default, p.default):
                problems.append(f"{p.name}: default {q.default!r}, expected {p.default!r}")
            continue
        q = positional[i] if i < len(positional) else None
        if q is not None and q.kind is inspect.Parameter.VAR_POSITIONAL:
            # a framework's *args takes this positional argument and every later one (np.einsum's
            # *operands takes the table's subscripts and *operands); not one passed by keyword
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and p.name not in act_by_name:
                problems.append(f"{p.name}: expected positional-or-keyword {p.name!r}, got {_describe(q)}")
            taken_by_varargs = [q]
            continue
        i += 1
        if q is None:
            problems.append(f"positional parameter {p.name!r} is not accepted")
        elif p.kind is inspect.Parameter.VAR_POSITIONAL and q.kind is not p.kind:
            problems.append(f"*{p.name}: got {_describe(q)}")
        elif p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and (q.name, q.kind) != (p.name, p.kind):
            problems.append(f"{p.name}: expected positional-or-keyword {p.name!r}, got {_describe(q)}")
        elif p.default is not inspect.Parameter.empty and not _same_default(q.default, p.default):
            problems.append(f"{p.name}: default {q.default!r}, expected {p.default!r}")
    problems += _bad_extras(exp, act, skip=positional[:i] + taken_by_varargs)
    return problems


def _same_default(native, table) -> bool:
    """Defaults agree; a framework's ``None`` stands for "not given", so for the table's default."""
    return native is None or native == table


def _bad_extras(exp: list, act: list, skip: list | tuple = ()) -> list[str]:
    expected_names = {p.name for p in exp}
    skipped = {id(p) for p in skip}
    return [
        f"extra parameter without a default: {_describe(q)}"
        for q in act
        if q.name not in expected_names
        and id(q) not in skipped
        and q.kind is not inspect.Parameter.VAR_KEYWORD
        and (q.kind is inspect.Parameter.VAR_POSITIONAL or q.default is inspect.Parameter.empty)
    ]


def is_hedera_code(fn) -> bool:
    return (getattr(fn, "__module__", None) or "").startswith("hedera.")


def lookup(module: types.ModuleType, qualname: str):
    target = module
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def inspectable(fn) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


# ---- the table against the standard ---------------------------------------------------------------


def test_table_matches_array_api_strict():
    problems = {}
    for fn in FUNCTIONS:
        if not fn.standard:
            continue
        module = strict if fn.namespace == "core" else getattr(strict, fn.namespace)
        reference = inspect.signature(getattr(module, fn.name))
        # array_api_strict spells "not given" with a sentinel where the standard says None
        reference = reference.replace(
            parameters=[
                p.replace(default=None) if repr(p.default).startswith("<Undef") else p
                for p in reference.parameters.values()
            ]
        )
        ours = table_signature(fn)
        if [_describe(p) for p in ours.parameters.values()] != [
            _describe(p) for p in reference.parameters.values()
        ]:
            problems[fn.qualname] = f"table {ours} vs array_api_strict {reference}"
    assert {q: m for q, m in problems.items() if q not in STRICT_SIGNATURE_DIFFERENCES} == {}


def test_table_covers_the_standard():
    missing = []
    for module, prefix in ((strict, ""), (strict.linalg, "linalg."), (strict.fft, "fft.")):
        for name in getattr(module, "__all__", dir(module)):
            obj = getattr(module, name)
            if name.startswith("_") or isinstance(obj, (type, types.ModuleType)) or not callable(obj):
                continue
            if name in NEW_IN_2025_12 | STRICT_HELPERS:
                continue
            if prefix + name not in BY_QUALNAME:
                missing.append(prefix + name)
    assert missing == []


def test_front_has_the_table_signatures():
    for fn in FUNCTIONS:
        front = lookup(hd, fn.qualname)
        sig = inspectable(front)
        assert sig is not None, fn.qualname
        assert signature_mismatches(table_signature(fn, front=True), sig) == [], fn.qualname


# ---- each backend namespace -----------------------------------------------------------------------


def test_every_function_with_the_table_signature(backend):
    ns = hd.namespace(backend)
    missing, wrong, native = [], {}, []
    for fn in FUNCTIONS:
        try:
            impl = lookup(ns, fn.qualname)
        except AttributeError:
            missing.append(fn.qualname)
            continue
        sig = inspectable(impl)
        if sig is None:
            native.append(fn.qualname)  # a framework's C function, aliased: not introspectable
            continue
        check = signature_mismatches if is_hedera_code(impl) else native_mismatches
        problems = check(table_signature(fn), sig)
        if problems:
            wrong[fn.qualname] = f"{sig}: " + "; ".join(problems)
    assert missing == [], f"{backend} lacks {missing}"
    assert wrong == {}, f"{backend} signatures differ from the table"
    for qualname in native:  # only natives of the framework itself are exempt
        impl = lookup(ns, qualname)
        assert not isinstance(impl, types.FunctionType), qualname


def test_extras_and_submodules(backend):
    ns = hd.namespace(backend)
    for name in EXTRAS:
        assert callable(getattr(ns, name)), name
    for sub in ("linalg", "fft"):
        module = getattr(ns, sub)
        assert isinstance(module, types.ModuleType)
        assert module is importlib.import_module(f"hedera.backends.{backend}.{sub}")
    assert ns.__array_api_version__ == "2024.12"


def test_constants(backend):
    ns = hd.namespace(backend)
    for name in CONSTANTS:
        assert hasattr(ns, name), name
    assert ns.e == math.e and ns.pi == math.pi and ns.inf == math.inf
    assert math.isnan(ns.nan)
    assert ns.newaxis is None
    assert hd.e == math.e and hd.newaxis is None


def test_dtypes_are_native_and_equal_to_hedera_dtypes(backend):
    ns = hd.namespace(backend)
    core = importlib.import_module(f"hedera.backends.{backend}._core")
    unsupported = set(getattr(core, "UNSUPPORTED_DTYPES", ()))
    assert len(DTYPE_NAMES) == 13
    for name in DTYPE_NAMES:
        if name in unsupported and not hasattr(ns, name):
            continue
        native = getattr(ns, name)
        assert not isinstance(native, dtypes.DType), name
        assert native == getattr(hd, name) and getattr(hd, name) == native, name


# ---- the inspection API ---------------------------------------------------------------------------


def test_inspection_api(backend):
    ns = hd.namespace(backend)
    info = ns.__array_namespace_info__()
    for method in ("capabilities", "default_device", "devices", "dtypes", "default_dtypes"):
        ours, reference = (
            inspect.signature(getattr(info, method)),
            inspect.signature(getattr(strict.__array_namespace_info__(), method)),
        )
        assert list(ours.parameters) == list(reference.parameters), method

    caps = info.capabilities()
    assert {"boolean indexing", "data-dependent shapes", "max dimensions"} <= set(caps)
    assert isinstance(caps["boolean indexing"], bool) and isinstance(caps["data-dependent shapes"], bool)
    assert caps["max dimensions"] is None or caps["max dimensions"] >= 8

    devices = info.devices()
    assert len(devices) >= 1
    assert info.default_device() in devices

    defaults = info.default_dtypes()
    assert set(defaults) == {"real floating", "complex floating", "integral", "indexing"}
    assert hd.isdtype(defaults["real floating"], "real floating")
    assert hd.isdtype(defaults["complex floating"], "complex floating")
    assert hd.isdtype(defaults["integral"], "integral") and hd.isdtype(defaults["indexing"], "integral")
    assert info.default_dtypes(device=info.default_device()) == defaults


def test_inspection_dtypes(backend):
    info = hd.namespace(backend).__array_namespace_info__()
    everything = info.dtypes()
    assert set(everything) <= set(DTYPE_NAMES)
    assert {"bool", "int32", "int64", "float32", "float64"} <= set(everything)
    for name, native in everything.items():
        assert native == getattr(hd, name), name
    by_kind = {
        "bool": {"bool"},
        "signed integer": {"int8", "int16", "int32", "int64"},
        "unsigned integer": {"uint8", "uint16", "uint32", "uint64"},
        "integral": {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"},
        "real floating": {"float32", "float64"},
        "complex floating": {"complex64", "complex128"},
        "numeric": set(DTYPE_NAMES) - {"bool"},
    }
    for kind, names in by_kind.items():
        assert set(info.dtypes(kind=kind)) == names & set(everything), kind
    assert set(info.dtypes(kind=("bool", "real floating"))) == (
        {"bool", "float32", "float64"} & set(everything)
    )
    assert info.dtypes(device=info.default_device()) == everything
    with pytest.raises(ValueError):
        info.dtypes(kind="floating-ish")
