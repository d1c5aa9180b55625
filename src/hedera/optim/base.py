"""The optimizer machinery: gradient transforms (optax-style), their chain, and the Optimizer.

An :class:`Optimizer` is a chain of :class:`Transform` stages. Each stage maps
the current update (starting from the gradients) to a new one, keeping its own
state; the last stages scale by the negative learning rate, and the result is
added to the parameters::

    state = opt.init(params)                        # a Container: {"step": 0, "<stage>": ...}
    params, state = opt.update(grads, state, params)

Both are pure functions of arrays (``hd.jit``-able). Parameters and gradients
are :class:`hedera.Container` objects of the same structure (a nested ``dict``
is converted to one); the state is a Container of arrays only, so
``hd.save(state, path)`` writes it and it moves between backends like the
parameters.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from typing import Any

import hedera as hd
from hedera import Container
from hedera.helpers import finite_float
from hedera.typing import Array

__all__ = [
    "AddDecayedWeights",
    "ClipByGlobalNorm",
    "ClipByValue",
    "Momentum",
    "Optimizer",
    "ScaleByAdam",
    "ScaleByLearningRate",
    "ScaleByRMS",
    "ScaleByTrustRatio",
    "Transform",
    "chain",
    "clip_by_global_norm",
    "clip_by_value",
    "global_norm",
]

LearningRate = float | Callable[[Any], Any]


#: the range of each hyperparameter (``hedera.helpers.finite_float``'s keywords), by name: every
#: optimizer and transform checks its arguments with it (a NaN, an infinity or a value out of range
#: is an InvalidArgumentError, a non-number an ArgumentTypeError, both naming the class and argument)
HYPERPARAMETER_RANGES: dict[str, dict[str, Any]] = {
    "lr": {"minimum": 0.0},
    "momentum": {"minimum": 0.0, "maximum": 1.0},
    "dampening": {"minimum": 0.0, "maximum": 1.0},
    "weight_decay": {"minimum": 0.0},
    "eps": {"minimum": 0.0},
    "alpha": {"minimum": 0.0},
    "b1": {"minimum": 0.0, "maximum": 1.0, "exclusive_max": True},
    "b2": {"minimum": 0.0, "maximum": 1.0, "exclusive_max": True},
    "trust_coefficient": {"minimum": 0.0, "exclusive_min": True},
    "limit": {"minimum": 0.0, "exclusive_min": True},
    "max_norm": {"minimum": 0.0, "exclusive_min": True},
    "clip_value": {"minimum": 0.0, "exclusive_min": True, "allow_none": True},
    "clip_global_norm": {"minimum": 0.0, "exclusive_min": True, "allow_none": True},
}


def hyperparameter(op: str, name: str, value: Any) -> Any:
    """``value`` checked against :data:`HYPERPARAMETER_RANGES` (a float; a schedule for ``lr``)."""
    if name == "lr" and callable(value):
        return value
    if name == "lr" and (isinstance(value, str) or value is None or hd.is_array(value)):
        raise hd.ArgumentTypeError(
            f"{op}: lr must be a finite number >= 0 or a schedule (a callable of the step), got {value!r}"
        )
    return finite_float(op, name, value, **HYPERPARAMETER_RANGES[name])


def _container(tree: Any, what: str) -> Container:
    if isinstance(tree, Container):
        return tree
    if isinstance(tree, Mapping):
        return Container(tree)
    raise hd.InvalidArgumentError(
        f"optimizer: {what} must be a Container (or a nested dict) of arrays, got {type(tree).__name__}"
    )


def _map(fn: Callable[..., Any], *trees: Container) -> Container:
    return hd.tree.map(fn, *trees)


_K = hd.nn_ops  # the multi-tensor kernels: one call per list of leaves (torch: torch._foreach_*)

Leaves = list  # the arrays of a tree, in hd.tree.flatten's order


def _leaves_like(treedef: Any, tree: Any, what: str) -> Leaves:
    """The leaves of ``tree``, which must have the structure ``treedef`` (the parameters')."""
    try:
        return treedef.flatten_up_to(tree)
    except (ValueError, TypeError) as e:
        raise hd.StructureError(
            f"optimizer: the {what} do not have the structure of the parameters: {e}"
        ) from None


class _Scalars:
    """Per-dtype 0-d arrays derived from the step count, made once per update and dtype (not per leaf).

    The step is cast with the leaf's native dtype (``hd.astype(step, leaf.dtype)``), so
    learning rates and bias corrections are computed in each parameter's own precision.
    """

    def __init__(self, step: Array, in_place: bool = False, spares: dict[str, Leaves] | None = None) -> None:
        self.step = step
        self._cache: dict[tuple[str, Any], Any] = {}
        #: whether the stages may write their new state into the old state's arrays (``Optimizer.step``)
        self.in_place = in_place
        #: the optimizer's temporaries of the previous update, by name (``Optimizer.step`` only): the
        #: stages give them to the multi-tensor kernels as ``out``, which may write into them
        self._spares = spares

    def spare(self, name: str) -> Leaves | None:
        """The temporaries kept under ``name`` by the previous update's :meth:`keep`, or None."""
        return None if self._spares is None else self._spares.get(name)

    def keep(self, name: str, arrays: Leaves) -> None:
        """Keep ``arrays`` (temporaries no one reads again) for the next update's :meth:`spare`."""
        if self._spares is not None:
            self._spares[name] = arrays

    def get(self, name: str, like: Array, make: Callable[[Array], Any]) -> Any:
        """``make(step)`` with the step as a 0-d array of ``like``'s dtype, cached under ``name``."""
        key = (name, like.dtype)
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = make(hd.astype(self.step, like.dtype))
            return value

    def for_leaves(self, name: str, leaves: Leaves, make: Callable[[Array], Any]) -> Any:
        """:meth:`get` for a list of leaves: one 0-d array if they share a dtype, else a list of them."""
        first = self.get(name, leaves[0], make)
        dtype = leaves[0].dtype
        if all(x.dtype == dtype for x in leaves):
            return first
        return [self.get(name, x, make) for x in leaves]


# ---- transforms -------------------------------------------------------------------------------


class Transform:
    """One stage of an optimizer (optax's ``GradientTransformation``).

    Subclasses define :meth:`update` and, if they keep state, :meth:`init`.
    ``name`` keys the stage's state in the optimizer's state Container.
    """

    name: str = "transform"

    def init(self, params: Container) -> Container:
        """The stage's initial state for ``params`` (a Container of arrays; empty by default)."""
        return Container()

    def update(
        self, updates: Container, state: Container, params: Container, step: Array, scalars: _Scalars
    ) -> tuple[Container, Container]:
        """``(new_updates, new_state)`` from the incoming ``updates`` (gradients at the first stage).

        ``step`` is the 0-d int32 number of updates done before this one;
        ``scalars`` makes values of it (learning rates) in a leaf's dtype once per update.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class _LeafTransform(Transform):
    """A stage written over lists of leaves with the multi-tensor kernels of :mod:`hedera.nn_ops`.

    Its state is a Container of trees shaped like the parameters (``mu``, ``nu``...).
    :meth:`_update_leaves` takes and returns them as lists of leaves (``{"mu": [...]}``),
    and ``fresh``: whether the incoming updates are temporaries of this update, which
    the stage may overwrite (``reuse=True``); it returns whether its own updates are.
    The optimizer calls it once per step with the leaves flattened once for the whole
    chain; :meth:`update` is the Container form, for use as a single stage.
    """

    def _update_leaves(
        self,
        updates: Leaves,
        state: dict[str, Leaves],
        params: Leaves,
        step: Array,
        scalars: _Scalars,
        fresh: bool,
    ) -> tuple[Leaves, dict[str, Leaves], bool]:
        raise NotImplementedError

    def update(self, updates, state, params, step, scalars):
        p, treedef = hd.tree.flatten(params)
        u = _leaves_like(treedef, updates, "updates")
        s = {k: _leaves_like(treedef, v, f"state {k!r}") for k, v in state.items()}
        u, s, _ = self._update_leaves(u, s, p, step, scalars, False)
        return hd.tree.unflatten(treedef, u), Container(
            {k: hd.tree.unflatten(treedef, v) for k, v in s.items()}
        )


class ClipByValue(_LeafTransform):
    """Clip every gradient element to ``[-limit, limit]`` (``torch.nn.utils.clip_grad_value_``)."""

    name = "clip_by_value"

    def __init__(self, limit: float) -> None:
        self.limit = hyperparameter(type(self).__name__, "limit", limit)

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        return [hd.clip(u, -self.limit, self.limit) for u in updates], state, True


def global_norm(tree: Any) -> Array:
    """The Euclidean norm of all the leaves of ``tree`` together: ``sqrt(sum of every element squared)``.

    A 0-d array of the leaves' backend (in the promoted floating dtype of the leaves).
    """
    leaves = hd.tree.leaves(tree)
    if not leaves:
        raise hd.InvalidArgumentError("global_norm: the tree has no arrays")
    total = None
    for x in leaves:
        s = hd.sum(hd.square(x))
        total = s if total is None else hd.add(total, s)
    return hd.sqrt(total)


def _same_dtype(leaves: Leaves) -> bool:
    dtype = leaves[0].dtype
    return all(x.dtype == dtype for x in leaves)


class ClipByGlobalNorm(_LeafTransform):
    """Scale all gradients by ``min(1, max_norm / global_norm)`` (optax's ``clip_by_global_norm``).

    PyTorch's ``clip_grad_norm_`` divides by ``norm + 1e-6`` instead of ``norm``.
    """

    name = "clip_by_global_norm"

    def __init__(self, max_norm: float) -> None:
        self.max_norm = hyperparameter(type(self).__name__, "max_norm", max_norm)

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        if not updates:
            return updates, state, fresh
        norm = global_norm(updates)
        scale = hd.divide(self.max_norm, hd.maximum(norm, self.max_norm))
        if _same_dtype(updates):
            return _K.foreach_multiply(updates, hd.astype(scale, updates[0].dtype), fresh), state, True
        return [hd.multiply(u, hd.astype(scale, u.dtype)) for u in updates], state, True


class AddDecayedWeights(_LeafTransform):
    """``update + weight_decay * param``: L2 regularisation when first (PyTorch's ``weight_decay``),
    decoupled weight decay after an adaptive stage (AdamW, LAMB)."""

    name = "weight_decay"

    def __init__(self, weight_decay: float) -> None:
        self.weight_decay = hyperparameter(type(self).__name__, "weight_decay", weight_decay)

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        return _K.foreach_add(updates, _K.foreach_multiply(params, self.weight_decay), fresh), state, True


class Momentum(_LeafTransform):
    """PyTorch SGD's momentum: ``buf = momentum * buf + (1 - dampening) * u`` (``buf = u`` at the first step);
    the update is ``buf``, or ``u + momentum * buf`` with ``nesterov`` (optax's ``trace``)."""

    name = "momentum"

    def __init__(self, momentum: float, dampening: float = 0.0, nesterov: bool = False) -> None:
        op = type(self).__name__
        self.momentum = hyperparameter(op, "momentum", momentum)
        self.dampening, self.nesterov = hyperparameter(op, "dampening", dampening), bool(nesterov)

    def init(self, params: Container) -> Container:
        return Container(buf=params.map(hd.zeros_like))

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        m, d = self.momentum, self.dampening
        decayed = _K.foreach_multiply(state["buf"], m, scalars.in_place)
        if d:
            buf = _K.foreach_add(decayed, _K.foreach_multiply(updates, 1.0 - d), True)
            first = hd.equal(step, 0)
            buf = [hd.where(first, u, b) for u, b in zip(updates, buf, strict=True)]
        else:
            buf = _K.foreach_add(decayed, updates, True)
        if self.nesterov:
            return _K.foreach_add(updates, _K.foreach_multiply(buf, m), fresh), {"buf": buf}, True
        return buf, {"buf": buf}, False  # the updates are the state: not to be overwritten


class ScaleByAdam(_LeafTransform):
    """Adam's direction ``m_hat / (sqrt(v_hat) + eps)`` with bias-corrected moments (PyTorch's and optax's).

    ``amsgrad`` uses the running maximum of ``v`` (PyTorch's ``amsgrad=True``).
    """

    name = "adam"

    def __init__(self, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8, amsgrad: bool = False) -> None:
        op = type(self).__name__
        self.b1, self.b2 = hyperparameter(op, "b1", b1), hyperparameter(op, "b2", b2)
        self.eps, self.amsgrad = hyperparameter(op, "eps", eps), bool(amsgrad)

    def init(self, params: Container) -> Container:
        state = Container(mu=params.map(hd.zeros_like), nu=params.map(hd.zeros_like))
        if self.amsgrad:
            state["nu_max"] = params.map(hd.zeros_like)
        return state

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        b1, b2, eps = self.b1, self.b2, self.eps

        def correction(beta: float) -> Callable[[Array], Any]:
            # 1 - beta**(step + 1), as exp((step + 1) log beta), in the leaf's dtype
            return lambda s: hd.subtract(1.0, hd.exp(hd.multiply(hd.add(s, 1.0), math.log(beta))))

        # m = b1 * m + (1 - b1) * u;  v = b2 * v + (1 - b2) * u**2
        scaled = _K.foreach_multiply(updates, 1.0 - b1, out=scalars.spare("adam_scaled"))
        mu = _K.foreach_add(_K.foreach_multiply(state["mu"], b1, scalars.in_place), scaled, True)
        scalars.keep("adam_scaled", scaled)
        squares = _K.foreach_multiply(
            _K.foreach_square(updates, out=scalars.spare("adam_squares")), 1.0 - b2, True
        )
        nu = _K.foreach_add(_K.foreach_multiply(state["nu"], b2, scalars.in_place), squares, True)
        scalars.keep("adam_squares", squares)
        new_state = {"mu": mu, "nu": nu}
        second = nu
        if self.amsgrad:
            second = new_state["nu_max"] = _K.foreach_maximum(state["nu_max"], nu, scalars.in_place)
        # m_hat / (sqrt(v_hat) + eps), the hats divided by the bias corrections
        m_hat = _K.foreach_divide(mu, scalars.for_leaves("adam_c1", mu, correction(b1))) if b1 > 0 else mu
        c2 = scalars.for_leaves("adam_c2", mu, correction(b2)) if b2 > 0 else None
        v_hat = _K.foreach_divide(second, c2, out=scalars.spare("adam_denom")) if b2 > 0 else second
        denom = _K.foreach_add(_K.foreach_sqrt(v_hat, b2 > 0), eps, True)
        direction = _K.foreach_divide(m_hat, denom, b1 > 0)
        scalars.keep("adam_denom", denom)
        return direction, new_state, True


class ScaleByRMS(_LeafTransform):
    """PyTorch's RMSprop direction: ``u / (sqrt(sq) + eps)``, ``sq = alpha * sq + (1 - alpha) * u**2``.

    ``centered`` subtracts the squared running mean of ``u`` under the square
    root; ``momentum > 0`` keeps a momentum buffer of the result.
    """

    name = "rmsprop"

    def __init__(
        self, alpha: float = 0.99, eps: float = 1e-8, centered: bool = False, momentum: float = 0.0
    ) -> None:
        op = type(self).__name__
        self.alpha, self.eps = hyperparameter(op, "alpha", alpha), hyperparameter(op, "eps", eps)
        self.centered, self.momentum = bool(centered), hyperparameter(op, "momentum", momentum)

    def init(self, params: Container) -> Container:
        state = Container(square_avg=params.map(hd.zeros_like))
        if self.centered:
            state["grad_avg"] = params.map(hd.zeros_like)
        if self.momentum:
            state["buf"] = params.map(hd.zeros_like)
        return state

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        a, eps = self.alpha, self.eps
        squares = _K.foreach_multiply(
            _K.foreach_square(updates, out=scalars.spare("rmsprop_squares")), 1.0 - a, True
        )
        sq = _K.foreach_add(_K.foreach_multiply(state["square_avg"], a, scalars.in_place), squares, True)
        scalars.keep("rmsprop_squares", squares)
        new_state = {"square_avg": sq}
        if self.centered:
            scaled = _K.foreach_multiply(updates, 1.0 - a, out=scalars.spare("rmsprop_scaled"))
            ga = _K.foreach_add(_K.foreach_multiply(state["grad_avg"], a, scalars.in_place), scaled, True)
            scalars.keep("rmsprop_scaled", scaled)
            new_state["grad_avg"] = ga
            denom = [hd.add(hd.sqrt(hd.subtract(s, hd.square(g))), eps) for s, g in zip(sq, ga, strict=True)]
        else:
            denom = _K.foreach_add(_K.foreach_sqrt(sq), eps, True)
        updates = _K.foreach_divide(updates, denom, fresh)
        if self.momentum:
            updates = new_state["buf"] = _K.foreach_add(
                _K.foreach_multiply(state["buf"], self.momentum, scalars.in_place), updates, True
            )
            return updates, new_state, False  # the updates are the state
        return updates, new_state, True


class ScaleByTrustRatio(_LeafTransform):
    """Layer-wise trust ratio (LARS, LAMB): each leaf's update times
    ``trust_coefficient * ||param|| / (||update|| + eps)``, or 1 where either norm is 0 (optax's)."""

    name = "trust_ratio"

    def __init__(self, trust_coefficient: float = 1.0, eps: float = 0.0) -> None:
        op = type(self).__name__
        self.trust_coefficient = hyperparameter(op, "trust_coefficient", trust_coefficient)
        self.eps = hyperparameter(op, "eps", eps)

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        def scale(u: Array, p: Array) -> Array:
            p_norm = hd.linalg.vector_norm(p)
            u_norm = hd.linalg.vector_norm(u)
            zero = hd.logical_or(hd.equal(p_norm, 0.0), hd.equal(u_norm, 0.0))
            one = hd.ones_like(u_norm)
            denom = hd.where(zero, one, hd.add(u_norm, self.eps))  # never 0: no inf/NaN in either branch
            ratio = hd.where(zero, one, hd.divide(hd.multiply(p_norm, self.trust_coefficient), denom))
            return hd.multiply(u, ratio)

        return [scale(u, p) for u, p in zip(updates, params, strict=True)], state, True


class ScaleByLearningRate(_LeafTransform):
    """``-lr * update``: the step of gradient descent; ``lr`` a number or a schedule of the step count."""

    name = "learning_rate"

    def __init__(self, lr: LearningRate, *, op: str | None = None) -> None:
        self.lr = hyperparameter(op or type(self).__name__, "lr", lr)

    def _update_leaves(self, updates, state, params, step, scalars, fresh):
        if not updates:
            return updates, state, fresh
        if callable(self.lr):
            schedule = self.lr
            neg = scalars.for_leaves("lr", updates, lambda s: hd.negative(schedule(s)))
        else:
            neg = -self.lr
        return _K.foreach_multiply(updates, neg, fresh), state, True


def clip_by_value(limit: float) -> ClipByValue:
    """A stage clipping every gradient element to ``[-limit, limit]``; put it first in :func:`chain`."""
    return ClipByValue(hyperparameter("clip_by_value", "limit", limit))


def clip_by_global_norm(max_norm: float) -> ClipByGlobalNorm:
    """A stage scaling the gradients to a global norm of at most ``max_norm``; put it first in :func:`chain`.

    Examples
    --------
    >>> import hedera as hd
    >>> opt = hd.optim.chain(hd.optim.clip_by_global_norm(1.0), hd.optim.Adam(1e-3))
    """
    return ClipByGlobalNorm(hyperparameter("clip_by_global_norm", "max_norm", max_norm))


# ---- fused tails -----------------------------------------------------------------------------


def _same_arrays(xs: Leaves, ys: Leaves) -> bool:
    """Whether the two lists hold the very same array objects."""
    return len(xs) == len(ys) and all(map(operator.is_, xs, ys))


class _FusedTail:
    """The last stages of a chain, run as one fused optimizer kernel of :mod:`hedera.nn_ops` where the
    backend has one for the call (torch: ``torch.optim``'s ``fused=True`` kernels); else they run as
    stages. ``start`` is the index of the first stage it covers."""

    def __init__(self, stages: tuple[tuple[str, Transform], ...], start: int) -> None:
        self.start = start
        self.names = tuple(name for name, _ in stages[start:])
        self.lr: LearningRate = stages[-1][1].lr  # type: ignore[attr-defined]

    def learning_rate(self, step: Array, like: Array) -> Any:
        """The learning rate: the number, or the schedule's value at ``step`` in ``like``'s dtype."""
        return self.lr(hd.astype(step, like.dtype)) if callable(self.lr) else self.lr

    def states(
        self, state: Container, treedef: Any, name: str, old: dict[str, Leaves], new: dict[str, Leaves]
    ):
        """The tail's stages' new states: ``new`` for ``name`` (the old Container where its arrays were
        written into), empty Containers for the stateless ones."""
        out = {n: Container() for n in self.names}
        if all(_same_arrays(old[k], new[k]) for k in new):
            out[name] = state[name]
        else:
            out[name] = Container({k: hd.tree.unflatten(treedef, v) for k, v in new.items()})
        return out

    def run(self, u, state, p, treedef, step, count, scalars, reuse_params):
        """``(new parameter leaves, {stage name: new state})`` from the kernel, or None where it has none."""
        raise NotImplementedError


class _AdamTail(_FusedTail):
    """``[AddDecayedWeights] ScaleByAdam [AddDecayedWeights] ScaleByLearningRate``: ``nn_ops.fused_adam``."""

    def __init__(self, stages, start: int, adam: int, decay: float, decoupled: bool) -> None:
        super().__init__(stages, start)
        self.name, self.adam = stages[adam]
        self.decay, self.decoupled = decay, decoupled

    def run(self, u, state, p, treedef, step, count, scalars, reuse_params):
        adam, st = self.adam, state[self.name]
        old = {k: _leaves_like(treedef, v, f"state {self.name}/{k}") for k, v in st.items()}
        out = _K.fused_adam(
            p, u, old["mu"], old["nu"], old.get("nu_max") if adam.amsgrad else None, count,
            self.learning_rate(step, p[0]), adam.b1, adam.b2, adam.eps, self.decay, self.decoupled,
            reuse_params, scalars.in_place,
        )  # fmt: skip
        if out is None:
            return None
        new_p, mu, nu, nu_max = out
        new = {"mu": mu, "nu": nu} if nu_max is None else {"mu": mu, "nu": nu, "nu_max": nu_max}
        return new_p, self.states(state, treedef, self.name, old, new)


class _SGDTail(_FusedTail):
    """``[AddDecayedWeights] [Momentum] ScaleByLearningRate``: ``nn_ops.fused_sgd``."""

    def __init__(self, stages, start: int, momentum: int | None, decay: float) -> None:
        super().__init__(stages, start)
        self.name, self.momentum = stages[momentum] if momentum is not None else (None, None)
        self.decay = decay

    def run(self, u, state, p, treedef, step, count, scalars, reuse_params):
        m = self.momentum
        old = {}
        if m is not None:
            old = {"buf": _leaves_like(treedef, state[self.name]["buf"], f"state {self.name}/buf")}
        out = _K.fused_sgd(
            p, u, old.get("buf"), count, self.learning_rate(step, p[0]),
            0.0 if m is None else m.momentum, 0.0 if m is None else m.dampening,
            False if m is None else m.nesterov, self.decay, reuse_params, scalars.in_place,
        )  # fmt: skip
        if out is None:
            return None
        new_p, buf = out
        if m is None:
            return new_p, {n: Container() for n in self.names}
        return new_p, self.states(state, treedef, self.name, old, {"buf": buf})


def _fused_tail(stages: tuple[tuple[str, Transform], ...]) -> _FusedTail | None:
    """The fused tail the chain ``stages`` ends with (Adam's, AdamW's or SGD's), or None.

    Only these exact stage classes (not subclasses, which may compute otherwise) are fused.
    """
    kinds = [type(t) for _, t in stages]
    if not kinds or kinds[-1] is not ScaleByLearningRate:
        return None
    i = len(kinds) - 2  # the stage before the learning rate
    decay, decoupled = 0.0, False
    if i >= 1 and kinds[i] is AddDecayedWeights and kinds[i - 1] is ScaleByAdam:
        decay, decoupled, i = stages[i][1].weight_decay, True, i - 1  # type: ignore[attr-defined]
    if i >= 0 and kinds[i] is ScaleByAdam:
        adam = start = i
        if not decoupled and i >= 1 and kinds[i - 1] is AddDecayedWeights:
            decay, start = stages[i - 1][1].weight_decay, i - 1  # type: ignore[attr-defined]
        return _AdamTail(stages, start, adam, decay, decoupled)
    momentum = None
    if i >= 0 and kinds[i] is Momentum:
        momentum, i = i, i - 1
    if i >= 0 and kinds[i] is AddDecayedWeights:
        return _SGDTail(stages, i, momentum, stages[i][1].weight_decay)  # type: ignore[attr-defined]
    return _SGDTail(stages, i + 1, momentum, 0.0)


# ---- the optimizer ---------------------------------------------------------------------------


class Optimizer:
    """A chain of :class:`Transform` stages with optax's functional API and PyTorch's ``step``.

    Parameters
    ----------
    *transforms : Transform
        The stages, applied in order to the gradients.

    Attributes
    ----------
    state : Container or None
        The state kept by :meth:`step` (``None`` before the first step). Save it
        with the model (``hd.save({"model": model.state(), "opt": opt.state}, path)``)
        and assign it back to resume.
    """

    def __init__(self, *transforms: Transform) -> None:
        names: dict[str, int] = {}
        stages = []
        for t in transforms:
            if not isinstance(t, Transform):
                raise hd.InvalidArgumentError(f"Optimizer: expected Transform stages, got {type(t).__name__}")
            count = names.get(t.name, 0)
            names[t.name] = count + 1
            stages.append((t.name if count == 0 else f"{t.name}_{count}", t))
        self.stages: tuple[tuple[str, Transform], ...] = tuple(stages)
        self._leaf_stages = all(isinstance(t, _LeafTransform) for _, t in stages)
        #: the last stages as one fused kernel of hd.nn_ops, where the chain ends as Adam's or SGD's
        self._tail = _fused_tail(self.stages) if self._leaf_stages else None
        self._state: Container | None = None
        self._state_is_own = False  # made by init/step, no one else's: step may overwrite its arrays
        self._owner: Any = None
        self._spares: dict[str, Leaves] = {}  # step's temporaries, written into at the next step
        self._own_params: Leaves | None = None  # the parameter arrays step put in the module last

    @property
    def state(self) -> Container | None:
        """The state :meth:`step` keeps (``None`` before the first step); assign a saved one to resume."""
        return self._state

    @state.setter
    def state(self, value: Container | None) -> None:
        self._state, self._state_is_own = value, False

    @property
    def transforms(self) -> tuple[Transform, ...]:
        """The stages, in order."""
        return tuple(t for _, t in self.stages)

    def init(self, params: Any) -> Container:
        """The initial state for ``params``: ``Container(step=0, <stage>=...)``, on the parameters' backend.

        ``step`` is a 0-d ``int32`` count of the updates done.
        """
        params = _container(params, "params")
        leaves = hd.tree.leaves(params)
        backend = hd.backend_of(leaves[0]) if leaves else hd.current_backend()
        device = hd.device(leaves[0]) if leaves else None
        state = Container(step=hd.asarray(0, dtype=hd.int32, backend=backend, device=device))
        for name, t in self.stages:
            state[name] = t.init(params)
        return state

    def update(self, grads: Any, state: Container, params: Any) -> tuple[Container, Container]:
        """One optimization step: ``(new_params, new_state)``; a pure function of its arguments.

        Parameters
        ----------
        grads : Container
            The gradients, shaped like ``params`` (``hd.grad``'s output).
        state : Container
            From :meth:`init` or the previous :meth:`update`.
        params : Container
            The current parameters.
        """
        return self._update(grads, state, params, in_place=False)

    def _update(
        self, grads: Any, state: Container, params: Any, in_place: bool
    ) -> tuple[Container, Container]:
        """:meth:`update`; ``in_place``: the new state may be written into the old state's arrays."""
        params = _container(params, "params")
        grads = _container(grads, "grads")
        if not self._leaf_stages:
            step = state["step"]
            scalars = _Scalars(step, in_place, self._spares if in_place else None)
            new_state = Container(step=hd.add(step, 1))
            updates = grads
            for name, t in self.stages:
                updates, new_state[name] = t.update(updates, state[name], params, step, scalars)
            return _map(hd.add, params, updates), new_state
        p, treedef = hd.tree.flatten(params)
        leaves, _, new_state = self._update_flat(p, treedef, grads, state, in_place, None)
        return hd.tree.unflatten(treedef, leaves), new_state

    def _update_flat(
        self, p: Leaves, treedef: Any, grads: Container, state: Container, in_place: bool, own: Leaves | None
    ) -> tuple[Leaves, bool, Container]:
        """The leaf stages' update of the parameter leaves ``p``: ``(new leaves, fused, new_state)``.

        The leaves are flattened once for the whole chain, one multi-tensor (or fused) kernel call
        per operation; ``fused``: whether a fused kernel of :mod:`hedera.nn_ops` ran the tail.
        ``own``: the parameter arrays this optimizer's previous :meth:`step` made, which it may
        write into.
        """
        step = state["step"]
        scalars = _Scalars(step, in_place, self._spares if in_place else None)
        count = hd.add(step, 1)
        new_state = Container(step=count)
        u = _leaves_like(treedef, grads, "grads")
        tail = self._tail
        stop = len(self.stages) if tail is None else tail.start
        u, fresh = self._run_stages(self.stages[:stop], u, False, state, new_state, p, treedef, step, scalars)
        if tail is not None:
            reuse = own is not None and _same_arrays(p, own)
            done = tail.run(u, state, p, treedef, step, count, scalars, reuse)
            if done is not None:
                new_p, tail_state = done
                for name, s in tail_state.items():
                    new_state[name] = s
                return new_p, True, new_state
            rest = self.stages[stop:]
            u, fresh = self._run_stages(rest, u, fresh, state, new_state, p, treedef, step, scalars)
        # params + updates, as updates + params (the same sum) so that fresh updates take the result
        return _K.foreach_add(u, p, fresh), False, new_state

    @staticmethod
    def _run_stages(stages, u, fresh, state, new_state, p, treedef, step, scalars) -> tuple[Leaves, bool]:
        """Run leaf ``stages`` on the updates ``u``, putting their new states in ``new_state``.

        ``fresh``: whether ``u`` are temporaries of this update (the gradients are the caller's: never
        overwritten). Returns the updates and whether they are fresh.
        """
        for name, t in stages:
            s = {k: _leaves_like(treedef, v, f"state {name}/{k}") for k, v in state[name].items()}
            u, s, fresh = t._update_leaves(u, s, p, step, scalars, fresh)
            new_state[name] = Container({k: hd.tree.unflatten(treedef, v) for k, v in s.items()})
        return u, fresh

    def step(self, module: Any, grads: Any) -> None:
        """Update ``module``'s parameters in place from ``grads`` (the convenience form; not for ``hd.jit``).

        The state lives in :attr:`state`, created at the first call (or when
        called with another module). The new parameters are detached from any
        autodiff graph (``hd.stop_gradient``). Where the backend allows it (torch
        tensors outside autograd), the new state is written into the arrays of the
        state this optimizer made itself (as ``torch.optim`` keeps its state), so that
        a step allocates fewer arrays; a state assigned to :attr:`state` is never
        written to. Where a fused kernel runs (:mod:`hedera.nn_ops`' ``fused_adam``,
        ``fused_sgd``: torch), the new parameters are likewise written into the
        parameter arrays that this optimizer's previous step put in the module (as
        ``torch.optim`` does): arrays read from ``module.parameters()`` after one
        step hold the next step's values after it. The values are :meth:`update`'s,
        bit for bit.
        """
        params = module.parameters()
        if self._state is None or self._owner is not module:
            self._state, self._state_is_own = self.init(params), True
            self._owner = module
            self._spares, self._own_params = {}, None
        if not self._leaf_stages:
            new_params, self._state = self._update(grads, self._state, params, in_place=self._state_is_own)
            self._state_is_own = True
            module.set_parameters(new_params.map(hd.stop_gradient))
            return
        params = _container(params, "params")
        p, treedef = hd.tree.flatten(params)
        leaves, fused, self._state = self._update_flat(
            p, treedef, _container(grads, "grads"), self._state, self._state_is_own, self._own_params
        )
        self._state_is_own = True
        if fused and _same_arrays(leaves, p):  # written into the module's own arrays: nothing to set
            return
        if not fused:  # the fused kernels' parameters are never part of a graph
            leaves = [hd.stop_gradient(x) for x in leaves]
        module.set_parameters(hd.tree.unflatten(treedef, leaves))
        self._own_params = leaves

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(t) for t in self.transforms)})"


def chain(*parts: Transform | Optimizer) -> Optimizer:
    """An optimizer applying the stages of ``parts`` (transforms or optimizers) in order.

    Examples
    --------
    >>> import hedera as hd
    >>> opt = hd.optim.chain(hd.optim.clip_by_value(1.0), hd.optim.SGD(0.1, momentum=0.9))
    >>> [name for name, _ in opt.stages]
    ['clip_by_value', 'momentum', 'learning_rate']
    """
    stages: list[Transform] = []
    for p in parts:
        if isinstance(p, Optimizer):
            stages.extend(p.transforms)
        elif isinstance(p, Transform):
            stages.append(p)
        else:
            raise hd.InvalidArgumentError(f"chain: expected Transforms or Optimizers, got {type(p).__name__}")
    return Optimizer(*stages)
