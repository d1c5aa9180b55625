"""Sharded parameters: a ``LayoutMap`` of name rules to specs, and checkpoints of sharded trees."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from .. import tree as _tree
from ..errors import InvalidArgumentError, UnsupportedError
from ._api import _check_mesh, gather, shard
from ._mesh import Mesh
from ._spec import PartitionSpec, SpecLike, as_spec

__all__ = ["LayoutMap", "shard_params", "gather_params", "load"]


class LayoutMap(MutableMapping):
    """Rules from parameter names to partition specs, as Keras' ``LayoutMap``.

    A key is a regular expression matched (``re.search``) against a parameter's path,
    its keys joined by ``"/"`` (``"layers/0/weight"``); an exact key wins over patterns;
    otherwise exactly one pattern may match (two matching patterns are an error, since
    which one was meant is ambiguous). A parameter no rule matches is replicated.

    Parameters
    ----------
    rules : mapping, optional
        ``{pattern: spec}``; specs as :func:`shard` takes them.

    Examples
    --------
    >>> from hedera.distributed import LayoutMap, P
    >>> layout = LayoutMap({r"0/weight$": P("model", None), r"2/weight$": (None, "model")})
    >>> layout.spec_for("layers/0/weight")
    P('model', None)
    >>> layout.spec_for("layers/0/bias")
    P()
    """

    def __init__(self, rules: Mapping[str, SpecLike] | None = None) -> None:
        self._rules: dict[str, PartitionSpec] = {}
        for k, v in (rules or {}).items():
            self[k] = v

    def __setitem__(self, pattern: str, spec: SpecLike) -> None:
        if not isinstance(pattern, str):
            raise InvalidArgumentError(f"LayoutMap: keys are regular expressions (str), got {pattern!r}")
        try:
            re.compile(pattern)
        except re.error as e:
            raise InvalidArgumentError(f"LayoutMap: {pattern!r} is not a regular expression: {e}") from None
        self._rules[pattern] = as_spec("LayoutMap", spec, f"the spec of {pattern!r}")

    def __getitem__(self, pattern: str) -> PartitionSpec:
        return self._rules[pattern]

    def __delitem__(self, pattern: str) -> None:
        del self._rules[pattern]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def __repr__(self) -> str:
        return f"LayoutMap({self._rules!r})"

    def spec_for(self, path: str) -> PartitionSpec:
        """The spec for the parameter at ``path`` (``P()`` if no rule matches).

        Raises
        ------
        InvalidArgumentError
            Two patterns (and no exact key) match ``path``.
        """
        if path in self._rules:
            return self._rules[path]
        hits = [k for k in self._rules if re.search(k, path)]
        if len(hits) > 1:
            raise InvalidArgumentError(
                f"LayoutMap: parameter {path!r} matches several rules {hits}; make them exclusive"
            )
        return self._rules[hits[0]] if hits else PartitionSpec()


def shard_params(params: Any, mesh: Mesh, layout: LayoutMap | Mapping[str, SpecLike] | None = None) -> Any:
    """Place every array of ``params`` on ``mesh`` as ``layout`` says (unmatched: replicated).

    Parameters
    ----------
    params : tree of arrays
        A Container / dict / list nest (``model.parameters()``, an optimizer state...).
    mesh : Mesh
    layout : LayoutMap or mapping, optional
        Rules from path patterns to specs; ``None`` replicates everything.

    Returns
    -------
    tree
        The same structure with sharded leaves (see :func:`shard`).

    Raises
    ------
    UnsupportedError
        On tensorflow, a rule that splits a parameter: ``tf.distribute`` strategies
        replicate variables (model parallelism would need DTensor, which TF deprecated).
    InvalidArgumentError, ShapeError
        A spec that does not fit its parameter (the message names the parameter).
    """
    mesh = _check_mesh("shard_params", mesh)
    rules = layout if isinstance(layout, LayoutMap) else LayoutMap(layout)
    paths, leaves, treedef = _tree.require_arrays("shard_params", params)
    out = []
    for path, x in zip(paths, leaves, strict=True):
        name = _tree.path_str(path)
        spec = rules.spec_for(name)
        if mesh.backend == "tensorflow" and spec.axes():
            raise UnsupportedError(
                f"shard_params: sharded parameters (model parallelism) are not supported on tensorflow: "
                f"tf.distribute strategies replicate variables; {name!r} would be split as {spec!r}. "
                f"Use jax or torch, or replicate it (data parallelism works on tensorflow)"
            )
        try:
            out.append(shard(x, mesh, spec))
        except (InvalidArgumentError, ValueError) as e:
            raise type(e)(f"shard_params: parameter {name!r}: {e}") from None
    return _tree.unflatten(treedef, out)


def gather_params(params: Any) -> Any:
    """Every leaf of ``params`` gathered into an ordinary array (see :func:`gather`)."""
    return _tree.map(gather, params)


def load(
    path: str | os.PathLike[str], mesh: Mesh, layout: LayoutMap | Mapping[str, SpecLike] | None = None
) -> Any:
    """Read a checkpoint written by :func:`hedera.save` (sharded or not) onto ``mesh``.

    The file holds whole arrays, so a tree saved from a mesh of any shape loads on a mesh
    of any other (or, with :func:`hedera.load`, on one device).

    Returns
    -------
    tree
        ``shard_params(hd.load(path, backend=mesh.backend), mesh, layout)``.
    """
    from ..io import load as _load

    mesh = _check_mesh("load", mesh)
    return shard_params(_load(path, backend=mesh.backend), mesh, layout)
