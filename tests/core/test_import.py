"""Importing hedera imports no framework, and works on a machine without them.

Each test runs a fresh interpreter, since this process has imported the frameworks already.
A machine without torch/jax/tensorflow is simulated by a meta-path finder that makes them
unimportable (it hides the real packages; it does not fake a backend).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from conftest import require_backend

FRAMEWORKS = ("torch", "jax", "jaxlib", "tensorflow", "keras", "mxnet")

# Wraps every meta-path finder so that the frameworks are not found: importing them raises
# ModuleNotFoundError and importlib.util.find_spec returns None, as on a machine without them.
HIDE_FRAMEWORKS = textwrap.dedent(
    f"""
    import sys

    class _Hiding:
        def __init__(self, finder):
            self._finder = finder

        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {FRAMEWORKS!r}:
                return None
            find = getattr(self._finder, "find_spec", None)
            return find(name, path, target) if find else None

        def __getattr__(self, attr):
            return getattr(self._finder, attr)

    sys.meta_path[:] = [_Hiding(f) for f in sys.meta_path]
    """
)


def run_python(code: str, *, hide_frameworks: bool = False) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object, which is returned.

    With ``hide_frameworks``, torch/jax/tensorflow are unimportable in that interpreter.
    """
    source = (HIDE_FRAMEWORKS if hide_frameworks else "") + textwrap.dedent(code)
    proc = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_import_hedera_imports_no_framework():
    out = run_python(
        f"""
        import json, sys
        import hedera as hd
        import hedera.linalg, hedera.fft
        hd.sin(hd.asarray([1.0]))
        hd.available_backends()
        print(json.dumps(sorted(m for m in sys.modules if m.partition(".")[0] in {FRAMEWORKS!r})))
        """
    )
    assert out == []


def test_dispatch_on_numpy_imports_no_framework():
    """Deciding the backend of a numpy array (type cache miss included) never imports a framework."""
    out = run_python(
        f"""
        import json, sys
        import numpy as np
        import hedera as hd
        x = np.ones(3, dtype=np.float32)
        hd.add(hd.sum(x), 1.0)
        hd.backend_of(x), hd.dtype(x), x.dtype == hd.float32
        with hd.use_backend("numpy"):
            hd.zeros(2)
        print(json.dumps(sorted(m for m in sys.modules if m.partition(".")[0] in {FRAMEWORKS!r})))
        """
    )
    assert out == []


def test_import_without_frameworks():
    out = run_python(
        """
        import json
        import hedera as hd
        results = {"available": hd.available_backends(), "sum": float(hd.sum(hd.ones(3)))}
        for name in ("torch", "jax", "tensorflow"):
            try:
                with hd.use_backend(name):
                    pass
            except hd.BackendNotInstalledError as e:
                results[name] = [type(e).__name__, isinstance(e, ImportError), str(e)]
            try:
                hd.namespace(name)
            except hd.BackendNotInstalledError as e:
                results[name + "_namespace"] = type(e).__name__
            try:
                hd.set_backend(name)
            except hd.BackendNotInstalledError as e:
                results[name + "_set_backend"] = type(e).__name__
        print(json.dumps(results))
        """,
        hide_frameworks=True,
    )
    assert out["available"] == ["numpy"]
    assert out["sum"] == 3.0
    for name in ("torch", "jax", "tensorflow"):
        cls, is_import_error, message = out[name]
        assert cls == "BackendNotInstalledError"
        assert is_import_error
        assert name in message
        assert f"pip install hedera[{name}]" in message, message
        assert out[name + "_namespace"] == out[name + "_set_backend"] == "BackendNotInstalledError"


def test_environment_backend_not_installed_fails_on_first_use():
    """``HEDERA_BACKEND=torch`` without torch: importing hedera works, the first creation call says why."""
    out = run_python(
        """
        import json, os
        os.environ["HEDERA_BACKEND"] = "torch"
        import hedera as hd
        current = hd.current_backend()
        try:
            hd.zeros(3)
            error = None
        except hd.BackendNotInstalledError as e:
            error = str(e)
        print(json.dumps({"current": current, "error": error}))
        """,
        hide_frameworks=True,
    )
    assert out["current"] == "torch"
    assert out["error"] and "pip install" in out["error"]


@pytest.mark.parametrize("name", ["torch", "jax", "tensorflow"])
def test_using_a_backend_imports_only_its_framework(name):
    """hedera adds no framework beyond the one used (and whatever that one imports itself:
    ``import tensorflow`` imports jax when it is installed)."""
    require_backend(name)  # skips locally without it; fails where HEDERA_REQUIRE_BACKENDS names it
    others = [f for f in ("torch", "jax", "tensorflow") if f != name]
    out = run_python(
        f"""
        import json, sys
        import {name}
        def frameworks():
            return {{m.partition(".")[0] for m in sys.modules}} & set({others!r})
        before = frameworks()
        import hedera as hd
        with hd.use_backend({name!r}):
            x = hd.ones(3)
        hd.sin(x)
        print(json.dumps(sorted(frameworks() - before)))
        """
    )
    assert out == []
