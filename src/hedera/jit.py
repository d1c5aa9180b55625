"""``hd.jit``: compile a function of native arrays with its framework's compiler.

* jax: ``jax.jit`` (``static_argnums``/``static_argnames`` passed on).
* tensorflow: ``tf.function`` (``jit_compile=True`` compiles with XLA).
* torch: ``torch.compile``.
* numpy: no compiler; the function runs as it is.

The backend is read off the array arguments at each call, and one compiled
function is kept per backend: the same ``hd.jit(f)`` called with torch tensors
and then with jax arrays compiles once for each.

Static arguments. jax needs them declared (they are hashed into the cache
key). ``tf.function`` and ``torch.compile`` treat every Python (non-array)
argument as static by nature: a new value retraces (tf) or recompiles (torch,
through its guards), and hedera passes the declaration through to jax only.
Pass numbers that change from call to call as arrays, or they will retrace.

Randomness. Inside a compiled function use explicit keys
(``hd.random.normal(shape, key=k)``); a stateful call (no ``key``) would be
traced once and give the same sample on every call, so it raises
:class:`~hedera.errors.InvalidArgumentError` instead.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Sequence
from typing import Any

import optree

from ._dispatch import current_backend
from .autodiff import _TREE_NAMESPACE, _autodiff_module, _backend_of_leaves
from .errors import BackendMismatchError, InvalidArgumentError

__all__ = ["jit"]

#: True while a function compiled by hd.jit runs (or is traced); stateful random calls check it
in_jit: contextvars.ContextVar[bool] = contextvars.ContextVar("hedera_in_jit", default=False)


class Jitted:
    """A function compiled per backend on first call with that backend's arrays (see :func:`jit`)."""

    def __init__(
        self,
        f: Callable,
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
        options: dict[str, Any],
        backend_options: dict[str, dict[str, Any]],
    ) -> None:
        functools.update_wrapper(self, f, updated=())  # name and docstring; not f's __dict__
        self.fn = f
        self.static_argnums = static_argnums
        self.static_argnames = static_argnames
        self._options = options
        self._backend_options = backend_options
        self._compiled: dict[str, Callable] = {}

    def _backend(self, args: tuple, kwargs: dict) -> str:
        """The backend of the array arguments (static ones excluded), else the current backend."""
        found = []
        for root, tree in (
            (
                "args",
                [
                    a
                    for i, a in enumerate(args)
                    if i not in self.static_argnums and i - len(args) not in self.static_argnums
                ],
            ),
            ("kwargs", {k: v for k, v in kwargs.items() if k not in self.static_argnames}),
        ):
            paths, leaves, _ = optree.tree_flatten_with_path(tree, namespace=_TREE_NAMESPACE)
            name = _backend_of_leaves("jit", leaves, paths, root, skip_non_arrays=True)
            if name is not None:
                found.append((name, root))
        if len(found) == 2 and found[0][0] != found[1][0]:
            raise BackendMismatchError(
                f"jit: arrays of different backends in one call (args are {found[0][0]}, "
                f"kwargs are {found[1][0]}); convert them with hd.asarray(x, backend=...)"
            )
        return found[0][0] if found else current_backend()

    def compiled_for(self, backend: str) -> Callable:
        """The compiled function for ``backend`` (compiled now if this is its first use)."""
        try:
            return self._compiled[backend]
        except KeyError:
            pass
        options = {**self._options, **self._backend_options.get(backend, {})}
        if backend != "tensorflow":
            options.pop("jit_compile", None)
        compiled = _autodiff_module(backend).jit(
            self.fn, self.static_argnums, self.static_argnames, **options
        )
        self._compiled[backend] = compiled
        return compiled

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        compiled = self.compiled_for(self._backend(args, kwargs))
        token = in_jit.set(True)
        try:
            return compiled(*args, **kwargs)
        finally:
            in_jit.reset(token)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:  # decorating a method
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self) -> str:
        return f"<hd.jit of {getattr(self.fn, '__qualname__', self.fn)!r}>"


def _as_tuple(fname: str, value: Any, kind: type, argname: str) -> tuple:
    items = (
        (value,) if isinstance(value, kind) else tuple(value) if isinstance(value, (tuple, list)) else None
    )
    if items is None or not all(isinstance(v, kind) and not isinstance(v, bool) for v in items):
        spelled = {"int": "an int or a tuple of ints", "str": "a str or a tuple of strs"}[kind.__name__]
        raise InvalidArgumentError(f"{fname}: {argname} must be {spelled}, got {value!r}")
    return items


def jit(
    f: Callable | None = None,
    static_argnums: int | Sequence[int] = (),
    static_argnames: str | Sequence[str] = (),
    *,
    jit_compile: bool | None = None,
    backend_options: dict[str, dict[str, Any]] | None = None,
) -> Any:
    """Compile ``f`` with the compiler of the framework of its array arguments.

    Parameters
    ----------
    f : callable
        A function of arrays (or nests of arrays) and Python values. Usable as
        ``@hd.jit`` or ``@hd.jit(static_argnums=...)``.
    static_argnums, static_argnames
        Arguments that are Python values the function's structure depends on
        (sizes, flags). Declared for jax; tf and torch specialise on every Python
        argument anyway (a new value re-traces).
    jit_compile : bool, optional
        TensorFlow only: compile the ``tf.function`` with XLA.
    backend_options : dict, optional
        Extra keyword arguments for one backend's compiler, e.g.
        ``{"torch": {"fullgraph": True, "mode": "reduce-overhead"}, "jax": {"donate_argnums": 0}}``.

    Returns
    -------
    Jitted
        A callable. Its first call with a backend's arrays compiles for that
        backend (the backend of calls without arrays is the current backend);
        later calls with the same shapes and dtypes reuse the compiled code.
        numpy arrays run ``f`` itself.

    Raises
    ------
    BackendMismatchError
        If one call mixes arrays of two backends.

    Examples
    --------
    >>> import hedera as hd, jax.numpy as jnp
    >>> @hd.jit
    ... def loss(w, x):
    ...     return hd.sum(hd.tanh(x @ w) ** 2)
    >>> float(loss(jnp.ones((2,)), jnp.zeros((3, 2))))
    0.0
    """
    nums = _as_tuple("jit", static_argnums, int, "static_argnums")
    names = _as_tuple("jit", static_argnames, str, "static_argnames")
    options: dict[str, Any] = {}
    if jit_compile is not None:
        options["jit_compile"] = jit_compile
    backend_options = dict(backend_options or {})
    if f is None:
        return lambda g: Jitted(g, nums, names, options, backend_options)
    if not callable(f):
        raise InvalidArgumentError(f"jit: f must be callable, got {type(f).__name__}")
    return Jitted(f, nums, names, options, backend_options)
