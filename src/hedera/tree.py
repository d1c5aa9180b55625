"""``hd.tree``: functions over nested containers ("pytrees") of arrays.

A *tree* is a nest of ``dict``, ``list``, ``tuple`` (named tuples too),
``collections.OrderedDict`` / ``defaultdict`` / ``deque``, ``None`` and
:class:`hedera.Container`; everything else is a *leaf*. ``None`` is an empty
node, not a leaf (as in JAX). Dict keys are visited in sorted order; rebuilt
dicts keep their original key order. Containers keep their insertion order.

Built on `optree <https://github.com/metaopt/optree>`_ (hedera's own node
types live in optree's ``"hedera"`` namespace), so the conventions are JAX's
``jax.tree_util``, and the functions work on trees of any backend's arrays::

    >>> import hedera as hd
    >>> params = {"w": hd.ones(3), "b": hd.zeros(())}
    >>> doubled = hd.tree.map(lambda x: 2 * x, params)
    >>> hd.tree.structure_equal(params, doubled)
    True

Paths (:func:`map_with_path`, :func:`flatten_with_path`) are tuples of the
keys and indices leading to a leaf: ``("layer1", "w")`` or ``("layers", 0)``.
:func:`path_str` spells one as ``"layer1/w"``, the way :class:`hedera.Container`
and :func:`hedera.save` name leaves.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _front as hd
from ._dispatch import backend_of_leaves, is_array, on_backend_load
from ._front_manual import asarray, dtype
from ._lazy import ensure_imported, on_first_use
from .dtypes import as_hedera_dtype, bfloat16, float32
from .errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    NotAnArrayError,
    StructureError,
    UnknownBackendError,
)

__all__ = [
    "map",
    "map_with_path",
    "flatten",
    "flatten_with_path",
    "unflatten",
    "leaves",
    "structure",
    "reduce",
    "structure_equal",
    "all_equal",
    "all_close",
    "backend_of",
    "to_backend",
    "to_numpy",
    "path_str",
    "require_arrays",
    "NAMESPACE",
]

#: the optree namespace hedera registers its node types (Container) in
NAMESPACE = "hedera"

if TYPE_CHECKING:
    import optree
else:  # imported on first use (see hedera._lazy): a tenth of `import hedera` otherwise
    optree = on_first_use("optree", globals())


def _import_optree() -> None:
    # With a framework's backend, optree is imported outright: torch.compile cannot trace the
    # stand-in's first use (an import), and the framework costs far more than optree.
    ensure_imported("optree")


for _backend in ("jax", "torch", "tensorflow"):
    on_backend_load(_backend, _import_optree)
del _backend

_MISSING = object()

IsLeaf = Callable[[Any], bool] | None


def _callable(fname: str, f: Any) -> None:
    if not callable(f):
        raise ArgumentTypeError(f"{fname}: f must be a callable, got {type(f).__name__} {f!r}")


def _tolerance(fname: str, name: str, value: Any) -> None:
    if isinstance(value, builtins.bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(f"{fname}: {name} must be a finite number >= 0, got {value!r}")
    if not 0 <= value < float("inf"):
        raise InvalidArgumentError(f"{fname}: {name} must be a finite number >= 0, got {value!r}")


def flatten(tree: Any, is_leaf: IsLeaf = None) -> tuple[list[Any], Any]:
    """The leaves of ``tree``, in a fixed order, and its structure.

    Parameters
    ----------
    tree
        A nest of dicts, lists, tuples, Containers and leaves.
    is_leaf : callable, optional
        ``is_leaf(node) -> bool``; a node for which it returns True is a leaf
        even if it is a container.

    Returns
    -------
    leaves : list
        The leaves; dict entries in sorted-key order, Container entries in
        insertion order.
    treedef : optree.PyTreeSpec
        The structure, for :func:`unflatten`.
    """
    return optree.tree_flatten(tree, is_leaf, namespace=NAMESPACE)


def flatten_with_path(tree: Any, is_leaf: IsLeaf = None) -> tuple[list[tuple[Any, ...]], list[Any], Any]:
    """Like :func:`flatten`, plus the path (a tuple of keys and indices) of each leaf.

    Returns
    -------
    paths : list of tuple
    leaves : list
    treedef : optree.PyTreeSpec
    """
    return optree.tree_flatten_with_path(tree, is_leaf, namespace=NAMESPACE)


def unflatten(treedef: Any, leaves: Any) -> Any:
    """Rebuild a tree of structure ``treedef`` (from :func:`flatten`) with new ``leaves``.

    Raises
    ------
    StructureError
        If the number of leaves does not match the structure.
    """
    leaves = list(leaves)
    if len(leaves) != treedef.num_leaves:
        raise StructureError(
            f"unflatten: the structure has {treedef.num_leaves} leaves, got {len(leaves)} values"
        )
    return optree.tree_unflatten(treedef, leaves)


def leaves(tree: Any, is_leaf: IsLeaf = None) -> list[Any]:
    """The leaves of ``tree``, in :func:`flatten`'s order."""
    return optree.tree_leaves(tree, is_leaf, namespace=NAMESPACE)


def structure(tree: Any, is_leaf: IsLeaf = None) -> Any:
    """The structure of ``tree`` (an ``optree.PyTreeSpec``; equal structures compare ``==``)."""
    return optree.tree_structure(tree, is_leaf, namespace=NAMESPACE)


def _flatten_rests(fname: str, treedef: Any, rests: tuple[Any, ...]) -> list[list[Any]]:
    """The leaves of each tree in ``rests``, which must have structure ``treedef`` (or extend it)."""
    out = []
    for i, other in enumerate(rests, start=1):
        try:
            out.append(treedef.flatten_up_to(other))
        except (ValueError, TypeError) as e:
            raise StructureError(
                f"{fname}: tree {i} does not match the structure of the first tree: {e}"
            ) from None
    return out


def map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: IsLeaf = None) -> Any:
    """A tree of ``tree``'s structure with ``f(leaf, *corresponding_leaves_of_rest)`` at each leaf.

    Parameters
    ----------
    f : callable
        Called once per leaf of ``tree``, with the matching leaves of each tree
        in ``rest``.
    tree
        The tree whose structure the result has.
    *rest
        Trees with the same structure as ``tree`` (or one whose leaves are
        subtrees there: they are passed to ``f`` whole).
    is_leaf : callable, optional
        See :func:`flatten`.

    Raises
    ------
    StructureError
        If a tree in ``rest`` has a different structure.

    Examples
    --------
    >>> import hedera as hd
    >>> hd.tree.map(lambda a, b: a + b, {"x": 1, "y": [2, 3]}, {"x": 10, "y": [20, 30]})
    {'x': 11, 'y': [22, 33]}
    """
    _callable("tree.map", f)
    leaves_, treedef = optree.tree_flatten(tree, is_leaf, namespace=NAMESPACE)
    if not rest:
        return optree.tree_unflatten(treedef, [f(x) for x in leaves_])
    others = _flatten_rests("tree.map", treedef, rest)
    return optree.tree_unflatten(treedef, [f(*xs) for xs in zip(leaves_, *others, strict=True)])


def map_with_path(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: IsLeaf = None) -> Any:
    """Like :func:`map`, but calls ``f(path, leaf, *others)``; ``path`` is a tuple of keys and indices.

    Examples
    --------
    >>> import hedera as hd
    >>> hd.tree.map_with_path(lambda p, x: hd.tree.path_str(p), {"a": [0, 0], "b": 0})
    {'a': ['a/0', 'a/1'], 'b': 'b'}
    """
    _callable("tree.map_with_path", f)
    paths, leaves_, treedef = optree.tree_flatten_with_path(tree, is_leaf, namespace=NAMESPACE)
    others = _flatten_rests("tree.map_with_path", treedef, rest)
    return optree.tree_unflatten(treedef, [f(p, *xs) for p, *xs in zip(paths, leaves_, *others, strict=True)])


def reduce(
    f: Callable[[Any, Any], Any], tree: Any, initial: Any = _MISSING, *, is_leaf: IsLeaf = None
) -> Any:
    """Fold ``f(accumulated, leaf)`` over the leaves of ``tree``, from the left.

    Parameters
    ----------
    f : callable
        ``f(accumulated, leaf) -> accumulated``.
    tree
        The tree.
    initial : optional
        The starting value. Without it the first leaf is; a tree without leaves
        then raises ``TypeError``.

    Examples
    --------
    >>> import hedera as hd, operator
    >>> hd.tree.reduce(operator.add, {"a": 1, "b": [2, 3]}, 0)
    6
    """
    _callable("tree.reduce", f)
    leaves_ = optree.tree_leaves(tree, is_leaf, namespace=NAMESPACE)
    if initial is _MISSING:
        if not leaves_:
            raise TypeError("tree.reduce: a tree without leaves and no initial value")
        acc, leaves_ = leaves_[0], leaves_[1:]
    else:
        acc = initial
    for x in leaves_:
        acc = f(acc, x)
    return acc


def structure_equal(a: Any, b: Any) -> bool:
    """Whether trees ``a`` and ``b`` have the same structure: node types and keys, not leaf values.

    Key order does not matter, for dicts and Containers alike. A Container and a
    dict with the same keys are *different* structures.

    Examples
    --------
    >>> import hedera as hd
    >>> hd.tree.structure_equal({"a": 1, "b": [2]}, {"b": [0], "a": 0})
    True
    >>> hd.tree.structure_equal({"a": 1}, {"a": [1]})
    False
    """
    return _skeleton(a) == _skeleton(b)


def _one_level(tree: Any) -> tuple[list[Any], Any]:
    """The direct children of ``tree`` and its one-level structure (a leaf gives ``([tree], *)``)."""
    return optree.tree_flatten(tree, is_leaf=lambda node: node is not tree, namespace=NAMESPACE)


#: mapping node types whose key order does not count in comparisons (hd.Container registers itself)
_UNORDERED_MAPPINGS: list[type] = []


def register_unordered_mapping(cls: type) -> None:
    """Treat the mapping node type ``cls`` as unordered: :func:`structure_equal`, :func:`all_equal`
    and :func:`all_close` ignore its key order, as they do a dict's. (How ``hd.Container`` joins
    without this module importing it.)"""
    if cls not in _UNORDERED_MAPPINGS:
        _UNORDERED_MAPPINGS.append(cls)


def _is_unordered_mapping(tree: Any) -> bool:
    return isinstance(tree, tuple(_UNORDERED_MAPPINGS))


def _skeleton(tree: Any) -> Any:
    """A comparable description of ``tree``'s structure in which Container key order does not count."""
    if _is_unordered_mapping(tree):
        return ("Container", tuple(sorted((k, _skeleton(v)) for k, v in tree.items())))
    children, treedef = _one_level(tree)
    if treedef.is_leaf():
        return "*"
    return (treedef, tuple(_skeleton(c) for c in children))


def _as_dicts(tree: Any) -> Any:
    """``tree`` with every Container replaced by a plain dict, so leaves come in sorted-key order."""
    if _is_unordered_mapping(tree):
        return {k: _as_dicts(v) for k, v in tree.items()}
    children, treedef = _one_level(tree)
    if treedef.is_leaf():
        return tree
    return optree.tree_unflatten(treedef, [_as_dicts(c) for c in children])


_is_array = is_array


def _numpy_leaf(x: Any) -> Any:
    """``x`` as a NumPy array; bfloat16 becomes float32 (exactly), since NumPy has no bfloat16."""
    if dtype(x) is bfloat16:
        x = hd.astype(x, float32)
    return hd.to_numpy(x)


def _compare(fname: str, a: Any, b: Any, test: Callable[[Any, Any], bool]) -> bool:
    if not structure_equal(a, b):
        return False
    for x, y in zip(leaves(_as_dicts(a)), leaves(_as_dicts(b)), strict=True):
        if _is_array(x) != _is_array(y):
            return False
        if not _is_array(x):
            if not x == y:
                return False
            continue
        if tuple(x.shape) != tuple(y.shape) or not test(x, y):
            return False
    return True


def all_equal(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` have the same structure, and equal leaves: same shapes, dtypes and values.

    Arrays may be of different backends (a tree and its copy loaded elsewhere
    compare equal). NaNs compare equal to NaNs in the same place. Non-array
    leaves compare with ``==``. Dict and Container key order does not matter.
    """

    def test(x: Any, y: Any) -> bool:
        if as_hedera_dtype(x.dtype) is not as_hedera_dtype(y.dtype):
            return False
        nx, ny = _numpy_leaf(x), _numpy_leaf(y)
        return builtins.bool(np.array_equal(nx, ny, equal_nan=nx.dtype.kind in "fc"))

    return _compare("tree.all_equal", a, b, test)


def all_close(a: Any, b: Any, *, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """Whether ``a`` and ``b`` have the same structure and shapes, and leaves close in value.

    ``|x - y| <= atol + rtol * |y|`` element-wise, as ``numpy.allclose``; dtypes
    may differ, and so may backends. Non-array leaves compare with ``==``.

    Examples
    --------
    >>> import hedera as hd
    >>> a = {"w": hd.asarray([1.0, 2.0])}
    >>> hd.tree.all_close(a, {"w": hd.asarray([1.0, 2.0 + 1e-9])})
    True
    """
    _tolerance("tree.all_close", "rtol", rtol)
    _tolerance("tree.all_close", "atol", atol)

    def test(x: Any, y: Any) -> bool:
        return builtins.bool(
            np.allclose(_numpy_leaf(x), _numpy_leaf(y), rtol=rtol, atol=atol, equal_nan=equal_nan)
        )

    return _compare("tree.all_close", a, b, test)


def backend_of(tree: Any) -> str | None:
    """The backend of the arrays in ``tree`` (``None`` if it has none); non-array leaves are ignored.

    Raises
    ------
    BackendMismatchError
        If the tree holds arrays of two backends; the message names a path for each.
    """
    paths, leaves_, _ = flatten_with_path(tree)
    return backend_of_leaves(
        "tree", leaves_, paths, describe=lambda p: repr(path_str(p)), where="in one tree", advice=""
    )


def to_backend(tree: Any, backend: str) -> Any:
    """``tree`` with every array converted to ``backend`` (by ``hd.asarray``); other leaves kept."""
    from ._dispatch import BACKENDS

    if not isinstance(backend, str):
        raise ArgumentTypeError(f"tree.to_backend: backend must be a backend name, got {backend!r}")
    if backend not in BACKENDS:
        raise UnknownBackendError(
            f"tree.to_backend: unknown backend {backend!r}; expected one of {sorted(BACKENDS)}"
        )
    return map(lambda x: asarray(x, backend=backend) if _is_array(x) else x, tree)


def to_numpy(tree: Any) -> Any:
    """``tree`` with every array converted to a NumPy array (``hd.to_numpy``); other leaves kept."""
    return map(lambda x: hd.to_numpy(x) if _is_array(x) else x, tree)


def path_str(path: Any, sep: str = "/") -> str:
    """A path tuple as a string: ``("layer1", "w")`` -> ``"layer1/w"``, ``("layers", 0)`` -> ``"layers/0"``.

    ``sep`` joins the parts.
    """
    if isinstance(path, str):
        return path
    return sep.join(str(getattr(k, "key", getattr(k, "idx", k))) for k in path)


def require_arrays(fname: str, tree: Any) -> tuple[list[tuple[Any, ...]], list[Any], Any]:
    """Paths, leaves and structure of ``tree``, checking every leaf is an array of one backend.

    Raises
    ------
    NotAnArrayError
        If a leaf is not an array; the message gives its path.
    BackendMismatchError
        If arrays of two backends are mixed; the message gives a path for each.
    """
    paths, leaves_, treedef = flatten_with_path(tree)
    for path, x in zip(paths, leaves_, strict=True):
        if not is_array(x):
            raise NotAnArrayError(
                f"{fname}: the leaf at {path_str(path) or '<root>'!r} has type {type(x).__name__}, "
                f"expected an array (wrap Python numbers with hd.asarray)"
            )
    backend_of_leaves(
        fname,
        leaves_,
        paths,
        describe=lambda p: repr(path_str(p) or "<root>"),
        where="in one tree",
        advice="convert with hd.tree.to_backend(tree, name)",
    )
    return paths, leaves_, treedef
