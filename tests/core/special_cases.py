"""The Array API standard's element-wise special cases, read from its own text.

:data:`spec_special_cases.SPECIAL_CASES` holds the standard's sentences ("If ``x1_i`` is
``+0`` and ``x2_i`` is greater than ``0``, the result is ``+0``."). :func:`parse` turns
one into a :class:`Rule`: conditions on the operands (``x_i``, ``x1_i``, ``x2_i``, or the
parts ``a`` and ``b`` of a complex ``x_i``) and a check of the result. Sentences this
small grammar does not read are listed in :data:`UNREAD` with the reason, so none is lost
silently (tests/core/test_special_cases.py checks that every other sentence parses).

The rules are checked on a grid of special values (:data:`REALS`), the standard's
wording being the only source of expected values: no library computes them.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from spec_special_cases import SPECIAL_CASES

INF, NAN, PI = math.inf, math.nan, math.pi

#: the real values every rule is tried on (each sign of zero and infinity, NaN, integers and halves)
REALS = (NAN, -NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 2.5, -2.5)
#: the parts of the complex values rules are tried on (the standard states them for imaginary parts with a
#: clear sign bit; the lower half-plane follows by conjugation, f(conj(z)) == conj(f(z)))
PARTS = (NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0)
IMAGINARY_PARTS = tuple(b for b in PARTS if math.copysign(1, b) > 0)

#: sentences not machine-checked, by a substring, with the reason (none left: every sentence of the
#: standard 2024.12 is read; tests/core/test_special_cases.py checks that this stays so)
UNREAD: dict[str, str] = {}

#: sentences the standard 2024.12 gets wrong, read as its prose means them, with the reason
ERRATA: dict[tuple[str, str, str], tuple[Callable, str]] = {
    ("not_equal", "real", "In the remaining cases, the result is ``False``."): (
        lambda y, v, dtype: bool(y) is (v[0] != v[1]),
        "the sentences above it leave out an infinity beside a finite number (not_equal(inf, 0.0) would be "
        "False); the function 'computes the truth value of x1_i != x2_i': read as Python's !=",
    ),
}

#: the Python operators whose correctly rounded result the "In the remaining cases" sentences ask for
#: (IEEE 754 arithmetic in float64, rounded to the dtype; Python's ``%`` and ``//`` for remainder
#: and floor_divide, as the standard says); hypot's is checked to a few ulps (it is not an IEEE
#: basic operation)
GENERAL_OPERATORS: dict[str, Callable] = {
    "add": operator.add,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "remainder": operator.mod,
    "hypot": math.hypot,
}

#: complex functions whose "remaining cases" the standard leaves implementation dependent (divide,
#: multiply; sign refers to divide's rules): checked where every part is finite against Python's
#: complex arithmetic, to a few ulps (the standard asks nothing there; a user expects the quotient)
IMPLEMENTATION_DEPENDENT: dict[str, Callable] = {
    "multiply": lambda v: complex(v[0], v[1]) * complex(v[2], v[3]),
    "divide": lambda v: complex(v[0], v[1]) / complex(v[2], v[3]),
    "sign": lambda v: complex(v[0], v[1]) / abs(complex(v[0], v[1])),
}

_NUMBERS = {
    "NaN": NAN,
    "+infinity": INF,
    "-infinity": -INF,
    "infinity": INF,
    "+0": 0.0,
    "-0": -0.0,
    "0": 0.0,
    "+1": 1.0,
    "1": 1.0,
    "-1": -1.0,
    "0.5": 0.5,
    "-0.5": -0.5,
    "2": 2.0,
}
_PI_RE = re.compile(r"^([+-]?)(\d*)π(?:/(\d+))?$")


def number(text: str) -> float:
    """A value the standard writes: ``+0``, ``-infinity``, ``NaN``, ``+π/2``, ``-3π/4``..."""
    if text in _NUMBERS:
        return _NUMBERS[text]
    m = _PI_RE.match(text)
    if m is None:
        raise ValueError(f"not a value: {text!r}")
    sign = -1.0 if m.group(1) == "-" else 1.0
    return sign * float(m.group(2) or 1) * PI / float(m.group(3) or 1)


def _same(x: float, v: float) -> bool:
    """``x`` is exactly the value ``v`` (NaN is NaN; zeros by sign; an absent clip bound is no value)."""
    if x is None:
        return False
    if math.isnan(v):
        return math.isnan(x)
    return x == v and math.copysign(1, x) == math.copysign(1, v)


def _is_integer(x: float) -> bool:
    return math.isfinite(x) and x == int(x)


def _is_odd_integer(x: float) -> bool:
    return _is_integer(x) and int(x) % 2 == 1


# ---- conditions: "``x1_i`` is <phrase>" ---------------------------------------------------------

_PHRASES: list[tuple[re.Pattern, Callable]] = [
    (
        r"(?:either )?``([^`]+)`` or ``([^`]+)``",
        lambda a, b: lambda x, wa=number(a), wb=number(b): _same(x, wa) or _same(x, wb),
    ),
    (r"``([^`]+)``", lambda a: (lambda x: x == 0) if a == "0" else (lambda x, w=number(a): _same(x, w))),
    (r"greater than ``([^`]+)``", lambda a: lambda x, w=number(a): x > w),
    (r"less than ``([^`]+)``", lambda a: lambda x, w=number(a): x < w),
    (r"greater than or equal to ``([^`]+)``", lambda a: lambda x, w=number(a): x >= w),
    (r"not equal to ``([^`]+)``", lambda a: lambda x, w=number(a): x != w),
    (r"not ``([^`]+)``", lambda a: lambda x, w=number(a): not _same(x, w)),
    (r"a finite number", lambda: math.isfinite),
    (
        r"a positive \(i\.e\., greater than ``0``\) finite number",
        lambda: lambda x: math.isfinite(x) and x > 0,
    ),
    (r"a negative \(i\.e\., less than ``0``\) finite number", lambda: lambda x: math.isfinite(x) and x < 0),
    (r"a positive finite number", lambda: lambda x: math.isfinite(x) and x > 0),
    (r"a nonzero finite number", lambda: lambda x: math.isfinite(x) and x != 0),
    (r"a nonzero number", lambda: lambda x: x != 0 and not math.isnan(x)),
    (r"(?:either )?a finite number or ``NaN``", lambda: lambda x: not math.isinf(x)),
    (r"an integer value", lambda: _is_integer),
    (r"not an integer value", lambda: lambda x: math.isfinite(x) and not _is_integer(x)),
    (r"an odd integer value", lambda: _is_odd_integer),
    (r"not an odd integer value", lambda: lambda x: not _is_odd_integer(x)),
    (r"already integer-valued", lambda: lambda x: math.isinf(x) or _is_integer(x)),
    (r"any value(?: \(including ``NaN``\)|, including ``NaN``)?", lambda: lambda x: True),
]
_PHRASES = [(re.compile("^" + p + "$"), f) for p, f in _PHRASES]

_SUBJECTS = {
    "x_i": lambda v: v[0],
    "x1_i": lambda v: v[0],
    "x2_i": lambda v: v[1],
    "a": lambda v: v[0],
    "b": lambda v: v[1],
    "c": lambda v: v[2],  # the parts of x2_i in a binary complex rule: v = (a, b, c, d)
    "d": lambda v: v[3],
    "min_i": lambda v: v[1],  # clip's bounds: v = (x, min, max), None where a bound is absent
    "max_i": lambda v: v[2],
    "abs(x1_i)": lambda v: abs(v[0]),
}


def phrase(text: str) -> Callable[[float], bool]:
    """The predicate of a value phrase (``greater than ``0````, ``either ``+0`` or ``-0````...)."""
    for pattern, make in _PHRASES:
        m = pattern.match(text)
        if m is not None:
            return make(*m.groups())
    raise ValueError(f"unread value phrase: {text!r}")


def _condition(text: str, last_subject: str | None) -> tuple[Callable, str]:
    text = text.strip()
    m = re.match(r"^the sign bit of ``([^`]+)`` is ``([01])``$", text)
    if m:
        get, bit = _SUBJECTS[m.group(1)], m.group(2) == "1"
        return (lambda v: math.copysign(1, get(v)) < 0 if bit else math.copysign(1, get(v)) > 0), m.group(1)
    m = re.match(r"^``(x1_i)`` (equals|does not equal) ``(x2_i)``$", text)
    if m:
        equal = m.group(2) == "equals"
        return (lambda v: (v[0] == v[1]) == equal), None
    m = re.match(r"^``x2_i`` is ``(-?)x1_i``$", text)
    if m:
        sign = -1.0 if m.group(1) else 1.0
        return (lambda v: v[1] == sign * v[0]), "x2_i"
    m = re.match(r"^``(a|b)`` ``([^`]+)``$", text)  # sqrt's "If ``a`` ``-infinity``" (a word is missing)
    if m:
        text = f"``{m.group(1)}`` is ``{m.group(2)}``"
    m = re.match(r"^``([^`]+)`` is (.+) or ``([^`]+)`` is (.+)$", text)
    if m:
        g1, p1, g2, p2 = _SUBJECTS[m.group(1)], phrase(m.group(2)), _SUBJECTS[m.group(3)], phrase(m.group(4))
        return (lambda v: p1(g1(v)) or p2(g2(v))), None
    m = re.match(r"^(?:either )?``([^`]+)`` or ``([^`]+)`` is (.+)$", text)
    if m:
        g1, g2, p = _SUBJECTS[m.group(1)], _SUBJECTS[m.group(2)], phrase(m.group(3))
        return (lambda v: p(g1(v)) or p(g2(v))), m.group(2)
    m = re.match(r"^``([^`]+)`` is (.+)$", text)
    if m and m.group(1) in _SUBJECTS:
        get, p = _SUBJECTS[m.group(1)], phrase(m.group(2))
        return (lambda v: p(get(v))), m.group(1)
    if last_subject is not None and text.startswith("``") is False:  # "... and is less than 0" style
        get, p = _SUBJECTS[last_subject], phrase(text.removeprefix("is "))
        return (lambda v: p(get(v))), last_subject
    raise ValueError(f"unread condition: {text!r}")


def _split_conditions(text: str) -> list[str]:
    """ "A, B, and C" / "A and B": split on " and " and commas outside "either .. or .." phrases."""
    parts = re.split(r",? and (?=``|the sign bit|either)|, (?=``)", text)
    return [p for p in (s.strip() for s in parts) if p]


# ---- results: "the result is <result>" ------------------------------------------------------------


def _real_check(text: str, approx: bool = False) -> Callable:
    """A check ``ok(y, v)`` of a real result ``y`` for operands ``v``."""
    text = text.strip()
    if text in ("True", "False"):
        want = text == "True"
        return lambda y, v: bool(y) is want
    m = re.match(r"^(-?)\|x1_i\|$", text)
    if m:
        sign = -1.0 if m.group(1) else 1.0
        return lambda y, v: _same(y, sign * abs(v[0]))
    if text in ("x_i", "x1_i", "x2_i"):
        get = _SUBJECTS[text]
        return lambda y, v: _same(y, get(v))
    m = re.match(r"^abs\((x1_i|x2_i|a|b)\)$", text)
    if m:
        get = _SUBJECTS[m.group(1)]
        return lambda y, v: _same(y, abs(get(v)))
    if text == "0":  # a zero written without a sign (sign(+-0) is "0")
        return lambda y, v: y == 0
    want = number(text)
    if approx or "π" in text:
        return lambda y, v: math.isclose(y, want, rel_tol=1e-6)
    return lambda y, v: _same(y, want)


def _part(text: str, unsigned: bool) -> Callable:
    """A check of one part of a complex result: ``+0``, ``NaN``, ``πj/2``..."""
    text = text.replace(" ", "").removesuffix("j") or "1"
    if text.startswith("±"):
        unsigned, text = True, text[1:]
    text = {"": "1", "+": "1", "-": "-1"}.get(text, text)
    if "π" in text:  # "πj/2" was read as "π/2" (the j removed) or "3π/4"
        text = text.replace("πj", "π")
    if unsigned:
        want = abs(number(text.lstrip("+-")))
        return lambda y: math.isnan(y) if math.isnan(want) else math.isclose(abs(y), want, rel_tol=1e-6)
    return (
        _real_check(text)
        if "π" not in text
        else (lambda y, want=number(text): math.isclose(y, want, rel_tol=1e-6))
    )


def _complex_check(text: str, note: str) -> Callable:
    """A check of a complex result ``"R + Ij"`` (with the sentence's note on unspecified signs)."""
    m = re.match(r"^(±?[+-]?[^\s+±-]+)\s+([+±-])\s+(.+)$", text.strip())
    if m is None:
        raise ValueError(f"unread complex result: {text!r}")
    real, op, imag = m.group(1), m.group(2), m.group(3).replace(" ", "").replace("j", "")
    both = "signs of real and imaginary" in note
    real_unsigned = both or "real component is unspecified" in note or real.startswith("±")
    imag_unsigned = both or "imaginary component is unspecified" in note or op == "±"
    if real == "0":  # "0 + 0j": zeros written without a sign (expm1, sign)
        real_unsigned = imag_unsigned = True
    re_ok = _part(real.lstrip("±"), real_unsigned)
    im_ok = _part(("-" if op == "-" else "+") + (imag or "1"), imag_unsigned)
    return lambda y, v: re_ok(y.real) and im_ok(y.imag)


def _part(text: str, unsigned: bool) -> Callable:
    """A check ``ok(y)`` of one part of a complex result (``+0``, ``NaN``, ``π/2``...)."""
    if (text.startswith("+") and text[1:] in ("NaN", "0", "infinity")) or text == "+NaN":
        text = text if text[1:] != "NaN" else "NaN"
    elif text.startswith("+") and "π" in text:
        text = text[1:]
    want = number(text if text not in ("+1",) else "1")
    if unsigned:
        return lambda y: math.isnan(y) if math.isnan(want) else math.isclose(abs(y), abs(want), rel_tol=1e-6)
    if "π" in text:
        return lambda y: math.isclose(y, want, rel_tol=1e-6)
    return lambda y: _same(y, want)


@dataclass(frozen=True)
class Rule:
    """One sentence of the standard, machine-readable."""

    function: str
    kind: str  # "real" or "complex"
    sentence: str
    holds: Callable  # holds(v) -> whether the sentence's conditions hold for operands v (a tuple)
    check: Callable  # check(y, v, dtype) -> whether the result y is what the sentence says
    arity: int  # the operands v: 1 (x), 2 (x1, x2, or a complex x's parts a, b), 3 (clip's x, min,
    # max), 4 (a binary complex rule's parts a, b, c, d of x1 = a + bj and x2 = c + dj)
    additive: bool = False  # a sign rule: checked wherever it holds, beside the first rule that holds
    general: bool = False  # the "remaining cases" rule: also checked at the dtype's extremes

    def __repr__(self) -> str:
        return f"{self.function}: {self.sentence}"


def _strip(sentence: str) -> tuple[str, str]:
    """The sentence without its notes, and the notes (which may say a sign is unspecified)."""
    notes = " ".join(re.findall(r"\(([^()]*(?:\([^()]*\))?[^()]*)\)\s*\.?$", sentence))
    body = re.sub(r"\s*\(\*\*note\*\*.*?\)\s*$", "", sentence)
    body = re.sub(r"\s*\((?:sign|signs)[^)]*unspecified\)", "", body)
    body = re.sub(r"^Similarly, if ", "If ", body)
    return body.strip().rstrip("."), notes


def unread_reason(sentence: str) -> str | None:
    for key, reason in UNREAD.items():
        if key in sentence:
            return reason
    return None


def _arity(function: str, kind: str, text: str) -> int:
    if function == "clip":
        return 3
    if kind == "complex":
        return 4 if re.search(r"``[cd]``", text) else 2
    return 2 if "x1_i" in text or "x2_i" in text else 1


def rounded(value: float, dtype: str) -> float:
    """``value`` (a float64 result) rounded to ``dtype`` (float32 or float64), overflowing to inf."""
    with np.errstate(over="ignore"):
        return float(np.dtype(dtype).type(value))


def _ulps_close(y: float, want: float, dtype: str, ulps: int = 4) -> bool:
    if math.isnan(want) or math.isinf(want):
        return _same(y, want)
    return math.isclose(y, want, rel_tol=ulps * float(np.finfo(dtype).eps), abs_tol=0.0)


def _complex_close(y: complex, want: complex, dtype: str) -> bool:
    tol = 8 * float(np.finfo(dtype).eps)
    return abs(y - want) <= tol * max(abs(want), 1e-300)


def _general_rule(function: str, kind: str, sentence: str, body: str) -> Rule | None:
    """The "In the remaining cases" sentences (and hypot's underflow one): the general rule they state."""
    if (
        kind == "real"
        and function in GENERAL_OPERATORS
        and (body.startswith("In the remaining cases") or body.startswith("Underflow may only occur"))
    ):
        op = GENERAL_OPERATORS[function]
        involved = re.search(r"neither (.+?) is involved", body)
        excluded = []
        for text in re.findall(r"``([^`]+)``", involved.group(1)) if involved else ():
            excluded += [INF, -INF] if text == "infinity" else [number(text)]
        distinct = "have the same mathematical sign or have different magnitudes" in body  # add's x + -x
        divides = function in ("divide", "floor_divide", "remainder")

        def holds(v, excluded=tuple(excluded), distinct=distinct, divides=divides):
            if not all(math.isfinite(x) for x in v) or (v[1] == 0 and divides):  # the other sentences'
                return False
            if any(_same(x, w) for x in v for w in excluded):
                return False
            return not distinct or (v[0] < 0) == (v[1] < 0) or abs(v[0]) != abs(v[1])

        if function == "hypot":  # "underflow may only occur when both arguments are subnormal": the
            # result of normal arguments is hypot's, to a few ulps (naive sqrt(x**2 + y**2) underflows)
            check = lambda y, v, dtype: _ulps_close(y, rounded(op(*v), dtype), dtype)
        else:  # IEEE 754 basic operations are correctly rounded: exact, overflow to an infinity included
            check = lambda y, v, dtype: _same(y, rounded(op(*v), dtype))
        return Rule(function, kind, sentence, holds, check, 2, general=True)
    if (
        kind == "complex"
        and function in IMPLEMENTATION_DEPENDENT
        and body.startswith("In the remaining cases")
    ):
        reference = IMPLEMENTATION_DEPENDENT[function]
        arity = 4 if function != "sign" else 2

        def holds(v):  # (a divisor, and sign's argument, nonzero: the other sentences' cases)
            return all(math.isfinite(x) for x in v) and (function == "multiply" or any(v[arity - 2 :]))

        check = lambda y, v, dtype: _complex_close(complex(y), reference(v), dtype)
        return Rule(function, kind, sentence, holds, check, arity, general=True)
    m = re.match(r"^In the remaining cases, the result is the logical (AND|OR) .*\(i\.e\., ``(.+)``\)$", body)
    if m:  # complex equal / not_equal: the parts compared as reals
        parts = re.match(r"^a (==|!=) c (AND|OR) b (==|!=) d$", m.group(2))
        compare = operator.eq if parts.group(1) == "==" else operator.ne
        join = all if parts.group(2) == "AND" else any
        check = lambda y, v: bool(y) is join((compare(v[0], v[2]), compare(v[1], v[3])))
        return Rule(function, kind, sentence, lambda v: True, lambda y, v, d: check(y, v), 4, general=True)
    return None


def _cis_check(result: str) -> Callable | None:
    """``+infinity * cis(b)``, ``+0 * cis(b) - 1.0``...: parts of the signs of cos(b) and sin(b)."""
    m = re.match(r"^``\+(infinity|0) \* cis\(b\)( - 1\.0)?``$", result)
    if m is None:
        return None
    scale, minus_one = (INF if m.group(1) == "infinity" else 0.0), bool(m.group(2))

    def check(y, v, dtype):
        real, imag = math.copysign(scale, math.cos(v[1])), math.copysign(scale, math.sin(v[1]))
        return _same(y.real, real - 1.0 if minus_one else real) and _same(y.imag, imag)

    return check


def _round_half_even(y, v, dtype) -> bool:
    low = math.floor(v[0])
    return y == (low if low % 2 == 0 else low + 1)


def _sign_rule(conditions: str) -> Callable | None:
    same = re.match(
        r"^``(x1_i)`` and ``(x2_i)`` have (the same|different) mathematical signs?"
        r"( and are both nonzero finite numbers)?$",
        conditions,
    )
    if same is None:
        return None
    differ, nonzero_finite = same.group(3) == "different", bool(same.group(4))

    def holds(v):
        if nonzero_finite and not all(math.isfinite(x) and x != 0 for x in v):
            return False
        if any(math.isnan(x) for x in v):
            return False
        return (math.copysign(1, v[0]) != math.copysign(1, v[1])) == differ

    return holds


def _conditions(conditions: str) -> Callable:
    m = re.match(r"^``a``, ``b``, ``c``, (and|or) ``d`` (?:are all|is) ``NaN``$", conditions)
    if m:  # binary complex: every part / some part NaN
        join = all if m.group(1) == "and" else any
        return lambda v: join(math.isnan(x) for x in v)
    preds, subject = [], None
    for part in _split_conditions(conditions):
        pred, subject = _condition(part, subject)
        preds.append(pred)
    return lambda v, preds=tuple(preds): all(p(v) for p in preds)


def parse(function: str, kind: str, sentence: str) -> Rule:
    """The :class:`Rule` of one sentence (ValueError if the grammar does not read it)."""
    body, notes = _strip(sentence)
    erratum = ERRATA.get((function, kind, sentence))
    if erratum is not None:
        return Rule(function, kind, sentence, lambda v: True, erratum[0], 0)
    general = _general_rule(function, kind, sentence, body)
    if general is not None:
        return general
    arity = _arity(function, kind, body)
    m = re.match(r"^In the remaining cases, the result is (``True``|``False``)$", body)
    if m:  # isinf, isnan, equal, not_equal: False (True) wherever no sentence above holds
        check = _real_check(m.group(1).strip("`"))  # (arity 0: the other sentences' arity, see rules())
        return Rule(function, kind, sentence, lambda v: True, lambda y, v, d: check(y, v), 0)
    m = re.match(r"^If (.+?), the (real|imaginary) component of the result is ``([^`]+)``$", body)
    if m:  # binary complex add: one part of the result
        holds, part, want = _conditions(m.group(1)), m.group(2), number(m.group(3))
        check = lambda y, v, d: _same(y.real if part == "real" else y.imag, want)
        return Rule(function, kind, sentence, holds, check, arity)
    m = re.match(
        r"^If two integers are equally close to ``x_i``, the result is the even integer closest", body
    )
    if m:  # round's ties
        holds = lambda v: math.isfinite(v[0]) and v[0] - math.floor(v[0]) == 0.5
        return Rule(function, kind, sentence, holds, _round_half_even, arity)
    m = re.match(r"^If (.+?), the result (is|has) (.+)$", body)
    if m is None:
        raise ValueError(f"unread sentence: {sentence!r}")
    conditions, verb, result = m.groups()
    even = re.match(r"^(.+), even if ``(x1_i)`` is ``NaN``$", result)
    if even:
        result = even.group(1)
    holds = _sign_rule(conditions) or _conditions(conditions)
    if verb == "has":
        nan_allowed = (
            ", unless the result is ``NaN``" in result
        )  # "the "sign" of NaN is implementation-defined"
        result = result.split(", unless the result is")[0]
        sign = re.match(r"^a (positive|negative) mathematical sign$", result)
        if sign is None:
            raise ValueError(f"unread result: {result!r}")
        negative = sign.group(1) == "negative"

        def check(y, v, dtype, negative=negative, nan_allowed=nan_allowed):
            if math.isnan(y):
                return nan_allowed
            return (math.copysign(1, y) < 0) == negative

        return Rule(function, kind, sentence, holds, check, arity, additive=True)
    if result == "a signed infinity with the mathematical sign determined by the rule already stated above":
        # multiply's sign rule: negative where exactly one operand has the sign bit set
        def check(y, v, dtype):
            negative = (math.copysign(1, v[0]) < 0) != (math.copysign(1, v[1]) < 0)
            return math.isinf(y) and (y < 0) == negative

        return Rule(function, kind, sentence, holds, check, arity)
    cis = _cis_check(result)
    m_nan = re.match(r"^``NaN`` with a sign bit of ``([01])``$", result)
    approx = re.match(r"^an implementation-dependent approximation to ``([^`]+)``$", result)
    r = re.match(r"^(?:equal to |equivalent to )?``([^`]+)``$", result)
    if cis is not None:
        return Rule(function, kind, sentence, holds, cis, arity)
    if m_nan:
        check = lambda y, v: math.isnan(y)  # the sign of NaN is not read back portably
    elif approx:
        want = number(approx.group(1))
        check = lambda y, v: math.isclose(y, want, rel_tol=1e-6)
    elif r and kind == "complex" and "j" in r.group(1):
        check = _complex_check(r.group(1), notes)
    elif r:
        check = _real_check(r.group(1))
    else:
        raise ValueError(f"unread result: {result!r}")
    return Rule(function, kind, sentence, holds, lambda y, v, d, check=check: check(y, v), arity)


def rules() -> tuple[list[Rule], list[tuple[str, str, str]]]:
    """Every readable rule, and the (function, sentence, reason) of those left unread."""
    found, unread = [], []
    for function, kinds in sorted(SPECIAL_CASES.items()):
        for kind, sentences in kinds.items():
            group = []
            for sentence in sentences:
                reason = unread_reason(sentence)
                if reason is not None:
                    unread.append((function, sentence, reason))
                    continue
                group.append(parse(function, kind, sentence))
            arity = max((r.arity for r in group), default=0)
            found += [r if r.arity else dataclasses.replace(r, arity=arity) for r in group]
    return found, unread
