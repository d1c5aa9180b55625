"""hedera's pure libraries import only hedera's public API (the import-linter contract in .importlinter).

* ``lint-imports`` must keep the contract;
* the contract must cover every pure library that exists and every private
  module ``hedera._*`` (import-linter cannot wildcard a name prefix), so a new
  library or private module cannot slip past it;
* a plain AST scan backs it up, and also catches ``importlib``/``__import__``
  tricks that a static import graph cannot see.
"""

from __future__ import annotations

import ast
import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "hedera"
CONFIG = ROOT / ".importlinter"

#: every pure library hedera has or plans; those that exist must be in the contract
PURE_LIBRARIES = ("nn", "optim", "mech", "vision", "robot", "gym")
FRAMEWORKS = ("numpy", "torch", "jax", "jaxlib", "tensorflow", "keras", "mxnet")


def existing_libraries() -> list[str]:
    return [f"hedera.{name}" for name in PURE_LIBRARIES if (SRC / name / "__init__.py").exists()]


def contract() -> configparser.SectionProxy:
    parser = configparser.ConfigParser()
    parser.read(CONFIG)
    return parser["importlinter:contract:pure-libraries"]


def listed(option: str) -> set[str]:
    return {line.strip() for line in contract()[option].splitlines() if line.strip()}


def lint_imports_command() -> list[str]:
    exe = Path(sys.executable).with_name("lint-imports")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports not found: install import-linter (it is in hedera's test extra)")
    return [found]


def test_contract_covers_every_pure_library_and_private_module():
    missing = set(existing_libraries()) - listed("source_modules")
    assert not missing, f"add {sorted(missing)} to source_modules in .importlinter"
    private = {f"hedera.{p.stem}" for p in SRC.glob("_*.py") if p.stem != "__init__"}
    private |= {f"hedera.{p.name}" for p in SRC.glob("_*") if (p / "__init__.py").exists()}
    forbidden = listed("forbidden_modules")
    assert not private - forbidden, f"add {sorted(private - forbidden)} to forbidden_modules in .importlinter"
    assert {"hedera.backends", *FRAMEWORKS} <= forbidden


def test_lint_imports_keeps_the_contract():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [*lint_imports_command(), str(CONFIG), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__"):
                found.append(f"line {node.lineno}: dynamic import")
        for name in names:
            parts = name.split(".")
            if parts[0] in FRAMEWORKS or parts[0] == "importlib":
                found.append(f"line {node.lineno}: {name}")
            elif (
                parts[0] == "hedera"
                and len(parts) > 1
                and (parts[1] == "backends" or parts[1].startswith("_"))
            ):
                found.append(f"line {node.lineno}: {name}")
    return found


@pytest.mark.parametrize("library", existing_libraries())
def test_no_framework_private_or_dynamic_imports(library):
    package = SRC / library.split(".")[1]
    problems = {str(p.relative_to(ROOT)): v for p in sorted(package.rglob("*.py")) if (v := _violations(p))}
    assert not problems, problems
