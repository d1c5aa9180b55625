"""examples/optimize_trajectory.py and examples/optimize_policy.py: the real success criteria on
tensorflow (the fastest to compile here), short runs on torch and jax whose objective improves."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from conftest import require_backend

pytest.importorskip("tqdm")
pytest.importorskip("matplotlib")


def _load(name: str):
    return importlib.import_module(name)  # examples/ is on pytest's pythonpath


@pytest.fixture(scope="module")
def optimize_trajectory():
    return _load("optimize_trajectory")


@pytest.fixture(scope="module")
def optimize_policy():
    return _load("optimize_policy")


def test_trajectory_swings_the_pendulum_up_on_tensorflow(optimize_trajectory, tmp_path, capsys):
    require_backend("tensorflow")
    png = tmp_path / "trajectory.png"
    r = optimize_trajectory.main(["--backend", "tensorflow", "--quiet", "--plot", str(png)])["tensorflow"]
    assert r["balanced"], r["max_final_angle"]  # within 0.5 rad of upright, under 2 rad/s, last 50 steps
    assert r["compiled"] and len(r["theta"]) == 200
    # hanging still would score about -1970 (gymnasium's reward); a swing-up scores a fifth of that
    assert r["gym_reward"] > -500 and r["reward"] > -500
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "tensorflow" in out and "gym reward" in out


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_trajectory_objective_decreases_on_the_other_backends(optimize_trajectory, backend, tmp_path):
    require_backend(backend)
    args = ["--backend", backend, "--steps", "4", "--horizon", "10", "--iterations", "6"]  # torch: eager
    r = optimize_trajectory.main([*args, "--quiet", "--plot", str(tmp_path / "t.png")])[backend]
    first_plan_start, first_plan_end = r["objectives"][:2]
    assert first_plan_end < first_plan_start
    assert r["compiled"] == (backend == "jax") and len(r["theta"]) == 4


def test_policy_beats_a_random_policy_on_tensorflow(optimize_policy, tmp_path, capsys):
    require_backend("tensorflow")
    png = tmp_path / "policy.png"
    r = optimize_policy.main(["--backend", "tensorflow", "--iterations", "80", "--quiet", "--plot", str(png)])
    r = r["tensorflow"]
    assert r["initial_weights_identical"] and r["compiled"]
    assert r["success"]  # held-out: trained > 90 (of 100) and >= random + 50
    assert r["trained_return"] > 95 and r["trained_return"] - r["random_return"] > 40
    assert r["trained_upright"] > 0.9 > 0.1 > r["random_upright"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "success" in capsys.readouterr().out


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_policy_return_improves_on_the_other_backends(optimize_policy, backend, tmp_path):
    require_backend(backend)
    args = ["--backend", backend, "--iterations", "10", "--warmup", "10", "--quiet"]
    r = optimize_policy.main([*args, "--plot", str(tmp_path / "p.png")])[backend]
    assert r["initial_weights_identical"]
    assert np.mean(r["curve"][-3:]) > np.mean(r["curve"][:3])
