"""``hd.Container``: a nested dict of arrays with attribute access and element-wise arithmetic.

A Container maps string keys, in insertion order, to arrays (of any backend)
or to other Containers::

    >>> import hedera as hd
    >>> params = hd.Container(layer1={"w": hd.ones((2, 3)), "b": hd.zeros(3)})
    >>> params.layer1.w.shape                 # attribute access
    (2, 3)
    >>> params["layer1/b"].shape              # key-path access
    (3,)
    >>> (params * 2 - 1).layer1.w.tolist()    # element-wise, leaf by leaf
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]

Conventions
-----------
* **Keys** are non-empty strings without ``"/"``; ``"a/b"`` is a *path* to
  key ``"b"`` of the Container at key ``"a"``. A plain ``dict`` value becomes
  a Container (one with non-string keys stays a dict); other values (arrays,
  lists, scalars) are stored as they are.
* **Attribute access** reads and writes keys (``c.w = x`` is ``c["w"] = x``),
  except for the names of Container's own methods and properties (``map``,
  ``shapes``, ``keys``, ...): use ``c["map"]`` for a key called ``"map"``.
* **Arithmetic and comparison** (``+ - * / // % ** @``, unary ``- + abs ~``,
  ``& | ^ << >>``, ``< <= > >= == !=``) apply leaf by leaf through the hedera
  front (``hd.add`` ...), so they run on every backend. The other operand may be
  a Container with the same keys (matched by key, whatever their order), an
  array, or a Python scalar. Errors name the key path where they happened.
* **``==`` is element-wise** (a Container of boolean arrays), like every other
  comparison and like arrays themselves, so ``bool(c1 == c2)`` would be
  ambiguous and raises ``TypeError``. Ask the question you mean instead:
  :meth:`structure_equal` (same keys), :meth:`all_equal` (same keys, shapes,
  dtypes and values), :meth:`all_close`. ``len(c)`` tells emptiness.
* **Pytree**: a Container is a node for :mod:`hedera.tree`, for JAX
  (``jax.jit``, ``jax.grad``, ``jax.tree_util``) and for PyTorch's pytree
  utilities (``torch.func``, ``torch.compile``); TensorFlow's ``tf.nest`` and
  ``tf.function`` take it as a mapping. The registrations happen when hedera's
  backend for the framework loads or when a Container is created while the
  framework is imported; :func:`register_pytree_nodes` does it by hand for the
  rare program that builds its Containers before importing the framework and
  never calls hedera on it. See docs/containers.md for the frameworks' limits
  (``tf_tensor < c``; container-tensor arithmetic under ``torch.compile(fullgraph=True)``).
"""

from __future__ import annotations

import _thread
import sys
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import _front as _hd
from . import tree as _tree
from ._dispatch import BACKENDS, backend_name_of_type, on_backend_load
from ._front_manual import asarray as _asarray
from ._front_manual import dtype as _dtype_of
from ._lazy import ensure_imported, on_first_use, when_imported
from .errors import (
    ArgumentTypeError,
    HederaError,
    InvalidArgumentError,
    NotAnArrayError,
    StructureError,
    UnknownBackendError,
)

if TYPE_CHECKING:
    import optree
else:  # imported on first use (see hedera._lazy): a tenth of `import hedera` otherwise
    optree = on_first_use("optree", globals())

__all__ = ["Container", "register_pytree_nodes"]

SEP = "/"


def _join(path: str, key: str) -> str:
    return f"{path}{SEP}{key}" if path else key


def _check_key(key: Any) -> str:
    if not isinstance(key, str) or not key or SEP in key:
        raise InvalidArgumentError(
            f"Container: a key must be a non-empty string without {SEP!r}, got {key!r}"
        )
    return key


def _split_path(path: Any) -> list[str]:
    if not isinstance(path, str):
        raise InvalidArgumentError(f"Container: keys are strings, got {type(path).__name__} {path!r}")
    parts = path.split(SEP)
    if not all(parts):
        raise InvalidArgumentError(f"Container: empty key in path {path!r}")
    return parts


def _with_path(error: HederaError, path: str) -> HederaError:
    """A copy of ``error`` whose message starts with the key path where it happened."""
    try:
        return type(error)(f"at key {path or '<root>'!r}: {error}")
    except Exception:
        return error


def _is_operand(x: Any) -> bool:
    """Whether ``x`` can be the other side of a Container operator (Container, array, scalar)."""
    return isinstance(x, (Container, bool, int, float, complex)) or backend_name_of_type(type(x)) is not None


class Container(MutableMapping):
    """A nested, ordered mapping of string keys to arrays and Containers.

    Parameters
    ----------
    data : mapping or iterable of (key, value) pairs, optional
        Initial entries, like ``dict(data)``. Keys may be paths (``"a/b"``),
        creating the intermediate Containers.
    **kwargs
        More entries.

    Examples
    --------
    >>> import hedera as hd
    >>> c = hd.Container({"a": hd.zeros(2)}, b={"c": hd.ones(())})
    >>> list(c.flatten_keys())
    ['a', 'b/c']
    >>> c
    Container(
      a: float64[2] (numpy) [0. 0.]
      b: Container(
        c: float64[] (numpy) 1.0
      )
    )
    """

    __slots__ = ("_data",)
    __hash__ = None  # type: ignore[assignment]  # mutable, and == is element-wise
    __array_ufunc__ = None  # NumPy defers `ndarray + container` to Container.__radd__
    __supported_by_tf_nest__ = True  # tf.nest: a Mapping that rebuilds from (key, value) pairs

    def __init__(self, data: Mapping[str, Any] | Any = None, /, **kwargs: Any) -> None:
        object.__setattr__(self, "_data", {})
        if data is not None:
            self.update(data)
        if kwargs:
            self.update(kwargs)
        if _PENDING:
            register_pytree_nodes()

    @classmethod
    def _make(cls, keys: Any, values: Any) -> Container:
        """A Container of these keys and values, unchecked (the pytree unflatten path)."""
        c = object.__new__(cls)
        object.__setattr__(c, "_data", dict(zip(keys, values, strict=True)))
        return c

    # ---- mapping protocol ---------------------------------------------------------------

    def __getitem__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            if not isinstance(key, str) or SEP not in key:
                raise KeyError(self._missing(key, "")) from None
        node: Any = self
        prefix = ""
        for part in _split_path(key):
            if not isinstance(node, Container):
                raise KeyError(
                    f"{key!r}: the value at {prefix!r} is a {type(node).__name__}, not a Container"
                )
            try:
                node = node._data[part]
            except KeyError:
                raise KeyError(f"{key!r}: " + node._missing(part, prefix)) from None
            prefix = _join(prefix, part)
        return node

    def _missing(self, key: Any, prefix: str) -> str:
        where = f"the Container at {prefix!r}" if prefix else "the Container"
        keys = list(self._data)
        shown = keys if len(keys) <= 20 else [*keys[:20], "..."]
        return f"no key {key!r} in {where}; its keys are {shown}"

    def __setitem__(self, key: str, value: Any) -> None:
        if type(value) is dict and all(type(k) is str for k in value):
            value = Container(value)
        if isinstance(key, str) and SEP not in key and key:
            self._data[key] = value
            return
        parts = _split_path(key)
        node = self
        for i, part in enumerate(parts[:-1]):
            if part not in node._data:
                node._data[part] = Container()
            child = node._data[part]
            if not isinstance(child, Container):
                raise InvalidArgumentError(
                    f"Container: cannot set {key!r}: the value at {SEP.join(parts[: i + 1])!r} "
                    f"is a {type(child).__name__}, not a Container"
                )
            node = child
        node._data[parts[-1]] = value

    def __delitem__(self, key: str) -> None:
        parts = _split_path(key) if isinstance(key, str) else [key]
        parent = self[SEP.join(parts[:-1])] if len(parts) > 1 else self
        if not isinstance(parent, Container) or parts[-1] not in parent._data:
            raise KeyError(key)
        del parent._data[parts[-1]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __bool__(self) -> bool:
        raise TypeError(
            "the truth value of a Container is ambiguous (== is element-wise); use len(c) for "
            "emptiness, c.structure_equal(other), c.all_equal(other) or c.all_close(other)"
        )

    # ---- attribute access ---------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        if name == "_data" or name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(
                f"Container has no key or attribute {name!r}; its keys are {list(self._data)}"
            ) from None

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(type(self), name):
            raise AttributeError(
                f"Container: {name!r} is a Container attribute; set the key with c[{name!r}] = value"
            )
        self[_check_key(name)] = value

    def __delattr__(self, name: str) -> None:
        try:
            del self._data[name]
        except KeyError:
            raise AttributeError(f"Container has no key {name!r}") from None

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | {k for k in self._data if k.isidentifier()})

    # ---- copying and pickling -----------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        return (Container._make, (tuple(self._data), tuple(self._data.values())))

    def copy(self) -> Container:
        """A copy of the nesting (new Containers at every level) sharing the same leaves."""
        return Container._make(
            self._data, [v.copy() if isinstance(v, Container) else v for v in self._data.values()]
        )

    # ---- transforming -------------------------------------------------------------------

    def map(self, fn: Callable[[Any], Any]) -> Container:
        """A Container of the same keys with ``fn(leaf)`` at each leaf (leaves as in :mod:`hedera.tree`).

        A hedera error raised by ``fn`` gets the key path of the leaf in its message.
        """
        _require_callable("map", fn)
        return self.map_with_path(lambda _, x: fn(x))

    def map_with_path(self, fn: Callable[[str, Any], Any]) -> Container:
        """Like :meth:`map`, calling ``fn(path, leaf)`` with the leaf's key path (``"layer1/w"``)."""
        _require_callable("map_with_path", fn)

        def call(path: tuple[Any, ...], x: Any) -> Any:
            p = _tree.path_str(path)
            try:
                return fn(p, x)
            except HederaError as e:
                raise _with_path(e, p) from e

        return _tree.map_with_path(call, self)

    def flatten_keys(self) -> dict[str, Any]:
        """A flat ``dict`` from key paths (``"layer1/w"``) to the values that are not Containers.

        The inverse of :meth:`unflatten_keys`. Lists and other non-Container
        values are values here, not traversed.
        """
        out: dict[str, Any] = {}

        def walk(c: Container, prefix: str) -> None:
            for k, v in c._data.items():
                if isinstance(v, Container):
                    walk(v, _join(prefix, k))
                else:
                    out[_join(prefix, k)] = v

        walk(self, "")
        return out

    @classmethod
    def unflatten_keys(cls, flat: Mapping[str, Any]) -> Container:
        """A Container from a flat mapping of key paths to values (the inverse of :meth:`flatten_keys`)."""
        c = cls()
        for path, value in flat.items():
            c[path] = value
        return c

    @property
    def shapes(self) -> Container:
        """A Container of the leaves' shapes, as tuples of ints."""
        return self.map_with_path(lambda p, x: tuple(_require_array(p, x).shape))

    @property
    def dtypes(self) -> Container:
        """A Container of the leaves' dtypes, as hedera dtypes (``hd.float32``)."""
        return self.map_with_path(lambda p, x: _dtype_of(_require_array(p, x)))

    @property
    def backend(self) -> str | None:
        """The backend of the arrays in this Container (``None`` if it holds none).

        Raises ``BackendMismatchError`` if it holds arrays of two backends.
        """
        return _tree.backend_of(self)

    def to_backend(self, name: str) -> Container:
        """A Container with every array converted to backend ``name`` (via ``hd.asarray``)."""
        if name not in BACKENDS:
            what = ArgumentTypeError if not isinstance(name, str) else UnknownBackendError
            raise what(f"Container.to_backend: name must be one of {sorted(BACKENDS)}, got {name!r}")
        return self.map_with_path(lambda p, x: _asarray(_require_array(p, x), backend=name))

    def to_numpy(self) -> Container:
        """A Container with every array converted to a NumPy array (``hd.to_numpy``)."""
        return self.map_with_path(lambda p, x: _hd.to_numpy(_require_array(p, x)))

    # ---- comparing ----------------------------------------------------------------------

    def structure_equal(self, other: Any) -> bool:
        """Whether ``other`` is a Container with the same nested keys (in any order) and node types."""
        return _tree.structure_equal(self, other)

    def all_equal(self, other: Any) -> bool:
        """Whether ``other`` has the same structure and equal leaves (shapes, dtypes, values; NaN == NaN).

        Leaves may be of different backends. See :func:`hedera.tree.all_equal`.
        """
        return _tree.all_equal(self, other)

    def all_close(
        self, other: Any, *, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
    ) -> bool:
        """Whether ``other`` has the same structure and shapes, and leaves close in value.

        Closeness is ``numpy.allclose``'s; see :func:`hedera.tree.all_close`.
        """
        for label, tolerance in (("rtol", rtol), ("atol", atol)):
            if not (tolerance.__class__ is float and 0.0 <= tolerance < float("inf")):
                _check_tolerance(label, tolerance)
        return _tree.all_close(self, other, rtol=rtol, atol=atol, equal_nan=equal_nan)

    # ---- repr ---------------------------------------------------------------------------

    def __repr__(self) -> str:
        return "\n".join(self._repr_lines("Container(", 0))

    def _repr_lines(self, head: str, depth: int) -> list[str]:
        if not self._data:
            return [head + ")"]
        pad = "  " * (depth + 1)
        lines = [head]
        for k, v in self._data.items():
            if isinstance(v, Container):
                lines.extend(v._repr_lines(f"{pad}{k}: Container(", depth + 1))
            else:
                lines.append(f"{pad}{k}: {_leaf_repr(v)}")
        lines.append("  " * depth + ")")
        return lines


def _require_array(path: str, x: Any) -> Any:
    if backend_name_of_type(type(x)) is None or not hasattr(x, "shape"):
        raise NotAnArrayError(f"at key {path!r}: expected an array, got {type(x).__name__}")
    return x


_REPR_MAX_VALUES = 8


def _leaf_repr(x: Any) -> str:
    """``float32[3, 4] (torch)``, followed by the values when there are at most eight."""
    backend = backend_name_of_type(type(x))
    if backend is None or not hasattr(x, "shape"):
        text = repr(x)
        return text if len(text) <= 80 else text[:77] + "..."
    try:
        dtype = _dtype_of(x).name
    except Exception:
        dtype = str(x.dtype)
    shape = tuple(x.shape)
    text = f"{dtype}[{', '.join(str(s) for s in shape)}] ({backend})"
    try:
        size = 1
        for s in shape:
            size *= int(s)
        if size <= _REPR_MAX_VALUES:
            values = _tree._numpy_leaf(x)
            text += " " + " ".join(str(values).split())
    except Exception:  # a tracer, a symbolic shape: no concrete values to show
        pass
    return text


# ---- arithmetic ------------------------------------------------------------------------


def _zip_op(fname: str, op: Callable[[Any, Any], Any], a: Any, b: Any, path: str) -> Any:
    """``op`` leaf by leaf; a Container on either side is matched by key, anything else broadcasts."""
    if isinstance(a, Container):
        if isinstance(b, Container):
            if a._data.keys() != b._data.keys():
                left = [k for k in a._data if k not in b._data]
                right = [k for k in b._data if k not in a._data]
                raise StructureError(
                    f"{fname}: the Containers' keys differ at {path or '<root>'!r}: "
                    f"only in the left: {left}, only in the right: {right}"
                )
            return Container._make(
                a._data, [_zip_op(fname, op, v, b._data[k], _join(path, k)) for k, v in a._data.items()]
            )
        return Container._make(
            a._data, [_zip_op(fname, op, v, b, _join(path, k)) for k, v in a._data.items()]
        )
    if isinstance(b, Container):
        return Container._make(
            b._data, [_zip_op(fname, op, a, v, _join(path, k)) for k, v in b._data.items()]
        )
    try:
        return op(a, b)
    except HederaError as e:
        raise _with_path(e, path) from e


def _unary_op(fname: str, op: Callable[[Any], Any], c: Container, path: str) -> Container:
    out = []
    for k, v in c._data.items():
        p = _join(path, k)
        if isinstance(v, Container):
            out.append(_unary_op(fname, op, v, p))
            continue
        try:
            out.append(op(v))
        except HederaError as e:
            raise _with_path(e, p) from e
    return Container._make(c._data, out)


def _binary(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    op = getattr(_hd, name)

    def forward(self: Container, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return _zip_op(name, op, self, other, "")

    def reflected(self: Container, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return _zip_op(name, op, other, self, "")

    forward.__doc__ = f"Element-wise ``hd.{name}`` of the leaves (see the module docstring)."
    reflected.__doc__ = forward.__doc__
    return forward, reflected


def _unary(name: str) -> Callable[[Container], Container]:
    op = getattr(_hd, name)

    def method(self: Container) -> Container:
        return _unary_op(name, op, self, "")

    method.__doc__ = f"Element-wise ``hd.{name}`` of the leaves."
    return method


_BINARY = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "matmul": "matmul",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}  # fmt: skip
_COMPARE = {
    "lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
    "eq": "equal", "ne": "not_equal",
}  # fmt: skip
_UNARY = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}

for _dunder, _fname in _BINARY.items():
    _fwd, _rev = _binary(_fname)
    setattr(Container, f"__{_dunder}__", _fwd)
    setattr(Container, f"__r{_dunder}__", _rev)
for _dunder, _fname in _COMPARE.items():
    setattr(Container, f"__{_dunder}__", _binary(_fname)[0])
for _dunder, _fname in _UNARY.items():
    setattr(Container, f"__{_dunder}__", _unary(_fname))
del _dunder, _fname, _fwd, _rev


# ---- pytree registration ---------------------------------------------------------------


def _optree_flatten(c: Container) -> tuple[list[Any], tuple[str, ...], tuple[str, ...]]:
    keys = tuple(c._data)
    return list(c._data.values()), keys, keys


def _register_optree(module: ModuleType) -> None:
    module.register_pytree_node(
        Container,
        _optree_flatten,
        lambda keys, values: Container._make(keys, values),
        path_entry_type=module.MappingEntry,
        namespace=_tree.NAMESPACE,
    )


when_imported("optree", _register_optree)  # hedera's first tree operation imports optree
_tree.register_unordered_mapping(Container)  # its key order does not count in comparisons


_new_object = object.__new__
_set_data = Container.__dict__["_data"].__set__  # the slot's own setter (Container.__setattr__ refuses)


def _jax_unflatten(keys: tuple[str, ...], values: Any) -> Container:
    # jax calls this for every Container node of a jitted function's outputs (and flatten for its
    # inputs) on every call: the slot set directly, no second Python call (0.4 us less per node)
    c = _new_object(Container)
    _set_data(c, dict(zip(keys, values, strict=True)))
    return c


def _jax_flatten(c: Container) -> tuple[Any, tuple[str, ...]]:
    return c._data.values(), tuple(c._data)  # jax iterates the children: the dict's view does


def _register_jax() -> None:
    from jax import tree_util as jtu

    try:
        jtu.register_pytree_with_keys(
            Container,
            lambda c: ([(jtu.DictKey(k), v) for k, v in c._data.items()], tuple(c._data)),
            _jax_unflatten,
            flatten_func=_jax_flatten,
        )
    except ValueError:  # already registered (a second hedera import in one process, say)
        pass


def _register_torch() -> None:
    from torch.utils import _pytree as tp

    if Container in tp.SUPPORTED_NODES:  # already registered (a second hedera import, say)
        return
    tp.register_pytree_node(
        Container,
        lambda c: (list(c._data.values()), list(c._data)),
        lambda values, keys: Container._make(keys, values),
        serialized_type_name="hedera.Container",
        flatten_with_keys_fn=lambda c: ([(tp.MappingKey(k), v) for k, v in c._data.items()], list(c._data)),
    )


def _refuse_tensor_conversion(value: Any, dtype: Any = None, name: Any = None, as_ref: bool = False) -> Any:
    raise TypeError(
        "a hedera Container is not a tensor; convert its leaves (c.map(tf.convert_to_tensor)) instead"
    )


def _register_tensorflow() -> None:
    # Without this, tf.convert_to_tensor(container) would read the Container as a sequence of its
    # keys (a string tensor), and `tf_tensor + container` would fail instead of deferring to
    # Container.__radd__. tf.nest / tf.function need nothing: a Container is a Mapping.
    import tensorflow as tf

    tf.register_tensor_conversion_function(Container, _refuse_tensor_conversion)


def _register_with_imported_optree() -> None:
    # The program imported optree itself (hedera's own first use registers through
    # when_imported): register now, so that optree.tree_flatten(c, namespace="hedera") works.
    ensure_imported("optree")


# framework module -> its registration, until done
_PENDING: dict[str, Callable[[], None]] = {
    "optree": _register_with_imported_optree,
    "jax": _register_jax,
    "torch": _register_torch,
    "tensorflow": _register_tensorflow,
}
_LOCK = _thread.allocate_lock()  # threading.Lock, without importing threading


def register_pytree_nodes() -> None:
    """Register :class:`Container` with the frameworks that are imported.

    With JAX and PyTorch as a pytree node; with TensorFlow as a type that
    ``tf.convert_to_tensor`` refuses (so ``tf_tensor + container`` defers to the
    Container). Runs by itself when hedera's backend for the framework loads and
    when a Container is created while the framework is imported; never imports
    a framework. Idempotent.
    """
    if not any(name in sys.modules for name in _PENDING):
        return
    with _LOCK:
        for name in [n for n in _PENDING if n in sys.modules]:
            _PENDING[name]()
            del _PENDING[name]


for _backend in ("jax", "torch", "tensorflow"):
    on_backend_load(_backend, register_pytree_nodes)
del _backend
register_pytree_nodes()


def _require_callable(method: str, fn: Any) -> None:
    if not callable(fn):
        raise ArgumentTypeError(f"Container.{method}: fn must be a callable, got {type(fn).__name__} {fn!r}")


def _check_tolerance(name: str, value: Any) -> None:
    """A tolerance of :meth:`Container.all_close`: a finite real number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(f"Container.all_close: {name} must be a finite number >= 0, got {value!r}")
    if not 0.0 <= value < float("inf"):
        raise InvalidArgumentError(f"Container.all_close: {name} must be a finite number >= 0, got {value!r}")
