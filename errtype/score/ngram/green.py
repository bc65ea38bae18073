"""GREEN (Koyama et al. 2024, in gec-metrics): n-gram precision, recall and F-beta over the source
S, the hypothesis H and a reference R, as gec-metrics (0.1.x) computes it.

Definition. Texts are cut into units (``word``: the stripped text split at single spaces;
``char``: its characters), and every n-gram of order 1..N (default 4) is counted in S, H and R
(an empty text has none). For each n-gram with counts s, h, r:

* true positives: kept ``min(s, h, r)``, deleted ``max(s - max(r, h), 0)``, inserted
  ``max(min(r, h) - s, 0)``;
* false positives: over-deleted ``max(min(s, r) - h, 0)``, over-inserted ``max(h - max(s, r), 0)``;
* false negatives: under-deleted ``max(min(s, h) - r, 0)``, under-inserted
  ``max(r - max(s, h), 0)``.

Counts are summed per order n. P_n = TP/(TP+FP) (1 when FP = 0), R_n likewise with FN; P and R
are the geometric means over the orders (0 when any order is 0), and the score is F-beta of P
and R (default beta 2; 0 when P + R = 0). Per sentence, the reference with the highest score is
chosen (the first one on ties); a sentence's score is that reference's, and the corpus score is
computed from the chosen references' counts summed over the corpus.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...errors import InputError
from ..common import ScoreResult, check_parallel, signature
from ..extract import MISSING
from ..options import option
from ..registry import ScoreInput, register

__all__ = ["Green", "GreenMetric", "green_counts", "ngram_counts"]

#: one order's (tp, fp, fn)
Counts = tuple[int, int, int]
UNITS = ("word", "char")


def ngram_counts(text: str, order: int, unit: str = "word") -> Counter[tuple[str, ...]]:
    """Every n-gram (1 <= n <= ``order``) of the stripped text, with its count."""
    text = text.strip()
    if not text:
        return Counter()
    units: Sequence[str] = text.split(" ") if unit == "word" else text
    return Counter(tuple(units[i:i + n]) for n in range(1, order + 1)
                   for i in range(len(units) - n + 1))


def green_counts(src: Counter, hyp: Counter, ref: Counter, order: int) -> list[Counts]:
    """Per order n (index n - 1) the (tp, fp, fn) of a hypothesis against one reference."""
    out = [[0, 0, 0] for _ in range(order)]
    for g in src.keys() | hyp.keys() | ref.keys():
        s, h, r = src.get(g, 0), hyp.get(g, 0), ref.get(g, 0)
        c = out[len(g) - 1]
        c[0] += min(s, h, r) + max(s - max(r, h), 0) + max(min(r, h) - s, 0)
        c[1] += max(min(s, r) - h, 0) + max(h - max(s, r), 0)
        c[2] += max(min(s, h) - r, 0) + max(r - max(s, h), 0)
    return [tuple(c) for c in out]  # type: ignore[misc]


def _geometric(values: Sequence[float]) -> float:
    if 0 in values:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def green_score(counts: Sequence[Counts], beta: float) -> tuple[float, float, float]:
    """(P, R, F-beta) of per-order counts (see the module docstring)."""
    p = _geometric([tp / (tp + fp) if fp else 1.0 for tp, fp, _ in counts])
    r = _geometric([tp / (tp + fn) if fn else 1.0 for tp, _, fn in counts])
    b2 = beta ** 2
    f = float((1 + b2) * p * r) / (b2 * p + r) if p + r else 0.0
    return p, r, f


@dataclass
class Green:
    """GREEN with its settings; :meth:`score` takes sources, ``references[k][i]`` and
    hypotheses as strings."""

    order: int = 4
    beta: float = 2.0
    unit: str = "word"
    _cache: dict[str, Counter] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise InputError(f"GREEN unit must be one of {', '.join(UNITS)}, not {self.unit!r}")
        if self.order < 1:
            raise InputError(f"GREEN needs n >= 1, not {self.order}")

    def settings(self) -> dict[str, Any]:
        return {"n": self.order, "beta": float(self.beta), "unit": self.unit,
                "refs": "best-per-sentence", "variant": "gec-metrics"}

    def _grams(self, text: str) -> Counter:
        got = self._cache.get(text)
        if got is None:
            if len(self._cache) > 200_000:
                self._cache.clear()
            got = self._cache[text] = ngram_counts(text, self.order, self.unit)
        return got

    def sentence(self, src: str, hyp: str, refs: Sequence[str]
                 ) -> tuple[int, list[Counts], float]:
        """(chosen reference, its per-order counts, its F) of one sentence."""
        s, h = self._grams(src), self._grams(hyp)
        best_k, best, best_f = 0, None, 0.0
        for k, ref in enumerate(refs):
            counts = green_counts(s, h, self._grams(ref), self.order)
            f = green_score(counts, self.beta)[2]
            if best is None or f > best_f:
                best_k, best, best_f = k, counts, f
        assert best is not None
        return best_k, best, best_f

    def score(self, sources: Sequence[str], references: Sequence[Sequence[str]],
              hypotheses: Sequence[str], name: str = "green") -> ScoreResult:
        """Corpus and sentence scores; ``references[k][i]`` is reference k of sentence i."""
        check_parallel("GREEN", sources, references, hypotheses)
        n = len(sources)
        total = [[0, 0, 0] for _ in range(self.order)]
        rows = []
        for i in range(n):
            k, counts, f = self.sentence(sources[i], hypotheses[i],
                                         [r[i] for r in references])
            for t, c in zip(total, counts, strict=True):
                t[0] += c[0]
                t[1] += c[1]
                t[2] += c[2]
            rows.append({"id": i, "score": f, "reference": k, "counts": [list(c) for c in counts]})
        p, r, f = green_score([tuple(t) for t in total], self.beta)  # type: ignore[misc]
        return ScoreResult(
            metric=name, corpus={"green": f, "p": p, "r": r},
            signature=signature(name, self.settings()),
            counts={f"{x}{o + 1}": total[o][j] for o in range(self.order)
                    for j, x in enumerate(("tp", "fp", "fn"))},
            sentences=rows)


@register("green")
@dataclass
class GreenMetric:
    """GREEN against the reference texts, or else the gold annotators' corrected sentences (one
    reference per annotator; ``missing``: see :func:`errtype.score.extract.gold_references`).
    ``unit="char"`` (or the name ``green-char``) counts character n-grams."""

    n: int = option(4, ge=1)
    beta: float = option(2.0, ge=0)
    unit: str = option("word", choices=UNITS)
    missing: str = option("first", choices=MISSING)
    name: str = "green"
    main: ClassVar[str] = "green"
    uses: ClassVar[tuple[str, ...]] = ("references",)
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    _green: Green | None = field(default=None, repr=False, compare=False)

    def scorer(self) -> Green:
        """The configured :class:`Green` (its n-gram cache is kept across systems)."""
        if self._green is None:
            self._green = Green(self.n, self.beta, self.unit)
        return self._green

    def settings(self) -> dict[str, Any]:
        return {**self.scorer().settings(), "gold": f"texts-or-m2-{self.missing}"}

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import gold_references

        refs = (data.references if data.references is not None
                else gold_references(data.gold, self.missing))
        res = self.scorer().score(list(data.sources or []), refs, list(data.hypotheses),
                                  self.name)
        res.signature = signature(self.name, self.settings())
        return res


def _char(**settings: Any) -> GreenMetric:
    settings.setdefault("unit", "char")
    settings.setdefault("name", "green-char")
    return GreenMetric(**settings)


register("green-char", _char)
