"""The support matrix of hedera's control flow: one table, rendered into docs/control_flow.md.

``SUPPORT[(construct, backend)][(stage, mode)]`` is either ``"yes"`` (with an optional note:
``"yes: ..."``) or the name of the hedera error class the cell raises (``"UnsupportedError: ..."``).
``tests/control/test_control_matrix.py`` runs every cell (results against NumPy references and
central finite differences, or the error), and checks that the page shows this table.
"""

from __future__ import annotations

CONSTRUCTS = (
    "cond",
    "switch",
    "while_loop(max_iterations=k)",
    "while_loop (no bound)",
    "scan",
    "fori_loop",
    "map",
)
BACKENDS = ("numpy", "torch", "jax", "tensorflow", "mxnet")
STAGES = ("eager", "compiled")
MODES = ("forward", "reverse", "forward-mode", "vmap")
CELLS = tuple((stage, mode) for stage in STAGES for mode in MODES)

_NUMPY = {
    ("eager", "reverse"): "NoAutodiffError",
    ("eager", "forward-mode"): "NoAutodiffError",
    ("eager", "vmap"): "yes: a loop over examples",
    ("compiled", "forward"): "yes: no compiler, runs eagerly",
    ("compiled", "reverse"): "NoAutodiffError",
    ("compiled", "forward-mode"): "NoAutodiffError",
    ("compiled", "vmap"): "yes: no compiler, runs eagerly",
}
_MXNET = {
    ("eager", "forward-mode"): "UnsupportedError: MXNet has no forward mode (hd.jvp's error)",
    ("eager", "vmap"): "yes: a loop over examples",
    ("compiled", "forward"): "yes: no compiler, runs eagerly",
    ("compiled", "reverse"): "yes: no compiler, runs eagerly",
    ("compiled", "forward-mode"): "UnsupportedError: MXNet has no forward mode (hd.jvp's error)",
    ("compiled", "vmap"): "yes: no compiler, runs eagerly",
}
_TORCH_FUNC = "yes: dynamo runs torch.func eagerly around the loop (²)"
_TORCH = {
    ("compiled", "forward"): "yes: the operator (¹)",
    ("compiled", "reverse"): "yes: backward of the operator (¹)",
    ("compiled", "forward-mode"): _TORCH_FUNC,
    ("compiled", "vmap"): _TORCH_FUNC,
}
_TORCH_UNBOUNDED = {
    **_TORCH,
    ("eager", "vmap"): "UnsupportedError: pass max_iterations (³)",
    ("compiled", "vmap"): "UnsupportedError: pass max_iterations (³)",
}
_JAX_UNBOUNDED = {
    ("eager", "reverse"): "UnsupportedError: pass max_iterations (⁴)",
    ("compiled", "reverse"): "UnsupportedError: pass max_iterations (⁴)",
}


def _tensorflow(construct: str) -> dict:
    if construct in ("switch", "map"):
        return {("compiled", "forward-mode"): "UnsupportedError: TensorFlow 2.21 (⁵)"}
    return {}


SUPPORT: dict[tuple[str, str], dict[tuple[str, str], str]] = {}
for _construct in CONSTRUCTS:
    _unbounded = _construct == "while_loop (no bound)"
    for _backend, _exceptions in (
        ("numpy", _NUMPY),
        ("torch", _TORCH_UNBOUNDED if _unbounded else _TORCH),
        ("jax", _JAX_UNBOUNDED if _unbounded else {}),
        ("tensorflow", _tensorflow(_construct)),
        ("mxnet", _MXNET),
    ):
        SUPPORT[(_construct, _backend)] = {cell: _exceptions.get(cell, "yes") for cell in CELLS}

NOTES = (
    "¹ torch under `torch.compile` (`hd.jit`): `torch.cond` (switch: a balanced tree of them) and "
    "`torch._higher_order_ops.while_loop` (scan, fori_loop, map: one `while_loop` over output "
    "buffers); reverse mode is autograd through the compiled call (`hd.jit(f)(x).backward()`).",
    "² `hd.jit(hd.jvp(f))`, `hd.jit(hd.vmap(f))` (and `hd.jit(hd.grad(f))`) on torch: dynamo does not "
    "compile `torch.func`'s transforms around these operators in torch 2.13; it runs the transform "
    "eagerly, where the constructs are Python loops (right results, not compiled), under every "
    "compiler backend `hd.jit` is given (`eager` and `aot_eager` too). A `torch.func` transform active "
    "*inside* a compiled region raises `hd.UnsupportedError` saying to compile the forward only.",
    "³ A predicate batched by `torch.func.vmap` has no Python value: pass `max_iterations=k`.",
    "⁴ `lax.while_loop` has no reverse mode (jax-ml/jax#2469): pass `max_iterations=k`.",
    "MXNet (its own venv, scripts/test-mxnet.sh) runs every construct as Python loops and "
    "branches, differentiated by `mxnet.autograd` (record and backward).",
    "⁵ TensorFlow 2.21's `ForwardAccumulator` inside `tf.function` fails to trace `tf.switch_case` "
    "and a `tf.while_loop` carrying only `TensorArray`s (a scan without a carry); hedera raises "
    "`hd.UnsupportedError` naming the way out (nested `hd.cond`; a carry; `hd.jvp` outside `hd.jit`).",
)


def markdown() -> str:
    """The matrix as the Markdown table (and its notes) of docs/control_flow.md."""
    header = ["construct", "backend", *(f"{stage}: {mode}" for stage, mode in CELLS)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for (construct, backend), cells in SUPPORT.items():
        lines.append("| " + " | ".join([construct, backend, *(cells[c] for c in CELLS)]) + " |")
    return "\n".join(lines) + "\n\n" + "\n".join(f"{note}\n" for note in NOTES)
