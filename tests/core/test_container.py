"""hd.Container: mapping and attribute access, key paths, element-wise arithmetic,
helpers, repr, and passing through jax / torch / tensorflow transformations.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend
from hedera.errors import InvalidArgumentError, StructureError


def arr(values, backend="numpy", dtype=None):
    return hd.asarray(np.asarray(values, dtype=dtype), backend=backend)


def params(backend="numpy"):
    return hd.Container(
        layer1={"w": arr([[1.0, 2.0], [3.0, 4.0]], backend), "b": arr([0.5, -0.5], backend)},
        scale=arr(2.0, backend),
    )


def as_numpy(c):
    return {k: hd.to_numpy(v) for k, v in c.flatten_keys().items()}


# ---- mapping, attributes, key paths -----------------------------------------------------


def test_construction_forms_and_dict_conversion():
    a = np.ones(2)
    c1 = hd.Container({"x": a, "sub": {"y": a}})
    c2 = hd.Container([("x", a), ("sub", hd.Container(y=a))])
    c3 = hd.Container(x=a, sub={"y": a})
    c4 = hd.Container({"x": a, "sub/y": a})  # a path key creates the intermediate Container
    for c in (c1, c2, c3, c4):
        assert list(c) == ["x", "sub"]
        assert isinstance(c.sub, hd.Container) and c.sub.y is a
    assert len(hd.Container()) == 0


def test_insertion_order_kept():
    c = hd.Container(z=1, a=2, m=3)
    assert list(c.keys()) == ["z", "a", "m"]
    assert list(c.values()) == [1, 2, 3]
    assert hd.tree.leaves(c) == [1, 2, 3]


def test_attribute_access():
    c = params()
    assert c.layer1.w.shape == (2, 2)
    c.extra = np.zeros(3)
    assert c["extra"] is c.extra
    c.nested = {"k": np.ones(1)}
    assert isinstance(c.nested, hd.Container)
    del c.extra
    assert "extra" not in c
    with pytest.raises(
        AttributeError, match=r"no key or attribute 'missing'.*\['layer1', 'scale', 'nested'\]"
    ):
        c.missing  # noqa: B018
    with pytest.raises(AttributeError, match=r"c\['map'\] = value"):
        c.map = 1  # a method name: attribute assignment would be ambiguous
    c["map"] = 1  # but item access works for any key
    assert c["map"] == 1 and callable(c.map)


def test_key_paths():
    c = params()
    assert c["layer1/w"] is c.layer1.w
    c["layer2/sub/w"] = np.ones(1)
    assert isinstance(c.layer2.sub, hd.Container)
    assert "layer2/sub/w" in c and "layer2/nope" not in c and "scale/x" not in c
    assert c.get("layer1/nope", 7) == 7
    del c["layer2/sub/w"]
    assert list(c.layer2.sub) == []
    with pytest.raises(KeyError, match=r"no key 'nope' in the Container at 'layer1'.*\['w', 'b'\]"):
        c["layer1/nope"]
    with pytest.raises(KeyError, match="is a ndarray, not a Container"):
        c["scale/x"]
    with pytest.raises(InvalidArgumentError, match="is a ndarray, not a Container"):
        c["scale/x"] = 1
    with pytest.raises(KeyError):
        del c["layer1/nope"]
    c.none = None
    with pytest.raises(InvalidArgumentError, match="is a NoneType"):
        c["none/x"] = 1  # a None value is a value, not a missing key


@pytest.mark.parametrize("key", ["", "a//b", "/a", 3])
def test_bad_keys(key):
    c = hd.Container()
    with pytest.raises(InvalidArgumentError):
        c[key] = 1


def test_mutable_mapping_methods():
    c = hd.Container(a=1)
    c.update({"b": 2}, c=3)
    assert c.pop("a") == 1 and c.setdefault("d", 4) == 4
    assert dict(c) == {"b": 2, "c": 3, "d": 4}


def test_truth_value_is_ambiguous():
    c = params()
    with pytest.raises(TypeError, match="ambiguous"):
        bool(c == c)
    assert len(c) == 2


# ---- arithmetic ---------------------------------------------------------------------------


def test_arithmetic_with_scalars_arrays_and_containers(backend):
    c = params(backend)
    w, b, v = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([0.5, -0.5]), np.array([10.0, 20.0])
    checks = {
        "c + 1": (c + 1, {"layer1/w": w + 1, "layer1/b": b + 1, "scale": 3.0}),
        "2 * c": (2 * c, {"layer1/w": 2 * w, "layer1/b": 2 * b, "scale": 4.0}),
        "1 - c": (1 - c, {"layer1/w": 1 - w, "layer1/b": 1 - b, "scale": -1.0}),
        "c / c": (c / c, {"layer1/w": w / w, "layer1/b": b / b, "scale": 1.0}),
        "c ** 2": (c**2, {"layer1/w": w**2, "layer1/b": b**2, "scale": 4.0}),
        "-c": (-c, {"layer1/w": -w, "layer1/b": -b, "scale": -2.0}),
        "abs(c)": (abs(c), {"layer1/w": w, "layer1/b": abs(b), "scale": 2.0}),
        "c + array": (c + arr([10.0, 20.0], backend), {"layer1/w": w + v, "layer1/b": b + v, "scale": 2 + v}),
    }  # fmt: skip
    for label, (got, expected) in checks.items():
        assert isinstance(got, hd.Container), label
        assert hd.tree.backend_of(got) == backend, label
        values = as_numpy(got)
        assert values.keys() == expected.keys(), label
        for k in expected:
            np.testing.assert_allclose(values[k], expected[k], err_msg=f"{label}: {k}")


def test_containers_are_matched_by_key_not_order(backend):
    a = hd.Container(x=arr([1.0], backend), y=arr([2.0], backend))
    b = hd.Container(y=arr([20.0], backend), x=arr([10.0], backend))
    out = a + b
    assert list(out) == ["x", "y"]
    assert as_numpy(out) == {"x": [11.0], "y": [22.0]}


def test_comparisons_are_elementwise(backend):
    c = params(backend)
    eq = c == c
    assert isinstance(eq, hd.Container)
    assert all(np.all(v) for v in as_numpy(eq).values())
    gt = c > 1.0
    np.testing.assert_array_equal(hd.to_numpy(gt.layer1.w), [[False, True], [True, True]])
    assert hd.dtype(gt.scale) == hd.bool
    ne = c != (c + 1)
    assert all(np.all(v) for v in as_numpy(ne).values())


def test_native_array_on_the_left_defers_to_container(backend):
    c = hd.Container(x=arr([1.0, 2.0], backend), sub={"y": arr([3.0, 4.0], backend)})
    a = arr([10.0, 20.0], backend)
    for label, out, expected in [
        ("a + c", a + c, {"x": [11.0, 22.0], "sub/y": [13.0, 24.0]}),
        ("a - c", a - c, {"x": [9.0, 18.0], "sub/y": [7.0, 16.0]}),
        ("a * c", a * c, {"x": [10.0, 40.0], "sub/y": [30.0, 80.0]}),
    ]:
        assert isinstance(out, hd.Container), label
        got = as_numpy(out)
        for k, v in expected.items():
            np.testing.assert_allclose(got[k], v, err_msg=label)


def test_tensorflow_refuses_to_convert_a_container():
    require_backend("tensorflow")
    import tensorflow as tf

    with pytest.raises(TypeError, match="not a tensor"):
        tf.convert_to_tensor(hd.Container(x=tf.ones(2)))  # not a string tensor of its keys


def test_numpy_array_on_the_left_defers_to_container():
    c = hd.Container(x=np.array([1.0, 2.0]))
    out = np.array([10.0, 20.0]) + c
    assert isinstance(out, hd.Container)
    np.testing.assert_array_equal(out.x, [11.0, 22.0])


def test_unsupported_operand_gives_type_error():
    c = params()
    with pytest.raises(TypeError):
        c + "text"
    assert (c == "text") is False  # NotImplemented on both sides: identity comparison


def test_structure_mismatch_names_the_path():
    a = hd.Container(x=np.ones(1), sub={"p": np.ones(1), "q": np.ones(1)})
    b = hd.Container(x=np.ones(1), sub={"p": np.ones(1), "r": np.ones(1)})
    with pytest.raises(StructureError, match=r"'sub'.*only in the left: \['q'\].*only in the right: \['r'\]"):
        a + b


def test_mixed_backends_raise_with_key_path(backend):
    if backend == "numpy":
        pytest.skip("needs a second backend")
    a = hd.Container(x=np.ones(2), sub={"y": np.ones(2)})
    b = hd.Container(x=np.ones(2), sub={"y": arr([1.0, 1.0], backend)})
    with pytest.raises(hd.BackendMismatchError, match="sub/y"):
        a + b
    with pytest.raises(hd.BackendMismatchError, match="at key 'x'"):
        a * arr([1.0, 1.0], backend)  # an array of another backend against every leaf


def test_leaf_errors_name_the_key_path():
    c = hd.Container(a=np.ones(2), b={"c": np.ones(3)})
    with pytest.raises(hd.BroadcastError, match="b/c"):
        c + np.ones(2)


# ---- helpers ------------------------------------------------------------------------------


def test_map_and_map_with_path():
    c = params()
    doubled = c.map(lambda x: x * 2)
    assert isinstance(doubled.layer1, hd.Container)
    np.testing.assert_array_equal(doubled.layer1.b, [1.0, -1.0])
    paths = c.map_with_path(lambda p, x: p)
    assert paths.flatten_keys() == {"layer1/w": "layer1/w", "layer1/b": "layer1/b", "scale": "scale"}

    def fail(x):
        raise hd.InvalidArgumentError("boom")

    with pytest.raises(hd.InvalidArgumentError, match="at key 'layer1/w': boom"):
        c.map(fail)


def test_shapes_dtypes_backend(backend):
    c = params(backend)
    assert c.shapes.flatten_keys() == {"layer1/w": (2, 2), "layer1/b": (2,), "scale": ()}
    assert c.dtypes.flatten_keys() == {"layer1/w": hd.float64, "layer1/b": hd.float64, "scale": hd.float64}
    assert c.backend == backend
    assert hd.Container(n=1).backend is None
    with pytest.raises(hd.NotAnArrayError, match="'n'"):
        hd.Container(n=1).shapes  # noqa: B018


def test_to_backend_round_trip(backend):
    c = params()
    moved = c.to_backend(backend)
    assert moved.backend == backend
    assert moved.all_equal(c)
    back = moved.to_numpy()
    assert all(type(v) is np.ndarray for v in back.flatten_keys().values())
    assert back.all_equal(c)


def test_flatten_unflatten_keys():
    c = params()
    flat = c.flatten_keys()
    assert list(flat) == ["layer1/w", "layer1/b", "scale"]
    again = hd.Container.unflatten_keys(flat)
    assert again.all_equal(c) and list(again.layer1) == ["w", "b"]


def test_structure_equal_all_equal_all_close():
    c = params()
    assert c.structure_equal(c + 1)
    assert not c.structure_equal(hd.Container(layer1=c.layer1))
    assert c.all_equal(copy.deepcopy(c))
    assert not c.all_equal(c + 1)
    assert c.all_close(c + 1e-12) and not c.all_close(c + 1)
    reordered = hd.Container(scale=c.scale, layer1={"b": c.layer1.b, "w": c.layer1.w})
    assert c.structure_equal(reordered) and c.all_equal(reordered)


def test_repr():
    c = hd.Container(
        layer1={"w": np.zeros((20, 3), np.float32), "b": np.array([1.0, 2.0])}, step=np.array(3), tag="x"
    )
    assert repr(c) == textwrap.dedent(
        """\
        Container(
          layer1: Container(
            w: float32[20, 3] (numpy)
            b: float64[2] (numpy) [1. 2.]
          )
          step: int64[] (numpy) 3
          tag: 'x'
        )"""
    )
    assert repr(hd.Container()) == "Container()"


def test_pickle_and_copy():
    c = params()
    for clone in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c)):
        assert type(clone) is hd.Container and clone.all_equal(c) and list(clone) == list(c)
    shallow = c.copy()
    shallow.layer1.extra = np.ones(1)
    assert "extra" not in c.layer1 and shallow.layer1.w is c.layer1.w


def test_hd_tree_treats_container_as_node():
    c = params()
    out = hd.tree.map(lambda x: x + 1, c)
    assert isinstance(out, hd.Container) and isinstance(out.layer1, hd.Container)
    paths, _, _ = hd.tree.flatten_with_path(c)
    assert [hd.tree.path_str(p) for p in paths] == ["layer1/w", "layer1/b", "scale"]


# ---- frameworks ---------------------------------------------------------------------------


def test_jax_jit_and_grad():
    require_backend("jax")
    import jax
    import jax.numpy as jnp

    c = params("jax")
    out = jax.jit(lambda c: c.layer1.w @ c.layer1.b * c.scale)(c)
    np.testing.assert_allclose(np.asarray(out), [-1.0, -1.0])
    grad = jax.grad(lambda c: jnp.sum(c.layer1.w**2) * c["scale"])(c)
    assert isinstance(grad, hd.Container) and list(grad.layer1) == ["w", "b"]
    np.testing.assert_allclose(np.asarray(grad.layer1.w), 4 * np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(np.asarray(grad.scale), 30.0)
    # Container arithmetic (through the hedera front) inside jit, returning a Container
    out = jax.jit(lambda c: c * 2 + 1)(c)
    assert isinstance(out, hd.Container) and out.all_close(params() * 2 + 1)
    batched = hd.Container(w=jnp.ones((5, 3)), b=jnp.arange(5.0))
    np.testing.assert_allclose(np.asarray(jax.vmap(lambda c: c.w.sum() * c.b)(batched)), 3 * np.arange(5.0))
    keys = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(c)[0]]
    assert keys == ["['layer1']['w']", "['layer1']['b']", "['scale']"]


def test_torch_func_grad_and_compile():
    require_backend("torch")
    import torch

    c = params("torch")
    grad = torch.func.grad(lambda c: (c.layer1.w**2).sum() * c["scale"])(c)
    assert isinstance(grad, hd.Container)
    np.testing.assert_allclose(grad.layer1.w.numpy(), 4 * np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(grad.scale.numpy(), 30.0)
    compiled = torch.compile(lambda c: hd.Container(y=c.layer1.w @ c.layer1.b * c.scale), backend="aot_eager")
    out = compiled(c)
    assert isinstance(out, hd.Container)
    np.testing.assert_allclose(out.y.numpy(), [-1.0, -1.0])
    arith = torch.compile(lambda c: c * 2 + 1, backend="aot_eager", fullgraph=True)(c)
    assert isinstance(arith, hd.Container) and arith.all_close(params() * 2 + 1)
    # Container-tensor arithmetic is beyond TorchDynamo's fullgraph tracing; with graph breaks it runs
    mixed = torch.compile(lambda c: c - c.scale, backend="aot_eager")(c)
    assert mixed.all_close(params() - 2.0)


def test_tensorflow_nest_and_function():
    require_backend("tensorflow")
    import tensorflow as tf

    c = params("tensorflow")
    doubled = tf.nest.map_structure(lambda x: x * 2, c)
    assert isinstance(doubled, hd.Container) and list(doubled) == ["layer1", "scale"]
    np.testing.assert_allclose(doubled.layer1.b.numpy(), [1.0, -1.0])
    assert len(tf.nest.flatten(c)) == 3

    @tf.function
    def step(c):
        return hd.Container(y=tf.linalg.matvec(c.layer1.w, c.layer1.b) * c.scale, c=c * 2)

    out = step(c)
    assert isinstance(out, hd.Container) and isinstance(out.c.layer1, hd.Container)
    np.testing.assert_allclose(out.y.numpy(), [-1.0, -1.0])
    assert out.c.all_close(params() * 2)
    step(params("tensorflow") + 1)
    assert step.experimental_get_tracing_count() == 1  # same structure and shapes: no retrace


def run_python(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def test_registration_is_lazy_and_happens_on_first_use():
    require_backend("jax")
    out = run_python(
        """
        import sys
        import numpy as np
        import hedera as hd
        early = hd.Container(a=np.ones(2))          # jax not imported: nothing registered
        assert "jax" not in sys.modules and "torch" not in sys.modules
        import jax
        assert len(jax.tree_util.tree_leaves(early)) == 1   # unknown to jax yet: one opaque leaf
        hd.Container()                              # first use with jax imported registers
        assert len(jax.tree_util.tree_leaves(hd.Container(a=1, b={"c": 2}))) == 2
        print("ok")
        """
    )
    assert out == "ok"


def test_registration_on_backend_load():
    require_backend("jax")
    out = run_python(
        """
        import numpy as np
        import hedera as hd
        c = hd.Container(a=np.ones(2), b=np.ones(3))
        hd.namespace("jax")                         # loading the backend registers
        import jax
        print(len(jax.tree_util.tree_leaves(c)))
        """
    )
    assert out == "2"


def test_hd_grad_and_jit_take_containers(autodiff_backend):
    b = autodiff_backend
    c = hd.Container(layer={"w": arr([1.0, 2.0], b)}, s=arr(3.0, b))
    g = hd.grad(lambda c: hd.sum(c.layer.w**2) * c.s)(c)
    assert isinstance(g, hd.Container) and g.backend == b
    assert g.all_close(hd.Container(layer={"w": np.array([6.0, 12.0])}, s=np.array(5.0)))
    out = hd.jit(lambda c: c * 2 + 1)(c)
    assert isinstance(out, hd.Container)
    assert out.all_close(hd.Container(layer={"w": np.array([3.0, 5.0])}, s=np.array(7.0)))
