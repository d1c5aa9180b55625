"""``import hedera`` loads the front and nothing else of hedera's; the rest comes on first use.

Each test runs a fresh interpreter (this process has imported everything already).
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap
import types

import tomllib

import hedera as hd
from hedera import errors

LAZY_PACKAGES = ("nn", "optim", "tree", "autodiff", "jit", "io", "random", "container", "nn_ops",
                 "mech", "vision", "robot", "gym", "interop", "helpers", "typing")  # fmt: skip
MODULES = tuple(n for n in LAZY_PACKAGES if n not in ("container", "jit"))  # (hd.jit is the function)


def run_python(code: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_import_hedera_runs_only_the_front():
    """hedera's packages are bound (``hedera._Unloaded``) but not imported until first used."""
    out = run_python(
        """
        import json, sys
        import hedera
        unloaded = [n for n, v in vars(hedera).items() if type(v).__name__ == "_Unloaded"]
        imported = [m for m in sys.modules if m.startswith("hedera")]
        print(json.dumps({"unloaded": unloaded, "imported": imported}))
        """
    )
    assert {"nn", "optim", "mech", "_diagnose"} <= set(out["unloaded"])
    executed = set(out["imported"])
    assert executed <= {
        "hedera", "hedera._api", "hedera._dispatch", "hedera._fastfront", "hedera._fastpath", "hedera._front",
        "hedera._front_rows", "hedera._argkinds",
        "hedera._front_manual", "hedera.backends", "hedera.dtypes", "hedera.errors", "hedera.fft",
        "hedera.linalg", "hedera.typing", "hedera.jit", "hedera.tree", "hedera.container", "hedera.io",
        "hedera.autodiff", "hedera._error_path", "hedera.control", "hedera._lazy",
    }, executed  # fmt: skip


OPTREE_USERS = ("hedera.tree", "hedera.jit", "hedera.control", "hedera.autodiff", "hedera.container")


def test_import_hedera_leaves_optree_and_the_file_modules_to_first_use():
    """optree (for hd.tree & co) and json/zlib (for hd.save/load) are imported by their first use,
    which rebinds every hedera module's global to the real module (no stand-in left on the per-call
    path) and registers hd.Container as an optree node; a save and load then work."""
    out = run_python(
        f"""
        import sys, os
        import numpy as np
        import hedera as hd
        at_import = [m for m in ("optree", "json", "zlib", "uuid", "threading") if m in sys.modules]
        import tempfile  # (imports zlib itself, through shutil)
        c = hd.Container(a=np.ones(2), b={{"x": np.zeros(1)}})
        leaves = hd.tree.leaves([c, (np.ones(3),)])
        import optree
        rebound = [type(sys.modules[m].optree).__name__ for m in {OPTREE_USERS!r}]
        node = len(optree.tree_leaves(c, namespace="hedera"))  # a node: its 2 arrays, not 1 leaf
        path = os.path.join(tempfile.mkdtemp(), "c.hd")
        hd.save(c, path)
        back = hd.load(path)
        import json
        print(json.dumps({{
            "at_import": at_import, "leaves": [l.shape for l in leaves], "rebound": rebound,
            "io": [type(vars(sys.modules["hedera.io"])[m]).__name__ for m in ("json", "zlib")],
            "node": node, "loaded": [back["a"].tolist(), back["b"]["x"].tolist()],
            "files": os.listdir(os.path.dirname(path)),
        }}))
        """
    )
    assert out["at_import"] == []
    assert out["leaves"] == [[2], [1], [3]]
    assert out["rebound"] == ["module"] * len(OPTREE_USERS)
    assert out["io"] == ["module", "module"]
    assert out["node"] == 2
    assert out["loaded"] == [[1.0, 1.0], [0.0]]
    assert out["files"] == ["c.hd"]  # the temporary file was renamed over, none left behind


def test_optree_imported_by_the_program_sees_containers_as_nodes():
    """A program that imports optree itself, before or after hedera, finds hd.Container registered
    in the "hedera" namespace once it makes a Container (hedera has not used optree yet)."""
    out = run_python(
        """
        import json, sys
        import optree
        import numpy as np
        import hedera as hd
        before = len(optree.tree_leaves(hd.Container(a=np.ones(2), b=np.ones(1)), namespace="hedera"))
        print(json.dumps([before]))
        """
    )
    assert out == [2]
    out = run_python(
        """
        import json
        import numpy as np
        import hedera as hd
        import optree
        after = len(optree.tree_leaves(hd.Container(a=np.ones(2), b=np.ones(1)), namespace="hedera"))
        print(json.dumps([after]))
        """
    )
    assert out == [2]


def test_a_submodule_imported_first_is_imported_once():
    """``from hedera.nn.module import Module`` before any ``hd.nn``: one ``Module`` class, and
    ``hd.nn`` is the module in sys.modules (a lazy module in sys.modules imported it twice)."""
    out = run_python(
        """
        import json, sys
        import hedera as hd
        from hedera import vision                      # bound before hedera.vision is imported
        from hedera.nn.module import Module
        print(json.dumps([
            isinstance(hd.nn.Linear(2, 3), Module),
            hd.nn is sys.modules["hedera.nn"],
            vision.cameras is sys.modules["hedera.vision.cameras"],
            hd.vision is sys.modules["hedera.vision"],
        ]))
        """
    )
    assert out == [True, True, True, True]


def test_hedera_has_no_module_getattr():
    """CPython does not specialise attribute loads on a module with ``__getattr__`` (PEP 562):
    ``hd.sin`` would cost a generic lookup at every call."""
    assert "__getattr__" not in vars(hd)


def test_every_package_is_an_attribute_of_hd():
    """``hd.mech`` works without ``import hedera.mech``, as ``hd.nn`` always did."""
    out = run_python(
        f"""
        import json
        import hedera as hd
        print(json.dumps({{n: getattr(hd, n).__name__ for n in {MODULES!r}}}))
        """
    )
    assert out == {n: f"hedera.{n}" for n in MODULES}


def test_hedera_is_a_plain_module():
    """A module of a ModuleType subclass loses CPython's specialised attribute lookup: ``hd.sin``
    would cost some 30 ns more per call."""
    assert type(hd) is types.ModuleType


def test_hd_jit_is_the_function_whoever_imports_the_module_first():
    out = run_python(
        """
        import json
        import hedera.random          # imports hedera.jit (the module) before anyone named hd.jit
        from hedera.jit import in_jit
        import hedera as hd
        print(json.dumps([callable(hd.jit), type(hd.jit).__name__, hd.jit.__module__]))
        """
    )
    assert out == [True, "function", "hedera.jit"]


def test_lazy_names_are_listed_and_exported():
    for name in ("grad", "jit", "Container", "save", "load", "mech", "tree", "nn"):
        assert name in dir(hd) and name in hd.__all__
    assert hd.grad is __import__("hedera.autodiff").autodiff.grad
    assert hd.Container is __import__("hedera.container").container.Container


def test_errors_are_exported():
    for name in ("StructureError", "StateMismatchError", "CheckpointError"):
        assert getattr(hd, name) is getattr(errors, name)
        assert issubclass(getattr(hd, name), hd.HederaError)


def test_wheel_metadata_carries_the_license_and_the_typing_marker():
    """The wheel's contents come from pyproject.toml: the LICENSE file and the PEP 561 marker."""
    root = pathlib.Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert project["project"]["license"] == "Apache-2.0"
    assert project["project"]["license-files"] == ["LICENSE"]
    assert "Apache License" in (root / "LICENSE").read_text().splitlines()[1]
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["hedera"]
    assert (root / "src" / "hedera" / "py.typed").exists()
