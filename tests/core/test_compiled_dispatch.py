"""Dispatch inside compiled code: ``jax.jit``, ``tf.function`` and ``torch.compile``.

Inside a trace the arrays are tracers (jax), symbolic tensors (tf) or fake tensors seen by
dynamo (torch); hedera must dispatch on them exactly as on eager arrays, add nothing to the
compiled program, and cause no retrace for repeated calls with the same shapes. Under
``torch.compile(fullgraph=True)`` any graph break is an error, so those tests also prove
that there is none. Creation functions under ``hd.use_backend`` work inside compiled code.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend
from hedera import _fastpath


def model(x, w):
    """Pure hedera: a small composite of elementwise, reduction, linalg and creation calls."""
    h = hd.tanh(hd.matmul(x, w) + 0.5)
    bias = hd.ones((h.shape[-1],), dtype=hd.dtype(x))
    return hd.sum(h * h, axis=0) + hd.mean(bias) * hd.linalg.vector_norm(x)


def inputs(backend: str):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    w = rng.standard_normal((3, 2)).astype(np.float32)
    return hd.asarray(x, backend=backend), hd.asarray(w, backend=backend)


def expected(scale: float = 1.0):
    x, w = inputs("numpy")
    return hd.to_numpy(model(x * np.float32(scale), w))


def with_creation(backend: str):
    """A function whose creation calls (no array arguments) need ``use_backend`` inside the trace."""

    def f(x):
        with hd.use_backend(backend):
            base = hd.arange(x.shape[0], dtype=hd.float32)
            eye = hd.eye(x.shape[0], dtype=hd.float32)
        return hd.matmul(eye, x) + hd.expand_dims(base, axis=-1)

    return f


def creation_expected():
    x, _ = inputs("numpy")
    return x + np.arange(4, dtype=np.float32)[:, None]


# ---- jax.jit ------------------------------------------------------------------------------------


def test_jax_jit_same_result_no_retrace():
    require_backend("jax")
    import jax

    traces = []

    def counted(x, w):
        traces.append(type(x).__name__)  # runs once per trace, with tracers
        return model(x, w)

    jitted = jax.jit(counted)
    x, w = inputs("jax")
    first = jitted(x, w)
    second = jitted(x * 2, w)
    assert len(traces) == 1, traces
    assert "Tracer" in traces[0]
    assert hd.backend_of(first) == "jax"
    np.testing.assert_allclose(hd.to_numpy(first), expected(), rtol=1e-5)
    np.testing.assert_allclose(hd.to_numpy(second), expected(2.0), rtol=1e-5)
    jitted(hd.concat([x, x]), w)  # a new shape traces again, once
    assert len(traces) == 2


def test_jax_jit_creation_under_use_backend():
    require_backend("jax")
    import jax

    f = with_creation("jax")
    x, _ = inputs("jax")
    out = jax.jit(f)(x)
    assert hd.backend_of(out) == "jax"
    np.testing.assert_allclose(hd.to_numpy(out), creation_expected(), rtol=1e-6)
    assert hd.current_backend() == "numpy"


def test_jax_vmap_and_grad_tracers_dispatch():
    require_backend("jax")
    import jax

    x, _ = inputs("jax")
    rows = jax.vmap(lambda row: hd.sum(hd.sin(row)))(x)
    np.testing.assert_allclose(hd.to_numpy(rows), np.sin(hd.to_numpy(x)).sum(axis=1), rtol=1e-5, atol=1e-6)
    grad = jax.grad(lambda v: hd.sum(hd.square(v)))(x)
    np.testing.assert_allclose(hd.to_numpy(grad), 2 * hd.to_numpy(x), rtol=1e-6)


# ---- tf.function ---------------------------------------------------------------------------------


def test_tf_function_same_result_one_trace():
    require_backend("tensorflow")
    import tensorflow as tf

    traces = []

    @tf.function
    def compiled(x, w):
        traces.append(type(x).__name__)
        return model(x, w)

    x, w = inputs("tensorflow")
    first = compiled(x, w)
    compiled(x * 2.0, w)
    compiled(x + 1.0, w)
    assert len(traces) == 1, traces
    assert compiled.experimental_get_tracing_count() == 1
    assert hd.backend_of(first) == "tensorflow"
    np.testing.assert_allclose(hd.to_numpy(first), expected(), rtol=1e-5)


def test_tf_function_creation_under_use_backend():
    require_backend("tensorflow")
    import tensorflow as tf

    x, _ = inputs("tensorflow")
    out = tf.function(with_creation("tensorflow"))(x)
    assert hd.backend_of(out) == "tensorflow"
    np.testing.assert_allclose(hd.to_numpy(out), creation_expected(), rtol=1e-6)
    assert hd.current_backend() == "numpy"


# ---- torch.compile --------------------------------------------------------------------------------


class CountingBackend:
    """A torch.compile backend that counts compiled graphs and runs them as they are."""

    def __init__(self) -> None:
        self.graphs = 0

    def __call__(self, gm, example_inputs):
        self.graphs += 1
        return gm.forward


@pytest.fixture
def torch_module():
    require_backend("torch")
    import torch

    torch._dynamo.reset()
    yield torch
    torch._dynamo.reset()


def test_torch_compile_fullgraph_same_result_one_graph(torch_module):
    torch = torch_module
    counter = CountingBackend()
    compiled = torch.compile(model, fullgraph=True, backend=counter)
    x, w = inputs("torch")
    first = compiled(x, w)
    compiled(x * 2, w)
    compiled(x + 1, w)
    assert counter.graphs == 1  # one graph, reused: no recompilation for the same shapes
    assert hd.backend_of(first) == "torch"
    np.testing.assert_allclose(hd.to_numpy(first), expected(), rtol=1e-5)


def test_torch_compile_no_graph_breaks(torch_module):
    torch = torch_module
    x, w = inputs("torch")
    explanation = torch._dynamo.explain(model)(x, w)
    assert explanation.graph_break_count == 0, explanation.break_reasons
    assert explanation.graph_count == 1


def test_torch_compile_creation_under_use_backend(torch_module):
    torch = torch_module
    counter = CountingBackend()
    f = with_creation("torch")
    x, _ = inputs("torch")
    out = torch.compile(f, fullgraph=True, backend=counter)(x)
    assert counter.graphs == 1
    assert hd.backend_of(out) == "torch"
    np.testing.assert_allclose(hd.to_numpy(out), creation_expected(), rtol=1e-6)
    assert hd.current_backend() == "numpy"
    from hedera import _dispatch

    assert _dispatch._TRACE_STACK == []
    explanation = torch._dynamo.explain(f)(x)
    assert explanation.graph_break_count == 0, explanation.break_reasons


def test_torch_compile_numpy_into_torch_is_one_graph(torch_module):
    """``hd.asarray(ndarray, backend="torch")`` in a compiled function: dynamo cannot read an
    ndarray's strides (DLPack's import path), so the conversion must be the one it traces."""
    torch = torch_module
    counter = CountingBackend()

    def f(x):
        labels = hd.asarray(np.array([1, 0, 2]), backend="torch")
        return x * 2 + labels

    x = torch.arange(3.0)
    out = torch.compile(f, fullgraph=True, backend=counter)(x)
    assert counter.graphs == 1
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0, 6.0])


def test_torch_compile_reads_the_eager_current_backend(torch_module):
    """A creation call inside compiled code, outside any use_backend in it, runs on the current backend."""
    torch = torch_module

    def f(x):
        return x + hd.ones(x.shape, dtype=hd.float32)

    x, _ = inputs("torch")
    with hd.use_backend("torch"):
        out = torch.compile(f, fullgraph=True, backend=CountingBackend())(x)
    np.testing.assert_allclose(hd.to_numpy(out), hd.to_numpy(x) + 1)


def test_torch_compile_dtype_query_then_cast(torch_module):
    """hd.dtype(x) then hd.astype(y, hd.float32) in one compiled frame: the dtype conversion must not
    leave dynamo a guard it cannot evaluate (it once failed with "name ... is not defined")."""
    torch = torch_module

    def f(x, labels):
        integral = hd.isdtype(hd.dtype(labels), "integral")
        total = hd.astype(hd.sum(x * x), hd.float64)
        return total if integral else -total

    compiled = torch.compile(f, fullgraph=True, backend=CountingBackend())
    x, labels = torch.arange(3.0), torch.arange(3)
    for scale in (1.0, 2.0):  # the second call evaluates the guards of the first
        out = compiled(x * scale, labels)
        assert out.dtype == torch.float64
        assert out.item() == pytest.approx(5.0 * scale**2)


def test_torch_compile_dtype_compared_with_a_hedera_dtype(torch_module):
    """``hd.dtype(x) != hd.float32`` in a compiled frame: the same DType object, reached through
    hd.dtype's constant-result lookup and as ``hd.float32``, once left dynamo an aliasing guard it
    cannot evaluate ("Guard failed on the same frame it was created ... name 'sub_lookup_native'
    is not defined"), which broke every converted torch program under hd.jit on torch."""
    torch = torch_module

    def f(x):
        d = hd.dtype(x)
        if d != hd.float32:
            return x - 1
        if d is hd.float32 and hd.float32 == x.dtype and hd.dtype(x * 2) == d:
            return x * 2
        return x + 1

    counter = CountingBackend()
    for compiled in (torch.compile(f, fullgraph=True, backend=counter), hd.jit(f)):
        for x in (torch.arange(3.0), torch.arange(3.0) + 1):  # the second call runs the guards
            np.testing.assert_array_equal(compiled(x).numpy(), (x * 2).numpy())
        x64 = torch.arange(3.0, dtype=torch.float64)
        np.testing.assert_array_equal(compiled(x64).numpy(), (x64 - 1).numpy())
    assert counter.graphs == 2  # float32 once, float64 once


def recording_guard_filter(keep_entry):
    """A guard_filter_fn keeping the entries ``keep_entry`` accepts, recording (name, kept)."""
    seen: list[tuple[str, bool]] = []

    def guard_filter(entries):
        keep = [keep_entry(entry) for entry in entries]
        seen.extend((entry.name, kept) for entry, kept in zip(entries, keep, strict=True))
        return keep

    return guard_filter, seen


def test_torch_compile_guards_no_front_cache(torch_module):
    """The C fronts trace as their backend function (hedera._fastpath._trace_polyfill): the compiled
    code must not guard on the fronts' caches, which dynamo checks with one Python lambda per key
    at every call. Mixed types, a Python scalar and a sequence included. Without the extension
    (HEDERA_PURE_PYTHON=1) the Python fronts are traced and their caches guarded: then those
    guards must all be ones hd.jit's guard filter drops (rooted in hedera's module globals)."""
    torch = torch_module
    guard_filter, seen = recording_guard_filter(lambda entry: True)

    def f(x, w):
        return hd.stack([model(x, w), hd.maximum(model(x, w), 0.5)]) + hd.add(1.0, hd.sum(x))

    x, w = inputs("torch")
    compiled = torch.compile(f, fullgraph=True, backend="eager", options={"guard_filter_fn": guard_filter})
    out = compiled(x, w)
    np.testing.assert_allclose(hd.to_numpy(out), hd.to_numpy(f(*inputs("numpy"))), rtol=1e-5)
    assert seen, "dynamo called no guard filter"
    cache_guards = [name for name, _ in seen if "_by_type" in name or "_by_backend" in name]
    if _fastpath.enabled():
        assert cache_guards == []
    else:
        assert cache_guards and all("__import_hedera_dot_" in name for name in cache_guards)


def test_hd_jit_drops_guards_on_hedera_internals_only(torch_module):
    """hd.jit on torch filters out the guards on hedera's own module globals
    (backends.torch.autodiff.skip_hedera_guards) and keeps the others: a new input dtype still
    recompiles, and the result follows it."""
    torch = torch_module
    from hedera.backends.torch.autodiff import skip_hedera_guards

    guard_filter, seen = recording_guard_filter(lambda entry: skip_hedera_guards([entry])[0])
    compiled = hd.jit(
        model, backend_options={"torch": {"backend": "eager", "options": {"guard_filter_fn": guard_filter}}}
    )
    x, w = inputs("torch")
    np.testing.assert_allclose(hd.to_numpy(compiled(x, w)), expected(), rtol=1e-5)
    dropped = [name for name, kept in seen if not kept]
    kept = [name for name, kept in seen if kept]
    assert dropped and all("__import_hedera_dot_" in name for name in dropped)
    assert not any("__import_hedera_dot_" in name for name in kept)
    assert "x" in kept and "w" in kept  # the tensor guards stay
    out = compiled(x.double(), w.double())  # a guard fails: recompiled for float64
    assert out.dtype == torch.float64
    np.testing.assert_allclose(hd.to_numpy(out), expected(), rtol=1e-5)


def test_hd_jit_passes_the_guard_filter_by_default(torch_module, monkeypatch):
    torch = torch_module
    calls = []  # the guard filter passed (torch.compile takes it out of the options it gets)
    compile_ = torch.compile

    def recording_compile(f, **kw):
        calls.append(kw["options"].get("guard_filter_fn") if "options" in kw else "no options")
        return compile_(f, **kw)

    monkeypatch.setattr(torch, "compile", recording_compile)
    hd.jit(model)(*inputs("torch"))
    from hedera.backends.torch.autodiff import jit, skip_hedera_guards

    jit(model, (), (), mode="max-autotune-no-cudagraphs")  # wraps now, compiles at the first call

    assert calls[0] is skip_hedera_guards
    assert calls[1] == "no options"  # torch.compile takes mode or options, not both


def test_torch_compile_cold_start():
    """The first hedera call on torch tensors happens inside the trace: loading the torch backend
    there must not break the graph (fresh interpreter, so the backend is not loaded yet)."""
    require_backend("torch")
    code = textwrap.dedent(
        """
        import sys, torch, hedera as hd
        assert "hedera.backends.torch" not in sys.modules
        def f(x):
            with hd.use_backend("torch"):
                z = hd.zeros(x.shape[0])
            return hd.sum(hd.sin(x) * 2, axis=1) + z
        out = torch.compile(f, fullgraph=True, backend="eager")(torch.ones(3, 2))
        print(out.tolist())
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    values = eval(proc.stdout.strip().splitlines()[-1])
    np.testing.assert_allclose(values, [4 * np.sin(1.0)] * 3, rtol=1e-6)


def test_torch_compile_of_creation_with_a_traced_shape_compiles_once():
    """hd.ones(x.shape) and the like under a plain torch.compile, in a fresh interpreter: one graph
    each, however many calls. The argument checks' memos (hedera._argkinds: the checked kind of
    each parameter, whether a type is an integer or number type) are filled by the first trace;
    dynamo guarded on them as that trace first read them, so the second call recompiled."""
    require_backend("torch")
    code = textwrap.dedent(
        """
        import numpy as np, torch, hedera as hd

        def ones_like_x(x):  # a torch.Size: a tuple subclass, the Python front's slow path
            with hd.use_backend("torch"):
                return x + hd.ones(x.shape)

        def zeros_of_a_size(x):  # compiled with dynamic sizes: a SymInt in the shape
            with hd.use_backend("torch"):
                return x + hd.zeros((x.shape[0], 2))

        def full_of_a_numpy_number(x):  # a NumPy scalar as the fill value
            with hd.use_backend("torch"):
                return x + hd.full(x.shape, np.float32(2.0))

        graphs = []
        for f, dynamic in ((ones_like_x, None), (zeros_of_a_size, True), (full_of_a_numpy_number, None)):
            count = [0]
            def backend(gm, example_inputs, count=count):
                count[0] += 1
                return gm.forward
            compiled = torch.compile(f, backend=backend, dynamic=dynamic)
            for _ in range(3):
                out = compiled(torch.zeros(4, 2))
            graphs.append(count[0])
        print((graphs, out.tolist()))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    graphs, out = eval(proc.stdout.strip().splitlines()[-1])
    assert graphs == [1, 1, 1]
    np.testing.assert_array_equal(out, np.full((4, 2), 2.0))


def test_torch_compile_of_numpy_creation_without_hederas_torch_backend_compiles_once():
    """A plain torch.compile of code whose hedera calls run on the NumPy backend, in a fresh
    interpreter where hedera's torch backend is never loaded: one graph, however many calls. Before,
    hedera asked torch whether it was tracing only once its torch backend was loaded, so the first
    trace filled the creation fronts' caches (``_ones_by_backend``), which dynamo had guarded on as
    it read them, and the second call recompiled."""
    require_backend("torch")
    code = textwrap.dedent(
        """
        import sys, torch, hedera as hd

        def f(x):
            return x + torch.as_tensor(hd.ones((3,))) + torch.as_tensor(hd.arange(3))

        count = [0]
        def backend(gm, example_inputs):
            count[0] += 1
            return gm.forward
        compiled = torch.compile(f, backend=backend)
        for _ in range(3):
            out = compiled(torch.zeros(3))
        print((count[0], hd.current_backend(), "hedera.backends.torch" in sys.modules, out.tolist()))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    graphs, current, torch_backend_loaded, out = eval(proc.stdout.strip().splitlines()[-1])
    assert (current, torch_backend_loaded) == ("numpy", False)
    assert graphs == 1
    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_trace_state_asked_by_code_running_eagerly_in_a_compiled_region(torch_module, backend):
    """Code that dynamo runs eagerly inside a compiled region (here a frame torch.compiler.disable
    skips; after a graph break, or where tracing failed) is not being traced: hedera's questions
    answer False there, on every call. Before, dynamo compiled the asking frame on its own (it
    refers to torch, or holds a tensor), folding the answer to True into the frame it cached."""
    torch = torch_module
    from hedera.backends.torch import autodiff
    from hedera.jit import inside_trace, traced_by, values_unreadable

    answers = []

    @torch.compiler.disable(recursive=False)
    def runs_eagerly(x):
        answers.append(
            (
                autodiff.is_compiling(),
                inside_trace("torch"),
                inside_trace("torch", (x,)),
                traced_by(autodiff, (x,)),
                values_unreadable("torch", (x,)),
            )
        )
        return x

    compiled = torch.compile(lambda x: runs_eagerly(x * 2.0) + 1.0, backend=backend)
    for _ in range(2):
        np.testing.assert_array_equal(hd.to_numpy(compiled(torch.ones(3))), [3.0, 3.0, 3.0])
    assert answers == [(False,) * 5] * 2


@pytest.mark.slow
def test_torch_compile_default_backend(torch_module):
    """The default (inductor) backend compiles hedera code too."""
    torch = torch_module
    x, w = inputs("torch")
    out = torch.compile(model, fullgraph=True)(x, w)
    np.testing.assert_allclose(hd.to_numpy(out), expected(), rtol=1e-5)


# ---- hd.jit inside a user's own torch.compile -----------------------------------------------------


def test_hd_jit_inside_torch_compile_is_inlined_into_one_graph(torch_module):
    """A torch.compile'd function calling an hd.jit'ed one traces f itself (as torch.compile inlines
    a compiled function called in another): one graph, no break, so fullgraph=True compiles."""
    torch = torch_module
    inner = hd.jit(model)
    counter = CountingBackend()
    compiled = torch.compile(lambda x, w: inner(x, w) * 2.0 + 1.0, fullgraph=True, backend=counter)
    x, w = inputs("torch")
    first = compiled(x, w)
    assert counter.graphs == 1  # the hd.jit'ed call is in the user's graph (no break: fullgraph)
    np.testing.assert_allclose(hd.to_numpy(first), expected() * 2.0 + 1.0, rtol=1e-5)
    np.testing.assert_allclose(hd.to_numpy(compiled(x * 2, w)), expected(2.0) * 2.0 + 1.0, rtol=1e-5)
    np.testing.assert_allclose(hd.to_numpy(inner(x, w)), expected(), rtol=1e-5)  # eagerly: hd.jit's own


def test_hd_jit_inside_torch_compile_when_dynamo_is_imported_after_hedera():
    """The usual order (hedera, then torch.compile importing dynamo): the call is registered with
    dynamo when it is imported (fresh interpreter)."""
    require_backend("torch")
    code = textwrap.dedent(
        """
        import sys, hedera as hd
        inner = hd.jit(lambda x: hd.sin(x) * 2)
        import torch
        assert "torch._dynamo" not in sys.modules
        f = torch.compile(lambda x: hd.sum(inner(x), axis=1), fullgraph=True, backend="eager")
        out = f(torch.ones(3, 2))
        print(out.tolist())
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    values = eval(proc.stdout.strip().splitlines()[-1])
    np.testing.assert_allclose(values, [4 * np.sin(1.0)] * 3, rtol=1e-6)
