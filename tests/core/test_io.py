"""hd.save / hd.load: safetensors round trips across every backend pair, atomic writes,
clear errors for bad trees and for corrupt, truncated or foreign files.

The reference for values is the NumPy data the trees were built from.
"""

from __future__ import annotations

import errno
import os
from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import hedera as hd
from conftest import require_backend, selected_backends
from hedera import dtypes as hdt
from hedera.errors import CheckpointError, InvalidArgumentError

PAIRS = [(src, dst) for src in selected_backends() for dst in selected_backends()]

_SAMPLES = {
    "bool": [True, False, True],
    "int8": [-128, 0, 127],
    "int16": [-32768, 1, 32767],
    "int32": [-(2**31), 2, 2**31 - 1],
    "int64": [-(2**63), 3, 2**63 - 1],
    "uint8": [0, 1, 255],
    "uint16": [0, 2, 65535],
    "uint32": [0, 3, 2**32 - 1],
    "uint64": [0, 4, 2**64 - 1],
    "float16": [-0.0, np.inf, 65504.0],
    "float32": [np.nan, -np.inf, 1.5e-45],
    "float64": [np.nan, -0.0, 1e308],
    "complex64": [1 + 2j, complex(np.nan, 1), -0.0j],
    "complex128": [1e300 - 1e-300j, complex(1, np.inf), 3j],
}
# bfloat16 values are exactly representable: [1, -2.5, 2**100, inf, nan]
_BF16 = np.array([1.0, -2.5, 2.0**100, np.inf, np.nan], dtype=np.float32)


def sample(dtype: hdt.DType, shape=(3,)) -> np.ndarray:
    """NumPy data of ``dtype`` (float32 holding exact bfloat16 values for bfloat16)."""
    if dtype is hdt.bfloat16:
        base = _BF16
    else:
        base = np.array(_SAMPLES[dtype.name], dtype=dtype.dtype)
    return np.resize(base, shape)


def make(dtype: hdt.DType, backend: str, shape=(3,)):
    """An array of ``dtype`` on ``backend``; raises UnsupportedDtypeError if the backend lacks it."""
    data = sample(dtype, shape)
    if dtype is hdt.bfloat16:
        return hd.astype(hd.asarray(data, backend=backend), hdt.bfloat16)
    x = hd.asarray(data, backend=backend, dtype=dtype)
    if hd.dtype(x) is not dtype:
        raise hd.UnsupportedDtypeError(f"{backend} made {hd.dtype(x)} for {dtype}")
    return x


def supported(backend: str) -> list[hdt.DType]:
    out = []
    for d in hdt.all_dtypes:
        try:
            make(d, backend)
        except hd.UnsupportedDtypeError:
            continue
        out.append(d)
    return out


def as_numpy(x) -> np.ndarray:
    if hd.dtype(x) is hdt.bfloat16:
        return hd.to_numpy(hd.astype(x, hdt.float32))
    return hd.to_numpy(x)


def assert_same(loaded, expected_numpy, expected_dtype, backend):
    assert hd.backend_of(loaded) == backend
    assert hd.dtype(loaded) is expected_dtype
    got = as_numpy(loaded)
    assert got.shape == expected_numpy.shape
    np.testing.assert_array_equal(got, expected_numpy)  # NaNs compare equal; -0.0 == 0.0
    if got.dtype.kind in "fc":  # signs of zeros exactly (a NaN's sign means nothing)
        real = np.where(np.isnan(expected_numpy.real), 0.0, expected_numpy.real)
        np.testing.assert_array_equal(
            np.signbit(np.where(np.isnan(got.real), 0.0, got.real)), np.signbit(real)
        )


def tree_with_dtypes(dtypes, backend):
    """An optimizer-state-like Container using every dtype in ``dtypes``, with all node types."""
    leaves = {d.name: make(d, backend, shape=(2, 3) if i % 2 else (3,)) for i, d in enumerate(dtypes)}
    return hd.Container(
        params={"layer1": {"w": make(hdt.float32, backend, (2, 3)), "b": make(hdt.float32, backend)}},
        opt=hd.Container(step=hd.asarray(np.int64(7), backend=backend), moments=[make(hdt.float32, backend)]),
        by_dtype=leaves,
        misc={
            "tuple": (make(hdt.int32, backend, ()), None),
            "int keys": {0: make(hdt.bool, backend), 1: None},
        },
        empty=hd.Container(),
    )


@pytest.mark.parametrize(("src", "dst"), PAIRS, ids=[f"{s}->{d}" for s, d in PAIRS])
def test_round_trip_across_backends(src, dst, tmp_path):
    require_backend(src)
    require_backend(dst)
    common = [d for d in supported(src) if d in set(supported(dst))]
    tree = tree_with_dtypes(common, src)
    path = tmp_path / "state.safetensors"
    hd.save(tree, path)
    loaded = hd.load(path, backend=dst)

    assert isinstance(loaded, hd.Container)
    assert list(loaded) == list(tree)  # key order
    assert hd.tree.structure_equal(loaded, tree)
    assert type(loaded.misc["tuple"]) is tuple and loaded.misc["tuple"][1] is None
    assert list(loaded.misc["int keys"]) == [0, 1]
    assert isinstance(loaded.opt, hd.Container) and isinstance(loaded.opt.moments, list)
    assert len(loaded.empty) == 0
    assert hd.tree.backend_of(loaded) == dst
    flat_src = dict(zip(*hd.tree.flatten_with_path(tree)[:2], strict=True))
    flat_dst = dict(zip(*hd.tree.flatten_with_path(loaded)[:2], strict=True))
    assert flat_src.keys() == flat_dst.keys()
    for p, x in flat_src.items():
        assert_same(flat_dst[p], as_numpy(x), hd.dtype(x), dst)
    assert loaded.opt.step.shape == () and hd.dtype(loaded.opt.step) is hdt.int64
    # every dtype both backends have made it through, bfloat16 included where both have it
    assert sorted(loaded.by_dtype) == sorted(d.name for d in common)
    # a dtype the target lacks raises UnsupportedDtypeError naming the leaf, never converts silently
    for d in supported(src):
        if d not in common:
            hd.save({"only": {d.name: make(d, src)}}, path)
            with pytest.raises(hd.UnsupportedDtypeError, match=f"'only/{d.name}'"):
                hd.load(path, backend=dst)


def test_unsupported_dtype_on_load_names_the_leaf(tmp_path):
    """A dtype the target backend lacks raises UnsupportedDtypeError, never a silent conversion."""
    sources = [b for b in selected_backends() if b != "numpy"]
    if not sources:
        pytest.skip("needs a backend with bfloat16")
    require_backend(sources[0])
    require_backend("numpy")
    hd.save({"w": make(hdt.bfloat16, sources[0])}, tmp_path / "bf16.safetensors")
    with pytest.raises(hd.UnsupportedDtypeError, match="'w'"):
        hd.load(tmp_path / "bf16.safetensors", backend="numpy")


def test_load_uses_current_backend(backend, tmp_path):
    hd.save({"x": np.arange(3.0)}, tmp_path / "x.safetensors")
    with hd.use_backend(backend):
        loaded = hd.load(tmp_path / "x.safetensors")
    assert hd.backend_of(loaded["x"]) == backend
    assert hd.backend_of(hd.load(tmp_path / "x.safetensors", backend="numpy", device="cpu")["x"]) == "numpy"


@pytest.mark.parametrize(
    "tree",
    [
        np.arange(4.0).reshape(2, 2),
        {},
        None,
        [np.ones(2), (np.zeros(0), [])],
        OrderedDict([("b", np.ones(1)), ("a", np.zeros(1))]),
        {"a/b": np.ones(1), "a~1b": np.zeros(1), "~": np.ones(2), 5: np.ones(3)},
        hd.Container(x=np.float32(1.5), y={"z": np.zeros((2, 0, 3), np.int16)}),
    ],
    ids=["lone-array", "empty-dict", "none", "lists", "ordered-dict", "odd-keys", "container"],
)
def test_structures_round_trip(tree, tmp_path):
    hd.save(tree, tmp_path / "t.safetensors")
    loaded = hd.load(tmp_path / "t.safetensors", backend="numpy")
    assert hd.tree.all_equal(loaded, tree) or (np.ndim(tree) == 0 and np.asarray(tree) == loaded)
    assert type(loaded) is type(tree) or isinstance(tree, np.float32)
    if isinstance(tree, dict):
        assert list(loaded) == list(tree)


def test_file_is_plain_safetensors(tmp_path):
    from safetensors.numpy import load_file

    hd.save(
        hd.Container(layer={"w": np.ones((2, 2), np.float32)}, steps=[np.int64(3)]),
        tmp_path / "m.safetensors",
    )
    tensors = load_file(str(tmp_path / "m.safetensors"))
    assert sorted(tensors) == ["layer/w", "steps/0"]
    np.testing.assert_array_equal(tensors["layer/w"], np.ones((2, 2), np.float32))


def test_foreign_safetensors_file_loads_as_flat_dict(tmp_path):
    from safetensors.numpy import save_file

    save_file({"b": np.arange(3, dtype=np.int32), "a.weight": np.eye(2)}, str(tmp_path / "f.safetensors"))
    loaded = hd.load(tmp_path / "f.safetensors", backend="numpy")
    assert list(loaded) == ["a.weight", "b"]
    np.testing.assert_array_equal(loaded["a.weight"], np.eye(2))
    assert loaded["b"].dtype == np.int32


# ---- bad trees -------------------------------------------------------------------------


def test_non_array_leaf_names_the_path(tmp_path):
    path = tmp_path / "x.safetensors"
    with pytest.raises(hd.NotAnArrayError, match=r"'opt/step' has type int.*hd.asarray"):
        hd.save(hd.Container(w=np.ones(2), opt={"step": 3}), path)
    with pytest.raises(hd.NotAnArrayError, match="'2'"):
        hd.save([np.ones(1), np.ones(1), "text"], path)
    assert not path.exists() and os.listdir(tmp_path) == []


def test_mixed_backends_rejected(backend, tmp_path):
    if backend == "numpy":
        pytest.skip("needs a second backend")
    path = tmp_path / "x.safetensors"
    tree = {"a": np.ones(2), "b": {"c": hd.asarray([1.0], backend=backend)}}
    with pytest.raises(hd.BackendMismatchError, match=rf"'a' is numpy, 'b/c' is {backend}"):
        hd.save(tree, path)
    assert os.listdir(tmp_path) == []


def test_unrebuildable_nodes_and_keys_rejected(tmp_path):
    Pair = namedtuple("Pair", "a b")
    with pytest.raises(InvalidArgumentError, match="Pair"):
        hd.save({"p": Pair(np.ones(1), np.ones(1))}, tmp_path / "x.safetensors")
    with pytest.raises(InvalidArgumentError, match="str or int"):
        hd.save({(1, 2): np.ones(1)}, tmp_path / "x.safetensors")
    with pytest.raises(InvalidArgumentError, match="two leaves have the path"):
        hd.save({1: np.ones(1), "1": np.ones(1)}, tmp_path / "x.safetensors")
    assert os.listdir(tmp_path) == []


# ---- atomic writes ---------------------------------------------------------------------


def test_overwrite_and_permissions(tmp_path):
    path = tmp_path / "x.safetensors"
    hd.save({"a": np.ones(2)}, path)
    hd.save({"b": np.zeros(3)}, path)
    assert list(hd.load(path, backend="numpy")) == ["b"]
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask
    assert os.listdir(tmp_path) == ["x.safetensors"]


def test_failed_write_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    import safetensors

    path = tmp_path / "x.safetensors"
    hd.save({"a": np.arange(3.0)}, path)
    before = path.read_bytes()

    def crash(tensors, filename, metadata=None):
        with open(filename, "wb") as f:
            f.write(b"half a file")
        raise KeyboardInterrupt  # a crash mid-write (not even an Exception)

    monkeypatch.setattr(safetensors, "serialize_file", crash)
    with pytest.raises(KeyboardInterrupt):
        hd.save({"a": np.zeros(100)}, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["x.safetensors"]


def test_missing_directory(tmp_path):
    """The error names the path the user gave (not hedera's temporary file), and is still a
    FileNotFoundError with the operating system's errno."""
    path = tmp_path / "nope" / "x.safetensors"
    with pytest.raises(FileNotFoundError) as info:
        hd.save({"a": np.ones(1)}, path)
    e = info.value
    assert isinstance(e, hd.CheckpointNotFoundError) and isinstance(e, hd.HederaError)
    assert e.errno == errno.ENOENT and e.filename == str(path)
    assert str(path) in str(e) and "save" in str(e) and "nope' does not exist" in str(e)
    assert ".tmp" not in str(e)
    assert os.listdir(tmp_path) == []


def test_unwritable_targets_name_the_path_and_leave_nothing(tmp_path):
    target = tmp_path / "adir"
    target.mkdir()
    with pytest.raises(IsADirectoryError) as info:
        hd.save({"a": np.ones(1)}, target)
    assert isinstance(info.value, hd.CheckpointFileError) and info.value.filename == str(target)
    assert ".tmp" not in str(info.value)
    assert sorted(os.listdir(tmp_path)) == ["adir"] and os.listdir(target) == []
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(PermissionError) as info:
            hd.save({"a": np.ones(1)}, locked / "x.safetensors")
        assert isinstance(info.value, hd.CheckpointPermissionError)
        assert str(locked / "x.safetensors") in str(info.value)


# ---- corrupt files ---------------------------------------------------------------------


@pytest.fixture
def good_file(tmp_path):
    path = tmp_path / "good.safetensors"
    hd.save(hd.Container(w=np.arange(64.0), b={"c": np.ones(3, np.int32)}), path)
    return path


@pytest.mark.parametrize(
    "keep", [0, 5, 8, 40, -1], ids=["empty", "5-bytes", "header-length-only", "mid-header", "minus-1"]
)
def test_truncated_file(good_file, keep):
    data = good_file.read_bytes()
    good_file.write_bytes(data[:keep] if keep >= 0 else data[:-1])
    with pytest.raises(CheckpointError, match=r"good\.safetensors"):
        hd.load(good_file, backend="numpy")


def test_not_a_safetensors_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello, this is not a checkpoint at all" * 10)
    with pytest.raises(CheckpointError, match=r"notes.txt.*not a valid safetensors file"):
        hd.load(path, backend="numpy")
    with pytest.raises(ValueError):  # CheckpointError is a ValueError too
        hd.load(path, backend="numpy")


def test_corrupted_data_fails_checksum(good_file):
    data = bytearray(good_file.read_bytes())
    data[-20] ^= 0xFF  # flip bits inside the tensor data, header intact
    good_file.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="CRC-32"):
        hd.load(good_file, backend="numpy")


_BAD_METADATA = [
    "{not json",
    '{"format": "other"}',
    '{"format": "hedera.tree", "version": 1, "tree": {"type": "??"}}',
    '{"format": "hedera.tree", "version": 1, "tree": {"type": "dict", "keys": ["a"], "values": []}}',
    '{"format": "hedera.tree", "version": 1, "tree": '
    '{"type": "array", "name": "zz", "dtype": "float64", "shape": [1]}}',  # no tensor "zz"
    '{"format": "hedera.tree", "version": 99, "tree": {"type": "none"}}',
]


@pytest.mark.parametrize("bad", _BAD_METADATA)
def test_malformed_hedera_metadata(tmp_path, bad):
    from safetensors.numpy import save_file

    path = tmp_path / "m.safetensors"
    save_file({"a": np.ones(1)}, str(path), metadata={"hedera": bad})
    with pytest.raises(CheckpointError, match=r"m\.safetensors"):
        hd.load(path, backend="numpy")


def test_missing_file(tmp_path):
    path = tmp_path / "absent.safetensors"
    with pytest.raises(FileNotFoundError) as info:
        hd.load(path)
    assert isinstance(info.value, hd.CheckpointNotFoundError)
    assert info.value.errno == errno.ENOENT and info.value.filename == str(path)
    assert "load" in str(info.value) and str(path) in str(info.value)


def test_loading_a_directory(tmp_path):
    with pytest.raises(IsADirectoryError) as info:
        hd.load(tmp_path)
    assert isinstance(info.value, hd.CheckpointFileError) and info.value.filename == str(tmp_path)


def test_jax_without_x64_refuses_float64(tmp_path):
    """float64 data never turns into float32 silently (JAX's 64-bit mode is off by default)."""
    require_backend("jax")
    import subprocess
    import sys
    import textwrap

    hd.save({"d": np.arange(3.0)}, tmp_path / "d.safetensors")
    code = f"""
        import hedera as hd
        try:
            hd.load({str(tmp_path / "d.safetensors")!r}, backend="jax")
        except hd.UnsupportedDtypeError as e:
            print("refused" if "'d'" in str(e) else e)
        """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300
    )
    assert proc.stdout.strip().splitlines()[-1:] == ["refused"], proc.stderr[-2000:]
