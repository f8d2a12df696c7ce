"""Exact univariate polynomials and rational functions over the rationals, for payoffs
that depend on a parameter ``e`` (an epsilon-optimal family of strategies).

A :class:`RationalFunction` is a field element (``+ - * /``, ``== 0``) kept in lowest
terms with a monic denominator, so a Markov chain whose probabilities are functions of
``e`` is solved by the same elimination as one over fractions; :func:`nonnegative_on`
decides ``p(e) >= 0`` on an interval exactly enough for a proof (Bernstein coefficients,
with subdivision: a ``True`` is a proof, ``None`` means undecided).

>>> e = RationalFunction.variable()
>>> w = (e * 1) / (1 - (1 - e))  # the chain w = e + (1 - e) w
>>> w, (1 - e) / (1 - e * e)
(1, 1/(1 + e))
>>> nonnegative_on(Poly.of(0, 1, -1), Fraction(0), Fraction(1))  # e - e^2 on [0, 1]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

Coefficients = tuple[Fraction, ...]


def _trim(c: list[Fraction]) -> Coefficients:
    while c and c[-1] == 0:
        c.pop()
    return tuple(c)


@dataclass(frozen=True)
class Poly:
    """A polynomial ``sum c[k] e^k`` (``c``: lowest degree first, no trailing zero)."""

    c: Coefficients = ()

    @staticmethod
    def of(*coefficients: Any) -> Poly:
        return Poly(_trim([Fraction(x) for x in coefficients]))

    @property
    def degree(self) -> int:
        return len(self.c) - 1

    def __bool__(self) -> bool:
        return bool(self.c)

    def __add__(self, other: Poly) -> Poly:
        n = max(len(self.c), len(other.c))
        return Poly(_trim([(self.c[k] if k < len(self.c) else 0) + (other.c[k] if k < len(other.c) else 0)
                           for k in range(n)]))

    def __neg__(self) -> Poly:
        return Poly(tuple(-x for x in self.c))

    def __sub__(self, other: Poly) -> Poly:
        return self + (-other)

    def __mul__(self, other: Poly) -> Poly:
        if not self.c or not other.c:
            return Poly()
        out = [Fraction(0)] * (len(self.c) + len(other.c) - 1)
        for i, a in enumerate(self.c):
            if a:
                for j, b in enumerate(other.c):
                    out[i + j] += a * b
        return Poly(_trim(out))

    def divmod(self, other: Poly) -> tuple[Poly, Poly]:
        if not other.c:
            raise ZeroDivisionError("division by the zero polynomial")
        rem = list(self.c)
        q = [Fraction(0)] * max(len(rem) - len(other.c) + 1, 0)
        lead = other.c[-1]
        while len(rem) >= len(other.c) and rem:
            shift = len(rem) - len(other.c)
            f = rem[-1] / lead
            q[shift] = f
            for k, b in enumerate(other.c):
                rem[shift + k] -= f * b
            rem = list(_trim(rem))
        return Poly(_trim(q)), Poly(tuple(rem))

    def monic(self) -> Poly:
        return Poly(tuple(x / self.c[-1] for x in self.c)) if self.c else self

    def __call__(self, x: Fraction) -> Fraction:
        total = Fraction(0)
        for a in reversed(self.c):
            total = total * x + a
        return total

    def __str__(self) -> str:
        if not self.c:
            return "0"
        terms = []
        for k in range(len(self.c)):
            a = self.c[k]
            if not a:
                continue
            power = "" if k == 0 else "e" if k == 1 else f"e^{k}"
            body = power if power and abs(a) == 1 else f"{abs(a)}{'*' if power else ''}{power}"
            terms.append(("- " if a < 0 else "+ ") + body)
        text = " ".join(terms)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]


#: The constant polynomial 1.
ONE = Poly((Fraction(1),))


def _gcd(a: Poly, b: Poly) -> Poly:
    while b:
        a, b = b, a.divmod(b)[1]
    return a.monic()


class RationalFunction:
    """``num/den`` in lowest terms, ``den`` monic: an element of the field Q(e)."""

    __slots__ = ("den", "num")

    def __init__(self, num: Poly, den: Poly = ONE) -> None:
        if not den:
            raise ZeroDivisionError("a rational function with denominator 0")
        g = _gcd(num, den) if num else den
        num, den = num.divmod(g)[0], den.divmod(g)[0]
        lead = den.c[-1]
        self.num = Poly(tuple(x / lead for x in num.c))
        self.den = Poly(tuple(x / lead for x in den.c))

    @staticmethod
    def variable() -> RationalFunction:
        return RationalFunction(Poly.of(0, 1))

    @staticmethod
    def lift(x: Any) -> RationalFunction:
        return x if isinstance(x, RationalFunction) else RationalFunction(Poly.of(x))

    def __add__(self, other: Any) -> RationalFunction:
        o = RationalFunction.lift(other)
        return RationalFunction(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self) -> RationalFunction:
        return RationalFunction(-self.num, self.den)

    def __sub__(self, other: Any) -> RationalFunction:
        return self + (-RationalFunction.lift(other))

    def __rsub__(self, other: Any) -> RationalFunction:
        return RationalFunction.lift(other) - self

    def __mul__(self, other: Any) -> RationalFunction:
        o = RationalFunction.lift(other)
        return RationalFunction(self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> RationalFunction:
        o = RationalFunction.lift(other)
        return RationalFunction(self.num * o.den, self.den * o.num)

    def __rtruediv__(self, other: Any) -> RationalFunction:
        return RationalFunction.lift(other) / self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int | Fraction):
            other = RationalFunction.lift(other)
        if not isinstance(other, RationalFunction):
            return NotImplemented
        return self.num == other.num and self.den == other.den

    def __hash__(self) -> int:
        return hash((self.num, self.den))

    def __bool__(self) -> bool:
        return bool(self.num)

    def at(self, x: Fraction) -> Fraction:
        return self.num(x) / self.den(x)

    def limit_at_zero(self) -> Fraction | None:
        """The limit as ``e -> 0+`` (``None``: it diverges)."""
        k = next(i for i, a in enumerate(self.den.c) if a)
        low = [a for a in self.num.c[:k] if a]
        if low:
            return None
        return (self.num.c[k] if k < len(self.num.c) else Fraction(0)) / self.den.c[k]

    def __repr__(self) -> str:
        if self.den == Poly.of(1):
            return str(self.num)
        num = str(self.num) if len([a for a in self.num.c if a]) == 1 and self.num.c[-1] > 0 \
            else f"({self.num})"
        return f"{num}/({self.den})"


def bernstein(p: Poly, a: Fraction, b: Fraction) -> list[Fraction]:
    """The Bernstein coefficients of ``p`` on ``[a, b]`` (degree ``max(deg p, 0)``): ``p``
    lies between their minimum and maximum there."""
    n = max(p.degree, 0)
    # p(a + (b - a) t) in powers of t
    shifted = [Fraction(0)] * (n + 1)
    for k, c in enumerate(p.c):
        for j in range(k + 1):  # c (a + h t)^k
            shifted[j] += c * comb(k, j) * a ** (k - j) * (b - a) ** j
    return [sum((Fraction(comb(i, j), comb(n, j)) * shifted[j] for j in range(i + 1)), Fraction(0))
            for i in range(n + 1)]


def nonnegative_on(p: Poly, a: Fraction, b: Fraction, depth: int = 12,
                   strict: bool = False) -> bool | None:
    """``True`` if ``p >= 0`` (``strict``: ``> 0``) on ``[a, b]`` (proved: every Bernstein
    coefficient on each piece of a subdivision is ``>= 0``, resp. ``> 0``), ``False`` if a
    point of it breaks it, ``None`` if ``depth`` halvings decide neither."""
    if not p:
        return not strict
    pieces = [(a, b, 0)]
    undecided = False
    while pieces:
        lo, hi, d = pieces.pop()
        coeffs = bernstein(p, lo, hi)
        if min(coeffs) > 0 or (min(coeffs) == 0 and not strict):
            continue
        bad = (lambda x: x <= 0) if strict else (lambda x: x < 0)
        if bad(coeffs[0]) or bad(coeffs[-1]):  # p(lo) or p(hi) themselves
            return False
        mid = (lo + hi) / 2
        if bad(p(mid)):
            return False
        if d >= depth:
            undecided = True
            continue
        pieces += [(lo, mid, d + 1), (mid, hi, d + 1)]
    return None if undecided else True


def at_least_on(g: RationalFunction, v: Fraction, k: Fraction, e0: Fraction) -> bool:
    """Whether ``g(e) >= v - k e`` for every ``e`` in ``(0, e0]``, proved: after the
    powers of ``e`` common to numerator and denominator are cancelled (``e > 0``), the
    denominator is positive on ``[0, e0]`` (or negative: then both signs flip) and the
    numerator of ``g - v + k e`` is nonnegative there.

    >>> e = RationalFunction.variable()
    >>> at_least_on(1 - e, Fraction(1), Fraction(1), Fraction(1)), at_least_on(1 - 2 * e, Fraction(1), Fraction(1), Fraction(1))
    (True, False)
    """
    gap = g - v + k * RationalFunction.variable()
    num, den = gap.num.c, gap.den.c
    while num and den and num[0] == 0 and den[0] == 0:
        num, den = num[1:], den[1:]
    sign = 1 if Poly(den)(e0) > 0 else -1
    if nonnegative_on(Poly(tuple(sign * a for a in den)), Fraction(0), e0, strict=True) is not True:
        return False
    return nonnegative_on(Poly(tuple(sign * a for a in num)), Fraction(0), e0) is True


def sign_near_zero(g: RationalFunction) -> int:
    """The sign of ``g(e)`` for every small enough ``e > 0`` (-1, 0 or 1).

    >>> e = RationalFunction.variable()
    >>> sign_near_zero(e - e * e), sign_near_zero((e - 1) / (e + 2)), sign_near_zero(e - e)
    (1, -1, 0)
    """
    if not g:
        return 0
    low = next(a for a in g.num.c if a)
    den = next(a for a in g.den.c if a)
    return 1 if (low > 0) == (den > 0) else -1


def lowest_near_zero(functions: list[RationalFunction]) -> RationalFunction:
    """The function of ``functions`` that is smallest for every small enough ``e > 0``."""
    best = functions[0]
    for g in functions[1:]:
        if sign_near_zero(g - best) < 0:
            best = g
    return best
