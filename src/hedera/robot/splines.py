"""Polyharmonic (radial basis function) splines, for smooth differentiable paths.

A polyharmonic spline of order ``k`` through ``n`` anchors ``(x_i, f_i)`` in
``d_in`` input dimensions is

.. math::

    s(x) = \\sum_i w_i \\, \\phi_k(|x - x_i|) + v_0 + v^T x,

with the kernel ``phi_1(r) = r``, ``phi_2(r) = r**2 log r`` (the thin-plate spline),
``phi_3(r) = r**3``, and the weights found by solving the ``(n + d_in + 1)``-square
linear system that makes ``s`` interpolate the anchors and its weights orthogonal to
the linear polynomials (``sum_i w_i = 0``, ``sum_i w_i x_i = 0``), with
:func:`hedera.linalg.solve`. This is the choice of the 2021 Ivy robot library.

With one input dimension (a path parameterised by time) and ``order=3`` the spline
is exactly the *natural cubic spline* through the anchors: piecewise cubic, twice
continuously differentiable, with zero second derivative at both ends and linear
extrapolation beyond them. Each output dimension is interpolated independently
(the kernel matrix is shared). The spline is linear in the anchor values, and
smooth in the anchor and sample points away from coincident points.
"""

from __future__ import annotations

import hedera as hd
from hedera.helpers import integer

from ._helpers import Array, broadcast_batch, check_min_ndim, safe_log, safe_sqrt

__all__ = ["sample_spline_path", "fit_spline", "evaluate_spline"]

_ORDERS = (1, 2, 3)


def _check_order(order: int) -> None:
    if order.__class__ is not int:
        integer("spline", "order", order)  # a float, a bool, a str, an array: a TypeError
    if order not in _ORDERS:
        raise hd.InvalidArgumentError(
            f"order: expected 1 (linear, r), 2 (thin-plate, r^2 log r) or 3 (cubic, r^3), got {order!r}"
        )


def _kernel(sq_dist: Array, order: int) -> Array:
    """The polyharmonic kernel ``phi_order(r)`` of squared distances ``r**2``; finite gradients at 0."""
    if order == 1:
        return safe_sqrt(sq_dist)
    if order == 2:
        return 0.5 * sq_dist * safe_log(sq_dist)  # r^2 log r = r^2 log(r^2) / 2
    return sq_dist * safe_sqrt(sq_dist)


def _sq_distances(x: Array, y: Array) -> Array:
    """Pairwise squared distances ``(..., N, D), (..., M, D) -> (..., N, M)``."""
    diff = x[..., :, None, :] - y[..., None, :, :]
    return hd.sum(diff * diff, axis=-1)


def _with_ones(points: Array) -> Array:
    """``(..., N, D) -> (..., N, D + 1)``: a leading column of ones (the affine part)."""
    return hd.concat([hd.ones_like(points[..., :1]), points], axis=-1)


def _check_points(anchor_points: Array, anchor_vals: Array) -> tuple[int, ...]:
    check_min_ndim(anchor_points, 2, "anchor_points", "anchor points of shape (..., n_anchors, d_in)")
    check_min_ndim(anchor_vals, 2, "anchor_vals", "anchor values of shape (..., n_anchors, d_out)")
    n = tuple(anchor_points.shape)[-2]
    if tuple(anchor_vals.shape)[-2] != n:
        raise hd.ShapeError(
            f"anchor_vals: expected {n} anchors (as anchor_points {tuple(anchor_points.shape)}), "
            f"got shape {tuple(anchor_vals.shape)}"
        )
    d_in = tuple(anchor_points.shape)[-1]
    if n < d_in + 1:
        raise hd.ShapeError(
            f"anchor_points: a spline in {d_in} input dimensions needs at least {d_in + 1} anchors, got {n}"
        )
    return broadcast_batch(
        [tuple(anchor_points.shape)[:-2], tuple(anchor_vals.shape)[:-2]], ["anchor_points", "anchor_vals"]
    )


def fit_spline(anchor_points: Array, anchor_vals: Array, order: int = 3) -> Array:
    """The coefficients of the polyharmonic spline through the anchors.

    Parameters
    ----------
    anchor_points : array, shape (..., n_anchors, d_in)
        Distinct anchor locations (for a path: the anchor times, ``d_in = 1``), at least
        ``d_in + 1`` of them, not all on one hyperplane.
    anchor_vals : array, shape (..., n_anchors, d_out)
        Values at the anchors. Batch dimensions broadcast with ``anchor_points``'.
    order : {1, 2, 3}
        The kernel: ``r``, ``r**2 log r`` or ``r**3`` (default, a natural cubic spline in 1-D).

    Returns
    -------
    array, shape (..., n_anchors + d_in + 1, d_out)
        The kernel weights ``w`` (first ``n_anchors`` rows) then the affine coefficients
        ``v_0, v`` (``d_in + 1`` rows), for :func:`evaluate_spline`.
    """
    _check_order(order)
    batch = _check_points(anchor_points, anchor_vals)
    n, d_in = tuple(anchor_points.shape)[-2:]
    d_out = tuple(anchor_vals.shape)[-1]
    kernel = _kernel(_sq_distances(anchor_points, anchor_points), order)  # (..., n, n)
    affine = _with_ones(anchor_points)  # (..., n, d_in + 1)
    zeros = hd.broadcast_to(
        hd.zeros_like(affine[..., :1, :]), (*tuple(affine.shape)[:-2], d_in + 1, d_in + 1)
    )
    top = hd.concat([kernel, affine], axis=-1)
    bottom = hd.concat([hd.matrix_transpose(affine), zeros], axis=-1)
    system = hd.concat([top, bottom], axis=-2)  # (..., n + d_in + 1, n + d_in + 1)
    rhs_zeros = hd.broadcast_to(
        hd.zeros_like(anchor_vals[..., :1, :]), (*tuple(anchor_vals.shape)[:-2], d_in + 1, d_out)
    )
    rhs = hd.concat([anchor_vals, rhs_zeros], axis=-2)  # (..., n + d_in + 1, d_out)
    size = n + d_in + 1
    system = hd.broadcast_to(system, (*batch, size, size))
    rhs = hd.broadcast_to(rhs, (*batch, size, d_out))
    return hd.linalg.solve(system, rhs)


def evaluate_spline(anchor_points: Array, coefficients: Array, sample_points: Array, order: int = 3) -> Array:
    """Evaluate a spline fitted by :func:`fit_spline` at ``sample_points``.

    Parameters
    ----------
    anchor_points : array, shape (..., n_anchors, d_in)
    coefficients : array, shape (..., n_anchors + d_in + 1, d_out)
        From :func:`fit_spline` with the same anchor points and order.
    sample_points : array, shape (..., n_samples, d_in)
        Batch dimensions broadcast with the others'.
    order : {1, 2, 3}

    Returns
    -------
    array, shape (..., n_samples, d_out)
    """
    _check_order(order)
    check_min_ndim(sample_points, 2, "sample_points", "sample points of shape (..., n_samples, d_in)")
    n, d_in = tuple(anchor_points.shape)[-2:]
    if tuple(sample_points.shape)[-1] != d_in:
        raise hd.ShapeError(
            f"sample_points: expected {d_in} input dimensions (as anchor_points), "
            f"got shape {tuple(sample_points.shape)}"
        )
    kernel = _kernel(_sq_distances(sample_points, anchor_points), order)  # (..., n_samples, n)
    return hd.matmul(kernel, coefficients[..., :n, :]) + hd.matmul(
        _with_ones(sample_points), coefficients[..., n:, :]
    )


def sample_spline_path(
    anchor_points: Array, anchor_vals: Array, sample_points: Array, order: int = 3
) -> Array:
    """Sample the polyharmonic spline through anchors at new points (fit, then evaluate).

    Parameters
    ----------
    anchor_points : array, shape (..., n_anchors, d_in)
        Distinct anchor locations; for a path, the anchor times with ``d_in = 1``,
        e.g. ``linspace(0, 1, n_anchors)[:, None]``. At least ``d_in + 1`` anchors.
    anchor_vals : array, shape (..., n_anchors, d_out)
        The path's values at the anchors (positions, poses, joint angles...).
    sample_points : array, shape (..., n_samples, d_in)
        Where to sample (e.g. ``linspace(0, 1, n_samples)[:, None]``).
    order : {1, 2, 3}
        Kernel ``r`` (piecewise linear in 1-D), ``r**2 log r`` (thin-plate) or ``r**3``
        (default: in 1-D the natural cubic spline).

    Returns
    -------
    array, shape (..., n_samples, d_out)
        The spline at the sample points; batch dimensions of the three inputs broadcast.
        It passes exactly through the anchors, and is differentiable with respect to all
        three inputs (it is linear in ``anchor_vals``).

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> from hedera.robot import sample_spline_path
    >>> t = np.linspace(0.0, 1.0, 4)[:, None]  # 4 anchor times
    >>> xyz = np.array([[0.0, 0, 0], [1, 1, 0], [2, 0, 1], [3, 1, 1]])
    >>> path = sample_spline_path(t, xyz, np.linspace(0.0, 1.0, 50)[:, None])
    >>> path.shape, bool(np.allclose(path[[0, -1]], xyz[[0, -1]]))
    ((50, 3), True)
    """
    coefficients = fit_spline(anchor_points, anchor_vals, order)
    return evaluate_spline(anchor_points, coefficients, sample_points, order)
