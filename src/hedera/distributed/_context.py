"""The mesh that collectives run over: the innermost ``shard_map`` (or ``with mesh:``) block.

A context variable for the thread that entered the block, and a process-wide fallback for the
threads an engine runs replicas in (``tf.distribute.MirroredStrategy`` calls each replica's
function on a thread of its own, which does not inherit context variables).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

_ACTIVE: contextvars.ContextVar[Any] = contextvars.ContextVar("hedera_distributed_mesh", default=None)
_PROCESS_STACK: list[Any] = []


@contextlib.contextmanager
def active(mesh: Any) -> Iterator[Any]:
    """Make ``mesh`` the one collectives use inside the block."""
    token = _ACTIVE.set(mesh)
    _PROCESS_STACK.append(mesh)
    try:
        yield mesh
    finally:
        _PROCESS_STACK.pop()
        _ACTIVE.reset(token)


def current() -> Any:
    """The active mesh, or ``None`` outside any block."""
    mesh = _ACTIVE.get()
    if mesh is None and _PROCESS_STACK:
        mesh = _PROCESS_STACK[-1]
    return mesh
