"""A generated bad-input sweep over hedera's public API, on every backend.

For every public function (the API table's and the libraries': ``hd.nn``, ``hd.optim``,
``hd.tree``, ``hd.mech``, ...), every parameter whose kind refuses something (the table in
``bad_input_table.py``), and every class of wrong values of that kind, the sweep calls the
function's valid call with that one argument replaced, on every backend, and asserts:

* the call raises (a bad input never gives a *silent* result: returning without an error for an
  input the documentation calls invalid fails the sweep), with one exception: a Python list where
  an array goes may instead give the result of the valid call (converted as ``hd.asarray`` would);
* the error is an ``hd.HederaError`` and the kind's built-in (``TypeError`` for a wrong kind,
  ``ValueError`` for a wrong value);
* its message names the function and the argument;
* every backend raises the same class.

Each valid call is itself checked first (``test_valid_call``), so a case fails for its bad
argument, not for a table that does not make a valid call. CI runs one value per class of wrong
values (picked by a hash of the case's id, the same in every run); ``HYPOTHESIS_PROFILE=thorough``
runs every value.
"""

from __future__ import annotations

import inspect
import math
import os
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from bad_input_table import (
    ANNOTATION_KINDS,
    API_VALID_CALLS,
    ARRAY_SHAPES,
    AS_BOOL,
    AS_LIST,
    KINDS,
    LONGER_LAST,
    NAME_KINDS,
    NOT_SWEPT,
    OPEN_CASES,
    OTHER_BACKEND,
    PARAM_KINDS,
    PENDING_BADINPUT_API,
    SHAPED_ARRAY_PREFIXES,
    VALID_CALLS,
    VALID_OPTIONS,
    ZERO_D,
    A,
    Bad,
    Make,
)

import hedera as hd
from conftest import require_backend, selected_backends
from hedera._api import FUNCTIONS, Param, argument_kind

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


# ---- the targets: every public function, with its parameters and their kinds ----------------


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str
    positional_only: bool
    required: bool
    is_array: bool


@dataclass(frozen=True)
class Target:
    name: str  # "hd.sum", "hedera.mech.quaternion_to_rot_mat", "hedera.nn.Linear"
    fn: Callable[..., Any]
    params: tuple[Parameter, ...]
    variadic: str | None  # the *args parameter's name, if any
    takes_backend: bool  # a library constructor with backend=
    no_arrays: bool  # the API table's creation functions: run on the current backend
    label: str | None = None  # the name its errors must give, where not the last part of ``name``

    @property
    def short(self) -> str:
        return self.label or self.name.rsplit(".", 1)[-1]


def _api_fn(qualname: str) -> Callable[..., Any]:
    fn: Any = hd
    for part in qualname.split("."):
        fn = getattr(fn, part)
    return fn


def _api_kind(qualname: str, p: Param) -> str:
    """The sweep's kind of an API table parameter: the table's own (``_api.argument_kind``)."""
    kind = argument_kind(qualname, p.bare)
    if isinstance(kind, tuple):
        return "option"
    if kind is not None:
        return kind
    return "dtype" if p.bare == "dtype" else "free"


def _api_targets() -> Iterator[Target]:
    for row in FUNCTIONS:
        if row.manual:
            continue  # hand-written fronts (asarray, finfo, ...): their own tests
        params, variadic, positional = [], None, "/" in row.signature
        for p in row.signature:
            if p == "/":
                positional = False
                continue
            if p == "*":
                positional = False
                continue
            assert isinstance(p, Param)
            if p.name.startswith("*"):
                variadic = p.bare
                continue
            kind = _api_kind(row.qualname, p)
            if p.bare in row.array_params and kind == "free":
                kind = "array" if p.default is None else "array?"
            params.append(Parameter(p.bare, kind, positional, p.default is None, p.bare in row.array_params))
        yield Target(
            f"hd.{row.qualname}", _api_fn(row.qualname), tuple(params), variadic, False, not row.array_params
        )


#: the libraries' public modules: every name in their __all__ that is a function or a class
LIBRARY_MODULES = (
    "hedera.nn",
    "hedera.nn.functional",
    "hedera.nn.init",
    "hedera.optim",
    "hedera.random",
    "hedera.tree",
    "hedera.mech",
    "hedera.vision",
    "hedera.robot",
    "hedera.gym",
    "hedera.gym.spaces",
)


def _library_kind(target: str, name: str, annotation: Any, default: Any, array_shaped: bool) -> str:
    if f"{target}.{name}" in PARAM_KINDS:
        return PARAM_KINDS[f"{target}.{name}"]
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "Any")
    kind = NAME_KINDS.get(name) or ANNOTATION_KINDS.get(text, "free")
    if default is None and not kind.endswith("?") and kind + "?" in KINDS:
        kind += "?"  # a name's kind (shape, eps) where the parameter may be None (a default found later)
    if kind in ("array", "array?") and array_shaped:
        kind = "shaped " + kind
    return kind


def _library_targets() -> Iterator[Target]:
    import importlib

    for module_name in LIBRARY_MODULES:
        module = importlib.import_module(module_name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            target = f"{module_name}.{attr}"
            if inspect.ismodule(obj) or not callable(obj) or target in NOT_SWEPT:
                continue
            if inspect.isclass(obj) and issubclass(obj, tuple):
                continue  # a named tuple of results: the functions returning it are swept
            try:
                sig = inspect.signature(obj)
            except (TypeError, ValueError):
                continue
            shaped = target.startswith(SHAPED_ARRAY_PREFIXES)
            params, variadic = [], None
            for p in sig.parameters.values():
                if p.kind is p.VAR_POSITIONAL:
                    variadic = p.name
                    continue
                if p.kind is p.VAR_KEYWORD or (
                    p.name in ("backend", "device", "key", "dtype") and p.default is not p.empty
                ):
                    continue  # placement and keys: the creation helpers' lane
                kind = _library_kind(target, p.name, p.annotation, p.default, shaped)
                params.append(
                    Parameter(
                        p.name, kind, p.kind is p.POSITIONAL_ONLY, p.default is p.empty, "array" in kind
                    )
                )
            backend_param = sig.parameters.get("backend")
            takes_backend = backend_param is not None and backend_param.default is not backend_param.empty
            yield Target(target, obj, tuple(params), variadic, takes_backend, False)


def _parameters(target: str, fn: Callable[..., Any], skip: tuple[str, ...] = ()) -> tuple[Parameter, ...]:
    out = []
    for p in inspect.signature(fn).parameters.values():
        if p.name in skip or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        kind = _library_kind(target, p.name, p.annotation, p.default, False)
        out.append(
            Parameter(p.name, kind, p.kind is p.POSITIONAL_ONLY, p.default is p.empty, "array" in kind)
        )
    return tuple(out)


def _forward_targets(constructors: dict[str, Target]) -> Iterator[Target]:
    """Each layer's call (``layer(x, ...)``, its ``forward``'s parameters) on a layer built by its
    constructor's valid call on the backend; errors must name the layer's class."""
    import hedera.nn as nn

    for name in nn.__all__:
        cls, ctor = getattr(nn, name), constructors.get(f"hedera.nn.{name}")
        if ctor is None or not inspect.isclass(cls) or not issubclass(cls, nn.Module):
            continue
        params = _parameters(f"hedera.nn.{name}.forward", cls.forward, skip=("self",))
        if not params:  # forward(*args, **kwargs): a container of layers
            continue

        def run(*args: Any, backend: str, _ctor: Target = ctor, **kwargs: Any) -> Any:
            layer = _call(_ctor, valid_call(_ctor), backend)
            return layer(*args, **kwargs)

        yield Target(f"hedera.nn.{name}.forward", run, params, None, True, False, label=name)


def _container_targets() -> Iterator[Target]:
    """``hd.Container``'s methods, on a container of one array of the backend."""
    for method in ("map", "map_with_path", "to_backend", "all_close"):

        def run(*args: Any, backend: str, _method: str = method, **kwargs: Any) -> Any:
            return getattr(_container(backend), _method)(*args, **kwargs)

        fn = getattr(hd.Container, method)
        yield Target(
            f"hedera.Container.{method}",
            run,
            _parameters(f"hedera.Container.{method}", fn, ("self",)),
            None,
            True,
            False,
        )


def _container(backend: str) -> Any:
    return hd.Container(w=_array(A((2, 3)), backend))


def _io_targets() -> Iterator[Target]:
    """``hd.save(tree, path)`` and ``hd.load(path)``, into a temporary folder."""

    def save(tree: Any, path: Any, *, backend: str) -> None:
        hd.save(tree, path)

    def load(path: Any, *, backend: str) -> Any:
        return hd.load(path, backend=backend)

    yield Target("hedera.save", save, _parameters("hedera.save", hd.save), None, True, False)
    yield Target(
        "hedera.load", load, _parameters("hedera.load", hd.load, ("backend", "device")), None, True, False
    )


def _all_targets() -> dict[str, Target]:
    targets = {t.name: t for t in (*_api_targets(), *_library_targets())}
    extra = (*_forward_targets(targets), *_container_targets(), *_io_targets())
    return targets | {t.name: t for t in extra}


TARGETS: dict[str, Target] = _all_targets()


# ---- valid values and the bad ones, made on a backend ----------------------------------------

_OTHER = {"numpy": "torch", "torch": "numpy", "jax": "numpy", "tensorflow": "numpy"}


def _fill(spec: A) -> np.ndarray:
    size = math.prod(spec.shape)
    if spec.fill == "ints":
        out = np.arange(size) % max(spec.shape[-1] if spec.shape else 1, 1)
    elif spec.fill == "counts":
        out = np.arange(size) + 1
    elif spec.fill == "spd":
        n = spec.shape[-1]
        out = np.eye(n) * 2.0 + 0.5 * (np.eye(n, k=1) + np.eye(n, k=-1))
    elif spec.fill in ("rotation", "pose", "pose2"):
        c, s = math.cos(0.3), math.sin(0.3)
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        t = [[0.1], [0.2], [0.3]] if spec.fill != "pose2" else [[1.1], [0.2], [-0.3]]
        out = rot if spec.fill == "rotation" else np.concatenate([rot, t], axis=1)
        out = np.broadcast_to(out, spec.shape)
    elif spec.fill == "calib":
        out = np.array([[2.0, 0.0, 2.5], [0.0, 2.0, 2.0], [0.0, 0.0, 1.0]])
    elif spec.fill == "axis_angle":
        out = np.array([0.0, 0.0, 1.0, 0.3])
    elif spec.fill == "axis_angle_pose":
        out = np.array([0.1, 0.2, 0.3, 0.0, 0.0, 1.0, 0.3])
    else:
        out = (np.arange(size) + 1.0) / (size + 1.0)
        if spec.fill == "reverse":
            out = out[::-1]
        if spec.fill == "ones_last":
            out = out.reshape(spec.shape)
            out[..., -1] = 1.0
    out = np.asarray(out).reshape(spec.shape)
    if spec.dtype == "bool":
        return out > 0.4
    return out.astype(spec.dtype)


def _array(spec: A, backend: str) -> Any:
    return hd.asarray(_fill(spec), backend=backend)


def _materialize(value: Any, backend: str) -> Any:
    if isinstance(value, A):
        return _array(value, backend)
    if isinstance(value, Make):
        return value.make(backend)
    if isinstance(value, (list, tuple)):
        return type(value)(_materialize(v, backend) for v in value)
    if isinstance(value, dict):
        return {k: _materialize(v, backend) for k, v in value.items()}
    return value


def _api_default_array(target: Target, param: str) -> A:
    kinds = next(f for f in FUNCTIONS if f"hd.{f.qualname}" == target.name).dtype_kinds
    dtype = "bool" if kinds == ("bool",) else "int32" if "integral" in kinds else "float32"
    return A((2, 3), dtype, "counts" if dtype == "int32" else "ramp")


def valid_call(target: Target) -> dict[str, Any]:
    """The specs of a valid call: param -> value (A for arrays), from the tables."""
    key = target.name.removeprefix("hd.")
    overrides = API_VALID_CALLS.get(key, {}) if target.name.startswith("hd.") else VALID_CALLS.get(key, {})
    out: dict[str, Any] = {}
    for p in target.params:
        if p.name in overrides:
            out[p.name] = overrides[p.name]
        elif not p.required:
            continue
        elif p.is_array and target.name.startswith("hd."):
            out[p.name] = _api_default_array(target, p.name)
        elif p.is_array and p.name in ARRAY_SHAPES:
            out[p.name] = ARRAY_SHAPES[p.name]
        elif p.name in VALID_OPTIONS:
            out[p.name] = VALID_OPTIONS[p.name]
        elif KINDS[p.kind].valid is not None:
            out[p.name] = KINDS[p.kind].valid
        else:
            raise AssertionError(
                f"{target.name}: no valid value for the required parameter {p.name!r} (kind {p.kind}): "
                "add one to bad_input_table.py (VALID_CALLS, ARRAY_SHAPES or VALID_OPTIONS)"
            )
    if target.variadic and target.variadic in overrides:
        out["*" + target.variadic] = overrides[target.variadic]
    return out


def _call(target: Target, specs: dict[str, Any], backend: str, replaced: dict[str, Any] | None = None) -> Any:
    values = {k: _materialize(v, backend) for k, v in specs.items()}
    values.update(replaced or {})
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    gap = False  # a positional-only parameter left out: the ones after it keep their defaults too
    for p in target.params:
        if p.name not in values:
            gap = gap or p.positional_only
        elif p.positional_only:
            if not gap:
                args.append(values[p.name])
        else:
            kwargs[p.name] = values[p.name]
    args.extend(values.get(f"*{target.variadic}", ()))
    if target.takes_backend:
        kwargs["backend"] = backend
    if target.no_arrays:
        with hd.use_backend(backend):
            return target.fn(*args, **kwargs)
    return target.fn(*args, **kwargs)


def _bad_value(marker: Any, spec: Any, backend: str) -> Any:
    if marker is AS_LIST:
        return hd.to_numpy(_array(spec, backend)).tolist()
    if marker is OTHER_BACKEND:
        return _array(spec, _OTHER[backend])
    if marker is ZERO_D:
        return (
            _array(A((), spec.dtype, spec.fill), backend)
            if not spec.shape
            else _array(spec, backend)[(0,) * len(spec.shape)]
        )
    if marker is LONGER_LAST:
        return _array(A((*spec.shape[:-1], spec.shape[-1] + 1), spec.dtype), backend)
    if marker is AS_BOOL:
        return _array(A(spec.shape, "bool"), backend)
    return _materialize(marker, backend)


# ---- the cases -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    target: str
    param: str
    bad: Bad
    value_index: int

    @property
    def id(self) -> str:
        return f"{self.target}/{self.param}/{self.bad.label}"


def _applies(target: Target, param: Parameter, bad: Bad, specs: dict[str, Any]) -> bool:
    if OTHER_BACKEND in bad.values:  # mixed backends: needs another array argument
        return isinstance(specs.get(param.name), A) and sum(isinstance(v, A) for v in specs.values()) >= 2
    if any(m in bad.values for m in (AS_LIST, ZERO_D, LONGER_LAST)):
        return isinstance(specs.get(param.name), A)
    return True


def _cases() -> Iterator[Case]:
    for target in TARGETS.values():
        try:
            specs = valid_call(target)
        except AssertionError:
            specs = {}
        for p in target.params:
            for bad in KINDS[p.kind].bad:
                if not _applies(target, p, bad, specs):
                    continue
                case_id = f"{target.name}/{p.name}/{bad.label}"
                indices = (
                    range(len(bad.values)) if THOROUGH else (zlib.crc32(case_id.encode()) % len(bad.values),)
                )
                for i in indices:
                    yield Case(target.name, p.name, bad, i)


CASES = list(_cases())
#: ``HEDERA_SWEEP_CASES=listed``: only the open and pending cases, run as plain tests (to see which
#: a change has fixed: the lines to remove from the lists)
LISTED_ONLY = os.environ.get("HEDERA_SWEEP_CASES") == "listed"
if LISTED_ONLY:
    CASES = [c for c in CASES if c.id in OPEN_CASES | PENDING_BADINPUT_API]


def _param(case: Case) -> Any:
    marks: tuple[Any, ...] = ()
    if LISTED_ONLY:
        pass
    elif case.id in PENDING_BADINPUT_API:
        marks = (pytest.mark.xfail(strict=True, reason="badinput-api's lane: pending its merge"),)
    elif case.id in OPEN_CASES:
        marks = (pytest.mark.xfail(strict=False, reason="open: found by the sweep, not fixed yet"),)
    suffix = f"[{case.value_index}]" if THOROUGH else ""
    return pytest.param(case, id=case.id + suffix, marks=marks)


def _backends(target: Target) -> tuple[str, ...]:
    """A target without arrays or a backend (an optimizer's constructor, a schedule) runs once."""
    uses_backend = target.no_arrays or target.takes_backend or any(p.is_array for p in target.params)
    backends = selected_backends()
    return backends if uses_backend else backends[:1]


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_valid_call(name):
    """The table makes a valid call of every target, and it runs on every backend."""
    target = TARGETS[name]
    specs = valid_call(target)
    for backend in _backends(target):
        require_backend(backend)
        _call(target, specs, backend)


def _outcome(target: Target, specs: dict[str, Any], case: Case, backend: str) -> tuple[str, Any]:
    value = _bad_value(case.bad.values[case.value_index], specs.get(case.param), backend)
    try:
        result = _call(target, specs, backend, {case.param: value})
    except Exception as e:
        return "error", e
    return "result", result


def _same_result(a: Any, b: Any) -> bool:
    try:
        la, lb = hd.tree.leaves(a), hd.tree.leaves(b)
        return len(la) == len(lb) and all(
            np.allclose(
                np.asarray(hd.to_numpy(x) if hd.is_array(x) else x),
                np.asarray(hd.to_numpy(y) if hd.is_array(y) else y),
            )
            for x, y in zip(la, lb, strict=True)
        )
    except Exception:
        return False


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input(case: Case):
    target = TARGETS[case.target]
    specs = valid_call(target)
    value = case.bad.values[case.value_index]
    problems, classes = [], {}
    for backend in _backends(target):
        require_backend(backend)
        kind, outcome = _outcome(target, specs, case, backend)
        if kind == "result":
            if value is AS_LIST and _same_result(outcome, _call(target, specs, backend)):
                classes[backend] = "result"
                continue
            problems.append(
                f"{backend}: returned {type(outcome).__name__} silently for {case.bad.label} {value!r}"
            )
            classes[backend] = "result"
            continue
        e = outcome
        classes[backend] = type(e).__name__
        if not isinstance(e, hd.HederaError) or not isinstance(e, case.bad.builtin):
            expected = case.bad.builtin.__name__
            problems.append(f"{backend}: {type(e).__name__} ({str(e)[:160]!r}), expected a hedera {expected}")
            continue
        text = str(e)
        if target.short not in text or case.param not in text:
            problems.append(
                f"{backend}: {type(e).__name__} {text[:160]!r} does not name {target.short} and {case.param}"
            )
    if len(set(classes.values())) > 1:
        problems.append(f"different outcomes on the backends: {classes}")
    assert not problems, f"{case.id} = {value!r}:\n  " + "\n  ".join(problems)
