"""Function transformations for the tensorflow backend.

Flat inputs, as described in ``hedera/backends/numpy/autodiff.py``.

* Reverse mode is ``tf.GradientTape``. Tapes nest, so ``grad(grad(f))`` works:
  the inner gradient is computed while the outer tape records.
* Forward mode is ``tf.autodiff.ForwardAccumulator``. TensorFlow has no batched
  forward mode, so ``jacobian(mode="forward")`` runs one ``jvp`` per input element.
* ``vmap`` is ``tf.vectorized_map`` (``pfor``), which maps axis 0: the inputs'
  batch axes are moved there first. Ops ``pfor`` cannot vectorise fall back to a
  ``tf.while_loop``, as ``tf.vectorized_map`` does.
* Gradients that do not depend on an input are zeros, not ``None``, and sparse
  gradients (``tf.IndexedSlices``, from ``gather``) are made dense.
* AutoGraph: hedera's own modules are excluded from AutoGraph conversion (as
  TensorFlow excludes itself and Keras): converting hedera's dispatch code inside
  a ``tf.function`` would be slow and breaks it. User functions that hedera calls
  (the ``f`` of ``hd.grad(f)``, say) are converted where the enclosing
  ``tf.function`` has AutoGraph on, through :func:`user_function`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import optree
import tensorflow as tf

from ... import _nests
from ..._dispatch import backend_name_if_cached, backend_name_of_type
from ...container import Container
from ...errors import UnsupportedError
from ...tree import NAMESPACE as TREE_NAMESPACE
from ._private import exclude_from_autograph

AUTODIFF = True
_ZERO = tf.UnconnectedGradients.ZERO


exclude_from_autograph("hedera")  # AutoGraph leaves hedera's code alone (tf.function traces it as is)


def user_function(f: Callable) -> Callable:
    """``f`` converted by AutoGraph if it is called inside a ``tf.function`` that has AutoGraph on."""
    if tf.executing_eagerly():
        return f
    return tf.__internal__.autograph.tf_convert(f, tf.__internal__.autograph.control_status_ctx())


def is_inexact(x: Any) -> bool:
    return x.dtype.is_floating or x.dtype.is_complex


def is_real_floating(x: Any) -> bool:
    return x.dtype.is_floating


def _dense(g: Any) -> Any:
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


def _split_aux(result: Any, has_aux: bool) -> tuple[Any, Any]:
    return (result[0], result[1]) if has_aux else (result, None)


def value_and_grad(f: Callable, leaves: tuple, has_aux: bool) -> tuple[Any, tuple]:
    with tf.GradientTape() as tape:
        tape.watch(leaves)
        result = f(leaves)
    value, _ = _split_aux(result, has_aux)
    grads = tape.gradient(value, leaves, unconnected_gradients=_ZERO)
    return result, tuple(_dense(g) for g in grads)


def vjp(f: Callable, leaves: tuple, has_aux: bool) -> tuple:
    # persistent: the pullback may be called more than once, as in jax
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(leaves)
        result = f(*leaves)
    out, aux = _split_aux(result, has_aux)

    def vjp_fn(cotangents: Sequence[Any]) -> tuple:
        grads = tape.gradient(
            list(out), list(leaves), output_gradients=list(cotangents), unconnected_gradients=_ZERO
        )
        return tuple(_dense(g) for g in grads)

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def jvp(f: Callable, leaves: tuple, tangents: tuple, has_aux: bool) -> tuple:
    with tf.autodiff.ForwardAccumulator(list(leaves), list(tangents)) as acc:
        result = f(*leaves)
    out, aux = _split_aux(result, has_aux)
    tangents_out = tuple(acc.jvp(o, unconnected_gradients=_ZERO) for o in out)
    return (out, tangents_out, aux) if has_aux else (out, tangents_out)


def jacobian(f: Callable, leaves: tuple, mode: str, has_aux: bool) -> Any:
    if mode == "forward":
        return _jacobian_forward(f, leaves, has_aux)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(leaves)
        result = f(leaves)
    out, aux = _split_aux(result, has_aux)
    jac = tuple(tuple(_dense(j) for j in tape.jacobian(o, leaves, unconnected_gradients=_ZERO)) for o in out)
    return (jac, aux) if has_aux else jac


def _jacobian_forward(f: Callable, leaves: tuple, has_aux: bool) -> Any:
    """One jvp per input element, stacked: TensorFlow has no batched forward mode."""
    result = f(leaves)
    out, aux = _split_aux(result, has_aux)
    columns: list[list[Any]] = []  # columns[j]: per output, the stacked jvps for leaf j
    for j, leaf in enumerate(leaves):
        n = leaf.shape.num_elements()
        if n is None:
            raise UnsupportedError(
                "jacobian: mode='forward' on tensorflow needs inputs of known shape; use mode='reverse'"
            )
        per_out: list[list[Any]] = [[] for _ in out]
        for k in range(n):
            basis = tf.reshape(tf.one_hot(k, n, dtype=leaf.dtype), tf.shape(leaf))
            tangents = [basis if i == j else tf.zeros_like(x) for i, x in enumerate(leaves)]
            with tf.autodiff.ForwardAccumulator(list(leaves), tangents) as acc:
                o_k = _split_aux(f(leaves), has_aux)[0]
            for i, o in enumerate(o_k):
                per_out[i].append(acc.jvp(o, unconnected_gradients=_ZERO))
        columns.append([_assemble(cols, o, leaf) for cols, o in zip(per_out, out, strict=False)])
    jac = tuple(tuple(columns[j][i] for j in range(len(leaves))) for i in range(len(out)))
    return (jac, aux) if has_aux else jac


def _assemble(cols: list[Any], out: Any, leaf: Any) -> Any:
    """Columns ``d out / d leaf[k]`` (k over leaf's elements) as one array of shape out.shape + leaf.shape."""
    if not cols:
        return tf.zeros(tf.concat([tf.shape(out), tf.shape(leaf)], 0), dtype=out.dtype)
    stacked = tf.stack(cols, axis=-1)  # out.shape + (n,)
    return tf.reshape(stacked, tf.concat([tf.shape(out), tf.shape(leaf)], 0))


def vmap(f: Callable, leaves: tuple, axes: Sequence[int]) -> tuple:
    moved = tuple(x if a == 0 else moveaxis(x, a, 0) for x, a in zip(leaves, axes, strict=False))
    return tuple(tf.vectorized_map(f, moved))


def moveaxis(x: Any, source: int, destination: int) -> Any:
    return tf.experimental.numpy.moveaxis(x, source, destination)


stop_gradient = tf.stop_gradient


def jit(
    f: Callable,
    static_argnums: tuple[int, ...],
    static_argnames: tuple[str, ...],
    donate_argnums: tuple[int, ...] = (),
    **options: Any,
) -> Callable:
    """``tf.function(f, **options)`` (``jit_compile=True`` compiles with XLA).

    Static arguments need no declaration: ``tf.function`` retraces for each new
    value of a Python (non-tensor) argument, so those are static by nature.
    ``donate_argnums``: those positional arguments live in ``tf.Variable``s updated in
    place (:class:`DonatingFunction`).
    """
    if getattr(f, "__hedera_transform__", False):
        # hd.grad(g) & co: AutoGraph converts the top-level function whatever its module; give it
        # this trampoline, so that hedera's wrapper is skipped and converts g itself (user_function)
        transform = f

        def f(*args: Any, **kwargs: Any) -> Any:
            return transform(*args, **kwargs)

    if donate_argnums:
        return DonatingFunction(f, donate_argnums, options)
    return tf.function(f, **options)


def _quick_leaves(tree: Any, out: list) -> bool:
    """Append the leaves of ``tree`` to ``out`` in optree's order, if it is made of Containers,
    lists, tuples, None and arrays only (the per-call check of :class:`DonatingFunction`: a
    Python walk, several times cheaper than optree's calls back into ``Container``); False for
    any other node (a dict, whose keys optree sorts; a namedtuple...), which optree then walks.
    """
    stack = [tree]
    while stack:
        node = stack.pop()
        t = type(node)
        if t is Container:
            stack += reversed(node._data.values())
        elif t is list or t is tuple:
            stack += reversed(node)
        elif backend_name_if_cached(t) is not None:
            out.append(node)
        elif node is not None:
            return False
    return True


class _DonatedTrace:
    """The variables of a :class:`DonatingFunction` while ``f`` is traced, and the tensor that holds
    each one's value in the trace now: the read at the start, or a read after an in-place update
    (:func:`updated_in_place`). A kernel that finds its arrays here (:func:`variable_read`) may
    update their variables in place instead of computing new arrays for the function to assign."""

    def __init__(self, variables: list, values: list) -> None:
        self.current = {id(v): (v, x) for v, x in zip(variables, values, strict=True)}
        self.by_tensor = {id(x): v for v, x in zip(variables, values, strict=True)}
        self.updated: set[int] = set()  # ids of the variables updated in place


_DONATED_TRACES: list[_DonatedTrace] = []  # the traces in progress, innermost last


def variable_read(x: Any) -> Any:
    """The donated variable whose value in the trace in progress is the tensor ``x``, else None."""
    if not _DONATED_TRACES:
        return None
    trace = _DONATED_TRACES[-1]
    v = trace.by_tensor.get(id(x))
    if v is None or trace.current[id(v)][1] is not x:
        return None
    return v


def updated_in_place(v: Any) -> Any:
    """The value of the donated variable ``v`` (of :func:`variable_read`) after a kernel updated it
    in place: a read ordered after the update, which the function then need not assign. The
    tensors read before keep their values (TensorFlow copies a variable's buffer on a write while
    a read of it is alive)."""
    trace = _DONATED_TRACES[-1]
    value = v.value()
    trace.current[id(v)] = (v, value)
    trace.by_tensor[id(value)] = v
    trace.updated.add(id(v))
    return value


def _undonated(args: tuple, donated: list[int]) -> list:
    """The arguments the tf.function takes: all but the donated ones (which it captures as
    variables; each argument passed costs the call a signature check)."""
    return [a for i, a in enumerate(args) if i not in donated]


class DonatingFunction:
    """``hd.jit(f, donate_argnums=...)`` on TensorFlow: the donated arguments kept in ``tf.Variable``s.

    Keras' way with a model's weights, for any function: the arrays of the donated arguments
    are copied into variables that the ``tf.function`` captures (not passed in), and an output
    of ``f`` that has the structure, shapes and dtypes of a donated argument (``f`` returns
    ``(params, opt_state, loss)`` for ``(params, opt_state, x, y)``) is assigned to that
    argument's variables inside the function, in place; the call returns those variables in
    its place. Passed back in at the next call, they are used as they are: no array of
    theirs goes in or out of the function, which costs TensorFlow about a microsecond each
    per call. Arrays that are not the variables (the first call, or other values) are
    assigned to them first (new variables if the structure, a shape or a dtype changed).

    As with jax's donation, the caller gives the donated arrays up: the variables a call
    returned hold the next call's results after it. The output structure is fixed at the
    first trace (``f``'s outputs may not change structure between traces of one set of
    variables).
    """

    def __init__(self, f: Callable, donate_argnums: tuple[int, ...], options: dict[str, Any]) -> None:
        self._f = f
        self._donate = tuple(sorted(set(donate_argnums)))
        self._options = options
        self._variables: list[Any] = []
        self._positions: list[int] = []  # the donated arguments of the calls the variables are for
        self._treedefs: list[Any] = []  # of the donated arguments
        self._specs: list[tuple] = []  # (shape, dtype) of every variable
        self._function: Any = None  # the tf.function over the variables of _variables
        self._layout: tuple | None = None  # (output treedef, {output leaf index: variable index})
        #: the outputs from the returned tensors (hedera._nests.builder), or None: optree's unflatten
        self._build: Callable[[Sequence], Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        n = len(args)
        donated = [i for i in self._donate if i < n]
        leaves: list[Any] = []
        if not (
            donated == self._positions
            and all(_quick_leaves(args[i], leaves) for i in donated)
            and self._are_the_variables(leaves)
        ):
            leaves, treedefs = [], []
            for i in donated:
                arg_leaves, treedef = optree.tree_flatten(args[i], namespace=TREE_NAMESPACE)
                leaves += arg_leaves
                treedefs.append(treedef)
            self._adopt(donated, leaves, treedefs)
        return self._run(_undonated(args, donated), kwargs)

    def call_flat(self, args: tuple, flat: list) -> Any:
        """The call of ``args`` whose leaves :func:`hedera._nests.flatten_args` gave as ``flat``
        (a list of leaves per nest, the argument itself otherwise), if the donated ones are the
        variables as they are (a training loop's next step); else ``NotImplemented``: the caller
        makes the full call, which adopts them. ``hd.jit``'s per-call path, without a walk of its own.
        """
        n = len(args)
        donated = [i for i in self._donate if i < n]
        if donated != self._positions:
            return NotImplemented
        leaves: list[Any] = []
        for i in donated:
            x = flat[i]
            if type(x) is list:
                leaves += x
            else:
                leaves.append(x)
        if not self._are_the_variables(leaves):
            return NotImplemented
        return self._run(_undonated(args, donated), {})

    def _are_the_variables(self, leaves: list) -> bool:
        """Whether the donated arguments' ``leaves`` are this function's variables themselves
        (passed back in as the last call returned them): nothing to adopt."""
        return len(leaves) == len(self._variables) and all(map(operator.is_, leaves, self._variables))

    def _run(self, rest: list, kwargs: dict) -> Any:
        """The tf.function on the other arguments ``rest``, its outputs with the variables in place."""
        returned = self._function(*rest, **kwargs)
        if self._build is not None:  # the outputs' nests, the variables in place, generated once
            return self._build(returned)
        returned = iter(returned)
        treedef, slots = self._layout  # type: ignore[misc]
        variables = self._variables
        return treedef.unflatten(
            [variables[slots[k]] if k in slots else next(returned) for k in range(treedef.num_leaves)]
        )

    def _adopt(self, positions: list[int], leaves: list, treedefs: list) -> None:
        """Put the arrays ``leaves`` of the arguments at ``positions`` into the variables (made
        anew if the positions, their structure or a shape or dtype changed)."""
        specs = [(tuple(x.shape), tf.as_dtype(x.dtype)) for x in leaves]
        if positions == self._positions and treedefs == self._treedefs and specs == self._specs:
            for v, x in zip(self._variables, leaves, strict=True):
                if v is not x:
                    v.assign(x)
            return
        self._variables = [tf.Variable(x, trainable=False, shape=x.shape) for x in leaves]
        # the variables' type known to the per-call walks (hedera._nests, _quick_leaves), which
        # read the type cache only: the next call passes the variables back in
        if self._variables:
            backend_name_of_type(type(self._variables[0]))
        self._positions, self._treedefs, self._specs, self._layout = positions, treedefs, specs, None
        self._build = None
        self._function = tf.function(self._traced, **self._options)

    def _traced(self, *args: Any, **kwargs: Any) -> tuple:
        """The body of the tf.function: ``f`` on the variables' values, the matching outputs assigned."""
        args = list(args)
        start = 0
        initial = [v.value() for v in self._variables]
        for i, treedef in zip(self._positions, self._treedefs, strict=True):  # in increasing order
            count = treedef.num_leaves
            args.insert(i, treedef.unflatten(initial[start : start + count]))
            start += count
        trace = _DonatedTrace(self._variables, initial)
        _DONATED_TRACES.append(trace)
        try:
            out = self._f(*args, **kwargs)
        finally:
            _DONATED_TRACES.pop()
        out_leaves, out_treedef = optree.tree_flatten(out, namespace=TREE_NAMESPACE)
        slots = self._slots(out, out_treedef)
        layout = (out_treedef, slots)
        if self._layout is None:
            self._layout = layout
            self._build = _nests.builder(out, {k: self._variables[j] for k, j in slots.items()})
        elif layout != self._layout:
            raise UnsupportedError(
                "jit: with donate_argnums on tensorflow, the function's outputs must keep their "
                "structure from one trace to the next"
            )
        self._assign(trace, out_leaves, slots, initial)
        return tuple(x for k, x in enumerate(out_leaves) if k not in slots)

    def _assign(self, trace: _DonatedTrace, out_leaves: list, slots: dict[int, int], initial: list) -> None:
        """Assign the outputs of ``slots`` to their variables, but where a variable holds it already
        (its value unchanged, or updated in place to it); a variable updated in place that no
        output replaces gets its value at the call's start back (as if nothing had written it)."""
        for k, j in slots.items():
            v = self._variables[j]
            if trace.current[id(v)][1] is not out_leaves[k]:
                v.assign(out_leaves[k])
        replaced = {id(self._variables[j]) for j in slots.values()}
        for v, x in zip(self._variables, initial, strict=True):
            if id(v) in trace.updated and id(v) not in replaced:
                v.assign(x)

    def _slots(self, out: Any, out_treedef: Any) -> dict[int, int]:
        """{output leaf index: variable index} for the outputs that replace a donated argument.

        The top-level outputs (the elements of a returned tuple or list, else the output)
        are matched in order: each donated argument takes the first output not yet taken that
        has its structure, shapes and dtypes.
        """
        parts = list(out) if type(out) in (tuple, list) else [out]
        offsets, k = [], 0
        for part in parts:
            offsets.append(k)
            k += optree.tree_structure(part, namespace=TREE_NAMESPACE).num_leaves
        if len(parts) == 1:
            offsets = [0]
        taken: set[int] = set()
        slots: dict[int, int] = {}
        start = 0
        for treedef in self._treedefs:
            count = treedef.num_leaves
            specs = self._specs[start : start + count]
            for j, part in enumerate(parts):
                if j in taken:
                    continue
                part_leaves, part_def = optree.tree_flatten(part, namespace=TREE_NAMESPACE)
                if (
                    part_def == treedef
                    and [(tuple(x.shape), tf.as_dtype(x.dtype)) for x in part_leaves] == specs
                ):
                    taken.add(j)
                    slots.update({offsets[j] + m: start + m for m in range(count)})
                    break
            start += count
        return slots


def is_compiling() -> bool:
    """Whether TensorFlow is building a graph (inside ``tf.function``)."""
    return not tf.executing_eagerly()
