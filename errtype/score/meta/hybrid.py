"""Synthetic systems by hybrid super-sampling (Graham & Liu 2016; Napoles et al. 2019, §5.2).

A hybrid of two real systems A and B takes a share s of the sentences (s drawn uniformly from
10 % to 90 %, the sentences drawn at random without replacement) from A and the rest from B. Its
human score is the mean of the human scores of the sentences it contains; its metric score is the
metric's corpus score of the picked sentences: recomputed from their per-sentence statistics
(:class:`SentenceView`), so no hybrid is scored from scratch unless the metric gives no such
statistics. The draw depends only on the seed, the system names and the sentence count, so every
metric sees the same hybrids.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...errors import InputError

__all__ = ["Hybrid", "SentenceView", "human_score", "super_sample"]

#: the share of sentences taken from the first system of a pair (Napoles et al. 2019: 10 %-90 %)
SHARE = (0.1, 0.9)


@dataclass(frozen=True)
class Hybrid:
    """A synthetic system: sentence i comes from ``first`` where ``from_first[i]``, else from
    ``second``."""

    first: str
    second: str
    from_first: tuple[bool, ...]

    @property
    def name(self) -> str:
        k = sum(self.from_first)
        return f"{self.first}+{self.second}@{k}/{len(self.from_first)}"

    @property
    def share(self) -> float:
        """The share of sentences taken from ``first``."""
        return sum(self.from_first) / len(self.from_first)

    def pick(self, per_system: Mapping[str, Sequence[Any]]) -> list[Any]:
        """The hybrid's sentence items from the real systems' (``per_system[name][i]``)."""
        a, b = per_system[self.first], per_system[self.second]
        return [x if f else y for f, x, y in zip(self.from_first, a, b, strict=True)]


def super_sample(systems: Sequence[str], n_sentences: int, count: int, seed: int = 0,
                 share: tuple[float, float] = SHARE) -> list[Hybrid]:
    """``count`` hybrids of pairs of ``systems``: the pairs taken in turn (each unordered pair,
    in the order of ``systems``), a share drawn uniformly from ``share`` and that many sentences
    (at least one from each system) drawn for the first system of the pair."""
    if len(systems) < 2:
        raise InputError("hybrid super-sampling needs at least 2 systems")
    if n_sentences < 2:
        raise InputError("hybrid super-sampling needs at least 2 sentences")
    lo, hi = share
    if not 0 < lo <= hi < 1:
        raise InputError(f"the share of a hybrid must lie in (0, 1), got {lo}-{hi}")
    pairs = list(combinations(systems, 2))
    rng = random.Random(seed)
    out = []
    for k in range(count):
        a, b = pairs[k % len(pairs)]
        s = rng.uniform(lo, hi)
        take = min(n_sentences - 1, max(1, round(s * n_sentences)))
        chosen = set(rng.sample(range(n_sentences), take))
        out.append(Hybrid(a, b, tuple(i in chosen for i in range(n_sentences))))
    return out


def human_score(sentence_scores: Sequence[float | None]) -> float:
    """The mean of the sentences' human scores (unjudged sentences, None or nan, left out)."""
    vals = [v for v in sentence_scores if v is not None and not math.isnan(v)]
    if not vals:
        return math.nan
    return sum(vals) / len(vals)


@dataclass
class SentenceView:
    """A metric seen sentence by sentence: one item per sentence of each real system
    (``items[system][i]``) and ``aggregate`` turning any list of items (one per sentence) into
    the metric's corpus score. ``kind`` says how: ``counts`` (F-beta of summed tp/fp/fn),
    ``categories`` (mean F-beta over error categories), ``statistics`` (the metric's own
    sufficient statistics, e.g. GLEU's n-gram counts) or ``rescore`` (the picked hypotheses
    scored anew)."""

    items: dict[str, list[Any]]
    aggregate: Callable[[list[Any]], float]
    kind: str
    #: a faster way to the same scores of many hybrids, where the metric has one
    hybrid_scores: Callable[[Sequence[Hybrid]], list[float]] | None = None

    def scores(self, hybrids: Sequence[Hybrid]) -> list[float]:
        """The corpus scores of hybrids."""
        if self.hybrid_scores is not None:
            return self.hybrid_scores(hybrids)
        return [self.aggregate(h.pick(self.items)) for h in hybrids]

    def score(self, system: str | Hybrid) -> float:
        """The corpus score of a real system (by name) or a hybrid."""
        if isinstance(system, Hybrid):
            return self.scores([system])[0]
        return self.aggregate(self.items[system])
