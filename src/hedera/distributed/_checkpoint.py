"""What :func:`hedera.save` does with sharded leaves: gather them, and write from one process."""

from __future__ import annotations

import sys
from typing import Any

from .. import tree as _tree


def _is_sharded(x: Any) -> bool:
    module = type(x).__module__
    return module.startswith(("torch.distributed", "tensorflow.python.distribute"))


def prepare_save(tree: Any) -> tuple[Any, bool, bool]:
    """``(tree with every sharded leaf gathered, whether this process writes, whether to barrier)``.

    jax arrays need nothing (NumPy reads a sharded ``jax.Array`` whole). torch ``DTensor``
    leaves are gathered on every rank (a collective: every rank must call :func:`hedera.save`)
    and rank 0 writes; tensorflow per-replica values are assembled.
    """
    leaves = _tree.leaves(tree)
    if not any(_is_sharded(x) for x in leaves):
        return tree, True, False
    from ._api import gather

    gathered = _tree.map(lambda x: gather(x) if _is_sharded(x) else x, tree)
    dist = sys.modules.get("torch.distributed")
    on_torch = any(type(x).__module__.startswith("torch") for x in leaves)
    if on_torch and dist is not None and dist.is_initialized():
        return gathered, dist.get_rank() == 0, True
    return gathered, True, False


def finish_save(barrier: bool) -> None:
    """On torch, the ranks wait until rank 0 has written the file."""
    if barrier:
        sys.modules["torch.distributed"].barrier()
