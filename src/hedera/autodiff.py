"""Function transformations, JAX-style, on every autodiff backend.

``hd.grad``, ``hd.value_and_grad``, ``hd.jacobian``, ``hd.vjp``, ``hd.jvp``,
``hd.vmap``, ``hd.stop_gradient`` and ``hd.execute_with_gradients`` take and
return functions of native arrays, or of nests of them (dicts, lists, tuples,
named tuples, ``hd.Container``); gradients come back in the structure of the
arguments. The backend is read off the array leaves of the arguments at call
time:

* torch: ``torch.func`` (``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``vmap``);
* jax: ``jax`` itself;
* tensorflow: ``tf.GradientTape`` (nested for higher orders),
  ``tf.autodiff.ForwardAccumulator`` and ``tf.vectorized_map``;
* numpy: no automatic differentiation; the gradient transformations raise
  :class:`~hedera.errors.NoAutodiffError`. ``vmap`` (a loop) and
  ``stop_gradient`` (the identity) work.

The transformations compose (``hd.grad(hd.grad(f))``, ``hd.vmap(hd.grad(f))``,
``hd.jacobian(hd.grad(f))`` for the Hessian, ``hd.jit(hd.grad(f))``). See
docs/autodiff.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import tree as _tree
from ._dispatch import backend_module, backend_name_of_type, backend_of_leaves, path_describer
from ._lazy import on_first_use
from .errors import (
    DtypeError,
    InvalidArgumentError,
    InvalidAxisError,
    NotAnArrayError,
    ShapeError,
)

if TYPE_CHECKING:
    import optree
else:  # imported on first use (see hedera._lazy): a tenth of `import hedera` otherwise
    optree = on_first_use("optree", globals())

__all__ = [
    "execute_with_gradients",
    "grad",
    "jacobian",
    "jvp",
    "stop_gradient",
    "value_and_grad",
    "vjp",
    "vmap",
]

# like functools.wraps, but the wrapper keeps hedera's __module__ (so TF AutoGraph leaves hedera's code alone)
_wraps = functools.partial(functools.wraps, assigned=("__name__", "__qualname__", "__doc__"))

_TREE_NAMESPACE = _tree.NAMESPACE  # optree registry namespace of hd.tree (hd.Container registers there)


# ---- nests ------------------------------------------------------------------------------


def _flatten(tree: Any, none_is_leaf: bool = False) -> tuple[list[Any], list[tuple], Any]:
    """(leaves, paths, treespec) of a nest; ``None`` is an empty subtree unless ``none_is_leaf``."""
    paths, leaves, spec = optree.tree_flatten_with_path(
        tree, none_is_leaf=none_is_leaf, namespace=_TREE_NAMESPACE
    )
    return leaves, paths, spec


def _path_str(root: str, path: tuple) -> str:
    """``args[0]['w'][1]`` for root ``args`` and path ``(0, 'w', 1)``."""
    return path_describer(root)(path)


def _autodiff_module(name: str) -> ModuleType:
    """``hedera.backends.<name>.autodiff`` (loading the backend's namespace first)."""
    return backend_module(name, "autodiff")


def _backend_of_leaves(fname: str, leaves: Sequence[Any], paths: Sequence[tuple], root: str) -> str | None:
    """The one backend of the array ``leaves`` under the argument ``root``; every leaf must be an
    array (:func:`hedera._dispatch.backend_of_leaves`)."""
    return backend_of_leaves(
        fname, leaves, paths, describe=path_describer(root), non_arrays="an array of a known framework"
    )


def _one_inexact_array_type(leaves: list[Any]) -> ModuleType | None:
    """The autodiff module of ``leaves`` if they are arrays of one type, of an autodiff backend,
    all of floating (or complex) dtypes: what :func:`_prepare` checks, in one pass; else None."""
    if not leaves:
        return None
    kind = type(leaves[0])
    for leaf in leaves:
        if type(leaf) is not kind:
            return None
    name = backend_name_of_type(kind)
    if name is None:
        return None
    module = _autodiff_module(name)
    if not module.AUTODIFF:
        return None
    all_inexact = getattr(module, "all_inexact", None)
    if all_inexact is not None:
        return module if all_inexact(leaves) else None
    return module if all(map(module.is_inexact, leaves)) else None


def _prepare(fname: str, trees: tuple, root: str, argnums: Sequence[int] | None = None) -> tuple:
    """Flatten the differentiated arguments; check them; find their backend module.

    Returns ``(leaves, treespec, module)``. The leaves must be arrays of one
    autodiff backend with floating (or complex) dtypes.
    """
    leaves, paths, spec = _flatten(trees)  # with paths: dynamo traces optree's flatten_with_path only
    module = _one_inexact_array_type(leaves)
    if module is not None:  # the common case, checked in one pass
        return leaves, spec, module
    if argnums is not None:  # name the positional argument, not the index into the differentiated ones
        paths = [(argnums[p[0]], *p[1:]) for p in paths]
    if not leaves:
        raise InvalidArgumentError(f"{fname}: the differentiated arguments contain no arrays")
    name = _backend_of_leaves(fname, leaves, paths, root)
    module = _autodiff_module(name)
    if not module.AUTODIFF:
        raise module.no_autodiff(fname)
    for leaf, path in zip(leaves, paths, strict=True):
        if not module.is_inexact(leaf):
            raise DtypeError(
                f"{fname}: {_path_str(root, path)} has dtype {leaf.dtype}; gradients are defined for "
                f"floating-point (and complex) arrays only; pass integer and boolean arrays as "
                f"arguments outside argnums, or cast them with hd.astype"
            )
    return leaves, spec, module


def _normalize_argnums(fname: str, argnums: int | Sequence[int]) -> tuple[tuple[int, ...], bool]:
    """``argnums`` as a tuple of ints, and whether it was a single int."""
    if isinstance(argnums, int) and not isinstance(argnums, bool):
        return (argnums,), True
    try:
        nums = tuple(argnums)
    except TypeError:
        nums = None
    if not nums or not all(isinstance(a, int) and not isinstance(a, bool) for a in nums):
        raise InvalidArgumentError(
            f"{fname}: argnums must be an int or a non-empty tuple of ints, got {argnums!r}"
        )
    if len(set(nums)) != len(nums):
        raise InvalidArgumentError(f"{fname}: argnums {argnums!r} repeats an argument")
    return nums, False


def _resolve_argnums(fname: str, nums: tuple[int, ...], nargs: int) -> tuple[int, ...]:
    out = []
    for a in nums:
        if not -nargs <= a < nargs:
            raise InvalidArgumentError(
                f"{fname}: argnums={a} is out of range for a call with {nargs} positional "
                f"argument{'s' if nargs != 1 else ''}; differentiated arguments must be passed positionally"
            )
        out.append(a % nargs)
    return tuple(out)


def _substitute(args: tuple, argnums: tuple[int, ...], values: Sequence[Any]) -> list[Any]:
    new = list(args)
    for i, v in zip(argnums, values, strict=True):
        new[i] = v
    return new


def _check_scalar_output(fname: str, out: Any, has_aux: bool, module: ModuleType) -> Any:
    """The value to differentiate, checked: a real floating-point scalar array."""
    if has_aux:
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise InvalidArgumentError(
                f"{fname}: with has_aux=True, f must return a pair (value, aux), got {type(out).__name__}"
            )
        out = out[0]
    if backend_name_of_type(type(out)) is None:
        raise NotAnArrayError(
            f"{fname}: f must return a scalar array, got {type(out).__name__}"
            + ("; with several outputs use has_aux=True or hd.vjp" if isinstance(out, (tuple, list)) else "")
        )
    shape = tuple(out.shape)
    if shape != ():
        raise ShapeError(
            f"{fname}: f must return a scalar (shape ()), got shape {shape}; "
            f"reduce it (hd.sum) or use hd.jacobian / hd.vjp for non-scalar outputs"
        )
    if not module.is_real_floating(out):
        raise DtypeError(
            f"{fname}: f must return a real floating-point scalar, got dtype {out.dtype}; "
            f"integer and boolean outputs have no gradient"
        )
    return out


# ---- gradients --------------------------------------------------------------------------


def value_and_grad(
    f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., tuple[Any, Any]]:
    """A function computing ``f`` and its gradient with respect to the ``argnums`` arguments.

    Parameters
    ----------
    f : callable
        Returns a real floating-point scalar array (shape ``()``), or ``(scalar,
        aux)`` with ``has_aux=True``. Its ``argnums`` arguments are arrays or
        nests of floating-point arrays of one autodiff backend.
    argnums : int or tuple of int, default 0
        Which positional arguments to differentiate with respect to.
    has_aux : bool, default False
        Whether ``f`` returns ``(value, aux)``; ``aux`` is passed through.

    Returns
    -------
    callable
        Same arguments as ``f``; returns ``(value, grads)`` (``((value, aux),
        grads)`` with ``has_aux``). ``grads`` has the structure, shapes and
        dtypes of argument ``argnums`` (a tuple of those for a tuple ``argnums``).

    Raises
    ------
    NoAutodiffError
        On numpy arrays.
    InvalidArgumentError
        If ``argnums`` is out of range for the call's positional arguments.
    NotAnArrayError, BackendMismatchError, DtypeError
        For a non-array leaf, leaves of two backends, or an integer leaf, naming its path.
    ShapeError, DtypeError
        If ``f`` returns a non-scalar or a non-floating value.

    Examples
    --------
    >>> import hedera as hd, torch
    >>> value, g = hd.value_and_grad(lambda x: (x**2).sum())(torch.tensor([1.0, 2.0]))
    >>> float(value), g.tolist()
    (5.0, [2.0, 4.0])
    """
    nums, single = _normalize_argnums("value_and_grad", argnums)

    @_wraps(f)
    def value_and_grad_f(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        fname = "value_and_grad"
        idx = _resolve_argnums(fname, nums, len(args))
        leaves, spec, module = _prepare(fname, tuple(args[i] for i in idx), "args", idx)
        user_f = module.user_function(f)

        store: dict = {}

        def flat_f(flat: tuple) -> Any:
            out = user_f(*_substitute(args, idx, spec.unflatten(flat)), **kwargs)
            _check_scalar_output(fname, out, has_aux, module)
            return (out[0], _aux_out(out[1], store)) if has_aux else out

        value, grads = module.value_and_grad(flat_f, tuple(leaves), has_aux)
        if has_aux:
            value = (value[0], _aux_in(value[1], store))
        grads = spec.unflatten(grads)
        return value, grads[0] if single else grads

    value_and_grad_f.__hedera_transform__ = True  # type: ignore[attr-defined]
    return value_and_grad_f


def grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False) -> Callable:
    """A function computing the gradient of scalar-valued ``f`` with respect to the ``argnums`` arguments.

    As :func:`value_and_grad`, returning only the gradient (``(grads, aux)``
    with ``has_aux``). Compose it for higher orders: ``hd.grad(hd.grad(f))``.

    Examples
    --------
    >>> import hedera as hd, jax.numpy as jnp
    >>> float(hd.grad(hd.grad(lambda x: x**3))(jnp.asarray(2.0)))
    12.0
    """
    vg = value_and_grad(f, argnums, has_aux)

    @_wraps(f)
    def grad_f(*args: Any, **kwargs: Any) -> Any:
        value, grads = vg(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    grad_f.__hedera_transform__ = True  # type: ignore[attr-defined]
    return grad_f


def execute_with_gradients(f: Callable, xs: Any, *, has_aux: bool = False) -> tuple[Any, Any]:
    """Run ``f(xs)`` and return ``(value, grads)``: the gradient of scalar ``f`` at ``xs``.

    ``xs`` is an array or a nest of arrays (often a model's parameters); ``grads``
    has its structure. Equivalent to ``hd.value_and_grad(f, has_aux=has_aux)(xs)``.

    Examples
    --------
    >>> import hedera as hd, torch
    >>> params = {"w": torch.tensor([1.0, -2.0]), "b": torch.tensor(0.5)}
    >>> loss, grads = hd.execute_with_gradients(lambda p: (p["w"] ** 2).sum() + p["b"], params)
    >>> float(loss), grads["w"].tolist(), float(grads["b"])
    (5.5, [2.0, -4.0], 1.0)
    """
    return value_and_grad(f, 0, has_aux)(xs)


def _flat_outputs(fname: str, out: Any, store: dict) -> tuple:
    """Flatten ``f``'s output nest (checking its leaves are arrays) and keep its treespec in ``store``."""
    leaves, paths, spec = _flatten(out)
    for leaf, path in zip(leaves, paths, strict=True):
        if backend_name_of_type(type(leaf)) is None:
            raise NotAnArrayError(
                f"{fname}: {_path_str('output', path)} must be an array, got {type(leaf).__name__}"
            )
    store["out"] = spec
    return tuple(leaves)


def _aux_out(aux: Any, store: dict) -> tuple:
    """The array leaves of ``aux``, for the framework to carry out of its transformation.

    Frameworks carry only arrays (torch.func rejects other leaves); the rest of
    ``aux`` (its structure, Python values) waits in ``store`` for :func:`_aux_in`.
    """
    leaves, _, spec = _flatten(aux)
    is_array = [backend_name_of_type(type(leaf)) is not None for leaf in leaves]
    store["aux"] = (spec, [None if a else leaf for leaf, a in zip(leaves, is_array, strict=True)], is_array)
    return tuple(leaf for leaf, a in zip(leaves, is_array, strict=True) if a)


def _aux_in(arrays: Sequence[Any], store: dict) -> Any:
    """``aux`` rebuilt from the arrays the framework returned and what :func:`_aux_out` kept."""
    spec, leaves, is_array = store["aux"]
    it = iter(arrays)
    return spec.unflatten([next(it) if a else leaf for leaf, a in zip(leaves, is_array, strict=True)])


def _outputs_function(
    fname: str, f: Callable, spec: Any, has_aux: bool, store: dict, module: ModuleType, *, packed: bool
) -> Callable:
    """``f`` as a function of flat leaves (one tuple if ``packed``, else positional) returning flat outputs.

    ``f`` is the user's function, or (``packed``) hedera's wrapper of an already converted one.
    """
    if not packed:
        f = module.user_function(f)

    def call(flat: tuple) -> Any:
        out = f(*spec.unflatten(flat))
        if has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise InvalidArgumentError(
                    f"{fname}: with has_aux=True, f must return a pair (output, aux), "
                    f"got {type(out).__name__}"
                )
            return _flat_outputs(fname, out[0], store), _aux_out(out[1], store)
        return _flat_outputs(fname, out, store)

    if packed:
        return call
    return lambda *flat: call(flat)


def vjp(f: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """``f(*primals)`` and its vector-Jacobian product function (reverse mode).

    Parameters
    ----------
    f : callable
        Maps ``primals`` (arrays or nests of floating-point arrays) to an array or
        a nest of arrays (``(output, aux)`` with ``has_aux``).
    *primals
        The point to linearise at.

    Returns
    -------
    tuple
        ``(output, vjp_fn)`` (``(output, vjp_fn, aux)`` with ``has_aux``).
        ``vjp_fn(cotangent)`` takes a cotangent with the structure and shapes of
        ``output`` and returns a tuple with one cotangent per primal.

    Examples
    --------
    >>> import hedera as hd, torch
    >>> out, pullback = hd.vjp(lambda x: x * 3, torch.tensor([1.0, 2.0]))
    >>> pullback(torch.tensor([1.0, 10.0]))[0].tolist()
    [3.0, 30.0]
    """
    fname = "vjp"
    leaves, spec, module = _prepare(fname, primals, "primals")
    store: dict = {}
    flat_f = _outputs_function(fname, f, spec, has_aux, store, module, packed=False)
    result = module.vjp(flat_f, tuple(leaves), has_aux)
    out_leaves, pullback = result[0], result[1]
    out_spec = store["out"]

    def vjp_fn(cotangent: Any) -> tuple:
        ct_leaves, _, ct_spec = _flatten(cotangent)
        if ct_spec != out_spec:
            raise InvalidArgumentError(
                f"vjp_fn: the cotangent's structure {ct_spec} differs from the output's {out_spec}"
            )
        for c, o in zip(ct_leaves, out_leaves, strict=True):
            if tuple(c.shape) != tuple(o.shape):
                raise ShapeError(
                    f"vjp_fn: a cotangent has shape {tuple(c.shape)}, its output {tuple(o.shape)}"
                )
        return tuple(spec.unflatten(pullback(tuple(ct_leaves))))

    out = out_spec.unflatten(out_leaves)
    return (out, vjp_fn, _aux_in(result[2], store)) if has_aux else (out, vjp_fn)


def jvp(f: Callable, primals: Sequence[Any], tangents: Sequence[Any], *, has_aux: bool = False) -> tuple:
    """``f(*primals)`` and its Jacobian-vector product with ``tangents`` (forward mode).

    Parameters
    ----------
    f : callable
        Maps ``*primals`` to an array or a nest of arrays (``(output, aux)`` with ``has_aux``).
    primals : tuple or list
        The arguments of ``f``: arrays or nests of floating-point arrays.
    tangents : tuple or list
        One tangent per primal, of the same structure, shapes and dtypes.

    Returns
    -------
    tuple
        ``(output, tangent_out)`` (``(output, tangent_out, aux)`` with
        ``has_aux``); ``tangent_out`` has the structure of ``output``.

    Examples
    --------
    >>> import hedera as hd, jax.numpy as jnp
    >>> out, t = hd.jvp(lambda x: x**2, (jnp.asarray(3.0),), (jnp.asarray(1.0),))
    >>> float(out), float(t)
    (9.0, 6.0)
    """
    fname = "jvp"
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise InvalidArgumentError(
            f"{fname}: primals and tangents must be tuples (one entry per argument of f), "
            f"got {type(primals).__name__} and {type(tangents).__name__}"
        )
    leaves, spec, module = _prepare(fname, tuple(primals), "primals")
    t_leaves, _, t_spec = _flatten(tuple(tangents))
    if t_spec != spec:
        raise InvalidArgumentError(f"{fname}: tangents have structure {t_spec}, primals {spec}")
    for t, p in zip(t_leaves, leaves, strict=True):
        if tuple(t.shape) != tuple(p.shape):
            raise ShapeError(f"{fname}: a tangent has shape {tuple(t.shape)}, its primal {tuple(p.shape)}")
    store: dict = {}
    flat_f = _outputs_function(fname, f, spec, has_aux, store, module, packed=False)
    result = module.jvp(flat_f, tuple(leaves), tuple(t_leaves), has_aux)
    out_spec = store["out"]
    out, t_out = out_spec.unflatten(result[0]), out_spec.unflatten(result[1])
    return (out, t_out, _aux_in(result[2], store)) if has_aux else (out, t_out)


def jacobian(
    f: Callable, argnums: int | Sequence[int] = 0, mode: str = "reverse", has_aux: bool = False
) -> Callable:
    """A function computing the Jacobian of ``f`` with respect to the ``argnums`` arguments.

    Parameters
    ----------
    f : callable
        Maps arrays or nests to an array or a nest of arrays.
    argnums : int or tuple of int, default 0
    mode : {"reverse", "forward"}
        Reverse mode (one backward pass per output element) suits few outputs;
        forward mode (one forward pass per input element) suits few inputs.
    has_aux : bool, default False
        Whether ``f`` returns ``(output, aux)``; returns ``(jacobian, aux)`` then.

    Returns
    -------
    callable
        Returns the Jacobian: for an array output ``y`` and array argument ``x``,
        an array of shape ``y.shape + x.shape``. For nests, the output's structure
        with each leaf replaced by the argument's structure (a tuple of those for
        a tuple ``argnums``), as ``jax.jacrev``. The Hessian is
        ``hd.jacobian(hd.grad(f))``.

    Examples
    --------
    >>> import hedera as hd, torch
    >>> hd.jacobian(lambda x: x**2)(torch.tensor([1.0, 2.0])).tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    fname = "jacobian"
    if mode not in ("reverse", "forward"):
        raise InvalidArgumentError(f"{fname}: mode must be 'reverse' or 'forward', got {mode!r}")
    nums, single = _normalize_argnums(fname, argnums)

    @_wraps(f)
    def jacobian_f(*args: Any, **kwargs: Any) -> Any:
        idx = _resolve_argnums(fname, nums, len(args))
        leaves, spec, module = _prepare(fname, tuple(args[i] for i in idx), "args", idx)
        store: dict = {}
        user_f = module.user_function(f)
        g = _outputs_function(
            fname,
            lambda *diff: user_f(*_substitute(args, idx, diff), **kwargs),
            spec,
            has_aux,
            store,
            module,
            packed=True,
        )
        result = module.jacobian(g, tuple(leaves), mode, has_aux)
        jac, aux = (result[0], result[1]) if has_aux else (result, None)
        per_output = []
        for row in jac:
            by_arg = spec.unflatten(row)
            per_output.append(by_arg[0] if single else by_arg)
        out = store["out"].unflatten(per_output)
        return (out, _aux_in(aux, store)) if has_aux else out

    jacobian_f.__hedera_transform__ = True  # type: ignore[attr-defined]
    return jacobian_f


# ---- vmap -------------------------------------------------------------------------------


def _check_axis_spec(fname: str, spec: Any, argname: str) -> None:
    for a in optree.tree_leaves(spec, none_is_leaf=True, namespace=_TREE_NAMESPACE):
        if a is not None and not (isinstance(a, int) and not isinstance(a, bool)):
            raise InvalidArgumentError(
                f"{fname}: {argname} entries must be ints or None, got {a!r} in {spec!r}"
            )


def _per_leaf_axes(fname: str, axes: Any, tree: Any, argname: str) -> list[Any]:
    """Broadcast an axis spec (an int, None, or a prefix of ``tree``) to one entry per leaf of ``tree``."""
    if axes is None or isinstance(axes, int):
        return [axes] * len(_flatten(tree, none_is_leaf=True)[0])
    try:
        full = optree.tree_broadcast_prefix(axes, tree, none_is_leaf=True, namespace=_TREE_NAMESPACE)
    except (ValueError, TypeError) as e:
        raise InvalidArgumentError(
            f"{fname}: {argname} {axes!r} does not match the structure of the values it describes: {e}"
        ) from None
    return optree.tree_leaves(full, none_is_leaf=True, namespace=_TREE_NAMESPACE)


def vmap(f: Callable, in_axes: Any = 0, out_axes: Any = 0) -> Callable:
    """Vectorise ``f`` over a batch axis of its arguments.

    Parameters
    ----------
    f : callable
        A function of arrays or nests of arrays, written for one example.
    in_axes : int, None, or tuple, default 0
        The batch axis of each positional argument: an int or ``None`` (not
        batched) for all of them, or a tuple with one entry per positional
        argument, each an int, ``None`` or a nest prefix of that argument (as in
        ``jax.vmap``). Keyword arguments are not batched.
    out_axes : int, None, or nest prefix of the output, default 0
        Where the batch axis goes in each output. ``None`` means the output does
        not depend on the batch; the first example's value is returned.

    Returns
    -------
    callable
        Same arguments as ``f``, with the batch axes added.

    Notes
    -----
    torch: ``torch.func.vmap``; jax: ``jax.vmap``; tensorflow:
    ``tf.vectorized_map`` (batch axes moved to 0 first; ops it cannot vectorise
    run in a ``tf.while_loop``); numpy: a Python loop and ``stack``. Random
    operations inside ``f`` are not supported on torch (``torch.func.vmap``'s
    ``randomness="error"``).

    Examples
    --------
    >>> import hedera as hd, numpy as np
    >>> hd.vmap(lambda row: row.sum())(np.ones((3, 4))).tolist()
    [4.0, 4.0, 4.0]
    """
    fname = "vmap"
    if not (in_axes is None or isinstance(in_axes, (int, tuple, list))):
        raise InvalidArgumentError(f"{fname}: in_axes must be an int, None, or a tuple, got {in_axes!r}")
    _check_axis_spec(fname, in_axes, "in_axes")
    _check_axis_spec(fname, out_axes, "out_axes")

    @_wraps(f)
    def vmapped(*args: Any, **kwargs: Any) -> Any:
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise InvalidArgumentError(
                    f"{fname}: in_axes has {len(in_axes)} entries but f was called with "
                    f"{len(args)} positional arguments"
                )
            axes = [
                a
                for spec, arg in zip(in_axes, args, strict=True)
                for a in _per_leaf_axes(fname, spec, arg, "in_axes")
            ]
        else:
            axes = _per_leaf_axes(fname, in_axes, args, "in_axes")
        leaves, paths, spec = _flatten(args, none_is_leaf=True)
        mapped_idx = [i for i, a in enumerate(axes) if a is not None]
        if not mapped_idx:
            raise InvalidArgumentError(f"{fname}: in_axes maps no argument; at least one must be batched")
        mapped = [leaves[i] for i in mapped_idx]
        name = _backend_of_leaves(fname, mapped, [paths[i] for i in mapped_idx], "args")
        norm_axes = _check_batch_axes(
            fname, mapped, [axes[i] for i in mapped_idx], [paths[i] for i in mapped_idx]
        )
        module = _autodiff_module(name)
        user_f = module.user_function(f)
        store: dict = {}

        def flat_f(batch: tuple) -> tuple:
            full = list(leaves)
            for i, v in zip(mapped_idx, batch, strict=True):
                full[i] = v
            return _flat_outputs(fname, user_f(*spec.unflatten(full), **kwargs), store)

        out_leaves = module.vmap(flat_f, tuple(mapped), tuple(norm_axes))
        out_spec = store["out"]
        out_tree = out_spec.unflatten(out_leaves)
        per_leaf = _per_leaf_axes(fname, out_axes, out_tree, "out_axes")
        placed = [_place_batch_axis(module, y, a) for y, a in zip(out_leaves, per_leaf, strict=True)]
        return out_spec.unflatten(placed)

    vmapped.__hedera_transform__ = True  # type: ignore[attr-defined]
    return vmapped


def _check_batch_axes(fname: str, leaves: list, axes: list, paths: list) -> list[int]:
    """Normalise the batch axes and check every batched leaf has the same batch size."""
    out, size, first = [], None, None
    for leaf, a, path in zip(leaves, axes, paths, strict=True):
        ndim = len(leaf.shape)
        if not -ndim <= a < ndim:
            raise InvalidAxisError(
                f"{fname}: in_axes={a} is out of range for {_path_str('args', path)}, "
                f"which has {ndim} dimensions"
            )
        a %= ndim
        n = leaf.shape[a]
        if size is None:
            size, first = n, path
        elif n is not None and size is not None and n != size:
            raise ShapeError(
                f"{fname}: batch sizes differ: {_path_str('args', first)} has {size} along its batch axis, "
                f"{_path_str('args', path)} has {n}"
            )
        out.append(a)
    return out


def _place_batch_axis(module: ModuleType, y: Any, axis: int | None) -> Any:
    if axis is None:
        return y[0]
    ndim = len(y.shape)
    if not -ndim <= axis < ndim:
        raise InvalidAxisError(f"vmap: out_axes={axis} is out of range for an output with {ndim} dimensions")
    return y if axis % ndim == 0 else module.moveaxis(y, 0, axis)


# ---- stop_gradient ----------------------------------------------------------------------

_STOP: dict[type, Callable] = {}


def stop_gradient(x: Any) -> Any:
    """``x`` with no gradient flowing back through it (an array or a nest of arrays).

    torch: ``x.detach()``; jax: ``jax.lax.stop_gradient``; tensorflow:
    ``tf.stop_gradient``; numpy: ``x`` itself.

    Examples
    --------
    >>> import hedera as hd, torch
    >>> hd.grad(lambda x: (x * hd.stop_gradient(x)).sum())(torch.tensor([3.0])).tolist()
    [3.0]
    """
    try:
        return _STOP[type(x)](x)
    except KeyError:
        pass
    name = backend_name_of_type(type(x))
    if name is None:  # a nest
        leaves, paths, spec = _flatten(x)
        _backend_of_leaves("stop_gradient", leaves, paths, "x")
        return spec.unflatten([stop_gradient(leaf) for leaf in leaves])
    fn = _autodiff_module(name).stop_gradient
    _STOP[type(x)] = fn
    return fn(x)
