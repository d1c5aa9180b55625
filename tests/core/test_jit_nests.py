"""hd.jit with nests of ``hd.Container`` arguments: passed to jax flat, rebuilt in the trace.

jax calls back into Python for every Container node on every call; ``hd.jit`` hands ``jax.jit``
each nest argument as the list of its leaves and rebuilds the Containers itself (in the trace,
and from the returned leaves). These tests hold that path to what ``jax.jit`` of the same
function does with its own pytree handling: the same values under the same keys, in the same
order, the same traces, donation, and a fallback where an output's structure changes with shapes.
TensorFlow's donating path rebuilds its outputs the same way (generated builders).
"""

from __future__ import annotations

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend
from hedera import _nests


def npy(x):
    return np.asarray(x if isinstance(x, (int, float)) else hd.to_numpy(x))


def _tree(backend, order=("w", "b")):
    rng = np.random.default_rng(0)
    values = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=(2,))}
    layer = hd.Container({k: hd.asarray(values[k], backend=backend) for k in order})
    return hd.Container(
        layer=layer,
        extra=[hd.asarray(rng.normal(size=(2,)), backend=backend), (hd.asarray(1.5, backend=backend), None)],
        count=3,
    )


def _f(params, x):
    """Touches every kind of node: Containers, a list, a tuple with None, a Python number leaf."""
    h = x @ params["layer"]["w"] + params["layer"]["b"]
    new = hd.tree.map(lambda a: a * 2.0, params)
    return new, {"loss": hd.sum(h**2)}, (h, None)


def _assert_same_tree(got, expected, types=False):
    g_leaves, g_def = hd.tree.flatten(got)
    e_leaves, e_def = hd.tree.flatten(expected)
    assert g_def == e_def
    if types:
        assert [type(a) for a in g_leaves] == [type(a) for a in e_leaves]
    for a, b in zip(g_leaves, e_leaves, strict=True):
        np.testing.assert_allclose(npy(a), npy(b), rtol=1e-6)


def _key_orders(tree):
    out = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, hd.Container):
            out.append(tuple(node.keys()))
            stack.extend(node.values())
        elif isinstance(node, (list, tuple, dict)):
            stack.extend(node.values() if isinstance(node, dict) else node)
    return out


def test_jax_container_arguments_give_what_jax_jit_gives():
    require_backend("jax")
    import jax

    params, x = _tree("jax"), hd.asarray(np.ones((4, 3)), backend="jax")
    jitted = hd.jit(_f)
    got = jitted(params, x)
    assert jitted._flat_calls  # the call took the flat path
    expected = jax.jit(_f)(params, x)  # jax's own pytree handling of the Containers
    _assert_same_tree(got, expected, types=True)
    _assert_same_tree(got, _f(params, x))
    assert _key_orders(got) == _key_orders(expected)
    assert type(got[0]) is hd.Container and type(got[1]) is dict and got[2][1] is None


def test_jax_keeps_each_containers_key_order():
    """Two Containers with the same keys in another order are two structures, each kept."""
    require_backend("jax")
    x = hd.asarray(np.ones((4, 3)), backend="jax")
    jitted = hd.jit(_f)
    for order in (("w", "b"), ("b", "w"), ("w", "b")):
        params = _tree("jax", order)
        got = jitted(params, x)
        assert tuple(got[0]["layer"].keys()) == order
        _assert_same_tree(got, _f(params, x))


def test_jax_traces_once_per_structure_and_shape_across_jit_objects():
    require_backend("jax")
    traces = []

    def f(params, x):
        traces.append(1)
        return hd.tree.map(lambda a: a + hd.sum(x), params)

    params = _tree("jax")
    x = hd.asarray(np.ones(3), backend="jax")
    for _ in range(3):
        hd.jit(f)(params, x)  # a new hd.jit of the same f each time, as jax.jit(f) in a loop
    assert len(traces) == 1
    jitted = hd.jit(f)
    jitted(params, hd.asarray(np.ones(5), backend="jax"))  # a new shape retraces, as with jax.jit
    assert len(traces) == 2
    jitted(_tree("jax", ("b", "w")), x)  # a new structure retraces
    assert len(traces) == 3
    jitted(params, x)
    assert len(traces) == 3


def test_jax_donated_container_arguments_are_deleted_and_the_steps_stay_right():
    require_backend("jax")

    def step(params, state, x):
        grads = hd.grad(lambda p: hd.sum((x @ p["layer"]["w"] + p["layer"]["b"]) ** 2))(params)
        state = hd.Container(m=hd.tree.map(lambda m, g: 0.5 * m + g, state["m"], grads))
        return hd.tree.map(lambda p, m: p - 0.01 * m, params, state["m"]), state, hd.sum(x)

    def start():
        params = hd.Container(layer=_tree("jax")["layer"])
        return params, hd.Container(m=params.map(hd.zeros_like))

    x = hd.asarray(np.ones((4, 3)), backend="jax")
    params, state = start()
    eager_p, eager_s = start()
    jitted = hd.jit(step, donate_argnums=(0, 1))
    for _ in range(3):
        given = hd.tree.leaves((params, state))
        params, state, _ = jitted(params, state, x)
        assert all(a.is_deleted() for a in given)
        eager_p, eager_s, _ = step(eager_p, eager_s, x)
        _assert_same_tree((params, state), (eager_p, eager_s))
    assert not x.is_deleted()


def test_jax_output_structure_that_changes_with_shapes_falls_back_to_jax_jit():
    """f's output structure depends on a shape: the flat path, which remembers one output
    structure per argument structure, hands such calls back to jax.jit of f itself."""
    require_backend("jax")

    def f(params, x):
        scaled = hd.tree.map(lambda a: a * 2.0, params)
        return (scaled, x) if x.shape[0] == 1 else hd.Container(out=scaled, n=hd.sum(x))

    params = _tree("jax")
    jitted = hd.jit(f)
    for n in (1, 2, 1, 2):
        x = hd.asarray(np.ones(n), backend="jax")
        _assert_same_tree(jitted(params, x), f(params, x))


def test_jax_nests_of_other_node_types_take_jax_own_path():
    require_backend("jax")
    params = {
        "b": hd.asarray(np.ones(2), backend="jax"),
        "a": hd.Container(w=hd.asarray([1.0], backend="jax")),
    }
    got = hd.jit(lambda p: hd.tree.map(lambda a: a + 1, p))(params)
    assert list(got) == ["a", "b"] or list(got) == ["b", "a"]  # jax's dict order: its own
    np.testing.assert_array_equal(npy(got["b"]), [2.0, 2.0])
    np.testing.assert_array_equal(npy(got["a"]["w"]), [2.0])


def test_jax_a_signature_that_held_a_dict_still_takes_containers_right():
    """A tuple holding a dict does not take the flat path, and hd.jit stops trying it for that
    signature (one type key: ``tuple``); a tuple of Containers with the same key afterwards
    still gives jax.jit's answer, by the general walk."""
    require_backend("jax")
    x = hd.asarray(np.arange(3.0), backend="jax")
    jitted = hd.jit(lambda pair: hd.tree.map(lambda a: a * 3.0, pair))
    with_dict = jitted(({"a": x}, x))
    np.testing.assert_array_equal(npy(with_dict[0]["a"]), [0.0, 3.0, 6.0])
    assert jitted._unflat_keys == {tuple}
    tree = (_tree("jax"), x)
    _assert_same_tree(jitted(tree), hd.tree.map(lambda a: a * 3.0, tree))
    mutated = (_tree("jax", order=("b", "w")), x)  # Containers changed: seen, as before
    assert _key_orders(jitted(mutated)) == _key_orders(mutated)


def test_jax_mixed_backends_in_containers_still_raise():
    require_backend("jax")
    require_backend("torch")
    jitted = hd.jit(lambda p: hd.tree.map(lambda a: a + 1, p))
    jitted(hd.Container(a=hd.asarray([1.0], backend="jax")))
    mixed = hd.Container(a=hd.asarray([1.0], backend="jax"), b=hd.asarray([1.0], backend="torch"))
    with pytest.raises(hd.errors.BackendMismatchError, match="jit"):
        jitted(mixed)


def test_the_flat_spec_tells_structures_apart():
    leaf = np.ones(2)
    C = hd.Container  # noqa: N806
    specs = [
        _nests.flatten_args(args)[0]
        for args in (
            (C(a=leaf, b=leaf),),
            (C(b=leaf, a=leaf),),
            (C(a=[leaf, leaf]),),
            (C(a=(leaf, leaf)),),
            (C(a=(leaf, None)),),
            (C(a=C(b=leaf)),),
            (C(a=leaf), leaf),
        )
    ]
    assert all(specs[i] != specs[j] for i in range(len(specs)) for j in range(i))
    assert _nests.flatten_args(({"a": leaf},)) is None  # a dict: left to the framework
    spec, flat, backend = _nests.flatten_args((C(a=leaf, b=[leaf, 2.0]), leaf))
    assert backend == "numpy" and flat[1] is leaf and flat[0][2] == 2.0
    rebuilt = _nests.rebuild(spec, flat)
    assert list(rebuilt[0]) == ["a", "b"] and rebuilt[0]["b"][1] == 2.0 and rebuilt[1] is leaf


def test_builder_rebuilds_optree_order_and_puts_fixed_leaves_in_place():
    C = hd.Container  # noqa: N806
    tree = (C(z=1, a=C(q=2, p=[3, (4,)])), None, 5)
    build = _nests.builder(tree)
    leaves = hd.tree.leaves(tree)
    assert leaves == [1, 2, 3, 4, 5]
    got = build([10, 20, 30, 40, 50])
    assert hd.tree.structure(got) == hd.tree.structure(tree) and hd.tree.leaves(got) == [10, 20, 30, 40, 50]
    assert list(got[0]) == ["z", "a"] and list(got[0]["a"]) == ["q", "p"] and type(got[0]) is C
    fixed = _nests.builder(tree, {1: "two", 4: "five"})(["ten", "thirty", "forty"])
    assert hd.tree.structure(fixed) == hd.tree.structure(tree)
    assert hd.tree.leaves(fixed) == ["ten", "two", "thirty", "forty", "five"]
    assert _nests.builder({"a": 1}) is None and _nests.builder(C(a=({"b": 1},))) is None


def test_tensorflow_donated_outputs_are_rebuilt_with_the_variables_in_place():
    require_backend("tensorflow")

    def step(params, x):
        new = hd.tree.map(lambda a: a - 0.1 * hd.sum(x), params)
        return new, hd.Container(loss=hd.sum(x), parts=[hd.sum(x) * 2, None])

    tree = _tree("tensorflow")
    params = hd.tree.map(
        lambda a: hd.astype(a, hd.float32), hd.Container(layer=tree["layer"], extra=tree["extra"])
    )
    x = hd.asarray(np.ones(3, np.float32), backend="tensorflow")
    expected = hd.tree.map(npy, params)
    jitted = hd.jit(step, donate_argnums=(0,))
    for _ in range(3):
        params, aux = jitted(params, x)
        expected = hd.tree.map(lambda a: a - np.float32(0.3), expected)
        _assert_same_tree(params, expected)
        assert list(params["layer"]) == ["w", "b"]
        assert float(aux["loss"]) == 3.0 and float(aux["parts"][0]) == 6.0 and aux["parts"][1] is None
    variables = hd.tree.leaves(params)
    again, _ = jitted(params, x)
    assert all(a is b for a, b in zip(hd.tree.leaves(again), variables, strict=True))


def test_jax_containers_changed_in_place_between_calls_are_seen():
    """Containers are mutable: the structure remembered from the last call (a generated
    flattener) must not answer for arguments changed in place since; each call gives what f
    gives eagerly on the arguments as they are then, and a changed structure retraces."""
    require_backend("jax")
    traces = []

    def f(params, x):
        traces.append(1)
        return hd.tree.map(lambda a: a * 2.0, params), hd.sum(x)

    params, x = _tree("jax"), hd.asarray(np.ones(3), backend="jax")
    jitted = hd.jit(f)
    jitted(params, x)
    C = hd.Container  # noqa: N806
    changes = [
        lambda p: None,  # the same again: no retrace
        lambda p: p.__setitem__("new", hd.asarray([4.0], backend="jax")),  # a key added
        lambda p: p.__delitem__("new"),  # and removed: the first structure again
        lambda p: p["layer"].__setitem__("w", p["layer"].pop("w")),  # keys reordered
        lambda p: p["layer"].__setitem__("b", C(inner=p["layer"]["b"])),  # a leaf now a node
        lambda p: p["extra"].append(hd.asarray([5.0], backend="jax")),  # a list grown
        lambda p: p.__setitem__("count", 3.5),  # a leaf of another type
        lambda p: p["extra"].__setitem__(1, (None, hd.asarray(1.0, backend="jax"))),  # None moved
    ]
    for change in changes:
        change(params)
        before = len(traces)
        got = jitted(params, x)
        retraced = len(traces) > before
        _assert_same_tree(got, f(params, x))
        assert _key_orders(got[0]) == _key_orders(params)
        assert retraced == (change is not changes[0] and change is not changes[2])


def test_flattener_answers_for_equal_structure_and_leaf_types_only():
    hd.sin(np.ones(1))  # numpy's array type known to the dispatch cache
    C = hd.Container  # noqa: N806
    leaf = np.ones(2)
    args = (C(a=leaf, b=C(c=[leaf, (2, None)])), leaf, 1.5)
    flatten = _nests.flattener(args)
    same = (C(a=leaf * 3, b=C(c=[leaf, (7, None)])), leaf, 0.5)
    got, walked = flatten(same), _nests.flatten_args(same)[1]
    assert got is not None and len(got) == len(walked) == 3
    assert all(a is b for a, b in zip(got[0], walked[0], strict=True)) and got[1:] == walked[1:]
    assert [np.asarray(a).tolist() for a in got[0]] == [[3.0, 3.0], [1.0, 1.0], 7]
    others = [
        (C(b=C(c=[leaf, (2, None)]), a=leaf), leaf, 1.5),  # key order
        (C(a=leaf, b=C(c=[leaf, (2, None)]), d=leaf), leaf, 1.5),  # a key more
        (C(a=leaf, b=C(c=[leaf, [2, None]])), leaf, 1.5),  # a list for a tuple
        (C(a=leaf, b=C(c=[leaf, (2, None), leaf])), leaf, 1.5),  # a longer list
        (C(a=leaf, b=C(c=[leaf, (2.0, None)])), leaf, 1.5),  # a float for an int
        (C(a=leaf, b=C(c=[leaf, (2, leaf)])), leaf, 1.5),  # a leaf for None
        (C(a=C(x=leaf), b=C(c=[leaf, (2, None)])), leaf, 1.5),  # a node for a leaf
        (C(a=leaf, b=C(c=[leaf, (2, None)])), leaf),  # fewer arguments
        (C(a=leaf, b=C(c=[leaf, (2, None)])), leaf, 1),  # an int for a float argument
    ]
    assert all(flatten(o) is None for o in others)
    assert _nests.flattener(({"a": leaf},)) is None  # a nest flatten_args leaves to the framework
