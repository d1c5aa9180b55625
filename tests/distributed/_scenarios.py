"""The checks hedera.distributed must pass, run where the devices are: a subprocess with
several jax CPU devices or TF logical CPU devices, or each rank of a torch gloo job.

Each scenario returns plain data (NumPy arrays, strings) that the tests compare with
NumPy references and across backends. Run as a script for jax and tensorflow::

    python _scenarios.py jax OUT.pkl       # XLA_FLAGS=--xla_force_host_platform_device_count=4
    python _scenarios.py tensorflow OUT.pkl
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
import time
import traceback
from typing import Any

import numpy as np

import hedera as hd

D, P = hd.distributed, hd.distributed.P
F = hd.nn.functional
DEVICES = 4  # jax and tensorflow processes get this many CPU devices
LR = {"sgd": 0.1, "adam": 0.01}
STEPS = 10


# ---- inputs (NumPy, the same on every backend) -------------------------------------------------


def collective_input(n: int) -> np.ndarray:
    """A ``(2 n * n, 5)`` float32 array: each of the ``n`` shards is ``(2 n, 5)``, values of both signs."""
    rng = np.random.default_rng(n)
    return rng.normal(size=(2 * n * n, 5)).astype(np.float32)


def vector_input(n: int) -> np.ndarray:
    """A ``(3 n,)`` float32 vector: an odd number (3) of elements per device."""
    return np.random.default_rng(100 + n).normal(size=3 * n).astype(np.float32)


def mlp_problem() -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Initial MLP parameters ``8 -> 16 -> 4`` and a batch of 32 examples with integer labels."""
    rng = np.random.default_rng(0)
    params = {
        "w1": (rng.normal(size=(8, 16)) / np.sqrt(8)).astype(np.float32),
        "b1": np.zeros(16, np.float32),
        "w2": (rng.normal(size=(16, 4)) / 4).astype(np.float32),
        "b2": np.zeros(4, np.float32),
    }
    x = rng.normal(size=(32, 8)).astype(np.float32)
    y = rng.integers(0, 4, size=32).astype(np.int64)
    return params, x, y


# ---- the scenarios ---------------------------------------------------------------------------------


def _np(x: Any) -> np.ndarray:
    return np.asarray(hd.to_numpy(hd.distributed.gather(x)))


def collectives(backend: str, mesh: Any) -> dict[str, np.ndarray]:
    """Every collective inside one shard_map, on the input split in ``mesh.size`` row blocks."""
    n = mesh.size
    ring = [(i, (i + 1) % n) for i in range(n)]

    sizes: list[int] = []

    def per_shard(b: Any, v: Any) -> tuple:
        sizes.append(D.axis_size("data"))
        return (
            D.psum(v, "data"),  # v: 3 odd-length elements per device
            D.pmax(v, "data"),
            D.all_gather(v, "data"),
            D.all_gather(v, "data", tiled=True),
            D.ppermute(v, "data", ring),
            D.psum(b, "data"),
            D.pmean(b, "data"),
            D.pmax(b, "data"),
            D.all_gather(b, "data"),  # stacked: (n, 2n, 5)
            D.all_gather(b, "data", axis=1, tiled=True),  # (2n, 5n)
            D.reduce_scatter(b, "data"),  # (2, 5) per device
            D.ppermute(b, "data", ring),
            D.ppermute(b, "data", [(0, n - 1)]),  # the others get zeros
            hd.reshape(D.axis_index("data"), (1,)),
        )

    out_specs = (P(), P(), P(), P(), P("data"))
    out_specs += (P(), P(), P(), P(), P(), P("data"), P("data"), P("data"), P("data"))
    x = hd.asarray(collective_input(n), backend=backend)
    v = hd.asarray(vector_input(n), backend=backend)
    f = D.shard_map(per_shard, mesh, (P("data"), P("data")), out_specs)
    eager = backend != "tensorflow" or n == 2  # (eager MirroredStrategy is slow: once is enough)
    names = ["v_psum", "v_pmax", "v_all_gather", "v_all_gather_tiled", "v_ppermute_ring",
             "psum", "pmean", "pmax", "all_gather", "all_gather_tiled", "reduce_scatter", "ppermute_ring",
             "ppermute_partial", "axis_index"]  # fmt: skip
    results = {k: _np(r) for k, r in zip(names, f(x, v), strict=True)} if eager else {}
    if backend in ("jax", "tensorflow"):
        jitted = hd.jit(f)(D.shard(x, mesh, P("data")), D.shard(v, mesh, P("data")))
        results.update({f"jit_{k}": _np(r) for k, r in zip(names, jitted, strict=True)})
    results["axis_size"] = np.asarray(sorted(set(sizes)))
    return results


def _error(f: Any) -> tuple[str, str] | None:
    try:
        f()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


def bad_specs(backend: str, mesh: Any) -> dict[str, Any]:
    """The errors of specs that cannot fit (class name and message of each)."""
    n = mesh.size
    x = hd.asarray(np.ones((2 * n, 3), np.float32), backend=backend)
    odd = hd.asarray(np.ones((2 * n + 1, 3), np.float32), backend=backend)

    def rs(b: Any) -> Any:
        return D.reduce_scatter(b, "data", axis=1)  # 3 columns over n devices

    return {
        "axis_not_in_mesh": _error(lambda: D.shard(x, mesh, P("model"))),
        "not_divisible": _error(lambda: D.shard(odd, mesh, P("data"))),
        "too_long": _error(lambda: D.shard(x, mesh, P("data", None, None))),
        "axis_twice": _error(lambda: D.shard(x, mesh, P("data", "data"))),
        "shard_map_not_divisible": _error(
            lambda: D.shard_map(lambda b: b, mesh, (P("data"),), P("data"))(odd)
        ),
        "collective_bad_axis": _error(
            lambda: D.shard_map(lambda b: D.psum(b, "model"), mesh, (P("data"),), P())(x)
        ),
        "reduce_scatter_not_divisible": _error(lambda: D.shard_map(rs, mesh, (P("data"),), P("data"))(x)),
        "outside_shard_map": _error(lambda: D.psum(x, "data")),
        "data_parallel_bad_axis": _error(lambda: D.data_parallel(lambda s, b: s, mesh, "model")),
    }


def sharded_weight(backend: str, mesh: Any) -> dict[str, Any]:
    """A ``(4, 6)`` weight split on its first dimension over a 2-way axis; ``x @ w`` with it."""
    rng = np.random.default_rng(7)
    w_np = rng.normal(size=(4, 6)).astype(np.float32)
    x_np = rng.normal(size=(5, 4)).astype(np.float32)
    w = D.shard(hd.asarray(w_np, backend=backend), mesh, P("data"))
    out: dict[str, Any] = {"spec": repr(D.spec_of(w)), "w": _np(w)}
    if backend == "jax":
        out["local_shapes"] = [tuple(s.data.shape) for s in w.addressable_shards]
        out["native_spec"] = tuple(w.sharding.spec)
    elif backend == "torch":
        out["local_shapes"] = [tuple(w.to_local().shape)]
        out["placements"] = repr(tuple(w.placements))
    elif backend == "tensorflow":
        out["local_shapes"] = [tuple(v.shape) for v in mesh.native.experimental_local_results(w)]
    if backend == "tensorflow":
        w_tf = {"w": hd.asarray(w_np, backend=backend)}
        out["shard_params_error"] = _error(lambda: D.shard_params(w_tf, mesh, {"w": P("data")}))
        return out
    x = D.shard(hd.asarray(x_np, backend=backend), mesh, P())
    out["matmul"] = _np(hd.matmul(x, w))
    out["matmul_reference"] = x_np @ w_np
    layout = D.LayoutMap({r"^layer/w$": P("data", None)})
    zeros = np.zeros(6, np.float32)
    layer = {"w": hd.asarray(w_np, backend=backend), "b": hd.asarray(zeros, backend=backend)}
    params = D.shard_params({"layer": layer}, mesh, layout)
    out["layout_specs"] = {k: repr(D.spec_of(v)) for k, v in params["layer"].items()}
    return out


def _forward(params: Any, x: Any) -> Any:
    h = hd.tanh(hd.matmul(x, params["w1"]) + params["b1"])
    return hd.matmul(h, params["w2"]) + params["b2"]


def _make_step(opt: Any, axis: str | None) -> Any:

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        return F.cross_entropy(_forward(params, x), y)

    def step(params: Any, opt_state: Any, x: Any, y: Any) -> tuple:
        loss, grads = hd.value_and_grad(loss_fn)(params, x, y)
        if axis is not None:  # the replicas' gradients (and losses) averaged: the full batch's
            grads = hd.distributed.pmean(grads, axis)
            loss = hd.distributed.pmean(loss, axis)
        params, opt_state = opt.update(grads, opt_state, params)
        return params, opt_state, loss

    return step


def train(backend: str, mesh: Any | None, optimizer: str) -> dict[str, Any]:
    """``STEPS`` steps of the MLP, data-parallel on ``mesh`` (``None``: one device, the full batch)."""
    init, x_np, y_np = mlp_problem()
    opt = (hd.optim.SGD if optimizer == "sgd" else hd.optim.Adam)(LR[optimizer])
    params = hd.Container({k: hd.asarray(v, backend=backend) for k, v in init.items()})
    opt_state = opt.init(params)
    x, y = hd.asarray(x_np, backend=backend), hd.asarray(y_np, backend=backend)
    if mesh is None:
        step = _make_step(opt, None)
    else:
        step = D.data_parallel(_make_step(opt, "data"), mesh, "data", batch_argnums=(2, 3))
        params, opt_state = D.shard_params(params, mesh), D.shard_params(opt_state, mesh)
        x, y = D.shard(x, mesh, P("data")), D.shard(y, mesh, P("data"))
    if backend != "torch":  # torch: eager (torch.compile of a collective step takes longer than the test)
        step = hd.jit(step)
    losses = []
    for _ in range(STEPS):
        params, opt_state, loss = step(params, opt_state, x, y)
        losses.append(float(_np(loss)))
    return {"params": {k: _np(v) for k, v in params.items()}, "losses": np.asarray(losses)}


def checkpoint_save(backend: str, mesh: Any, path: str) -> dict[str, np.ndarray]:
    """Save a tree with a split weight and a replicated one from ``mesh``; return what was saved."""
    rng = np.random.default_rng(3)
    tree = {"w": rng.normal(size=(8, 6)).astype(np.float32), "b": rng.normal(size=(6,)).astype(np.float32)}
    if backend == "tensorflow":  # parameters are replicated there; the split value is a per-replica one
        as_tf = {k: hd.asarray(v, backend=backend) for k, v in tree.items()}
        sharded = {"w": D.shard(as_tf["w"], mesh, P("data")), "b": D.shard(as_tf["b"], mesh)}
    else:
        native = {k: hd.asarray(v, backend=backend) for k, v in tree.items()}
        sharded = D.shard_params(native, mesh, {"w": P("data")})
    hd.save(sharded, path)
    return tree


def checkpoint_load(backend: str, mesh: Any, path: str) -> dict[str, Any]:
    """Load ``path`` on one device and onto ``mesh`` (the weight split there too, where supported)."""
    one = hd.load(path, backend=backend)
    layout = None if backend == "tensorflow" else {"w": P("data")}
    on_mesh = D.load(path, mesh, layout)
    out = {
        "one_device": {k: _np(v) for k, v in one.items()},
        "on_mesh": {k: _np(v) for k, v in on_mesh.items()},
        "on_mesh_specs": {k: repr(D.spec_of(v)) for k, v in on_mesh.items()},
    }
    if backend == "tensorflow":
        w = D.shard(one["w"], mesh, P("data"))
        out["on_mesh"]["w_split"] = _np(w)
    return out


def _guarded(results: dict[str, Any], name: str, f: Any) -> None:
    """Run one scenario; a failure is recorded (with its traceback) rather than stopping the others."""
    start = time.perf_counter()
    try:
        results[name] = f()
    except Exception:
        results[name] = {"__error__": traceback.format_exc()}
    results.setdefault("__seconds__", {})[name] = time.perf_counter() - start


def run_all(
    backend: str, sizes: tuple[int, ...], make_mesh: Any, ckpt: tuple[int, int] | None, path: str
) -> dict:
    """Every scenario for every mesh size in ``sizes``.

    The checkpoint is saved on ``ckpt[0]`` devices and loaded on ``ckpt[1]``.
    """
    results: dict[str, Any] = {}
    for n in sizes:
        mesh = make_mesh(n)
        _guarded(results, f"collectives_{n}", lambda m=mesh: collectives(backend, m))
        _guarded(results, f"bad_specs_{n}", lambda m=mesh: bad_specs(backend, m))
        for opt in ("sgd", "adam"):
            _guarded(results, f"train_{opt}_{n}", lambda m=mesh, o=opt: train(backend, m, o))
        if n == 2:
            _guarded(results, "sharded_weight_2", lambda m=mesh: sharded_weight(backend, m))
    for opt in ("sgd", "adam"):
        _guarded(results, f"train_{opt}_1", lambda o=opt: train(backend, None, o))
    if ckpt is not None:
        _guarded(results, "checkpoint_saved", lambda: checkpoint_save(backend, make_mesh(ckpt[0]), path))
        _guarded(results, "checkpoint_loaded", lambda: checkpoint_load(backend, make_mesh(ckpt[1]), path))
    return results


# ---- entry points ------------------------------------------------------------------------------------


def single_controller(backend: str) -> dict:
    """jax or tensorflow: one process, ``DEVICES`` CPU devices, meshes of 2 and 4."""
    if backend == "jax":
        import jax

        devices = jax.devices()
    else:
        import tensorflow as tf

        devices = [d.name for d in tf.config.list_logical_devices("CPU")]
    assert len(devices) == DEVICES, devices

    def make_mesh(n: int) -> Any:
        return hd.distributed.Mesh(n, "data", backend=backend, devices=devices[:n])

    with tempfile.TemporaryDirectory() as tmp:
        return run_all(backend, (2, 4), make_mesh, (4, 2), os.path.join(tmp, "ckpt.safetensors"))


def torch_rank(nprocs: int, path: str, mode: str) -> dict:
    """One rank of a torch job of ``nprocs`` processes: every scenario on the ``nprocs``-way mesh.

    ``mode``: ``"save"`` also writes the checkpoint at ``path``, ``"load"`` reads it (saved by
    a job of another size).
    """

    def make_mesh(n: int) -> Any:
        return hd.distributed.Mesh(n, "data", backend="torch")

    results = run_all("torch", (nprocs,), make_mesh, None, path)
    if nprocs == 2 and "sharded_weight_2" not in results:
        _guarded(results, "sharded_weight_2", lambda: sharded_weight("torch", make_mesh(2)))
    if mode == "save":
        _guarded(results, "checkpoint_saved", lambda: checkpoint_save("torch", make_mesh(nprocs), path))
    else:
        _guarded(results, "checkpoint_loaded", lambda: checkpoint_load("torch", make_mesh(nprocs), path))
    results["rank"] = hd.distributed.process_index()
    _guarded(results, "with_mesh", lambda: with_mesh_block(make_mesh(nprocs)))
    return results


def with_mesh_block(mesh: Any) -> list:
    """torch, per rank: collectives on this rank's own tensor inside ``with mesh:``, no shard_map."""
    import torch

    with mesh:
        rank = int(D.axis_index("data"))
        mine = torch.full((2,), float(rank + 1))
        return [rank, _np(D.psum(mine, "data")).tolist(), _np(D.all_gather(mine, "data")).tolist()]


def multi_process_psum(backend: str) -> tuple[int, list]:
    """One process of a jax (``jax.distributed``) or tensorflow (``TF_CONFIG``) job of 2: a psum
    of the 2 row blocks of a ``(4, 2)`` array over a mesh that spans both processes."""
    mesh = D.Mesh(2, "data", backend=backend)
    x = hd.asarray(np.arange(8.0, dtype=np.float32).reshape(4, 2), backend=backend)
    f = D.shard_map(lambda b: D.psum(b, "data"), mesh, (P("data"),), P())
    return D.process_index(), _np(f(D.shard(x, mesh, P("data")))).tolist()


def torch_jit_step() -> list:
    """One rank: a data-parallel SGD step compiled with ``hd.jit`` (torch.compile) equals the eager one."""
    import torch

    mesh = D.Mesh(2, "data", backend="torch")

    def step(w: Any, x: Any) -> tuple:
        loss, g = hd.value_and_grad(lambda w, x: hd.sum(hd.matmul(x, w) ** 2))(w, x)
        return w - 0.1 * D.pmean(g, "data"), D.pmean(loss, "data")

    w, x = torch.ones(4, 3), torch.arange(16.0).reshape(4, 4) / 10
    eager = D.data_parallel(step, mesh, "data")(w, x)
    compiled = hd.jit(D.data_parallel(step, mesh, "data"))(w, x)
    return [_np(eager[0]), _np(compiled[0]), float(eager[1]), float(compiled[1])]


def raising_rank() -> None:
    """Rank 1 raises; rank 0 waits in a collective for it (and is ended by launch)."""
    import torch.distributed as dist

    if dist.get_rank() == 1:
        raise ValueError("rank one fails on purpose")
    dist.barrier()


def hanging_rank() -> None:
    """Rank 1 sleeps far longer than the launch timeout."""
    import torch.distributed as dist

    if dist.get_rank() == 1:
        time.sleep(600)
    return None


if __name__ == "__main__":
    which, out_path = sys.argv[1], sys.argv[2]
    if which == "tensorflow":
        import tensorflow as tf

        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * DEVICES)
    data = single_controller(which)
    with open(out_path, "wb") as f:
        pickle.dump(data, f)
