"""``Mesh``: a named grid of devices, built on each engine's own mesh object."""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .._dispatch import backend_module, current_backend, load_backend
from ..errors import InvalidArgumentError, UnsupportedError
from . import _context

__all__ = ["Mesh", "engine"]

_ENGINES = ("numpy", "torch", "jax", "tensorflow")


def engine(backend: str) -> ModuleType:
    """``hedera.backends.<backend>.distributed``, importing the framework."""
    if backend not in _ENGINES:
        load_backend(backend)  # unknown names raise UnknownBackendError, others fall through
        raise UnsupportedError(
            f"hedera.distributed: the {backend} backend has no distributed engine "
            f"(supported: {', '.join(_ENGINES)})"
        )
    return backend_module(backend, "distributed")


class Mesh:
    """A named, n-dimensional grid of devices, on the backend's own mesh object.

    Parameters
    ----------
    shape : int or sequence of int
        The size of each mesh axis; their product is the number of devices.
    axis_names : str or sequence of str
        One distinct name per axis (``("data",)``, ``("data", "model")``).
    backend : str, optional
        ``"jax"``, ``"torch"``, ``"tensorflow"`` or ``"numpy"``. Default: the current backend.
    devices : sequence, optional
        The devices, in row-major mesh order. Default: the backend's first ``prod(shape)``
        devices (jax: ``jax.devices()``; tensorflow: the logical devices of the first
        device type with enough of them; torch: the process group's ranks, one per process).

    Attributes
    ----------
    native
        The engine's object: a ``jax.sharding.Mesh``, a
        ``torch.distributed.device_mesh.DeviceMesh``, a ``tf.distribute.Strategy``
        (``MirroredStrategy``, or the ``MultiWorkerMirroredStrategy`` made by
        :func:`hedera.distributed.initialize`), or ``None`` on numpy.

    Raises
    ------
    InvalidArgumentError
        Shapes and names of different lengths, a repeated name, a size below 1.
    UnsupportedError
        More devices than the backend has; on numpy a mesh of more than one device;
        on tensorflow a mesh with more than one axis larger than 1 (``tf.distribute``
        strategies are one-dimensional).

    Notes
    -----
    ``with mesh:`` makes the mesh the one the collectives use outside :func:`shard_map`:
    on torch, whose processes each run the per-shard code themselves, that is all a
    collective needs.

    Examples
    --------
    >>> import hedera as hd
    >>> mesh = hd.distributed.Mesh(1, "data", backend="numpy")
    >>> mesh
    Mesh(shape=(1,), axis_names=('data',), backend='numpy')
    """

    def __init__(
        self,
        shape: int | Sequence[int],
        axis_names: str | Sequence[str],
        *,
        backend: str | None = None,
        devices: Sequence[Any] | None = None,
    ) -> None:
        shape_t = (shape,) if isinstance(shape, int) else tuple(shape)
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        if len(shape_t) != len(names):
            raise InvalidArgumentError(
                f"Mesh: shape {shape_t} and axis_names {names} must have the same length"
            )
        for s in shape_t:
            if isinstance(s, bool) or not isinstance(s, int) or s < 1:
                raise InvalidArgumentError(f"Mesh: shape entries must be ints >= 1, got {shape_t}")
        for n in names:
            if not isinstance(n, str) or not n:
                raise InvalidArgumentError(f"Mesh: axis names must be non-empty strings, got {names}")
        if len(set(names)) != len(names):
            raise InvalidArgumentError(f"Mesh: axis names must be distinct, got {names}")
        self.shape: tuple[int, ...] = shape_t
        self.axis_names: tuple[str, ...] = names
        self.backend: str = backend if backend is not None else current_backend()
        self._engine = engine(self.backend)
        self._blocks: list[Any] = []
        self.native: Any = self._engine.make_mesh(self.shape, self.axis_names, devices)

    @property
    def size(self) -> int:
        """The number of devices (the product of the shape)."""
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        """The number of mesh axes."""
        return len(self.shape)

    def axis_size(self, name: str) -> int:
        """The size of axis ``name``.

        Raises
        ------
        InvalidArgumentError
            ``name`` is not an axis of the mesh.
        """
        try:
            return self.shape[self.axis_names.index(name)]
        except ValueError:
            raise InvalidArgumentError(
                f"Mesh: axis {name!r} is not in the mesh (axes {self.axis_names})"
            ) from None

    def __enter__(self) -> Mesh:
        block = _context.active(self)
        block.__enter__()
        self._blocks.append(block)  # a stack: `with mesh:` blocks may nest
        return self

    def __exit__(self, *exc: Any) -> None:
        self._blocks.pop().__exit__(*exc)

    def __repr__(self) -> str:
        return f"Mesh(shape={self.shape}, axis_names={self.axis_names}, backend={self.backend!r})"
