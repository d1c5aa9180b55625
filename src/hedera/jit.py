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

Per-call cost. A call whose positional arguments are all arrays of one type, without keywords
and static arguments, runs in C (``hedera._fastfront.JitCall``, the base class of
:class:`Jitted`): the compiled function remembered for that type is called directly, about
50 ns over the framework's own compiled call. Other calls look up the types of their arguments
(and their keyword names) in a dict of the signatures seen before and call the compiled function
they find: a few hundred nanoseconds more (``benchmarks/jit_overhead.py``). Nests of arrays
(dicts, lists, ``hd.Container``) are walked on each call to find their backend, and a call that
mixes backends takes the slow path, which raises naming the arguments. On jax, nests of
Containers, lists and tuples go to ``jax.jit`` as the flat lists of their leaves that this walk
collects, and the Containers are rebuilt in the trace and from the returned leaves
(:class:`_FlatTraced`): jax would call back into Python for every Container node, both ways.
jax gets the ``in_jit`` flag set inside its trace only; the other backends set it around each call.

Randomness. Inside a compiled function use explicit keys
(``hd.random.normal(shape, key=k)``); a stateful call (no ``key``) would be
traced once and give the same sample on every call, so it raises
:class:`~hedera.errors.InvalidArgumentError` instead.
"""

from __future__ import annotations

import contextvars
import functools
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import _fastpath
from ._dispatch import (
    backend_mismatch,
    backend_module,
    backend_name_if_cached,
    backend_name_of_type,
    backend_of_leaves,
    current_backend,
    path_describer,
)
from ._lazy import on_first_use
from .container import Container
from .errors import InvalidArgumentError
from .tree import NAMESPACE as _TREE_NAMESPACE

if TYPE_CHECKING:
    import optree

    from . import _nests
else:  # imported on first use (see hedera._lazy): a tenth of `import hedera` otherwise
    optree = on_first_use("optree", globals())
    _nests = on_first_use("hedera._nests", globals())  # the first call with nests

__all__ = ["inside_trace", "jit", "traced_by"]

#: True while a function compiled by hd.jit runs (or is traced); stateful random calls check it
in_jit: contextvars.ContextVar[bool] = contextvars.ContextVar("hedera_in_jit", default=False)


def inside_trace(backend: str, leaves: Sequence[Any] = ()) -> bool:
    """Whether hedera code runs inside a trace of ``backend``'s compiler or transformations.

    The one place that decides it, for ``hd.jit`` and the control-flow fronts (:mod:`hedera.control`),
    which become the framework's loop and branch primitives inside a trace: ``torch.compile``
    (``torch.compiler.is_compiling``), ``tf.function``/``tf.vectorized_map`` (not executing
    eagerly), ``jax.jit`` and jax transformations (a traced array among ``leaves``, or arrays made
    now are tracers, or :data:`in_jit` is set inside ``hd.jit``'s trace). numpy never traces.
    """
    return traced_by(backend_module(backend, "autodiff"), leaves)


def values_unreadable(backend: str, leaves: Sequence[Any]) -> bool:
    """Whether the values of ``leaves`` (arrays of ``backend``) cannot be read now: they are
    symbolic in a trace. Cheaper than :func:`inside_trace` where the arrays themselves show it
    (jax: a tracer among ``leaves``, an ``isinstance`` each; a concrete array read inside a jax
    trace is a constant, readable), and the same test elsewhere (``torch.compile``,
    ``tf.function``). For eager-only checks of values, such as the label range of the losses."""
    module = backend_module(backend, "autodiff")
    is_traced = getattr(module, "is_traced", None)
    if is_traced is not None:
        return any(map(is_traced, leaves))
    return module.is_compiling()


def traced_by(module: Any, leaves: Sequence[Any] = ()) -> bool:
    """:func:`inside_trace` for a backend's ``autodiff`` module (backend code calls this one: no lookup)."""
    if getattr(module, "JIT_RUNS_F_ONLY_WHILE_TRACING", False) and in_jit.get():
        return True
    is_traced = getattr(module, "is_traced", None)
    if is_traced is not None and any(map(is_traced, leaves)):
        return True
    return module.is_compiling()


#: non-array leaf types: an argument of one of these (or an array) needs no walk, so a call whose
#: dynamic arguments are all arrays and these is cached by its argument types
_SCALARS = frozenset({bool, int, float, complex, str, type(None)})
_KWARGS = object()  # separates the positional types from the keyword names in a cache key
_MAX_SIGNATURES = 256  # argument-type signatures remembered per Jitted (beyond: walked every call)
_MIXED = object()  # _nest_backend's answer for arrays of two backends
#: a backend's per-call parts: the compiled function, whether the call sets in_jit around it, and
#: the handler of its errors (or None)
_Entry = tuple[Callable, bool, "Callable[[Exception, tuple, dict], None] | None"]
_WALK = (None, False, None)  # the entry of a signature with nests: walk them on every call
_NO_FLAT_CALL = object()  # Jitted._flat_call's answer where the flat path does not apply


def _no_flattener(args: tuple) -> None:
    """The flattener of a nest too large for generated code: the walk decides every call."""
    return None


def _nest_backend(items: list) -> Any:
    """The one backend of the arrays in ``items`` and their nests, None if there are none.

    The per-call walk of :class:`Jitted` for arguments that are nests: builtin dicts, lists,
    tuples and ``hd.Container`` objects are walked here, other non-arrays go through optree
    (namedtuples, registered nodes). Non-array leaves are skipped. Returns ``_MIXED`` for arrays of two
    backends (the caller then runs the path-reporting check, which raises).
    """
    found = None
    stack = [items]  # iterables still to scan
    while stack:
        for item in stack.pop():
            t = type(item)
            name = backend_name_if_cached(t)  # None for non-arrays and types not seen yet
            if name is None:
                if t is dict or t is list or t is tuple or t is Container:
                    # a Container's entries are read off its dict (optree would call back into Python)
                    sequence = item.values() if t is dict else item._data.values() if t is Container else item
                    if len(sequence) <= 4 or (name := _uniform_backend(sequence)) is None:
                        stack.append(sequence)
                        continue
                elif t in _SCALARS:
                    continue
                else:
                    name = _array_backend_or_walk(item, t, stack)
                    if name is None:
                        continue
            if found is None:
                found = name
            elif name != found:
                return _MIXED
    return found


def _uniform_backend(items: Any) -> str | None:
    """The backend of ``items`` if they are all arrays of one type (checked in C), else None."""
    types = set(map(type, items))
    return backend_name_if_cached(types.pop()) if len(types) == 1 else None


def _array_backend_or_walk(item: Any, t: type, stack: list) -> str | None:
    """``item``'s backend if it is an array (remembering its type), else None, its leaves queued."""
    name = backend_name_of_type(t)
    if name is not None:
        return name
    leaves = optree.tree_leaves(item, namespace=_TREE_NAMESPACE)
    if not (len(leaves) == 1 and leaves[0] is item):  # a registered node (hd.Container...)
        stack.append(leaves)
    return None


class _InJitWhileTracing:
    """``f`` that sets :data:`in_jit` while it runs: for compilers that run ``f`` only to trace it.

    jax then pays nothing per call for the flag (``Jitted.__call__`` sets it around other
    backends' calls). One per ``f`` (:func:`_in_jit_while_tracing`), so that ``jax.jit``'s
    caches, keyed by the function, are shared by every ``hd.jit(f)`` of one ``f`` (a
    ``hd.jit(f)(x)`` inside a loop traces once, as ``jax.jit(f)(x)`` does). It holds ``f``
    weakly (the ``Jitted`` holds it), so the cache does not keep ``f`` alive; ``__wrapped__``
    gives ``f`` to ``inspect.signature`` (static_argnames) and to jax's debug info.
    """

    def __init__(self, f: Callable) -> None:
        try:
            self._ref: Callable[[], Any] = weakref.ref(f)
        except TypeError:  # not weak-referenceable: held strongly (and not cached)
            self._ref = lambda: f
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            value = getattr(f, attr, None)
            if value is not None:
                setattr(self, attr, value)
        #: the flat-argument versions of this function, by argument spec (shared by every
        #: ``hd.jit(f)`` of one ``f``, for the same reason as this wrapper: jax's caches)
        self.flat: dict[tuple, _FlatTraced] = {}

    @property
    def __wrapped__(self) -> Callable:
        return self._ref()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        token = in_jit.set(True)
        try:
            return self._ref()(*args, **kwargs)
        finally:
            in_jit.reset(token)


class _FlatTraced:
    """``f`` over flat leaf lists: what ``jax.jit`` gets for arguments that are nests of Containers.

    jax flattens a list of arrays in C, but calls back into Python for every ``hd.Container``
    node of its arguments and outputs, on every call (about 0.5 us a node). :class:`Jitted`
    passes each nest argument as the list of its leaves instead (:func:`hedera._nests.flatten_args`,
    a walk it makes anyway to find the backend), and this function, run by jax only to trace,
    rebuilds the arguments from ``spec``, calls ``f`` and returns its outputs' leaves. Their
    structure is remembered with a generated builder (:func:`hedera._nests.builder`) that
    :class:`Jitted` applies to the leaves jax returns. If a later trace (new shapes) gives
    another output structure, ``unstable`` is set and the calls with this spec go back to
    ``jax.jit`` of ``f`` itself, which keeps one output structure per trace.
    """

    def __init__(self, f: _InJitWhileTracing, spec: tuple) -> None:
        self._f = f
        self.spec = list(spec)
        self.treedef: Any = None
        self.build: Callable[[list], Any] | None = None
        self.unstable = False
        for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
            value = getattr(f, attr, None)
            if value is not None:
                setattr(self, attr, value)

    def __call__(self, *flat: Any) -> list:
        out = self._f(*_nests.rebuild(self.spec, list(flat)))
        leaves, treedef = optree.tree_flatten(out, namespace=_TREE_NAMESPACE)
        if self.treedef is not None and treedef != self.treedef:
            self.unstable = True
        if self.treedef is None or treedef != self.treedef:
            self.treedef = treedef
            self.build = _nests.builder(out) or treedef.unflatten
        return leaves


_IN_JIT_WRAPPERS: dict[int, tuple[Any, _InJitWhileTracing]] = {}  # id(f) -> (weakref to f, wrapper)


def _in_jit_while_tracing(f: Callable) -> _InJitWhileTracing:
    """The :class:`_InJitWhileTracing` of ``f`` (one per live ``f``, found by identity)."""
    key = id(f)
    hit = _IN_JIT_WRAPPERS.get(key)
    if hit is not None and hit[0]() is f:
        return hit[1]
    wrapper = _InJitWhileTracing(f)
    try:
        ref = weakref.ref(f, lambda _, key=key: _IN_JIT_WRAPPERS.pop(key, None))
    except TypeError:
        return wrapper
    _IN_JIT_WRAPPERS[key] = (ref, wrapper)
    return wrapper


def _call_base() -> type:
    """The base class of :class:`Jitted`: the C call path ``hedera._fastfront.JitCall``, else
    ``object`` (no extension, ``HEDERA_PURE_PYTHON=1``, or a build without it)."""
    if not _fastpath.enabled():
        return object
    from . import _fastfront

    return getattr(_fastfront, "JitCall", object)


_CallBase = _call_base()


class Jitted(_CallBase):  # type: ignore[misc,valid-type]
    """A function compiled per backend on first call with that backend's arrays (see :func:`jit`).

    The per-call path: a call whose positional arguments are all arrays of one type, without
    keywords (and without static arguments declared), goes in C to the compiled function
    remembered for that type (the base class ``JitCall``; :meth:`_remember_fast_call`). Other
    calls run :meth:`_call`: the types of the arguments (and the keyword names) are looked up in
    a dict, which holds the compiled function for every signature seen before whose arguments
    are arrays or Python scalars. Other calls (nests of arrays, a first call) find the backend by
    walking the arguments (:func:`_nest_backend`); a call that mixes backends takes the
    path-reporting check, which raises.
    """

    def __init__(
        self,
        f: Callable,
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
        options: dict[str, Any],
        backend_options: dict[str, dict[str, Any]],
        donate_argnums: tuple[int, ...] = (),
    ) -> None:
        functools.update_wrapper(self, f, updated=())  # name and docstring; not f's __dict__
        self.fn = f
        self.static_argnums = static_argnums
        self.static_argnames = static_argnames
        self.donate_argnums = donate_argnums
        self._options = options
        self._backend_options = backend_options
        self._compiled: dict[str, Callable] = {}
        # backend -> (compiled function, whether the call sets in_jit around it, error handler)
        self._entries: dict[str, _Entry] = {}
        # the type of a single positional argument, or the tuple of the argument types (+ _KWARGS,
        # the keyword names, their values' types) -> an _entries value, or _WALK for nests
        self._by_signature: dict[Any, _Entry] = {}
        # nests of Containers passed flat (jax): spec -> (compiled function over flat leaves, its
        # _FlatTraced), and the last one used with its spec (a training loop's: one compare)
        self._flat_calls: dict[tuple, tuple[Callable, _FlatTraced]] = {}
        self._last_flat: tuple[list, str, Callable, _FlatTraced, Callable] | None = None
        # signatures whose nests held a node the flat path does not take (a dict, say): they
        # go straight to the general walk, which a failed flat walk would only precede
        self._unflat_keys: set = set()
        # TensorFlow's donation (DonatingFunction.call_flat): the flattener generated for the
        # arguments it was last called with, and call_flat; tried first, as _last_flat
        self._last_owner: tuple[Callable, Callable] | None = None

    def _call(self, *args: Any, **kwargs: Any) -> Any:
        """A call that the C path does not take (or every call, without the extension)."""
        last = self._last_flat
        if last is not None and not kwargs:  # a training loop's nests again: no walk, no lookup
            flat = last[4](args)
            if flat is not None and not last[3].unstable:
                leaves = last[2](*flat)  # first: a new trace (new shapes) may set a new build
                return last[3].build(leaves)  # type: ignore[misc]
        owner = self._last_owner
        if owner is not None and not kwargs:  # the donated variables again: no walk, no lookup
            flat = owner[0](args)
            if flat is not None:
                token = in_jit.set(True)
                try:
                    result = owner[1](args, flat)
                finally:
                    in_jit.reset(token)
                if result is not NotImplemented:
                    return result
        if kwargs:
            key: Any = (*map(type, args), _KWARGS, *kwargs, *map(type, kwargs.values()))
        elif len(args) == 1:
            key = type(args[0])
        else:
            key = tuple(map(type, args))
        try:
            compiled, sets_in_jit, diagnose = self._by_signature[key]
        except KeyError:
            compiled, sets_in_jit, diagnose = self._entry_for_call(args, kwargs, key)
        if compiled is None:  # nests: their arrays decide, found by a walk on every call
            walked = None
            flat_path = not kwargs and not (self.static_argnums or self.static_argnames)
            if flat_path and key not in self._unflat_keys:
                flat = _nests.flatten_args(args)
                if flat is None and len(self._unflat_keys) < _MAX_SIGNATURES:
                    self._unflat_keys.add(key)
                elif flat is not None:
                    result = self._flat_call(args, *flat)
                    if result is not _NO_FLAT_CALL:
                        return result
                    walked = self._entries.get(flat[2])  # the walk found the backend: no second one
                    if walked is not None and hasattr(walked[0], "call_flat"):
                        self._remember_owner(args, walked[0].call_flat)
            if walked is None:
                walked = self._walked_entry(args, kwargs)
            compiled, sets_in_jit, diagnose = walked
        if not sets_in_jit:  # jax: in_jit is set inside the traced function (tracing runs f)
            return compiled(*args, **kwargs)
        token = in_jit.set(True)
        try:
            return compiled(*args, **kwargs)
        except Exception as error:
            if diagnose is not None:  # torch: the hedera error that f raises eagerly, if any
                diagnose(error, args, kwargs)
            raise
        finally:
            in_jit.reset(token)

    def _flat_call(self, args: tuple, spec: list, flat: list, backend: str | None) -> Any:
        """Call with nests passed as flat leaf lists (:class:`_FlatTraced`), where it applies: a
        backend whose compiler runs ``f`` only to trace (jax); else :data:`_NO_FLAT_CALL`.

        The spec used last is remembered with a :func:`hedera._nests.flattener` generated for
        ``args`` (structure and leaf types), which :meth:`_call` tries first on the next call.
        """
        last = self._last_flat
        if last is not None and last[0] == spec and last[1] == backend:
            _, _, compiled, traced, _ = last
        else:
            if backend is None or backend is _nests.MIXED:
                return _NO_FLAT_CALL
            entry = self._entries.get(backend) or self._entry(backend)
            if entry[1]:  # the compiler runs f on every call (not jax): nothing to gain
                return _NO_FLAT_CALL
            key = tuple(spec)
            hit = self._flat_calls.get(key)
            if hit is None:
                if len(self._flat_calls) >= _MAX_SIGNATURES:
                    return _NO_FLAT_CALL
                hit = self._flat_calls[key] = self._flat_compiled(backend, key)
            compiled, traced = hit
            flatten = _nests.flattener(args) or _no_flattener
            self._last_flat = (spec, backend, compiled, traced, flatten)
        if traced.unstable:
            return _NO_FLAT_CALL
        leaves = compiled(*flat)
        return traced.build(leaves)  # type: ignore[misc]

    def _remember_owner(self, args: tuple, call_flat: Callable) -> None:
        """Try ``call_flat`` first on the calls with ``args``' structure and leaf types (a compiled
        function that keeps the donated arguments itself and knows them again: TensorFlow's)."""
        owner = self._last_owner
        if owner is not None and owner[1] == call_flat and owner[0](args) is not None:
            return  # the same structure and leaf types: arrays to adopt (the variables next call)
        flatten = _nests.flattener(args)
        self._last_owner = None if flatten is None else (flatten, call_flat)

    def _flat_compiled(self, backend: str, key: tuple) -> tuple[Callable, _FlatTraced]:
        """The compiled function over flat arguments of spec ``key``, and its :class:`_FlatTraced`."""
        wrapper = _in_jit_while_tracing(self.fn)
        traced = wrapper.flat.get(key)
        if traced is None:
            traced = wrapper.flat[key] = _FlatTraced(wrapper, key)
        compiled = backend_module(backend, "autodiff").jit(traced, (), (), **self._compile_options(backend))
        return compiled, traced

    def _walked_entry(self, args: tuple, kwargs: dict) -> _Entry:
        """The entry of a call with nests, when no argument is static and its backend compiled."""
        if not (self.static_argnums or self.static_argnames):
            entry = self._entries.get(_nest_backend((args, kwargs)))  # (None, _MIXED: not there)
            if entry is not None:
                return entry
        return self._entry_for_call(args, kwargs, None)

    def _entry_for_call(self, args: tuple, kwargs: dict, key: Any) -> _Entry:
        """The entry of this call's backend; remembered for ``key`` (unless None) by argument types.

        A signature whose arguments are all arrays and scalars is remembered with its entry; one
        with nests as :data:`_WALK`, which sends its calls here with ``key=None``.
        """
        if self.static_argnums or self.static_argnames:
            nums, names, n = self.static_argnums, self.static_argnames, len(args)
            dynamic = [a for i, a in enumerate(args) if i not in nums and i - n not in nums]
            dynamic += [v for k, v in kwargs.items() if k not in names]
        else:
            dynamic = [*args, *kwargs.values()]
        name = _nest_backend(dynamic)
        if name is _MIXED:  # raises BackendMismatchError naming the arguments
            return self._entry(self._backend(args, kwargs))
        if name is None:  # no arrays: the current backend, not remembered
            return self._entry(current_backend())
        entry = self._entry(name)
        if key is not None and len(self._by_signature) < _MAX_SIGNATURES:
            types_decide = all(
                backend_name_if_cached(type(a)) is not None or type(a) in _SCALARS for a in dynamic
            )
            self._by_signature[key] = entry if types_decide else _WALK
            if types_decide and not kwargs:
                self._remember_fast_call(args, entry)
            elif not types_decide:
                return _WALK  # this call too takes the path of its signature's later calls
        return entry

    def _remember_fast_call(self, args: tuple, entry: _Entry) -> None:
        """Send the calls with ``args``' signature to ``entry`` in C, if it is the C path's kind:
        positional arguments that are all arrays of one type (no keywords, no static arguments)."""
        if _CallBase is object or not args or self.static_argnums or self.static_argnames:
            return
        t = type(args[0])
        if backend_name_if_cached(t) is None or any(type(a) is not t for a in args):
            return
        compiled, sets_in_jit, diagnose = entry
        self._remember(t, compiled, in_jit if sets_in_jit else None, diagnose)

    def _entry(self, backend: str) -> _Entry:
        try:
            return self._entries[backend]
        except KeyError:
            pass
        compiled = self.compiled_for(backend)
        # a backend's compiled function may come in parts: what to call, and its error handler
        call, diagnose = getattr(compiled, "__hedera_jit_parts__", (compiled, None))
        entry = self._entries[backend] = (call, not _traces_only(backend), diagnose)
        return entry

    def _backend(self, args: tuple, kwargs: dict) -> str:
        """The backend of the array arguments (static ones excluded), else the current backend.

        The path-reporting check: raises BackendMismatchError naming an argument of each backend.
        """
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
            name = backend_of_leaves("jit", leaves, paths, describe=path_describer(root))
            if name is not None:
                found.append((name, root))
        if len(found) == 2 and found[0][0] != found[1][0]:
            parts = f"args are {found[0][0]}, kwargs are {found[1][0]}"
            raise backend_mismatch("jit", parts, advice="convert them with hd.asarray(x, backend=...)")
        return found[0][0] if found else current_backend()

    def compiled_for(self, backend: str) -> Callable:
        """The compiled function for ``backend`` (compiled now if this is its first use)."""
        try:
            return self._compiled[backend]
        except KeyError:
            pass
        f = _in_jit_while_tracing(self.fn) if _traces_only(backend) else self.fn
        compiled = backend_module(backend, "autodiff").jit(
            f, self.static_argnums, self.static_argnames, **self._compile_options(backend)
        )
        self._compiled[backend] = compiled
        return compiled

    def _compile_options(self, backend: str) -> dict[str, Any]:
        """The keyword arguments of ``backend``'s compiler: hd.jit's, the backend's own, donation."""
        options = {**self._options, **self._backend_options.get(backend, {})}
        if backend != "tensorflow":
            options.pop("jit_compile", None)
        if self.donate_argnums and backend in _DONATING_BACKENDS:
            options["donate_argnums"] = self.donate_argnums
        return options

    def __get__(self, obj: Any, objtype: Any = None) -> Any:  # decorating a method
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self) -> str:
        return f"<hd.jit of {getattr(self.fn, '__qualname__', self.fn)!r}>"


# ---- a call inside a user's own torch.compile ---------------------------------------------------


def _call_traced_by_dynamo(self: Jitted, *args: Any, **kwargs: Any) -> Any:
    """What dynamo traces for a call of a :class:`Jitted` in code it compiles (a user's
    ``torch.compile`` around a function calling an ``hd.jit``'ed one): ``f`` itself, inlined into
    the user's graph, as ``torch.compile`` inlines a compiled function called inside another.
    The C call path and the Python one's ``in_jit`` ContextVar are opaque to dynamo: it broke
    the graph there (``fullgraph=True`` failed)."""
    return self.fn(*args, **kwargs)


def _register_call_with_dynamo() -> None:
    from torch.compiler import substitute_in_graph

    substitute_in_graph(Jitted.__call__, skip_signature_check=True)(_call_traced_by_dynamo)


def _python_call(self: Jitted, *args: Any, **kwargs: Any) -> Any:
    """``Jitted.__call__`` without the C call path: :meth:`Jitted._call`, or ``f`` itself while
    dynamo traces (it inlines a Python ``__call__`` without looking for a polyfill)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.compiler.is_compiling():
        return self.fn(*args, **kwargs)
    return self._call(*args, **kwargs)


if _CallBase is object:  # no C call path: every call is the Python one
    Jitted.__call__ = _python_call  # type: ignore[method-assign,assignment]
elif "torch._dynamo" in sys.modules:
    _register_call_with_dynamo()
else:  # registered with the C fronts when dynamo is imported (_fastpath's import hook)
    _fastpath._POLYFILLS[Jitted.__call__] = _call_traced_by_dynamo


#: the backends whose compiled functions take ``donate_argnums`` (jax's own; tensorflow's variables)
_DONATING_BACKENDS = frozenset({"jax", "tensorflow"})


def _traces_only(backend: str) -> bool:
    """Whether ``backend``'s compiled function runs the Python function only to trace it (jax)."""
    return getattr(backend_module(backend, "autodiff"), "JIT_RUNS_F_ONLY_WHILE_TRACING", False)


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
    donate_argnums: int | Sequence[int] = (),
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
    donate_argnums : int or tuple of ints
        Positional arguments the caller gives up to the call, whose arrays the outputs may
        take over (a training step's parameters and optimizer state): jax donates their
        buffers (``jax.jit``'s ``donate_argnums``; a donated array is deleted by the call);
        TensorFlow keeps them in ``tf.Variable`` objects that the ``tf.function`` updates in place,
        as Keras keeps a model's weights: an output with a donated argument's structure,
        shapes and dtypes (the first such among the returned tuple's elements) is assigned to
        its variables and returned as them, and passing those back in at the next call moves
        no array in or out. The arrays given up must not be read after the call (on
        TensorFlow, variables hold the newer values). No effect on torch (``torch.compile``
        has no donation) and numpy.
    jit_compile : bool, optional
        TensorFlow only: compile the ``tf.function`` with XLA.
    backend_options : dict, optional
        Extra keyword arguments for one backend's compiler, e.g.
        ``{"torch": {"fullgraph": True, "mode": "reduce-overhead"}, "jax": {"inline": True}}``.

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
    donated = _as_tuple("jit", donate_argnums, int, "donate_argnums")
    if any(i < 0 for i in donated) or set(donated) & set(nums):
        raise InvalidArgumentError(
            f"jit: donate_argnums must be non-negative positions of arguments that are not static, "
            f"got {donate_argnums!r} (static_argnums {static_argnums!r})"
        )
    options: dict[str, Any] = {}
    if jit_compile is not None:
        options["jit_compile"] = jit_compile
    backend_options = dict(backend_options or {})
    if f is None:
        return lambda g: Jitted(g, nums, names, options, backend_options, donated)
    if not callable(f):
        raise InvalidArgumentError(f"jit: f must be callable, got {type(f).__name__}")
    return Jitted(f, nums, names, options, backend_options, donated)
