"""Converters of ``hedera.interop``: what converting costs, and what the converted programs cost.

One section per converter (``CONVERTERS``); each measures its models and returns rows for the JSON
file and the report. The ``from_torch`` section, for each model of ``tests/interop/torch_models.py``
(random initialisation, small configurations):

* ``convert_s``: the conversion time (``torch.export`` + ``run_decompositions`` + code generation);
* ``eager_added_pct``: eager, what the program's forward adds over the same generated code with
  every ``hd.<name>`` replaced by the backend namespace's function (``hedera.backends.<fw>.sin``
  for ``hd.sin``: what calling the namespace directly costs), in percent, and per graph node in
  ns (the program binds the namespace itself when compiled for a backend, so this is the
  measurement's resolution); ``fronts_added_pct``: the same code through hedera's dispatching
  fronts; ``call_overhead_us``: the fixed cost of ``prog(params, *args)`` around its forward
  (flattening the arguments, the shape and dtype checks, the output structure);
* ``forward_ms`` / ``grad_ms``: time per forward and per gradient step (``hd.grad`` of a weighted
  sum of the outputs with respect to the parameters) under ``hd.jit`` on jax and tensorflow, next
  to torch eager and ``torch.compile`` on the same inputs (and torchax, when installed);
* program size under ``hd.jit`` for two models against a hand-lowered reference written directly
  in jax and tensorflow: jaxpr equations and TF graph operations.

Timings are the minimum of repeats, the variants timed in alternation (``benchlib.time_interleaved``);
the machine is shared, so the load average is recorded. Never asserted in tests.

Slow cells get fewer repeats: the eager rounds are cut to about ``EAGER_BUDGET_S`` of CPU time
per model and backend (at least 12). Each model is converted once and its program reused by
every measurement.

Usage::

    python benchmarks/interop.py            # full run: table, benchmarks/results/interop.json
    python benchmarks/interop.py --quick    # smoke mode (two small models; used by the tests)
    python benchmarks/interop.py --models bert,vit --update   # some models, merged into the file
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import importlib.util
import json
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import benchlib
import numpy as np

import hedera as hd

ROOT = Path(__file__).resolve().parents[1]
QUICK_MODELS = ("conv_transpose2d", "embedding")
COMPILED = ("jax", "tensorflow")
#: the backends whose eager cost is measured (the fronts matter most where the ops are cheapest)
EAGER = ("numpy", "torch", "jax", "tensorflow")
#: seconds the eager measurement of one model on one backend may take (fewer pairs if slow)
EAGER_BUDGET_S = 2.5
#: graph nodes of the chain of cheap ops (full run, quick run), and seconds per backend
CHAIN_NODES = {False: 400, True: 40}
CHAIN_BUDGET_S = 3.0


def _torch_models() -> dict[str, Callable[[], tuple]]:
    """The model zoo the tests use (tests/interop/torch_models.py), loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "torch_models", ROOT / "tests" / "interop" / "torch_models.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MODELS


# ---- from_torch ---------------------------------------------------------------------------------


def _forward_functions(prog: Any, backend: str) -> dict[str, Callable]:
    """``prog``'s generated function as the program runs it, and two rebuilds of the same code.

    ``direct``: the reference of the issue, the generated code and the op table's lowerings
    re-executed in a module of their own whose ``hd`` has every function of the backend namespace
    (``hedera.backends.<fw>.sin`` for ``hd.sin``; hedera's own for the names it lacks), so every
    call goes straight to ``hedera.backends.<fw>``. ``fronts``: the same code calling hedera's
    dispatching fronts (``hd.sin``), what the program would cost without binding the backend.
    """
    from hedera.interop import _aten

    ours = prog._compiled.get(backend) or prog._compile(backend)
    ns = hd.namespace(backend)
    direct = types.SimpleNamespace(**{n: getattr(hd, n) for n in dir(hd) if not n.startswith("__")})
    for name in dir(hd):
        if (
            not name.startswith("_")
            and callable(getattr(ns, name, None))
            and name not in ("asarray", "at", "dtype")
        ):
            setattr(direct, name, getattr(ns, name))
    lowerings = types.ModuleType("hedera_interop_aten_direct")
    sys.modules[lowerings.__name__] = lowerings  # dataclasses look their module up there
    source = Path(_aten.__file__).read_text()
    exec(compile(source, _aten.__file__, "exec"), lowerings.__dict__)
    lowerings.hd = direct
    lowerings.INT64_ON = _aten.INT64_ON
    out = {"hedera": ours}
    for variant, env_hd, env_aten in (("direct", direct, lowerings), ("fronts", hd, _aten)):
        env = dict(ours.__globals__)
        env.update({"hd": env_hd, "aten": env_aten})
        exec(prog._bytecode, env)
        out[variant] = env["forward"]
    return out


def _graph_nodes(prog: Any) -> int:
    return sum(1 for n in prog.exported_program.graph.nodes if n.op == "call_function")


def _cotangents(outputs: list) -> list:
    rng = np.random.default_rng(0)
    return [
        rng.standard_normal(tuple(o.shape)).astype(np.float32) if o.dtype.is_floating_point else None
        for o in outputs
    ]


def _hd_loss(prog: Any, cotangents: list, backend: str) -> Callable:
    from torch.utils import _pytree

    weights = [None if c is None else hd.asarray(c, backend=backend) for c in cotangents]

    def loss(params: Any, *inputs: Any) -> Any:
        total = 0.0
        for leaf, w in zip(_pytree.tree_leaves(prog(params, *inputs)), weights, strict=True):
            if w is not None:
                total = total + hd.sum(leaf * w)
        return total

    return loss


def _torch_step(module: Any, cotangents: list) -> Callable:
    import torch
    from torch.utils import _pytree

    weights = [None if c is None else torch.from_numpy(c) for c in cotangents]

    def step(*args: Any) -> Any:
        total = 0.0
        for leaf, w in zip(_pytree.tree_leaves(module(*args)), weights, strict=True):
            if w is not None:
                total = total + (leaf * w).sum()
        total.backward()
        return total

    return step


def _torch_forward(module: Any) -> Callable:
    import torch

    def forward(*args: Any) -> Any:
        with torch.no_grad():
            return module(*args)

    return forward


def _torchax(module: Any, args: tuple, cotangents: list) -> dict[str, Callable] | None:
    """torchax's forward and gradient, jitted (None when torchax is not importable here)."""
    try:
        import torchax
    except Exception:
        return None
    import jax
    import jax.numpy as jnp
    from torch.utils import _pytree

    weights, fn = torchax.extract_jax(module)
    inputs = tuple(jnp.asarray(a.numpy()) for a in args)
    cots = [None if c is None else jnp.asarray(c) for c in cotangents]
    # the parameters (floating); integer buffers (batch norm's count) are held fixed
    floating = {k for k, v in weights.items() if jnp.issubdtype(v.dtype, jnp.inexact)}

    def outputs(w: Any) -> list:  # transformers' ModelOutput classes are torch pytrees only
        return _pytree.tree_leaves(fn(w, inputs))

    def loss(float_w: dict, fixed: dict) -> Any:
        leaves = outputs({**fixed, **float_w})
        return sum(jnp.sum(leaf * c) for leaf, c in zip(leaves, cots, strict=False) if c is not None)

    float_w = {k: v for k, v in weights.items() if k in floating}
    fixed = {k: v for k, v in weights.items() if k not in floating}
    forward, gradient = jax.jit(outputs), jax.jit(jax.grad(loss))
    grad = functools.partial(gradient, fixed=fixed)
    weights_for_grad = float_w
    sync = jax.block_until_ready
    return {"forward": lambda: sync(forward(weights)), "grad": lambda: sync(grad(weights_for_grad))}


def _time(fns: dict[str, Callable], repeat: int, target_s: float) -> dict[str, float]:
    for fn in fns.values():
        fn()  # compile, warm up
    return {name: t[0] for name, t in benchlib.time_interleaved(fns, repeat, target_s).items()}


def from_torch_rows(
    models: list[str],
    backends: list[str],
    eager_backends: list[str],
    repeat: int,
    target_s: float,
    rounds: int,
    quick: bool,
) -> list[dict]:
    import torch
    from torch.utils import _pytree

    zoo = _torch_models()
    rows, later = [], []
    for name in models:
        module, args = zoo[name]()
        start = time.perf_counter()
        prog = hd.interop.from_torch(module, args)
        row: dict[str, Any] = {
            "converter": "from_torch",
            "model": name,
            "convert_s": time.perf_counter() - start,
            "graph_nodes": _graph_nodes(prog),
        }
        with torch.no_grad():
            outputs = _pytree.tree_leaves(module(*args))
        cotangents = _cotangents(outputs)
        torch_step = _torch_step(module, cotangents)
        phases = {"convert": row["convert_s"]}
        mark = time.perf_counter()
        compiled = torch.compile(module, backend="eager" if quick else "inductor")
        compiled_step = _torch_step(compiled, cotangents)
        times = _time(
            {
                "forward": functools.partial(_torch_forward(module), *args),
                "grad": functools.partial(torch_step, *args),
                "compile_forward": functools.partial(_torch_forward(compiled), *args),
                "compile_grad": functools.partial(compiled_step, *args),
            },
            repeat,
            target_s,
        )
        row["torch_eager_forward_ms"], row["torch_eager_grad_ms"] = (
            times["forward"] * 1e3,
            times["grad"] * 1e3,
        )
        row["torch_compile_forward_ms"] = times["compile_forward"] * 1e3
        row["torch_compile_grad_ms"] = times["compile_grad"] * 1e3
        phases["torch"], mark = time.perf_counter() - mark, time.perf_counter()
        for backend in backends:
            row.update(_compiled_times(prog, args, cotangents, backend, repeat, target_s))
            phases[f"{backend}_jit"], mark = time.perf_counter() - mark, time.perf_counter()
        for backend in eager_backends:
            row.update(_eager_added(prog, args, backend, rounds, EAGER_BUDGET_S))
            phases[f"{backend}_eager"], mark = time.perf_counter() - mark, time.perf_counter()
        row["phase_s"] = phases
        print(
            f"from_torch {name}: {time.perf_counter() - start:.1f} s "
            + " ".join(f"{k} {v:.1f}" for k, v in phases.items()),
            file=sys.stderr,
            flush=True,
        )
        rows.append(row)
        later.append((row, module, args, cotangents))
    # torchax last: once it has run, torch.compile fails in the same process ("PyTorch is not
    # linked with support for jax devices")
    for row, module, args, cotangents in later:
        try:
            torchax = None if quick else _torchax(module, args, cotangents)
            if torchax is not None:
                t = _time(torchax, repeat, target_s)
                row["torchax_forward_ms"], row["torchax_grad_ms"] = t["forward"] * 1e3, t["grad"] * 1e3
        except Exception as e:  # torchax 0.0.4 does not run every model
            row["torchax_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
    return rows


def _python_calls(fn: Callable[[], Any]) -> int:
    """Function calls (Python and C) that one call of ``fn`` makes: ``sys.setprofile``'s call events.

    A deterministic count: what a variant does per node, whatever the machine's load. The least
    of three counts after a warm-up call: first-call work (loading a module, a cache's first
    fill) is not the variant's.
    """
    fn()
    counts = []
    for _ in range(3):
        count = 0

        def profile(frame: Any, event: str, arg: Any) -> None:
            nonlocal count
            if event == "call" or event == "c_call":
                count += 1

        sys.setprofile(profile)
        try:
            fn()
        finally:
            sys.setprofile(None)
        counts.append(count - 1)  # the call of fn itself
    return min(counts)


def _paired_difference(a: Callable, b: Callable, budget_s: float) -> tuple[float, float, float]:
    """``(ns a costs more than b per call, its standard error, b's ns per call)``.

    Pairs of single calls back to back in random order (``benchlib.paired_call_difference_ns``:
    the 10%-trimmed mean of the within-pair differences); as many pairs as ``budget_s`` of wall
    time allows, 40 to 3000.
    """
    for _ in range(3):
        a(), b()
    start = time.perf_counter()
    b()
    one = time.perf_counter() - start
    pairs = int(min(3000, max(40, budget_s / (2 * max(one, 1e-7)))))
    diff, error = benchlib.paired_call_difference_ns("a()", "b()", {"a": a, "b": b}, pairs)
    times = []
    for _ in range(5):
        start = time.perf_counter_ns()
        b()
        times.append(time.perf_counter_ns() - start)
    return diff, error, float(np.median(times))


def _eager_added(prog: Any, args: tuple, backend: str, rounds: int, budget_s: float) -> dict:
    """What the program adds eager over the same generated code calling the backend namespace directly.

    Two measures of the same question. *Calls*: the function calls (Python and C) one forward
    makes, counted with ``sys.setprofile``, program minus reference, per graph node: deterministic,
    so real work per node shows as a nonzero count whatever the load. *Time*: pairs of single
    forwards, program and reference back to back in random order, the trimmed mean of the
    within-pair differences with its standard error (``_paired_difference``), as ns per node and
    as % of the reference's forward, with a 95% interval (1.96 standard errors). Before timing,
    the variants must give the same outputs (the reference is a real one, not a guess).
    ``call`` (the whole ``prog(params, *args)``: flattening, checks, output structure) and
    ``fronts`` (the same code through hedera's dispatching fronts) are timed in blocks
    (``benchlib.paired_block_times``, ``rounds`` rounds at most).
    """
    sync = benchlib.sync_for(backend)
    params = prog.parameters(backend=backend)
    inputs = [hd.asarray(a.numpy(), backend=backend) for a in args]
    forwards = _forward_functions(prog, backend)
    state = dict(params.items()) | dict(prog.buffers(backend=backend).items())
    consts = prog._constants_for(backend)

    def run(fn: Callable) -> Callable:
        def call() -> Any:
            with hd.use_backend(backend):
                return sync(fn(state, consts, inputs))

        return call

    variants = {name: run(forwards[name]) for name in ("hedera", "direct", "fronts")}
    variants["call"] = lambda: sync(prog(params, *inputs))
    want = variants["direct"]()[0]
    for name in ("hedera", "fronts"):
        for got, ref in zip(variants[name]()[0], want, strict=True):
            np.testing.assert_allclose(hd.to_numpy(got), hd.to_numpy(ref), rtol=1e-6, atol=1e-6)
    nodes = _graph_nodes(prog)
    calls = {name: _python_calls(variants[name]) for name in ("hedera", "direct")}
    diff_ns, error_ns, direct_ns = _paired_difference(variants["hedera"], variants["direct"], budget_s)
    block_s = 0.01 if rounds > 3 else 1e-4
    start = time.process_time()
    variants["hedera"]()
    one = max(time.process_time() - start, block_s)
    few = min(rounds, max(6, int(budget_s / 4 / (4 * one)))) if rounds > 3 else rounds
    per_call = benchlib.paired_block_times(
        {k: variants[k] for k in ("hedera", "direct", "call", "fronts")}, few, block_s=block_s
    )
    return {
        f"{backend}_eager_ms": per_call["hedera"] * 1e3,
        f"{backend}_direct_ms": direct_ns / 1e6,
        f"{backend}_eager_added_pct": diff_ns / direct_ns * 100,
        f"{backend}_eager_added_ci_pct": 1.96 * error_ns / direct_ns * 100,
        f"{backend}_added_ns_per_node": diff_ns / nodes,
        f"{backend}_added_ci_ns_per_node": 1.96 * error_ns / nodes,
        f"{backend}_calls_per_node": calls["direct"] / nodes,
        f"{backend}_added_calls": calls["hedera"] - calls["direct"],
        f"{backend}_call_overhead_us": (per_call["call"] - per_call["hedera"]) * 1e6,
        # a ratio of block medians: informative only
        f"{backend}_fronts_added_pct": (per_call["fronts"] / per_call["direct"] - 1) * 100,
        f"{backend}_eager_rounds": few,
    }


# ---- the per-node cost in isolation: a long chain of cheap ops ----------------------------------

#: the chain's ops, cycled: torch's op, and the backend namespace's function a hand translation calls
CHAIN_OPS = (
    ("sin", lambda x: x.sin(), "sin", ()),
    ("mul", lambda x: x * 0.5, "multiply", (0.5,)),
    ("add", lambda x: x + 1.0, "add", (1.0,)),
    ("unsqueeze+view", lambda x: x.unsqueeze(0).reshape(-1), None, ()),
)


def _chain(nodes: int) -> tuple[Callable, Callable]:
    """A torch function of ``nodes`` cheap ops on a 1-element tensor, and its translation by hand."""

    def fn(x: Any) -> Any:
        for i in range(nodes):
            x = CHAIN_OPS[i % len(CHAIN_OPS)][1](x)
        return x

    lines = ["def by_hand(x):"]
    for i in range(nodes):
        _, _, name, extra = CHAIN_OPS[i % len(CHAIN_OPS)]
        if name is None:  # what export records: unsqueeze then view
            lines += ["    x = ns.expand_dims(x, axis=0)", "    x = ns.reshape(x, (-1,))"]
        else:
            lines.append(f"    x = ns.{name}(x{''.join(f', {e!r}' for e in extra)})")
    lines.append("    return x")
    return fn, "\n".join(lines)


def chain_rows(eager_backends: list[str], nodes: int, budget_s: float) -> list[dict]:
    """The program's per-node cost where it dominates: a chain of cheap ops on one element.

    The reference is the chain written by hand as straight-line calls of the backend namespace's
    functions (``ns.sin(x)``, ``ns.multiply(x, 0.5)``...): no generated code, no op table. What
    the program adds over it per node is the whole cost of the conversion per node (the lowerings'
    frames, argument handling), on the cheapest ops there are.
    """
    import torch

    fn, source = _chain(nodes)
    x0 = torch.full((1,), 0.25)
    prog = hd.interop.from_torch(fn, (x0,))
    return [_chain_row(prog, x0, source, backend, budget_s) for backend in eager_backends]


def _chain_row(prog: Any, x0: Any, source: str, backend: str, budget_s: float) -> dict:
    sync = benchlib.sync_for(backend)
    scope = {"ns": hd.namespace(backend)}
    exec(source, scope)
    by_hand = scope["by_hand"]
    x = hd.asarray(x0.numpy(), backend=backend)
    forward = prog._compiled.get(backend) or prog._compile(backend)
    consts = prog._constants_for(backend)

    def program() -> Any:
        with hd.use_backend(backend):
            return sync(forward({}, consts, [x])[0][0])

    def reference() -> Any:
        with hd.use_backend(backend):
            return sync(by_hand(x))

    np.testing.assert_allclose(hd.to_numpy(program()), hd.to_numpy(reference()), rtol=1e-6)
    calls = {"program": _python_calls(program), "by_hand": _python_calls(reference)}
    diff_ns, error_ns, ref_ns = _paired_difference(program, reference, budget_s)
    nodes = _graph_nodes(prog)
    return {
        "backend": backend,
        "graph_nodes": nodes,
        "by_hand_us": ref_ns / 1e3,
        "added_ns_per_node": diff_ns / nodes,
        "added_ci_ns_per_node": 1.96 * error_ns / nodes,
        "added_pct": diff_ns / ref_ns * 100,
        "added_ci_pct": 1.96 * error_ns / ref_ns * 100,
        "added_calls_per_node": (calls["program"] - calls["by_hand"]) / nodes,
    }


def _compiled_times(
    prog: Any, args: tuple, cotangents: list, backend: str, repeat: int, target_s: float
) -> dict:
    """Forward and gradient step under ``hd.jit`` (jax.jit, tf.function)."""
    sync = benchlib.sync_for(backend)
    params = prog.parameters(backend=backend)
    inputs = [hd.asarray(a.numpy(), backend=backend) for a in args]
    forward = hd.jit(prog)
    grad = hd.jit(hd.grad(_hd_loss(prog, cotangents, backend)))
    jitted = _time(
        {"forward": lambda: sync(forward(params, *inputs)), "grad": lambda: sync(grad(params, *inputs))},
        repeat,
        target_s,
    )
    return {f"{backend}_forward_ms": jitted["forward"] * 1e3, f"{backend}_grad_ms": jitted["grad"] * 1e3}


# ---- program size against hand-lowered references -----------------------------------------------


def _size_models() -> dict[str, tuple]:
    """Two small models and their direct translations by hand, in jax and tensorflow."""
    import torch

    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4)).eval()
    cnn = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.Flatten(),
        torch.nn.Linear(4 * 6 * 6, 5),
    ).eval()
    return {
        "mlp": (mlp, (torch.randn(2, 8),), _mlp_jax, _mlp_tf),
        "cnn": (cnn, (torch.randn(2, 3, 6, 6),), _cnn_jax, _cnn_tf),
    }


def _mlp_jax(p: dict, x: Any) -> Any:
    import jax.numpy as jnp

    h = jnp.tanh(x @ p["0.weight"].T + p["0.bias"])
    return h @ p["2.weight"].T + p["2.bias"]


def _mlp_tf(p: dict, x: Any) -> Any:
    import tensorflow as tf

    h = tf.tanh(tf.matmul(x, p["0.weight"], transpose_b=True) + p["0.bias"])
    return tf.matmul(h, p["2.weight"], transpose_b=True) + p["2.bias"]


def _cnn_jax(p: dict, x: Any) -> Any:
    import jax

    y = (
        jax.lax.conv_general_dilated(x, p["0.weight"], (1, 1), [(1, 1), (1, 1)])
        + p["0.bias"][None, :, None, None]
    )
    y = jax.numpy.maximum(y, 0).reshape(x.shape[0], -1)
    return y @ p["3.weight"].T + p["3.bias"]


def _cnn_tf(p: dict, x: Any) -> Any:
    import tensorflow as tf

    w = tf.transpose(p["0.weight"], (2, 3, 1, 0))
    y = tf.nn.conv2d(tf.transpose(x, (0, 2, 3, 1)), w, 1, "SAME")  # NCHW convolution needs a GPU in TF
    y = tf.transpose(tf.nn.relu(y + p["0.bias"]), (0, 3, 1, 2))
    return tf.matmul(tf.reshape(y, (x.shape[0], -1)), p["3.weight"], transpose_b=True) + p["3.bias"]


def size_rows(backends: list[str]) -> list[dict]:
    rows = []
    for name, (module, args, by_hand_jax, by_hand_tf) in _size_models().items():
        prog = hd.interop.from_torch(module, args)
        row: dict[str, Any] = {"converter": "from_torch", "model": name, "graph_nodes": _graph_nodes(prog)}
        if "jax" in backends:
            import jax

            params = dict(prog.parameters(backend="jax").items())
            x = [hd.asarray(a.numpy(), backend="jax") for a in args]
            row["jaxpr_eqns"] = _count_eqns(jax.make_jaxpr(prog.__call__)(params, *x).jaxpr)
            row["jaxpr_eqns_by_hand"] = _count_eqns(jax.make_jaxpr(by_hand_jax)(params, *x).jaxpr)
        if "tensorflow" in backends:
            import tensorflow as tf

            params = dict(prog.parameters(backend="tensorflow").items())
            x = [hd.asarray(a.numpy(), backend="tensorflow") for a in args]
            row["tf_ops"] = _count_tf_ops(tf.function(prog.__call__, autograph=False), params, x)
            row["tf_ops_by_hand"] = _count_tf_ops(tf.function(by_hand_tf, autograph=False), params, x)
        rows.append(row)
    return rows


def _count_eqns(jaxpr: Any) -> int:
    """Equations of a jaxpr, those of nested jaxprs (pjit, custom_jvp) counted in place of their call."""
    total = 0
    for eqn in jaxpr.eqns:
        inner = [v for v in eqn.params.values() if hasattr(v, "jaxpr") or hasattr(v, "eqns")]
        if inner:
            total += sum(_count_eqns(getattr(v, "jaxpr", v)) for v in inner)
        else:
            total += 1
    return total


def _count_tf_ops(fn: Any, params: dict, inputs: list) -> int:
    graph = fn.get_concrete_function(params, *inputs).graph
    skip = {"Placeholder", "NoOp", "Identity", "Const"}
    return sum(1 for op in graph.get_operations() if op.type not in skip)


# ---- the converters -----------------------------------------------------------------------------

#: converter -> function(args) returning its rows; interop-jax's from_jax adds its own entry here
CONVERTERS: dict[str, Callable[[argparse.Namespace], dict[str, list[dict]]]] = {}


def _from_torch(args: argparse.Namespace) -> dict[str, list[dict]]:
    if importlib.util.find_spec("torch") is None:
        return {"models": [], "size": []}
    zoo = list(_torch_models())
    models = (
        list(QUICK_MODELS) if args.quick else [m for m in (args.models.split(",") if args.models else zoo)]
    )
    chosen = args.backends.split(",")
    backends = [b for b in chosen if b in COMPILED]
    eager_backends = [
        b for b in (args.eager_backends.split(",") if args.eager_backends else chosen) if b in EAGER
    ]
    repeat, target_s, rounds = (1, 1e-3, 3) if args.quick else (5, 0.02, args.rounds)
    return {
        "models": from_torch_rows(models, backends, eager_backends, repeat, target_s, rounds, args.quick),
        "size": [] if args.skip_sizes else size_rows(backends),
        "chain": chain_rows(eager_backends, CHAIN_NODES[args.quick], 0.05 if args.quick else CHAIN_BUDGET_S),
    }


CONVERTERS["from_torch"] = _from_torch


def _time_table(rows: list[dict]) -> list[str]:
    """Conversion time, forward and gradient step: torch eager, torch.compile, hd.jit on each backend."""
    backends = [b for b in COMPILED if any(f"{b}_forward_ms" in r for r in rows)]
    head = "| model | nodes | convert (s) | torch fwd / grad (ms) | torch.compile fwd / grad |"
    sep = "|---|---:|---:|---:|---:|"
    for b in backends:
        head += f" {b} hd.jit fwd / grad |"
        sep += "---:|"
    lines = [head, sep]
    for r in rows:
        line = (
            f"| {r['model']} | {r['graph_nodes']} | {r['convert_s']:.2f} | "
            f"{r['torch_eager_forward_ms']:.3f} / {r['torch_eager_grad_ms']:.3f} | "
            f"{r['torch_compile_forward_ms']:.3f} / {r['torch_compile_grad_ms']:.3f} |"
        )
        for b in backends:
            line += f" {r[f'{b}_forward_ms']:.3f} / {r[f'{b}_grad_ms']:.3f} |"
        lines.append(line)
    return lines


def _eager_table(rows: list[dict]) -> list[str]:
    """Eager, per model and backend: the forward's time and what the program adds over the namespace."""
    backends = [b for b in EAGER if any(f"{b}_eager_added_pct" in r for r in rows)]
    lines = [
        "| model | backend | nodes | eager ms | added (%, 95% CI) | added ns/node (95% CI) | calls/node "
        "| added calls | call µs | through fronts (%) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        for b in backends:
            if f"{b}_eager_added_pct" not in r:
                continue
            fronts = r.get(f"{b}_fronts_added_pct")
            lines.append(
                f"| {r['model']} | {b} | {r['graph_nodes']} | {r[f'{b}_eager_ms']:.3f} | "
                f"{_pm(r, f'{b}_eager_added_pct', f'{b}_eager_added_ci_pct', 2)} | "
                f"{_pm(r, f'{b}_added_ns_per_node', f'{b}_added_ci_ns_per_node', 0)} | "
                f"{r.get(f'{b}_calls_per_node', float('nan')):.1f} | {r.get(f'{b}_added_calls', '-')} | "
                f"{r[f'{b}_call_overhead_us']:.0f} | "
                f"{'-' if fronts is None else f'{fronts:+.2f}'} |"
            )
    added = [
        (
            r[f"{b}_eager_added_pct"] + r.get(f"{b}_eager_added_ci_pct", 0.0),
            r[f"{b}_eager_added_pct"],
            r.get(f"{b}_eager_added_ci_pct", float("nan")),
            r["model"],
            b,
        )
        for r in rows
        for b in backends
        if f"{b}_eager_added_pct" in r
    ]
    if added:
        _, pct, ci, model, backend = max(added)
        extra = sorted({r.get(f"{b}_added_calls") for r in rows for b in backends} - {None})
        lines += [
            "",
            f"Largest upper end of the 95% interval: {pct:+.2f} ± {ci:.2f}% ({model}, {backend}; "
            f"target: at most 2%). Calls the program makes beyond the reference's, per forward: "
            f"{', '.join(str(e) for e in extra) or '-'}.",
        ]
    return lines


def _pm(row: dict, key: str, ci_key: str, digits: int) -> str:
    """``+1.23 ± 0.45``: a row's estimate and the half-width of its 95% interval (older files: none)."""
    ci = row.get(ci_key)
    return f"{row[key]:+.{digits}f}" + ("" if ci is None else f" ± {ci:.{digits}f}")


def _chain_table(rows: list[dict]) -> list[str]:
    lines = [
        "| backend | nodes | by hand (µs) | added ns/node (95% CI) | added (%, 95% CI) | added calls/node |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['backend']} | {r['graph_nodes']} | {r['by_hand_us']:.1f} | "
            f"{r['added_ns_per_node']:+.1f} ± {r['added_ci_ns_per_node']:.1f} | "
            f"{r['added_pct']:+.2f} ± {r['added_ci_pct']:.2f} | {r['added_calls_per_node']:.2f} |"
        )
    return lines


def tables(result: dict) -> str:
    lines = []
    torch_part = result.get("from_torch") or {}
    if torch_part.get("models"):
        lines += [*_time_table(torch_part["models"]), "", *_eager_table(torch_part["models"])]
        if any("torchax_forward_ms" in r or "torchax_error" in r for r in torch_part["models"]):
            lines += ["", "| model | torchax fwd / grad (ms, jax.jit) |", "|---|---:|"]
            for r in torch_part["models"]:
                if "torchax_forward_ms" in r:
                    lines.append(
                        f"| {r['model']} | {r['torchax_forward_ms']:.3f} / {r['torchax_grad_ms']:.3f} |"
                    )
                elif "torchax_error" in r:
                    lines.append(f"| {r['model']} | fails: {r['torchax_error']} |")
    if torch_part.get("chain"):
        lines += ["", *_chain_table(torch_part["chain"])]
    if torch_part.get("size"):
        lines += [
            "",
            "| model | nodes | jaxpr eqns (by hand) | TF graph ops (by hand) |",
            "|---|---:|---:|---:|",
        ]
        for r in torch_part["size"]:
            lines.append(
                f"| {r['model']} | {r['graph_nodes']} | "
                f"{r.get('jaxpr_eqns', '-')} ({r.get('jaxpr_eqns_by_hand', '-')}) "
                f"| {r.get('tf_ops', '-')} ({r.get('tf_ops_by_hand', '-')}) |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    installed = [b for b in COMPILED if b in hd.available_backends()]
    parser.add_argument("--backends", default=",".join(installed))
    parser.add_argument(
        "--eager-backends",
        default=",".join(b for b in EAGER if b in hd.available_backends()),
        help="backends of the eager added-cost measurement (default: every installed one)",
    )
    parser.add_argument("--rounds", type=int, default=40, help="rounds of the paired eager measurement")
    parser.add_argument("--models", default="", help="comma-separated from_torch models (default: all)")
    parser.add_argument("--converters", default=",".join(CONVERTERS))
    parser.add_argument("--quick", action="store_true", help="smoke mode: two small models, tiny timings")
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "interop.json")
    parser.add_argument(
        "--skip-sizes", action="store_true", help="leave out the program-size table (two small models)"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="merge into the existing output file: its rows of other models are kept (a full run "
        "split into several processes with --models)",
    )
    args = parser.parse_args(argv)
    result: dict[str, Any] = {**benchlib.header(args.quick)}
    for name in args.converters.split(","):
        if name in CONVERTERS:
            result[name] = CONVERTERS[name](args)
    result["torchax"] = _torchax_status(args.quick)
    result["parts"] = [_part(result)]
    if args.update and args.output.exists():
        result = _merged(json.loads(args.output.read_text()), result)
    print(tables(result))
    benchlib.write_json(args.output, result)
    print(f"\nwrote {args.output}")
    return 0


def _part(result: dict) -> dict:
    """When and under what load this process measured which models (a merged file has several)."""
    models = [r["model"] for r in (result.get("from_torch") or {}).get("models", [])]
    return {"date": result["date"], "load_average": result["machine"]["load_average"], "models": models}


def _merged(old: dict, new: dict) -> dict:
    """``new`` with ``old``'s rows of the models ``new`` did not measure, in the zoo's order."""
    order = {name: i for i, name in enumerate(_torch_models())}
    merged = dict(new)
    for converter in CONVERTERS:
        if converter not in old or converter not in new:
            continue
        fresh = {r["model"] for r in new[converter]["models"]}
        rows = new[converter]["models"] + [r for r in old[converter]["models"] if r["model"] not in fresh]
        merged[converter] = {
            **new[converter],
            "models": sorted(rows, key=lambda r: order.get(r["model"], len(order))),
            "size": new[converter]["size"] or old[converter].get("size", []),
            "chain": new[converter].get("chain") or old[converter].get("chain", []),
        }
    merged["parts"] = [*old.get("parts", []), *new["parts"]]
    return merged


def _torchax_status(quick: bool) -> str:
    """torchax's version, or why it is not measured. Never imports it in quick mode: importing
    torchax breaks torch.compile for the rest of the process (the smoke test runs in pytest's)."""
    try:
        version = importlib.metadata.version("torchax")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
    if quick:
        return f"torchax {version} installed, not run in quick mode"
    try:
        import torchax  # noqa: F401
    except Exception as e:  # 0.0.5-0.0.13 fail at import with torch 2.13
        return f"torchax {version} not importable: {type(e).__name__}: {str(e)[:200]}"
    return f"torchax {version}"


if __name__ == "__main__":
    sys.exit(main())
