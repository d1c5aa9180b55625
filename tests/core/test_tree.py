"""hd.tree: map / flatten / unflatten / leaves / structure / map_with_path / reduce and helpers.

References are plain Python (the expected trees are written out) and optree's own
behaviour for dicts, lists, tuples and None.
"""

from __future__ import annotations

import operator
from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import hedera as hd
from hedera.errors import StructureError

Point = namedtuple("Point", "x y")


def nested():
    return {"b": [1, (2, None)], "a": {"z": 3, "y": Point(4, 5)}, "c": OrderedDict(k=6)}


def test_leaves_order_and_none_is_a_node():
    # dict keys in sorted order (a, b, c; inside a: y, z), None has no leaves, namedtuple fields in order
    assert hd.tree.leaves(nested()) == [4, 5, 3, 1, 2, 6]


def test_flatten_unflatten_round_trip_keeps_types_and_key_order():
    tree = nested()
    leaves, treedef = hd.tree.flatten(tree)
    rebuilt = hd.tree.unflatten(treedef, [x * 10 for x in leaves])
    assert list(rebuilt) == ["b", "a", "c"]  # original insertion order kept
    assert rebuilt["a"]["y"] == Point(40, 50) and type(rebuilt["a"]["y"]) is Point
    assert type(rebuilt["c"]) is OrderedDict
    assert rebuilt["b"] == [10, (20, None)]


def test_unflatten_wrong_number_of_leaves():
    _, treedef = hd.tree.flatten({"a": 1, "b": 2})
    with pytest.raises(StructureError, match="2 leaves"):
        hd.tree.unflatten(treedef, [1])


def test_map_single_and_multi():
    assert hd.tree.map(lambda x: x + 1, {"a": [1, 2], "b": None}) == {"a": [2, 3], "b": None}
    assert hd.tree.map(operator.mul, [1, (2, 3)], [4, (5, 6)]) == [4, (10, 18)]


def test_map_structure_mismatch_raises_structure_error():
    with pytest.raises(StructureError, match="tree 1"):
        hd.tree.map(operator.add, {"a": 1, "b": 2}, {"a": 1})
    with pytest.raises(ValueError):  # StructureError is a ValueError
        hd.tree.map(operator.add, [1, 2], [1, 2, 3])


def test_map_is_leaf():
    tree = {"a": [1, 2], "b": [3]}
    out = hd.tree.map(len, tree, is_leaf=lambda n: isinstance(n, list))
    assert out == {"a": 2, "b": 1}


def test_map_with_path():
    out = hd.tree.map_with_path(lambda p, x: (hd.tree.path_str(p), x), {"a": [1, 2], "b": {"c": 3}})
    assert out == {"a": [("a/0", 1), ("a/1", 2)], "b": {"c": ("b/c", 3)}}


def test_flatten_with_path():
    paths, leaves, _ = hd.tree.flatten_with_path({"a": [1, 2], "b": 3})
    assert paths == [("a", 0), ("a", 1), ("b",)] and leaves == [1, 2, 3]


def test_reduce():
    assert hd.tree.reduce(operator.add, {"a": 1, "b": [2, 3]}) == 6
    assert hd.tree.reduce(operator.add, {"a": 1, "b": [2, 3]}, 10) == 16
    assert hd.tree.reduce(operator.add, {}, 0) == 0
    with pytest.raises(TypeError, match="no initial"):
        hd.tree.reduce(operator.add, {})


def test_structure():
    assert hd.tree.structure({"a": 1, "b": [2]}) == hd.tree.structure({"b": [0], "a": 0})
    assert hd.tree.structure({"a": 1}) != hd.tree.structure({"a": [1]})
    assert hd.tree.structure(None).num_leaves == 0


def test_structure_equal():
    assert hd.tree.structure_equal({"a": 1, "b": [2, 3]}, {"b": [0, 0], "a": 0})
    assert not hd.tree.structure_equal({"a": 1}, {"a": 1, "b": 2})
    assert not hd.tree.structure_equal([1, 2], (1, 2))
    assert not hd.tree.structure_equal({"a": None}, {"a": 1})
    c1 = hd.Container(a=np.ones(2), b=np.ones(1))
    c2 = hd.Container(b=np.ones(1), a=np.ones(3))  # other order, other shapes: same structure
    assert hd.tree.structure_equal(c1, c2)
    assert not hd.tree.structure_equal(c1, {"a": np.ones(2), "b": np.ones(1)})  # Container != dict


def test_all_equal_and_all_close():
    a = {"w": np.array([1.0, np.nan]), "n": [np.array(3, dtype=np.int64)], "s": "tag"}
    b = {"n": [np.array(3, dtype=np.int64)], "w": np.array([1.0, np.nan]), "s": "tag"}
    assert hd.tree.all_equal(a, b)  # NaN == NaN in the same place; dict order irrelevant
    assert not hd.tree.all_equal(a, {**b, "s": "other"})
    assert not hd.tree.all_equal(a, {**b, "n": [np.array(3, dtype=np.int32)]})  # dtype differs
    assert not hd.tree.all_equal(a, {**b, "w": np.array([[1.0, np.nan]])})  # shape differs
    assert not hd.tree.all_close(a, b)  # NaN without equal_nan
    assert hd.tree.all_close(a, b, equal_nan=True)
    assert hd.tree.all_close({"x": np.array([1.0])}, {"x": np.array([1.0 + 1e-9])})
    assert not hd.tree.all_close({"x": np.array([1.0])}, {"x": np.array([1.1])})
    assert not hd.tree.all_close({"x": np.array([1.0])}, {"y": np.array([1.0])})


def test_backend_of_and_to_backend(backend):
    tree = {"a": hd.ones(2), "b": [hd.zeros(3)], "n": 1}
    assert hd.tree.backend_of(tree) == "numpy"
    moved = hd.tree.to_backend(tree, backend)
    assert hd.tree.backend_of(moved) == backend
    assert moved["n"] == 1
    assert hd.tree.all_equal(moved, tree)
    back = hd.tree.to_numpy(moved)
    assert all(type(x) is np.ndarray for x in hd.tree.leaves({"a": back["a"], "b": back["b"]}))
    assert hd.tree.backend_of({"n": 1}) is None


def test_backend_of_mixed_names_paths(backend):
    if backend == "numpy":
        pytest.skip("needs a second backend")
    tree = {"a": np.ones(2), "b": {"c": hd.asarray([1.0], backend=backend)}}
    with pytest.raises(hd.BackendMismatchError, match=r"'a' is numpy.*'b/c' is " + backend):
        hd.tree.backend_of(tree)


def test_map_over_backend_arrays(backend):
    tree = {"a": hd.asarray([1.0, 2.0], backend=backend), "b": (hd.asarray([3.0], backend=backend),)}
    out = hd.tree.map(lambda x: hd.multiply(x, 2.0), tree)
    assert hd.backend_of(out["a"]) == backend
    assert hd.tree.all_close(out, {"a": np.array([2.0, 4.0]), "b": (np.array([6.0]),)})


def test_path_str():
    assert hd.tree.path_str(("layer1", "w")) == "layer1/w"
    assert hd.tree.path_str(("layers", 0)) == "layers/0"
    assert hd.tree.path_str(()) == ""
    assert hd.tree.path_str(("a", 1), sep=".") == "a.1"


def test_require_arrays():
    paths, leaves, _ = hd.tree.require_arrays("optim", {"w": np.ones(2), "m": [np.zeros(1)]})
    assert [hd.tree.path_str(p) for p in paths] == ["m/0", "w"] and len(leaves) == 2
    with pytest.raises(hd.NotAnArrayError, match=r"optim: the leaf at 'opt/step' has type int"):
        hd.tree.require_arrays("optim", {"w": np.ones(2), "opt": {"step": 3}})
    with pytest.raises(hd.NotAnArrayError, match="'<root>'"):
        hd.tree.require_arrays("optim", 1.5)
