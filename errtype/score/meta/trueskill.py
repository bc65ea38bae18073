"""TrueSkill ratings of systems from ranking judgments (Herbrich, Minka and Graepel 2007), the
human score of WMT from 2014 and of GJG15 and SEEDA.

Each ranking item is split into its pairwise comparisons (a strictly better rank wins; equal ranks
draw), and every comparison updates the two systems' Gaussian skill beliefs with the two-player
TrueSkill update. One pass over the comparisons depends on their order (late comparisons weigh
more as the beliefs narrow), so the score of a system is its mean skill ``mu`` averaged over
``runs`` passes, each over the comparisons in a seeded random order (``runs=1, shuffle=False``:
one pass in file order). The published TrueSkill columns come from other random orders, so they
are reproduced up to that randomness: on GJG15's judgments, 50 runs give Pearson 0.994 and
Spearman 0.956 with its published column (``tests/test_meta.py``).

The same rater ranks systems from a metric's sentence scores (:mod:`.aggregation`: the
comparisons of every pair of systems on every sentence, one pass in that order, as
gec-metrics' ``rank_systems(aggregation="trueskill")``; :data:`GEC_METRICS`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from statistics import NormalDist

from .correlation import Ranking

__all__ = ["GEC_METRICS", "Game", "TrueSkill", "trueskill"]

#: one comparison: (winner, loser, draw); for a draw the order of the two is immaterial
Game = tuple[str, str, bool]

_N = NormalDist()


def _pdf(x: float) -> float:
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def _cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _win(t: float, e: float) -> tuple[float, float]:
    """(v, w) of a win by margin ``t`` with draw margin ``e`` (both scaled by c)."""
    denom = _cdf(t - e)
    if denom < 1e-300:  # far in the tail: the asymptotic values
        v = -(t - e)
        return v, 1.0
    v = _pdf(t - e) / denom
    return v, v * (v + t - e)


def _draw(t: float, e: float) -> tuple[float, float]:
    denom = _cdf(e - t) - _cdf(-e - t)
    if denom < 1e-300:
        v = -t - e if t < 0 else -t + e
        return v, 1.0
    v = (_pdf(-e - t) - _pdf(e - t)) / denom
    w = v * v + ((e - t) * _pdf(e - t) + (e + t) * _pdf(e + t)) / denom
    return v, w


@dataclass(frozen=True)
class TrueSkill:
    """Settings: initial mean and deviation, performance noise ``beta``, dynamics ``tau``, the
    probability of a draw (WMT's and GJG15's scale: mu 0, sigma 0.5), and the averaging over
    ``runs`` seeded shuffles of the comparisons."""

    mu: float = 0.0
    sigma: float = 0.5
    beta: float = 0.25
    tau: float = 0.005
    draw_probability: float = 0.25
    runs: int = 20
    seed: int = 0
    shuffle: bool = True

    def signature(self) -> str:
        return (f"trueskill|mu:{self.mu:g}|sigma:{self.sigma:g}|beta:{self.beta:g}|"
                f"tau:{self.tau:g}|draw:{self.draw_probability:g}|runs:{self.runs}|"
                f"seed:{self.seed}|shuffle:{int(self.shuffle)}")

    def rate(self, rankings: Sequence[Ranking], systems: Sequence[str] | None = None
             ) -> dict[str, float]:
        """Mean skill of every system (or of ``systems``), best first."""
        keep = set(systems) if systems is not None else None
        games: list[Game] = []
        for r in rankings:
            items = [(s, k) for s, k in r.ranks.items() if keep is None or s in keep]
            for (a, ra), (b, rb) in combinations(items, 2):
                games.append((b, a, True) if ra == rb else (a, b, False) if ra < rb
                             else (b, a, False))
        return self.rate_games(games)

    def rate_games(self, games: Sequence[Game]) -> dict[str, float]:
        """Mean skill of every system playing in ``games``, best first (see :meth:`rate`)."""
        total: dict[str, float] = {s: 0.0 for g in games for s in g[:2]}
        for run in range(max(self.runs, 1)):
            order = list(games)
            if self.shuffle:
                random.Random(self.seed + run).shuffle(order)
            for s, m in self._pass(order).items():
                total[s] += m
        n = max(self.runs, 1)
        return dict(sorted(((s, v / n) for s, v in total.items()), key=lambda kv: -kv[1]))

    def _pass(self, games: Sequence[Game]) -> dict[str, float]:
        margin = math.sqrt(2) * self.beta * _N.inv_cdf((self.draw_probability + 1) / 2)
        mu: dict[str, float] = {}
        var: dict[str, float] = {}
        for a, b, draw in games:
            for s in (a, b):
                mu.setdefault(s, self.mu)
                var[s] = var.get(s, self.sigma ** 2) + self.tau ** 2
            c = math.sqrt(2 * self.beta ** 2 + var[a] + var[b])
            t, e = (mu[a] - mu[b]) / c, margin / c
            v, w = _draw(t, e) if draw else _win(t, e)
            mu[a] += var[a] / c * v
            mu[b] -= var[b] / c * v
            var[a] *= max(1 - var[a] / c ** 2 * w, 1e-12)
            var[b] *= max(1 - var[b] / c ** 2 * w, 1e-12)
        return mu


#: the settings of gec-metrics' aggregation (``MetricBase.run_trueskill``, from Goto et al.
#: 2025): no dynamics, one pass over the comparisons in the order given
GEC_METRICS = TrueSkill(mu=0.0, sigma=0.5, beta=0.25, tau=0.0, draw_probability=0.25, runs=1,
                        shuffle=False)


def trueskill(rankings: Sequence[Ranking], **settings: float) -> dict[str, float]:
    """:meth:`TrueSkill.rate` with the given settings."""
    return TrueSkill(**settings).rate(rankings)  # type: ignore[arg-type]
