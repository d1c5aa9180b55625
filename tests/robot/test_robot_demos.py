"""examples/plan_drone.py and examples/plan_manipulator.py, small: on every autodiff backend the
optimised path has a positive clearance to every obstacle, a lower cost, and reaches the goal."""

from __future__ import annotations

import importlib

import pytest


def load(name: str):
    return importlib.import_module(name)  # examples/ is on pytest's pythonpath


@pytest.fixture(autouse=True)
def one_torch_thread(autodiff_backend):
    """These problems are tiny (thousands of elements per op): on a loaded 2-core machine torch's
    intra-op threads make each step several times slower, so the test runs torch on one thread."""
    if autodiff_backend != "torch":
        yield
        return
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def plan_drone():
    return load("plan_drone")


@pytest.fixture(scope="module")
def plan_manipulator():
    return load("plan_manipulator")


def test_plan_drone(autodiff_backend, plan_drone, tmp_path, capsys):
    out = tmp_path / f"plan_drone_{autodiff_backend}.png"
    result = plan_drone.main(
        ["--backend", autodiff_backend, "--steps", "100", "--quiet", "--out", str(tmp_path)]
    )
    assert result["initial_clearance"] < 0 < result["final_clearance"]
    assert result["final_cost"] < 0.2 * result["initial_cost"]
    assert result["goal_error"] < 0.1
    assert out.stat().st_size > 10_000
    printed = capsys.readouterr().out
    assert "min clearance (m)" in printed and autodiff_backend in printed


def test_plan_manipulator(autodiff_backend, plan_manipulator, tmp_path, capsys):
    out = tmp_path / f"plan_manipulator_{autodiff_backend}.png"
    result = plan_manipulator.main(
        ["--backend", autodiff_backend, "--steps", "40", "--quiet", "--out", str(tmp_path)]
    )
    assert result["initial_clearance"] < 0 < result["final_clearance"]
    assert result["final_cost"] < 0.2 * result["initial_cost"]
    assert result["goal_error"] < 0.02 and result["within_limits"]
    assert out.stat().st_size > 10_000
    printed = capsys.readouterr().out
    assert "min clearance (m)" in printed and autodiff_backend in printed
