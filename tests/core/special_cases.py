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

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from spec_special_cases import SPECIAL_CASES

INF, NAN, PI = math.inf, math.nan, math.pi

#: the real values every rule is tried on (each sign of zero and infinity, NaN, integers and halves)
REALS = (NAN, -NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 2.5, -2.5)
#: the parts of the complex values rules are tried on (the standard states them for imaginary parts with a
#: clear sign bit; the lower half-plane follows by conjugation, f(conj(z)) == conj(f(z)))
PARTS = (NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0)
IMAGINARY_PARTS = tuple(b for b in PARTS if math.copysign(1, b) > 0)

#: sentences not machine-checked, by a substring, with the reason
UNREAD: dict[str, str] = {
    "In the remaining cases": "states the general rule (rounding, Python's operator), not a special value",
    "cis(b)": "a value depending on b (+infinity * cis(b)): no fixed special value",
    "the rule already stated above": "refers to another sentence's sign rule",
    "implementation dependent": "leaves the result to the implementation",
    "implementation-defined": "leaves the result to the implementation",
    "If two integers are equally close": "round's halfway rule: the harness row checks it against NumPy",
    "is an array having a different data type": "about dtypes, not values",
    "a broadcasted element": "clip's min > max: unspecified",
    "If both ``min`` and ``max`` are ``None``": "clip's argument rule, not a value",
    "logical OR of the equality comparison": "complex not_equal's general rule (parts compared as reals)",
    "logical AND of the equality comparison": "complex equal's general rule (parts compared as reals)",
    "rules of complex number division": "refers to divide's rules",
    "``c``": "a binary complex rule (parts a, b, c, d): not machine-checked here",
    "``d``": "a binary complex rule (parts a, b, c, d): not machine-checked here",
    "Underflow may only occur": "about subnormal results, not a special value",
    "``min_i``": "clip's NaN bounds: a three-operand rule, not machine-checked here",
    "``max_i``": "clip's NaN bounds: a three-operand rule, not machine-checked here",
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
    """``x`` is exactly the value ``v`` (NaN is NaN; zeros by sign)."""
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
    check: Callable  # check(y, v) -> whether the result y is what the sentence says
    arity: int  # 1 or 2 (complex rules are unary, over (a, b))

    def __repr__(self) -> str:
        return f"{self.function}: {self.sentence}"


def _strip(sentence: str) -> tuple[str, str]:
    """The sentence without its notes, and the notes (which may say a sign is unspecified)."""
    notes = " ".join(re.findall(r"\(([^()]*(?:\([^()]*\))?[^()]*)\)\s*\.?$", sentence))
    body = re.sub(r"\s*\(\*\*note\*\*.*?\)\s*$", "", sentence)
    body = re.sub(r"\s*\((?:sign|signs)[^)]*unspecified\)", "", body)
    return body.strip().rstrip("."), notes


def unread_reason(sentence: str) -> str | None:
    for key, reason in UNREAD.items():
        if key in sentence:
            return reason
    return None


def parse(function: str, kind: str, sentence: str) -> Rule:
    """The :class:`Rule` of one sentence (ValueError if the grammar does not read it)."""
    body, notes = _strip(sentence)
    m = re.match(r"^If (.+?), the result (is|has) (.+)$", body)
    if m is None:
        raise ValueError(f"unread sentence: {sentence!r}")
    conditions, verb, result = m.groups()
    even = re.match(r"^(.+), even if ``(x1_i)`` is ``NaN``$", result)
    if even:
        result = even.group(1)
    same = re.match(
        r"^``(x1_i)`` and ``(x2_i)`` have (the same|different) mathematical signs? "
        r"and are both nonzero finite numbers$",
        conditions,
    )
    if same:
        differ = same.group(3) == "different"
        holds = lambda v: all(math.isfinite(x) and x != 0 for x in v) and ((v[0] < 0) != (v[1] < 0)) == differ
        arity = 2
    else:
        preds, subject = [], None
        for part in _split_conditions(conditions):
            pred, subject = _condition(part, subject)
            preds.append(pred)
        holds = lambda v, preds=tuple(preds): all(p(v) for p in preds)
        arity = 2 if kind == "real" and ("x1_i" in conditions or "x2_i" in conditions) else 1
    if verb == "has":
        sign = re.match(r"^a (positive|negative) mathematical sign$", result)
        if sign is None:
            raise ValueError(f"unread result: {result!r}")
        negative = sign.group(1) == "negative"
        check = lambda y, v: (not math.isnan(y)) and (math.copysign(1, y) < 0) == negative
    else:
        m_nan = re.match(r"^``NaN`` with a sign bit of ``([01])``$", result)
        approx = re.match(r"^an implementation-dependent approximation to ``([^`]+)``$", result)
        r = re.match(r"^(?:equal to |equivalent to )?``([^`]+)``$", result)
        if m_nan:
            check = lambda y, v: math.isnan(y)  # the sign of NaN is not read back portably
        elif approx:
            want = number(approx.group(1))
            check = lambda y, v: math.isclose(y, want, rel_tol=1e-6)
        elif r and kind == "complex" and "j" in r.group(1):
            check = _complex_check(r.group(1), notes)
        elif r:
            check = _real_check(r.group(1))
            if kind == "complex":  # a real result of a complex function (abs)
                real_check = check
                check = lambda y, v: real_check(y, v)
        else:
            raise ValueError(f"unread result: {result!r}")
    return Rule(function, kind, sentence, holds, check, 2 if kind == "complex" else arity)


def rules() -> tuple[list[Rule], list[tuple[str, str, str]]]:
    """Every readable rule, and the (function, sentence, reason) of those left unread."""
    found, unread = [], []
    for function, kinds in sorted(SPECIAL_CASES.items()):
        for kind, sentences in kinds.items():
            for sentence in sentences:
                reason = unread_reason(sentence)
                if reason is not None:
                    unread.append((function, sentence, reason))
                    continue
                found.append(parse(function, kind, sentence))
    return found, unread
