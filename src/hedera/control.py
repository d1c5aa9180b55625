"""Structured control flow: ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan``, ``map``.

Semantics follow ``jax.lax``; carries and operands are nests (``hd.tree``: dicts, lists,
tuples, named tuples, ``hd.Container``) of native arrays (Python numbers among them become
arrays of the backend). The backend is read off the array leaves, else the current backend.

Outside a trace they run as Python control flow (numpy, torch eager, tensorflow eager, jax
on concrete arrays), differentiable by the framework's ordinary autodiff. Inside a trace
(``hd.jit``, ``jax.jit``/``jax.grad``/``jax.vmap``, ``tf.function``/``tf.vectorized_map``,
``torch.compile``) they become the framework's own primitive and are never unrolled:
``lax.cond``/``switch``/``while_loop``/``scan``; ``tf.cond``/``tf.switch_case``/
``tf.while_loop`` (scans with ``TensorArray``); ``torch.cond`` and torch's ``while_loop`` and
``scan`` higher-order operators. Whether code runs inside a trace is decided in one place,
:func:`hedera.jit.inside_trace`. See docs/control_flow.md for the support matrix.

The fronts check what the primitives need, with the same hedera error on every backend:
:class:`~hedera.errors.StructureError`, :class:`~hedera.errors.ShapeError` and
:class:`~hedera.errors.DtypeError` for a body or branch whose output does not match (naming
the leaf's path), :class:`~hedera.errors.InvalidArgumentError` for non-callables and bad
``length``/``unroll``/``max_iterations`` values.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import tree as _tree
from ._dispatch import (
    backend_mismatch,
    backend_module,
    backend_name_of_type,
    backend_of_leaves,
    current_backend,
    path_describer,
)
from ._front_manual import asarray as _asarray
from ._front_manual import dtype as _dtype
from ._front_manual import isdtype as _isdtype
from ._lazy import on_first_use
from .errors import (
    DtypeError,
    InvalidArgumentError,
    NotAnArrayError,
    ShapeError,
    StructureError,
)

if TYPE_CHECKING:
    import optree
else:  # imported on first use (see hedera._lazy): a tenth of `import hedera` otherwise
    optree = on_first_use("optree", globals())

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map"]

_NAMESPACE = _tree.NAMESPACE
_MODULES: dict[str, ModuleType] = {}
_SCALARS = (builtins.bool, int, float, complex)


def _control_module(name: str) -> ModuleType:
    """``hedera.backends.<name>.control`` (importing the backend first; traceable by dynamo)."""
    try:
        return _MODULES[name]
    except KeyError:
        pass
    module = _MODULES[name] = backend_module(name, "control")
    return module


# ---- nests and checks ---------------------------------------------------------------------
#
# The fronts run once per call, the checks of a body's output once per step of an eager loop:
# both take a fast path for well-formed input (arrays of one backend, an output of the carry's
# structure, shapes and dtypes) that does what a hand-written loop does, and fall back on the
# walk that computes the leaves' paths only to raise the error naming them.

#: the treespec :func:`_flatten` gives a single array: no spec object at all (a spec made outside a
#: ``torch.compile`` trace could not be traced by dynamo)
_ARRAY = None


def _flatten(nest: Any) -> tuple[list[Any], Any]:
    """``(leaves, treespec)`` of a nest; an array is its own single leaf, of spec :data:`_ARRAY`
    (no tree walk)."""
    if backend_name_of_type(type(nest)) is not None:
        return [nest], _ARRAY
    return optree.tree_flatten(nest, namespace=_NAMESPACE)


def _is_leaf(spec: Any) -> bool:
    return spec is _ARRAY or spec.is_leaf()


def _structure(spec: Any) -> str:
    return "PyTreeSpec(*)" if spec is _ARRAY else str(spec)


def _paths(nest: Any) -> list[tuple]:
    """The paths of ``nest``'s leaves, in :func:`_flatten`'s order (for error messages)."""
    return optree.tree_paths(nest, namespace=_NAMESPACE)


def _path(root: str, path: tuple) -> str:
    return root + "".join(f"[{k!r}]" for k in path)


def _check_callable(fname: str, fn: Any, argname: str) -> None:
    if not callable(fn):
        raise InvalidArgumentError(f"{fname}: {argname} must be callable, got {type(fn).__name__}")


def _find_backend(fname: str, groups: Sequence[tuple[str, Any, list]]) -> tuple[str, bool]:
    """The one backend of the array leaves of ``groups`` (``(root, nest, leaves)``), else the
    current one; and whether every leaf is an array (no Python number to convert).

    Raises BackendMismatchError naming a path of each backend if arrays of two are mixed.
    """
    name = None
    all_arrays = True
    for _, _, leaves in groups:
        for leaf in leaves:
            found = backend_name_of_type(type(leaf))
            if found is None:
                all_arrays = False
            elif name is None:
                name = found
            elif found != name:
                _raise_backend_mismatch(fname, groups)
    return (current_backend() if name is None else name), all_arrays


def _raise_backend_mismatch(fname: str, groups: Sequence[tuple[str, Any, list]]) -> None:
    found: list[tuple[str, str]] = []
    for root, nest, leaves in groups:  # (raises BackendMismatchError naming the paths)
        name = backend_of_leaves(fname, leaves, _paths(nest), describe=path_describer(root))
        if name is not None:
            found.append((name, root))
    raise backend_mismatch(fname, ", ".join(f"{root} is {n}" for n, root in found))


def _as_arrays(fname: str, nest: Any, leaves: list, root: str, module: ModuleType) -> list:
    """The leaves of ``nest`` with Python numbers made arrays of the backend; other non-arrays raise."""
    out = []
    for leaf, path in zip(leaves, _paths(nest), strict=True):
        if backend_name_of_type(type(leaf)) is None:
            if not isinstance(leaf, _SCALARS):
                raise NotAnArrayError(
                    f"{fname}: {_path(root, path)} must be an array or a Python number, "
                    f"got {type(leaf).__name__}"
                )
            leaf = _asarray(leaf, backend=module.BACKEND)
        out.append(leaf)
    return out


def _shape(x: Any) -> tuple:
    return tuple(x.shape)


def _same_shape(a: tuple, b: tuple) -> bool:
    """Equal shapes, an unknown (None) dimension matching any (TensorFlow graphs)."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


class _Signature:
    """The structure, shapes and dtypes of a nest, to check a body's or branch's output against."""

    def __init__(self, nest: Any, spec: Any, leaves: Sequence[Any]) -> None:
        self.spec = spec
        self.shapes = [_shape(x) for x in leaves]
        self.native_dtypes = [x.dtype for x in leaves]
        self._leaves = leaves  # (for the hedera dtypes, which only error messages need)
        self.single = _is_leaf(spec) and len(leaves) == 1
        #: a plain tuple of arrays (a common carry): checked without a tree walk
        self.flat_tuple = type(nest) is tuple and all(backend_name_of_type(type(x)) is not None for x in nest)

    @property
    def dtypes(self) -> list:
        return [_dtype(x) for x in self._leaves]

    def checker(
        self, fname: str, what: str, expected: str, module: ModuleType, root: str = "output"
    ) -> Callable[[Any], tuple]:
        """``out -> out's leaves`` (numbers made arrays of the expected dtype), checked against this
        signature; run on every step of an eager loop.

        The fast path compares the native dtypes and static shapes of the same structure (for a
        single array or a plain tuple of arrays without a tree walk); anything else takes
        :meth:`_check_each`, which converts numbers and raises naming the leaf's path. (A native
        shape, ``torch.Size``, a tuple or a ``tf.TensorShape``, equals the tuple of its dimensions.)
        """

        def slow(out: Any) -> tuple:
            return self._check_each(fname, out, what, expected, module, root)

        if self.single:  # one array leaf: no flatten
            dtype, shape = self.native_dtypes[0], self.shapes[0]

            def check_single(out: Any) -> tuple:
                try:
                    if out.dtype == dtype and out.shape == shape:
                        return (out,)
                except (AttributeError, TypeError, ValueError):
                    pass
                return slow(out)

            return check_single
        expected_leaves = tuple(zip(self.native_dtypes, self.shapes, strict=True))
        if self.flat_tuple:
            count = len(expected_leaves)

            def check_tuple(out: Any) -> tuple:
                if type(out) is tuple and len(out) == count:
                    try:
                        if all(
                            backend_name_of_type(type(x)) is not None and x.dtype == d and x.shape == s
                            for x, (d, s) in zip(out, expected_leaves, strict=True)
                        ):
                            return out
                    except (AttributeError, TypeError, ValueError):
                        pass
                return slow(out)

            return check_tuple
        spec = self.spec

        def check_nest(out: Any) -> tuple:
            leaves, out_spec = optree.tree_flatten(out, namespace=_NAMESPACE)
            if out_spec == spec:
                try:
                    if all(
                        x.dtype == d and x.shape == s
                        for x, (d, s) in zip(leaves, expected_leaves, strict=True)
                    ):
                        return tuple(leaves)
                except (AttributeError, TypeError, ValueError):  # numbers; lengths differ; symbolic shapes
                    pass
            return slow(out)

        return check_nest

    def _check_each(
        self, fname: str, out: Any, what: str, expected: str, module: ModuleType, root: str
    ) -> tuple:
        paths, leaves, spec = optree.tree_flatten_with_path(out, namespace=_NAMESPACE)
        # (leaves' specs compare equal whatever namespace they keep)
        if not (_is_leaf(spec) and _is_leaf(self.spec)) and spec != self.spec:
            raise StructureError(
                f"{fname}: {what} has structure {spec}, but {expected} has structure {_structure(self.spec)}"
            )
        flat = []
        for leaf, path, shape, dtype in zip(leaves, paths, self.shapes, self.dtypes, strict=True):
            if backend_name_of_type(type(leaf)) is None:
                if not isinstance(leaf, _SCALARS):
                    raise NotAnArrayError(
                        f"{fname}: {what} {_path(root, path)} must be an array, got {type(leaf).__name__}"
                    )
                leaf = _asarray(leaf, dtype=dtype, backend=module.BACKEND)
            if not _same_shape(_shape(leaf), shape):
                raise ShapeError(
                    f"{fname}: {what} {_path(root, path)} has shape {_shape(leaf)}, but {expected} has "
                    f"shape {shape} there"
                )
            got = _dtype(leaf)
            if got != dtype:
                raise DtypeError(
                    f"{fname}: {what} {_path(root, path)} has dtype {got}, but {expected} has dtype "
                    f"{dtype} there; cast it (hd.astype)"
                )
            flat.append(leaf)
        return tuple(flat)


def _arrays_of(fname: str, nest: Any, root: str, module: ModuleType) -> tuple[list, Any]:
    """``(leaves, treespec)`` of a body's or branch's first output, numbers made arrays."""
    leaves, spec = _flatten(nest)
    if not all(backend_name_of_type(type(x)) is not None for x in leaves):
        leaves = _as_arrays(fname, nest, leaves, root, module)
    return leaves, spec


def _scalar_check(fname: str, x: Any, argname: str, kind: str, module: ModuleType) -> Any:
    """``x`` as a scalar array of ``kind`` ('bool' or 'integral'); Python values are converted."""
    if isinstance(x, builtins.bool if kind == "bool" else int) and (
        kind == "bool" or not isinstance(x, builtins.bool)
    ):
        return _asarray(x, backend=module.BACKEND)
    if backend_name_of_type(type(x)) is None:
        raise NotAnArrayError(
            f"{fname}: {argname} must be a scalar {kind} array or a Python "
            f"{'bool' if kind == 'bool' else 'int'}, got {type(x).__name__}"
        )
    if _shape(x) != ():
        raise ShapeError(
            f"{fname}: {argname} must be a scalar (shape ()), got shape {_shape(x)}; reduce it "
            f"(hd.all, hd.any), or use hd.where for an elementwise choice"
        )
    dtype = _dtype(x)
    if not _isdtype(dtype, kind):
        raise DtypeError(f"{fname}: {argname} must have a {kind} dtype, got {dtype}")
    return x


def _predicate_checker(fname: str, argname: str, module: ModuleType) -> Callable[[Any], Any]:
    """``x -> x`` checked by :func:`_scalar_check` as a scalar boolean, run on every step of an
    eager ``while_loop``: a scalar array of the backend's native bool dtype passes at once."""
    native_bool = module.BOOL

    def check(x: Any) -> Any:
        try:
            if x.dtype == native_bool and x.shape == ():
                return x
        except (AttributeError, TypeError, ValueError):
            pass
        return _scalar_check(fname, x, argname, "bool", module)

    return check


def _user(module: ModuleType, fn: Callable) -> Callable:
    return module.user_function(fn)


# ---- cond and switch ----------------------------------------------------------------------


def cond(pred: Any, true_fn: Callable, false_fn: Callable, *operands: Any) -> Any:
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``, as ``jax.lax.cond``.

    Parameters
    ----------
    pred : scalar bool array or Python bool
        Under ``hd.vmap`` a batched predicate selects per example (both branches run).
    true_fn, false_fn : callable
        Functions of ``*operands`` returning nests of the same structure, shapes and dtypes.
    *operands
        Arrays or nests of arrays.

    Returns
    -------
    The selected branch's output.

    Raises
    ------
    ShapeError, DtypeError
        If ``pred`` is not a scalar boolean, or the branches' outputs differ in a leaf's shape
        or dtype (naming its path).
    StructureError
        If the branches' outputs differ in structure.
    InvalidArgumentError
        If a branch is not callable.

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> hd.cond(np.array(True), lambda x: x + 1, lambda x: x - 1, np.array(1.0)).item()
    2.0
    """
    return _switch("cond", pred, (false_fn, true_fn), operands, ("false_fn", "true_fn"))


def switch(index: Any, branches: Sequence[Callable], *operands: Any) -> Any:
    """``branches[index](*operands)``, ``index`` clamped to ``[0, len(branches) - 1]`` (``lax.switch``).

    Parameters
    ----------
    index : scalar integer array or Python int
    branches : sequence of callables
        Functions of ``*operands`` returning nests of the same structure, shapes and dtypes.
    *operands
        Arrays or nests of arrays.

    Raises
    ------
    ShapeError, DtypeError, StructureError, InvalidArgumentError
        As :func:`cond` (``index`` must be a scalar integer).

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> hd.switch(np.array(5), [lambda x: x, lambda x: 2 * x], np.array(3.0)).item()
    6.0
    """
    if callable(branches) or not isinstance(branches, Sequence) or len(branches) == 0:
        raise InvalidArgumentError(
            f"switch: branches must be a non-empty sequence of callables, got {type(branches).__name__}"
        )
    return _switch(
        "switch", index, tuple(branches), operands, tuple(f"branches[{i}]" for i in range(len(branches)))
    )


def _switch(fname: str, index: Any, branches: tuple, operands: tuple, names: tuple) -> Any:
    for fn, argname in zip(branches, names, strict=True):
        _check_callable(fname, fn, argname)
    leaves, spec = _flatten(operands)
    argname = "pred" if fname == "cond" else "index"
    name, all_arrays = _find_backend(fname, [(argname, index, [index]), ("operands", operands, leaves)])
    module = _control_module(name)
    index = _scalar_check(fname, index, argname, "bool" if fname == "cond" else "integral", module)
    if not all_arrays:
        leaves = _as_arrays(fname, operands, leaves, "operands", module)
    signature: list[Any] = []  # the first traced branch's output: its _Signature, label and checker

    def flat_branch(fn: Callable, label: str) -> Callable:
        user_fn = _user(module, fn)

        def run(flat: tuple) -> tuple:
            out = user_fn(*spec.unflatten(list(flat)))
            if not signature:
                out_leaves, out_spec = _arrays_of(fname, out, f"{label}'s output", module)
                signature.append(_Signature(out, out_spec, out_leaves))
                signature.append(label)
                return tuple(out_leaves)
            what, expected = f"{label}'s output", f"{signature[1]}'s output"
            return signature[0].checker(fname, what, expected, module)(out)

        return run

    flat_branches = tuple(flat_branch(fn, label) for fn, label in zip(branches, names, strict=True))
    if fname == "cond":
        out = module.cond(index, flat_branches[1], flat_branches[0], tuple(leaves))
    else:
        out = module.switch(index, flat_branches, tuple(leaves))
    return _unflattener(signature[0].spec)(out)


# ---- loops --------------------------------------------------------------------------------


def _check_int(fname: str, value: Any, argname: str, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, builtins.bool) or value < minimum:
        raise InvalidArgumentError(f"{fname}: {argname} must be an int >= {minimum}, got {value!r}")
    return value


def while_loop(cond_fn: Callable, body_fn: Callable, init: Any, *, max_iterations: int | None = None) -> Any:
    """Repeat ``carry = body_fn(carry)`` while ``cond_fn(carry)``; the final carry (``lax.while_loop``).

    Parameters
    ----------
    cond_fn : callable
        ``carry -> scalar bool array``.
    body_fn : callable
        ``carry -> carry`` of the same structure, shapes and dtypes.
    init : nest of arrays
        The initial carry.
    max_iterations : int, optional
        At most this many iterations run. With it the loop is reverse-mode differentiable
        everywhere (on jax it becomes a ``lax.scan`` of ``max_iterations`` steps whose carry
        freezes once ``cond_fn`` is false); without it, reverse mode on jax raises
        :class:`~hedera.errors.UnsupportedError`.

    Raises
    ------
    StructureError, ShapeError, DtypeError
        If ``body_fn`` changes the carry's structure, a leaf's shape or dtype (naming its
        path), or ``cond_fn`` does not return a scalar boolean.
    InvalidArgumentError
        For non-callables or a negative ``max_iterations``.
    UnsupportedError
        Reverse mode through a loop without ``max_iterations`` on jax.

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> hd.while_loop(lambda c: c < 10, lambda c: c * 2, np.array(1)).item()
    16
    """
    fname = "while_loop"
    _check_callable(fname, cond_fn, "cond_fn")
    _check_callable(fname, body_fn, "body_fn")
    if max_iterations is not None:
        _check_int(fname, max_iterations, "max_iterations", 0)
    leaves, spec = _flatten(init)
    name, all_arrays = _find_backend(fname, [("init", init, leaves)])
    module = _control_module(name)
    if not all_arrays:
        leaves = _as_arrays(fname, init, leaves, "init", module)
    check_carry = _Signature(init, spec, leaves).checker(
        fname, "body_fn's output", "init", module, root="carry"
    )
    check_pred = _predicate_checker(fname, "cond_fn's output", module)
    user_cond, user_body = _user(module, cond_fn), _user(module, body_fn)
    unflatten = _unflattener(spec)

    def flat_cond(flat: tuple) -> Any:
        return check_pred(user_cond(unflatten(flat)))

    def flat_body(flat: tuple) -> tuple:
        return check_carry(user_body(unflatten(flat)))

    return unflatten(module.while_loop(flat_cond, flat_body, tuple(leaves), max_iterations))


def fori_loop(lower: Any, upper: Any, body_fn: Callable, init: Any) -> Any:
    """``carry = body_fn(i, carry)`` for ``i`` in ``range(lower, upper)``, as ``jax.lax.fori_loop``.

    With Python int bounds the loop is an :func:`scan` of ``upper - lower`` steps, reverse-mode
    differentiable on every backend; with array bounds it is a :func:`while_loop` (reverse mode
    on jax then raises :class:`~hedera.errors.UnsupportedError`). ``i`` is a scalar int32
    array (int64 on numpy for array bounds of that dtype).

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> hd.fori_loop(0, 4, lambda i, c: c + i, np.array(0)).item()
    6
    """
    fname = "fori_loop"
    _check_callable(fname, body_fn, "body_fn")
    static = all(isinstance(b, int) and not isinstance(b, builtins.bool) for b in (lower, upper))
    if static:
        module = _control_module(_find_backend(fname, [("init", init, _flatten(init)[0])])[0])
        indices = module.arange(lower, builtins.max(upper, lower))  # int32 i, as lax.fori_loop
        return scan(lambda carry, i: (body_fn(i, carry), None), init, indices, _fname=fname)[0]
    groups = [("lower", lower, [lower]), ("upper", upper, [upper]), ("init", init, _flatten(init)[0])]
    name = _find_backend(fname, groups)[0]
    module = _control_module(name)
    lower = _scalar_check(fname, lower, "lower", "integral", module)
    upper = _scalar_check(fname, upper, "upper", "integral", module)
    one = _asarray(1, dtype=_dtype(lower), backend=name)
    carry = while_loop(lambda c: c[0] < upper, lambda c: (c[0] + one, body_fn(c[0], c[1])), (lower, init))
    return carry[1]


def scan(
    f: Callable,
    init: Any,
    xs: Any = None,
    length: int | None = None,
    *,
    reverse: bool = False,
    unroll: int | bool = 1,
    _fname: str = "scan",
) -> tuple[Any, Any]:
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``: ``(carry, ys)`` (``lax.scan``).

    Parameters
    ----------
    f : callable
        ``(carry, x) -> (carry, y)``; the new carry has the structure, shapes and dtypes of
        ``init``; ``y`` is any nest of arrays (or None), the same at every step.
    init : nest of arrays
        The initial carry.
    xs : nest of arrays, optional
        Scanned over their leading axis (all leaves of one leading length); ``x`` is None
        when ``xs`` is.
    length : int, optional
        The number of steps: required without ``xs``, else it must equal their leading length.
    reverse : bool
        Scan from the end (``ys`` still line up with ``xs``).
    unroll : int or bool
        Steps per loop iteration in the compiled loop (jax; elsewhere a hint that is ignored).

    Returns
    -------
    (carry, ys)
        The final carry; the ``y`` of every step stacked on a new leading axis.

    Raises
    ------
    StructureError, ShapeError, DtypeError
        If ``f`` changes the carry (naming the leaf's path) or does not return a pair, or
        ``xs`` leaves differ in leading length.
    InvalidArgumentError
        For a non-callable ``f``, a ``length`` that is missing or contradicts ``xs``, a bad ``unroll``.

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> total, running = hd.scan(lambda c, x: (c + x, c + x), np.array(0.0), np.arange(4.0))
    >>> total.item(), running.tolist()
    (6.0, [0.0, 1.0, 3.0, 6.0])
    """
    fname = _fname
    _check_callable(fname, f, "f")
    if not isinstance(unroll, (int, builtins.bool)) or (not isinstance(unroll, builtins.bool) and unroll < 1):
        raise InvalidArgumentError(f"{fname}: unroll must be a positive int or a bool, got {unroll!r}")
    carry_leaves, carry_spec = _flatten(init)
    x_leaves, x_spec = _flatten(xs)
    name, all_arrays = _find_backend(fname, [("init", init, carry_leaves), ("xs", xs, x_leaves)])
    module = _control_module(name)
    if not all_arrays:
        carry_leaves = _as_arrays(fname, init, carry_leaves, "init", module)
        x_leaves = _as_arrays(fname, xs, x_leaves, "xs", module)
    length = _scan_length(fname, xs, x_leaves, length)
    check_carry = _Signature(init, carry_spec, carry_leaves).checker(
        fname, "body_fn's output" if fname == "fori_loop" else "f's carry", "init", module, root="carry"
    )
    y_signature: list[_Signature] = []
    check_y: list[Callable[[Any], tuple]] = []  # y's checker, from the first step's y
    user_f = _user(module, f)
    unflatten_carry, unflatten_x = _unflattener(carry_spec), _unflattener(x_spec)

    def step(carry: tuple, x: tuple) -> tuple[tuple, tuple]:
        out = user_f(unflatten_carry(carry), unflatten_x(x))
        if not (isinstance(out, tuple) and len(out) == 2):
            raise StructureError(f"{fname}: f must return a pair (carry, y), got {type(out).__name__}")
        new = check_carry(out[0])
        if check_y:
            return new, check_y[0](out[1])
        y_leaves, y_spec = _arrays_of(fname, out[1], "y", module)
        y_signature.append(_Signature(out[1], y_spec, y_leaves))
        check_y.append(y_signature[0].checker(fname, "f's y", "the first step's y", module, root="y"))
        return new, tuple(y_leaves)

    carry, ys = module.scan(step, tuple(carry_leaves), tuple(x_leaves), length, bool(reverse), unroll)
    return unflatten_carry(carry), _unflattener(y_signature[0].spec)(ys)


def _unflattener(spec: Any) -> Callable[[tuple], Any]:
    """``flat -> nest`` for ``spec`` (a single array leaf is itself: no unflatten per step)."""
    if _is_leaf(spec):
        return lambda flat: flat[0]
    return lambda flat: spec.unflatten(list(flat))


def _scan_length(fname: str, xs: Any, leaves: list, length: Any) -> int:
    if length is not None:
        _check_int(fname, length, "length", 0)
    first = None
    for leaf in leaves:  # (the paths are walked only to name a bad leaf)
        shape = _shape(leaf)
        if shape == () or shape[0] is None or (first is not None and shape[0] != first):
            _raise_bad_lengths(fname, xs, leaves)
        first = shape[0]
    if first is None:
        if length is None:
            raise InvalidArgumentError(f"{fname}: give xs or length (the number of steps)")
        return length
    if length is not None and length != first:
        path = _paths(xs)[0]
        raise InvalidArgumentError(
            f"{fname}: length={length} contradicts xs: {_path('xs', path)} has leading length {first}"
        )
    return int(first)


def _raise_bad_lengths(fname: str, xs: Any, leaves: list) -> None:
    """Raise ShapeError naming the first leaf of ``xs`` without a leading axis of the common length."""
    first = None
    for leaf, path in zip(leaves, _paths(xs), strict=True):
        shape = _shape(leaf)
        if shape == ():
            raise ShapeError(
                f"{fname}: {_path('xs', path)} is a scalar; xs leaves need a leading axis to scan over"
            )
        if shape[0] is None:
            raise ShapeError(
                f"{fname}: {_path('xs', path)} has an unknown leading length; give it a static shape"
            )
        if first is None:
            first = (shape[0], path)
        elif shape[0] != first[0]:
            raise ShapeError(
                f"{fname}: xs leaves have different leading lengths: {_path('xs', first[1])} has "
                f"{first[0]}, {_path('xs', path)} has {shape[0]}"
            )


def map(f: Callable, xs: Any) -> Any:
    """``f`` applied to each slice of ``xs`` along its leading axis, results stacked, as ``jax.lax.map``.

    A :func:`scan` without a carry: one compiled loop, not a vectorised map (use
    :func:`hedera.vmap` for that).

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> hd.map(lambda row: row.sum(), np.ones((3, 2))).tolist()
    [2.0, 2.0, 2.0]
    """
    _check_callable("map", f, "f")
    return scan(lambda carry, x: (carry, f(x)), (), xs, _fname="map")[1]
