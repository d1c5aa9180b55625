"""Processes: ``launch`` runs a function in several local processes; ``initialize`` joins a job.

torch is multi-controller (one process per rank); jax and tensorflow run one controller over
many devices, and also several processes (``jax.distributed.initialize``; ``TF_CONFIG`` with
``MultiWorkerMirroredStrategy``). :func:`launch` starts ``nprocs`` processes on this machine
on the loopback interface, the way ``torchrun`` (torch), a jax coordinator, or a ``TF_CONFIG``
cluster (tensorflow) would, runs ``fn(*args)`` in each, and returns their results in rank
order. If a rank raises, or a rank dies, or the job outlives ``timeout``, every process is
ended and :class:`LaunchError` says which rank failed and why, with its traceback.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import pickle
import queue
import socket
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import InvalidArgumentError, LaunchError, UnknownBackendError

__all__ = ["launch", "initialize", "LaunchError", "process_index", "process_count"]

_BACKENDS = ("torch", "jax", "tensorflow")
_GRACE_S = 2.0  # how long the other ranks get to finish once one has failed


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _child(
    backend: str, rank: int, nprocs: int, env: dict[str, str], fn: Any, args: tuple, results: Any
) -> None:
    """A rank's process: join the job, run ``fn(*args)``, report the result or the traceback."""
    os.environ.update(env)
    try:
        initialize(backend)
        value = fn(*args)
        try:
            payload = pickle.dumps(value)
        except Exception as e:
            raise InvalidArgumentError(
                f"launch: rank {rank}'s result of type {type(value).__name__} cannot be pickled: {e}"
            ) from None
        results.put((rank, "ok", payload))
    except BaseException as e:
        results.put((rank, "error", f"{type(e).__name__}: {e}", traceback.format_exc()))
    finally:
        _shutdown(backend)


def _shutdown(backend: str) -> None:
    if backend == "torch":
        import sys

        dist = sys.modules.get("torch.distributed")
        if dist is not None and dist.is_initialized():
            try:
                dist.destroy_process_group()
            except Exception:
                pass


def _environments(backend: str, nprocs: int, master_port: int) -> list[dict[str, str]]:
    """Per rank: the variables torchrun / a jax coordinator / a TF_CONFIG cluster would set."""
    base = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(master_port), "WORLD_SIZE": str(nprocs)}
    if backend == "torch":
        base["TORCHELASTIC_USE_AGENT_STORE"] = "True"  # the parent holds the store, as torchrun's agent
    envs = []
    worker_ports = [_free_port() for _ in range(nprocs)] if backend == "tensorflow" else []
    for rank in range(nprocs):
        env = dict(base, RANK=str(rank), LOCAL_RANK=str(rank), LOCAL_WORLD_SIZE=str(nprocs))
        if backend == "jax":
            env.update(
                HEDERA_JAX_COORDINATOR=f"127.0.0.1:{master_port}",
                HEDERA_JAX_NUM_PROCESSES=str(nprocs),
                HEDERA_JAX_PROCESS_ID=str(rank),
            )
        if backend == "tensorflow":
            import json

            cluster = {"worker": [f"127.0.0.1:{p}" for p in worker_ports]}
            env["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": rank}})
        envs.append(env)
    return envs


def launch(
    fn: Callable[..., Any],
    nprocs: int,
    *,
    backend: str = "torch",
    args: Sequence[Any] = (),
    timeout: float = 300.0,
) -> list[Any]:
    """Run ``fn(*args)`` in ``nprocs`` new local processes, one per rank; return their results.

    Parameters
    ----------
    fn : callable
        A module-level function (the processes are started with ``spawn`` and import it
        by name). In it, :func:`process_index` is the rank and meshes span the processes.
    nprocs : int
        The number of processes (ranks).
    backend : {"torch", "jax", "tensorflow"}
        torch: a process group over a TCP store on 127.0.0.1, ``gloo`` on CPU or ``nccl``
        where CUDA is present, set up as by ``torchrun`` (``RANK``, ``WORLD_SIZE``,
        ``MASTER_ADDR``, ``MASTER_PORT``, ``LOCAL_RANK``). jax:
        ``jax.distributed.initialize`` with a coordinator on 127.0.0.1. tensorflow: a
        ``TF_CONFIG`` cluster of ``nprocs`` workers and ``MultiWorkerMirroredStrategy``.
    args : sequence
        Positional arguments for ``fn`` (pickled).
    timeout : float
        Seconds the whole job may take; then every process is ended.

    Returns
    -------
    list
        ``fn``'s return value of each rank, in rank order (pickled back).

    Raises
    ------
    LaunchError
        A rank raised (the message gives the rank and its traceback), died without a
        result (its exit code), or the job did not finish within ``timeout`` (the ranks
        still running). No process is left running in any case.
    InvalidArgumentError
        ``nprocs`` below 1 or ``timeout`` not positive.
    UnknownBackendError
        ``backend`` is none of the three.
    """
    if backend not in _BACKENDS:
        raise UnknownBackendError(f"launch: backend must be one of {_BACKENDS}, got {backend!r}")
    if isinstance(nprocs, bool) or not isinstance(nprocs, int) or nprocs < 1:
        raise InvalidArgumentError(f"launch: nprocs must be an int >= 1, got {nprocs!r}")
    if not timeout > 0:
        raise InvalidArgumentError(f"launch: timeout must be positive, got {timeout!r}")
    ctx = mp.get_context("spawn")
    store = None
    if backend == "torch":
        from torch.distributed import TCPStore

        # the rendezvous store lives here, as torchrun's agent store: no port race between ranks
        store = TCPStore("127.0.0.1", 0, nprocs, is_master=True, wait_for_workers=False)
        port = store.port
    else:
        port = _free_port()
    results = ctx.Queue()
    procs = [
        # not daemonic, so that a rank may start processes of its own (data loader workers);
        # _end below ends every rank however launch returns
        ctx.Process(target=_child, args=(backend, r, nprocs, env, fn, tuple(args), results), daemon=False)
        for r, env in enumerate(_environments(backend, nprocs, port))
    ]
    try:
        for p in procs:
            p.start()
        return _collect(procs, results, nprocs, timeout)
    finally:
        _end(procs)
        results.close()
        results.join_thread()
        del store


def _collect(procs: list[Any], results: Any, nprocs: int, timeout: float) -> list[Any]:
    deadline = time.monotonic() + timeout
    done: dict[int, Any] = {}
    while len(done) < nprocs:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            late = sorted(set(range(nprocs)) - set(done))
            raise _error(
                f"launch: ranks {late} did not finish within the timeout of {timeout:g} s "
                f"(a hang, or a deadlock in a collective); every process was ended",
                late[0] if len(late) == 1 else None,
            )
        try:
            message = results.get(timeout=min(remaining, 0.2))
        except queue.Empty:
            _check_alive(procs, done)
            continue
        rank, status = message[0], message[1]
        if status == "error":
            raise _error(
                f"launch: rank {rank} raised {message[2]}\n\n--- traceback of rank {rank} ---\n{message[3]}",
                rank,
                message[3],
            )
        done[rank] = pickle.loads(message[2])
    return [done[r] for r in range(nprocs)]


def _error(message: str, rank: int | None, remote_traceback: str = "") -> LaunchError:
    err = LaunchError(message)
    err.rank, err.remote_traceback = rank, remote_traceback
    return err


def _check_alive(procs: list[Any], done: dict[int, Any]) -> None:
    for rank, p in enumerate(procs):
        if rank not in done and p.exitcode is not None:
            time.sleep(0.2)  # its last message may still be in the pipe
            raise _error(
                f"launch: rank {rank} exited with code {p.exitcode} without a result (its stderr says "
                f"why; a script that calls launch must do so under `if __name__ == '__main__':`, "
                f"since each rank imports the script)",
                rank,
            )


def _end(procs: list[Any]) -> None:
    """Wait a moment for the processes, then terminate, then kill what is left."""
    deadline = time.monotonic() + _GRACE_S
    for p in procs:
        if p.pid is not None:
            p.join(max(deadline - time.monotonic(), 0))
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        if p.pid is not None:
            p.join(2.0)
            if p.is_alive():
                p.kill()
                p.join(2.0)


# ---- joining a job -----------------------------------------------------------------------------


def initialize(backend: str = "torch", **kwargs: Any) -> None:
    """Join the multi-process job this process belongs to (idempotent).

    Parameters
    ----------
    backend : {"torch", "jax", "tensorflow"}
        torch: ``torch.distributed.init_process_group`` from ``torchrun``'s variables
        (``RANK``, ``WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``; ``LOCAL_RANK`` picks
        the CUDA device), ``nccl`` where CUDA is present, else ``gloo``. jax:
        ``jax.distributed.initialize(**kwargs)`` (for local runs, :func:`launch` passes
        the coordinator; on clusters jax detects it, or pass ``coordinator_address``,
        ``num_processes``, ``process_id``); on CPU, collectives go through gloo.
        tensorflow: a ``MultiWorkerMirroredStrategy`` from ``TF_CONFIG``, which every
        tensorflow :class:`Mesh` then uses (create it before any other tensorflow work).
    **kwargs
        Passed to the engine's initializer.
    """
    if backend == "torch":
        _initialize_torch(**kwargs)
    elif backend == "jax":
        _initialize_jax(**kwargs)
    elif backend == "tensorflow":
        _initialize_tensorflow(**kwargs)
    else:
        raise UnknownBackendError(f"initialize: backend must be one of {_BACKENDS}, got {backend!r}")


def _initialize_torch(**kwargs: Any) -> None:
    import torch
    import torch.distributed as dist

    if dist.is_initialized():
        return
    missing = [v for v in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT") if v not in os.environ]
    if missing:
        raise InvalidArgumentError(
            f"initialize: torch needs the environment variables torchrun sets; missing {missing} "
            f"(start the script with torchrun, or use hd.distributed.launch)"
        )
    cuda = torch.cuda.is_available()
    if cuda:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    kwargs.setdefault("backend", "nccl" if cuda else "gloo")
    dist.init_process_group(init_method="env://", **kwargs)
    atexit.register(_leave_torch_job)


def _leave_torch_job() -> None:
    """At exit of a rank that joined with ``initialize``: wait for the other ranks, then end the
    process group. A rank that exits while another still talks to it can abort either of them
    ("terminate called without an active exception", seen under torchrun), and torchrun then
    reports the job failed. The wait is bounded (gloo's monitored barrier), so a rank leaving
    after an error does not hang."""
    import datetime

    import torch.distributed as dist

    if not dist.is_initialized():
        return
    try:
        if dist.get_backend() == "gloo":
            dist.monitored_barrier(timeout=datetime.timedelta(seconds=30))
    except Exception:
        pass
    _shutdown("torch")


def _initialize_jax(**kwargs: Any) -> None:
    import jax

    if "HEDERA_JAX_COORDINATOR" in os.environ and not kwargs:
        kwargs = {
            "coordinator_address": os.environ["HEDERA_JAX_COORDINATOR"],
            "num_processes": int(os.environ["HEDERA_JAX_NUM_PROCESSES"]),
            "process_id": int(os.environ["HEDERA_JAX_PROCESS_ID"]),
        }
    try:  # CPU devices of several processes reduce through gloo (before jax makes its client)
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    except Exception:
        pass
    if jax.distributed.is_initialized():
        return
    jax.distributed.initialize(**kwargs)


def _initialize_tensorflow(**kwargs: Any) -> None:
    from ..backends.tensorflow import distributed as tfd

    if tfd.MULTI_WORKER:
        return
    import tensorflow as tf

    tfd.MULTI_WORKER.append(tf.distribute.MultiWorkerMirroredStrategy(**kwargs))


def process_index() -> int:
    """This process's rank in the job (0 when not in a multi-process job)."""
    import sys

    dist = sys.modules.get("torch.distributed")
    if dist is not None and dist.is_available() and dist.is_initialized():
        return dist.get_rank()
    jax_distributed = sys.modules.get("jax.distributed")
    if jax_distributed is not None and jax_distributed.is_initialized():
        return sys.modules["jax"].process_index()
    if "RANK" in os.environ:
        return int(os.environ["RANK"])
    return 0


def process_count() -> int:
    """The number of processes in the job (1 when not in a multi-process job)."""
    import sys

    dist = sys.modules.get("torch.distributed")
    if dist is not None and dist.is_available() and dist.is_initialized():
        return dist.get_world_size()
    jax_distributed = sys.modules.get("jax.distributed")
    if jax_distributed is not None and jax_distributed.is_initialized():
        return sys.modules["jax"].process_count()
    return int(os.environ.get("WORLD_SIZE", "1"))
