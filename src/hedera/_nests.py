"""Fast flattening and rebuilding of the nests that compiled calls take and return.

The compilers flatten their arguments on every call: jax and ``tf.function`` walk builtin
nests in C, but call back into Python for every ``hd.Container`` node (flatten on the way in,
unflatten on the way out: about half a microsecond per node, 16 nodes for a small MLP's
parameters and Adam state). :class:`hedera.jit.Jitted` hands them flat leaf lists instead and
rebuilds the Containers itself:

* :func:`flatten_args`: one Python walk over the positional arguments that finds their backend
  (as ``hd.jit`` must anyway), collects each argument's leaves and a *spec*, a list of tokens
  that identifies the structure (equal specs, equal structures; compared with ``==`` in C);
* :func:`rebuild`: the arguments again from the spec and the leaves (inside a trace: any cost);
* :func:`builder`: a function ``leaves -> tree`` generated once for a tree's structure, for the
  outputs: one expression, a dict display and two C calls per Container node;
* :func:`flattener`: a function ``args -> flat`` generated once for the arguments' structure
  *and leaf types*, straight-line code (an exact type test per node and leaf, a keys compare
  per Container), that answers None where the arguments differ in any of them; the caller then
  walks (:func:`flatten_args`). Containers are mutable, so it checks every node on every call.

Only Containers, lists, tuples and ``None`` are nodes here, and arrays of one backend and
Python numbers leaves, in optree's order (a Container's entries in their insertion order); any
other object (a dict, whose keys jax sorts; a namedtuple; a registered node) makes
:func:`flatten_args` answer None, and the caller takes the framework's own path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._dispatch import backend_name_if_cached
from .container import Container

__all__ = ["MIXED", "builder", "flatten_args", "flattener", "rebuild"]

#: flatten_args' backend answer for arrays of two backends
MIXED = "<mixed>"
_NUMBERS = frozenset({bool, int, float, complex})
_new_object = object.__new__
_set_data = Container.__dict__["_data"].__set__  # the slot's setter (Container.__setattr__ refuses)


class _Leaf:
    """The spec token of a leaf (a singleton: compared by identity)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "LEAF"


LEAF = _Leaf()
_NONE_TOKEN = "None"  # a str: never equal to a Container's keys (a tuple) or a length (an int)


def flatten_args(args: tuple) -> tuple[list, list, str | None] | None:
    """``(spec, flat, backend)`` for positional ``args``, or None if a node is not ours.

    ``flat[i]`` is ``args[i]`` itself if it is an array or a number, else the list of its leaves.
    ``spec`` holds, in pre-order, a token per node and leaf: a Container's keys tuple, a list's
    length ``n`` (an int), a tuple's ``-n - 1``, ``"None"``, :data:`LEAF`; ``backend`` is the one
    backend of the arrays (None if there are none, :data:`MIXED` for two).
    """
    spec: list = []
    flat: list = []
    found = None
    for arg in args:
        t = type(arg)
        name = backend_name_if_cached(t)
        if name is not None or t in _NUMBERS:
            spec.append(LEAF)
            flat.append(arg)
        else:
            leaves: list = []
            name = _walk(arg, spec, leaves)
            if name is False:
                return None
            flat.append(leaves)
        if name is not None and name is not found:
            if found is None:
                found = name
            elif name != found:
                found = MIXED
    return spec, flat, found


def _walk(tree: Any, spec: list, leaves: list) -> Any:
    """Append ``tree``'s tokens to ``spec`` and its leaves to ``leaves``; its backend (None if no
    arrays, :data:`MIXED` for two), or False for a node that is not ours."""
    found = None
    stack = [tree]
    pop, push, token, leaf = stack.pop, stack.extend, spec.append, leaves.append
    while stack:
        node = pop()
        t = type(node)
        if t is Container:
            data = node._data
            token(tuple(data))
            push(reversed(data.values()))
            continue
        name = backend_name_if_cached(t)
        if name is not None:
            token(LEAF)
            leaf(node)
            if name is not found:
                if found is None:
                    found = name
                elif name != found:
                    found = MIXED
        elif t is list:
            token(len(node))
            push(reversed(node))
        elif t is tuple:
            token(-len(node) - 1)
            push(reversed(node))
        elif node is None:
            token(_NONE_TOKEN)
        elif t in _NUMBERS:
            token(LEAF)
            leaf(node)
        else:
            return False
    return found


#: the most nodes and leaves that :func:`flattener` generates straight-line code for
MAX_FLATTENER_NODES = 4096


def flattener(args: tuple) -> Callable[[tuple], list | None] | None:
    """``args -> flat`` (as :func:`flatten_args`' ``flat``) for arguments like ``args``, else None.

    Generated Python for ``args``' structure and the exact types of its leaves: for arguments
    of another length, node type, Container keys (in order), list or tuple length, or leaf type
    it answers None. Equal structure and leaf types mean equal spec and backend, so a caller
    that keeps the ``flatten_args`` answers of ``args`` may reuse them where this one is not
    None. None (no function) for a nest that :func:`flatten_args` does not take, or one of more
    than :data:`MAX_FLATTENER_NODES` nodes and leaves.
    """
    names: dict[str, Any] = {"_C": Container}
    lines = [f"    if len(args) != {len(args)}:", "        return None"]
    count = [0]

    def constant(value: Any) -> str:
        name = f"_g{len(names)}"
        names[name] = value
        return name

    def new_var() -> str:
        count[0] += 1
        if count[0] > MAX_FLATTENER_NODES:
            raise _TooBig
        return f"v{count[0]}"

    def emit(var: str, node: Any, leaves: list) -> bool:
        t = type(node)
        if t is Container:
            keys = tuple(node._data)
            lines.append(f"    if type({var}) is not _C:")
            lines.append("        return None")
            lines.append(f"    d = {var}._data")
            lines.append(f"    if tuple(d) != {constant(keys)}:")
            lines.append("        return None")
            children = list(node._data.values())
            return unpack(children, "d.values()", leaves)
        if t is list or t is tuple:
            kind = "list" if t is list else "tuple"
            lines.append(f"    if type({var}) is not {kind} or len({var}) != {len(node)}:")
            lines.append("        return None")
            return unpack(list(node), var, leaves)
        if node is None:
            lines.append(f"    if {var} is not None:")
            lines.append("        return None")
            return True
        if backend_name_if_cached(t) is not None or t in _NUMBERS:
            lines.append(f"    if type({var}) is not {constant(t)}:")
            lines.append("        return None")
            leaves.append(var)
            return True
        return False

    def unpack(children: list, source: str, leaves: list) -> bool:
        if not children:
            return True
        child_vars = [new_var() for _ in children]
        lines.append(f"    {', '.join(child_vars)}, = {source}")
        return all(emit(v, c, leaves) for v, c in zip(child_vars, children, strict=True))

    try:
        arg_vars = [new_var() for _ in args]
        lines.append(f"    {', '.join(arg_vars)}, = args" if args else "    pass")
        flat = []
        for var, arg in zip(arg_vars, args, strict=True):
            t = type(arg)
            if backend_name_if_cached(t) is not None or t in _NUMBERS:
                lines.append(f"    if type({var}) is not {constant(t)}:")
                lines.append("        return None")
                flat.append(var)
                continue
            leaves: list = []
            if not emit(var, arg, leaves):
                return None
            flat.append("[" + ", ".join(leaves) + "]")
    except _TooBig:
        return None
    code = "def flatten(args):\n" + "\n".join(lines) + f"\n    return [{', '.join(flat)}]\n"
    exec(compile(code, "<hedera nest flattener>", "exec"), names)
    return names["flatten"]


class _TooBig(Exception):
    """A nest too large for :func:`flattener`'s straight-line code."""


def rebuild(spec: list, flat: list) -> list:
    """The arguments that :func:`flatten_args` gave ``spec`` and ``flat`` for (fresh nests)."""
    tokens = iter(spec)
    out = []
    for item in flat:
        if type(item) is list:
            out.append(_rebuild_one(tokens, iter(item)))
        else:
            next(tokens)
            out.append(item)
    return out


def _rebuild_one(tokens: Any, leaves: Any) -> Any:
    token = next(tokens)
    if token is LEAF:
        return next(leaves)
    if token == _NONE_TOKEN:
        return None
    if type(token) is tuple:
        return Container._make(token, [_rebuild_one(tokens, leaves) for _ in token])
    if token >= 0:
        return [_rebuild_one(tokens, leaves) for _ in range(token)]
    return tuple(_rebuild_one(tokens, leaves) for _ in range(-token - 1))


def builder(tree: Any, fixed: Mapping[int, Any] | None = None) -> Callable[[Sequence], Any] | None:
    """``leaves -> tree``-shaped nest of those leaves, for ``tree``'s structure, or None.

    ``tree`` is an example (an output traced once): made of Containers, lists, tuples and None,
    its other objects leaves, taken in optree's order. The function is generated Python, one
    expression (``l[0]``, ``(l[1], l[2])``, a Container made of ``{"w": l[3]}``): no walk
    per call. None if
    ``tree`` has another node type (a dict, a namedtuple) that the caller leaves to optree.
    ``fixed`` maps leaf positions (in the whole tree) to objects that the function puts there
    itself; the leaves it is given are the others, in order.
    """
    fixed = fixed or {}
    count = [0]  # leaves given
    position = [0]  # leaves of the tree
    # a Container per node: object.__new__ and the slot's setter, inline (no Python frame)
    names: dict[str, Any] = {"_new": _new_object, "_set": _set_data, "_K": Container}

    def expr(node: Any) -> str | None:
        t = type(node)
        if t is Container:
            items = []
            for k, v in node._data.items():
                e = expr(v)
                if e is None:
                    return None
                key = f"_k{len(names)}"
                names[key] = k
                items.append(f"{key}: {e}")
            var = f"c{len(names)}"
            names[var] = None  # reserves the number
            return f"(_set(({var} := _new(_K)), {{{', '.join(items)}}}) or {var})"
        if t is list or t is tuple:
            parts = [expr(v) for v in node]
            if None in parts:
                return None
            inner = ", ".join(parts)  # type: ignore[arg-type]
            return f"[{inner}]" if t is list else f"({inner}{',' if len(parts) == 1 else ''})"
        if node is None:
            return "None"
        if t is dict or _is_other_node(node):
            return None
        position[0] += 1
        if position[0] - 1 in fixed:
            name = f"_f{len(names)}"
            names[name] = fixed[position[0] - 1]
            return name
        count[0] += 1
        return f"l[{count[0] - 1}]"

    body = expr(tree)
    if body is None:
        return None
    code = f"def build(l):\n    return {body}\n"
    exec(compile(code, "<hedera nest builder>", "exec"), names)
    build = names["build"]
    build.num_leaves = count[0]
    return build


def _is_other_node(node: Any) -> bool:
    """Whether optree (hedera's namespace) takes ``node`` apart: a namedtuple, a registered node."""
    import optree

    from .tree import NAMESPACE

    leaves = optree.tree_leaves(node, namespace=NAMESPACE, none_is_leaf=True)
    return not (len(leaves) == 1 and leaves[0] is node)
