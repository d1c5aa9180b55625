"""References shared by the hedera.robot tests."""

from __future__ import annotations

import numpy as np


def central_difference(f, x, eps=1e-6):
    """The gradient of the scalar function ``f`` at ``x`` by central differences (NumPy, float64)."""
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        dx = np.zeros_like(x)
        dx[idx] = eps
        g[idx] = (f(x + dx) - f(x - dx)) / (2 * eps)
    return g
