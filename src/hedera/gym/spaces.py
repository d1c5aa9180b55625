"""Action and observation spaces: a small, framework-neutral stand-in for ``gymnasium.spaces.Box``.

hedera.gym does not import gymnasium (the library is pure hedera), so its environments
describe their spaces with :class:`Box`, which has the attributes and methods agents and
wrappers read from a gymnasium ``Box``: ``shape``, ``low``, ``high``, ``dtype``,
``sample``, ``seed``, ``contains`` (and ``in``). ``low`` and ``high`` are NumPy arrays
(as gymnasium's are), made by :func:`hedera.to_numpy`, so that
``gymnasium.spaces.Box(space.low, space.high, dtype=...)`` rebuilds the same space.
Samples are native arrays of the space's backend.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import hedera as hd
from hedera.helpers import shape_tuple
from hedera.typing import Array

__all__ = ["Box"]


class Box:
    """A box ``[low, high]`` in ``R^shape`` (bounds may be infinite), like ``gymnasium.spaces.Box``.

    Parameters
    ----------
    low, high : float or sequence of floats
        Bounds, broadcast to ``shape``; ``-inf`` / ``inf`` for unbounded coordinates.
    shape : tuple of int
        The shape of one element.
    dtype : hedera dtype, native dtype or name
        The floating dtype of the elements (``float32`` or ``float64``).
    backend : str
        The backend whose arrays :meth:`sample` returns.

    Attributes
    ----------
    shape : tuple of int
    dtype : hedera.DType
    low, high : numpy.ndarray of shape ``shape``
        The bounds (NumPy arrays, like gymnasium's, for interoperability).
    backend : str
    """

    def __init__(
        self,
        low: float | Sequence[float],
        high: float | Sequence[float],
        shape: tuple[int, ...],
        dtype: Any = hd.float32,
        backend: str = "numpy",
    ) -> None:
        self.shape = shape_tuple("Box", "shape", shape)
        self.backend = backend
        probe = hd.asarray(0.0, dtype=dtype, backend="numpy")
        self.dtype = hd.dtype(probe)
        if not hd.isdtype(self.dtype, "real floating"):
            raise hd.DtypeError(f"Box: dtype must be a real floating dtype, got {self.dtype}")
        low_arr = hd.broadcast_to(hd.asarray(low, dtype=self.dtype, backend="numpy"), self.shape)
        high_arr = hd.broadcast_to(hd.asarray(high, dtype=self.dtype, backend="numpy"), self.shape)
        if bool(hd.any(low_arr > high_arr)):
            raise hd.InvalidArgumentError("Box: every low bound must be <= its high bound")
        self.low = hd.to_numpy(low_arr)
        self.high = hd.to_numpy(high_arr)
        self._key = None

    # ------------------------------------------------------------------ sampling
    def seed(self, seed: int | None = None) -> list[int]:
        """Seed :meth:`sample`'s generator (a keyed stream: reproducible on one backend)."""
        self._key = None if seed is None else hd.random.key(int(seed), backend=self.backend)
        return [] if seed is None else [int(seed)]

    def _next_key(self, seed: int | None) -> Any:
        if seed is not None:
            return hd.random.key(int(seed), backend=self.backend)
        if self._key is None:
            return None  # the backend's stateful generator
        self._key, key = hd.random.split(self._key)
        return key

    def sample(self, seed: int | None = None) -> Array:
        """A random element: uniform on bounded coordinates, standard normal (shifted) on unbounded ones.

        Parameters
        ----------
        seed : int, optional
            Draw from this seed (deterministic); default: the stream set by :meth:`seed`, or the
            backend's stateful generator when none was set.

        Returns
        -------
        array of shape ``shape`` and dtype ``dtype``, on ``backend``.
        """
        key = self._next_key(seed)
        k_uniform, k_normal = (None, None) if key is None else hd.random.split(key)
        low = hd.asarray(self.low, backend=self.backend)
        high = hd.asarray(self.high, backend=self.backend)
        bounded = hd.isfinite(low) & hd.isfinite(high)
        safe_low = hd.where(bounded, low, hd.zeros_like(low))
        safe_high = hd.where(bounded, high, hd.ones_like(high))
        u = hd.random.uniform(self.shape, dtype=self.dtype, key=k_uniform)
        n = hd.random.normal(self.shape, dtype=self.dtype, key=k_normal)
        uniform = safe_low + u * (safe_high - safe_low)
        # half-bounded coordinates: an exponential-like offset from the finite bound
        from_low = hd.where(hd.isfinite(low), low, hd.zeros_like(low)) + hd.abs(n)
        from_high = hd.where(hd.isfinite(high), high, hd.zeros_like(high)) - hd.abs(n)
        unbounded = hd.where(hd.isfinite(low), from_low, hd.where(hd.isfinite(high), from_high, n))
        return hd.where(bounded, uniform, unbounded)

    # ------------------------------------------------------------------ membership
    def contains(self, x: Any) -> bool:
        """Whether ``x`` (an array of any backend, or nested Python numbers) is an element of the box.

        ``x`` must have shape ``shape``, a real dtype, finite-or-allowed values and lie within the
        bounds. Non-float values are compared after conversion to ``dtype``.
        """
        try:
            if isinstance(x, (int, float, list, tuple)):
                x = hd.asarray(x, dtype=self.dtype, backend="numpy")
            else:
                x = hd.asarray(hd.to_numpy(x), backend="numpy")
        except Exception:  # not array-like
            return False
        if tuple(x.shape) != self.shape or hd.isdtype(hd.dtype(x), ("bool", "complex floating")):
            return False
        x = hd.astype(x, self.dtype)
        low = hd.asarray(self.low, backend="numpy")
        high = hd.asarray(self.high, backend="numpy")
        return bool(hd.all(~hd.isnan(x) & (x >= low) & (x <= high)))

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    # ------------------------------------------------------------------ misc
    @property
    def is_bounded(self) -> bool:
        """Whether every coordinate has finite bounds on both sides."""
        return bool(hd.all(hd.isfinite(hd.asarray(self.low))) & hd.all(hd.isfinite(hd.asarray(self.high))))

    def __repr__(self) -> str:
        low, high = hd.asarray(self.low), hd.asarray(self.high)
        lo = float(hd.min(low)) if math.prod(self.shape) else 0.0
        hi = float(hd.max(high)) if math.prod(self.shape) else 0.0
        return f"Box({lo}, {hi}, {self.shape}, {self.dtype}, backend={self.backend!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Box)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and bool(hd.all(hd.asarray(self.low) == hd.asarray(other.low)))
            and bool(hd.all(hd.asarray(self.high) == hd.asarray(other.high)))
        )

    __hash__ = None  # type: ignore[assignment]
