"""``hd.interop.from_torch``: a PyTorch program as a hedera program that runs on every backend.

How it works:

1. ``torch.export.export`` (non-strict by default, so ordinary model code traces) captures the
   module or function as an FX graph over ATen ops, with its parameters and buffers lifted to
   inputs; ``run_decompositions()`` lowers it to the Core ATen opset.
2. Each node becomes one line of Python source calling hedera's public API: the hedera function
   named by the op's row in :mod:`hedera.interop._aten` (or a small lowering there), with the
   casts of torch's type promotion made explicit (the graph knows every dtype). The source is
   compiled once per backend; it is ``prog.code``.
3. ``prog(params, *args, **kwargs)`` checks the arguments against the exported shapes and dtypes,
   runs the function on the arguments' backend and rebuilds the module's output structure.

The program is pure hedera, so it runs on numpy, torch, jax and tensorflow and composes with
``hd.grad``, ``hd.jit`` and ``hd.vmap``. torch is imported when :func:`from_torch` is called.
"""

from __future__ import annotations

import linecache
import math
import operator
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

import hedera as hd
from hedera.errors import (
    DtypeError,
    HederaError,
    NotAnArrayError,
    ShapeError,
    StructureError,
    UnsupportedError,
)

from . import _aten

__all__ = ["ExportError", "TorchProgram", "from_torch"]


class ExportError(HederaError, ValueError):
    """``torch.export`` could not capture the program; the message carries torch's own message.

    Fixes, in the usual order: declare the dimensions that vary with ``dynamic_shapes=``
    (``torch.export.Dim``), keep ``strict=False`` (the default) so that Python the exporter cannot
    trace runs as plain Python, or rewrite data-dependent control flow with ``torch.cond``.
    """


#: torch dtype name -> hedera dtype name (the dtypes a converted program can hold)
_DTYPES = {
    "float16": "float16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float64": "float64",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "bool": "bool",
    "complex64": "complex64",
    "complex128": "complex128",
}

#: Python functions export leaves in graphs over symbolic sizes, by their source spelling
_PY_FUNCTIONS: dict[Any, str] = {
    **{
        getattr(operator, n): f"operator.{n}"
        for n in (
            "add",
            "sub",
            "mul",
            "truediv",
            "floordiv",
            "mod",
            "pow",
            "neg",
            "eq",
            "ne",
            "lt",
            "le",
            "gt",
            "ge",
            "and_",
            "or_",
            "not_",
            "getitem",
            "abs",
        )
    },
    **{getattr(math, n): f"math.{n}" for n in ("ceil", "floor", "sqrt", "trunc", "exp", "log")},
}

#: names the generated source binds itself
_RESERVED = frozenset({"hd", "aten", "dt", "operator", "math", "state", "constants", "inputs"})

#: what ``torch.export`` emits for data-dependent control flow, and hedera's counterpart
_HIGHER_ORDER = {"cond": "hd.cond", "while_loop": "hd.while_loop", "scan": "hd.scan"}


def core_aten_ops() -> list[str]:
    """The Core ATen op packets of the installed torch: those with an overload tagged
    ``torch.Tag.core`` (read from torch itself; the coverage table and the op sweep use it)."""
    import torch

    names = {
        s.name.partition("::")[2] for s in torch._C._jit_get_all_schemas() if s.name.startswith("aten::")
    }
    found = []
    for name in sorted(names):
        packet = getattr(torch.ops.aten, name, None)
        if isinstance(packet, torch._ops.OpOverloadPacket) and any(
            torch.Tag.core in getattr(packet, o).tags for o in packet.overloads()
        ):
            found.append(name)
    return found


def from_torch(
    module_or_fn: Any,
    example_args: Sequence[Any],
    example_kwargs: Mapping[str, Any] | None = None,
    *,
    dynamic_shapes: Any = None,
    strict: bool = False,
) -> TorchProgram:
    """A PyTorch module or function as a hedera program that runs on every backend.

    Parameters
    ----------
    module_or_fn : torch.nn.Module, callable or torch.export.ExportedProgram
        The program. A module is exported in its current mode: call ``.eval()`` first for
        inference (dropout off, batch norm on running statistics). An ``ExportedProgram`` is
        converted as it is (``example_args`` then only document the call; decompose it first
        with ``run_decompositions`` to the ops you want kept).
    example_args : tuple
        Example positional arguments (torch tensors, or nests of them) fixing shapes and dtypes.
    example_kwargs : dict, optional
        Example keyword arguments.
    dynamic_shapes : optional
        ``torch.export``'s declaration of the dimensions that may vary (``torch.export.Dim``);
        the program then accepts any size there.
    strict : bool
        ``torch.export``'s strict mode (TorchDynamo tracing). Default ``False``: non-strict.

    Returns
    -------
    TorchProgram
        ``prog(params, *args, **kwargs)``, with ``prog.parameters(backend=...)``,
        ``prog.buffers(...)`` and ``prog.code``.

    Raises
    ------
    ExportError
        ``torch.export`` failed; carries torch's message and the usual fixes.
    hedera.UnsupportedError
        The graph holds an op with no hedera lowering; names the op and the graph node.

    Examples
    --------
    >>> import numpy as np, torch, hedera as hd
    >>> lin = torch.nn.Linear(3, 2)
    >>> prog = hd.interop.from_torch(lin, (torch.ones(4, 3),))
    >>> y = prog(prog.parameters(backend="numpy"), np.ones((4, 3), np.float32))
    >>> y.shape, y.dtype
    ((4, 2), dtype('float32'))
    """
    import torch

    if isinstance(module_or_fn, torch.export.ExportedProgram):
        return TorchProgram(module_or_fn, module_or_fn.module())
    module = module_or_fn if isinstance(module_or_fn, torch.nn.Module) else _function_module(module_or_fn)
    if not isinstance(example_args, tuple):
        example_args = tuple(example_args) if isinstance(example_args, list) else (example_args,)
    try:
        exported = torch.export.export(
            module, example_args, dict(example_kwargs or {}), dynamic_shapes=dynamic_shapes, strict=strict
        )
    except Exception as e:
        raise ExportError(_export_message(module_or_fn, e)) from e
    exported = exported.run_decompositions()
    return TorchProgram(exported, module)


def _function_module(fn: Callable) -> Any:
    import torch

    class FunctionModule(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fn = fn

        def forward(self, *args: Any, **kwargs: Any) -> Any:
            return self.fn(*args, **kwargs)

    if not callable(fn):
        raise NotAnArrayError(
            f"from_torch: module_or_fn must be a torch.nn.Module or a callable, got {type(fn).__name__}"
        )
    return FunctionModule()


def _export_message(program: Any, error: Exception) -> str:
    name = getattr(program, "__name__", type(program).__name__)
    first = str(error).strip().splitlines()
    head = "\n".join(first[:30])
    return (
        f"from_torch: torch.export could not capture {name}: {type(error).__name__}: {head}\n"
        "How to fix: if a dimension varies between calls or the failure names a symbolic size, "
        "declare it with dynamic_shapes= (torch.export.Dim); keep strict=False (the default) so "
        "that Python the exporter cannot trace runs as plain Python; data-dependent branches need "
        "torch.cond."
    )


class _Unsupported(SimpleNamespace):
    """An op of the graph that a backend cannot run: (op, node, reason)."""


class TorchProgram:
    """A converted PyTorch program: ``prog(params, *args, **kwargs)`` on any backend.

    Attributes
    ----------
    code : str
        The generated hedera source (one line per graph node).
    exported_program : torch.export.ExportedProgram
        The Core ATen program it was generated from.
    parameter_names, buffer_names : tuple of str
        Names as in the module's ``state_dict``.
    """

    def __init__(self, exported: Any, module: Any) -> None:
        import torch

        self.exported_program = exported
        self._module_name = type(module).__name__
        gen = _Codegen(exported)
        self.code: str = gen.source()
        self._node_of_line = gen.node_of_line
        self._unsupported = gen.unsupported
        sig = exported.graph_signature
        state = exported.state_dict
        self.parameter_names: tuple[str, ...] = tuple(sig.parameters)
        self.buffer_names: tuple[str, ...] = tuple(sig.buffers)
        self._state = {
            name: _to_numpy(state[name] if name in state else exported.constants[name])
            for name in (*self.parameter_names, *self.buffer_names)
        }
        self._constants = {
            name: _to_numpy(v) for name, v in exported.constants.items() if isinstance(v, torch.Tensor)
        }
        self._constants_on: dict[str, dict[str, Any]] = {}
        self._buffers_on: dict[str, dict[str, Any]] = {}
        self._inputs = gen.user_inputs
        self._mutated_buffers = gen.mutated_buffers
        self._in_spec = exported.call_spec.in_spec
        self._out_spec = exported.call_spec.out_spec
        self._compiled: dict[str, Callable] = {}
        self._registered_outputs: set[str] = set()
        self._filename = f"<hedera.interop.from_torch {self._module_name} {id(self):x}>"
        self._bytecode = compile(self.code, self._filename, "exec")
        # the source, for tracebacks and for tf.function's AutoGraph (which reads it)
        linecache.cache[self._filename] = (len(self.code), None, self.code.splitlines(True), self._filename)
        self.__name__ = f"from_torch({self._module_name})"
        self.__doc__ = f"{self._module_name} converted from PyTorch by hedera.interop.from_torch."
        del torch

    # ---- state ----------------------------------------------------------------------------------

    def parameters(self, backend: str | None = None) -> hd.Container:
        """The module's parameters as a flat ``hd.Container`` named like ``state_dict``.

        Parameters
        ----------
        backend : str, optional
            Backend of the arrays; default the current backend.
        """
        return hd.Container({n: self._array(self._state[n], backend) for n in self.parameter_names})

    def buffers(self, backend: str | None = None) -> hd.Container:
        """The module's buffers (running statistics, position ids...) as a flat ``hd.Container``."""
        return hd.Container({n: self._array(self._state[n], backend) for n in self.buffer_names})

    def state_dict(self, backend: str | None = None) -> hd.Container:
        """Parameters and buffers together, in ``state_dict`` order of the export."""
        return hd.Container({n: self._array(self._state[n], backend) for n in self._state})

    @staticmethod
    def _array(value: np.ndarray, backend: str | None) -> Any:
        return hd.asarray(value, backend=backend or hd.current_backend())

    # ---- calls ----------------------------------------------------------------------------------

    def __call__(self, params: Mapping[str, Any], *args: Any, **kwargs: Any) -> Any:
        """Run the program: ``params`` (parameters, optionally buffers too) and the module's arguments.

        Buffers missing from ``params`` are the exported module's own. Returns the module's output
        structure with native arrays of the arguments' backend.

        Raises
        ------
        hedera.ShapeError, hedera.DtypeError
            An argument whose shape or dtype differs from the export (dimensions declared dynamic
            excepted); the message names the argument.
        hedera.StructureError
            ``params`` lacks a parameter or has an unknown name, or the arguments' structure
            differs from the example's.
        hedera.UnsupportedError
            The program holds an op that the backend cannot run (named with its graph node).
        """
        return self.apply(params, *args, **kwargs)[0]

    def apply(self, params: Mapping[str, Any], *args: Any, **kwargs: Any) -> tuple[Any, hd.Container]:
        """``(outputs, updated_buffers)``: the call, and the new values of the buffers it mutates.

        A module in training mode updates buffers (batch norm's running statistics); torch does it
        in place, a hedera program returns them: ``updated_buffers`` is a ``hd.Container`` of the
        mutated buffers' new values (empty when none).
        """
        inputs = self._flat_inputs(args, kwargs)
        backend = self._backend_of(params, inputs)
        fn = self._compiled.get(backend) or self._compile(backend)
        state = self._full_state(params, backend)
        self._check_inputs(inputs, backend)
        try:
            with hd.use_backend(backend):
                outputs, mutations = fn(state, self._constants_for(backend), inputs)
        except Exception as e:
            self._name_node(e)
            raise
        return self._unflatten(outputs, backend), hd.Container(
            dict(zip(self._mutated_buffers, mutations, strict=True))
        )

    def _flat_inputs(self, args: tuple, kwargs: dict) -> list:
        from torch.utils import _pytree

        leaves, spec = _pytree.tree_flatten((args, kwargs))
        if spec != self._in_spec:
            raise StructureError(
                f"{self.__name__}: the arguments' structure {spec} differs from the exported example's "
                f"{self._in_spec}"
            )
        return leaves

    def _backend_of(self, params: Mapping[str, Any], inputs: list) -> str:
        for leaf in inputs:
            if hasattr(leaf, "shape") and hasattr(leaf, "dtype"):
                return hd.backend_of(leaf)
        for value in params.values():
            return hd.backend_of(value)
        return hd.current_backend()

    def _compile(self, backend: str) -> Callable:
        for item in self._unsupported:
            if backend in item.row.unsupported:
                raise UnsupportedError(
                    f"{self.__name__}: aten.{item.op} (graph node {item.node!r}) does not run on "
                    f"{backend}: {item.row.unsupported[backend]}"
                )
        _aten.INT64_ON.setdefault(backend, _int64_on(backend))
        direct, lowerings = _bound_to(backend)
        env = {
            "hd": direct,
            "aten": lowerings,
            "operator": operator,
            "math": math,
            "dt": _dtype_namespace(backend),
        }
        env.update(_CODEGEN_FUNCTIONS)
        exec(self._bytecode, env)
        self._compiled[backend] = env["forward"]
        return env["forward"]

    def _full_state(self, params: Mapping[str, Any], backend: str) -> dict:
        if isinstance(params, hd.Container):
            given = dict(params.flatten_keys().items()) if _is_nested(params) else dict(params.items())
        elif isinstance(params, Mapping):
            given = dict(params)
        else:
            raise StructureError(
                f"{self.__name__}: params must be a mapping (prog.parameters()), got {type(params).__name__}"
            )
        missing = [n for n in self.parameter_names if n not in given]
        unknown = [n for n in given if n not in self._state]
        if missing or unknown:
            raise StructureError(
                f"{self.__name__}: params {'lacks ' + ', '.join(missing) if missing else ''}"
                f"{'; ' if missing and unknown else ''}"
                f"{'has unknown names ' + ', '.join(unknown) if unknown else ''}"
                " (names as in the module's state_dict: prog.parameters())"
            )
        if len(given) < len(self._state):
            buffers = self._buffers_on.get(backend)
            if buffers is None:
                buffers = self._buffers_on[backend] = _concrete_arrays(
                    {n: self._state[n] for n in self.buffer_names}, backend
                )
            given = {**buffers, **given}
        return given

    def _constants_for(self, backend: str) -> dict:
        found = self._constants_on.get(backend)
        if found is None:
            found = self._constants_on[backend] = _concrete_arrays(self._constants, backend)
        return found

    def _check_inputs(self, inputs: list, backend: str) -> None:
        for leaf, spec in zip(inputs, self._inputs, strict=True):
            if spec.shape is None:  # a non-tensor input, specialised at export
                if leaf != spec.value:
                    raise hd.InvalidArgumentError(
                        f"{self.__name__}: argument {spec.name!r} was exported as the constant "
                        f"{spec.value!r}; got {leaf!r} (export again for another value)"
                    )
                continue
            if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
                raise NotAnArrayError(
                    f"{self.__name__}: argument {spec.name!r} must be an array, got {type(leaf).__name__}"
                )
            shape = tuple(leaf.shape)
            if len(shape) != len(spec.shape) or any(
                e is not None and e != s for e, s in zip(spec.shape, shape, strict=True)
            ):
                raise ShapeError(
                    f"{self.__name__}: argument {spec.name!r} has shape {shape}, the export expects "
                    f"{_shape_text(spec.shape)} (declare varying dimensions with dynamic_shapes=)"
                )
            expected = _canonical_dtype(spec.dtype, backend)
            got = hd.dtype(leaf)
            if got != expected:
                raise DtypeError(
                    f"{self.__name__}: argument {spec.name!r} has dtype {got}, the export expects "
                    f"{expected} (hedera never casts it silently: hd.astype it first)"
                )

    def _unflatten(self, outputs: Sequence[Any], backend: str) -> Any:
        from torch.utils import _pytree

        if backend == "jax" and "jax" not in self._registered_outputs:
            _register_output_nodes_with_jax(self._out_spec)
            self._registered_outputs.add("jax")
        return _pytree.tree_unflatten(list(outputs), self._out_spec)

    def _name_node(self, error: Exception) -> None:
        """Add the graph node (and its ATen op) where ``error`` happened to its message."""
        for frame, lineno in traceback.walk_tb(error.__traceback__):
            if frame.f_code.co_filename == self._filename and lineno in self._node_of_line:
                if hasattr(error, "add_note"):
                    error.add_note(f"in {self.__name__}, graph node {self._node_of_line[lineno]}")
                return

    def __repr__(self) -> str:
        n = self.code.count("\n")
        params = len(self.parameter_names)
        return f"<hedera program from_torch({self._module_name}): {params} parameters, {n} lines>"


def _concrete_arrays(values: dict[str, np.ndarray], backend: str) -> dict[str, Any]:
    """``values`` as ``backend`` arrays made outside any trace, so that they can be kept and reused
    (the first call may come from inside ``jax.jit`` or ``tf.function``)."""
    if backend == "jax":
        import jax

        with jax.ensure_compile_time_eval():
            return {n: hd.asarray(v, backend=backend) for n, v in values.items()}
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.init_scope():
            return {n: hd.asarray(v, backend=backend) for n, v in values.items()}
    return {n: hd.asarray(v, backend=backend) for n, v in values.items()}


def _is_nested(c: hd.Container) -> bool:
    return any(isinstance(v, hd.Container) for v in c.values())


def _shape_text(shape: Sequence[int | None]) -> str:
    return (
        "("
        + ", ".join("any" if s is None else str(s) for s in shape)
        + ("," if len(shape) == 1 else "")
        + ")"
    )


def _to_numpy(t: Any) -> np.ndarray:
    import torch

    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        raise UnsupportedError("from_torch: bfloat16 state is not supported yet (NumPy has no bfloat16)")
    return t.numpy().copy()


def _int64_on(backend: str) -> Any:
    """hedera's stand-in for torch's int64 on ``backend``: int32 on JAX without 64-bit mode."""
    if backend == "jax":
        import jax

        if not jax.config.jax_enable_x64:
            return hd.int32
    return hd.int64


def _canonical_dtype(torch_dtype_name: str, backend: str) -> Any:
    if torch_dtype_name == "int64":
        return _aten.INT64_ON.setdefault(backend, _int64_on(backend))
    return getattr(hd, _DTYPES[torch_dtype_name])


def _dtype_namespace(backend: str) -> SimpleNamespace:
    dtypes = {name: getattr(hd, hd_name) for name, hd_name in _DTYPES.items()}
    dtypes["int64"] = _canonical_dtype("int64", backend)
    return SimpleNamespace(**dtypes)


#: names of hedera's fronts that the programs keep (their namespace function differs: a backend
#: argument, hedera's dtype objects, the ``at`` indexing helper)
_KEPT_FRONTS = frozenset({"asarray", "at", "dtype"})
_BOUND: dict[str, tuple[Any, Any]] = {}


class _DirectNamespace(SimpleNamespace):
    """hedera's API with every front that dispatches on the arrays replaced by ``backend``'s function.

    A program compiled for one backend knows where its arrays live, so the front's dispatch (a
    type lookup per call, 30-150 ns; more than 2% of a torch op of a few µs) is paid once, here.
    Names the namespace lacks, and what is not a function (``hd.nn``, dtypes), are hedera's own,
    bound as attributes too: every public name is one attribute read, as on a module.
    ``__getattr__`` serves only names hedera gains after the binding.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(hd, name)


def _bound_to(backend: str) -> tuple[Any, Any]:
    """``(hd, aten)`` for the programs of ``backend``: the lowerings call the namespace directly.

    The lowerings of :mod:`hedera.interop._aten` are rebuilt on a copy of that module's globals
    whose ``hd`` is a :class:`_DirectNamespace`: the same code, with the dispatch bound once.
    """
    found = _BOUND.get(backend)
    if found is not None:
        return found
    ns = hd.namespace(backend)
    direct = _DirectNamespace(
        **{
            name: getattr(ns, name) if _bound_in(ns, name) else getattr(hd, name)
            for name in dir(hd)
            if not name.startswith("_")
        }
    )
    source = vars(_aten)
    scope = dict(source, hd=direct)
    for name, value in source.items():
        if isinstance(value, types.FunctionType) and value.__globals__ is source:
            scope[name] = _rebound(value, scope)
    _BOUND[backend] = found = (direct, SimpleNamespace(**scope))
    return found


def _bound_in(ns: Any, name: str) -> bool:
    """Whether the programs call backend namespace ``ns``'s ``name`` instead of hedera's front."""
    if name in _KEPT_FRONTS:
        return False
    value = getattr(ns, name, None)
    return callable(value) and not isinstance(value, type)


def _rebound(fn: types.FunctionType, scope: dict) -> types.FunctionType:
    """``fn``'s code with the global names of ``scope``."""
    new = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__, new.__qualname__, new.__doc__ = fn.__kwdefaults__, fn.__qualname__, fn.__doc__
    return new


def _register_output_nodes_with_jax(spec: Any) -> None:
    """Make the output's torch pytree node types (``ModelOutput``...) JAX pytrees, so jit returns them."""
    import jax
    from torch.utils import _pytree

    builtin = (tuple, list, dict, type(None))
    stack = [spec]
    while stack:
        s = stack.pop()
        stack.extend(s.children())
        t = s.type
        if t is None or t in builtin or t not in _pytree.SUPPORTED_NODES:
            continue
        node = _pytree.SUPPORTED_NODES[t]
        try:
            jax.tree_util.register_pytree_node(
                t,
                lambda x, node=node: (lambda flat: (flat[0], _Hashable(flat[1])))(node.flatten_fn(x)),
                lambda aux, children, node=node: node.unflatten_fn(list(children), aux.value),
            )
        except ValueError:  # registered already
            pass


class _Hashable:
    """A torch pytree context as JAX's (hashable, comparable) auxiliary data."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hashable) and repr(self.value) == repr(other.value)

    def __hash__(self) -> int:
        return hash(repr(self.value))


def _scan_hop(combine: Callable, init: Sequence[Any], xs: Sequence[Any], additional: Sequence[Any]) -> list:
    """torch's ``scan`` higher-order op on ``hd.scan``: ``combine(*carry, *x, *additional)`` returns
    the new carry then the per-step outputs; the result is the final carry then the stacked outputs."""
    n = len(init)

    def step(carry: list, x: list) -> tuple[list, list]:
        out = combine(*carry, *x, *additional)
        return list(out[:n]), list(out[n:])

    carry, ys = hd.scan(step, list(init), list(xs))
    return [*carry, *ys]


#: Python callables the generated source names directly
_CODEGEN_FUNCTIONS = {
    "_sym_float": float,
    "_sym_int": int,
    "_sym_max": max,
    "_sym_min": min,
    "_scan_hop": _scan_hop,
}


# ---- code generation ----------------------------------------------------------------------------


class _Codegen:
    """The hedera source of an exported program, one line per graph node."""

    def __init__(self, exported: Any) -> None:
        self.exported = exported
        self.lines: list[str] = []
        self.node_of_line: dict[int, str] = {}
        self.unsupported: list[_Unsupported] = []
        self.user_inputs: list[SimpleNamespace] = []
        self.mutated_buffers: list[str] = []
        self.names: dict[Any, str] = {}
        self._root = exported.graph_module
        self._pending: list[tuple[str, Any]] = []  # subgraphs of higher-order ops, to emit
        self._subgraph_names: dict[Any, str] = {}
        self._emit()
        self._emit_subgraphs()

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    # ---- the function's frame ----

    def _emit(self) -> None:
        from torch.export.graph_signature import InputKind, OutputKind

        graph = self.exported.graph_module.graph
        sig = self.exported.graph_signature
        self.lines.append("def forward(state, constants, inputs):")
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        user_index = 0
        for node, spec in zip(placeholders, sig.input_specs, strict=True):
            name = self._name(node)
            if spec.kind in (InputKind.PARAMETER, InputKind.BUFFER):
                self._line(f"{name} = state[{spec.target!r}]", node)
            elif spec.kind == InputKind.CONSTANT_TENSOR:
                self._line(f"{name} = constants[{spec.target!r}]", node)
            elif spec.kind == InputKind.USER_INPUT:
                self._line(f"{name} = inputs[{user_index}]", node)
                self.user_inputs.append(self._input_spec(node))
                user_index += 1
            else:
                raise UnsupportedError(
                    f"from_torch: an input of kind {spec.kind.name} ({node.name!r}) is not supported"
                )
        self._emit_nodes(graph, lambda node: self._output(node, sig, OutputKind))

    def _emit_nodes(self, graph: Any, output: Callable[[Any], None]) -> None:
        last_use = {}
        for node in graph.nodes:
            for used in node.all_input_nodes:
                last_use[used] = node
        for node in graph.nodes:
            if node.op == "call_function":
                self._call(node)
                self._free_after(node, last_use)
            elif node.op == "output":
                output(node)
            elif node.op == "get_attr":
                continue
            elif node.op != "placeholder":
                raise UnsupportedError(
                    f"from_torch: graph node {node.name!r} of kind {node.op} is not supported"
                )

    def _free_after(self, node: Any, last_use: dict) -> None:
        """``del`` the intermediate results ``node`` was the last to use, as torch.fx's own code does:
        each is freed where the graph is done with it, so the framework's allocator reuses its
        memory, instead of every intermediate living until the function returns (measured on a
        chain of 400 cheap ops: +70 ns per node on numpy, +110 on torch, +520 on TensorFlow)."""
        dead = [
            self.names[u]
            for u in node.all_input_nodes
            if last_use.get(u) is node and u.op == "call_function" and u in self.names
        ]
        if dead:
            self._line("del " + ", ".join(dead), None)

    def _emit_subgraphs(self) -> None:
        """The branch and body graphs of ``cond``/``while_loop``/``scan``, as functions after forward."""
        while self._pending:
            fname, module = self._pending.pop(0)
            self._root = module
            placeholders = [n for n in module.graph.nodes if n.op == "placeholder"]
            self.lines.append("")
            self.lines.append(f"def {fname}(*args):")
            for i, node in enumerate(placeholders):
                self._line(f"{self._name(node)} = args[{i}]", node)

            def ret(node: Any) -> None:
                values = node.args[0] if isinstance(node.args[0], (list, tuple)) else [node.args[0]]
                self._line(f"return [{', '.join(self._render(v) for v in values)}]", None)

            self._emit_nodes(module.graph, ret)

    def _subgraph(self, node: Any) -> str:
        """The name of the function the ``get_attr`` node's subgraph becomes (queued for emission)."""
        module = getattr(self._root, node.target)
        if module not in self._subgraph_names:
            taken = set(self._subgraph_names.values())
            fname = f"_{node.target}"
            while fname in taken:
                fname += "_"
            self._subgraph_names[module] = fname
            self._pending.append((fname, module))
        return self._subgraph_names[module]

    def _higher_order(self, node: Any, name: str, hop: str) -> None:
        if hop not in _HIGHER_ORDER or not callable(getattr(hd, hop, None)):
            raise UnsupportedError(
                f"from_torch: the higher-order op {hop} (graph node {node.name!r}) is not supported"
                + (f": {_HIGHER_ORDER[hop]} is not available in this hedera" if hop in _HIGHER_ORDER else "")
            )
        if hop == "cond":
            pred, true_graph, false_graph, operands = node.args
            branches = f"{self._subgraph(true_graph)}, {self._subgraph(false_graph)}"
            self._line(f"{name} = hd.cond({self._render(pred)}, {branches}, *{self._render(operands)})", node)
        elif hop == "while_loop":
            cond_graph, body_graph, carried, additional = node.args
            extra = self._render(additional)
            cond_fn = f"lambda c: {self._subgraph(cond_graph)}(*c, *{extra})[0]"
            body_fn = f"lambda c: tuple({self._subgraph(body_graph)}(*c, *{extra}))"
            self._line(f"{name} = hd.while_loop({cond_fn}, {body_fn}, tuple({self._render(carried)}))", node)
        else:
            combine, init, xs, additional = node.args
            args = f"{self._render(init)}, {self._render(xs)}, {self._render(additional)}"
            self._line(f"{name} = _scan_hop({self._subgraph(combine)}, {args})", node)

    def _input_spec(self, node: Any) -> SimpleNamespace:
        import torch

        val = node.meta.get("val")
        if isinstance(val, torch.Tensor):
            shape = tuple(s if isinstance(s, int) else None for s in val.shape)
            return SimpleNamespace(name=node.name, shape=shape, dtype=str(val.dtype).removeprefix("torch."))
        return SimpleNamespace(name=node.name, shape=None, dtype=None, value=val)

    def _output(self, node: Any, sig: Any, output_kind: Any) -> None:
        values = node.args[0]
        user, mutations = [], []
        for value, spec in zip(values, sig.output_specs, strict=True):
            if spec.kind == output_kind.USER_OUTPUT:
                user.append(self._render(value))
            elif spec.kind == output_kind.BUFFER_MUTATION:
                mutations.append(self._render(value))
                self.mutated_buffers.append(spec.target)
            elif spec.kind == output_kind.USER_INPUT_MUTATION:
                raise UnsupportedError(
                    f"from_torch: the program modifies its input {spec.target!r} in place; a hedera "
                    "program is functional: return the new value instead"
                )
            else:
                raise UnsupportedError(f"from_torch: an output of kind {spec.kind.name} is not supported")
        self._line(f"return [{', '.join(user)}], [{', '.join(mutations)}]", None)

    def _line(self, text: str, node: Any) -> None:
        self.lines.append("    " + text)
        if node is not None:
            self.node_of_line[len(self.lines)] = _describe(node)

    def _name(self, node: Any) -> str:
        name = node.name
        if name in _RESERVED or not name.isidentifier() or name.startswith("_"):
            name = f"v_{name.lstrip('_')}"
        self.names[node] = name
        return name

    # ---- nodes ----

    def _call(self, node: Any) -> None:
        import torch

        target = node.target
        name = self._name(node)
        if isinstance(target, torch._ops.OpOverload):
            self._aten_call(node, name, target)
        elif target is operator.getitem:
            self._line(f"{name} = {self._render(node.args[0])}[{self._render(node.args[1])}]", node)
        elif target in _PY_FUNCTIONS:
            self._line(f"{name} = {_PY_FUNCTIONS[target]}({self._args(node.args, node.kwargs)})", node)
        elif getattr(target, "__name__", None) in ("sym_float", "sym_int", "sym_max", "sym_min"):
            self._line(f"{name} = _{target.__name__}({self._args(node.args, node.kwargs)})", node)
        elif isinstance(target, torch._ops.HigherOrderOperator):
            try:
                self._higher_order(node, name, target.name())
            except UnsupportedError:
                raise
            except Exception as e:  # a form of the op's arguments this converter does not know
                raise UnsupportedError(
                    f"from_torch: the higher-order op {target.name()} (graph node {node.name!r}) could "
                    f"not be converted: {type(e).__name__}: {e}"
                ) from e
        else:
            raise UnsupportedError(
                f"from_torch: graph node {node.name!r} calls {target!r}, which has no hedera lowering"
            )

    def _aten_call(self, node: Any, name: str, op: Any) -> None:
        packet, overload = op._schema.name.split("::")[1], op._overloadname
        row = _aten.row_for(packet, overload)
        if row is None:
            raise UnsupportedError(
                f"from_torch: aten.{packet}.{overload} (graph node {node.name!r}) has no hedera lowering"
            )
        if row.unsupported:
            self.unsupported.append(_Unsupported(op=f"{packet}.{overload}", node=node.name, row=row))
        args, kwargs = _drop_placement(op, node.args, node.kwargs)
        args = self._promoted(row, node, args)
        inlined = self._inlined(row.fn, node, args, kwargs)
        if inlined is not None:
            self._line(f"{name} = {inlined}", node)
            return
        self._line(f"{name} = {_callee(row.fn)}({self._args(args, kwargs)})", node)

    def _inlined(self, fn: Callable, node: Any, args: tuple, kwargs: dict) -> str | None:
        """The call of a lowering that only renames or reorders, written as what it calls.

        ``aten.add(x, y)`` is ``hd.add(x, y)`` when there is no ``alpha``, ``aten.view(x, [2, -1])``
        is ``hd.reshape(x, (2, 16))`` (its output shape) when static, ``aten.clone(x)`` is ``x``: the
        graph's static facts (a size, a rank) are read here, once, instead of by a Python frame of
        the lowering at every call. None where the lowering must run.
        """
        import torch

        renamed = _RENAMED.get(fn.__name__)
        if fn is not getattr(_aten, fn.__name__, None) or renamed is None:
            return None
        if fn.__name__ == "assertion":
            return "None"
        if not args or kwargs or not isinstance(args[0], (torch.fx.Node, _Cast)):
            return None
        x = self._render(args[0])
        rest = args[1:]
        val = getattr(args[0], "meta", {}).get("val")
        out = node.meta.get("val")
        if fn.__name__ in ("clone", "alias") and not rest:
            return x
        if fn.__name__ in ("add", "sub") and len(rest) == 1:
            return f"hd.{renamed}({x}, {self._render(rest[0])})"
        if fn.__name__ == "unsqueeze" and len(rest) == 1 and isinstance(rest[0], int):
            return f"hd.expand_dims({x}, axis={rest[0]})"
        if fn.__name__ == "view" and len(rest) == 1 and _static(rest[0]):
            # the output's shape: a -1 resolved once here, not by the framework at every call
            static_out = isinstance(out, torch.Tensor) and _static(tuple(out.shape))
            shape = tuple(out.shape) if static_out else rest[0]
            return f"hd.reshape({x}, {_tuple_text(shape)})"
        if fn.__name__ == "permute" and len(rest) == 1 and isinstance(val, torch.Tensor) and _static(rest[0]):
            if val.ndim == 0:
                return x
            return f"hd.permute_dims({x}, {_tuple_text([d % val.ndim for d in rest[0]])})"
        if fn.__name__ == "expand" and isinstance(out, torch.Tensor) and _static(tuple(out.shape)):
            return f"hd.broadcast_to({x}, {_tuple_text(out.shape)})"
        return None

    def _promoted(self, row: _aten.Row, node: Any, args: tuple) -> tuple:
        """``args`` with torch's type promotion made explicit as casts (``_Cast`` markers)."""
        if row.promote is None:
            return args
        target = _promotion_dtype(row.promote, node, args)
        if target is None:
            return args
        cast = range(len(args)) if row.operands is None else row.operands
        return tuple(_cast_tree(a, target) if i in cast else a for i, a in enumerate(args))

    # ---- rendering ----

    def _args(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
        parts = [self._render(a) for a in args]
        parts += [f"{k}={self._render(v)}" for k, v in kwargs.items()]
        return ", ".join(parts)

    def _render(self, value: Any) -> str:
        import torch

        if isinstance(value, _Cast):
            return f"hd.astype({self._render(value.node)}, dt.{_DTYPES[value.dtype]})"
        if isinstance(value, torch.fx.Node):
            return self.names[value]
        if isinstance(value, (list, tuple)):
            inner = ", ".join(self._render(v) for v in value)
            return f"[{inner}]"
        if isinstance(value, torch.dtype):
            return f"dt.{_DTYPES[str(value).removeprefix('torch.')]}"
        if isinstance(value, float):
            if math.isnan(value):
                return "math.nan"
            if math.isinf(value):
                return "math.inf" if value > 0 else "-math.inf"
            return repr(value)
        if value is None or isinstance(value, (bool, int, str, complex)):
            return repr(value)
        if isinstance(value, (torch.device, torch.layout, torch.memory_format)):
            return "None"
        raise UnsupportedError(
            f"from_torch: cannot express the graph argument {value!r} ({type(value).__name__})"
        )


#: lowerings of :mod:`hedera.interop._aten` that :meth:`_inlined` writes as a direct call -> the call
_RENAMED = {
    "add": "add",
    "sub": "subtract",
    "view": "reshape",
    "unsqueeze": "expand_dims",
    "permute": "permute_dims",
    "expand": "broadcast_to",
    "clone": "",
    "alias": "",
    "assertion": "",
}


def _static(sizes: Any) -> bool:
    """Whether ``sizes`` is a sequence of Python ints (no symbolic size of a dynamic dimension)."""
    return isinstance(sizes, (list, tuple)) and all(type(s) is int for s in sizes)


def _tuple_text(sizes: Sequence[int]) -> str:
    return "(" + "".join(f"{int(s)}, " for s in sizes).rstrip() + ")"


class _Cast(SimpleNamespace):
    """A node argument to cast to ``dtype`` (a torch dtype name) before the call."""


def _cast_tree(value: Any, dtype: str) -> Any:
    import torch

    if isinstance(value, (list, tuple)):
        return type(value)(_cast_tree(v, dtype) for v in value)
    if isinstance(value, torch.fx.Node):
        val = value.meta.get("val")
        if isinstance(val, torch.Tensor) and str(val.dtype).removeprefix("torch.") != dtype:
            return _Cast(node=value, dtype=dtype)
    return value


def _promotion_dtype(kind: str, node: Any, args: tuple) -> str | None:
    import torch

    if kind == "out":
        val = node.meta.get("val")
        if isinstance(val, (tuple, list)):
            val = val[0]
        return str(val.dtype).removeprefix("torch.") if isinstance(val, torch.Tensor) else None
    operands = [a.meta.get("val") if isinstance(a, torch.fx.Node) else a for a in args]
    operands = [o for o in operands if isinstance(o, (torch.Tensor, bool, int, float, complex))]
    if len(operands) < 2:
        return None
    return (
        str(torch.result_type(*operands[:2])).removeprefix("torch.")
        if isinstance(operands[0], torch.Tensor) or isinstance(operands[1], torch.Tensor)
        else None
    )


def _drop_placement(op: Any, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The op's arguments without devices, layouts, memory formats and pinning (meaningless here)."""
    dropped = {"device", "layout", "pin_memory", "memory_format", "non_blocking"}
    kwargs = {k: v for k, v in kwargs.items() if k not in dropped}
    names = [a.name for a in op._schema.arguments]
    if any(n in dropped for n in names[: len(args)]):
        kept = [a for a, n in zip(args, names, strict=False) if n not in dropped]
        return tuple(kept), kwargs
    return tuple(args), kwargs


def _callee(fn: Callable) -> str:
    """How the generated source names ``fn``: ``hd.<name>`` for the public API, ``aten.<name>`` else."""
    name = fn.__name__
    if getattr(hd.nn.functional, name, None) is fn:
        return f"hd.nn.functional.{name}"
    if getattr(hd, name, None) is fn:
        return f"hd.{name}"
    for attr, value in vars(_aten).items():
        if value is fn:
            return f"aten.{attr}"
    raise UnsupportedError(f"from_torch: the lowering {fn!r} is not reachable by name")  # pragma: no cover


def _describe(node: Any) -> str:
    target = node.target
    op = getattr(target, "_schema", None)
    what = (
        f"aten.{op.name.split('::')[1]}.{target._overloadname}"
        if op is not None
        else getattr(target, "__name__", str(target))
    )
    return f"{node.name!r} ({what})"
