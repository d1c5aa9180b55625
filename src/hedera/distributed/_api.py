"""The fronts: placing arrays on a mesh, per-shard functions, collectives, data parallelism.

Each front validates its arguments once (the same errors on every backend), then calls
``hedera.backends.<mesh.backend>.distributed``, which maps it onto the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from .. import tree as _tree
from .._dispatch import backend_name_of_type
from ..errors import BackendMismatchError, InvalidArgumentError, NotAnArrayError
from . import _context
from ._mesh import Mesh, engine
from ._spec import PartitionSpec, SpecLike, as_spec, check_spec, padded

__all__ = [
    "shard", "spec_of", "gather", "shard_map", "data_parallel",
    "psum", "pmean", "pmax", "all_gather", "reduce_scatter", "ppermute", "axis_index", "axis_size",
]  # fmt: skip


def _backend_of_array(fname: str, x: Any) -> str:
    name = backend_name_of_type(type(x))
    if name is None:
        raise NotAnArrayError(f"{fname}: x: expected an array of a known framework, got {type(x).__name__}")
    return name


def _check_mesh(fname: str, mesh: Any) -> Mesh:
    if not isinstance(mesh, Mesh):
        raise InvalidArgumentError(
            f"{fname}: mesh must be a hedera.distributed.Mesh, got {type(mesh).__name__}"
        )
    return mesh


def _same_backend(fname: str, x: Any, mesh: Mesh) -> None:
    name = _backend_of_array(fname, x)
    if name != mesh.backend:
        raise BackendMismatchError(f"{fname}: x is a {name} array but the mesh is on {mesh.backend}")


# ---- placing arrays --------------------------------------------------------------------------


def shard(x: Any, mesh: Mesh, spec: SpecLike = None) -> Any:
    """Place the global array ``x`` on ``mesh``, split as ``spec`` says.

    Parameters
    ----------
    x : array
        The whole array, on the mesh's backend (on torch: the same value on every rank).
    mesh : Mesh
    spec : P, tuple or None
        One entry per leading dimension (see :class:`P`); ``None`` or ``P()`` replicates.

    Returns
    -------
    array
        jax: a ``jax.Array`` with a ``NamedSharding``; torch: a ``DTensor`` with
        ``Shard``/``Replicate`` placements; tensorflow: a ``tf.distribute`` per-replica
        value (one block per replica); numpy (a mesh of one device): ``x`` itself.

    Raises
    ------
    InvalidArgumentError
        A spec axis that is not in the mesh, or one used twice.
    ShapeError
        A spec longer than ``x``'s rank, or a dimension the axis size does not divide.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> mesh = hd.distributed.Mesh(1, "data", backend="numpy")
    >>> hd.distributed.shard(np.ones((4, 2)), mesh, ("data",)).shape
    (4, 2)
    """
    mesh = _check_mesh("shard", mesh)
    _same_backend("shard", x, mesh)
    spec_ = as_spec("shard", spec)
    entries = check_spec("shard", spec_, x.shape, mesh)
    return mesh._engine.shard(x, mesh, entries)


def spec_of(x: Any) -> PartitionSpec:
    """The partition spec of ``x``, one entry per dimension (all ``None`` for an unsplit array).

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> hd.distributed.spec_of(np.ones((2, 3)))
    P(None, None)
    """
    backend = _backend_of_array("spec_of", x)
    return PartitionSpec(*engine(backend).spec_of(x))


def gather(x: Any) -> Any:
    """The whole array that ``x``'s shards make up, as an ordinary array of its backend.

    On torch every rank gets it (a collective: every rank must call it).
    """
    backend = _backend_of_array("gather", x)
    return engine(backend).gather(x)


# ---- per-shard functions ---------------------------------------------------------------------


def _is_spec_leaf(s: Any) -> bool:
    return s is None or isinstance(s, PartitionSpec)


def _spec_tree(fname: str, specs: Any, argname: str) -> Any:
    """``specs`` with every leaf a :class:`P` (``None`` -> ``P()``); a bare tuple of names is one spec."""
    if isinstance(specs, (str, PartitionSpec)) or specs is None:
        return as_spec(fname, specs, argname)
    return _tree.map(lambda s: as_spec(fname, s, argname), specs, is_leaf=_is_spec_leaf)


def broadcast_specs(fname: str, specs: Any, values: Any, argname: str) -> list[PartitionSpec]:
    """One spec per leaf of ``values``: ``specs`` is a tree prefix of ``values`` with :class:`P` leaves."""
    if isinstance(specs, PartitionSpec):
        return [specs] * len(_tree.leaves(values))
    spec_leaves, spec_def = _tree.flatten(specs, is_leaf=_is_spec_leaf)
    try:
        subtrees = spec_def.flatten_up_to(values)
    except ValueError as e:
        raise InvalidArgumentError(
            f"{fname}: {argname} must be a tree prefix of the values it describes: {e}"
        ) from None
    out: list[PartitionSpec] = []
    for s, sub in zip(spec_leaves, subtrees, strict=True):
        out += [s] * len(_tree.leaves(sub))
    return out


def shard_map(f: Callable[..., Any], mesh: Mesh, in_specs: Any, out_specs: Any) -> Callable[..., Any]:
    """``f`` run once per shard: each device gets its blocks of the inputs, as ``jax.shard_map``.

    Parameters
    ----------
    f : callable
        The per-shard function, of (trees of) arrays. Inside it the collectives
        (:func:`psum`, :func:`all_gather`, ...) run over the mesh's named axes.
    mesh : Mesh
    in_specs : tuple
        One spec (or a tree prefix of specs) per positional argument; ``None`` replicates.
    out_specs : P, None or tree of specs
        How the per-shard results assemble into global ones: an axis in an output spec
        concatenates the blocks along that dimension; an output replicated over an axis
        must be equal on its devices (as jax, hedera does not check this on torch and
        tensorflow: reduce it with a collective first).

    Returns
    -------
    callable
        Takes the global arguments (arrays placed with :func:`shard`, or ordinary
        arrays, which are split as ``in_specs`` say) and returns the global results.
        Composes with :func:`hedera.jit` on jax (``jax.jit``) and tensorflow
        (``tf.function``).

    Notes
    -----
    jax: ``jax.shard_map``. torch: one controller per process; each rank runs ``f``
    on its local blocks (a ``DTensor``'s ``to_local()``, or its slice of an ordinary
    tensor) and the results become ``DTensor``s (split outputs) or ordinary tensors
    (replicated outputs). tensorflow: ``strategy.run`` in a replica context.
    numpy (one device): ``f`` itself.
    """
    mesh = _check_mesh("shard_map", mesh)
    if not callable(f):
        raise InvalidArgumentError(f"shard_map: f must be callable, got {type(f).__name__}")
    if not isinstance(in_specs, (tuple, list)) and not isinstance(in_specs, PartitionSpec):
        in_specs = (in_specs,)
    in_tree = _spec_tree("shard_map", tuple(in_specs) if isinstance(in_specs, list) else in_specs, "in_specs")
    out_tree = _spec_tree("shard_map", out_specs, "out_specs")

    def per_shard(*args: Any) -> Any:
        with _context.active(mesh):
            return f(*args)

    shape_of = getattr(mesh._engine, "shape_of", None) or (lambda x, mesh: x.shape)
    checked: dict[Any, list] = {}  # (structure, leaf types, shapes) -> the validated specs

    def entries_for(args: tuple, leaves: list, shapes: tuple) -> list:
        if not isinstance(in_tree, PartitionSpec) and len(in_tree) != len(args):
            raise InvalidArgumentError(
                f"shard_map: in_specs has {len(in_tree)} entries but the function got {len(args)} "
                f"positional arguments"
            )
        arg_specs = broadcast_specs("shard_map", in_tree, args, "in_specs")
        entries = []
        for i, (x, s, shape) in enumerate(zip(leaves, arg_specs, shapes, strict=True)):
            _same_backend("shard_map", x, mesh)
            if shape is None:  # a value whose global shape the engine no longer knows: as given
                entries.append(padded(s, len(s)))
                continue
            entries.append(check_spec("shard_map", s, shape, mesh, f"in_specs (input leaf {i})"))
        return entries

    @functools.wraps(f)
    def mapped(*args: Any) -> Any:
        leaves, treedef = _tree.flatten(args)
        shapes = tuple(shape_of(x, mesh) for x in leaves)
        key = (treedef, tuple(map(type, leaves)), tuple(None if s is None else tuple(s) for s in shapes))
        entries = checked.get(key)
        if entries is None:  # validated once per structure, leaf types and shapes
            entries = checked[key] = entries_for(args, leaves, shapes)
        return mesh._engine.shard_map(per_shard, mesh, treedef, leaves, entries, out_tree)

    return mapped


def data_parallel(
    step_fn: Callable[..., Any],
    mesh: Mesh,
    batch_axis: str = "data",
    *,
    batch_argnums: int | Sequence[int] = (1,),
) -> Callable[..., Any]:
    """A training step made data-parallel: replicated state, the batch split along its first dimension.

    Parameters
    ----------
    step_fn : callable
        The per-replica step. It sees its replica's part of the batch arguments and the
        whole of the others, and must average what it computes from the batch across
        replicas itself, typically ``grads = hd.distributed.pmean(grads, batch_axis)``
        (and the loss the same way). It returns the new state: equal on every replica.
    mesh : Mesh
    batch_axis : str
        The mesh axis the batch is split over (every other mesh axis replicates it).
    batch_argnums : int or sequence of int
        The positional arguments that are batches (split on dimension 0). The others
        (parameters, optimizer state, ...) are replicated. Default ``(1,)``:
        ``step_fn(state, batch)``.

    Returns
    -------
    callable
        ``step(*args)`` with the same signature, taking and returning global values;
        wrap it in :func:`hedera.jit` to compile the whole step.

    Raises
    ------
    InvalidArgumentError
        ``batch_axis`` is not a mesh axis.
    ShapeError
        (when called) a batch whose first dimension the axis size does not divide.

    Examples
    --------
    >>> import hedera as hd
    >>> def step(params, opt_state, x, y):  # doctest: +SKIP
    ...     loss, grads = hd.value_and_grad(loss_fn)(params, x, y)
    ...     grads = hd.distributed.pmean(grads, "data")
    ...     params, opt_state = opt.update(grads, opt_state, params)
    ...     return params, opt_state, hd.distributed.pmean(loss, "data")
    >>> dp_step = hd.distributed.data_parallel(step, mesh, "data", batch_argnums=(2, 3))  # doctest: +SKIP
    >>> train_step = hd.jit(dp_step)  # doctest: +SKIP
    """
    mesh = _check_mesh("data_parallel", mesh)
    if batch_axis not in mesh.axis_names:
        raise InvalidArgumentError(
            f"data_parallel: batch_axis {batch_axis!r} is not in the mesh (axes {mesh.axis_names})"
        )
    argnums = (batch_argnums,) if isinstance(batch_argnums, int) else tuple(batch_argnums)
    cache: dict[int, Callable[..., Any]] = {}

    @functools.wraps(step_fn)
    def step(*args: Any) -> Any:
        n = len(args)
        if n not in cache:
            batch = {a % n if -n <= a < n else a for a in argnums}
            if any(not 0 <= a < n for a in batch):
                raise InvalidArgumentError(
                    f"data_parallel: batch_argnums {argnums} out of range for {n} arguments"
                )
            specs = tuple(PartitionSpec(batch_axis) if i in batch else PartitionSpec() for i in range(n))
            cache[n] = shard_map(step_fn, mesh, specs, PartitionSpec())
        return cache[n](*args)

    return step


# ---- collectives -----------------------------------------------------------------------------


def _active_mesh(fname: str) -> Mesh:
    mesh = _context.current()
    if mesh is None:
        raise InvalidArgumentError(
            f"{fname}: no mesh is active; call it inside hedera.distributed.shard_map "
            f"(or, on torch, inside a `with mesh:` block)"
        )
    return mesh


def _axes(fname: str, mesh: Mesh, axis_name: str | Sequence[str]) -> tuple[str, ...]:
    axes = (axis_name,) if isinstance(axis_name, str) else tuple(axis_name)
    if not axes:
        raise InvalidArgumentError(f"{fname}: axis_name must name at least one mesh axis")
    for a in axes:
        if a not in mesh.axis_names:
            raise InvalidArgumentError(f"{fname}: axis {a!r} is not in the mesh (axes {mesh.axis_names})")
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{fname}: axis_name {axes} repeats an axis")
    return axes


def _group_size(mesh: Mesh, axes: tuple[str, ...]) -> int:
    size = 1
    for a in axes:
        size *= mesh.axis_size(a)
    return size


def _map_leaves(fname: str, x: Any, mesh: Mesh, one: Callable[[Any], Any]) -> Any:
    def leaf(v: Any) -> Any:
        _same_backend(fname, v, mesh)
        return one(v)

    return _tree.map(leaf, x)


def _reduction(name: str) -> Callable[..., Any]:
    def collective(x: Any, axis_name: str | Sequence[str]) -> Any:
        mesh = _active_mesh(name)
        axes = _axes(name, mesh, axis_name)
        fn = getattr(mesh._engine, name)
        return _map_leaves(name, x, mesh, lambda v: fn(v, axes, mesh))

    collective.__name__ = collective.__qualname__ = name
    return collective


psum = _reduction("psum")
psum.__doc__ = """The sum of ``x`` over the devices along ``axis_name`` (a name or a tuple of names).

``x`` may be a tree of arrays (each leaf is summed). Every device gets the sum.
jax: ``lax.psum``; torch: ``all_reduce`` (functional collectives) over the axis's
process group; tensorflow: ``ReplicaContext.all_reduce(SUM)``.
"""
pmean = _reduction("pmean")
pmean.__doc__ = """The mean of ``x`` over the devices along ``axis_name``; see :func:`psum`."""
pmax = _reduction("pmax")
pmax.__doc__ = """The element-wise maximum of ``x`` over the devices along ``axis_name``; see :func:`psum`.

tensorflow has no max all-reduce: it gathers the values and reduces them.
"""


def all_gather(x: Any, axis_name: str, *, axis: int = 0, tiled: bool = False) -> Any:
    """Every device's ``x`` along ``axis_name``, in axis order, on every device.

    Parameters
    ----------
    x : array or tree of arrays
        The same shape on every device.
    axis_name : str
    axis : int
        Where the devices' values go: a new dimension at ``axis`` (``tiled=False``,
        shape ``x.shape[:axis] + (n,) + x.shape[axis:]``), or concatenated along the
        existing dimension ``axis`` (``tiled=True``), as ``jax.lax.all_gather``.
    """
    mesh = _active_mesh("all_gather")
    axes = _axes("all_gather", mesh, axis_name)

    def one(v: Any) -> Any:
        rank = len(v.shape) + (0 if tiled else 1)
        if not -rank <= axis < rank:
            raise InvalidArgumentError(f"all_gather: axis {axis} is out of range for a result of rank {rank}")
        return mesh._engine.all_gather(v, axes, mesh, axis % rank, tiled)

    return _map_leaves("all_gather", x, mesh, one)


def reduce_scatter(x: Any, axis_name: str, *, axis: int = 0) -> Any:
    """The sum over ``axis_name`` of ``x``, split along dimension ``axis``: device ``i`` keeps block ``i``.

    As ``jax.lax.psum_scatter(..., tiled=True)``: ``x.shape[axis]`` must be divisible by
    the axis size; the result has ``x.shape[axis] // n`` there.

    Raises
    ------
    ShapeError
        ``x.shape[axis]`` is not divisible by the axis size.
    """
    from ..errors import ShapeError

    mesh = _active_mesh("reduce_scatter")
    axes = _axes("reduce_scatter", mesh, axis_name)
    n = _group_size(mesh, axes)

    def one(v: Any) -> Any:
        if not -len(v.shape) <= axis < len(v.shape):
            raise InvalidArgumentError(f"reduce_scatter: axis {axis} is out of range for rank {len(v.shape)}")
        d = axis % len(v.shape)
        if v.shape[d] % n:
            raise ShapeError(
                f"reduce_scatter: dimension {d} of x (size {v.shape[d]}) is not divisible by the "
                f"size {n} of axis {axis_name!r}"
            )
        return mesh._engine.reduce_scatter(v, axes, mesh, d)

    return _map_leaves("reduce_scatter", x, mesh, one)


def ppermute(x: Any, axis_name: str, perm: Sequence[tuple[int, int]]) -> Any:
    """Send ``x`` along ``axis_name``: for each ``(src, dst)`` in ``perm``, ``dst`` gets ``src``'s value.

    Devices that are no pair's destination get zeros, as ``jax.lax.ppermute``.

    Raises
    ------
    InvalidArgumentError
        An index outside ``[0, n)``, or a source or destination used twice.
    """
    mesh = _active_mesh("ppermute")
    axes = _axes("ppermute", mesh, axis_name)
    n = _group_size(mesh, axes)
    pairs = [(int(s), int(d)) for s, d in perm]
    for s, d in pairs:
        if not (0 <= s < n and 0 <= d < n):
            raise InvalidArgumentError(f"ppermute: pair {(s, d)} is outside [0, {n}) of axis {axis_name!r}")
    if len({s for s, _ in pairs}) != len(pairs) or len({d for _, d in pairs}) != len(pairs):
        raise InvalidArgumentError(f"ppermute: perm {pairs} repeats a source or a destination")
    return _map_leaves("ppermute", x, mesh, lambda v: mesh._engine.ppermute(v, axes, mesh, pairs))


def axis_index(axis_name: str) -> Any:
    """This device's position along ``axis_name``, as a 0-d ``int32`` array of the mesh's backend."""
    mesh = _active_mesh("axis_index")
    axes = _axes("axis_index", mesh, axis_name)
    if len(axes) != 1:
        raise InvalidArgumentError("axis_index: takes one axis name")
    return mesh._engine.axis_index(axes[0], mesh)


def axis_size(axis_name: str | Sequence[str]) -> int:
    """The number of devices along ``axis_name`` (a Python int; the product for a tuple of names)."""
    mesh = _active_mesh("axis_size")
    return _group_size(mesh, _axes("axis_size", mesh, axis_name))
