"""hedera.distributed on NumPy: one device. A mesh of size 1 works (collectives are identities);
anything larger raises :class:`~hedera.errors.UnsupportedError`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import tree as _tree
from ...errors import UnsupportedError


def make_mesh(shape: tuple[int, ...], axis_names: tuple[str, ...], devices: Any) -> None:
    if math.prod(shape) != 1:
        raise UnsupportedError(
            f"Mesh: numpy is a one-device backend; a mesh of shape {shape} needs {math.prod(shape)} "
            f"devices (use jax, torch or tensorflow)"
        )
    return None


def shard(x: Any, mesh: Any, entries: tuple) -> Any:
    return x


def spec_of(x: Any) -> tuple:
    return (None,) * np.ndim(x)


def gather(x: Any) -> Any:
    return x


def shard_map(f: Any, mesh: Any, treedef: Any, leaves: list, entries: list, out_tree: Any) -> Any:
    return f(*_tree.unflatten(treedef, leaves))


def psum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    return x


pmean = pmax = psum


def all_gather(x: Any, axes: tuple[str, ...], mesh: Any, axis: int, tiled: bool) -> Any:
    return x if tiled else np.expand_dims(x, axis)


def reduce_scatter(x: Any, axes: tuple[str, ...], mesh: Any, axis: int) -> Any:
    return x


def ppermute(x: Any, axes: tuple[str, ...], mesh: Any, pairs: list) -> Any:
    return x if (0, 0) in pairs else np.zeros_like(x)


def axis_index(axis: str, mesh: Any) -> Any:
    return np.asarray(0, dtype=np.int32)
