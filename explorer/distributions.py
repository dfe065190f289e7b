"""Small exact discrete distributions.

A :class:`Dist` maps outcomes (any hashable: ints, tuples...) to probabilities. The same code runs with two
number types:

* ``float`` -- the fast path (default everywhere);
* :class:`fractions.Fraction` -- the exact path (``exact=True``): every probability is a ratio of integers, so a
  result can be compared with a brute-force enumeration by ``==``.

For speed, exact computations over dice can also count outcomes in plain integers over a common denominator
(``faces ** n``) and convert to Fractions once at the end: :func:`binomial_counts`, :func:`scale_counts` and
:func:`fractions_over` are the helpers for that (Python ints are exact and much cheaper than Fraction arithmetic,
which normalises by a gcd after every operation).

Helpers build the distributions the dice games need (binomial, multinomial, the maximum of ``n`` i.i.d. draws)
and combine them (convolution, capping, mixtures). Nothing here knows a game rule.

Example:
    >>> d = binomial(2, Fraction(1, 2), exact=True)
    >>> d.to_dict()
    {0: '1/4', 1: '1/2', 2: '1/4'}
    >>> str(d.mean())
    '1'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from typing import Any, Union

Number = Union[float, Fraction]


def number(exact: bool) -> type:
    """The number type of a path: :class:`Fraction` when ``exact`` else ``float``."""
    return Fraction if exact else float


def ratio(num: int, den: int, exact: bool) -> Number:
    """``num/den`` as a Fraction (exact) or a float."""
    return Fraction(num, den) if exact else num / den


def fmt(p: Number) -> str | float:
    """JSON-friendly probability: a Fraction becomes ``"n/d"`` (``"0"``, ``"1"`` for integers), a float stays."""
    if isinstance(p, Fraction):
        return str(p)
    return float(p)


class Dist:
    """A finite discrete distribution ``{outcome: probability}``.

    Zero-probability outcomes are dropped. Probabilities are floats or Fractions (never mixed by the helpers
    here). The class does not renormalise: a sub-distribution (total < 1) is allowed for intermediate sums.

    Args:
        probs: mapping or iterable of ``(outcome, probability)``; repeated outcomes are added.
    """

    __slots__ = ("p",)

    def __init__(self, probs: Mapping[Hashable, Number] | Iterable[tuple[Hashable, Number]] = ()):
        items = probs.items() if isinstance(probs, Mapping) else probs
        p: dict[Hashable, Number] = {}
        for k, v in items:
            if v:
                p[k] = p.get(k, 0) + v
        self.p = p

    # -- constructors -------------------------------------------------------------------------------------------
    @classmethod
    def point(cls, outcome: Hashable, exact: bool = False) -> "Dist":
        """All the mass on one outcome."""
        return cls({outcome: Fraction(1) if exact else 1.0})

    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable], exact: bool = False) -> "Dist":
        """Equal mass on each listed outcome (repeats add up), e.g. ``Dist.uniform(range(1, 21))`` is a d20."""
        outcomes = list(outcomes)
        w = ratio(1, len(outcomes), exact)
        return cls((o, w) for o in outcomes)

    # -- views ----------------------------------------------------------------------------------------------------
    def __getitem__(self, outcome: Hashable) -> Number:
        return self.p.get(outcome, 0)

    def __iter__(self):
        return iter(self.p)

    def __len__(self) -> int:
        return len(self.p)

    def items(self):
        return self.p.items()

    def total(self) -> Number:
        """Sum of all probabilities (1 for a distribution)."""
        return sum(self.p.values())

    def mean(self) -> Number:
        """Expected value (numeric outcomes only)."""
        return sum(k * v for k, v in self.p.items())

    def map(self, f: Callable[[Any], Hashable]) -> "Dist":
        """Distribution of ``f(outcome)`` (masses of outcomes with the same image add up)."""
        return Dist((f(k), v) for k, v in self.p.items())

    def cap(self, limit: int | None) -> "Dist":
        """Numeric outcomes above ``limit`` are moved onto ``limit`` (``None``: unchanged)."""
        if limit is None:
            return self
        return self.map(lambda k: min(k, limit))

    def scale(self, w: Number) -> "Dist":
        return Dist((k, v * w) for k, v in self.p.items())

    def __add__(self, other: "Dist") -> "Dist":
        """Mixture sum (masses added outcome by outcome), not a convolution."""
        out = dict(self.p)
        for k, v in other.p.items():
            out[k] = out.get(k, 0) + v
        return Dist(out)

    def to_list(self, length: int | None = None) -> list[Number]:
        """Probabilities of the non-negative integer outcomes ``0..max`` (or ``0..length-1``) as a list."""
        n = (max(self.p) + 1 if self.p else 1) if length is None else length
        zero = next(iter(self.p.values())) * 0 if self.p else 0.0
        return [self.p.get(i, zero) for i in range(n)]

    def to_dict(self) -> dict:
        """JSON-friendly ``{outcome: probability}`` (Fractions as ``"n/d"``), outcomes sorted."""
        return {k: fmt(v) for k, v in sorted(self.p.items(), key=lambda kv: _sort_key(kv[0]))}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self.p == other.p

    def __repr__(self) -> str:
        return f"Dist({self.to_dict()!r})"


def _sort_key(k: Any):
    if isinstance(k, tuple):
        return tuple(_sort_key(x) for x in k)
    return (0, k) if isinstance(k, (int, float)) else (1, str(k))


# -- helpers ----------------------------------------------------------------------------------------------------

def binomial_pmf(n: int, p: Number) -> list[Number]:
    """``[P(X = k) for k in 0..n]`` for ``X ~ Binomial(n, p)``; exact when ``p`` is a Fraction.

    Raises:
        ValueError: ``n < 0`` or ``p`` outside [0, 1].
    """
    if n < 0 or not 0 <= p <= 1:
        raise ValueError(f"binomial needs n >= 0 and 0 <= p <= 1, got n={n}, p={p}")
    q = 1 - p
    pp = _powers(p, n)
    qp = _powers(q, n)
    return [math.comb(n, k) * pp[k] * qp[n - k] for k in range(n + 1)]


def binomial(n: int, p: Number, exact: bool | None = None) -> Dist:
    """``Binomial(n, p)`` as a :class:`Dist` over ``0..n`` (``exact`` converts ``p`` to a Fraction)."""
    if exact:
        p = Fraction(p)
    return Dist(enumerate(binomial_pmf(n, p)))


def multinomial(n: int, probs: Mapping[Hashable, Number]) -> Dist:
    """Counts of each category in ``n`` independent draws: a Dist over tuples of counts, in the order of ``probs``.

    ``probs`` must sum to 1 (not checked for floats).
    """
    cats = list(probs)
    out: dict[tuple, Number] = {}

    def rec(i: int, left: int, counts: tuple, weight: Number, coef: int):
        if i == len(cats) - 1:
            out[counts + (left,)] = weight * coef * _pow(probs[cats[i]], left)
            return
        pk = probs[cats[i]]
        for k in range(left + 1):
            rec(i + 1, left - k, counts + (k,), weight * _pow(pk, k), coef * math.comb(left, k))

    if not cats:
        return Dist()
    one = sum(probs.values()) * 0 + 1
    rec(0, n, (), one, 1)
    return Dist(out)


def convolve(a: Dist, b: Dist, op: Callable[[Any, Any], Hashable] = lambda x, y: x + y) -> Dist:
    """Distribution of ``op(x, y)`` for independent ``x ~ a``, ``y ~ b`` (default: the sum)."""
    out: dict[Hashable, Number] = {}
    for ka, va in a.p.items():
        for kb, vb in b.p.items():
            k = op(ka, kb)
            out[k] = out.get(k, 0) + va * vb
    return Dist(out)


def convolve_lists(a: list[Number], b: list[Number]) -> list[Number]:
    """Sum of two independent non-negative integer variables given as probability lists indexed by value."""
    if not a or not b:
        return []
    out = [a[0] * 0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def cap_list(p: list[Number], limit: int | None) -> list[Number]:
    """Move the mass of every index above ``limit`` onto ``limit`` (``None``: unchanged)."""
    if limit is None or limit >= len(p) - 1:
        return list(p)
    return list(p[:limit]) + [sum(p[limit:])]


def max_of_iid(single: Mapping[Any, Number], n: int) -> Dist:
    """Distribution of the maximum of ``n`` i.i.d. draws with ordered outcomes ``single``:
    ``P(max <= m) = F(m)^n``. ``n = 0`` raises (the maximum of nothing is the caller's convention)."""
    if n < 1:
        raise ValueError("max_of_iid needs n >= 1")
    out: dict[Any, Number] = {}
    cdf = 0
    prev = 0
    for k in sorted(single):
        cdf = cdf + single[k]
        cur = _pow(cdf, n)
        out[k] = cur - prev
        prev = cur
    return Dist(out)


def _pow(x: Number, k: int) -> Number:
    return x ** k if k else x * 0 + 1


def _powers(x: Number, n: int) -> list[Number]:
    out = [x * 0 + 1]
    for _ in range(n):
        out.append(out[-1] * x)
    return out


def binomial_counts(n: int, k_faces: int, faces: int) -> list[int]:
    """Integer counts of ``Binomial(n, k_faces/faces)`` over the common denominator ``faces ** n``:
    ``[comb(n, k) * k_faces**k * (faces - k_faces)**(n - k) for k in 0..n]`` (they sum to ``faces ** n``).

    Raises:
        ValueError: ``n < 0`` or ``k_faces`` outside ``0..faces``.
    """
    if n < 0 or not 0 <= k_faces <= faces:
        raise ValueError(f"binomial_counts needs n >= 0 and 0 <= k_faces <= faces, got {n}, {k_faces}, {faces}")
    pp = _powers(k_faces, n)
    qp = _powers(faces - k_faces, n)
    return [math.comb(n, k) * pp[k] * qp[n - k] for k in range(n + 1)]


def scale_counts(counts: list[int], factor: int) -> list[int]:
    """Every count multiplied by ``factor`` (to move counts onto a larger common denominator)."""
    return counts if factor == 1 else [c * factor for c in counts]


def fractions_over(counts: Iterable[int], den: int) -> list[Fraction]:
    """``[Fraction(c, den) for c in counts]``: integer counts over a common denominator, as exact probabilities."""
    return [Fraction(c, den) for c in counts]


def total_variation(a: Dist, b: Dist) -> float:
    """Half the L1 distance between two distributions (a float)."""
    keys = set(a.p) | set(b.p)
    return float(sum(abs(a[k] - b[k]) for k in keys)) / 2
