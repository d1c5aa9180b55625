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

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import hedera as hd
from hedera.errors import DtypeError, HederaError, InvalidArgumentError, ShapeError, UnsupportedError
from hedera.nn.module import is_array

from ._lax import RULES, hd_dtype

__all__ = ["Interpreter", "JaxProgram", "from_jax"]

Array = Any


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


class Interpreter:
    """Evaluates jaxprs with hedera calls on one backend and device: what the table's rows see as ``ctx``.

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
        """A NumPy (or JAX) constant as an array of this backend and device."""
        return hd.asarray(np.asarray(value), backend=self.backend, device=self.device)

    def _literal(self, var: Any) -> Array:
        value = var.val
        value = value.item() if hasattr(value, "item") else value  # (a NumPy scalar or 0-d array)
        return hd.full((), value, dtype=hd_dtype(var.aval.dtype), device=self.device)

    def eval(self, closed: Any, *args: Array) -> list[Array]:
        """Evaluate a ``ClosedJaxpr`` on ``args``; returns its outputs as a list."""
        return self.eval_open(closed.jaxpr, [self.constant(c) for c in closed.consts], list(args))

    def eval_open(self, jaxpr: Any, consts: Sequence[Array], args: Sequence[Array]) -> list[Array]:
        """Evaluate an open ``Jaxpr`` with its constants ``consts`` bound to its constvars."""
        env: dict[Any, Array] = {}

        def read(var: Any) -> Array:
            return self._literal(var) if hasattr(var, "val") else env[var]

        env.update(zip(jaxpr.constvars, consts, strict=True))
        env.update(zip(jaxpr.invars, args, strict=True))
        for eqn in jaxpr.eqns:
            outs = self._run(eqn, [read(v) for v in eqn.invars])
            for var, value in zip(eqn.outvars, outs, strict=True):
                if type(var).__name__ != "DropVar":
                    env[var] = _as_declared(value, var)
        return [read(v) for v in jaxpr.outvars]

    def _run(self, eqn: Any, operands: list[Array]) -> Sequence[Array]:
        name = eqn.primitive.name
        rule = RULES[name]
        reason = rule.limits.get(self.backend)
        if reason is not None:
            raise UnsupportedError(f"from_jax: {name} on {self.backend}: {reason}; in the equation\n  {eqn}")
        try:
            out = rule.lower(self, eqn, *operands)
        except HederaError as e:
            e.add_note(f"(in from_jax's lowering of the equation: {eqn})")
            raise
        return out if eqn.primitive.multiple_results else (out,)


def _as_declared(value: Array, var: Any) -> Array:
    """``value`` in the dtype the jaxpr declares for ``var`` (hedera's reductions may promote)."""
    expected = hd_dtype(var.aval.dtype)
    return value if hd.dtype(value) == expected else hd.astype(value, expected)


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
        self._consts = [np.asarray(c) for c in closed_jaxpr.consts]
        self._in_tree = in_tree
        self._out_tree = out_tree
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
        jax = _jax()
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
        leaves, tree = jax.tree_util.tree_flatten(tuple(dynamic))
        if tree != self._in_tree:
            raise InvalidArgumentError(
                f"from_jax program {self.__name__}: the arguments' structure {tree} differs from "
                f"the traced one {self._in_tree}"
            )
        backend, device = _placement(leaves)
        leaves = [self._checked(i, x, backend, device) for i, x in enumerate(leaves)]
        with hd.use_backend(backend):
            ctx = Interpreter(backend, device)
            consts = [ctx.constant(c) for c in self._consts]
            outs = ctx.eval_open(self.closed_jaxpr.jaxpr, consts, leaves)
        return jax.tree_util.tree_unflatten(self._out_tree, outs)

    def _checked(self, i: int, x: Any, backend: str, device: Any) -> Array:
        shape, dtype = self._avals[i]
        if not is_array(x):
            if isinstance(x, (bool, int, float)):  # a Python number where the example had one
                return hd.full((), x, dtype=dtype, device=device)
            raise InvalidArgumentError(
                f"from_jax program {self.__name__}: argument leaf {i} must be an array, "
                f"got {type(x).__name__}"
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
