"""The generated fronts are current, complete, and as thin as designed.

The fronts are built at import from the API table (``src/hedera/_front.py``);
``src/hedera/_front.pyi``, ``linalg.py`` and ``fft.py`` are written by ``tools/gen_front.py``
from the same table; edit the table and rerun the generator (``python tools/gen_front.py``).
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import os
import pathlib
import types

import hedera as hd
from hedera import _fastpath, _front, _front_manual
from hedera._api import FUNCTIONS

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_generator() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("gen_front", ROOT / "tools" / "gen_front.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_files_are_current():
    stale = [
        str(path.relative_to(ROOT))
        for path, text in load_generator().outputs().items()
        if not path.exists() or path.read_text() != text
    ]
    assert stale == [], f"stale generated files {stale}: run `python tools/gen_front.py`"


def test_every_table_function_is_public():
    for fn in FUNCTIONS:
        module = {"core": hd, "linalg": hd.linalg, "fft": hd.fft}[fn.namespace]
        assert callable(getattr(module, fn.name)), fn.qualname
        assert fn.name in module.__all__, fn.qualname
    assert set(hd.__all__) <= set(dir(hd))


def test_fronts_are_plain_functions_of_the_front_modules():
    """No decorator stacks: each front is one plain function (generated or hand-written), or the
    C hot path's builtin directly over its generated function (hedera/_fastpath.py)."""
    manual = set(_front_manual.__all__)
    for fn in FUNCTIONS:
        module = {"core": hd, "linalg": hd.linalg, "fft": hd.fft}[fn.namespace]
        front = getattr(module, fn.name)
        python = _fastpath.python_front(front)
        assert isinstance(python, types.FunctionType), fn.qualname
        assert not hasattr(python, "__wrapped__"), fn.qualname
        expected = _front_manual if fn.namespace == "core" and fn.name in manual else _front
        assert front.__module__ == python.__module__ == expected.__name__, fn.qualname
        if front is not python:
            assert isinstance(front, types.BuiltinFunctionType), fn.qualname
            assert front.__name__ == python.__name__, fn.qualname


def test_fast_path_covers_the_eligible_fronts():
    """With the extension built, every front whose arrays the C lookup can find is accelerated."""
    if not _fastpath.enabled():
        assert os.environ.get("HEDERA_REQUIRE_FAST_PATH", "0") == "0", (
            "HEDERA_REQUIRE_FAST_PATH is set but hedera._fastfront is not in use "
            "(not built, stale, or HEDERA_PURE_PYTHON set)"
        )
        return
    gen = load_generator()
    for fn in FUNCTIONS:
        if fn.namespace == "core" and fn.name in set(_front_manual.__all__):
            continue
        module = {"core": hd, "linalg": hd.linalg, "fft": hd.fft}[fn.namespace]
        front = getattr(module, fn.name)
        accelerated = _fastpath.python_front(front) is not front
        assert accelerated == (gen.fast_path_arity(fn) is not None), fn.qualname
    # the fronts left in Python, each for a reason docs/dispatch.md gives: arrays by keyword only
    # (searchsorted's sorter, diff's prepend/append) or after a string (einsum)
    manual = set(_front_manual.__all__)
    in_python = {
        fn.qualname
        for fn in FUNCTIONS
        if gen.fast_path_arity(fn) is None and not (fn.namespace == "core" and fn.name in manual)
    }
    assert in_python == {"searchsorted", "diff", "einsum"}


def test_fronts_have_docstrings():
    for fn in FUNCTIONS:
        module = {"core": hd, "linalg": hd.linalg, "fft": hd.fft}[fn.namespace]
        doc = inspect.getdoc(getattr(module, fn.name))
        assert doc and len(doc.splitlines()[0]) > 10, fn.qualname


def test_generator_is_deterministic():
    gen = load_generator()
    assert gen.outputs() == gen.outputs()


def _stub_signatures() -> dict[str, ast.FunctionDef]:
    tree = ast.parse((ROOT / "src" / "hedera" / "_front.pyi").read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_stub_declares_each_front_as_it_is_built():
    """``_front.pyi`` (what type checkers read) and the fronts built at import (what runs) come
    from the table by two paths; they agree on every parameter's kind, annotation and default,
    and on the return annotation."""
    stubs = _stub_signatures()
    kinds = inspect.Parameter
    for fn in FUNCTIONS:
        if fn.manual:
            continue
        name = fn.name if fn.namespace == "core" else f"{fn.namespace}_{fn.name}"
        built = inspect.signature(_fastpath.python_front(getattr(_front, name)))
        node = stubs.pop(name)
        args = node.args
        declared = [(a, kinds.POSITIONAL_ONLY) for a in args.posonlyargs]
        declared += [(a, kinds.POSITIONAL_OR_KEYWORD) for a in args.args]
        declared += [(args.vararg, kinds.VAR_POSITIONAL)] if args.vararg else []
        declared += [(a, kinds.KEYWORD_ONLY) for a in args.kwonlyargs]
        positional_defaults = [None] * (len(args.posonlyargs) + len(args.args) - len(args.defaults))
        variadic_default = [None] * bool(args.vararg)
        defaults = positional_defaults + list(args.defaults) + variadic_default + list(args.kw_defaults)
        assert [p.name for p in built.parameters.values()] == [a.arg for a, _ in declared], name
        for (arg, kind), default, p in zip(declared, defaults, built.parameters.values(), strict=True):
            assert p.kind == kind, (name, p.name)
            annotation = None if arg.annotation is None else ast.unparse(arg.annotation)
            built_annotation = None if p.annotation is inspect.Parameter.empty else p.annotation
            assert annotation == built_annotation, (name, p.name)
            if default is None:
                assert p.default is inspect.Parameter.empty, (name, p.name)
            else:
                assert ast.literal_eval(default) == p.default, (name, p.name)
        assert ast.unparse(node.returns) == built.return_annotation == fn.return_annotation, name
    assert stubs == {}, f"the stub declares fronts that are not built: {sorted(stubs)}"
