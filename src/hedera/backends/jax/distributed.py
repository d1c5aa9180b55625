"""hedera.distributed on JAX: ``jax.sharding.Mesh``/``NamedSharding`` and ``jax.shard_map``.

One controller drives every device of the mesh (several processes after
``jax.distributed.initialize``); the collectives are ``jax.lax``'s, over named axes.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as JaxP

from ... import tree as _tree
from ...errors import UnsupportedError


def make_mesh(shape: tuple[int, ...], axis_names: tuple[str, ...], devices: Any) -> jax.sharding.Mesh:
    pool = list(jax.devices()) if devices is None else list(devices)
    size = int(np.prod(shape))
    if len(pool) < size:
        raise UnsupportedError(
            f"Mesh: shape {shape} needs {size} devices, jax has {len(pool)} ({pool[0].platform}); "
            f"on CPU set XLA_FLAGS=--xla_force_host_platform_device_count={size} (or "
            f"jax.config.update('jax_num_cpu_devices', {size})) before jax starts"
        )
    grid = np.empty(size, dtype=object)
    grid[:] = pool[:size]
    return jax.sharding.Mesh(grid.reshape(shape), axis_names)


def _jax_spec(entries: Any) -> JaxP:
    return JaxP(*entries)


def _put(x: Any, sharding: NamedSharding) -> jax.Array:
    """``x`` (the global value) placed with ``sharding``; across processes each one supplies the
    blocks of its own devices (``x`` is then the same on every process, as torch's ranks have it)."""
    if sharding.is_fully_addressable:
        return jax.device_put(x, sharding)
    host = np.asarray(x)
    return jax.make_array_from_callback(host.shape, sharding, lambda index: host[index])


def shard(x: Any, mesh: Any, entries: tuple) -> jax.Array:
    return _put(x, NamedSharding(mesh.native, _jax_spec(entries)))


def spec_of(x: Any) -> tuple:
    sharding = getattr(x, "sharding", None)
    ndim = len(x.shape)
    if isinstance(sharding, NamedSharding):
        spec = tuple(sharding.spec)
        return spec + (None,) * (ndim - len(spec))
    if sharding is None or sharding.is_fully_replicated:
        return (None,) * ndim
    raise UnsupportedError(
        f"spec_of: the array has a {type(sharding).__name__}, which has no partition spec; "
        f"place it with hd.distributed.shard"
    )


def gather(x: Any) -> jax.Array:
    if not getattr(x, "is_fully_addressable", True):  # several processes: every one gets all of it
        from jax.experimental import multihost_utils

        return jax.numpy.asarray(multihost_utils.process_allgather(x, tiled=True))
    return jax.device_put(x, jax.devices()[0])


def shard_map(f: Any, mesh: Any, treedef: Any, leaves: list, entries: list, out_tree: Any) -> Any:
    specs = [_jax_spec(e) for e in entries]
    out_specs = _tree.map(lambda s: JaxP(*s), out_tree, is_leaf=lambda s: hasattr(s, "axes"))

    def flat(*xs: Any) -> Any:
        return f(*_tree.unflatten(treedef, list(xs)))

    # check_vma=False: no varying/invariant typing, so that a replicated parameter's gradient is the
    # device's own (as on torch and tensorflow, and as jax's check_rep=False shard_map had it), which
    # the step then averages with pmean; with the typing on, jax would sum it over the devices itself.
    mapped = jax.shard_map(
        flat, mesh=mesh.native, in_specs=tuple(specs), out_specs=out_specs, check_vma=False
    )
    return mapped(*[_placed(x, mesh, s) for x, s in zip(leaves, specs, strict=True)])


def _placed(x: Any, mesh: Any, spec: JaxP) -> Any:
    """A concrete array moved onto the mesh as ``spec`` says (a committed one-device array would not
    go into a ``shard_map`` over several devices); traced ones are left to the caller's placement."""
    if isinstance(x, jax.core.Tracer):
        return x
    target = NamedSharding(mesh.native, spec)
    sharding = getattr(x, "sharding", None)
    if sharding is not None and sharding.is_equivalent_to(target, len(x.shape)):
        return x
    return _put(x, target)


def psum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    return jax.lax.psum(x, axes)


def pmean(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    return jax.lax.pmean(x, axes)


def pmax(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    return jax.lax.pmax(x, axes)


def all_gather(x: Any, axes: tuple[str, ...], mesh: Any, axis: int, tiled: bool) -> Any:
    return jax.lax.all_gather(x, axes, axis=axis, tiled=tiled)


def reduce_scatter(x: Any, axes: tuple[str, ...], mesh: Any, axis: int) -> Any:
    return jax.lax.psum_scatter(x, axes, scatter_dimension=axis, tiled=True)


def ppermute(x: Any, axes: tuple[str, ...], mesh: Any, pairs: list) -> Any:
    return jax.lax.ppermute(x, axes, perm=pairs)


def axis_index(axis: str, mesh: Any) -> Any:
    return jax.lax.axis_index(axis).astype(np.int32)
