"""``hedera.distributed``: data-parallel and sharded computation on each framework's own engine.

One API over ``jax.sharding``/``jax.shard_map``, ``torch.distributed`` (``DeviceMesh``,
``DTensor``, functional collectives) and ``tf.distribute`` (``MirroredStrategy``, replica
contexts, ``MultiWorkerMirroredStrategy``); numpy is a one-device backend. See
``docs/distributed.md``.

* :class:`Mesh` names a grid of devices; :class:`P` says which mesh axes split which
  dimension; :func:`shard`, :func:`spec_of` and :func:`gather` place, inspect and
  assemble arrays.
* :func:`shard_map` runs a function per shard; inside it :func:`psum`, :func:`pmean`,
  :func:`pmax`, :func:`all_gather`, :func:`reduce_scatter`, :func:`ppermute`,
  :func:`axis_index` and :func:`axis_size` work over named axes.
* :func:`data_parallel` makes a training step data-parallel; :class:`LayoutMap` and
  :func:`shard_params` shard parameters by name; :func:`load` reads a checkpoint onto a mesh.
* :func:`launch` runs a function in local processes; :func:`initialize` joins a
  multi-process job (torchrun, a jax coordinator, ``TF_CONFIG``).

Importing this package imports no framework.
"""

from ..errors import LaunchError
from . import _checkpoint
from ._api import (
    all_gather,
    axis_index,
    axis_size,
    data_parallel,
    gather,
    pmax,
    pmean,
    ppermute,
    psum,
    reduce_scatter,
    shard,
    shard_map,
    spec_of,
)
from ._layout import LayoutMap, gather_params, load, shard_params
from ._mesh import Mesh
from ._spec import P, PartitionSpec
from .launch import initialize, launch, process_count, process_index

__all__ = [
    "Mesh", "P", "PartitionSpec", "shard", "spec_of", "gather", "shard_map",
    "psum", "pmean", "pmax", "all_gather", "reduce_scatter", "ppermute", "axis_index", "axis_size",
    "data_parallel", "LayoutMap", "shard_params", "gather_params", "load",
    "launch", "initialize", "process_index", "process_count", "LaunchError",
]  # fmt: skip
