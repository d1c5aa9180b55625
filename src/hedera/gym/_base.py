"""The environment base class (both faces: gymnasium's ``Env`` API and the functional API) and rollouts."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import hedera as hd
from hedera.helpers import one_of, positive_int
from hedera.typing import Array

from ._raster import Canvas
from .spaces import Box

__all__ = ["Env", "rollout", "policy_rollout"]


class Env:
    """Base class of hedera.gym's environments.

    An environment has two faces.

    **The functional API** (pure, batched, differentiable, compilable with :func:`hedera.jit`)
    works on native arrays of any backend; the environment object only holds constants:

    * ``initial_state(key, batch_shape=(), dtype=None) -> state``, a random start state
      ``(*batch_shape, state_size)`` drawn with the keyed :mod:`hedera.random`;
    * ``step_fn(state, action) -> (next_state, obs, reward)``: ``state`` ``(..., state_size)``
      and ``action`` ``(..., action_size)`` broadcast over their leading dimensions; ``obs`` is
      the observation of ``next_state`` ``(..., obs_size)``, ``reward`` ``(...)`` the smooth
      reward (see each environment);
    * ``observe(state) -> obs`` and ``terminated_fn(state) -> bool array (...)``.

    ``step_fn`` does not validate its arguments (that would break compilation and cost
    time); :meth:`step` does.

    **The gymnasium ``Env`` API** (one environment, stateful, duck-typed: hedera.gym does not
    import gymnasium): :meth:`reset`, :meth:`step`, :meth:`render`, :meth:`close`,
    :attr:`action_space`, :attr:`observation_space` (:class:`hedera.gym.spaces.Box`),
    :attr:`metadata`, :attr:`render_mode`, :attr:`unwrapped`; plus :meth:`get_state` and
    :meth:`set_state`. Observations are native arrays of the environment's backend, rewards
    Python floats, ``terminated``/``truncated`` Python bools. ``truncated`` becomes ``True``
    after :attr:`max_episode_steps` steps (the ``TimeLimit`` that ``gymnasium.make`` adds).

    Parameters
    ----------
    backend : str, optional
        The backend of the Env-API arrays (default: the current backend).
    dtype : hedera dtype, native dtype or name
        ``float32`` (default) or ``float64``.
    render_mode : str
        Only ``"rgb_array"`` is supported: :meth:`render` returns an ``(H, W, 3)`` ``uint8`` array.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}  # noqa: RUF012
    state_size: int
    action_size: int
    obs_size: int
    max_episode_steps: int = 500
    #: the rendered image's (height, width) in pixels
    render_shape: tuple[int, int] = (400, 400)

    def __init__(
        self, *, backend: str | None = None, dtype: Any = hd.float32, render_mode: str = "rgb_array"
    ):
        if render_mode is not None:
            one_of(type(self).__name__, "render_mode", render_mode, ("rgb_array",))
        self.backend = backend or hd.current_backend()
        if self.backend not in hd.available_backends():
            raise hd.UnknownBackendError(f"backend {self.backend!r} is not available")
        self.dtype = hd.dtype(hd.asarray(0.0, dtype=dtype, backend=self.backend))
        if self.dtype not in (hd.float32, hd.float64):
            raise hd.DtypeError(f"dtype must be float32 or float64, got {self.dtype}")
        self.render_mode = render_mode
        low, high = self._action_bounds()
        self.action_space = Box(low, high, (self.action_size,), self.dtype, self.backend)
        low, high = self._observation_bounds()
        self.observation_space = Box(low, high, (self.obs_size,), self.dtype, self.backend)
        self.spec = None
        self._state: Array | None = None
        self._key: Array | None = None
        self._elapsed = 0

    # ================================================================= functional API
    def initial_state(
        self, key: Array | None = None, batch_shape: tuple[int, ...] = (), dtype: Any = None
    ) -> Array:
        """A random start state ``(*batch_shape, state_size)`` (see the environment for the distribution).

        ``key``: a :func:`hedera.random.key` (its backend is the result's); ``None`` draws from the
        stateful generator of :attr:`backend`. ``dtype`` defaults to :attr:`dtype`.
        """
        dtype = self.dtype if dtype is None else dtype
        with hd.use_backend(self.backend if key is None else hd.backend_of(key)):
            return self._initial_state(key, tuple(batch_shape), dtype)

    def step_fn(self, state: Array, action: Array) -> tuple[Array, Array, Array]:
        """One step: ``(next_state (..., S), obs (..., O), reward (...))``. Pure and differentiable."""
        raise NotImplementedError

    def observe(self, state: Array) -> Array:
        """The observation ``(..., obs_size)`` of ``state`` ``(..., state_size)``."""
        raise NotImplementedError

    def terminated_fn(self, state: Array) -> Array:
        """Whether ``state`` ends an episode (boolean ``(...)``); never, unless the environment says so."""
        shape = tuple(state.shape[:-1])
        return hd.zeros(shape, dtype=hd.bool, device=hd.device(state), backend=hd.backend_of(state))

    def gym_reward_fn(self, state: Array, action: Array, next_state: Array) -> Array:
        """gymnasium's (possibly non-smooth) reward of the step, where the environment has one."""
        return self.step_fn(state, action)[2]

    # hooks for subclasses
    def _initial_state(self, key: Array | None, batch_shape: tuple[int, ...], dtype: Any) -> Array:
        raise NotImplementedError

    def _action_bounds(self) -> tuple[Any, Any]:
        return -1.0, 1.0

    def _observation_bounds(self) -> tuple[Any, Any]:
        return -hd.inf, hd.inf

    def _draw(self, canvas_factory: Callable[..., Canvas], state: list[float]) -> Canvas:
        raise NotImplementedError

    # ================================================================= gymnasium Env API
    @property
    def unwrapped(self) -> Env:
        """The environment itself (there are no wrappers), as gymnasium's ``Env.unwrapped``."""
        return self

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Array, dict]:
        """Start an episode: ``(obs, info)``.

        ``seed`` re-seeds the environment's key stream (the same seed gives the same episode
        starts on one backend); without a seed the stream continues (it is seeded from the OS
        on first use). ``options`` may hold ``"state"``: a start state to use instead of a draw.
        """
        if seed is not None:
            self._key = hd.random.key(int(seed), backend=self.backend)
            self.action_space.seed(int(seed))
        elif self._key is None:
            self._key = hd.random.key(int.from_bytes(os.urandom(4), "little"), backend=self.backend)
        self._key, key = hd.random.split(self._key)
        if options and "state" in options:
            self.set_state(options["state"])
        else:
            self._state = self.initial_state(key)
        self._elapsed = 0
        self._on_reset()
        return self.observe(self._state), {}

    def step(self, action: Any) -> tuple[Array, float, bool, bool, dict]:
        """Advance one step: ``(obs, reward, terminated, truncated, info)``.

        ``action``: an array of the environment's backend (or Python numbers) of shape
        ``action_space.shape``. ``reward`` is the smooth reward; ``info["gym_reward"]`` is
        gymnasium's for the classic-control environments.

        Raises
        ------
        hedera.BackendMismatchError
            ``action`` is an array of another backend.
        hedera.ShapeError
            ``action`` does not have shape ``action_space.shape``.
        hedera.DtypeError
            ``action`` is boolean or complex.
        hedera.InvalidArgumentError
            ``action`` holds NaN or infinity, or :meth:`reset` was never called.
        """
        if self._state is None:
            raise hd.InvalidArgumentError(f"{type(self).__name__}.step: call reset() first")
        action = self._check_action(action)
        state = self._state
        next_state, obs, reward = self.step_fn(state, action)
        terminated = bool(self.terminated_fn(next_state))
        info = self._info(state, action, next_state, terminated)
        self._state = next_state
        self._elapsed += 1
        truncated = self._elapsed >= self.max_episode_steps
        return obs, float(reward), terminated, truncated, info

    def get_state(self) -> Array:
        """The current state ``(state_size,)`` (a native array of :attr:`backend`)."""
        return self._state

    def set_state(self, state: Any) -> Array:
        """Set the current state ``(state_size,)``; returns its observation.

        Raises :class:`hedera.BackendMismatchError` / :class:`hedera.ShapeError` for a state of
        another backend or shape.
        """
        state = self._check_array(state, (self.state_size,), "state")
        self._state = state
        return self.observe(state)

    def render(self) -> Array:
        """The current state drawn as an ``(H, W, 3)`` ``uint8`` RGB NumPy array (``render_shape``)."""
        if self._state is None:
            raise hd.InvalidArgumentError(f"{type(self).__name__}.render: call reset() first")
        values = [float(v) for v in hd.to_numpy(self._state).tolist()]
        return self._draw(
            lambda xlim, ylim, **kw: Canvas(*self.render_shape, xlim, ylim, **kw), values
        ).to_uint8()

    def close(self) -> None:
        """Nothing to release (gymnasium API)."""

    def __enter__(self) -> Env:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(backend={self.backend!r}, dtype={self.dtype})"

    # ----------------------------------------------------------------- helpers
    def _on_reset(self) -> None:
        """Per-episode bookkeeping of subclasses."""

    def _info(self, state: Array, action: Array, next_state: Array, terminated: bool) -> dict:
        return {}

    def _check_array(self, x: Any, shape: tuple[int, ...], name: str) -> Array:
        if isinstance(x, (bool, int, float, list, tuple)):
            x = hd.asarray(x, dtype=self.dtype, backend=self.backend)
        else:
            backend = hd.backend_of(x)  # NotAnArrayError for anything else
            if backend != self.backend:
                raise hd.BackendMismatchError(
                    f"{type(self).__name__}: {name} is a {backend} array but the environment runs on "
                    f"{self.backend}; convert it with hd.asarray({name}, backend={self.backend!r})"
                )
        if tuple(x.shape) != shape:
            raise hd.ShapeError(
                f"{type(self).__name__}: {name} must have shape {shape}, got {tuple(x.shape)}"
            )
        if hd.isdtype(hd.dtype(x), ("bool", "complex floating")):
            raise hd.DtypeError(f"{type(self).__name__}: {name} must be real, got dtype {hd.dtype(x)}")
        if hd.dtype(x) != self.dtype:
            x = hd.astype(x, self.dtype)
        if not bool(hd.all(hd.isfinite(x))):
            raise hd.InvalidArgumentError(
                f"{type(self).__name__}: {name} holds NaN or infinity: {hd.to_numpy(x)}"
            )
        return x

    def _check_action(self, action: Any) -> Array:
        return self._check_array(action, self.action_space.shape, "action")


def rollout(env: Env, state: Array, actions: Array) -> tuple[Array, Array, Array]:
    """Run ``env.step_fn`` over a sequence of actions (pure; differentiable; works under :func:`hedera.jit`).

    One :func:`hedera.scan` over time: a Python loop eagerly, one compiled loop under
    :func:`hedera.jit` (so compile time does not grow with the number of steps).

    Parameters
    ----------
    env : Env
    state : array, shape (..., state_size)
        The start state.
    actions : array, shape (T, ..., action_size)
        One action per step, time first.

    Returns
    -------
    states : array, shape (T, ..., state_size)
        The state *after* each step.
    observations : array, shape (T, ..., obs_size)
        Their observations.
    rewards : array, shape (T, ...)
        The reward of each step.
    """

    def step(state: Array, action: Array) -> tuple[Array, tuple[Array, Array, Array]]:
        next_state, obs, reward = env.step_fn(state, action)
        return next_state, (next_state, obs, reward)

    _, (states, observations, rewards) = hd.scan(step, _step_dtype(env, state, actions[0]), actions)
    return states, observations, rewards


def _step_dtype(env: Env, state: Array, action: Array) -> Array:
    """``state`` in the dtype ``step_fn`` gives back: a loop's carry keeps one dtype (f32 + f64 is f64)."""
    out = hd.result_type(state, action)
    return state if hd.dtype(state) == out else hd.astype(state, out)


def policy_rollout(
    env: Env, policy: Callable[[Array], Array], state: Array, num_steps: int
) -> tuple[Array, Array, Array]:
    """Run ``num_steps`` steps of ``env`` acting with ``action = policy(env.observe(state))``.

    Pure and differentiable with respect to whatever ``policy`` closes over (use it inside
    :func:`hedera.grad` with the policy's parameters). Returns ``(states, observations,
    rewards)`` as :func:`rollout`, time first: ``(T, ..., S)``, ``(T, ..., O)``, ``(T, ...)``.
    One :func:`hedera.scan` over time, as :func:`rollout`.
    """

    if not callable(policy):
        raise hd.ArgumentTypeError(f"policy_rollout: policy must be a callable, got {type(policy).__name__}")
    num_steps = positive_int("policy_rollout", "num_steps", num_steps, minimum=0)

    def step(state: Array, _: Any) -> tuple[Array, tuple[Array, Array, Array]]:
        next_state, obs, reward = env.step_fn(state, policy(env.observe(state)))
        return next_state, (next_state, obs, reward)

    _, (states, observations, rewards) = hd.scan(step, state, None, length=num_steps)
    return states, observations, rewards
