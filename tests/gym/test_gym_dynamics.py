"""hedera.gym: dynamics and rewards against gymnasium itself and against independent NumPy references.

Batched on every backend (float64; jax x64 is on in the tests): a batch of states and
actions goes through ``step_fn`` at once, and each element is compared with gymnasium's
environment stepped from the same state (``env.unwrapped.state``) with the same action.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import hedera as hd
import hedera.gym as hgym

gym = pytest.importorskip("gymnasium")

N = 24  # states per batch


def _wrap(th):
    return ((th + np.pi) % (2 * np.pi)) - np.pi


def _gym_env(name):
    env = gym.make(name).unwrapped
    env.reset(seed=0)
    return env


def test_cartpole_matches_gymnasium_with_actions_plus_minus_one(backend):
    rng = np.random.default_rng(0)
    states = rng.uniform([-2.0, -2.0, -0.2, -2.0], [2.0, 2.0, 0.2, 2.0], (N, 4))
    discrete = rng.integers(0, 2, N)
    env = hgym.CartPole(backend=backend, dtype="float64")
    s = hd.asarray(states, backend=backend)
    a = hd.asarray((2.0 * discrete - 1.0)[:, None], backend=backend)
    next_state, obs, reward = env.step_fn(s, a)
    ref = _gym_env("CartPole-v1")
    expected = []
    for state, action in zip(states, discrete, strict=True):
        ref.state = state.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref.step(int(action))
        expected.append(np.asarray(ref.state, np.float64))
    np.testing.assert_allclose(hd.to_numpy(next_state), np.stack(expected), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(obs), np.stack(expected), rtol=1e-12, atol=1e-12)
    x, th = np.stack(expected)[:, 0], np.stack(expected)[:, 2]
    np.testing.assert_allclose(hd.to_numpy(reward), np.cos(th) - 0.1 * (x / 2.4) ** 2, rtol=1e-12)


def test_cartpole_continuous_action_scales_the_force(backend):
    # a = 0.5 is half of gymnasium's force: the cart's acceleration is the mean of +1's and 0's
    env = hgym.CartPole(backend=backend, dtype="float64")
    s = hd.asarray([[0.0, 0.0, 0.0, 0.0]], backend=backend)
    xacc = [
        hd.to_numpy(env.dynamics(s, hd.asarray([[a]], backend=backend)))[0, 1] / env.tau for a in (0.5, 1.0)
    ]
    np.testing.assert_allclose(xacc[0], 0.5 * xacc[1], rtol=1e-12)
    clipped = hd.to_numpy(env.dynamics(s, hd.asarray([[7.0]], backend=backend)))
    np.testing.assert_allclose(clipped, hd.to_numpy(env.dynamics(s, hd.asarray([[1.0]], backend=backend))))


def test_pendulum_matches_gymnasium_including_clipping(backend):
    rng = np.random.default_rng(1)
    states = rng.uniform([-7.0, -9.0], [7.0, 9.0], (N, 2))  # beyond max_speed: clipped after the step
    actions = rng.uniform(-3.0, 3.0, (N, 1))  # beyond max_torque: clipped
    env = hgym.Pendulum(backend=backend, dtype="float64")
    s, a = hd.asarray(states, backend=backend), hd.asarray(actions, backend=backend)
    next_state, obs, reward = env.step_fn(s, a)
    gym_reward = env.gym_reward_fn(s, a, next_state)
    ref = _gym_env("Pendulum-v1")
    expected, expected_obs, expected_reward = [], [], []
    for state, action in zip(states, actions, strict=True):
        ref.state = state.copy()
        o, r, *_ = ref.step(action.copy())
        expected.append(np.asarray(ref.state, np.float64))
        expected_obs.append(o)
        expected_reward.append(r)
    np.testing.assert_allclose(hd.to_numpy(next_state), np.stack(expected), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(obs), np.stack(expected_obs), rtol=1e-6, atol=1e-6)  # gym: float32
    np.testing.assert_allclose(hd.to_numpy(gym_reward), expected_reward, rtol=1e-10, atol=1e-10)
    # the smooth reward: the smoothly wrapped angle is close to gymnasium's wrapped one
    th, thdot = states[:, 0], states[:, 1]
    u = np.clip(actions[:, 0], -2, 2)
    w = 2 * np.arctan2(np.sin(th / 2), np.sqrt(np.cos(th / 2) ** 2 + 0.01))
    np.testing.assert_allclose(hd.to_numpy(reward), -(w**2 + 0.1 * thdot**2 + 0.001 * u**2), rtol=1e-12)
    assert np.all(np.abs(np.abs(w) - np.abs(_wrap(th))) <= 0.2 + 0.01 * np.abs(_wrap(th)))


def test_mountain_car_matches_gymnasium_including_walls(backend):
    rng = np.random.default_rng(2)
    states = rng.uniform([-1.25, -0.08], [0.65, 0.08], (N, 2))
    states[:4] = [[-1.19, -0.05], [-1.2, -0.07], [0.59, 0.07], [0.44, 0.02]]  # walls, goal
    actions = rng.uniform(-2.0, 2.0, (N, 1)).astype(np.float32).astype(np.float64)
    env = hgym.MountainCar(backend=backend, dtype="float64")
    s, a = hd.asarray(states, backend=backend), hd.asarray(actions, backend=backend)
    next_state, _, reward = env.step_fn(s, a)
    gym_reward = env.gym_reward_fn(s, a, next_state)
    done = env.terminated_fn(next_state)
    ref = _gym_env("MountainCarContinuous-v0")
    expected, expected_reward, expected_done = [], [], []
    for state, action in zip(states, actions, strict=True):
        ref.state = state.copy()
        _, r, terminated, *_ = ref.step(action.astype(np.float32))
        expected.append(np.asarray(ref.state, np.float64))
        expected_reward.append(r)
        expected_done.append(terminated)
    # gymnasium stores the state in float32
    np.testing.assert_allclose(hd.to_numpy(next_state), np.stack(expected), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(hd.to_numpy(gym_reward), expected_reward, rtol=1e-5, atol=1e-6)
    assert list(hd.to_numpy(done)) == expected_done
    assert any(expected_done) and not all(expected_done)
    position = hd.to_numpy(next_state)[:, 0]
    smooth = 100 / (1 + np.exp(-(position - 0.45) / 0.1)) - 0.1 * actions[:, 0] ** 2
    np.testing.assert_allclose(hd.to_numpy(reward), smooth, rtol=1e-12)


def _reacher_reference(state, action, n, dt=0.05):
    """Independent NumPy reference: planar FK with 2x2 rotation matrices, semi-implicit Euler."""
    q, qd, goal = state[:n], state[n : 2 * n], state[2 * n :]
    qd = qd + dt * np.clip(action, -1, 1)
    q = q + dt * qd
    rot, tip = np.eye(2), np.zeros(2)
    for angle in q:
        c, s = math.cos(angle), math.sin(angle)
        rot = rot @ np.array([[c, -s], [s, c]])
        tip = tip + rot @ np.array([1.0, 0.0])
    reward = math.exp(-np.sum((tip - goal) ** 2))
    obs = np.concatenate([np.cos(q), np.sin(q), qd, goal])
    return np.concatenate([q, qd, goal]), obs, reward, tip


@pytest.mark.parametrize("num_joints", [1, 3])
def test_reacher_against_a_numpy_reference(backend, num_joints):
    rng = np.random.default_rng(3)
    n = num_joints
    states = rng.uniform(-2, 2, (N, 2 * n + 2))
    actions = rng.uniform(-1.5, 1.5, (N, n))
    env = hgym.Reacher(n, backend=backend, dtype="float64")
    next_state, obs, reward = env.step_fn(
        hd.asarray(states, backend=backend), hd.asarray(actions, backend=backend)
    )
    refs = [_reacher_reference(s, a, n) for s, a in zip(states, actions, strict=True)]
    np.testing.assert_allclose(
        hd.to_numpy(next_state), np.stack([r[0] for r in refs]), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(hd.to_numpy(obs), np.stack([r[1] for r in refs]), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(reward), [r[2] for r in refs], rtol=1e-10)
    np.testing.assert_allclose(hd.to_numpy(env.tip(next_state)), np.stack([r[3] for r in refs]), atol=1e-12)
    joints = hd.to_numpy(env.joint_positions(next_state))
    assert joints.shape == (N, n + 1, 2)
    np.testing.assert_allclose(joints[:, 0], 0.0, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(np.diff(joints, axis=1), axis=-1), 1.0, rtol=1e-12)


def test_swimmer_against_a_numpy_reference(backend):
    rng = np.random.default_rng(4)
    k = 4
    states = rng.uniform(-1, 1, (N, 2 * k + 6))
    actions = rng.uniform(-1.5, 1.5, (N, 2))
    env = hgym.Swimmer(k, backend=backend, dtype="float64")
    next_state, obs, reward = env.step_fn(
        hd.asarray(states, backend=backend), hd.asarray(actions, backend=backend)
    )
    expected_state, expected_reward = [], []
    for s, a in zip(states, actions, strict=True):
        urchins, p, v, g = s[: 2 * k].reshape(k, 2), s[2 * k : 2 * k + 2], s[2 * k + 2 : 2 * k + 4], s[-2:]
        v = v + 0.05 * np.clip(a, -1, 1)
        p = p + 0.05 * v
        r = math.exp(-0.5 * np.sum((p - g) ** 2)) * np.prod(1 - np.exp(-30 * np.sum((p - urchins) ** 2, -1)))
        expected_state.append(np.concatenate([urchins.ravel(), p, v, g]))
        expected_reward.append(r)
    np.testing.assert_allclose(hd.to_numpy(next_state), np.stack(expected_state), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(obs), np.stack(expected_state), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hd.to_numpy(reward), expected_reward, rtol=1e-10, atol=1e-14)


ENVS = {
    "CartPole": hgym.CartPole,
    "Pendulum": hgym.Pendulum,
    "MountainCar": hgym.MountainCar,
    "Reacher": lambda **kw: hgym.Reacher(3, **kw),
    "Swimmer": lambda **kw: hgym.Swimmer(3, **kw),
}


@pytest.mark.parametrize("name", list(ENVS))
def test_batch_shapes_broadcast_and_float32(backend, name):
    env = ENVS[name](backend=backend)
    key = hd.random.key(0, backend=backend)
    state = env.initial_state(key, (2, 3))
    assert tuple(state.shape) == (2, 3, env.state_size) and hd.dtype(state) == hd.float32
    action = hd.asarray(np.zeros((3, env.action_size), np.float32), backend=backend)
    next_state, obs, reward = env.step_fn(state, action)
    assert tuple(next_state.shape) == (2, 3, env.state_size)
    assert tuple(obs.shape) == (2, 3, env.obs_size)
    assert tuple(reward.shape) == (2, 3)
    assert hd.dtype(next_state) == hd.dtype(obs) == hd.dtype(reward) == hd.float32
    # one state, a batch of actions
    next_state, _, reward = env.step_fn(state[0, 0], action)
    assert tuple(next_state.shape) == (3, env.state_size) and tuple(reward.shape) == (3,)
    # each batch element equals the same step taken alone
    single = env.step_fn(state[1, 2], action[2])[0]
    np.testing.assert_allclose(
        hd.to_numpy(env.step_fn(state, action)[0])[1, 2], hd.to_numpy(single), rtol=1e-6
    )
    # start states follow the documented distributions
    many = hd.to_numpy(env.initial_state(key, (256,), dtype="float64"))
    assert np.all(np.isfinite(many)) and many.dtype == np.float64
    same = hd.to_numpy(env.initial_state(key, (256,), dtype="float64"))
    np.testing.assert_array_equal(many, same)


def test_initial_state_distributions():
    key = hd.random.key(1, backend="numpy")
    cart = hd.to_numpy(hgym.CartPole(backend="numpy").initial_state(key, (500,)))
    assert np.all(np.abs(cart) <= 0.05)
    pend = hd.to_numpy(hgym.Pendulum(backend="numpy").initial_state(key, (500,)))
    assert np.all(np.abs(pend[:, 0]) <= np.pi) and np.all(np.abs(pend[:, 1]) <= 1) and pend[:, 0].std() > 1.5
    car = hd.to_numpy(hgym.MountainCar(backend="numpy").initial_state(key, (500,)))
    assert np.all((car[:, 0] >= -0.6) & (car[:, 0] <= -0.4)) and np.all(car[:, 1] == 0)
    reacher = hgym.Reacher(2, backend="numpy")
    r = hd.to_numpy(reacher.initial_state(key, (500,)))
    assert np.all(np.linalg.norm(r[:, -2:], axis=-1) <= 2.0)  # goals within reach
    swim = hd.to_numpy(hgym.Swimmer(3, backend="numpy").initial_state(key, (500,)))
    assert np.all(np.abs(swim) <= 1) and np.all(swim[:, 8:10] == 0)  # the fish starts at rest
