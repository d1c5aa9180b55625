"""Shared helpers for the hedera.vision tests: random cameras, backend conversion, finite differences.

References in the tests are independent of hedera: OpenCV (``cv2``), scipy,
matplotlib's point-in-polygon test, and plain NumPy written from the maths.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import cv2
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import hedera as hd

TOL = {np.float32: dict(rtol=2e-4, atol=2e-4), np.float64: dict(rtol=1e-9, atol=1e-9)}


def to_backend(a, backend: str, dtype=np.float64):
    """``a`` (NumPy) as an array of ``backend`` in ``dtype`` (None keeps the dtype)."""
    a = np.asarray(a)
    if dtype is not None:
        a = a.astype(dtype)
    return hd.asarray(a, backend=backend)


def rng_for(request) -> np.random.Generator:
    """A generator seeded by the test's id: the same data whatever order (or xdist worker) runs it."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


@pytest.fixture(autouse=True)
def seed_per_test(request):
    """Reseed the test module's ``RNG`` from the test's id, so that its data does not depend on
    which tests ran before. Autouse in each module that imports it (not a conftest.py: the tests
    import the root ``conftest`` by name, and a second one would shadow it)."""
    request.module.RNG = rng_for(request)


def random_calib_mat(rng: np.random.Generator, batch: tuple[int, ...] = ()) -> np.ndarray:
    """Calibration matrices ``(*batch, 3, 3)`` with f in [80, 160] and the principal point near (32, 24)."""
    k = np.zeros((*batch, 3, 3))
    k[..., 0, 0] = rng.uniform(80, 160, batch)
    k[..., 1, 1] = rng.uniform(80, 160, batch)
    k[..., 0, 2] = rng.uniform(28, 36, batch)
    k[..., 1, 2] = rng.uniform(20, 28, batch)
    k[..., 2, 2] = 1.0
    return k


def random_ext_mat(rng: np.random.Generator, batch: tuple[int, ...] = (), angle: float = 0.3) -> np.ndarray:
    """World-to-camera ``[R | t]`` ``(*batch, 3, 4)``: small rotations, the world origin ~4 units ahead."""
    n = int(np.prod(batch))
    rot = Rotation.from_rotvec(rng.uniform(-angle, angle, (n, 3))).as_matrix().reshape(*batch, 3, 3)
    t = np.concatenate([rng.uniform(-0.3, 0.3, (*batch, 2)), rng.uniform(3.5, 4.5, (*batch, 1))], -1)
    return np.concatenate([rot, t[..., None]], axis=-1)


def cv2_project(points: np.ndarray, calib_mat: np.ndarray, ext_mat: np.ndarray) -> np.ndarray:
    """OpenCV's projection (no distortion) of points ``(N, 3)`` for one camera: ``(N, 2)``."""
    rvec = cv2.Rodrigues(ext_mat[:3, :3])[0]
    out, _ = cv2.projectPoints(points.reshape(-1, 1, 3), rvec, ext_mat[:3, 3].copy(), calib_mat, None)
    return out.reshape(*points.shape[:-1], 2)


def central_difference(f: Callable[[np.ndarray], float], x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """The gradient of scalar ``f`` at ``x`` by central differences."""
    x = np.asarray(x, dtype=np.float64)
    grad = np.zeros_like(x)
    flat = grad.reshape(-1)
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = eps
        step = step.reshape(x.shape)
        flat[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return grad


def compiled_on_jax(fn, backend: str):
    """``hd.jit(fn)`` on jax (one compilation instead of one per primitive in eager JAX), else ``fn``."""
    return hd.jit(fn) if backend == "jax" else fn


def check_gradient(
    fn, x: np.ndarray, backend: str, *, seed: int = 0, eps: float = 1e-6, rtol=1e-5, atol=1e-6
):
    """``hd.grad`` of ``sum(w * fn(x))`` on ``backend`` against central differences through NumPy (float64).

    Returns the autodiff gradient (NumPy), after asserting it is finite and matches.
    """
    out_shape = np.shape(hd.to_numpy(fn(x)))
    weights = np.random.default_rng(seed).normal(size=out_shape)

    def scalar_np(v):
        return float(np.sum(weights * hd.to_numpy(fn(v))))

    w = to_backend(weights, backend)

    def scalar(v):
        return hd.sum(w * fn(v))

    grad = hd.to_numpy(compiled_on_jax(hd.grad(scalar), backend)(to_backend(x, backend)))
    assert np.all(np.isfinite(grad)), grad
    np.testing.assert_allclose(grad, central_difference(scalar_np, x, eps), rtol=rtol, atol=atol)
    return grad
