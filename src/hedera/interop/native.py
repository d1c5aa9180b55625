"""hedera models as native modules: ``to_torch``, ``to_keras``, ``to_flax``.

Each wrapper runs the hedera module's pure form, ``module.apply(params, *inputs, buffers=...,
training=..., return_buffers=True)``, with the host framework's own variables as ``params`` and
``buffers``, so the host's optimizers, checkpoints and compilers treat it like one of theirs.

Who owns the arrays
-------------------
* ``to_torch``: **shared, both ways.** The ``nn.Parameter``\\ s and buffers *are* the hedera
  module's arrays (the same tensor objects): in-place changes from either side (``torch.optim``
  steps, ``load_state_dict``, ``.to(device)``, batch-norm statistics) are seen by both. Replacing
  an array on the hedera side (``set_parameters``, ``load_state``, ``hd.optim``'s ``step``) is not
  seen until :meth:`HederaTorchModule.pull` copies the new values into the torch module.
* ``to_keras`` and ``to_flax``: **copies, one way.** The Keras variables / flax variables start
  as copies of the module's arrays and are the truth afterwards (Keras and flax own their state);
  ``layer.write_to(module)`` (Keras) or ``hd.interop.native.flax_variables_to(module, variables)``
  write trained values back into the hedera module.

None of them imports a framework until it is called.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

import hedera as hd
from hedera import Container
from hedera.errors import InvalidArgumentError

# (through hd.nn: importing hedera.nn.module before the lazy hd.nn has loaded would load it twice)
Module = hd.nn.Module

__all__ = ["flax_variables_to", "to_flax", "to_keras", "to_torch"]


def _require_module(fn: str, module: Any) -> Module:
    if not isinstance(module, Module):
        raise InvalidArgumentError(f"{fn}: module must be a hedera.nn.Module, got {type(module).__name__}")
    unbuilt = [p or "<root>" for p, m in module.named_modules() if not m.built]
    if unbuilt:
        raise InvalidArgumentError(
            f"{fn}: the module has layers that are not built yet ({unbuilt}); call it once on an "
            "example input (or module.initialize(x)) first"
        )
    return module


def _nested_dict(c: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _nested_dict(v) if isinstance(v, Mapping) else v for k, v in c.items()}


# ---- torch ---------------------------------------------------------------------------------------------


def to_torch(module: Module) -> Any:
    """The hedera module ``module`` as a ``torch.nn.Module`` sharing its arrays.

    Parameters
    ----------
    module : hedera.nn.Module
        A built module whose arrays are on the torch backend (``module.to_backend("torch")``).

    Returns
    -------
    HederaTorchModule
        A ``torch.nn.Module``: submodules mirror the hedera module tree (``state_dict`` keys are
        ``"0.weight"``, ...), every floating parameter is an ``nn.Parameter`` (the very object the
        hedera module holds from then on), buffers are registered buffers. ``forward(*inputs)``
        runs ``module.apply`` in the wrapper's ``training`` mode and writes updated buffers back
        in place. ``torch.optim``, ``state_dict``/``load_state_dict``, ``torch.compile``,
        ``torch.func.functional_call`` and ``.to(device)`` work as on any torch module.

    Raises
    ------
    InvalidArgumentError
        ``module`` is not a built hedera module, or has arrays of another backend.

    Examples
    --------
    >>> import torch, hedera as hd
    >>> with hd.use_backend("torch"):
    ...     model = hd.nn.Sequential(hd.nn.Linear(3, 4, key=0), hd.nn.ReLU(), hd.nn.Linear(4, 1, key=1))
    >>> net = hd.interop.to_torch(model)
    >>> sorted(net.state_dict())
    ['0.bias', '0.weight', '2.bias', '2.weight']
    >>> opt = torch.optim.SGD(net.parameters(), lr=0.1)
    >>> net(torch.ones(2, 3)).sum().backward(); opt.step()
    >>> model.parameters()["0"]["weight"] is net.get_parameter("0.weight")
    True
    """
    _require_module("to_torch", module)
    foreign = sorted(
        {hd.backend_of(x) for x in hd.tree.leaves(module.state()) if hd.backend_of(x) != "torch"}
    )
    if foreign:
        raise InvalidArgumentError(
            f"to_torch: the module's arrays are on {foreign}, not torch; "
            'move them first with module.to_backend("torch")'
        )
    return _torch_class()(module)


@functools.cache
def _torch_class() -> type:
    import torch

    class HederaTorchModule(torch.nn.Module):
        """A hedera module as a ``torch.nn.Module`` (made by :func:`hedera.interop.to_torch`)."""

        def __init__(self, module: Module) -> None:
            super().__init__()
            object.__setattr__(self, "_hedera", module)
            self._param_slots: list[tuple[str, torch.nn.Module, str]] = []
            self._buffer_slots: list[tuple[str, torch.nn.Module, str]] = []
            holders = {"": self}
            for path, sub in module.named_modules():
                holder = holders.get(path)
                if holder is None:
                    parent, _, name = path.rpartition("/")
                    holder = torch.nn.Module()
                    holders[parent].add_module(name, holder)
                    holders[path] = holder
                self._adopt(sub, holder, path)

        def _adopt(self, sub: Module, holder: torch.nn.Module, path: str) -> None:
            d = sub.__dict__
            for name, value in list(d["_parameters"].items()):
                if value is None:
                    continue
                if not isinstance(value, torch.nn.Parameter):
                    value = torch.nn.Parameter(value, requires_grad=value.is_floating_point())
                    d["_parameters"][name] = value  # the hedera module now holds the Parameter
                holder.register_parameter(name, value)
                self._param_slots.append((_path(path, name), holder, name))
            for name, value in d["_buffers"].items():
                if value is not None:
                    holder.register_buffer(name, value)
                    self._buffer_slots.append((_path(path, name), holder, name))

        @property
        def module(self) -> Module:
            """The wrapped hedera module (holding this module's Parameters and buffers)."""
            return self._hedera

        def _collect(self, slots: list[tuple[str, torch.nn.Module, str]], kind: str) -> Container:
            get = getattr if kind == "parameter" else _buffer_of
            return Container.unflatten_keys({path: get(holder, name) for path, holder, name in slots})

        def forward(self, *inputs: Any, **kwargs: Any) -> Any:
            params = self._collect(self._param_slots, "parameter")
            buffers = self._collect(self._buffer_slots, "buffer")
            out, new_buffers = self._hedera.apply(
                params, *inputs, buffers=buffers, training=self.training, return_buffers=True, **kwargs
            )
            if self.training and self._buffer_slots:
                self._write_buffers(new_buffers)
            return out

        def _write_buffers(self, new: Container) -> None:
            flat = new.flatten_keys()
            with torch.no_grad():
                for path, holder, name in self._buffer_slots:
                    old, value = _buffer_of(holder, name), flat[path]
                    if value is not old:
                        old.copy_(value)

        def pull(self) -> HederaTorchModule:
            """Adopt arrays the hedera side replaced (``set_parameters``, ``load_state``, ``hd.optim``).

            Copies their values into this module's Parameters and buffers in place and gives the
            hedera module those objects back, so both sides share arrays again. Returns ``self``.
            """
            params, buffers = self._hedera.parameters().flatten_keys(), self._hedera.buffers().flatten_keys()
            with torch.no_grad():
                for slots, current in ((self._param_slots, params), (self._buffer_slots, buffers)):
                    for path, holder, name in slots:
                        mine = getattr(holder, name)
                        if current[path] is not mine:
                            mine.copy_(current[path])
            self._reinstall()
            return self

        def _reinstall(self) -> None:
            flat = {path: getattr(holder, name) for path, holder, name in self._param_slots}
            self._hedera.set_parameters(Container.unflatten_keys(flat))
            for path, holder, name in self._buffer_slots:
                target, attr = self._hedera._locate(path)
                target.__dict__["_buffers"][attr] = getattr(holder, name)

        def _apply(self, fn: Any, recurse: bool = True) -> HederaTorchModule:
            # .to(), .double(), .cuda(): torch may swap Parameter/buffer objects; keep the hedera side on them
            out = super()._apply(fn, recurse)
            self._reinstall()
            return out

        def extra_repr(self) -> str:
            return f"hedera: {type(self._hedera).__name__}"

    def _buffer_of(holder: torch.nn.Module, name: str) -> Any:
        return holder._buffers[name]

    return HederaTorchModule


def _path(prefix: str, name: str) -> str:
    return f"{prefix}/{name}" if prefix else name


# ---- keras ---------------------------------------------------------------------------------------------

#: the size that stands in for Keras' unknown (batch) dimensions while it infers output shapes
_FREE_DIM = 97


def to_keras(module: Module, *, name: str | None = None) -> Any:
    """The hedera module ``module`` as a Keras 3 layer whose weights are Keras variables.

    Parameters
    ----------
    module : hedera.nn.Module
        A built module (any backend: its arrays are copied into the variables).
    name : str, optional
        The layer's name.

    Returns
    -------
    keras.layers.Layer
        ``call(*inputs, training=None)`` runs ``module.apply`` on the backend Keras runs
        (TensorFlow or JAX). Parameters are trainable variables named by their paths
        (``"0.weight"``), buffers non-trainable ones (updated in training mode, through
        ``assign``). Train it in ``Model.fit``; ``layer.write_to(module)`` copies the trained
        values back into a hedera module.

    Examples
    --------
    >>> import keras, numpy as np, hedera as hd
    >>> layer = hd.interop.to_keras(hd.nn.Linear(3, 2, key=0))
    >>> sorted(w.name for w in layer.trainable_weights)
    ['bias', 'weight']
    """
    _require_module("to_keras", module)
    return _keras_class()(module, name=name)


@functools.cache
def _keras_class() -> type:
    import keras

    class HederaKerasLayer(keras.layers.Layer):
        """A hedera module as a Keras layer (made by :func:`hedera.interop.to_keras`)."""

        def __init__(self, module: Module, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self._hedera_module = module
            self._param_vars = self._variables_of(module.parameters(), trainable=True)
            self._buffer_vars = self._variables_of(module.buffers(), trainable=False)
            self.built = True

        def _variables_of(self, tree: Container, trainable: bool) -> dict[str, Any]:
            out = {}
            for path, value in tree.flatten_keys().items():
                array = hd.to_numpy(value)
                out[path] = self.add_weight(
                    shape=array.shape,
                    dtype=str(array.dtype),
                    initializer=lambda shape, dtype=None, a=array: a,
                    trainable=trainable,
                    name=path.replace("/", "."),
                )
            return out

        @staticmethod
        def _values(variables: dict[str, Any]) -> Container:
            return Container.unflatten_keys({p: keras.ops.convert_to_tensor(v) for p, v in variables.items()})

        def call(self, *inputs: Any, training: bool | None = None) -> Any:
            out, new_buffers = self._hedera_module.apply(
                self._values(self._param_vars),
                *inputs,
                buffers=self._values(self._buffer_vars),
                training=bool(training),
                return_buffers=True,
            )
            if training and self._buffer_vars:
                flat = new_buffers.flatten_keys()
                for path, var in self._buffer_vars.items():
                    var.assign(flat[path])
            return out

        def compute_output_spec(self, *inputs: Any, **kwargs: Any) -> Any:
            # Keras infers shapes with symbolic batch sizes (jax.export's on the JAX backend) that
            # hedera's layers cannot turn into ints: trace with a stand-in size, then free it again
            concrete = [
                keras.KerasTensor(tuple(_FREE_DIM if d is None else d for d in t.shape), dtype=t.dtype)
                if isinstance(t, keras.KerasTensor)
                else t
                for t in inputs
            ]
            spec = super().compute_output_spec(*concrete, **kwargs)
            return keras.tree.map_structure(
                lambda s: keras.KerasTensor(
                    tuple(None if d == _FREE_DIM else d for d in s.shape), dtype=s.dtype
                ),
                spec,
            )

        def write_to(self, module: Module | None = None) -> Module:
            """Copy the variables' values into ``module`` (default: the wrapped one); returns it."""
            target = self._hedera_module if module is None else module
            values = {p: np.asarray(keras.ops.convert_to_numpy(v)) for p, v in self._param_vars.items()}
            values |= {p: np.asarray(keras.ops.convert_to_numpy(v)) for p, v in self._buffer_vars.items()}
            return target.load_state(Container.unflatten_keys(values))

    return HederaKerasLayer


# ---- flax ----------------------------------------------------------------------------------------------


def to_flax(module: Module) -> Any:
    """The hedera module ``module`` as a ``flax.linen`` module.

    Parameters
    ----------
    module : hedera.nn.Module
        A built module (any backend: ``init`` returns its arrays as JAX arrays).

    Returns
    -------
    flax.linen.Module
        ``variables = m.init(key, *inputs)`` returns ``{"params": ...}`` (and
        ``"batch_stats"`` for buffers), nested by the hedera names, holding the module's current
        values (the key is unused: the values are already initialised). ``m.apply(variables,
        *inputs, training=False)`` runs ``module.apply``; with ``training=True`` and buffers, pass
        ``mutable=["batch_stats"]`` as for any flax batch-norm model. Embed it in other linen
        modules, wrap it for ``flax.nnx`` with ``flax.nnx.bridge.ToNNX``, and train
        ``variables["params"]`` with optax.

    Examples
    --------
    >>> import jax, jax.numpy as jnp, hedera as hd
    >>> m = hd.interop.to_flax(hd.nn.Linear(3, 2, key=0))
    >>> variables = m.init(jax.random.key(0), jnp.ones((1, 3)))
    >>> sorted(variables["params"])
    ['bias', 'weight']
    >>> m.apply(variables, jnp.ones((4, 3))).shape
    (4, 2)
    """
    _require_module("to_flax", module)
    return _flax_class()(hedera_module=module)


@functools.cache
def _flax_class() -> type:
    import flax.linen as nn

    class HederaFlaxModule(nn.Module):
        """A hedera module as a linen module (made by :func:`hedera.interop.to_flax`)."""

        hedera_module: Any

        @nn.compact
        def __call__(self, *inputs: Any, training: bool = False) -> Any:
            params = {
                key: self.param(key, lambda rng, v=value: _as_jax(v))
                for key, value in self.hedera_module.parameters().items()
            }
            stats = {
                key: self.variable("batch_stats", key, lambda v=value: _as_jax(v))
                for key, value in self.hedera_module.buffers().items()
            }
            out, new_buffers = self.hedera_module.apply(
                Container(params),
                *inputs,
                buffers=Container({k: v.value for k, v in stats.items()}),
                training=training,
                return_buffers=True,
            )
            if training and stats and not self.is_initializing():
                for key, var in stats.items():
                    new = new_buffers[key]
                    var.value = _nested_dict(new) if isinstance(new, Mapping) else new
            return out

    return HederaFlaxModule


def _as_jax(value: Any) -> Any:
    """A hedera array or Container as JAX arrays (nested dicts for Containers)."""
    if isinstance(value, Mapping):
        return {k: _as_jax(v) for k, v in value.items()}
    return hd.asarray(np.array(hd.to_numpy(value)), backend="jax")  # a copy: JAX arrays must not alias


def flax_variables_to(module: Module, variables: Mapping[str, Any]) -> Module:
    """Copy flax variables (``{"params": ..., "batch_stats": ...}`` of :func:`to_flax`) into ``module``.

    The arrays are converted to the module's backend and device (``Module.load_state``).
    Returns ``module``.
    """
    flat = Container(_nested_dict(variables.get("params", {}))).flatten_keys()
    flat |= Container(_nested_dict(variables.get("batch_stats", {}))).flatten_keys()
    state = Container.unflatten_keys(flat)
    return module.load_state(state)
