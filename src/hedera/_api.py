"""The one table of hedera's functional API.

Every function of the front namespace (``hd.*``, ``hd.linalg.*``, ``hd.fft.*``)
has one row here: its namespace, category, signature (with the standard's
positional-only ``/`` and keyword-only ``*`` markers) and which parameters are
arrays. The table drives

* the generated fronts (``tools/gen_front.py`` writes ``hedera/_front.py``),
* the conformance test that every backend namespace has every function with
  this signature (``tests/test_namespaces.py``),
* the cross-backend test harness, which must cover every row
  (``tests/test_functions.py``),
* the API listing in ``docs/api.md``.

Array parameters are the ones named in :data:`ARRAY_PARAMS`; a row may name
others after ``|``. A function with no array parameter runs on the current
backend (``hd.use_backend``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: parameter names that hold arrays (or Python scalars standing for arrays)
ARRAY_PARAMS = frozenset(
    {"x", "x1", "x2", "condition", "arrays", "indices", "prepend", "append", "sorter", "updates"}
)

# namespace | category | signature [| extra array params]
_TABLE = """
core | creation | arange(start, /, stop=None, step=1, *, dtype=None, device=None)
core | creation | asarray(obj, /, *, dtype=None, device=None, copy=None, backend=None) | obj
core | creation | empty(shape, *, dtype=None, device=None)
core | creation | empty_like(x, /, *, dtype=None, device=None)
core | creation | eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None)
core | creation | from_dlpack(x, /, *, device=None, copy=None)
core | creation | full(shape, fill_value, *, dtype=None, device=None)
core | creation | full_like(x, /, fill_value, *, dtype=None, device=None)
core | creation | linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True)
core | creation | meshgrid(*arrays, indexing='xy')
core | creation | ones(shape, *, dtype=None, device=None)
core | creation | ones_like(x, /, *, dtype=None, device=None)
core | creation | tril(x, /, *, k=0)
core | creation | triu(x, /, *, k=0)
core | creation | zeros(shape, *, dtype=None, device=None)
core | creation | zeros_like(x, /, *, dtype=None, device=None)
core | data_type | astype(x, dtype, /, *, copy=True, device=None)
core | data_type | can_cast(from_, to, /) | from_
core | data_type | finfo(type, /) | type
core | data_type | iinfo(type, /) | type
core | data_type | isdtype(dtype, kind)
core | data_type | result_type(*arrays_and_dtypes) | arrays_and_dtypes
core | elementwise | abs(x, /)
core | elementwise | acos(x, /)
core | elementwise | acosh(x, /)
core | elementwise | add(x1, x2, /)
core | elementwise | asin(x, /)
core | elementwise | asinh(x, /)
core | elementwise | atan(x, /)
core | elementwise | atan2(x1, x2, /)
core | elementwise | atanh(x, /)
core | elementwise | bitwise_and(x1, x2, /)
core | elementwise | bitwise_left_shift(x1, x2, /)
core | elementwise | bitwise_invert(x, /)
core | elementwise | bitwise_or(x1, x2, /)
core | elementwise | bitwise_right_shift(x1, x2, /)
core | elementwise | bitwise_xor(x1, x2, /)
core | elementwise | ceil(x, /)
core | elementwise | clip(x, /, min=None, max=None) | min, max
core | elementwise | conj(x, /)
core | elementwise | copysign(x1, x2, /)
core | elementwise | cos(x, /)
core | elementwise | cosh(x, /)
core | elementwise | divide(x1, x2, /)
core | elementwise | equal(x1, x2, /)
core | elementwise | exp(x, /)
core | elementwise | expm1(x, /)
core | elementwise | floor(x, /)
core | elementwise | floor_divide(x1, x2, /)
core | elementwise | greater(x1, x2, /)
core | elementwise | greater_equal(x1, x2, /)
core | elementwise | hypot(x1, x2, /)
core | elementwise | imag(x, /)
core | elementwise | isfinite(x, /)
core | elementwise | isinf(x, /)
core | elementwise | isnan(x, /)
core | elementwise | less(x1, x2, /)
core | elementwise | less_equal(x1, x2, /)
core | elementwise | log(x, /)
core | elementwise | log1p(x, /)
core | elementwise | log2(x, /)
core | elementwise | log10(x, /)
core | elementwise | logaddexp(x1, x2, /)
core | elementwise | logical_and(x1, x2, /)
core | elementwise | logical_not(x, /)
core | elementwise | logical_or(x1, x2, /)
core | elementwise | logical_xor(x1, x2, /)
core | elementwise | maximum(x1, x2, /)
core | elementwise | minimum(x1, x2, /)
core | elementwise | multiply(x1, x2, /)
core | elementwise | negative(x, /)
core | elementwise | nextafter(x1, x2, /)
core | elementwise | not_equal(x1, x2, /)
core | elementwise | positive(x, /)
core | elementwise | pow(x1, x2, /)
core | elementwise | real(x, /)
core | elementwise | reciprocal(x, /)
core | elementwise | remainder(x1, x2, /)
core | elementwise | round(x, /)
core | elementwise | sign(x, /)
core | elementwise | signbit(x, /)
core | elementwise | sin(x, /)
core | elementwise | sinh(x, /)
core | elementwise | square(x, /)
core | elementwise | sqrt(x, /)
core | elementwise | subtract(x1, x2, /)
core | elementwise | tan(x, /)
core | elementwise | tanh(x, /)
core | elementwise | trunc(x, /)
core | indexing | take(x, indices, /, *, axis=None)
core | indexing | take_along_axis(x, indices, /, *, axis=-1)
core | linear_algebra | matmul(x1, x2, /)
core | linear_algebra | matrix_transpose(x, /)
core | linear_algebra | tensordot(x1, x2, /, *, axes=2)
core | linear_algebra | vecdot(x1, x2, /, *, axis=-1)
core | manipulation | broadcast_arrays(*arrays)
core | manipulation | broadcast_to(x, /, shape)
core | manipulation | concat(arrays, /, *, axis=0)
core | manipulation | expand_dims(x, /, axis)
core | manipulation | flip(x, /, *, axis=None)
core | manipulation | moveaxis(x, source, destination, /)
core | manipulation | permute_dims(x, /, axes)
core | manipulation | repeat(x, repeats, /, *, axis=None) | repeats
core | manipulation | reshape(x, /, shape, *, copy=None)
core | manipulation | roll(x, /, shift, *, axis=None)
core | manipulation | squeeze(x, /, axis)
core | manipulation | stack(arrays, /, *, axis=0)
core | manipulation | tile(x, repetitions, /)
core | manipulation | unstack(x, /, *, axis=0)
core | searching | argmax(x, /, *, axis=None, keepdims=False)
core | searching | argmin(x, /, *, axis=None, keepdims=False)
core | searching | count_nonzero(x, /, *, axis=None, keepdims=False)
core | searching | nonzero(x, /)
core | searching | searchsorted(x1, x2, /, *, side='left', sorter=None)
core | searching | where(condition, x1, x2, /)
core | set | isin(x1, x2, /, *, invert=False)
core | set | unique_all(x, /)
core | set | unique_counts(x, /)
core | set | unique_inverse(x, /)
core | set | unique_values(x, /)
core | sorting | argsort(x, /, *, axis=-1, descending=False, stable=True)
core | sorting | sort(x, /, *, axis=-1, descending=False, stable=True)
core | statistical | cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False)
core | statistical | cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False)
core | statistical | max(x, /, *, axis=None, keepdims=False)
core | statistical | mean(x, /, *, axis=None, keepdims=False)
core | statistical | min(x, /, *, axis=None, keepdims=False)
core | statistical | prod(x, /, *, axis=None, dtype=None, keepdims=False)
core | statistical | std(x, /, *, axis=None, correction=0.0, keepdims=False)
core | statistical | sum(x, /, *, axis=None, dtype=None, keepdims=False)
core | statistical | var(x, /, *, axis=None, correction=0.0, keepdims=False)
core | utility | all(x, /, *, axis=None, keepdims=False)
core | utility | any(x, /, *, axis=None, keepdims=False)
core | utility | diff(x, /, *, axis=-1, n=1, prepend=None, append=None)
core | extra | allclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False)
core | extra | cumprod(x, /, *, axis=None, dtype=None, include_initial=False)
core | extra | cumsum(x, /, *, axis=None, dtype=None, include_initial=False)
core | extra | einsum(subscripts, /, *operands) | operands
core | extra | gather_nd(x, indices, /, *, batch_dims=0)
core | extra | isclose(x1, x2, /, *, rtol=1e-05, atol=1e-08, equal_nan=False)
core | extra | logsumexp(x, /, *, axis=None, keepdims=False)
core | extra | one_hot(indices, num_classes, /, *, dtype=None, axis=-1)
core | extra | pad(x, /, pad_width, *, mode='constant', constant_values=0)
core | extra | scatter_nd(indices, updates, shape, /)
core | extra | split(x, indices_or_sections, /, *, axis=0)
core | extra | top_k(x, k, /, *, axis=-1, largest=True)
core | extra | to_numpy(x, /)
core | device | device(x, /)
core | device | to_device(x, device, /, *, stream=None)
linalg | linalg | cholesky(x, /, *, upper=False)
linalg | linalg | cross(x1, x2, /, *, axis=-1)
linalg | linalg | det(x, /)
linalg | linalg | diagonal(x, /, *, offset=0)
linalg | linalg | eigh(x, /)
linalg | linalg | eigvalsh(x, /)
linalg | linalg | inv(x, /)
linalg | linalg | matmul(x1, x2, /)
linalg | linalg | matrix_norm(x, /, *, keepdims=False, ord='fro')
linalg | linalg | matrix_power(x, n, /)
linalg | linalg | matrix_rank(x, /, *, rtol=None)
linalg | linalg | matrix_transpose(x, /)
linalg | linalg | outer(x1, x2, /)
linalg | linalg | pinv(x, /, *, rtol=None)
linalg | linalg | qr(x, /, *, mode='reduced')
linalg | linalg | slogdet(x, /)
linalg | linalg | solve(x1, x2, /)
linalg | linalg | svd(x, /, *, full_matrices=True)
linalg | linalg | svdvals(x, /)
linalg | linalg | tensordot(x1, x2, /, *, axes=2)
linalg | linalg | trace(x, /, *, offset=0, dtype=None)
linalg | linalg | vecdot(x1, x2, /, *, axis=-1)
linalg | linalg | vector_norm(x, /, *, axis=None, keepdims=False, ord=2)
fft | fft | fft(x, /, *, n=None, axis=-1, norm='backward')
fft | fft | fftfreq(n, /, *, d=1.0, dtype=None, device=None)
fft | fft | fftn(x, /, *, s=None, axes=None, norm='backward')
fft | fft | fftshift(x, /, *, axes=None)
fft | fft | hfft(x, /, *, n=None, axis=-1, norm='backward')
fft | fft | ifft(x, /, *, n=None, axis=-1, norm='backward')
fft | fft | ifftn(x, /, *, s=None, axes=None, norm='backward')
fft | fft | ifftshift(x, /, *, axes=None)
fft | fft | ihfft(x, /, *, n=None, axis=-1, norm='backward')
fft | fft | irfft(x, /, *, n=None, axis=-1, norm='backward')
fft | fft | irfftn(x, /, *, s=None, axes=None, norm='backward')
fft | fft | rfft(x, /, *, n=None, axis=-1, norm='backward')
fft | fft | rfftfreq(n, /, *, d=1.0, dtype=None, device=None)
fft | fft | rfftn(x, /, *, s=None, axes=None, norm='backward')
"""

#: the standard's constants, present in every backend namespace and in ``hd``
CONSTANTS = ("e", "inf", "nan", "newaxis", "pi")

#: names of the standard's dtypes (every backend namespace has them as native dtype objects)
DTYPE_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
)  # fmt: skip


@dataclass(frozen=True)
class Function:
    """One row of the API table."""

    namespace: str  # "core", "linalg" or "fft"
    category: str
    name: str
    params: str  # the parameter list, as written between the parentheses
    array_params: tuple[str, ...]

    @property
    def qualname(self) -> str:
        return self.name if self.namespace == "core" else f"{self.namespace}.{self.name}"

    @property
    def standard(self) -> bool:
        """Whether the Array API standard defines the function (else it is a hedera extra)."""
        return self.category not in ("extra", "device") and "backend" not in self.params

    @property
    def param_names(self) -> tuple[str, ...]:
        names = []
        for part in self.params.split(","):
            part = part.strip().split("=")[0].strip().lstrip("*")
            if part and part != "/":
                names.append(part)
        return tuple(names)


def _parse(table: str) -> tuple[Function, ...]:
    rows = []
    for line in table.strip().splitlines():
        fields = [f.strip() for f in line.split("|")]
        namespace, category, signature = fields[:3]
        extra = tuple(a.strip() for a in fields[3].split(",")) if len(fields) > 3 else ()
        match = re.fullmatch(r"(\w+)\((.*)\)", signature)
        assert match, line
        name, params = match.groups()
        fn = Function(namespace, category, name, params, ())
        arrays = tuple(p for p in fn.param_names if p in ARRAY_PARAMS or p in extra)
        rows.append(Function(namespace, category, name, params, arrays))
    return tuple(rows)


FUNCTIONS: tuple[Function, ...] = _parse(_TABLE)
BY_QUALNAME: dict[str, Function] = {f.qualname: f for f in FUNCTIONS}
