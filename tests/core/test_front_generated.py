"""The generated fronts are current, complete, and as thin as designed.

``src/hedera/_front.py``, ``linalg.py`` and ``fft.py`` are written by ``tools/gen_front.py``
from the API table (a front's signature and dispatch; its docstring and C hot path come from its
row at import, ``hedera/_front_rows.py``); edit the table and rerun the generator
(``python tools/gen_front.py``).
"""

from __future__ import annotations

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
    # every generated front has one: keyword-only arrays (searchsorted's sorter, diff's prepend and
    # append) are left to the Python front by the C front's signature, not by the whole front
    manual = set(_front_manual.__all__)
    in_python = {
        fn.qualname
        for fn in FUNCTIONS
        if gen.fast_path_arity(fn) is None and not (fn.namespace == "core" and fn.name in manual)
    }
    assert in_python == set()


def test_fronts_have_docstrings():
    for fn in FUNCTIONS:
        module = {"core": hd, "linalg": hd.linalg, "fft": hd.fft}[fn.namespace]
        doc = inspect.getdoc(getattr(module, fn.name))
        assert doc and len(doc.splitlines()[0]) > 10, fn.qualname


def test_generator_is_deterministic():
    gen = load_generator()
    assert gen.outputs() == gen.outputs()
