"""hedera.distributed on PyTorch: ``DeviceMesh``/``DTensor`` and functional collectives.

torch is multi-controller: one process per rank (``hd.distributed.launch``, or ``torchrun``
and :func:`hedera.distributed.initialize`). A mesh is a ``DeviceMesh`` over the default
process group's ranks; a sharded array is a ``DTensor``; ``shard_map`` runs the function
in every process on its local blocks; the collectives are
``torch.distributed._functional_collectives`` over the axis's sub-mesh process group.
"""

from __future__ import annotations

import math
from typing import Any

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor

from ... import tree as _tree
from ...distributed._api import broadcast_specs
from ...distributed._spec import PartitionSpec, check_spec
from ...errors import UnsupportedError


def _device_type() -> str:
    if dist.is_initialized() and dist.get_backend() == "nccl":
        return "cuda"
    return "cpu"


def _ensure_world(size: int) -> None:
    """A process group to build the mesh on; a mesh of one device gets a private one-rank group."""
    if dist.is_initialized():
        return
    if size != 1:
        raise UnsupportedError(
            f"Mesh: a torch mesh of {size} devices needs one process per device; start them with "
            f"hd.distributed.launch(fn, {size}) or torchrun and hd.distributed.initialize()"
        )
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)


def make_mesh(shape: tuple[int, ...], axis_names: tuple[str, ...], devices: Any) -> DeviceMesh:
    size = math.prod(shape)
    _ensure_world(size)
    world = dist.get_world_size()
    if devices is not None:
        ranks = torch.as_tensor(list(devices), dtype=torch.int64)
        if ranks.numel() != size:
            raise UnsupportedError(f"Mesh: devices lists {ranks.numel()} ranks for a mesh of {size}")
        return DeviceMesh(_device_type(), ranks.reshape(shape), mesh_dim_names=axis_names)
    if size != world:
        if size > world:
            raise UnsupportedError(f"Mesh: shape {shape} needs {size} ranks, the process group has {world}")
        return DeviceMesh(_device_type(), torch.arange(size).reshape(shape), mesh_dim_names=axis_names)
    return init_device_mesh(_device_type(), shape, mesh_dim_names=axis_names)


def _placements(entries: tuple, mesh: Any) -> list:
    """DTensor placements (one per mesh axis) for a spec: ``Shard(d)`` where axis splits dim ``d``."""
    out: list = [Replicate()] * mesh.ndim
    for d, e in enumerate(entries):
        axes = () if e is None else ((e,) if isinstance(e, str) else tuple(e))
        order = [mesh.axis_names.index(a) for a in axes]
        if order != sorted(order):
            raise UnsupportedError(
                f"shard: on torch, a dimension split over several mesh axes must name them in "
                f"mesh order {mesh.axis_names}, got {axes}"
            )
        for i in order:
            out[i] = Shard(d)
    return out


def _entries_of(x: DTensor) -> tuple:
    names = x.device_mesh.mesh_dim_names
    entries: list[list[str]] = [[] for _ in range(x.ndim)]
    for i, p in enumerate(x.placements):
        if isinstance(p, Shard):
            entries[p.dim].append(names[i])
        elif not isinstance(p, Replicate):
            raise UnsupportedError(
                f"spec_of: the DTensor has a {p} placement (a pending reduction); gather or "
                f"redistribute it first"
            )
    return tuple(None if not e else (e[0] if len(e) == 1 else tuple(e)) for e in entries)


def shard(x: Any, mesh: Any, entries: tuple) -> DTensor:
    if isinstance(x, DTensor):
        return x.redistribute(mesh.native, _placements(entries, mesh))
    return distribute_tensor(x, mesh.native, _placements(entries, mesh))


def spec_of(x: Any) -> tuple:
    return _entries_of(x) if isinstance(x, DTensor) else (None,) * x.ndim


def gather(x: Any) -> Any:
    return x.full_tensor() if isinstance(x, DTensor) else x


def _coordinate(mesh: Any, axis: str) -> int:
    return mesh.native.get_local_rank(axis)


def _local_block(x: Any, entries: tuple, mesh: Any) -> Any:
    """This rank's block of ``x`` (a global value, the same on every rank) under ``entries``."""
    if type(x) is torch.Tensor and not any(entries):  # replicated: the whole value (the common case)
        return x
    if isinstance(x, DTensor):
        if _entries_of(x) != tuple(entries):
            x = x.redistribute(x.device_mesh, _placements(entries, mesh))
        return x.to_local()
    for d, e in enumerate(entries):
        if e is None:
            continue
        index, count = 0, 1
        for a in (e,) if isinstance(e, str) else e:
            n = mesh.axis_size(a)
            index, count = index * n + _coordinate(mesh, a), count * n
        block = x.shape[d] // count
        x = x.narrow(d, index * block, block)
    return x


def shard_map(f: Any, mesh: Any, treedef: Any, leaves: list, entries: list, out_tree: Any) -> Any:
    local = [_local_block(x, e, mesh) for x, e in zip(leaves, entries, strict=True)]
    out = f(*_tree.unflatten(treedef, local))

    out_leaves, out_def = _tree.flatten(out)
    if isinstance(out_tree, PartitionSpec) and not out_tree.axes():
        return out  # every output replicated: the local values are the global ones
    specs = broadcast_specs("shard_map", out_tree, out, "out_specs")
    assembled = []
    for i, (y, s) in enumerate(zip(out_leaves, specs, strict=True)):
        if not s.axes():
            assembled.append(y)
            continue
        e = check_spec("shard_map", s, y.shape, _Unsplit(mesh), f"out_specs (output leaf {i})")
        assembled.append(DTensor.from_local(y, mesh.native, _placements(e, mesh)))  # blocks are even
    return _tree.unflatten(out_def, assembled)


class _Unsplit:
    """A view of a mesh whose axes all have size 1: checks a spec's names and rank, not divisibility."""

    def __init__(self, mesh: Any) -> None:
        self.axis_names = mesh.axis_names

    def axis_size(self, name: str) -> int:
        return 1


def _group(mesh: Any, axis: str) -> Any:
    return mesh.native[axis] if mesh.ndim > 1 else mesh.native


def _wait(x: Any) -> Any:
    return funcol.wait_tensor(x) if isinstance(x, funcol.AsyncCollectiveTensor) else x


def _all_reduce(x: Any, op: str, mesh: Any, axis: str) -> Any:
    """``x`` reduced over ``axis``: eagerly c10d's in-place all-reduce on a copy (functional
    collectives allocate and wait through a slower path: +15 % on a 66 ms MLP step, measured in
    benchmarks/distributed.py), inside a torch.compile trace the functional collective it can trace."""
    if torch.compiler.is_compiling():
        return _wait(funcol.all_reduce(x, op, _group(mesh, axis)))
    group = _process_group(mesh, axis)
    if op == "sum" and x.requires_grad and torch.is_grad_enabled():
        return _DifferentiableSum.apply(x, group)
    out = x.detach().clone()
    dist.all_reduce(out, dist.ReduceOp.SUM if op == "sum" else dist.ReduceOp.MAX, group=group)
    return out


class _DifferentiableSum(torch.autograd.Function):
    """psum with its transpose (as jax's): the cotangents of every device, summed."""

    @staticmethod
    def forward(ctx: Any, x: Any, group: Any) -> Any:
        ctx.group = group
        out = x.detach().clone()
        dist.all_reduce(out, dist.ReduceOp.SUM, group=group)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple:
        grad = grad.clone()
        dist.all_reduce(grad, dist.ReduceOp.SUM, group=ctx.group)
        return grad, None


def _process_group(mesh: Any, axis: str) -> Any:
    return mesh.native.get_group(axis)


def psum(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    for a in axes:
        x = _all_reduce(x, "sum", mesh, a)
    return x


def pmean(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    n = math.prod(mesh.axis_size(a) for a in axes)
    return psum(x, axes, mesh) / n


def pmax(x: Any, axes: tuple[str, ...], mesh: Any) -> Any:
    for a in axes:
        x = _all_reduce(x, "max", mesh, a)
    return x


def _one_axis(fname: str, axes: tuple[str, ...]) -> str:
    if len(axes) != 1:
        raise UnsupportedError(f"{fname}: on torch, over one mesh axis at a time (got {axes})")
    return axes[0]


def all_gather(x: Any, axes: tuple[str, ...], mesh: Any, axis: int, tiled: bool) -> Any:
    a = _one_axis("all_gather", axes)
    if not tiled:
        x = x.unsqueeze(axis)
    return _wait(funcol.all_gather_single(x.contiguous(), axis, _group(mesh, a)))


def reduce_scatter(x: Any, axes: tuple[str, ...], mesh: Any, axis: int) -> Any:
    a = _one_axis("reduce_scatter", axes)
    return _wait(funcol.reduce_scatter_single(x.contiguous(), "sum", axis, _group(mesh, a)))


def ppermute(x: Any, axes: tuple[str, ...], mesh: Any, pairs: list) -> Any:
    a = _one_axis("ppermute", axes)
    me = _coordinate(mesh, a)
    sources = {d: s for s, d in pairs}
    if torch.compiler.is_compiling():  # traceable: an all-gather, then this rank's source
        gathered = all_gather(x, (a,), mesh, 0, False)
        return gathered[sources[me]] if me in sources else torch.zeros_like(x)
    # eagerly: point-to-point sends and receives (c10d's batch_isend_irecv) between the pairs
    group = _process_group(mesh, a)
    out = torch.zeros_like(x)
    ops = []
    for s, d in pairs:
        if s == me and d == me:
            out.copy_(x)
        elif s == me:
            ops.append(dist.P2POp(dist.isend, x.detach().contiguous(), dist.get_global_rank(group, d), group))
        elif d == me:
            ops.append(dist.P2POp(dist.irecv, out, dist.get_global_rank(group, s), group))
    if ops:
        for request in dist.batch_isend_irecv(ops):
            request.wait()
    return out


def axis_index(axis: str, mesh: Any) -> Any:
    return torch.tensor(_coordinate(mesh, axis), dtype=torch.int32)
