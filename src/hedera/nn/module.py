"""``hd.nn.Module``: PyTorch's module idiom over native arrays, with a pure functional core.

A module owns its parameters and buffers (native arrays of one backend, kept in
:class:`hedera.Container` objects) and its submodules. Assigning them as
attributes registers them, as in PyTorch::

    class MLP(hd.nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = hd.nn.Linear(4, 32)     # a submodule
            self.out = hd.nn.Linear(32, 3)
            self.scale = hd.ones(3)               # an array: a parameter
            self.register_buffer("offset", hd.zeros(3))   # a buffer (not trained)

        def forward(self, x):
            return self.out(hd.nn.functional.relu(self.hidden(x))) * self.scale + self.offset

Two ways to call it:

* ``model(x)`` runs ``forward`` with the module's own parameters (and updates its
  buffers in place: batch-norm running statistics in training mode);
* ``model.apply(params, x)`` runs it with the parameters ``params`` (a Container
  shaped like ``model.parameters()``) and touches nothing: the pure form to use
  under ``hd.grad``, ``hd.jit``, ``jax.jit``, ``torch.func``... It works on a
  shallow copy of the module tree holding the given arrays, so the traced values
  never leak into the module. Compile ``lambda p, x: model.apply(p, x)``, not
  ``model``, whose arrays a compiler would capture as constants.

Conventions
-----------
* **Parameters vs buffers.** A native array assigned as an attribute is a
  parameter; :meth:`Module.register_buffer` declares a buffer (state that is
  saved but not trained), and later assignments to that name update the buffer.
  ``None`` may stand for an absent parameter (``bias=False``).
* **Names.** ``parameters()``, ``buffers()`` and ``state()`` are Containers
  nested by attribute name (``"conv1/weight"``; ``Sequential`` children are
  ``"0"``, ``"1"``, ...). Modules without parameters do not appear.
* **Lazy shapes.** A layer whose input size is unknown at construction (``in_features=None``)
  creates its parameters on its first call, on the backend, device and floating
  dtype of that input. Build it (call it once, or :meth:`Module.initialize`)
  before ``apply``, ``hd.jit`` or ``load_state``.
* **Randomness.** Layers that draw (``Dropout``) use ``apply(..., rng=key)``'s key
  (split once per draw) when given; otherwise the stateful generator of the
  input's backend, which ``hd.jit`` refuses: pass ``rng`` under compilation.
* **Backends.** A module's arrays live on one backend; ``to_backend`` moves them.
  ``load_state`` converts loaded arrays to the backend and device of the arrays
  they replace.
* **With native optimizers.** ``parameters()`` returns the module's own array
  objects (no copies): hand them to ``torch.optim`` after
  ``p.requires_grad_()`` and its in-place updates are the module's (docs/nn.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import hedera as hd
from hedera import Container
from hedera.errors import InvalidArgumentError, StateMismatchError, StructureError
from hedera.helpers import explain_failure
from hedera.typing import Array

__all__ = ["Module", "ModuleList", "Sequential", "is_array"]


#: whether ``x`` is a native array of a backend hedera knows (Python numbers are not): ``hd.is_array``
is_array = hd.is_array


def _describe(x: Array) -> str:
    """``float32[3, 4]``: a leaf's dtype and shape, for error messages."""
    try:
        dtype = hd.dtype(x).name
    except Exception:
        dtype = str(getattr(x, "dtype", type(x).__name__))
    return f"{dtype}[{', '.join(str(d) for d in tuple(x.shape))}]"


def _join(prefix: str, name: str) -> str:
    return f"{prefix}/{name}" if prefix else name


def _wrap(entries: dict[str, Any]) -> Container:
    """A Container holding ``entries`` itself (a dict this module just built: not copied, not checked)."""
    c = object.__new__(Container)
    object.__setattr__(c, "_data", entries)
    return c


class _KeyStream:
    """A random key shared by a bound module tree; each :meth:`next` splits off a fresh key."""

    __slots__ = ("key",)

    def __init__(self, key: Array) -> None:
        self.key = key

    def next(self) -> Array:
        self.key, sub = hd.random.split(self.key)
        return sub


class Module:
    """Base class of hedera's layers and models (PyTorch's idiom, native arrays, a pure core).

    Subclasses call ``super().__init__()`` first, assign parameters (arrays),
    buffers (:meth:`register_buffer`) and submodules as attributes, and define
    :meth:`forward`. Layers whose parameter shapes depend on their input define
    :meth:`build` and set ``self.built = False``.

    Attributes
    ----------
    training : bool
        ``True`` (the default) in training mode, ``False`` after :meth:`eval`.
        Dropout and batch normalisation behave differently in the two.

    See the module docstring of :mod:`hedera.nn.module` for the conventions.
    """

    training: bool
    built: bool = True

    def __init__(self) -> None:
        d = self.__dict__
        d["_parameters"] = Container()
        d["_buffers"] = Container()
        d["_modules"] = {}
        d["training"] = True
        d["_rng"] = None

    # ---- registration ---------------------------------------------------------------------

    def _require_init(self, name: str) -> dict:
        d = self.__dict__
        if "_parameters" not in d:
            raise AttributeError(
                f"cannot assign {name!r} on {type(self).__name__} before Module.__init__() is called; "
                "call super().__init__() first in __init__"
            )
        return d

    def __setattr__(self, name: str, value: Any) -> None:
        d = self._require_init(name)
        params, buffers, modules = d["_parameters"], d["_buffers"], d["_modules"]
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Module) for v in value):
            value = ModuleList(value)
        if isinstance(value, Module):
            self._forget(name)
            modules[name] = value
        elif name in buffers:
            if value is not None and not is_array(value):
                raise InvalidArgumentError(
                    f"{type(self).__name__}: buffer {name!r} must be an array or None, "
                    f"got {type(value).__name__}"
                )
            buffers[name] = value
        elif is_array(value) or (value is None and name in params):
            self._forget(name)
            params[name] = value
        else:
            self._forget(name)
            object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        d = self.__dict__
        for store in (d["_parameters"], d["_buffers"], d["_modules"]):
            if name in store:
                del store[name]
        d.pop(name, None)

    def __getattr__(self, name: str) -> Any:
        # every layer reads its weights through here at every call: the stores' plain dicts are
        # searched (a Container's own `in` would go through Mapping's KeyError path on a miss)
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            table = d.get(store)
            if table is None:
                continue
            entries = table._data if type(table) is Container else table
            if name in entries:
                return entries[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if name in d[store]:
                del d[store][name]
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        d = self.__dict__
        return sorted(
            set(super().__dir__()) | set(d["_parameters"]) | set(d["_buffers"]) | set(d["_modules"])
        )

    def register_parameter(self, name: str, value: Array | None) -> None:
        """Register ``value`` (an array, or ``None`` for an absent parameter) as parameter ``name``."""
        if value is not None and not is_array(value):
            raise InvalidArgumentError(
                f"{type(self).__name__}.register_parameter: {name!r} must be an array or None, "
                f"got {type(value).__name__}"
            )
        self._require_init(name)
        self._forget(name)
        self.__dict__["_parameters"][name] = value

    def register_buffer(self, name: str, value: Array | None) -> None:
        """Register ``value`` as buffer ``name``: state saved with the module but not trained.

        Later assignments ``self.name = array`` update the buffer.
        """
        if value is not None and not is_array(value):
            raise InvalidArgumentError(
                f"{type(self).__name__}.register_buffer: {name!r} must be an array or None, "
                f"got {type(value).__name__}"
            )
        self._require_init(name)
        self._forget(name)
        self.__dict__["_buffers"][name] = value

    def register_module(self, name: str, module: Module) -> None:
        """Register ``module`` as submodule ``name`` (the same as ``self.name = module``)."""
        if not isinstance(module, Module):
            raise InvalidArgumentError(
                f"{type(self).__name__}.register_module: {name!r} must be a Module, "
                f"got {type(module).__name__}"
            )
        setattr(self, name, module)

    # ---- calling ----------------------------------------------------------------------------

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; subclasses define it."""
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def build(self, *args: Any, **kwargs: Any) -> None:
        """Create the parameters from the first call's inputs (layers with lazy shapes override it)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            if not self.built:
                self.build(*args, **kwargs)
                self.built = True
            return self.forward(*args, **kwargs)
        except Exception as e:  # free until it raises: then name the layer and the argument
            explain_failure(self.forward, type(self).__name__, e, args, kwargs)
            raise

    def initialize(self, *example_args: Any, **example_kwargs: Any) -> Module:
        """Build every lazy layer by running the model once on example inputs, in evaluation mode.

        Nothing else changes (buffers are not updated, no random draws are
        consumed). Returns ``self``.
        """
        modes = [(m, m.training) for m in self.modules()]
        self.eval()
        try:
            self(*example_args, **example_kwargs)
        finally:
            for m, mode in modes:
                m.__dict__["training"] = mode
        return self

    def apply(
        self,
        params: Mapping[str, Any],
        *args: Any,
        buffers: Mapping[str, Any] | None = None,
        training: bool | None = None,
        rng: Array | None = None,
        return_buffers: bool = False,
        **kwargs: Any,
    ) -> Any:
        """``forward(*args, **kwargs)`` with the given parameters: the pure form of ``module(...)``.

        ``apply`` in flax's meaning (``model.apply(variables, x)``), not PyTorch's, whose
        ``Module.apply(fn)`` maps ``fn`` over the submodules: this is what PyTorch calls
        ``torch.func.functional_call(module, params, args)``.

        Parameters
        ----------
        params : Container
            The parameters, shaped like :meth:`parameters` (the same nested names;
            arrays of any shape: traced, batched or differentiated values are fine).
        *args, **kwargs
            The inputs of :meth:`forward`.
        buffers : Container, optional
            The buffers, shaped like :meth:`buffers`. Default: the module's own.
        training : bool, optional
            Run in training (``True``) or evaluation mode; default: the module's modes.
        rng : key array, optional
            A random key (``hd.random.key``) for the layers that draw (dropout): each
            draw splits a fresh key from it. Required for those under ``hd.jit``.
        return_buffers : bool
            Also return the buffers after the call (batch-norm running statistics
            updated in training mode).

        Returns
        -------
        The output of ``forward``; ``(output, buffers)`` with ``return_buffers``.

        Raises
        ------
        StructureError
            ``params`` (or ``buffers``) lacks a name the module has, or has one it
            lacks; or a layer is not built yet.

        Examples
        --------
        >>> import hedera as hd, torch
        >>> with hd.use_backend("torch"):
        ...     layer = hd.nn.Linear(3, 2, key=0)
        >>> loss = lambda p, x: hd.sum(layer.apply(p, x) ** 2)
        >>> grads = hd.grad(loss)(layer.parameters(), torch.ones(4, 3))
        >>> grads.weight.shape, grads.bias.shape
        (torch.Size([3, 2]), torch.Size([2]))
        """
        stream = None if rng is None else _KeyStream(rng)
        bound = self._bind(params, buffers, training, stream, "")
        out = bound(*args, **kwargs)
        return (out, bound.buffers()) if return_buffers else out

    def _bind(
        self,
        params: Mapping[str, Any] | None,
        buffers: Mapping[str, Any] | None,
        training: bool | None,
        stream: _KeyStream | None,
        path: str,
    ) -> Module:
        """A shallow copy of this module tree holding ``params`` and ``buffers``."""
        d = self.__dict__
        if not self.built:
            raise StructureError(
                f"{type(self).__name__} at {path or '<root>'!r} is not built yet "
                "(its input size is unknown): "
                "call the model once on an example input (or model.initialize(x)) before apply"
            )
        params = Container() if params is None else params
        modules = d["_modules"]
        own_params = _take(type(self).__name__, path, "params", params, d["_parameters"], modules)
        own_buffers = (
            _wrap(dict(d["_buffers"]._data))  # flat: a shallow copy
            if buffers is None
            else _take(type(self).__name__, path, "buffers", buffers, d["_buffers"], modules)
        )
        clone = object.__new__(type(self))
        cd = clone.__dict__
        cd.update(d)
        cd["_parameters"] = own_params
        cd["_buffers"] = own_buffers
        cd["_rng"] = stream
        if training is not None:
            cd["training"] = training
        if modules:
            cd["_modules"] = {
                name: child._bind(
                    _child(params, name),
                    None if buffers is None else _child(buffers, name),
                    training,
                    stream,
                    _join(path, name),
                )
                for name, child in modules.items()
            }
        else:
            cd["_modules"] = {}
        return clone

    def next_key(self) -> Array | None:
        """A fresh random key from ``apply(..., rng=key)``, or ``None`` (use the stateful generator)."""
        stream = self.__dict__["_rng"]
        return None if stream is None else stream.next()

    # ---- modes ---------------------------------------------------------------------------------

    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode=True``) or evaluation mode on this module and its submodules."""
        for m in self.modules():
            m.__dict__["training"] = bool(mode)
        return self

    def eval(self) -> Module:
        """Set evaluation mode (``train(False)``): dropout off, batch norm uses its running statistics."""
        return self.train(False)

    # ---- traversal -------------------------------------------------------------------------

    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """``(path, module)`` for this module (path ``prefix``) and every submodule, depth first."""
        yield prefix, self
        for name, child in self.__dict__["_modules"].items():
            yield from child.named_modules(_join(prefix, name))

    def modules(self) -> Iterator[Module]:
        """This module and every submodule, depth first."""
        for _, m in self.named_modules():
            yield m

    def children(self) -> Iterator[Module]:
        """The direct submodules, in registration order."""
        return iter(self.__dict__["_modules"].values())

    def _collect(self, *stores: str) -> Container:
        # built as a dict and wrapped unchecked: parameters() runs once or more per training step
        out = {}
        d = self.__dict__
        for store in stores:
            for name, value in d[store]._data.items():
                if value is not None:
                    out[name] = value
        for name, child in d["_modules"].items():
            sub = child._collect(*stores)
            if len(sub._data):
                out[name] = sub
        return _wrap(out)

    def parameters(self) -> Container:
        """The trainable arrays, nested by attribute name in a Container: the module's own, not copies."""
        return self._collect("_parameters")

    def buffers(self) -> Container:
        """The buffers (untrained state: batch-norm statistics...), nested like :meth:`parameters`."""
        return self._collect("_buffers")

    def state(self) -> Container:
        """Parameters and buffers together, nested by module: what to ``hd.save`` and :meth:`load_state`.

        Examples
        --------
        >>> import hedera as hd
        >>> model = hd.nn.Sequential(hd.nn.Linear(2, 3, key=0), hd.nn.BatchNorm(3))
        >>> sorted(model.state().flatten_keys())
        ['0/bias', '0/weight', '1/bias', '1/running_mean', '1/running_var', '1/weight']
        """
        return self._collect("_parameters", "_buffers")

    def num_parameters(self) -> int:
        """The number of scalar parameters."""
        total = 0
        for x in hd.tree.leaves(self.parameters()):
            size = 1
            for s in x.shape:
                size *= int(s)
            total += size
        return total

    # ---- replacing arrays ------------------------------------------------------------------

    def _locate(self, path: str) -> tuple[Module, str]:
        *parents, name = path.split("/")
        module = self
        for part in parents:
            module = module.__dict__["_modules"][part]
        return module, name

    def _store_of(self, name: str) -> Container | None:
        d = self.__dict__
        if name in d["_parameters"]:
            return d["_parameters"]
        if name in d["_buffers"]:
            return d["_buffers"]
        return None

    def set_parameters(self, params: Mapping[str, Any]) -> None:
        """Replace the parameters by ``params`` (shaped like :meth:`parameters`), as they are.

        The fast path for training loops (optimizers' ``step``): names are
        checked, arrays are stored without conversion. Use :meth:`load_state`
        for checkpoints.
        """
        slots: list = []
        if _parameter_slots(self, params, slots):  # the names match: store them (no flattening)
            for store, name, value in slots:
                store[name] = value
            return
        flat = params.flatten_keys() if isinstance(params, Container) else Container(params).flatten_keys()
        expected = self.parameters().flatten_keys()
        if flat.keys() != expected.keys():
            missing = sorted(expected.keys() - flat.keys())
            extra = sorted(flat.keys() - expected.keys())
            raise StructureError(
                f"{type(self).__name__}.set_parameters: names differ: missing {missing}, unexpected {extra}"
            )
        for path, value in flat.items():
            module, name = self._locate(path)
            module.__dict__["_parameters"][name] = value

    def load_state(self, state: Mapping[str, Any], *, strict: bool = True) -> Module:
        """Load parameters and buffers from ``state``: a Container like :meth:`state` (``hd.load(path)``).

        Every array is checked against the one it replaces (name, shape, dtype)
        and converted to that array's backend and device, so a state saved from
        one backend loads into a module on any other. Returns ``self``.

        Parameters
        ----------
        state : Container or nested dict of arrays
        strict : bool
            Also require the names to match exactly (no missing, no unexpected ones).
            Shapes and dtypes of the names present are always checked.

        Raises
        ------
        StateMismatchError
            Listing every missing and unexpected name and every shape or dtype mismatch.
        """
        if not isinstance(state, Mapping):
            raise InvalidArgumentError(
                f"{type(self).__name__}.load_state: expected a Container of arrays, "
                f"got {type(state).__name__}"
            )
        given = (state if isinstance(state, Container) else Container(state)).flatten_keys()
        expected = self.state().flatten_keys()
        problems = []
        if strict:
            problems += [f"missing {p!r} ({_describe(expected[p])})" for p in expected if p not in given]
            problems += [
                f"unexpected {p!r}" + (f" ({_describe(v)})" if is_array(v) else f" (a {type(v).__name__})")
                for p, v in given.items()
                if p not in expected
            ]
        for path, old in expected.items():
            if path not in given:
                continue
            new = given[path]
            if not is_array(new):
                problems.append(f"{path!r}: expected an array {_describe(old)}, got a {type(new).__name__}")
                continue
            if tuple(new.shape) != tuple(old.shape):
                problems.append(
                    f"{path!r}: shape {tuple(new.shape)} in the state, {tuple(old.shape)} in the module"
                )
            if hd.dtype(new) != hd.dtype(old):
                problems.append(
                    f"{path!r}: dtype {hd.dtype(new).name} in the state, {hd.dtype(old).name} in the module"
                )
        unbuilt = [p or "<root>" for p, m in self.named_modules() if not m.built]
        if problems:
            note = (
                f"\n(not built yet, so without parameters: {unbuilt}; call the model once first)"
                if unbuilt
                else ""
            )
            raise StateMismatchError(
                f"{type(self).__name__}.load_state: the state does not fit the module "
                f"({len(problems)} problem{'s' if len(problems) > 1 else ''}):\n  "
                + "\n  ".join(problems)
                + note
            )
        for path, old in expected.items():
            if path in given:
                new = hd.asarray(
                    given[path], dtype=hd.dtype(old), backend=hd.backend_of(old), device=hd.device(old)
                )
                module, name = self._locate(path)
                module._store_of(name)[name] = new
        return self

    def _map_arrays(self, fn: Callable[[Array], Array]) -> None:
        """Replace every parameter and buffer by ``fn`` of it; all or nothing if ``fn`` raises."""
        updates = []
        for m in self.modules():
            d = m.__dict__
            for store in (d["_parameters"], d["_buffers"]):
                updates += [(store, name, fn(value)) for name, value in store.items() if value is not None]
        for store, name, value in updates:
            store[name] = value

    def to_backend(self, backend: str, device: Any = None) -> Module:
        """Move every parameter and buffer to ``backend`` (and ``device``), in place; returns ``self``.

        The values are copied exactly (``hd.asarray``), so the model computes the
        same function on its new backend.
        """
        self._map_arrays(lambda x: hd.asarray(x, dtype=hd.dtype(x), backend=backend, device=device))
        return self

    def astype(self, dtype: Any) -> Module:
        """Cast the floating-point parameters and buffers to ``dtype``, in place; returns ``self``."""
        self._map_arrays(lambda x: hd.astype(x, dtype) if hd.isdtype(hd.dtype(x), "real floating") else x)
        return self

    # ---- repr --------------------------------------------------------------------------------

    def extra_repr(self) -> str:
        """The text between the parentheses of this module's ``repr`` (layers override it)."""
        return ""

    def __repr__(self) -> str:
        head = f"{type(self).__name__}({self.extra_repr()}"
        children = self.__dict__["_modules"]
        if not children:
            return head + ")"
        lines = [head]
        for name, child in children.items():
            text = repr(child).replace("\n", "\n  ")
            lines.append(f"  ({name}): {text}")
        return "\n".join(lines) + "\n)"


def _parameter_slots(module: Module, params: Any, out: list) -> bool:
    """Whether ``params`` has exactly the parameter names of ``module``'s tree (Containers all the
    way); if so ``out`` gets ``(store dict, name, array)`` for each. False sends
    :meth:`Module.set_parameters` down its flattening path, which names the mismatch."""
    if type(params) is not Container:
        return False
    given = params._data
    d = module.__dict__
    store = d["_parameters"]._data
    matched = 0
    for name, value in store.items():
        if value is None:
            continue
        new = given.get(name)
        if new is None or isinstance(new, Mapping):
            return False
        out.append((store, name, new))
        matched += 1
    for name, child in d["_modules"].items():
        sub = given.get(name)
        if sub is None:
            if len(child.parameters()):
                return False
            continue
        if not _parameter_slots(child, sub, out):
            return False
        matched += 1
    return matched == len(given)


def _child(tree: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    if type(tree) is Container:  # the common case, without the Mapping ABC checks (apply runs per step)
        value = tree._data.get(name)
        return value if type(value) is Container or isinstance(value, Mapping) else None
    value = tree.get(name) if isinstance(tree, Mapping) else None
    return value if isinstance(value, Mapping) else None


def _take(
    owner: str, path: str, what: str, given: Mapping[str, Any], own: Container, modules: Mapping[str, Module]
) -> Container:
    """The entries of ``given`` for the names in ``own`` (``None`` ones stay ``None``), checking the names."""
    if type(given) is Container:
        entries: Mapping[str, Any] = given._data
    elif isinstance(given, Mapping):
        entries = given
    else:
        raise StructureError(
            f"apply: {what} at {path or '<root>'!r} must be a Container, got {type(given).__name__}"
        )
    out = {}
    missing = []
    found = 0
    for name, value in own._data.items():
        if value is None:
            out[name] = None
        elif name in entries:
            out[name] = entries[name]
            found += 1
        else:
            missing.append(name)
    # every other entry must be a submodule's: counted first, listed only when one is not
    if not missing and found + (sum(1 for m in modules if m in entries) if modules else 0) == len(entries):
        return Container._make(out.keys(), out.values())
    extra = [k for k in entries if k not in own._data and k not in modules]
    if missing or extra:
        raise StructureError(
            f"apply: the {what} do not fit {owner} at {path or '<root>'!r}: "
            f"missing {missing}, unexpected {extra} (expected the names of "
            f"model.{'parameters' if what == 'params' else what}())"
        )
    return Container._make(out.keys(), out.values())


class ModuleList(Module):
    """An indexable list of modules, registered as submodules ``"0"``, ``"1"``, ...

    Assigning a list or tuple of modules to a Module attribute makes one.
    """

    def __init__(self, modules: Any = ()) -> None:
        super().__init__()
        for m in modules:
            self.append(m)

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end; returns ``self``."""
        self.register_module(str(len(self)), module)
        return self

    def __len__(self) -> int:
        return len(self.__dict__["_modules"])

    def __iter__(self) -> Iterator[Module]:
        return iter(self.__dict__["_modules"].values())

    def __getitem__(self, index: int | slice) -> Any:
        items = list(self.__dict__["_modules"].values())
        if isinstance(index, slice):
            return type(self)(items[index])
        return items[index]


class Sequential(ModuleList):
    """Modules called in order, each on the previous one's output.

    Parameters
    ----------
    *modules : Module
        The layers, named ``"0"``, ``"1"``, ...; or a single mapping from names to modules.

    Examples
    --------
    >>> import numpy as np, hedera as hd
    >>> model = hd.nn.Sequential(hd.nn.Linear(4, 8, key=0), hd.nn.ReLU(), hd.nn.Linear(8, 2, key=1))
    >>> model(np.ones((5, 4), np.float32)).shape
    (5, 2)
    >>> sorted(model.parameters().flatten_keys())
    ['0/bias', '0/weight', '2/bias', '2/weight']
    """

    def __init__(self, *modules: Module | Mapping[str, Module]) -> None:
        if len(modules) == 1 and isinstance(modules[0], Mapping):
            Module.__init__(self)
            for name, m in modules[0].items():
                self.register_module(name, m)
        else:
            super().__init__(modules)

    def __getitem__(self, index: int | slice | str) -> Any:
        if isinstance(index, str):
            return self.__dict__["_modules"][index]
        return super().__getitem__(index)

    def forward(self, x: Any) -> Any:
        """``x`` through every module in order."""
        for m in self.__dict__["_modules"].values():
            x = m(x)
        return x
