"""examples/mech_pose_fit.py, small: the pose is recovered to within 1 degree on every autodiff backend."""

from __future__ import annotations

import importlib

import pytest


@pytest.fixture(scope="module")
def pose_fit():
    return importlib.import_module("mech_pose_fit")  # examples/ is on pytest's pythonpath


def test_pose_fit_recovers_the_rotation(autodiff_backend, pose_fit, capsys):
    results = pose_fit.main(
        ["--backend", autodiff_backend, "--steps", "150", "--points", "100", "--seed", "3"]
    )
    result = results[autodiff_backend]
    assert result["rotation_error_deg"] < 1.0
    assert result["translation_error"] < 0.02
    out = capsys.readouterr().out
    assert autodiff_backend in out and "rotation error (deg)" in out
