"""JAX functions on every backend: ``hd.interop.from_jax`` turns a jaxpr into a hedera program.

``from_jax(fn, *example_args)`` traces ``fn`` with ``jax.make_jaxpr`` and returns a
:class:`JaxProgram`: a callable that evaluates the jaxpr equation by equation with hedera's public
API (the rows of :mod:`hedera.interop._lax`), so it runs on whatever backend its arguments come
from: torch, tensorflow, numpy or jax, under ``hd.grad``, ``hd.jit`` and ``hd.vmap`` too::

    import jax.numpy as jnp, torch, hedera as hd

    def f(w, x):
        return jnp.tanh(x @ w).sum()

    program = hd.interop.from_jax(f, jnp.ones((3, 2)), jnp.ones((4, 3)))
    program(torch.ones(3, 2), torch.ones(4, 3))         # a torch.Tensor
    hd.grad(program)(torch.ones(3, 2), torch.ones(4, 3))  # torch autograd through it

Conventions
-----------
* **Shapes and dtypes are the example's.** A jaxpr is specialised to the shapes and dtypes it
  was traced with (JAX's default dtypes: ``float32`` and ``int32`` unless ``jax_enable_x64``);
  calling the program with others raises ``hd.ShapeError`` / ``hd.DtypeError``. Trace again for
  new shapes. Under ``hd.vmap`` the program sees one example at a time: trace it with one.
* **Structure.** Arguments and results are the pytrees of the traced function (tuples, lists,
  dicts, ``None``, and whatever else ``jax.tree_util`` knows, flax's structures included).
* **Constants** the function closes over (arrays captured from the enclosing scope) are stored as
  NumPy arrays and put on the arguments' backend and device at each call.
* **Backend.** The backend and device are those of the first array argument; a program without
  array arguments runs on the current backend (``hd.use_backend``).
* **Unsupported primitives** raise ``hd.UnsupportedError`` when converting, naming the primitive
  and the equation (``docs/interop.md`` lists the coverage per primitive and backend).
* **Custom derivatives** (``custom_jvp``/``custom_vjp``) run as their primal function:
  gradients on other backends are those of the primal computation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import hedera as hd
from hedera.errors import DtypeError, HederaError, InvalidArgumentError, ShapeError, UnsupportedError
from hedera.typing import Array

from ._lax import RULES, hd_dtype

# (through hd.nn, not ``from hedera.nn.module import``: hd.nn is a lazy module, and importing its
# submodule before it has loaded would load hedera.nn.module twice, with two Module classes)
Module = hd.nn.Module
is_array = hd.is_array

__all__ = ["Interpreter", "JaxModule", "JaxProgram", "from_jax"]


def _jax() -> Any:
    try:
        import jax
    except ImportError as e:  # pragma: no cover - jax is a test dependency
        raise hd.BackendNotInstalledError(
            "from_jax needs JAX to trace the function: pip install 'hedera[jax]'"
        ) from e
    return jax


def _subjaxprs(params: dict[str, Any]) -> Iterator[Any]:
    """The jaxprs (open ones) among an equation's parameters: branches, bodies, called functions."""
    for value in params.values():
        for item in value if isinstance(value, (tuple, list)) else (value,):
            jaxpr = getattr(item, "jaxpr", None)
            if hasattr(item, "eqns"):
                yield item
            elif jaxpr is not None and hasattr(jaxpr, "eqns"):
                yield jaxpr


def _check_supported(jaxpr: Any, where: str = "") -> set[str]:
    """The primitive names of ``jaxpr`` and its sub-jaxprs; an unsupported one raises."""
    names = set()
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        rule = RULES.get(name)
        if rule is None:
            raise UnsupportedError(
                f"from_jax: the primitive {name!r} has no hedera lowering{where}; "
                f"in the equation\n  {eqn}\n(docs/interop.md lists the supported primitives)"
            )
        if not rule.available():
            raise UnsupportedError(
                f"from_jax: the primitive {name!r} needs hd.{rule.requires}, which this hedera lacks; "
                f"in the equation\n  {eqn}"
            )
        names.add(name)
        for sub in _subjaxprs(eqn.params):
            names |= _check_supported(sub, f" (inside {name})")
    return names


@dataclass(frozen=True)
class _Literal:
    value: bool | int | float | complex
    dtype: hd.DType


@dataclass(frozen=True)
class _Aval:
    shape: tuple[int, ...]
    dtype: np.dtype


@dataclass(frozen=True)
class _Operand:
    """An equation's operand as the lowerings see it: ``aval`` (shape, dtype) and, for literals, ``val``."""

    aval: _Aval
    val: Any = None


@dataclass(frozen=True)
class _Primitive:
    name: str
    multiple_results: bool


@dataclass(frozen=True)
class _Equation:
    """A jaxpr equation in plain Python objects (what the table's lowerings receive as ``eqn``).

    Compilers that trace Python (``torch.compile``) read these, not JAX's own objects; sub-jaxprs
    in ``params`` are :class:`_Sub` plans.
    """

    primitive: _Primitive
    params: dict[str, Any]
    invars: tuple[_Operand, ...]
    outvars: tuple[_Operand, ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class _Step:
    """One equation, resolved once: its rule and where its operands and results live."""

    eqn: _Equation
    rule: Any
    inputs: tuple[Any, ...]  # a slot number, or a _Literal
    outputs: tuple[tuple[int | None, hd.DType], ...]  # (slot, or None for a dropped result; dtype)


@dataclass(frozen=True)
class _Sub:
    """A jaxpr as steps over numbered slots; ``consts`` (NumPy) for closed ones."""

    constvars: tuple[int, ...]
    invars: tuple[int, ...]
    steps: tuple[_Step, ...]
    outputs: tuple[Any, ...]
    consts: tuple[np.ndarray, ...] | None


def _operand(var: Any) -> _Operand:
    aval = _Aval(tuple(var.aval.shape), np.dtype(var.aval.dtype))
    if not hasattr(var, "val"):
        return _Operand(aval)
    value = var.val
    return _Operand(aval, value.item() if hasattr(value, "item") else value)  # (a NumPy scalar)


def _is_jaxpr(x: Any) -> bool:
    return hasattr(x, "eqns") or hasattr(getattr(x, "jaxpr", None), "eqns")


def _plan_params(params: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in params.items():
        if isinstance(value, (tuple, list)) and value and all(_is_jaxpr(v) for v in value):
            out[key] = tuple(_plan(v) for v in value)
        elif _is_jaxpr(value):
            out[key] = _plan(value)
        else:
            out[key] = value
    return out


def _plan(jaxpr: Any) -> _Sub:
    """A (closed or open) jaxpr and its sub-jaxprs as plans."""
    consts = None
    if hasattr(jaxpr, "consts"):  # a ClosedJaxpr (which has .eqns too)
        consts = tuple(np.asarray(c) for c in jaxpr.consts)
        jaxpr = jaxpr.jaxpr
    slots: dict[Any, int] = {}

    def slot(var: Any) -> int:
        return slots.setdefault(var, len(slots))

    def ref(var: Any) -> Any:
        if hasattr(var, "val"):
            op = _operand(var)
            return _Literal(op.val, hd_dtype(op.aval.dtype))
        return slots[var]

    constvars = tuple(slot(v) for v in jaxpr.constvars)
    invars = tuple(slot(v) for v in jaxpr.invars)
    steps = []
    for eqn in jaxpr.eqns:
        inputs = tuple(ref(v) for v in eqn.invars)
        outputs = tuple(
            (None if type(v).__name__ == "DropVar" else slot(v), hd_dtype(v.aval.dtype)) for v in eqn.outvars
        )
        equation = _Equation(
            _Primitive(eqn.primitive.name, bool(eqn.primitive.multiple_results)),
            _plan_params(eqn.params),
            tuple(_operand(v) for v in eqn.invars),
            tuple(_operand(v) for v in eqn.outvars),
            str(eqn),
        )
        steps.append(_Step(equation, RULES[eqn.primitive.name], inputs, outputs))
    return _Sub(constvars, invars, tuple(steps), tuple(ref(v) for v in jaxpr.outvars), consts)


class Interpreter:
    """Evaluates planned jaxprs with hedera calls on one backend and device: the table's ``ctx``.

    Parameters
    ----------
    backend : str
        The backend of the arrays.
    device : device or None
        Where creation functions (``iota``, literals, constants) put their arrays.
    """

    def __init__(self, backend: str, device: Any) -> None:
        self.backend = backend
        self.device = device

    def constant(self, value: Any) -> Array:
        """A NumPy constant as an array of this backend and device."""
        return hd.asarray(value, backend=self.backend, device=self.device)

    def eval(self, sub: _Sub, *args: Array) -> list[Array]:
        """Evaluate a closed sub-program (an equation's ``jaxpr``/``branches``/...) on ``args``."""
        return self.eval_open(sub, [self.constant(c) for c in sub.consts or ()], list(args))

    def eval_open(self, sub: _Sub, consts: Sequence[Array], args: Sequence[Array]) -> list[Array]:
        """Evaluate a sub-program with ``consts`` bound to its constant variables."""
        env: dict[int, Array] = dict(zip(sub.constvars, consts, strict=True))
        env.update(zip(sub.invars, args, strict=True))

        def read(ref: Any) -> Array:
            if isinstance(ref, _Literal):
                return hd.full((), ref.value, dtype=ref.dtype, device=self.device)
            return env[ref]

        for step in sub.steps:
            outs = self._run(step, [read(r) for r in step.inputs])
            for (slot, dtype), value in zip(step.outputs, outs, strict=True):
                if slot is not None:  # results in the dtype the jaxpr declares (hedera's sums promote)
                    env[slot] = value if hd.dtype(value) == dtype else hd.astype(value, dtype)
        return [read(r) for r in sub.outputs]

    def _run(self, step: _Step, operands: list[Array]) -> Sequence[Array]:
        eqn, rule = step.eqn, step.rule
        reason = rule.limits.get(self.backend)
        if reason is not None:
            raise UnsupportedError(
                f"from_jax: {eqn.primitive.name} on {self.backend}: {reason}; in the equation\n  {eqn}"
            )
        try:
            out = rule.lower(self, eqn, *operands)
        except HederaError as e:
            e.add_note(f"(in from_jax's lowering of the equation: {eqn})")
            raise
        return out if eqn.primitive.multiple_results else (out,)


class JaxProgram:
    """A JAX function's jaxpr as a hedera program: call it with arrays of any backend.

    Made by :func:`from_jax`. Calling it flattens the arguments like the traced function's
    (static arguments must equal the example's), checks each array's shape and dtype against the
    jaxpr, evaluates the equations with hedera calls, and returns the function's output
    structure with native arrays of the arguments' backend.

    Attributes
    ----------
    closed_jaxpr : jax.extend.core.ClosedJaxpr
        The traced program.
    primitives : frozenset of str
        The primitives it uses (sub-programs of ``jit``, ``cond``, ``scan``... included).
    """

    def __init__(
        self,
        closed_jaxpr: Any,
        in_tree: Any,
        out_tree: Any,
        static: dict[int, Any],
        n_args: int,
        name: str,
    ) -> None:
        self.closed_jaxpr = closed_jaxpr
        self.primitives = frozenset(_check_supported(closed_jaxpr.jaxpr))
        self._plan = _plan(closed_jaxpr)
        self._in_tree = in_tree
        self._out_tree = out_tree
        # plain containers are walked in Python (as jax.tree_util orders them), which compilers
        # such as torch.compile trace through; other pytree nodes go through jax.tree_util
        self._in_skeleton = _plain_skeleton(in_tree)
        self._out_skeleton = _plain_skeleton(out_tree)
        self._static = static
        self._n_args = n_args
        self.__name__ = name
        self._avals = [(tuple(v.aval.shape), hd_dtype(v.aval.dtype)) for v in closed_jaxpr.jaxpr.invars]

    def __repr__(self) -> str:
        return (
            f"JaxProgram({self.__name__}: {len(self.closed_jaxpr.jaxpr.eqns)} equations, "
            f"primitives {sorted(self.primitives)})"
        )

    def __call__(self, *args: Any) -> Any:
        if len(args) != self._n_args:
            raise InvalidArgumentError(
                f"from_jax program {self.__name__}: expected {self._n_args} arguments, got {len(args)}"
            )
        dynamic = []
        for i, a in enumerate(args):
            if i in self._static:
                if a != self._static[i]:
                    raise InvalidArgumentError(
                        f"from_jax program {self.__name__}: static argument {i} was {self._static[i]!r} "
                        f"when traced, got {a!r}; convert again for another value"
                    )
            else:
                dynamic.append(a)
        leaves = self._flatten(tuple(dynamic))
        backend, device = _placement(leaves)
        leaves = [self._checked(i, x, backend, device) for i, x in enumerate(leaves)]
        with hd.use_backend(backend):
            outs = Interpreter(backend, device).eval(self._plan, *leaves)
        if self._out_skeleton is not None:
            return _rebuild(self._out_skeleton, outs)
        return _jax().tree_util.tree_unflatten(self._out_tree, outs)

    def _flatten(self, args: tuple) -> list[Any]:
        if self._in_skeleton is not None:
            leaves: list[Any] = []
            if _flatten_like(self._in_skeleton, args, leaves):
                return leaves
        else:
            leaves, tree = _jax().tree_util.tree_flatten(args)
            if tree == self._in_tree:
                return leaves
        raise InvalidArgumentError(
            f"from_jax program {self.__name__}: the arguments' structure differs from the traced one "
            f"{self._in_tree}"
        )

    def _checked(self, i: int, x: Any, backend: str, device: Any) -> Array:
        shape, dtype = self._avals[i]
        if not is_array(x):
            if isinstance(x, (bool, int, float)):  # a Python number where the example had one
                return hd.full((), x, dtype=dtype, device=device)
            raise InvalidArgumentError(
                f"from_jax program {self.__name__}: argument leaf {i} must be an array, "
                f"got {type(x).__name__}"
            )
        if hd.backend_of(x) != backend:
            raise hd.BackendMismatchError(
                f"from_jax program {self.__name__}: argument leaf {i} is a {hd.backend_of(x)} array, "
                f"the first array argument a {backend} one; convert with hd.asarray(x, backend=...)"
            )
        got = tuple(x.shape)
        if len(got) != len(shape) or any(
            g is not None and int(g) != s for g, s in zip(got, shape, strict=True)
        ):
            raise ShapeError(
                f"from_jax program {self.__name__}: argument leaf {i} has shape {got}, the jaxpr was "
                f"traced with {shape}; convert again for other shapes"
            )
        if hd.dtype(x) != dtype:
            raise DtypeError(
                f"from_jax program {self.__name__}: argument leaf {i} has dtype {hd.dtype(x).name}, "
                f"the jaxpr was traced with {dtype.name}"
            )
        return x


def _plain_skeleton(tree: Any) -> Any:
    """The structure ``tree`` (a treedef) with leaf numbers, if made of tuples, lists, dicts and None only."""
    skeleton = _jax().tree_util.tree_unflatten(tree, list(range(tree.num_leaves)))

    def plain(node: Any) -> bool:
        if isinstance(node, int) or node is None:
            return True
        if type(node) in (tuple, list):
            return all(plain(v) for v in node)
        if type(node) is dict:
            return all(plain(v) for v in node.values())
        return False

    return skeleton if plain(skeleton) else None


def _flatten_like(skeleton: Any, value: Any, out: list[Any]) -> bool:
    """Append ``value``'s leaves to ``out`` in ``skeleton``'s order; ``False`` if the structures differ."""
    if isinstance(skeleton, int):
        out.append(value)
        return True
    if skeleton is None:
        return value is None
    if type(skeleton) is dict:
        if not isinstance(value, dict) or value.keys() != skeleton.keys():
            return False
        return all(_flatten_like(skeleton[k], value[k], out) for k in sorted(skeleton))
    if not isinstance(value, (tuple, list)) or len(value) != len(skeleton):
        return False
    return all(_flatten_like(s, v, out) for s, v in zip(skeleton, value, strict=True))


def _rebuild(skeleton: Any, leaves: Sequence[Any]) -> Any:
    if isinstance(skeleton, int):
        return leaves[skeleton]
    if skeleton is None:
        return None
    if type(skeleton) is dict:
        return {k: _rebuild(v, leaves) for k, v in skeleton.items()}
    return type(skeleton)(_rebuild(v, leaves) for v in skeleton)


def _placement(leaves: Sequence[Any]) -> tuple[str, Any]:
    """The backend and device of the first array among ``leaves`` (else the current backend)."""
    for x in leaves:
        if is_array(x):
            return hd.backend_of(x), hd.device(x)
    return hd.current_backend(), None


def _example(x: Any) -> Any:
    """An example argument as something ``jax.make_jaxpr`` traces: other backends' arrays as shapes."""
    if is_array(x) and hd.backend_of(x) not in ("jax", "numpy"):
        jax = _jax()
        return jax.ShapeDtypeStruct(tuple(int(d) for d in x.shape), np.dtype(hd.dtype(x).name))
    return x


def from_jax(
    fn: Callable[..., Any], *example_args: Any, static_argnums: int | Sequence[int] = ()
) -> JaxProgram:
    """Trace the JAX function ``fn`` on ``example_args`` and return it as a hedera program.

    Parameters
    ----------
    fn : callable
        A function written with ``jax.numpy`` / ``jax.lax`` (flax's ``apply``, optax updates...).
    *example_args
        Arguments fixing the shapes and dtypes: arrays of any backend (only their shapes and
        dtypes are used), ``jax.ShapeDtypeStruct``, or pytrees of them.
    static_argnums : int or sequence of int
        Positions of arguments that are Python values ``fn``'s structure depends on; they are
        baked into the program, and calls must pass the same values.

    Returns
    -------
    JaxProgram
        Call it with arrays of any backend (the same structure, shapes and dtypes).

    Raises
    ------
    UnsupportedError
        ``fn`` uses a primitive hedera has no lowering for; the message names it and the equation.

    Examples
    --------
    >>> import numpy as np, jax.numpy as jnp, torch, hedera as hd
    >>> program = hd.interop.from_jax(lambda x: jnp.cumsum(jnp.sin(x) ** 2), np.zeros(4, np.float32))
    >>> program(torch.arange(4.0)).shape
    torch.Size([4])
    """
    jax = _jax()
    statics = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    statics = tuple(i % len(example_args) for i in statics)
    traced = [_example(a) if i not in statics else a for i, a in enumerate(example_args)]
    closed = jax.make_jaxpr(fn, static_argnums=statics)(*traced)
    out_shape = jax.eval_shape(fn, *traced) if not statics else _eval_shape_static(jax, fn, traced, statics)
    dynamic = tuple(a for i, a in enumerate(traced) if i not in statics)
    in_tree = jax.tree_util.tree_structure(dynamic)
    out_tree = jax.tree_util.tree_structure(out_shape)
    name = getattr(fn, "__name__", type(fn).__name__)
    return JaxProgram(
        closed, in_tree, out_tree, {i: example_args[i] for i in statics}, len(example_args), name
    )


def _eval_shape_static(jax: Any, fn: Callable[..., Any], args: list[Any], statics: tuple[int, ...]) -> Any:
    def dynamic_only(*dyn: Any) -> Any:
        it = iter(dyn)
        return fn(*(args[i] if i in statics else next(it) for i in range(len(args))))

    return jax.eval_shape(dynamic_only, *(a for i, a in enumerate(args) if i not in statics))


class _Params(Module):
    """One level of a nested parameter dict, as a module (so ``parameters()`` nests the same way)."""


def _fill(module: Module, tree: Mapping[str, Any], backend: str, device: Any) -> None:
    for key, value in tree.items():
        if isinstance(value, Mapping):
            child = _Params()
            _fill(child, value, backend, device)
            module.register_module(key, child)
        else:
            # a copy: a zero-copy view of a JAX buffer would let in-place updates write into it
            module.register_parameter(key, hd.asarray(np.array(value), backend=backend, device=device))


def _as_dict(tree: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _as_dict(v) if isinstance(v, Mapping) else v for k, v in tree.items()}


class JaxModule(Module):
    """A converted JAX function and its parameters as a hedera module: ``forward(*x) = program(params, *x)``.

    The bridge from JAX models to hedera's (and, through :func:`hedera.interop.to_torch` and the
    other wrappers, to the other frameworks') training loops: the parameters, a nested dict of
    arrays such as flax's ``variables``, become the module's parameters with the same nesting.

    Parameters
    ----------
    program : JaxProgram
        ``from_jax(apply, params, *example_inputs)``: parameters first.
    params : nested dict of arrays
        The parameters' values (any backend); copied onto ``backend``.
    backend : str
        Where the module's arrays live (default: the current backend).
    device : device, optional

    Examples
    --------
    >>> import numpy as np, jax.numpy as jnp, hedera as hd
    >>> apply = lambda p, x: jnp.tanh(x @ p["w"] + p["b"])
    >>> params = {"w": np.ones((3, 2), np.float32), "b": np.zeros(2, np.float32)}
    >>> program = hd.interop.from_jax(apply, params, np.ones((4, 3), np.float32))
    >>> module = hd.interop.JaxModule(program, params, backend="torch")
    >>> sorted(module.parameters().flatten_keys())
    ['b', 'w']
    >>> tuple(module(hd.asarray(np.ones((4, 3), np.float32), backend="torch")).shape)
    (4, 2)
    """

    def __init__(
        self,
        program: JaxProgram,
        params: Mapping[str, Any],
        *,
        backend: str | None = None,
        device: Any = None,
    ) -> None:
        super().__init__()
        if not isinstance(program, JaxProgram):
            raise InvalidArgumentError(
                f"JaxModule: program must be a JaxProgram, got {type(program).__name__}"
            )
        if not isinstance(params, Mapping):
            raise InvalidArgumentError(
                f"JaxModule: params must be a nested dict, got {type(params).__name__}"
            )
        self.__dict__["_program"] = program
        _fill(self, params, backend or hd.current_backend(), device)

    def forward(self, *inputs: Any) -> Any:
        """``program(params, *inputs)`` with this module's parameters (as the nested dict)."""
        return self._program(_as_dict(self.parameters()), *inputs)

    def extra_repr(self) -> str:
        return self._program.__name__
