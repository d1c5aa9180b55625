"""``hd.save`` / ``hd.load``: nested containers of arrays to and from safetensors files.

A file written from one backend loads on any other::

    hd.save(model_state, "model.safetensors")                 # torch tensors, say
    state = hd.load("model.safetensors", backend="jax")       # the same tree of jax arrays

Format
------
A standard `safetensors <https://github.com/huggingface/safetensors>`_ file,
readable by any safetensors reader:

* one tensor per leaf, named by its path: keys and indices joined with ``"/"``
  (``"layer1/w"``, ``"layers/0/b"``); a ``"/"`` or ``"~"`` inside a key is
  escaped as ``"~1"`` / ``"~0"`` (JSON-pointer style); a lone array is named ``""``;
* the nesting (``dict``, ``OrderedDict``, ``list``, ``tuple``, ``None``,
  :class:`hedera.Container`, with key order and int/str key types), each leaf's
  dtype and shape, and a CRC-32 of its bytes, as JSON in the header metadata
  under ``"hedera"``, so :func:`load` rebuilds the same structure and detects
  corrupted data;
* ``bfloat16`` is stored as safetensors ``BF16``; ``complex128`` (which
  safetensors lacks) as ``F64`` with a trailing axis of length 2 (real, imag).

Writes are atomic: the data goes to a temporary file in the same directory,
which is flushed to disk (``fsync``) and then renamed over ``path``
(``os.replace``); on any failure the temporary file is removed and an existing
``path`` is left untouched.
"""

from __future__ import annotations

import errno
import os
import sys
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _front as _hd
from . import dtypes as _dtypes
from ._dispatch import backend_name_of_type, backend_of_leaves, current_backend, load_backend
from ._front_manual import dtype as _dtype_of
from ._lazy import on_first_use
from .container import Container
from .errors import (
    ArgumentTypeError,
    CheckpointError,
    CheckpointFileError,
    CheckpointIsADirectoryError,
    CheckpointNotFoundError,
    CheckpointPermissionError,
    HederaError,
    InvalidArgumentError,
    NotAnArrayError,
    UnsupportedDtypeError,
)
from .tree import leaves

if TYPE_CHECKING:
    import json
    import zlib
else:  # imported by the first save or load (see hedera._lazy), not by `import hedera`
    json = on_first_use("json", globals())
    zlib = on_first_use("zlib", globals())

__all__ = ["save", "load"]

FORMAT = "hedera.tree"
FORMAT_VERSION = 1
_META_KEY = "hedera"

# safetensors header dtype code -> numpy dtype of the stored bytes (bfloat16 as its uint16 bits)
_CODE_TO_NUMPY = {
    "BOOL": np.dtype("bool"),
    "I8": np.dtype("<i1"), "I16": np.dtype("<i2"), "I32": np.dtype("<i4"), "I64": np.dtype("<i8"),
    "U8": np.dtype("<u1"), "U16": np.dtype("<u2"), "U32": np.dtype("<u4"), "U64": np.dtype("<u8"),
    "F16": np.dtype("<f2"), "BF16": np.dtype("<u2"), "F32": np.dtype("<f4"), "F64": np.dtype("<f8"),
    "C64": np.dtype("<c8"),
}  # fmt: skip
# hedera dtype name -> (safetensors dtype name for TensorSpec, header code)
_STORAGE = {
    "bool": ("bool", "BOOL"),
    "int8": ("int8", "I8"), "int16": ("int16", "I16"), "int32": ("int32", "I32"), "int64": ("int64", "I64"),
    "uint8": ("uint8", "U8"), "uint16": ("uint16", "U16"), "uint32": ("uint32", "U32"),
    "uint64": ("uint64", "U64"),
    "float16": ("float16", "F16"), "bfloat16": ("bfloat16", "BF16"), "float32": ("float32", "F32"),
    "float64": ("float64", "F64"), "complex64": ("complex64", "C64"), "complex128": ("float64", "F64"),
}  # fmt: skip
_CODE_TO_HEDERA = {
    "BOOL": "bool", "I8": "int8", "I16": "int16", "I32": "int32", "I64": "int64", "U8": "uint8",
    "U16": "uint16", "U32": "uint32", "U64": "uint64", "F16": "float16", "BF16": "bfloat16",
    "F32": "float32", "F64": "float64", "C64": "complex64",
}  # fmt: skip


def _safetensors() -> Any:
    try:
        import safetensors
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "hd.save / hd.load need the 'safetensors' package: pip install safetensors"
        ) from None
    return safetensors


# ---- save ------------------------------------------------------------------------------


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _where(parts: list[str]) -> str:
    return repr("/".join(parts)) if parts else "the root"


class _Encoder:
    """Walks a tree once: builds the JSON structure spec and collects the leaves by name."""

    def __init__(self) -> None:
        self.leaves: dict[str, Any] = {}  # tensor name -> native array

    def encode(self, node: Any, parts: list[str]) -> dict[str, Any]:
        if isinstance(node, Container) or type(node) in (dict, OrderedDict):
            kind = "Container" if isinstance(node, Container) else type(node).__name__
            keys = list(node.keys())
            for k in keys:
                if isinstance(k, bool) or not isinstance(k, (str, int)):
                    raise InvalidArgumentError(
                        f"save: dict keys must be str or int, got {k!r} at {_where(parts)}"
                    )
            return {
                "type": kind,
                "keys": keys,
                "values": [self.encode(node[k], [*parts, _escape(k)]) for k in keys],
            }
        if type(node) in (list, tuple):
            return {
                "type": type(node).__name__,
                "values": [self.encode(v, [*parts, str(i)]) for i, v in enumerate(node)],
            }
        if node is None:
            return {"type": "none"}
        return self._leaf(node, parts)

    def _leaf(self, x: Any, parts: list[str]) -> dict[str, Any]:
        if backend_name_of_type(type(x)) is None or not hasattr(x, "dtype"):
            if isinstance(x, (list, tuple, dict)):
                raise InvalidArgumentError(
                    f"save: the {type(x).__name__} at {_where(parts)} is not a node type save can "
                    f"rebuild; use dict, OrderedDict, list, tuple, None or hd.Container"
                )
            raise NotAnArrayError(
                f"save: the leaf at {_where(parts)} has type {type(x).__name__}, expected an array "
                f"(wrap Python numbers with hd.asarray, e.g. a step counter as a 0-d int array)"
            )
        name = "/".join(parts)
        if name in self.leaves:
            raise InvalidArgumentError(f"save: two leaves have the path {name!r} (keys 1 and '1', say)")
        self.leaves[name] = x
        dtype = _dtype_of(x)
        return {"type": "array", "name": name, "dtype": dtype.name, "shape": [int(s) for s in x.shape]}


def _contiguous(a: np.ndarray, dtype: Any) -> np.ndarray:
    """``a`` as a C-contiguous array of ``dtype``; 0-d stays 0-d (``ascontiguousarray`` would not)."""
    return np.require(np.asarray(a, dtype=dtype), requirements="C")


def _storage_array(x: Any, dtype: _dtypes.DType) -> np.ndarray:
    """The bytes to store for array ``x``: a C-contiguous little-endian NumPy array."""
    if dtype is _dtypes.bfloat16:
        # NumPy has no bfloat16: widen to float32 (exact), keep the top 16 bits (exact again)
        f32 = _contiguous(_hd.to_numpy(_hd.astype(x, _dtypes.float32)), "<f4")
        return (f32.view("<u4") >> 16).astype("<u2")
    a = _contiguous(_hd.to_numpy(x), dtype.dtype)
    if dtype is _dtypes.complex128:  # safetensors has no complex128: store (real, imag) pairs as float64
        a = a.reshape(-1).view(np.float64).reshape((*a.shape, 2))
    return _contiguous(a, a.dtype.newbyteorder("<"))


def save(tree: Any, path: str | os.PathLike[str]) -> None:
    """Write a tree of arrays to ``path`` as a safetensors file, atomically.

    Parameters
    ----------
    tree
        An array, or a nest of ``dict`` / ``OrderedDict`` (str or int keys),
        ``list``, ``tuple``, ``None`` and :class:`hedera.Container` whose leaves
        are arrays of one backend (any dtype hedera knows, bfloat16 included).
        Python numbers are not arrays: store a step counter as
        ``hd.asarray(step)``.
    path : str or os.PathLike
        The file to write (conventionally ``*.safetensors``). Replaced atomically
        if it exists; its directory must exist.

    Raises
    ------
    NotAnArrayError
        A leaf is not an array; the message gives its path.
    BackendMismatchError
        The tree mixes arrays of two backends; the message names a leaf of each.
    InvalidArgumentError
        A node type save cannot rebuild (a named tuple, a custom class), or a
        dict key that is not a str or int.
    CheckpointFileError
        The file cannot be written (``CheckpointNotFoundError``, a
        ``FileNotFoundError``, when its directory does not exist;
        ``CheckpointPermissionError``, a ``PermissionError``); the message and
        ``filename`` name ``path``, and nothing is left behind.

    Examples
    --------
    >>> import hedera as hd, tempfile, os
    >>> state = hd.Container(w=hd.ones((2, 2)), step=hd.asarray(3))
    >>> path = os.path.join(tempfile.mkdtemp(), "state.safetensors")
    >>> hd.save(state, path)
    >>> hd.load(path).all_equal(state)
    True
    """
    path = _path("save", path)
    st = _safetensors()
    writes, barrier = True, False
    if _has_sharded_leaves(tree):  # DTensors, tf per-replica values: gathered first
        from .distributed import _checkpoint

        tree, writes, barrier = _checkpoint.prepare_save(tree)
    encoder = _Encoder()
    spec = encoder.encode(tree, [])
    backend_of_leaves(
        "save",
        list(encoder.leaves.values()),
        list(encoder.leaves),
        where="in one tree",
        advice="convert with hd.tree.to_backend(tree, name) first",
    )
    arrays: dict[str, np.ndarray] = {}  # kept alive while safetensors reads their memory
    tensors = {}
    for leaf in _spec_leaves(spec):
        name = leaf["name"]
        try:
            data = _storage_array(encoder.leaves[name], _dtypes.as_hedera_dtype(leaf["dtype"]))
        except HederaError as e:
            raise type(e)(f"save: the leaf at {name!r}: {e}") from e
        arrays[name] = data
        leaf["crc32"] = _crc32(data)
        tensors[name] = st.TensorSpec(
            dtype=_STORAGE[leaf["dtype"]][0],
            shape=list(data.shape),
            data_ptr=data.ctypes.data,
            data_len=data.nbytes,
        )
    header = json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "tree": spec}, separators=(",", ":"))
    if writes:
        metadata = {_META_KEY: header}
        target = path
        try:
            _atomic_write(target, lambda tmp: st.serialize_file(tensors, tmp, metadata=metadata))
        except OSError as e:
            if isinstance(e, HederaError):
                raise
            raise _file_error("save", "write", target, e) from None
    del arrays
    if barrier:
        from .distributed import _checkpoint

        _checkpoint.finish_save(barrier)


_SHARDED_MODULES = ("torch.distributed", "tensorflow.python.distribute")


def _has_sharded_leaves(tree: Any) -> bool:
    """Whether ``tree`` holds arrays split over devices that must be gathered (hedera.distributed)."""
    if not any(m in sys.modules for m in ("torch.distributed", "tensorflow")):
        return False
    return any(type(x).__module__.startswith(_SHARDED_MODULES) for x in leaves(tree))


def _crc32(a: np.ndarray) -> int:
    """CRC-32 of a contiguous array's bytes."""
    return zlib.crc32(memoryview(a.reshape(-1)).cast("B")) if a.size else 0


def _spec_leaves(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The leaf entries of a structure spec, in walk order."""
    if spec["type"] == "array":
        return [spec]
    return [leaf for child in spec.get("values", ()) for leaf in _spec_leaves(child)]


#: the operating system's error -> hedera's, which is also that built-in (``except FileNotFoundError``)
_FILE_ERRORS: dict[type[OSError], type[CheckpointFileError]] = {
    FileNotFoundError: CheckpointNotFoundError,
    PermissionError: CheckpointPermissionError,
    IsADirectoryError: CheckpointIsADirectoryError,
}


def _file_error(fname: str, verb: str, path: str, e: OSError) -> CheckpointFileError:
    """``e`` (which may name hedera's temporary file) as hedera's error naming the user's ``path``."""
    cls = next((h for builtin, h in _FILE_ERRORS.items() if isinstance(e, builtin)), CheckpointFileError)
    reason = e.strerror or str(e)
    directory = os.path.dirname(os.path.abspath(path))
    if verb == "write" and not os.path.isdir(directory):
        reason += f"; its directory {directory!r} does not exist"
    # str(): "[Errno 2] save: cannot write the file at path (No such file or directory; ...): 'the/path'"
    return cls(e.errno, f"{fname}: cannot {verb} the file at path ({reason})", path)


def _path(fname: str, path: Any) -> str:
    """``path`` (a str or an ``os.PathLike``) as a str; :class:`~hedera.ArgumentTypeError` else."""
    if isinstance(path, str):
        return path
    try:
        out = os.fspath(path)
    except TypeError:
        raise ArgumentTypeError(
            f"{fname}: path must be a str or an os.PathLike, got {type(path).__name__} {path!r}"
        ) from None
    if not isinstance(out, str):
        raise ArgumentTypeError(f"{fname}: path must be a str or an os.PathLike of a str, got {path!r}")
    return out


def _atomic_write(path: str, write: Any) -> None:
    """Run ``write(tmp)`` on a fresh temporary file next to ``path``, fsync it, rename it to ``path``."""
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # reserves the name
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, _file_mode(path))  # safetensors writes 0o600; give the usual permissions
        fd = os.open(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_directory(directory)


def _file_mode(path: str) -> int:
    """The permissions for the written file: those of the file it replaces, else ``0o666 & ~umask``."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        pass
    try:
        with open("/proc/self/status") as f:  # Linux: read the umask without changing it
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)  # elsewhere: read it by setting it (briefly)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_directory(directory: str) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened (Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ---- load ------------------------------------------------------------------------------


def load(path: str | os.PathLike[str], backend: str | None = None, *, device: Any = None) -> Any:
    """Read a tree of arrays written by :func:`save` (or any safetensors file).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    backend : str, optional
        The backend of the arrays returned. Default: :func:`hedera.current_backend`.
    device : str or native device, optional
        Where to put them (``"cpu"``, ``"gpu:0"``). Default: the backend's default.

    Returns
    -------
    tree
        The tree as saved: same nesting, keys and key order, node types, leaf
        dtypes, shapes and values. A safetensors file not written by hedera
        loads as a ``dict`` from tensor name to array, in name order.

    Raises
    ------
    CheckpointError
        ``path`` is not a safetensors file, is truncated or corrupt (a CRC
        mismatch), or its hedera metadata is malformed; the message names it.
    UnsupportedDtypeError
        The backend lacks a dtype in the file (bfloat16 on numpy, uint32 on
        torch, float64 on jax without x64); the message names the leaf.
    CheckpointNotFoundError
        There is no file at ``path`` (a ``FileNotFoundError``; other ``OSError`` errors are
        :class:`~hedera.errors.CheckpointFileError`); the message and ``filename`` name ``path``.
    """
    path = _path("load", path)
    header, meta = _read_header(path)
    buffer = _read_file(path)
    data_start = 8 + int.from_bytes(buffer[:8], "little")
    spec = _parse_spec(path, meta)
    ns = load_backend(backend if backend is not None else current_backend())

    def leaf(name: str, dtype_name: str, shape: list[int], crc: int | None) -> Any:
        try:
            entry = header[name]
        except KeyError:
            raise CheckpointError(f"load: {path!r} has no tensor {name!r} that its metadata lists") from None
        stored = _stored_array(path, name, entry, buffer, data_start)
        if crc is not None and _crc32(stored) != crc:
            raise CheckpointError(f"load: {path!r} is corrupt: the data of {name!r} fails its CRC-32 check")
        try:
            return _to_backend(ns, stored, _dtypes.as_hedera_dtype(dtype_name), shape, device)
        except HederaError as e:
            raise type(e)(f"load: {path!r}, leaf {name!r}: {e}") from e

    if spec is None:  # a safetensors file from elsewhere: a flat dict of its tensors
        out = {}
        for name in sorted(header):
            code = header[name].get("dtype")
            if code not in _CODE_TO_HEDERA:
                raise UnsupportedDtypeError(f"load: {path!r}, tensor {name!r}: dtype {code} is not supported")
            out[name] = leaf(name, _CODE_TO_HEDERA[code], header[name]["shape"], None)
        return out
    try:
        return _decode(spec, leaf)
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, HederaError):
            raise
        raise CheckpointError(
            f"load: {path!r} has malformed hedera metadata ({type(e).__name__}: {e})"
        ) from None


def _read_header(path: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The tensor entries and the metadata of a safetensors file, validated by safetensors itself."""
    st = _safetensors()
    if os.path.isdir(path):
        raise _file_error("load", "read", path, IsADirectoryError(errno.EISDIR, "it is a directory"))
    try:
        with open(path, "rb"):  # the operating system's error, not safetensors' rewording of it
            pass
    except OSError as e:
        raise _file_error("load", "read", path, e) from None
    try:
        with st.safe_open(path, framework="np") as f:
            meta = f.metadata() or {}
    except Exception as e:
        raise CheckpointError(
            f"load: {path!r} is not a valid safetensors file (truncated or corrupt?): {e}"
        ) from None
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    header.pop("__metadata__", None)
    return header, meta


def _read_file(path: str) -> bytearray:
    """The whole file, in a writable buffer the loaded NumPy arrays are views of."""
    size = os.path.getsize(path)
    buffer = bytearray(size)
    with open(path, "rb") as f:
        if f.readinto(buffer) != size:
            raise CheckpointError(f"load: {path!r} changed size while being read")
    return buffer


def _parse_spec(path: str, meta: dict[str, str]) -> dict[str, Any] | None:
    text = meta.get(_META_KEY)
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise CheckpointError(f"load: {path!r} has malformed hedera metadata: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or "tree" not in doc:
        raise CheckpointError(f"load: {path!r} has hedera metadata of an unknown format")
    if doc.get("version", 0) > FORMAT_VERSION:
        raise CheckpointError(
            f"load: {path!r} was written by a newer hedera (format version {doc['version']}); upgrade hedera"
        )
    return doc["tree"]


def _stored_array(
    path: str, name: str, entry: dict[str, Any], buffer: bytearray, data_start: int
) -> np.ndarray:
    """The stored bytes of tensor ``name`` as a NumPy array (a view into ``buffer`` where aligned)."""
    code = entry["dtype"]
    if code not in _CODE_TO_NUMPY:
        raise UnsupportedDtypeError(
            f"load: {path!r}, tensor {name!r}: dtype {code} is not supported by hedera"
        )
    np_dtype = _CODE_TO_NUMPY[code]
    begin, end = entry["data_offsets"]
    shape = tuple(entry["shape"])
    count = (end - begin) // np_dtype.itemsize
    offset = data_start + begin
    if offset % np_dtype.itemsize:  # misaligned: copy, so every framework accepts it
        return np.frombuffer(bytearray(buffer[offset : offset + end - begin]), np_dtype).reshape(shape)
    return np.frombuffer(buffer, np_dtype, count, offset).reshape(shape)


def _to_backend(ns: Any, stored: np.ndarray, dtype: _dtypes.DType, shape: list[int], device: Any) -> Any:
    """A native array of namespace ``ns`` from the stored NumPy array, checking its dtype."""
    if dtype is _dtypes.bfloat16:
        f32 = (stored.astype("<u4") << 16).view("<f4")  # exact: bfloat16 is float32's top half
        x = ns.astype(ns.asarray(f32, device=device), _dtypes.bfloat16)
    else:
        if dtype is _dtypes.complex128:
            if stored.shape != (*shape, 2):
                raise CheckpointError(f"shape {list(stored.shape)} does not fit complex128{shape}")
            stored = _contiguous(stored, stored.dtype).reshape(-1).view(np.complex128).reshape(shape)
        if stored.dtype.byteorder == ">":
            stored = stored.astype(stored.dtype.newbyteorder("="))
        x = ns.asarray(stored, dtype=dtype, device=device)
    if list(x.shape) != list(shape):
        raise CheckpointError(f"stored shape {list(x.shape)} does not match the recorded {shape}")
    if _dtype_of(x) is not dtype:
        raise _dtypes.unsupported(ns.__name__.rsplit(".", 1)[-1], dtype)
    return x


def _decode(spec: dict[str, Any], leaf: Any) -> Any:
    kind = spec["type"]
    if kind == "array":
        return leaf(spec["name"], spec["dtype"], spec["shape"], spec.get("crc32"))
    if kind == "none":
        return None
    if kind in ("list", "tuple"):
        values = [_decode(v, leaf) for v in spec["values"]]
        return values if kind == "list" else tuple(values)
    if kind in ("dict", "OrderedDict", "Container"):
        keys, values = spec["keys"], spec["values"]
        if len(keys) != len(values):
            raise ValueError("keys and values differ in length")
        decoded = [_decode(v, leaf) for v in values]
        if kind == "Container":
            return Container._make(keys, decoded)
        return (dict if kind == "dict" else OrderedDict)(zip(keys, decoded, strict=True))
    raise ValueError(f"unknown node type {kind!r}")
