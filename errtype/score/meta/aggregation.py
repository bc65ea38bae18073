"""System scores from a metric's sentence scores by the human evaluation protocol (Goto et al.
2025, "Rethinking evaluation metrics for grammatical error correction: why use a different
evaluation process than human?"), as gec-metrics' ``rank_systems(aggregation=...)`` computes
them.

Every sentence compares every pair of systems (i < j in the order the systems are given): the
system with the higher sentence score wins, equal scores draw. Then

* ``trueskill``: one TrueSkill pass over the comparisons, sentence by sentence and pair by pair
  in that order, with gec-metrics' settings (mu 0, sigma 0.5, beta 0.25, tau 0, draw probability
  0.25; :data:`errtype.score.meta.trueskill.GEC_METRICS`); a system's score is its mean skill;
* ``expected_wins``: the mean over the other systems of wins / (wins + losses), ties ignored
  (a pair that never decides counts 0, where gec-metrics divides by zero);
* ``default``: the metric's own corpus score (no aggregation).

A sentence score that is NaN (unscored) takes part in no comparison.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from ...errors import InputError
from .correlation import win_rates
from .trueskill import GEC_METRICS, Game, TrueSkill

__all__ = ["AGGREGATIONS", "aggregate", "describe_aggregation", "pairwise_games",
           "pairwise_wins"]

AGGREGATIONS = ("default", "trueskill", "expected_wins")


def describe_aggregation(aggregation: str, rater: TrueSkill = GEC_METRICS) -> str:
    """The aggregation and its settings, for a signature."""
    if aggregation == "trueskill":
        return (f"trueskill(mu={rater.mu:g},sigma={rater.sigma:g},beta={rater.beta:g},"
                f"tau={rater.tau:g},draw={rater.draw_probability:g},runs={rater.runs},"
                f"order={'shuffled' if rater.shuffle else 'sentence-pair'})")
    return aggregation


def _check(scores: Mapping[str, Sequence[float]]) -> int:
    if len(scores) < 2:
        raise InputError(f"ranking systems needs at least 2 systems, got {len(scores)}")
    sizes = {len(v) for v in scores.values()}
    if len(sizes) != 1:
        raise InputError("systems have different numbers of sentence scores: " + ", ".join(
            f"{s}={len(v)}" for s, v in scores.items()))
    return sizes.pop()


def pairwise_games(scores: Mapping[str, Sequence[float]], higher_is_better: bool = True
                   ) -> list[Game]:
    """The comparisons, sentence by sentence, pairs (i, j), i < j, in the mapping's order."""
    n = _check(scores)
    names = list(scores)
    games: list[Game] = []
    for k in range(n):
        for a, b in combinations(names, 2):
            x, y = scores[a][k], scores[b][k]
            if x != x or y != y:  # NaN: unscored
                continue
            if x == y:
                games.append((a, b, True))
            elif (x > y) == higher_is_better:
                games.append((a, b, False))
            else:
                games.append((b, a, False))
    return games


def pairwise_wins(scores: Mapping[str, Sequence[float]], higher_is_better: bool = True
                  ) -> dict[tuple[str, str], int]:
    """``wins[(a, b)]``: the sentences on which a scores strictly better than b."""
    wins = {(a, b): 0 for a in scores for b in scores if a != b}
    for a, b, draw in pairwise_games(scores, higher_is_better):
        if not draw:
            wins[(a, b)] += 1
    return wins


def _expected_wins(scores: Mapping[str, Sequence[float]], higher_is_better: bool
                   ) -> dict[str, float]:
    return win_rates(pairwise_wins(scores, higher_is_better), list(scores))


def aggregate(scores: Mapping[str, Sequence[float]], aggregation: str = "trueskill", *,
              higher_is_better: bool = True, rater: TrueSkill = GEC_METRICS) -> dict[str, float]:
    """System scores (in the mapping's order) from per-sentence scores ``scores[system][i]``
    by ``trueskill`` or ``expected_wins`` (see the module docstring)."""
    if aggregation == "trueskill":
        rated = rater.rate_games(pairwise_games(scores, higher_is_better))
        return {s: rated[s] for s in scores}
    if aggregation == "expected_wins":
        _check(scores)
        return _expected_wins(scores, higher_is_better)
    raise InputError(f"unknown aggregation {aggregation!r} (choose from "
                     f"{', '.join(AGGREGATIONS)}; 'default' keeps the corpus score)")
