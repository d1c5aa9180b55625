"""Partition specs: which mesh axes split which array dimension, as ``jax.sharding.PartitionSpec``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Union

from ..errors import InvalidArgumentError, ShapeError

__all__ = ["P", "PartitionSpec", "SpecLike", "as_spec", "check_spec", "padded"]

#: one entry per array dimension: ``None`` (not split), a mesh axis name, or a tuple of names
Entry = Union[None, str, tuple[str, ...]]


class PartitionSpec:
    """How an array is split over a mesh: one entry per dimension, as ``jax.sharding.PartitionSpec``.

    Each entry is ``None`` (the dimension is not split: every device along the other axes
    holds it whole), a mesh axis name (the dimension is cut in equal contiguous blocks, one
    per position along that axis), or a tuple of axis names (cut over their product, the
    first name major). A spec shorter than the array's rank leaves the trailing dimensions
    unsplit; ``P()`` is fully replicated. A mesh axis may appear at most once.

    Examples
    --------
    >>> from hedera.distributed import P
    >>> P("data", None)
    P('data', None)
    >>> P(("data", "model"))
    P(('data', 'model'),)
    """

    __slots__ = ("_entries",)

    def __init__(self, *entries: Entry) -> None:
        out: list[Entry] = []
        for e in entries:
            if isinstance(e, list):
                e = tuple(e)
            if isinstance(e, tuple):
                if not all(isinstance(a, str) for a in e):
                    raise InvalidArgumentError(f"P: a tuple entry must hold axis names (str), got {e!r}")
                e = e[0] if len(e) == 1 else (e or None)
            elif e is not None and not isinstance(e, str):
                raise InvalidArgumentError(
                    f"P: each entry must be None, an axis name or a tuple of names, got {e!r}"
                )
            out.append(e)
        self._entries: tuple[Entry, ...] = tuple(out)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, i: int) -> Entry:
        return self._entries[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PartitionSpec):
            return _trimmed(self._entries) == _trimmed(other._entries)
        if isinstance(other, tuple):
            return _trimmed(self._entries) == _trimmed(PartitionSpec(*other)._entries)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(_trimmed(self._entries))

    def __repr__(self) -> str:
        inner = ", ".join(repr(e) for e in self._entries)
        return f"P({inner}{',' if len(self._entries) == 1 and isinstance(self._entries[0], tuple) else ''})"

    def axes(self) -> tuple[str, ...]:
        """Every mesh axis name the spec uses, in order."""
        return tuple(a for e in self._entries for a in entry_axes(e))


P = PartitionSpec

#: what functions accept as a spec: a :class:`P`, a tuple/list of entries, or ``None`` (replicated)
SpecLike = Union[PartitionSpec, Sequence[Entry], None]


def _trimmed(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """Trailing ``None`` entries dropped: ``P("a")`` and ``P("a", None)`` mean the same."""
    n = len(entries)
    while n and entries[n - 1] is None:
        n -= 1
    return entries[:n]


def entry_axes(entry: Entry) -> tuple[str, ...]:
    """The axis names of one entry: ``()``, ``("a",)`` or the tuple itself."""
    if entry is None:
        return ()
    return (entry,) if isinstance(entry, str) else tuple(entry)


def as_spec(fname: str, spec: Any, argname: str = "spec") -> PartitionSpec:
    """``spec`` as a :class:`P`; ``None`` is ``P()``."""
    if spec is None:
        return PartitionSpec()
    if isinstance(spec, PartitionSpec):
        return spec
    if isinstance(spec, str):
        return PartitionSpec(spec)
    if isinstance(spec, (tuple, list)):
        try:
            return PartitionSpec(*spec)
        except InvalidArgumentError as e:
            raise InvalidArgumentError(f"{fname}: {argname}: {e}") from None
    raise InvalidArgumentError(
        f"{fname}: {argname} must be a hedera.distributed.P, a tuple of axis names / None, or None; "
        f"got {type(spec).__name__}"
    )


def padded(spec: PartitionSpec, ndim: int) -> tuple[Entry, ...]:
    """The spec's entries, with ``None`` appended to ``ndim`` entries."""
    return tuple(spec) + (None,) * (ndim - len(spec))


def check_spec(
    fname: str, spec: PartitionSpec, shape: Sequence[int], mesh: Any, argname: str = "spec"
) -> tuple[Entry, ...]:
    """Validate ``spec`` for an array of ``shape`` on ``mesh``; return it padded to the rank.

    Raises
    ------
    InvalidArgumentError
        An axis name that is not in the mesh, or one used twice.
    ShapeError
        A spec longer than the array's rank, or a dimension the axes' total size does not divide.
    """
    shape = tuple(int(s) for s in shape)
    if len(spec) > len(shape):
        raise ShapeError(
            f"{fname}: {argname} {spec!r} has {len(spec)} entries, longer than the array's rank "
            f"{len(shape)} (shape {shape})"
        )
    seen: set[str] = set()
    for axis in spec.axes():
        if axis not in mesh.axis_names:
            raise InvalidArgumentError(
                f"{fname}: {argname} {spec!r} names axis {axis!r}, which is not in the mesh "
                f"(axes {mesh.axis_names})"
            )
        if axis in seen:
            raise InvalidArgumentError(f"{fname}: {argname} {spec!r} uses mesh axis {axis!r} twice")
        seen.add(axis)
    entries = padded(spec, len(shape))
    for dim, entry in enumerate(entries):
        size = 1
        for a in entry_axes(entry):
            size *= mesh.axis_size(a)
        if shape[dim] % size:
            raise ShapeError(
                f"{fname}: dimension {dim} of the array (size {shape[dim]}, shape {shape}) is not "
                f"divisible by the size {size} of mesh axis {entry!r} in {argname} {spec!r}"
            )
    return entries
