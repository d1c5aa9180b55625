"""hedera.gym: the gymnasium Env API (checked with gymnasium's own env checker), spaces, errors,
rendering, compiled vs eager rollouts and gradients against central finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
import hedera.gym as hgym

gym = pytest.importorskip("gymnasium")

ENVS = {
    "CartPole": hgym.CartPole,
    "Pendulum": hgym.Pendulum,
    "MountainCar": hgym.MountainCar,
    "Reacher": lambda **kw: hgym.Reacher(2, **kw),
    "Swimmer": lambda **kw: hgym.Swimmer(3, **kw),
}


def _to_gymnasium(space):
    return gym.spaces.Box(space.low, space.high, space.shape, dtype=np.float32)


class _Adapter(gym.Env):
    """A gymnasium.Env around a hedera.gym environment (numpy backend), for gymnasium's checker."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}  # noqa: RUF012

    def __init__(self, env):
        self.env = env
        self.render_mode = "rgb_array"
        self.action_space = _to_gymnasium(env.action_space)
        self.observation_space = _to_gymnasium(env.observation_space)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        obs, info = self.env.reset(seed=seed, options=options)
        return hd.to_numpy(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(hd.asarray(np.asarray(action, np.float32)))
        return hd.to_numpy(obs), reward, terminated, truncated, info

    def render(self):
        return self.env.render()


@pytest.mark.parametrize("name", list(ENVS))
def test_gymnasium_env_checker_accepts_the_env_api(name):
    from gymnasium.utils.env_checker import check_env

    env = ENVS[name](backend="numpy")
    check_env(_Adapter(env), skip_render_check=False)


@pytest.mark.parametrize("name", list(ENVS))
def test_env_api_on_every_backend(backend, name):
    env = ENVS[name](backend=backend)
    obs, info = env.reset(seed=3)
    assert hd.backend_of(obs) == backend and tuple(obs.shape) == env.observation_space.shape
    assert hd.dtype(obs) == hd.float32 and info == {}
    assert obs in env.observation_space or name == "MountainCar"  # obs bounds are gymnasium's
    first = hd.to_numpy(obs)
    np.testing.assert_array_equal(hd.to_numpy(env.reset(seed=3)[0]), first)  # the same seed, the same start
    assert not np.array_equal(hd.to_numpy(env.reset(seed=4)[0]), first)
    action = env.action_space.sample(seed=0)
    assert hd.backend_of(action) == backend and action in env.action_space
    state = env.get_state()
    obs, reward, terminated, truncated, info = env.step(action)
    assert isinstance(reward, float) and isinstance(terminated, bool) and isinstance(truncated, bool)
    expected = env.step_fn(state, action)
    np.testing.assert_allclose(hd.to_numpy(obs), hd.to_numpy(expected[1]), rtol=1e-6)
    np.testing.assert_allclose(reward, float(expected[2]), rtol=1e-5)
    if name in ("CartPole", "Pendulum", "MountainCar"):
        assert isinstance(info["gym_reward"], float)
    # set_state / get_state round trip; Python lists are accepted
    obs = env.set_state([0.1] * env.state_size)
    np.testing.assert_allclose(hd.to_numpy(env.get_state()), 0.1, rtol=1e-6)
    assert hd.backend_of(obs) == backend
    image = env.render()
    assert image.shape == (*env.render_shape, 3) and image.dtype == np.uint8 and image.std() > 0


def test_truncation_and_cartpole_termination():
    env = hgym.Pendulum(backend="numpy")
    env.reset(seed=0)
    zero = hd.asarray([0.0], dtype=hd.float32)
    for _ in range(199):
        assert not env.step(zero)[3]
    assert env.step(zero)[3]  # the 200th step truncates
    cart = hgym.CartPole(backend="numpy")
    cart.reset(seed=0, options={"state": [0.0, 0.0, 0.25, 0.0]})
    results = [cart.step(hd.asarray([1.0], dtype=hd.float32)) for _ in range(3)]
    assert results[0][2] and results[0][4]["gym_reward"] == 1.0  # the pole is past 12 degrees: terminated
    assert results[1][4]["gym_reward"] == 0.0  # gymnasium: 0 for steps after termination


@pytest.mark.parametrize("name", list(ENVS))
def test_bad_actions_raise_hedera_errors(name):
    env = ENVS[name](backend="numpy")
    with pytest.raises(hd.InvalidArgumentError, match="reset"):
        env.step(env.action_space.sample(seed=0))
    env.reset(seed=0)
    n = env.action_size
    with pytest.raises(hd.ShapeError, match="shape"):
        env.step(hd.asarray(np.zeros(n + 1, np.float32)))
    with pytest.raises(hd.ShapeError):
        env.step(hd.asarray(np.zeros((1, n), np.float32)))
    with pytest.raises(hd.InvalidArgumentError, match="NaN"):
        env.step(hd.asarray(np.full(n, np.nan, np.float32)))
    with pytest.raises(hd.InvalidArgumentError):
        env.step(hd.asarray(np.full(n, np.inf, np.float32)))
    with pytest.raises(hd.DtypeError):
        env.step(hd.asarray(np.zeros(n, bool)))
    with pytest.raises(hd.NotAnArrayError):
        env.step("left")
    with pytest.raises(hd.ShapeError):
        env.set_state(hd.asarray(np.zeros(env.state_size + 1)))
    # ValueError / TypeError compatibility of hedera's classes
    with pytest.raises(ValueError):
        env.step(hd.asarray(np.full(n, np.nan, np.float32)))


def test_actions_of_another_backend_raise_backend_mismatch(backend):
    other = "torch" if backend == "numpy" else "numpy"
    pytest.importorskip(other)
    env = hgym.Pendulum(backend=backend)
    env.reset(seed=0)
    with pytest.raises(hd.BackendMismatchError, match="asarray"):
        env.step(hd.asarray([0.5], backend=other))
    with pytest.raises(hd.BackendMismatchError):
        env.set_state(hd.asarray([0.5, 0.0], backend=other))
    with pytest.raises(TypeError):
        env.step(hd.asarray([0.5], backend=other))


def test_constructor_errors():
    with pytest.raises(hd.DtypeError):
        hgym.Pendulum(backend="numpy", dtype="int32")
    with pytest.raises(hd.InvalidArgumentError):
        hgym.Reacher(0, backend="numpy")
    with pytest.raises(hd.InvalidArgumentError):
        hgym.Swimmer(-1, backend="numpy")
    with pytest.raises(hd.InvalidArgumentError):
        hgym.CartPole(backend="numpy", render_mode="human")


def test_box_space_agrees_with_gymnasium_box():
    box = hgym.spaces.Box([-1.0, -np.inf, 0.0], [1.0, np.inf, np.inf], (3,), backend="numpy")
    ref = gym.spaces.Box(box.low, box.high, box.shape, dtype=np.float32)
    assert box.shape == ref.shape and box.dtype == hd.float32 and not box.is_bounded
    rng = np.random.default_rng(0)
    for _ in range(200):
        x = rng.uniform(-3, 3, 3).astype(np.float32)
        assert box.contains(hd.asarray(x)) == ref.contains(x)
    for seed in range(20):
        sample = hd.to_numpy(box.sample(seed=seed))
        assert ref.contains(sample) and box.contains(sample)
    np.testing.assert_array_equal(hd.to_numpy(box.sample(seed=5)), hd.to_numpy(box.sample(seed=5)))
    box.seed(1)
    first = [hd.to_numpy(box.sample()) for _ in range(3)]
    box.seed(1)
    assert all(np.array_equal(a, hd.to_numpy(box.sample())) for a in first)
    assert not box.contains(hd.asarray(np.zeros(4, np.float32)))
    assert not box.contains(hd.asarray(np.array([np.nan, 0, 0], np.float32)))
    assert not box.contains("x")
    assert [0.0, 0.0, 0.0] in box
    with pytest.raises(hd.InvalidArgumentError):
        hgym.spaces.Box(1.0, -1.0, (2,))
    assert box == hgym.spaces.Box(box.low, box.high, (3,)) and "Box" in repr(box)


# ---------------------------------------------------------------- compiled and differentiated rollouts
def _rollout_inputs(env, backend, batch=3, steps=4, seed=0):
    rng = np.random.default_rng(seed)
    state = hd.to_numpy(env.initial_state(hd.random.key(seed, backend="numpy"), (batch,), dtype="float64"))
    actions = rng.uniform(-0.8, 0.8, (steps, batch, env.action_size))
    return hd.asarray(state, backend=backend), hd.asarray(actions, backend=backend)


@pytest.mark.parametrize("name", list(ENVS))
def test_compiled_and_eager_rollouts_agree(autodiff_backend, name):
    if autodiff_backend == "torch" and name not in ("Pendulum", "Swimmer"):
        pytest.skip("torch.compile takes seconds per environment: two environments cover it")
    env = ENVS[name](backend=autodiff_backend, dtype="float64")
    state, actions = _rollout_inputs(env, autodiff_backend)
    eager = hgym.rollout(env, state, actions)
    compiled = hd.jit(lambda s, a: hgym.rollout(env, s, a))(state, actions)
    for e, c in zip(eager, compiled, strict=True):
        assert hd.backend_of(c) == autodiff_backend
        np.testing.assert_allclose(hd.to_numpy(c), hd.to_numpy(e), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(ENVS))
def test_rollout_gradients_match_central_differences(autodiff_backend, name):
    env = ENVS[name](backend=autodiff_backend, dtype="float64")
    state_np, actions_np = (hd.to_numpy(x) for x in _rollout_inputs(env, "numpy", seed=1))
    if name == "MountainCar":  # away from the walls' clipping, where the derivative jumps
        state_np[:, 1] = 0.01

    def total(state, actions):
        return hd.sum(hgym.rollout(env, state, actions)[2])

    grads = hd.grad(total, argnums=(0, 1))(
        hd.asarray(state_np, backend=autodiff_backend), hd.asarray(actions_np, backend=autodiff_backend)
    )
    eps = 1e-6
    for g, x, which in zip(grads, (state_np, actions_np), (0, 1), strict=True):
        numeric = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            plus, minus = x.copy(), x.copy()
            plus[i] += eps
            minus[i] -= eps
            args_p = (plus, actions_np) if which == 0 else (state_np, plus)
            args_m = (minus, actions_np) if which == 0 else (state_np, minus)
            numeric[i] = (float(total(*map(hd.asarray, args_p))) - float(total(*map(hd.asarray, args_m)))) / (
                2 * eps
            )
        np.testing.assert_allclose(hd.to_numpy(g), numeric, rtol=1e-5, atol=1e-7)


def test_policy_rollout_gradient_reaches_the_policy(autodiff_backend):
    env = hgym.CartPole(backend=autodiff_backend, dtype="float64")
    state, _ = _rollout_inputs(env, autodiff_backend)
    w = hd.asarray(np.array([[0.1], [0.2], [1.0], [0.5]]), backend=autodiff_backend)

    def total(w):
        return hd.sum(hgym.policy_rollout(env, lambda obs: hd.tanh(obs @ w), state, 10)[2])

    g = hd.to_numpy(hd.grad(total)(w))
    w_np, eps = hd.to_numpy(w), 1e-6
    for i in range(4):
        plus, minus = w_np.copy(), w_np.copy()
        plus[i] += eps
        minus[i] -= eps
        fd = (
            float(total(hd.asarray(plus, backend=autodiff_backend)))
            - float(total(hd.asarray(minus, backend=autodiff_backend)))
        ) / (2 * eps)
        np.testing.assert_allclose(g[i, 0], fd, rtol=1e-5, atol=1e-8)
