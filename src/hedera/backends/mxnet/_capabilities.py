"""What the mxnet backend cannot do, framework-free (no MXNet import).

``_core`` and the namespace use these; ``tools/gen_docs.py`` reads them to put
MXNet in docs/backends.md from the main environment, where MXNet is not
installed (it needs numpy<=1.23.5; see docs/mxnet.md).
"""

from __future__ import annotations

#: hedera dtype names MXNet lacks (asking for one raises UnsupportedDtypeError)
UNSUPPORTED_DTYPES: tuple[str, ...] = (
    "int16", "uint16", "uint32", "uint64", "complex64", "complex128", "bfloat16",
)  # fmt: skip

#: function qualname -> what MXNet cannot do there (it raises UnsupportedError or UnsupportedDtypeError)
LIMITATIONS: dict[str, str] = {
    "fft.fft": "complex results: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.ifft": "complex input and result: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.fftn": "complex results: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.ifftn": "complex input and result: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.rfft": "complex results: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.rfftn": "complex results: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.irfft": "complex input: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.irfftn": "complex input: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.hfft": "complex input: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "fft.ihfft": "complex results: MXNet has no complex dtypes (UnsupportedDtypeError)",
    "from_dlpack": "compact (C-contiguous) tensors only; others raise BufferError "
    "(hd.asarray(x, backend='mxnet') copies them)",
    "jit": "eager: hd.jit returns f unchanged (hybridisation applies to Gluon blocks, not to functions)",
    "vmap": "a Python loop over the batch axis, stacked (MXNet has no vectorising map)",
    "jvp": "forward mode is not available (MXNet's autograd is reverse mode only); jacobian(mode='forward') "
    "is computed in reverse mode",
    "host path": "exact, not differentiable (UnsupportedError with float arrays under autograd.record()): "
    "integer and boolean operands of element-wise, reduction, manipulation and indexing functions; "
    "floor_divide, copysign, signbit, nextafter, bitwise_* and logical_*; argmax/argmin, argsort, "
    "count_nonzero, nonzero, searchsorted, cumulative_prod, unique_*, isin; linalg.* except matmul, "
    "matrix_transpose, tensordot, vecdot, det and inv; fftshift/ifftshift; allclose, isclose, gather_nd, "
    "scatter_nd, split, top_k; hd.at(...) updates; arrays of more than 6 dimensions",
    "random": "hd.random has no mxnet module yet: it raises UnsupportedError (draw on numpy, convert)",
    "nn_ops": "hd.nn's kernels (hedera.nn_ops) have no mxnet module yet: they raise UnsupportedError",
}

#: function -> how this backend gives the standard's special values where MXNet's own call does not
#: (docs/backends.md; checked by tests/core/test_special_cases.py in .venv-mxnet)
SPECIAL_VALUE_FIXES: dict[str, str] = {
    "floor_divide, remainder, copysign": "on the host, by the NumPy backend's functions",
    "full": "on the host for a -0.0 fill (MXNet passes the value as a string, which drops the sign)",
}

#: ``__array_namespace_info__().default_dtypes()``, by name (complex64 names the standard's
#: default complex dtype; MXNet has none, so it is unsupported)
DEFAULT_DTYPES: dict[str, str] = {
    "real floating": "float32",
    "complex floating": "complex64",
    "integral": "int64",
    "indexing": "int64",
}

#: ``__array_namespace_info__().capabilities()``: MXNet's transposes take at most 6 dimensions
CAPABILITIES: dict[str, object] = {
    "boolean indexing": True,
    "data-dependent shapes": True,
    "max dimensions": 6,
}
