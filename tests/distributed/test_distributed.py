"""hedera.distributed on several devices: jax (forced CPU devices) and tensorflow (logical CPU
devices) each in one subprocess, torch as gloo jobs of 4 and 2 processes on 127.0.0.1.

Each job runs every scenario of ``_scenarios.py`` once (module-scoped fixtures); the tests
compare what came back with NumPy references and across backends.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the spawned torch ranks import _scenarios by this name too

import _scenarios as scenarios  # noqa: E402

import hedera as hd  # noqa: E402
from conftest import require_backend  # noqa: E402

S = scenarios

D, P = hd.distributed, hd.distributed.P
MULTI = ("torch", "jax", "tensorflow")
TOL = 1e-5


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(hd.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, str(HERE), env.get("PYTHONPATH", "")])
    env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", TF_NUM_INTRAOP_THREADS="1",
               TF_NUM_INTEROP_THREADS="1", TF_CPP_MIN_LOG_LEVEL="2")  # fmt: skip
    return env


def _single_controller(backend: str, tmp: Path) -> dict:
    env = _env()
    if backend == "jax":
        env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={S.DEVICES}"
    out = tmp / f"{backend}.pkl"
    proc = subprocess.run(
        [sys.executable, str(HERE / "_scenarios.py"), backend, str(out)],
        env=env, capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    with open(out, "rb") as f:
        return pickle.load(f)


def _run_jobs(backend: str, tmp: Path) -> dict:
    if backend != "torch":
        return _single_controller(backend, tmp)
    path = str(tmp / "torch_ckpt.safetensors")
    four = D.launch(S.torch_rank, 4, args=(4, path, "save"), timeout=400)
    two = D.launch(S.torch_rank, 2, args=(2, path, "load"), timeout=400)
    return {**four[0], **two[0], "ranks": {4: four, 2: two}}


@pytest.fixture(scope="module")
def results(tmp_path_factory, request):
    """Per backend, run on first use: the scenarios' results (torch: rank 0's, and every rank's).

    Under xdist the workers share them through this session's temporary root (a file lock per
    backend), so that each job runs once however the tests are spread.
    """
    from filelock import FileLock

    cache: dict[str, dict] = {}
    shared = hasattr(request.config, "workerinput")  # an xdist worker
    root = tmp_path_factory.getbasetemp().parent if shared else tmp_path_factory.mktemp("distributed")

    def get(backend: str) -> dict:
        require_backend(backend)
        if backend not in cache:
            stored = root / f"distributed_{backend}.pkl"
            with FileLock(str(stored) + ".lock"):
                if not stored.exists():
                    tmp = root / f"distributed_{backend}"
                    tmp.mkdir(exist_ok=True)
                    with open(stored, "wb") as f:
                        pickle.dump(_run_jobs(backend, tmp), f)
                with open(stored, "rb") as f:
                    cache[backend] = pickle.load(f)
        return cache[backend]

    return get


def _ok(r: dict, key: str):
    value = r[key]
    if isinstance(value, dict) and "__error__" in value:
        pytest.fail(f"scenario {key} failed:\n{value['__error__']}")
    return value


def _sizes(backend: str) -> tuple[int, ...]:
    return (2, 4)


# ---- collectives -------------------------------------------------------------------------------


def _reference(n: int) -> dict[str, np.ndarray]:
    """What each collective gives, from NumPy: the blocks are the input's n row blocks."""
    blocks = np.split(S.collective_input(n).astype(np.float64), n)
    total = np.sum(blocks, axis=0)
    parts = np.split(S.vector_input(n).astype(np.float64), n)
    return {
        "v_psum": np.sum(parts, axis=0),
        "v_pmax": np.max(parts, axis=0),
        "v_all_gather": np.stack(parts),
        "v_all_gather_tiled": np.concatenate(parts),
        "v_ppermute_ring": np.concatenate([parts[(i - 1) % n] for i in range(n)]),
        "psum": total,
        "pmean": total / n,
        "pmax": np.max(blocks, axis=0),
        "all_gather": np.stack(blocks),
        "all_gather_tiled": np.concatenate(blocks, axis=1),
        "reduce_scatter": total,  # device i keeps rows [2i, 2i+2) of the sum; assembled: all of it
        "ppermute_ring": np.concatenate([blocks[(i - 1) % n] for i in range(n)]),
        "ppermute_partial": np.concatenate([blocks[0] if i == n - 1 else 0 * blocks[0] for i in range(n)]),
        "axis_index": np.arange(n),
    }


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("backend", MULTI)
def test_collectives_match_numpy(results, backend, n):
    got = _ok(results(backend), f"collectives_{n}")
    assert list(got["axis_size"]) == [n]
    checked = 0
    for prefix in ("", "jit_"):
        for name, want in _reference(n).items():
            if prefix + name not in got:
                continue
            value = got[prefix + name]
            assert value.shape == want.shape, (prefix + name, value.shape, want.shape)
            np.testing.assert_allclose(value, want, rtol=1e-6, atol=1e-6, err_msg=prefix + name)
            checked += 1
    assert checked >= len(_reference(n))  # eager or compiled, every collective was seen


@pytest.mark.parametrize("n", [2, 4])
def test_collectives_agree_across_backends(results, n):
    runs = {b: _ok(results(b), f"collectives_{n}") for b in MULTI}
    for name in _reference(n):
        values = {b: r.get(name, r.get("jit_" + name)) for b, r in runs.items()}
        first = values["jax"]
        for b, v in values.items():
            np.testing.assert_allclose(v, first, rtol=1e-6, atol=1e-6, err_msg=f"{name}: {b} vs jax")


# ---- bad specs -----------------------------------------------------------------------------------

_EXPECTED = {
    "axis_not_in_mesh": ("InvalidArgumentError", ["shard", "'model'", "not in the mesh"]),
    "not_divisible": ("ShapeError", ["shard", "dimension 0", "not divisible", "'data'"]),
    "too_long": ("ShapeError", ["shard", "longer than the array's rank 2"]),
    "axis_twice": ("InvalidArgumentError", ["twice"]),
    "shard_map_not_divisible": ("ShapeError", ["shard_map", "in_specs", "not divisible"]),
    "collective_bad_axis": ("InvalidArgumentError", ["psum", "'model'", "not in the mesh"]),
    "reduce_scatter_not_divisible": ("ShapeError", ["reduce_scatter", "dimension 1", "not divisible"]),
    "outside_shard_map": ("InvalidArgumentError", ["psum", "no mesh is active"]),
    "data_parallel_bad_axis": ("InvalidArgumentError", ["data_parallel", "batch_axis 'model'"]),
}


@pytest.mark.parametrize("backend", MULTI)
def test_bad_specs_raise_the_same_clear_errors(results, backend):
    got = _ok(results(backend), "bad_specs_2")
    for case, (cls, words) in _EXPECTED.items():
        assert got[case] is not None, f"{case}: no error raised"
        name, message = got[case]
        assert name == cls, (case, name, message)
        for w in words:
            assert w in message, (case, w, message)
    assert issubclass(hd.errors.ShapeError, ValueError) and issubclass(hd.InvalidArgumentError, ValueError)


# ---- data-parallel training ----------------------------------------------------------------------


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
@pytest.mark.parametrize("backend", MULTI)
def test_data_parallel_equals_full_batch_training(results, backend, optimizer):
    r = results(backend)
    single = _ok(r, f"train_{optimizer}_1")
    assert single["losses"][-1] < single["losses"][0]  # it trains
    for n in _sizes(backend):
        dp = _ok(r, f"train_{optimizer}_{n}")
        for k, want in single["params"].items():
            np.testing.assert_allclose(dp["params"][k], want, rtol=0, atol=TOL, err_msg=f"{n} replicas, {k}")
        np.testing.assert_allclose(dp["losses"], single["losses"], rtol=0, atol=TOL)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_backends_train_the_same(results, optimizer):
    runs = {b: _ok(results(b), f"train_{optimizer}_4") for b in MULTI}
    for b, run in runs.items():
        for k, want in runs["jax"]["params"].items():
            np.testing.assert_allclose(run["params"][k], want, rtol=0, atol=TOL, err_msg=f"{b} vs jax, {k}")


def test_torch_collectives_inside_a_with_mesh_block(results):
    for n, ranks in results("torch")["ranks"].items():
        total = n * (n + 1) / 2
        for r in ranks:
            rank, summed, gathered = _ok(r, "with_mesh")
            assert rank == r["rank"] and summed == [total, total]
            assert gathered == [[i + 1.0, i + 1.0] for i in range(n)]


def test_torch_ranks_end_with_the_same_parameters(results):
    ranks = results("torch")["ranks"][4]
    for r in ranks[1:]:
        for k, want in ranks[0]["train_adam_4"]["params"].items():
            np.testing.assert_array_equal(r["train_adam_4"]["params"][k], want)


# ---- sharded weights -------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", MULTI)
def test_weight_split_on_its_first_dimension(results, backend):
    got = _ok(results(backend), "sharded_weight_2")
    w = np.random.default_rng(7).normal(size=(4, 6)).astype(np.float32)  # as the scenario draws it
    assert got["spec"] == "P('data', None)"
    np.testing.assert_array_equal(got["w"], w)
    assert set(got["local_shapes"]) == {(2, 6)}
    if backend == "jax":
        assert len(got["local_shapes"]) == 2 and got["native_spec"] == ("data", None)
    if backend == "torch":
        assert got["placements"] == "(Shard(dim=0),)"
        shapes = [r["sharded_weight_2"]["local_shapes"] for r in results("torch")["ranks"][2]]
        assert shapes == [[(2, 6)], [(2, 6)]]
    if backend == "tensorflow":
        name, message = got["shard_params_error"]
        assert name == "UnsupportedError" and "tensorflow" in message and "'w'" in message
        return
    np.testing.assert_allclose(got["matmul"], got["matmul_reference"], rtol=1e-5, atol=1e-5)
    assert got["layout_specs"] == {"w": "P('data', None)", "b": "P(None)"}


# ---- checkpoints ------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", MULTI)
def test_checkpoint_from_four_devices_loads_on_one_and_on_two(results, backend):
    r = results(backend)
    rng = np.random.default_rng(3)  # the arrays the scenario saved
    saved = {"w": rng.normal(size=(8, 6)).astype(np.float32), "b": rng.normal(size=(6,)).astype(np.float32)}
    if backend != "torch":
        for k, v in _ok(r, "checkpoint_saved").items():
            np.testing.assert_array_equal(v, saved[k])
    loaded = _ok(r, "checkpoint_loaded")
    for where in ("one_device", "on_mesh"):
        for k, v in saved.items():
            np.testing.assert_array_equal(loaded[where][k], v, err_msg=f"{where} {k}")
    if backend == "tensorflow":
        assert loaded["on_mesh_specs"] == {"w": "P(None, None)", "b": "P(None)"}
        np.testing.assert_array_equal(loaded["on_mesh"]["w_split"], saved["w"])
    else:
        assert loaded["on_mesh_specs"] == {"w": "P('data', None)", "b": "P(None)"}


# ---- numpy: one device -------------------------------------------------------------------------------


def test_numpy_mesh_of_one_device_runs_everything():
    mesh = D.Mesh(1, "data", backend="numpy")
    x = np.arange(6.0).reshape(3, 2)
    assert D.shard(x, mesh, P("data")) is x and D.spec_of(x) == P(None, None)
    np.testing.assert_array_equal(D.gather(x), x)

    def per_shard(b):
        assert D.axis_size("data") == 1 and int(D.axis_index("data")) == 0
        return D.psum(b, "data"), D.pmax(b, "data"), D.all_gather(b, "data"), D.ppermute(b, "data", [(0, 0)])

    s, m, g, p = D.shard_map(per_shard, mesh, (P("data"),), P("data"))(x)
    np.testing.assert_array_equal(s, x)
    np.testing.assert_array_equal(m, x)
    np.testing.assert_array_equal(g, x[None])
    np.testing.assert_array_equal(p, x)
    with pytest.raises(hd.errors.ShapeError, match="longer than the array's rank"):
        D.shard(x, mesh, P("data", None, None))


def test_numpy_mesh_larger_than_one_is_unsupported():
    with pytest.raises(hd.UnsupportedError, match="one-device backend"):
        D.Mesh(2, "data", backend="numpy")
    with pytest.raises(hd.UnsupportedError, match="one-device backend"):
        D.Mesh((1, 2), ("data", "model"), backend="numpy")


# ---- the front's own validation ------------------------------------------------------------------------


def test_mesh_and_spec_arguments_are_checked():
    with pytest.raises(hd.InvalidArgumentError, match="same length"):
        D.Mesh((1, 1), "data", backend="numpy")
    with pytest.raises(hd.InvalidArgumentError, match="distinct"):
        D.Mesh((1, 1), ("a", "a"), backend="numpy")
    with pytest.raises(hd.InvalidArgumentError, match="entry must be None"):
        P(3)
    with pytest.raises(hd.UnknownBackendError):
        D.Mesh(1, "data", backend="caffe")
    assert P("a", None) == P("a") == ("a",) and repr(P(("a", "b"))) == "P(('a', 'b'),)"


def test_layout_map_rules():
    layout = D.LayoutMap({r"dense/w$": P("model", None), r"w$": P(None, "model"), "head/w": P()})
    assert layout.spec_for("head/w") == P()  # an exact key wins
    assert layout.spec_for("layer/b") == P()  # no rule: replicated
    with pytest.raises(hd.InvalidArgumentError, match="matches several rules"):
        layout.spec_for("dense/w")
    with pytest.raises(hd.InvalidArgumentError, match="not a regular expression"):
        D.LayoutMap({"(": P()})


# ---- processes and faults --------------------------------------------------------------------------------


def _our_live_children() -> list[int]:
    """Live processes whose parent is this one, except multiprocessing's resource tracker."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] != "Z" and b"resource_tracker" not in cmdline:
            found.append(int(entry))
    return found


pytestmark_linux = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to find processes")


@pytestmark_linux
def test_a_rank_that_raises_fails_launch_with_its_traceback():
    require_backend("torch")
    before = set(_our_live_children())
    with pytest.raises(hd.errors.LaunchError) as info:
        D.launch(S.raising_rank, 2, timeout=120)
    err = info.value
    assert err.rank == 1
    assert "rank 1 raised ValueError: rank one fails on purpose" in str(err)
    assert "raising_rank" in err.remote_traceback and "Traceback" in str(err)
    assert multiprocessing.active_children() == []
    assert set(_our_live_children()) <= before


@pytestmark_linux
def test_a_hanging_rank_is_ended_after_the_timeout():
    require_backend("torch")
    before = set(_our_live_children())
    start = time.monotonic()
    # rank 0 is listed too when the machine is so loaded that it has not even started in 12 s
    late = r"ranks \[(0, )?1\] did not finish within the timeout of 12 s"
    with pytest.raises(hd.errors.LaunchError, match=late):
        D.launch(S.hanging_rank, 2, timeout=12)
    assert time.monotonic() - start < 60
    assert multiprocessing.active_children() == []
    assert set(_our_live_children()) <= before


@pytest.mark.parametrize("backend", ["jax", pytest.param("tensorflow", marks=pytest.mark.slow)])
def test_multi_process_jobs_of_jax_and_tensorflow(backend):
    """launch(..., backend=) starts a jax coordinator job / a TF_CONFIG MultiWorkerMirroredStrategy."""
    require_backend(backend)
    got = D.launch(S.multi_process_psum, 2, backend=backend, args=(backend,), timeout=300)
    want = [[4.0, 6.0], [8.0, 10.0]]  # rows [0:2] + rows [2:4] of arange(8).reshape(4, 2)
    assert got == [(0, want), (1, want)]
    assert multiprocessing.active_children() == []


@pytest.mark.slow  # torch.compile of a collective step: ~90 s on 2 shared cores
def test_torch_data_parallel_step_compiles_with_hd_jit():
    require_backend("torch")
    for eager_w, compiled_w, eager_loss, compiled_loss in D.launch(S.torch_jit_step, 2, timeout=600):
        np.testing.assert_allclose(compiled_w, eager_w, rtol=1e-6)
        assert abs(compiled_loss - eager_loss) <= 1e-5 * abs(eager_loss)


def test_initialize_joins_a_torchrun_job():
    """torchrun (``--standalone``: its rendezvous on this machine) starts 2 ranks that join with
    initialize(), which reads torchrun's variables."""
    require_backend("torch")
    torchrun = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    cmd = [*torchrun, str(HERE / "_torchrun_script.py")]
    proc = subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = sorted(line for line in proc.stdout.splitlines() if line.startswith("rank "))
    assert lines == ["rank 0 of 2: [2.0, 4.0]", "rank 1 of 2: [2.0, 4.0]"]  # [0, 1] + [2, 3]


def test_launch_arguments_are_checked():
    with pytest.raises(hd.InvalidArgumentError, match="nprocs"):
        D.launch(S.hanging_rank, 0)
    with pytest.raises(hd.UnknownBackendError):
        D.launch(S.hanging_rank, 2, backend="mpi")
    with pytest.raises(hd.InvalidArgumentError, match="torchrun"):
        env = {k: os.environ.pop(k) for k in ("RANK", "WORLD_SIZE") if k in os.environ}
        try:
            require_backend("torch")
            D.initialize("torch")
        finally:
            os.environ.update(env)
