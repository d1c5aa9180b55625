"""A tiny anti-aliased 2D rasteriser written with hedera ops (the environments' ``render``).

Shapes are described by signed distance functions evaluated at every pixel centre; a
shape covers a pixel by ``clip(0.5 - d / pixel_size, 0, 1)`` (one pixel of anti-aliasing)
and is alpha-blended over the canvas. It runs on the numpy backend: rendering is for
looking at, not for differentiating. Not public API.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import hedera as hd
from hedera.typing import Array

Color = tuple[float, float, float]


class Canvas:
    """An RGB image of ``height x width`` pixels showing the world rectangle ``xlim x ylim``.

    World ``y`` points up (row 0 is the top of the image), ``x`` right.
    """

    def __init__(
        self,
        height: int,
        width: int,
        xlim: tuple[float, float],
        ylim: tuple[float, float],
        background: Color = (1.0, 1.0, 1.0),
    ) -> None:
        self.height, self.width = int(height), int(width)
        self.pixel = max((xlim[1] - xlim[0]) / self.width, (ylim[1] - ylim[0]) / self.height)
        on_numpy = {"dtype": hd.float64, "backend": "numpy"}
        xs = xlim[0] + (hd.arange(self.width, **on_numpy) + 0.5) * (xlim[1] - xlim[0]) / self.width
        ys = ylim[1] - (hd.arange(self.height, **on_numpy) + 0.5) * (ylim[1] - ylim[0]) / self.height
        self.x, self.y = hd.meshgrid(xs, ys)  # (H, W) each
        planes = [hd.full((self.height, self.width), c, **on_numpy) for c in background]
        self.image = hd.stack(planes, axis=-1)

    # ----------------------------------------------------------------- blending
    def _paint(self, distance: Array, color: Color) -> None:
        alpha = hd.clip(0.5 - distance / self.pixel, 0.0, 1.0)[..., None]
        rgb = hd.asarray([float(c) for c in color], dtype=hd.float64, backend="numpy")
        self.image = self.image * (1.0 - alpha) + rgb * alpha

    # ----------------------------------------------------------------- shapes
    def circle(self, center: Sequence[float], radius: float, color: Color) -> None:
        """A filled disc."""
        cx, cy = float(center[0]), float(center[1])
        self._paint(hd.sqrt((self.x - cx) ** 2 + (self.y - cy) ** 2) - radius, color)

    def segments(self, points: Sequence[Sequence[float]], thickness: float, color: Color) -> None:
        """A polyline through ``points`` (``N >= 2`` of them) drawn ``thickness`` wide, round caps."""
        self.lines(points[:-1], points[1:], thickness, color)

    def lines(
        self,
        starts: Sequence[Sequence[float]],
        ends: Sequence[Sequence[float]],
        thickness: float,
        color: Color,
    ) -> None:
        """Line segments ``starts[i] -> ends[i]``, each ``thickness`` wide with round caps, in one pass."""
        a = hd.asarray([[float(p[0]), float(p[1])] for p in starts], dtype=hd.float64, backend="numpy")
        b = hd.asarray([[float(p[0]), float(p[1])] for p in ends], dtype=hd.float64, backend="numpy")
        ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
        px, py = self.x[..., None], self.y[..., None]  # (H, W, 1) against (S,)
        dx, dy = bx - ax, by - ay
        length2 = hd.maximum(dx * dx + dy * dy, hd.full_like(dx, 1e-12))
        t = hd.clip(((px - ax) * dx + (py - ay) * dy) / length2, 0.0, 1.0)
        dist = hd.sqrt((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2)
        self._paint(hd.min(dist, axis=-1) - thickness / 2.0, color)

    def box(self, center: Sequence[float], half_size: Sequence[float], angle: float, color: Color) -> None:
        """A filled rectangle of half side lengths ``half_size``, rotated by ``angle`` (radians, CCW)."""
        c, s = math.cos(angle), math.sin(angle)
        rx, ry = self.x - float(center[0]), self.y - float(center[1])
        lx, ly = c * rx + s * ry, -s * rx + c * ry  # into the box's frame
        qx, qy = hd.abs(lx) - float(half_size[0]), hd.abs(ly) - float(half_size[1])
        outside = hd.sqrt(hd.maximum(qx, 0.0 * qx) ** 2 + hd.maximum(qy, 0.0 * qy) ** 2)
        self._paint(outside + hd.minimum(hd.maximum(qx, qy), 0.0 * qx), color)

    def fill_below(self, xs: Sequence[float], ys: Sequence[float], color: Color) -> None:
        """Fill the region below the piecewise-linear curve through ``(xs, ys)`` (``xs`` increasing)."""
        grid_x = hd.asarray([float(v) for v in xs], dtype=hd.float64, backend="numpy")
        grid_y = hd.asarray([float(v) for v in ys], dtype=hd.float64, backend="numpy")
        n = grid_x.shape[0]
        idx = hd.clip(hd.searchsorted(grid_x, self.x[0]), 1, n - 1)
        x0, x1 = hd.take(grid_x, idx - 1), hd.take(grid_x, idx)
        y0, y1 = hd.take(grid_y, idx - 1), hd.take(grid_y, idx)
        curve = y0 + (y1 - y0) * (self.x[0] - x0) / (x1 - x0)  # (W,)
        self._paint(self.y - curve[None, :], color)

    def to_uint8(self) -> Array:
        """The image as an ``(H, W, 3)`` ``uint8`` NumPy array."""
        return hd.to_numpy(hd.astype(hd.round(hd.clip(self.image, 0.0, 1.0) * 255.0), hd.uint8))
