"""The project's own plumbing: generated docs are current, the README's commands and CI agree,
and the lock file pins versions inside pyproject's ranges."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest
from packaging.requirements import Requirement

from conftest import ALL_BACKENDS, require_backend

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_backend_docs_are_current():
    """docs/backends.md is what tools/gen_docs.py makes of the backends now."""
    for name in ALL_BACKENDS:
        require_backend(name)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_readme_opens_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    block = lines[lines.index("```bash") + 1 : lines.index("```")]
    commands = [line.split("#")[0].strip() for line in block]
    assert commands == ["./scripts/demo.sh", "./scripts/test.sh"]
    assert lines.index("```bash") < 4, "the commands come first"
    for command in commands:
        path = ROOT / command
        assert path.is_file() and os.access(path, os.X_OK), command


def test_ci_runs_the_readme_test_command_with_every_backend_required():
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    text = ci.read_text()
    assert "export HEDERA_REQUIRE_BACKENDS=numpy,torch,jax,tensorflow" in text
    assert re.search(r"^(exec )?\./scripts/test\.sh", text, re.M)
    assert re.search(r"^\./scripts/test-mxnet\.sh", text, re.M)  # then MXNet, in .venv-mxnet
    assert "set -euo pipefail" in text
    test_sh = (ROOT / "scripts" / "test.sh").read_text()
    assert '"$status" = 5' in test_sh and "exit 1" in test_sh  # "no tests ran" is a failure


def _pins() -> dict[str, tuple[str, str]]:
    """constraints.txt as {normalized name: (version, marker)}."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", line
            pins[re.sub(r"[-_.]+", "-", req.name).lower()] = (spec.version, str(req.marker or ""))
    return pins


def test_constraints_pin_inside_pyproject_ranges():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for reqs in project["optional-dependencies"].values():
        requirements += [r for r in reqs if not r.startswith("hedera[")]
    pins = _pins()
    assert "torch" in pins and pins["torch"][1] == "", "torch is pinned on every Python"
    checked = 0
    for text in requirements:
        req = Requirement(text)
        pin = pins.get(re.sub(r"[-_.]+", "-", req.name).lower())
        if pin is None:
            continue
        assert req.specifier.contains(pin[0], prereleases=True), f"{req} excludes the pinned {pin[0]}"
        checked += 1
    assert checked >= 10
    for extra in ("torch", "jax", "tensorflow", "all", "test", "dev"):
        assert extra in project["optional-dependencies"], extra
    for text in project["optional-dependencies"]["torch"] + project["optional-dependencies"]["jax"]:
        assert "==" not in text, f"extras take ranges, not pins: {text}"
