"""The Williams test for the difference of two dependent correlations (Williams 1959, in the
form Graham & Baldwin 2014 use for MT metrics and Napoles et al. 2019 for GEC metrics).

Two metrics scored on the same n systems correlate with the human score (r12, r13) and with each
other (r23). Whether metric 1 correlates better than metric 2 is a one-sided test on

    t = (r12 - r13) * sqrt((n - 1) (1 + r23))
        / sqrt(2 K (n - 1) / (n - 3) + (r12 + r13)^2 / 4 * (1 - r23)^3),
    K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23,

against Student's t with n - 3 degrees of freedom (as in github.com/ygraham/significance-williams).
The t distribution's tail is computed here from the regularised incomplete beta function (a
Lentz continued fraction), so no SciPy is needed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .correlation import pearson

__all__ = ["t_sf", "williams", "williams_matrix"]


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
          + b * math.log1p(-x))
    front = math.exp(ln)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom."""
    if math.isnan(t) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t > 0 else 1.0 - tail


def williams(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """(t, one-sided p) of "r12 > r13": variable 1 (the human score) correlates more strongly
    with variable 2 (metric A) than with variable 3 (metric B); r23 = corr(A, B); n points."""
    if n < 4:
        raise ValueError(f"the Williams test needs at least 4 points, got {n}")
    k = 1 - r12 * r12 - r13 * r13 - r23 * r23 + 2 * r12 * r13 * r23
    den = 2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2 / 4) * (1 - r23) ** 3
    if den <= 0 or any(math.isnan(v) for v in (r12, r13, r23)):
        return math.nan, math.nan
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(den)
    return t, t_sf(t, n - 3)


def williams_matrix(scores: Mapping[str, Sequence[float]], human: Sequence[float]
                    ) -> dict[str, dict[str, float]]:
    """``p[a][b]``: the one-sided p-value that metric ``a`` correlates (Pearson) better with
    ``human`` than metric ``b`` does, every metric scored on the same points (nan on the
    diagonal, as in Figure 3 of Napoles et al. 2019)."""
    names = list(scores)
    r_h = {m: pearson(scores[m], human) for m in names}
    n = len(human)
    out: dict[str, dict[str, float]] = {}
    for a in names:
        out[a] = {}
        for b in names:
            if a == b:
                out[a][b] = math.nan
                continue
            out[a][b] = williams(r_h[a], r_h[b], pearson(scores[a], scores[b]), n)[1]
    return out
