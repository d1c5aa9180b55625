"""Library-level overhead of hedera's dispatch (the paper's RQ3), eager and compiled.

For every public function of ``hedera.mech``, ``hedera.vision``, ``hedera.robot`` and
``hedera.gym`` (discovered from each library's ``__all__``; a library not installed yet is
reported as missing), on inputs of the sizes the demos use (``library_inputs.py``), this
times the hedera call against two baselines:

(a) **dispatch bypassed**: the same library function with every ``hd.*`` call bound straight
    to the backend namespace. Mechanism: each library module reads hedera through its
    module-level global ``hd`` (``import hedera as hd``); for the bypassed run that global is
    replaced, in every module of the four libraries, by a plain module object whose attributes
    are hedera's, except that each *dispatching front* function (every name of the generated
    front, ``hd.linalg.*`` and ``hd.fft.*``) is the backend namespace's function itself
    (``hedera.backends.torch.sin`` instead of ``hd.sin``). Attribute lookups cost the same as
    on the real module, so the difference between the two runs is hedera's per-call dispatch
    (type lookup, call-through, error wrapper) and nothing else. The globals are restored
    afterwards; library code is not changed. Operators (``x * y``) and manual fronts
    (``hd.asarray``, ``hd.finfo``...) are native or identical in both runs.
(b) **native**: for a subset of functions, implementations written directly in torch and in
    jax (``benchmarks/native/``), checked against the hedera result before they are timed.

Both eager and compiled: the compiled runs wrap the call (array arguments as inputs, the rest
closed over) in ``hd.jit`` (torch.compile, jax.jit, tf.function), the bypassed one traced with
the bypass in place. NumPy has no compiler. For jax and tensorflow the report also checks
whether the two compiled programs are identical (they should be: dispatch runs at trace time).

Overhead % = (hedera - baseline) / baseline * 100, from the minimum over interleaved repeats
(``benchlib.time_interleaved``). The per-call dispatch cost explains a miss: the number of
``hd.*`` front calls one library call makes is counted, and the report shows the added time
per front call next to the work per front call.

Usage::

    python benchmarks/library_overhead.py                  # full run -> results/library_overhead.json
    python benchmarks/library_overhead.py --quick          # smoke mode (used by the tests)
    python benchmarks/library_overhead.py --libraries mech --backends torch,jax
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import inspect
import json
import statistics
import sys
import time
import traceback
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib
import library_inputs

import hedera as hd
import hedera._front as _front
from hedera import _api

LIBRARIES = ("mech", "vision", "robot", "gym")
COMPILERS = ("torch", "jax", "tensorflow")  # numpy: hd.jit runs the function as it is
NATIVE_FRAMEWORKS = ("torch", "jax")


# ---- (a) the bypass: hd with its dispatching fronts bound to the backend namespace ----------------


def _front_names() -> dict[str, list[str]]:
    """The dispatching front functions: ``hd.<name>``, ``hd.linalg.<name>``, ``hd.fft.<name>``."""
    return {"": list(_front.__all__), "linalg": list(hd.linalg.__all__), "fft": list(hd.fft.__all__)}


def bypass_module(backend: str, counter: Counter | None = None) -> types.ModuleType:
    """A stand-in for ``hedera`` whose dispatching fronts are ``backend``'s namespace functions.

    With ``counter``, the fronts are hedera's own, wrapped to count calls by name instead (used
    once per function to count how many dispatches one library call makes).
    """
    ns = hd.namespace(backend)
    with_backend = _fronts_with_backend()
    proxy = types.ModuleType("hedera")
    proxy.__dict__.update({k: v for k, v in vars(hd).items() if not k.startswith("__")})
    for sub, names in _front_names().items():
        source = getattr(hd, sub) if sub else hd
        target = types.ModuleType(f"hedera.{sub}") if sub else proxy
        if sub:
            target.__dict__.update(vars(source))
            setattr(proxy, sub, target)
        for name in names:
            if counter is None:
                fn = getattr(getattr(ns, sub) if sub else ns, name)
                if name in with_backend:
                    fn = _dropping_backend(fn)
            else:
                fn = _counting(getattr(source, name), f"{sub}.{name}" if sub else name, counter)
            setattr(target, name, fn)
    return proxy


def _fronts_with_backend() -> frozenset[str]:
    """The fronts without array arguments that take ``backend=`` (``hd.arange(n, backend=...)``)."""
    return frozenset(f.name for f in _api.FUNCTIONS if f.namespace == "core" and "backend" in f.param_names)


def _dropping_backend(fn: Callable) -> Callable:
    """``fn`` (a namespace function) called as its front is: the library's ``backend=`` names the
    backend being measured, whose namespace ``fn`` is already, so it is dropped. The one Python
    call this adds is part of the baseline: these calls' overhead is understated by it."""

    def call(*args: Any, backend: Any = None, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return call


def _counting(fn: Callable, name: str, counter: Counter) -> Callable:
    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[name] += 1
        return fn(*args, **kwargs)

    return counted


_modules_cache: tuple[int, list[types.ModuleType]] = (-1, [])


def _library_modules() -> list[types.ModuleType]:
    """Every loaded module of the four libraries that reads hedera through a global ``hd``.

    Cached while ``sys.modules`` keeps its size: scanning thousands of modules right before a
    timed window would evict the caches and slow that window down (measurably, at 5 ms).
    """
    global _modules_cache
    if _modules_cache[0] != len(sys.modules):
        prefixes = tuple(f"hedera.{lib}" for lib in LIBRARIES)
        found = [
            m
            for name, m in list(sys.modules.items())
            if name.startswith(prefixes) and isinstance(getattr(m, "hd", None), types.ModuleType)
        ]
        _modules_cache = (len(sys.modules), found)
    return _modules_cache[1]


@contextlib.contextmanager
def patched_hd(proxy: types.ModuleType) -> Iterator[None]:
    """Replace the global ``hd`` of every library module by ``proxy``; restore it afterwards."""
    modules = _library_modules()
    for m in modules:
        m.hd = proxy  # the real hd too, for the hedera variant: both pay the same context cost
    try:
        yield
    finally:
        for m in modules:
            m.hd = hd


# ---- discovery and calls -------------------------------------------------------------------------


def discover(library: str) -> tuple[types.ModuleType | None, dict[str, Callable], str]:
    """(module, {name: callable}, why missing): every name in the library's ``__all__``.

    A public class with an instance factory in ``library_inputs.instances`` contributes its
    public methods, bound to that instance, as ``Class.method``; other classes are listed
    under their own name (and reported as skipped, with the reason).
    """
    try:
        module = importlib.import_module(f"hedera.{library}")
    except ImportError as e:
        return None, {}, f"not installed ({e})"
    names = list(getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]))
    factories = library_inputs.instances(library)
    found: dict[str, Callable] = {}
    for name in names:
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType):
            continue  # a submodule re-exported by name (its functions are listed themselves)
        factory = factories.get(name)
        if inspect.isclass(obj) and callable(factory):
            instance = factory()
            for attr, value in vars(obj).items():
                if not attr.startswith("_") and inspect.isfunction(value):
                    found[f"{name}.{attr}"] = getattr(instance, attr)
            for base in obj.__mro__[1:]:  # inherited public methods
                for attr, value in vars(base).items():
                    key = f"{name}.{attr}"
                    if not attr.startswith("_") and inspect.isfunction(value) and key not in found:
                        found[key] = getattr(instance, attr)
        else:
            found[name] = obj
    return module, found, ""


def split_call(fn: Callable, kwargs: dict[str, Any]) -> tuple[Callable, tuple]:
    """``(f, arrays)``: ``f(*arrays)`` is ``fn(**kwargs)``, the non-array arguments closed over."""
    array_names = [k for k, v in kwargs.items() if not library_inputs.is_static(v)]
    static = {k: v for k, v in kwargs.items() if k not in array_names}

    def call(*arrays: Any) -> Any:
        return fn(**static, **dict(zip(array_names, arrays, strict=True)))

    return with_own_code(call), tuple(kwargs[k] for k in array_names)


def with_own_code(f: Callable) -> Callable:
    """A copy of function ``f`` with a code object of its own.

    torch.compile keeps its compiled code and guards per *code object*, and gives up compiling
    a code object after ``torch._dynamo.config.recompile_limit`` (8) entries. Every closure made
    by one ``def`` shares that ``def``'s code object: without a copy, the compiled variants of every
    function benchmarked here would pile up on one code object (each call checking the others'
    guards, and past 8 running eagerly), and the hedera and bypassed variants of one function
    would check each other's guards.
    """
    copy = types.FunctionType(f.__code__.replace(), f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    copy.__kwdefaults__ = f.__kwdefaults__
    return copy


def _leaves(out: Any) -> list[np.ndarray]:
    leaves = hd.tree.leaves(out) if not hasattr(out, "shape") else [out]
    return [np.asarray(hd.to_numpy(v)) for v in leaves if v is not None and hasattr(v, "shape")]


def same_values(a: Any, b: Any, rtol: float = 1e-4, atol: float = 1e-4) -> bool:
    """Equal shapes and values, within float32 rounding (``atol`` relative to the largest value)."""
    la, lb = _leaves(a), _leaves(b)
    return len(la) == len(lb) and all(
        x.shape == y.shape and np.allclose(x, y, rtol=rtol, atol=atol * _scale(y), equal_nan=True)
        for x, y in zip(la, lb, strict=True)
    )


def _scale(x: np.ndarray) -> float:
    finite = np.abs(x[np.isfinite(x)]) if x.dtype.kind in "fc" else np.abs(x)
    return max(1.0, float(np.max(finite, initial=0)))


# ---- timing ---------------------------------------------------------------------------------------


@dataclass
class Timing:
    min_s: float
    median_s: float


#: the clock of the timings: "cpu" (process CPU time, all threads) or "wall"
CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCK["cpu"]


def time_variants(
    variants: dict[str, tuple[Callable[[], Any], Callable[[], Any]]], repeat: int, target_s: float
) -> dict[str, Timing]:
    """Time ``{name: (call, context factory)}`` in alternation, each repeat inside its context.

    The default clock is the process's CPU time: on a machine shared with other jobs, time spent
    descheduled is not counted, which removes most of the noise that wall-clock timings show
    there (other jobs still disturb the caches). Timings are per call, min and median of
    ``repeat`` runs of about ``target_s`` seconds each, the variants alternating (and their
    order reversed every other repeat, so that none always runs first).
    """
    with variants[next(iter(variants))][1]():
        number = benchlib.calibrate(variants[next(iter(variants))][0], target_s)
    runs: dict[str, list[float]] = {name: [] for name in variants}
    order = list(variants.items())
    for i in range(repeat):
        for name, (call, context) in order if i % 2 == 0 else order[::-1]:
            with context():
                start = clock()
                for _ in range(number):
                    call()
                runs[name].append((clock() - start) / number)
    return {name: Timing(min(r), statistics.median(r)) for name, r in runs.items()}


def dispatch_cost_ns(backend: str, pairs: int) -> float:
    """hedera's per-call dispatch cost on ``backend``: ``hd.f`` minus the namespace's ``f``, in ns.

    The median over a few one-element calls (unary, binary, reduction, matmul); this is the
    cost each ``hd.*`` front call in a library function adds.
    """
    return statistics.median(_dispatch_costs(backend, SINGLE_ARRAY_PROBES, pairs))


def sequence_dispatch_cost_ns(backend: str, pairs: int) -> float:
    """The same for the fronts that take a sequence of arrays (``hd.stack([...])``, ``hd.concat``):
    they find the backend from the sequence's elements, a slower path than ``type(x)``."""
    return statistics.median(_dispatch_costs(backend, SEQUENCE_PROBES, pairs))


SINGLE_ARRAY_PROBES = ("sin", "add", "sum", "matmul")
SEQUENCE_PROBES = ("stack", "concat")
#: fronts whose array argument is a sequence of arrays
SEQUENCE_FRONTS = frozenset({"stack", "concat", "meshgrid", "broadcast_arrays", "result_type"})


def _dispatch_costs(backend: str, names: tuple[str, ...], pairs: int) -> list[float]:
    ns = hd.namespace(backend)
    x = hd.asarray(np.ones((1, 1), np.float32), backend=backend)
    sync = benchlib.sync_for(backend)
    costs = []
    for name in names:
        call_args = ([x, x],) if name in SEQUENCE_FRONTS else (x, x) if name in ("add", "matmul") else (x,)
        env = {"f": getattr(hd, name), "g": getattr(ns, name), "a": call_args, "sync": sync}
        costs.append(benchlib.paired_call_difference_ns("sync(f(*a))", "sync(g(*a))", env, pairs)[0])
    return costs


@dataclass
class Row:
    library: str
    function: str
    backend: str
    mode: str  # "eager" or "compiled"
    hedera_min_us: float | None = None
    hedera_median_us: float | None = None
    bypass_min_us: float | None = None
    bypass_median_us: float | None = None
    overhead_pct: float | None = None  # (hedera - bypass) / bypass, minima
    overhead_median_pct: float | None = None  # the same from the medians
    front_calls: int | None = None  # hd.* dispatches per library call
    front_calls_by_name: dict[str, int] | None = None
    added_ns_per_front_call: float | None = None
    predicted_pct: float | None = None  # front_calls x dispatch cost / bypass time
    same_program: bool | None = None  # compiled: the two traced programs are identical
    skipped: str | None = None
    why: str | None = None  # why a target is missed


@dataclass
class NativeRow:
    library: str
    function: str
    framework: str
    mode: str
    equal: bool
    native_min_us: float
    hedera_min_us: float
    overhead_pct: float  # (hedera - native) / native


@dataclass
class State:
    rows: list[Row] = field(default_factory=list)
    native: list[NativeRow] = field(default_factory=list)
    native_checks: dict[str, dict[str, dict[str, bool]]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    functions: dict[str, list[str]] = field(default_factory=dict)


def _pct(a: float, b: float) -> float:
    return (a - b) / b * 100.0


def measure_eager(library: str, name: str, fn: Callable, backend: str, args: argparse.Namespace) -> Row:
    row = Row(library, name, backend, "eager")
    try:
        kwargs = library_inputs.inputs(library, name, fn, backend)
    except library_inputs.Skip as e:
        row.skipped = str(e)
        return row
    sync = benchlib.sync_for(backend)
    counter: Counter = Counter()
    try:
        with hd.use_backend(backend):
            expected = fn(**kwargs)
            with patched_hd(bypass_module(backend, counter)):
                fn(**kwargs)
            with patched_hd(bypass_module(backend)):
                bypassed = fn(**kwargs)
            if not same_values(expected, bypassed, 0, 0):
                row.skipped = "the bypassed call gave a different result"
                return row
            proxy = bypass_module(backend)
            times = time_variants(
                {
                    "hedera": (lambda: sync(fn(**kwargs)), lambda: patched_hd(hd)),
                    "bypass": (lambda: sync(fn(**kwargs)), lambda: patched_hd(proxy)),
                },
                args.repeat,
                args.target_s,
            )
    except Exception as e:  # a function that fails on this backend is reported, not fatal
        row.skipped = f"failed: {type(e).__name__}: {str(e)[:200]}"
        return row
    row.front_calls_by_name = dict(counter)
    _fill(row, times, sum(counter.values()))
    return row


def _fill(row: Row, times: dict[str, Timing], front_calls: int | None) -> None:
    h, b = times["hedera"], times["bypass"]
    row.hedera_min_us, row.hedera_median_us = h.min_s * 1e6, h.median_s * 1e6
    row.bypass_min_us, row.bypass_median_us = b.min_s * 1e6, b.median_s * 1e6
    row.overhead_pct = _pct(h.min_s, b.min_s)
    row.overhead_median_pct = _pct(h.median_s, b.median_s)
    row.front_calls = front_calls
    if front_calls:
        row.added_ns_per_front_call = (h.min_s - b.min_s) * 1e9 / front_calls
        row.predicted_pct = _predicted_ns(row) / (b.min_s * 1e9) * 100
    elif front_calls == 0:
        row.predicted_pct = 0.0


def _predicted_ns(row: Row) -> float:
    """The dispatch time one library call should add: its front calls times their per-call cost."""
    by_name = row.front_calls_by_name or {}
    sequence = sum(n for name, n in by_name.items() if name in SEQUENCE_FRONTS)
    single = (row.front_calls or 0) - sequence
    return single * DISPATCH_NS.get(row.backend, 0.0) + sequence * SEQUENCE_DISPATCH_NS.get(row.backend, 0.0)


#: backend -> per-call dispatch cost in ns (dispatch_cost_ns), measured at the start of a run
DISPATCH_NS: dict[str, float] = {}
#: the same for fronts taking a sequence of arrays (sequence_dispatch_cost_ns)
SEQUENCE_DISPATCH_NS: dict[str, float] = {}


def _same_program(backend: str, call: Callable, arrays: tuple, proxy: types.ModuleType) -> bool | None:
    """Whether jax/tensorflow trace the same program with and without the bypass."""
    try:
        if backend == "jax":
            import jax

            def text() -> str:
                return jax.jit(call).lower(*arrays).as_text()

        elif backend == "tensorflow":
            import tensorflow as tf

            def text() -> str:
                graph = tf.function(call).get_concrete_function(*arrays).graph
                return "\n".join(op.type for op in graph.get_operations())

        else:
            return None
        with hd.use_backend(backend):
            plain = text()
            with patched_hd(proxy):
                bypassed = text()
        return plain == bypassed
    except Exception:
        return None


def measure_compiled(library: str, name: str, fn: Callable, backend: str, args: argparse.Namespace) -> Row:
    row = Row(library, name, backend, "compiled")
    try:
        kwargs = library_inputs.inputs(library, name, fn, backend)
    except library_inputs.Skip as e:
        row.skipped = str(e)
        return row
    sync = benchlib.sync_for(backend)
    call, arrays = split_call(fn, kwargs)
    proxy = bypass_module(backend)
    jitted_hd, jitted_bypass = hd.jit(call), hd.jit(with_own_code(call))
    try:
        with hd.use_backend(backend):
            for _ in range(3):  # compile, and settle torch's recompilation/guards
                expected = sync(jitted_hd(*arrays))
                with patched_hd(proxy):
                    bypassed = sync(jitted_bypass(*arrays))
            if not same_values(expected, bypassed):
                row.skipped = "the compiled bypassed call gave a different result"
                return row
            times = time_variants(
                {
                    "hedera": (lambda: sync(jitted_hd(*arrays)), lambda: patched_hd(hd)),
                    "bypass": (lambda: sync(jitted_bypass(*arrays)), lambda: patched_hd(proxy)),
                },
                args.repeat,
                args.target_s,
            )
    except Exception as e:
        row.skipped = f"failed: {type(e).__name__}: {str(e)[:200]}"
        return row
    _fill(row, times, None)
    row.same_program = _same_program(backend, call, arrays, proxy)
    return row


# ---- (b) native implementations ----------------------------------------------------------------


def native_functions(framework: str, library: str) -> dict[str, Callable]:
    """``benchmarks/native/<framework>_<library>.py``'s ``FUNCTIONS`` (empty where none)."""
    try:
        module = importlib.import_module(f"native.{framework}_{library}")
    except ModuleNotFoundError:
        return {}
    return module.FUNCTIONS


def _native_compile(framework: str, f: Callable) -> Callable:
    if framework == "jax":
        import jax

        return jax.jit(f)
    if framework == "tensorflow":
        import tensorflow as tf

        return tf.function(f)
    import torch

    return torch.compile(f)


def jit_call_cost_us(backend: str, repeat: int, target_s: float) -> dict[str, float]:
    """Per-call time of ``hd.jit(f)`` and of the framework's own compiled ``f``, for a tiny ``f``.

    The difference is what ``hd.jit`` adds to every call of a compiled function (finding the
    backend from the arguments: a pytree flatten, then the cached compiled function), the same
    whatever the function: it is why a compiled hedera function is slower than a compiled
    native one when the compiled work itself takes only microseconds.
    """
    x = hd.asarray(np.ones(3, np.float32), backend=backend)
    sync = benchlib.sync_for(backend)

    def f(a: Any) -> Any:
        return a * 2.0 + 1.0

    ours, theirs = hd.jit(f), _native_compile(backend, with_own_code(f))
    for _ in range(3):
        sync(ours(x)), sync(theirs(x))
    times = time_variants(
        {
            "hd.jit": (lambda: sync(ours(x)), contextlib.nullcontext),
            "native": (lambda: sync(theirs(x)), contextlib.nullcontext),
        },
        repeat,
        target_s,
    )
    return {"hd_jit_us": times["hd.jit"].min_s * 1e6, "native_us": times["native"].min_s * 1e6}


def check_natives(library: str, callables: dict[str, Callable], framework: str) -> dict[str, bool]:
    """``{name: equal}``: each native implementation's result against the hedera function's."""
    out = {}
    for name, native in native_functions(framework, library).items():
        if name not in callables:  # the library renamed or removed it: the native one is stale
            out[name] = False
            continue
        fn = callables[name]
        kwargs = library_inputs.inputs(library, name, fn, framework)
        with hd.use_backend(framework):
            out[name] = same_values(fn(**kwargs), native(**kwargs))
    return out


def measure_native(
    library: str,
    callables: dict[str, Callable],
    framework: str,
    args: argparse.Namespace,
    timed: set[str],
) -> list[NativeRow]:
    """Check every native implementation against hedera's result; time those in ``timed``."""
    rows = []
    sync = benchlib.sync_for(framework)
    checked = check_natives(library, callables, framework)
    for name, native in native_functions(framework, library).items():
        if name not in timed:
            continue
        fn = callables[name]
        kwargs = library_inputs.inputs(library, name, fn, framework)
        equal = checked[name]
        with hd.use_backend(framework):
            for mode in args.modes:
                if mode == "compiled" and framework not in args.compiled_backends:
                    continue
                call, arrays = split_call(fn, kwargs)
                ncall, _ = split_call(native, kwargs)
                if mode == "compiled":
                    call, ncall = hd.jit(call), _native_compile(framework, ncall)
                    for _ in range(3):
                        sync(call(*arrays)), sync(ncall(*arrays))
                    equal = equal and same_values(call(*arrays), ncall(*arrays))
                times = time_variants(
                    {
                        "hedera": (lambda c=call, a=arrays: sync(c(*a)), contextlib.nullcontext),
                        "native": (lambda c=ncall, a=arrays: sync(c(*a)), contextlib.nullcontext),
                    },
                    args.repeat,
                    args.target_s,
                )
                h, n = times["hedera"].min_s, times["native"].min_s
                rows.append(NativeRow(library, name, framework, mode, equal, n * 1e6, h * 1e6, _pct(h, n)))
    return rows


# ---- why a target is missed ----------------------------------------------------------------------

TARGETS = {"eager": 1.0, "compiled": 0.1}  # median overhead, percent


def explain(row: Row) -> str | None:
    """Why a function misses its target (None where it meets it or was not measured)."""
    if row.overhead_pct is None or row.overhead_pct <= TARGETS[row.mode]:
        return None
    if row.mode == "compiled":
        if row.same_program:
            return (
                "the compiled programs are identical (dispatch runs only while tracing): "
                "the difference is timing noise"
            )
        if row.backend == "torch":
            return (
                "torch.compile runs the Python wrapper and its guards on every call; the "
                "difference is guard evaluation or noise at this call duration"
            )
        return "timing noise (the dispatch is traced away)"
    if row.front_calls:
        work_ns = row.bypass_min_us * 1e3 / row.front_calls
        dispatch = _predicted_ns(row) / row.front_calls
        predicted = row.predicted_pct or 0.0
        if predicted > TARGETS["eager"]:
            return (
                f"{row.front_calls} hd.* calls x ~{dispatch:.0f} ns dispatch against ~{work_ns:.0f} ns "
                f"of framework work per call (predicted {predicted:.1f} %): tiny arrays, so each "
                "native call does little work"
            )
        return (
            f"predicted {predicted:.2f} % ({row.front_calls} hd.* calls x ~{dispatch:.0f} ns over "
            f"{row.bypass_min_us:.0f} us): the measured excess is timing noise"
        )
    return "no hd.* front call: the difference is timing noise"


# ---- driver -------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict:
    state = State()
    for backend in args.backends:
        pairs = 200 if args.quick else 20_000
        DISPATCH_NS[backend] = dispatch_cost_ns(backend, pairs)
        SEQUENCE_DISPATCH_NS[backend] = sequence_dispatch_cost_ns(backend, pairs)
    jit_costs = {}
    for backend in args.compiled_backends:
        try:
            jit_costs[backend] = jit_call_cost_us(backend, max(args.repeat, 5), min(args.target_s, 0.005))
        except Exception:
            traceback.print_exc()
    for library in args.libraries:
        module, callables, missing = discover(library)
        if module is None:
            state.missing[library] = missing
            continue
        names = list(callables)
        if args.only:
            names = [n for n in names if n in args.only]
        if args.quick:  # one function with a native baseline, one without (all natives are checked)
            natives = set().union(*(native_functions(f, library) for f in NATIVE_FRAMEWORKS))
            names = [n for n in names if n in natives][:1] + [n for n in names if n not in natives][:1]
        state.functions[library] = names
        for backend in args.backends:
            for name in names:
                fn = callables[name]
                row = measure_eager(library, name, fn, backend, args)
                row.why = explain(row)
                state.rows.append(row)
                _progress(row)
                if backend in args.compiled_backends and row.skipped is None:
                    if backend == "torch" and not args.torch_compile_all and not _has_native(library, name):
                        continue
                    row = measure_compiled(library, name, fn, backend, args)
                    row.why = explain(row)
                    state.rows.append(row)
                    _progress(row)
        for framework in NATIVE_FRAMEWORKS:
            if framework in args.backends:
                try:
                    checks = check_natives(library, callables, framework)
                    state.native_checks.setdefault(library, {})[framework] = checks
                    state.native += measure_native(library, callables, framework, args, set(names))
                except Exception:
                    traceback.print_exc()
    return {
        **benchlib.header(args.quick),
        "sizes": {
            "mech_batch": library_inputs.MECH_BATCH,
            "image_dims": library_inputs.IMAGE_DIMS,
            "correspondences": library_inputs.N_CORRESPONDENCES,
            "surface_points": library_inputs.N_SURFACE_POINTS,
            "triangles": library_inputs.N_TRIANGLES,
        },
        "targets_pct": TARGETS,
        "clock": args.clock,
        "repeat": args.repeat,
        "target_s": args.target_s,
        "dispatch_ns": DISPATCH_NS,
        "sequence_dispatch_ns": SEQUENCE_DISPATCH_NS,
        "jit_call_us": jit_costs,
        "torch_compile_all": args.torch_compile_all,
        "missing_libraries": state.missing,
        "functions": state.functions,
        "summary": summarize(state.rows),
        "rows": [asdict(r) for r in state.rows],
        "native": [asdict(r) for r in state.native],
        "native_checks": state.native_checks,
    }


def _has_native(library: str, name: str) -> bool:
    return any(name in native_functions(f, library) for f in NATIVE_FRAMEWORKS)


def _progress(row: Row) -> None:
    if row.skipped:
        text = f"skipped: {row.skipped}"
    else:
        text = f"{row.hedera_min_us:10.1f} us  {row.overhead_pct:+7.2f} %"
    print(f"{row.library:<7} {row.backend:<10} {row.mode:<8} {row.function:<45} {text}", flush=True)


def summarize(rows: list[Row]) -> dict:
    """Mean and median overhead per library, backend and mode, and per library and mode."""
    out: dict[str, Any] = {}
    measured = [r for r in rows if r.overhead_pct is not None]
    groups: dict[tuple, list[Row]] = {}
    for r in measured:
        groups.setdefault((r.library, r.mode, r.backend), []).append(r)
        groups.setdefault((r.library, r.mode, "all"), []).append(r)
        groups.setdefault(("all", r.mode, "all"), []).append(r)
    for (library, mode, backend), group in sorted(groups.items()):
        values = [r.overhead_pct for r in group]
        out.setdefault(library, {}).setdefault(mode, {})[backend] = {
            "n": len(values),
            "mean_pct": statistics.fmean(values),
            "median_pct": statistics.median(values),
            "meets_target": statistics.median(values) <= TARGETS[mode],
        }
    return out


def _merged(old: dict, new: dict, libraries: list[str]) -> dict:
    """``old`` with the results of ``libraries`` replaced by ``new``'s (``--update``)."""
    out = dict(new)
    for key in ("rows", "native"):
        out[key] = [r for r in old[key] if r["library"] not in libraries] + new[key]
    for key in ("functions", "missing_libraries", "native_checks"):
        out[key] = {**{k: v for k, v in old.get(key, {}).items() if k not in libraries}, **new[key]}
    out["updated_libraries"] = {lib: new["date"] for lib in libraries}
    names = [f.name for f in dataclasses.fields(Row)]
    out["summary"] = summarize([Row(**{k: r.get(k) for k in names}) for r in out["rows"]])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--libraries", default=",".join(LIBRARIES))
    parser.add_argument("--backends", default=",".join(hd.available_backends()))
    parser.add_argument("--compiled-backends", default=",".join(COMPILERS))
    parser.add_argument("--modes", default="eager,compiled")
    parser.add_argument("--only", default="", help="comma-separated function names")
    parser.add_argument(
        "--torch-compile-all",
        action="store_true",
        help="torch.compile every function (default: only those with a native baseline; "
        "torch.compile takes seconds per function)",
    )
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--target-s", type=float, default=0.005)
    parser.add_argument("--clock", choices=sorted(CLOCK), default="cpu")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 3 functions, tiny timings")
    parser.add_argument("--output", type=Path, default=benchlib.RESULTS / "library_overhead.json")
    parser.add_argument(
        "--update",
        action="store_true",
        help="replace only these libraries' results in an existing --output (the rest is kept)",
    )
    args = parser.parse_args(argv)
    args.libraries = [x for x in args.libraries.split(",") if x]
    args.backends = [b for b in args.backends.split(",") if b and b != "mxnet"]
    args.modes = [m for m in args.modes.split(",") if m]
    args.only = {x for x in args.only.split(",") if x}
    compiled = [b for b in args.compiled_backends.split(",") if b in COMPILERS]
    args.compiled_backends = compiled if "compiled" in args.modes else []
    args.compiled_backends = [b for b in args.compiled_backends if b in args.backends]
    if args.quick:
        args.repeat, args.target_s = 2, 1e-4
    global clock
    clock = CLOCK[args.clock]
    result = run(args)
    if args.update and args.output.exists():
        result = _merged(json.loads(args.output.read_text()), result, args.libraries)
    benchlib.write_json(args.output, result)
    for library, modes in result["summary"].items():
        for mode, backends in modes.items():
            for backend, s in backends.items():
                print(
                    f"{library:<7} {mode:<8} {backend:<10} n={s['n']:<4} mean {s['mean_pct']:+6.2f} % "
                    f"median {s['median_pct']:+6.2f} %"
                )
    for library, why in result["missing_libraries"].items():
        print(f"hedera.{library}: {why}")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
