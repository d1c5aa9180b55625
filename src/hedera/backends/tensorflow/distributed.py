"""hedera.distributed on TensorFlow: ``tf.distribute`` strategies and replica contexts.

A mesh is a ``MirroredStrategy`` over its devices (one controller, one replica per
device), or the ``MultiWorkerMirroredStrategy`` that
:func:`hedera.distributed.initialize` made from ``TF_CONFIG`` (one process per
worker). ``tf.distribute`` strategies are one-dimensional: a mesh may have one axis
larger than 1. A sharded array is a per-replica value (``tf.distribute.DistributedValues``)
that remembers its spec; ``shard_map`` is ``strategy.run``; the collectives are the
``ReplicaContext``'s ``all_reduce`` and ``all_gather``.
"""

from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from ... import tree as _tree
from ...errors import UnsupportedError

#: the strategy initialize() made for several workers (TF_CONFIG), used by every mesh
MULTI_WORKER: list[Any] = []


def _devices(size: int) -> list[str]:
    for kind in ("GPU", "CPU"):
        found = tf.config.list_logical_devices(kind)
        if len(found) >= size:
            return [d.name for d in found[:size]]
    cpus = len(tf.config.list_logical_devices("CPU"))
    raise UnsupportedError(
        f"Mesh: {size} devices are needed, tensorflow has {cpus} logical CPU devices; split the CPU "
        f"with tf.config.set_logical_device_configuration before tensorflow starts"
    )


def make_mesh(shape: tuple[int, ...], axis_names: tuple[str, ...], devices: Any) -> Any:
    if sum(s > 1 for s in shape) > 1:
        raise UnsupportedError(
            f"Mesh: on tensorflow a mesh has at most one axis larger than 1 (tf.distribute strategies "
            f"are one-dimensional), got shape {shape}"
        )
    size = math.prod(shape)
    if MULTI_WORKER:
        strategy = MULTI_WORKER[0]
        if strategy.num_replicas_in_sync != size:
            raise UnsupportedError(
                f"Mesh: the multi-worker strategy has {strategy.num_replicas_in_sync} replicas, "
                f"the mesh shape {shape} {size}"
            )
        return strategy
    names = [getattr(d, "name", d) for d in devices] if devices is not None else _devices(size)
    if len(names) != size:
        raise UnsupportedError(f"Mesh: devices lists {len(names)} devices for a mesh of {size}")
    return _mirrored(tuple(names))


_STRATEGIES: dict[tuple[str, ...], Any] = {}


def _mirrored(devices: tuple[str, ...]) -> Any:
    """One ``MirroredStrategy`` per device set, each with collective group keys of its own.

    Two strategies in one process otherwise both number their collective groups from 1, and a
    4-device group then meets a 2-device one under the same key ("joining a group with size 4,
    but that group has size 2"). ``_collective_key_base`` is TF's own hook for that.
    """
    if devices not in _STRATEGIES:
        base = 10_000 * len(_STRATEGIES)
        cls = type("MirroredStrategy", (tf.distribute.MirroredStrategy,), {"_collective_key_base": base})
        _STRATEGIES[devices] = cls(devices=list(devices))
    return _STRATEGIES[devices]


def _split_axis(entries: tuple) -> int | None:
    """The one dimension a spec splits (tensorflow meshes have one non-trivial axis), or None."""
    dims = [d for d, e in enumerate(entries) if e is not None]
    return dims[0] if dims else None


def _size(mesh: Any, entry: Any) -> int:
    axes = (entry,) if isinstance(entry, str) else tuple(entry)
    return math.prod(mesh.axis_size(a) for a in axes)


def _distribute(x: Any, mesh: Any, entries: tuple) -> Any:
    d = _split_axis(entries)
    strategy = mesh.native
    n = strategy.num_replicas_in_sync
    if d is None or _size(mesh, entries[d]) == 1:
        value = strategy.experimental_distribute_values_from_function(lambda ctx: tf.identity(x))
    else:
        block = x.shape[d] // n
        begin = [0] * len(x.shape)

        def piece(ctx: Any) -> Any:
            start = list(begin)
            start[d] = ctx.replica_id_in_sync_group * block
            size = list(x.shape)
            size[d] = block
            return tf.slice(x, start, size)

        value = strategy.experimental_distribute_values_from_function(piece)
    value._hedera_spec = tuple(entries)
    value._hedera_mesh = mesh
    return value


def shard(x: Any, mesh: Any, entries: tuple) -> Any:
    if isinstance(x, tf.distribute.DistributedValues):
        x = gather(x)
    return _distribute(tf.convert_to_tensor(x), mesh, entries)


def shape_of(x: Any, mesh: Any) -> tuple | None:
    """The global shape of ``x``; ``None`` for a per-replica value that lost hedera's spec (one
    that crossed into a ``tf.function``, which rebuilds it from its type spec)."""
    if not isinstance(x, tf.distribute.DistributedValues):
        return tuple(x.shape)
    spec = getattr(x, "_hedera_spec", None)
    if spec is None:
        return None
    shape = list(mesh.native.experimental_local_results(x)[0].shape)
    d = _split_axis(spec)
    if d is not None:
        shape[d] *= _size(mesh, spec[d])
    return tuple(shape)


def spec_of(x: Any) -> tuple:
    if isinstance(x, tf.distribute.DistributedValues):
        spec = getattr(x, "_hedera_spec", None)
        if spec is None:
            raise UnsupportedError("spec_of: a tf.distribute value not made by hedera has no partition spec")
        return spec
    return (None,) * len(x.shape)


def gather(x: Any) -> Any:
    if not isinstance(x, tf.distribute.DistributedValues):
        return x
    mesh = getattr(x, "_hedera_mesh", None)
    spec = getattr(x, "_hedera_spec", None)
    parts = mesh.native.experimental_local_results(x) if mesh is not None else x.values
    d = _split_axis(spec) if spec is not None else None
    if d is None:
        return tf.identity(parts[0])
    if mesh is not None and MULTI_WORKER:
        return mesh.native.gather(x, axis=d)
    with tf.device(parts[0].device):
        return tf.concat(list(parts), axis=d)


def shard_map(f: Any, mesh: Any, treedef: Any, leaves: list, entries: list, out_tree: Any) -> Any:
    strategy = mesh.native
    inputs = []
    for x, e in zip(leaves, entries, strict=True):
        if isinstance(x, tf.distribute.DistributedValues):
            spec = getattr(x, "_hedera_spec", None)
            if spec is not None and spec != tuple(e):  # (no spec: inside a tf.function; taken as given)
                x = _distribute(gather(x), mesh, e)
            inputs.append(x)
        elif _split_axis(e) is None:
            inputs.append(x)  # a plain tensor argument reaches every replica whole
        else:
            inputs.append(_distribute(tf.convert_to_tensor(x), mesh, e))
    out_def_box: list[Any] = []

    def replica(*xs: Any) -> Any:
        out = f(*_tree.unflatten(treedef, list(xs)))
        out_leaves, out_def = _tree.flatten(out)
        out_def_box.append(out_def)
        return tuple(out_leaves)

    results = strategy.run(replica, args=tuple(inputs))
    out_def = out_def_box[0]
    from hedera.distributed._api import broadcast_specs
    from hedera.distributed._spec import padded

    per_replica = list(results) if isinstance(results, (tuple, list)) else [results]
    proto = _tree.unflatten(out_def, per_replica)
    specs = broadcast_specs("shard_map", out_tree, proto, "out_specs")
    assembled = []
    for value, s in zip(per_replica, specs, strict=True):
        locals_ = strategy.experimental_local_results(value)
        entries_ = padded(s, len(locals_[0].shape))
        d = _split_axis(entries_)
        if d is None:
            assembled.append(locals_[0])
        elif tf.inside_function():
            # a per-replica value does not keep hedera's spec across tf.function's return: assemble it
            with tf.device(locals_[0].device):
                assembled.append(tf.concat(list(locals_), axis=d))
        else:
            value._hedera_spec = entries_
            value._hedera_mesh = mesh
            assembled.append(value)
    return _tree.unflatten(out_def, assembled)


def _context() -> Any:
    ctx = tf.distribute.get_replica_context()
    if ctx is None:
        raise UnsupportedError("collectives on tensorflow run in a replica context (inside shard_map)")
    return ctx


def _trivial(mesh: Any, axes: tuple[str, ...]) -> bool:
    """Whether ``axes`` span one device (a size-1 axis of the mesh: every replica is alone on it)."""
    return math.prod(mesh.axis_size(a) for a in axes) == 1


def psum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    if _trivial(mesh, axes):
        return tf.identity(x)
    return _context().all_reduce(tf.distribute.ReduceOp.SUM, x)


def pmean(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    if _trivial(mesh, axes):
        return tf.identity(x)
    return _context().all_reduce(tf.distribute.ReduceOp.MEAN, x)


def pmax(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    if _trivial(mesh, axes):
        return tf.identity(x)
    # ReduceOp has SUM and MEAN only: gather every replica's value, reduce here
    return tf.reduce_max(_context().all_gather(x[None], axis=0), axis=0)


def all_gather(x: Any, axes: tuple[str, ...], mesh: Any, axis: int, tiled: bool) -> Any:
    if not tiled:
        x = tf.expand_dims(x, axis)
    if _trivial(mesh, axes):
        return tf.identity(x)
    return _context().all_gather(x, axis=axis)


def reduce_scatter(x: Any, axes: tuple[str, ...], mesh: Any, axis: int) -> Any:
    if _trivial(mesh, axes):
        return tf.identity(x)
    ctx = _context()
    total = ctx.all_reduce(tf.distribute.ReduceOp.SUM, x)
    n = ctx.num_replicas_in_sync
    block = x.shape[axis] // n
    start = [0] * len(x.shape)
    start[axis] = ctx.replica_id_in_sync_group * block
    size = list(x.shape)
    size[axis] = block
    return tf.slice(total, start, size)


def ppermute(x: Any, axes: tuple[str, ...], mesh: Any, pairs: list) -> Any:
    if _trivial(mesh, axes):
        return tf.identity(x) if (0, 0) in pairs else tf.zeros_like(x)
    ctx = _context()
    n = ctx.num_replicas_in_sync
    gathered = ctx.all_gather(x[None], axis=0)
    sources = dict((d, s) for s, d in pairs)
    table = tf.constant([sources.get(i, -1) for i in range(n)], dtype=tf.int32)
    src = tf.gather(table, ctx.replica_id_in_sync_group)
    picked = tf.gather(gathered, tf.maximum(src, 0))
    return tf.where(src >= 0, picked, tf.zeros_like(x))


def axis_index(axis: str, mesh: Any) -> Any:
    if _trivial(mesh, (axis,)):
        return tf.constant(0, tf.int32)
    return tf.cast(_context().replica_id_in_sync_group, tf.int32)
