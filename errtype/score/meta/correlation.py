"""Meta-evaluation: how well a metric agrees with human judgments.

* System level: Pearson r and Spearman ρ between metric and human system scores, optionally
  with a bootstrap over sentences (``n_samples=100`` as in the GECCC paper; seedable) giving
  mean ± std and a percentile confidence interval.
* Sentence level: pairwise accuracy and Kendall-like τ = (agree − disagree) / pairs against
  the pairwise preferences of ranking judgments (a metric tie counts as a disagreement, human
  ties are skipped, as in SEEDA and gec-metrics).
* Human scores: ExpectedWins (Bojar et al. 2011, as in Grundkiewicz et al. 2015) from a
  WMT/Appraise ranking XML such as ``GJG15_judgments.xml``.
"""

from __future__ import annotations

import json
import math
import os
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from ...errors import InputError
from ..common import prf

# --------------------------------------------------------------------------- correlations


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r (nan when a side is constant or there are fewer than 2 points)."""
    n = len(x)
    if n != len(y):
        raise ValueError(f"{n} values against {len(y)}")
    if n < 2:
        return math.nan
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's ρ: Pearson's r of the (tie-averaged) ranks."""
    return pearson(ranks(x), ranks(y))


def system_correlation(metric: Mapping[str, float], human: Mapping[str, float],
                       systems: Sequence[str] | None = None) -> dict[str, Any]:
    """r and ρ over the systems present in both mappings (or the given ``systems``)."""
    names = list(systems) if systems is not None else [s for s in human if s in metric]
    missing = [s for s in names if s not in metric or s not in human]
    if missing:
        raise InputError(f"no score for system(s) {', '.join(missing)}")
    if len(names) < 3:
        raise InputError(f"need at least 3 systems in common, found {len(names)}")
    m = [metric[s] for s in names]
    h = [human[s] for s in names]
    return {"pearson": pearson(m, h), "spearman": spearman(m, h), "n": len(names),
            "systems": names}


# --------------------------------------------------------------------------- bootstrap

Aggregate = Callable[[Sequence[Any]], float]


def aggregate_sum(stats: Sequence[float]) -> float:
    return float(sum(stats))


def aggregate_mean(stats: Sequence[float]) -> float:
    return sum(stats) / len(stats) if stats else 0.0


def aggregate_fscore(beta: float = 0.5) -> Aggregate:
    """Corpus F-beta of per-sentence (tp, fp, fn) counts."""

    def agg(stats: Sequence[Sequence[float]]) -> float:
        tp = sum(s[0] for s in stats)
        fp = sum(s[1] for s in stats)
        fn = sum(s[2] for s in stats)
        return prf(tp, fp, fn, beta)[2]

    return agg


def _summary(values: list[float], full: float, confidence: float) -> dict[str, Any]:
    ok = sorted(v for v in values if not math.isnan(v))
    n = len(ok)
    mean = sum(ok) / n if n else math.nan
    std = math.sqrt(sum((v - mean) ** 2 for v in ok) / (n - 1)) if n > 1 else math.nan
    alpha = (1 - confidence) / 2
    lo = _percentile(ok, alpha)
    hi = _percentile(ok, 1 - alpha)
    return {"value": full, "mean": mean, "std": std, "ci": [lo, hi], "valid_samples": n}


def _percentile(sorted_vals: list[float], q: float) -> float:
    """Linear-interpolation percentile (numpy's default method)."""
    if not sorted_vals:
        return math.nan
    pos = q * (len(sorted_vals) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def bootstrap_system_correlation(
    sentence_stats: Mapping[str, Sequence[Any]],
    human: Mapping[str, float],
    aggregate: Aggregate = aggregate_sum,
    *,
    n_samples: int = 100,
    seed: int = 0,
    confidence: float = 0.95,
    systems: Sequence[str] | None = None,
) -> dict[str, Any]:
    """System-level r and ρ with a bootstrap over sentences.

    ``sentence_stats[system]`` holds one statistic per sentence (a number, or a (tp, fp, fn)
    tuple for :func:`aggregate_fscore`), aligned across systems. Each sample draws sentence
    indices with replacement (the same draw for every system), aggregates each system and
    correlates with ``human``. Returns the full-data values and, per coefficient, the mean,
    sample standard deviation and percentile interval over the samples.
    """
    names = list(systems) if systems is not None else [s for s in human if s in sentence_stats]
    lengths = {len(sentence_stats[s]) for s in names}
    if len(lengths) > 1:
        raise InputError("systems have different numbers of sentences: "
                         + ", ".join(f"{s}={len(sentence_stats[s])}" for s in names))
    n_sent = lengths.pop() if lengths else 0
    if not n_sent:
        raise InputError("no sentence-level statistics to resample")
    full_scores = {s: aggregate(sentence_stats[s]) for s in names}
    full = system_correlation(full_scores, human, names)
    rng = random.Random(seed)
    rs: list[float] = []
    rhos: list[float] = []
    h = [human[s] for s in names]
    for _ in range(n_samples):
        idx = [rng.randrange(n_sent) for _ in range(n_sent)]
        m = [aggregate([sentence_stats[s][i] for i in idx]) for s in names]
        rs.append(pearson(m, h))
        rhos.append(spearman(m, h))
    return {"pearson": _summary(rs, full["pearson"], confidence),
            "spearman": _summary(rhos, full["spearman"], confidence),
            "n": len(names), "systems": names, "metric_scores": full_scores,
            "n_samples": n_samples, "seed": seed, "confidence": confidence,
            "sentences": n_sent}


# --------------------------------------------------------------------------- judgments


@dataclass(frozen=True)
class Ranking:
    """One ranking item: the judged sentence (0-based ``src_id``) and each system's rank."""

    item_id: str
    src_id: int
    user: str
    ranks: dict[str, int]


def read_judgments(path: str | os.PathLike[str]) -> list[Ranking]:
    """Ranking items of a WMT/Appraise XML file (``<ranking-item>`` with ``<translation>``s).

    ``system="A B"`` lists systems whose outputs were identical (collapsed): they share the
    rank. Lower rank = better.
    """
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise InputError("no such judgments file", path=str(path)) from None
    except ET.ParseError as exc:
        raise InputError(f"not well-formed XML: {exc}", path=str(path)) from None
    out = []
    for item in root.iter("ranking-item"):
        ranks: dict[str, int] = {}
        for t in item.iter("translation"):
            try:
                r = int(t.get("rank", ""))
            except ValueError:
                raise InputError(f"ranking item {item.get('id')}: bad rank {t.get('rank')!r}",
                                 path=str(path)) from None
            for s in (t.get("system") or "").split():
                ranks[s] = r
        try:
            src = int(item.get("src-id", "-1"))
        except ValueError:
            src = -1
        out.append(Ranking(item.get("id", ""), src, item.get("user", ""), ranks))
    if not out:
        raise InputError("no <ranking-item> elements found", path=str(path))
    return out


def pairwise_wins(rankings: Sequence[Ranking]) -> Counter[tuple[str, str]]:
    """``wins[(a, b)]`` = how often a was ranked strictly better than b."""
    wins: Counter[tuple[str, str]] = Counter()
    for r in rankings:
        for (a, ra), (b, rb) in combinations(r.ranks.items(), 2):
            if ra < rb:
                wins[(a, b)] += 1
            elif rb < ra:
                wins[(b, a)] += 1
    return wins


def win_rates(wins: Mapping[tuple[str, str], int], systems: Sequence[str]) -> dict[str, float]:
    """ExpectedWins from pairwise win counts: per system (in ``systems``' order), the mean over
    the other systems of wins / (wins + losses); a pair that never decides counts 0."""
    out = {}
    for s in systems:
        total = 0.0
        for o in systems:
            if o != s:
                w, lost = wins[(s, o)], wins[(o, s)]
                total += w / (w + lost) if w + lost else 0.0
        out[s] = total / (len(systems) - 1) if len(systems) > 1 else 0.0
    return out


def expected_wins(rankings: Sequence[Ranking]) -> dict[str, float]:
    """ExpectedWins: mean over the other systems of wins / (wins + losses), ties ignored."""
    systems = sorted({s for r in rankings for s in r.ranks})
    out = win_rates(pairwise_wins(rankings), systems)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def sentence_agreement(rankings: Sequence[Ranking],
                       sentence_scores: Mapping[str, Sequence[float]],
                       higher_is_better: bool = True) -> dict[str, Any]:
    """Pairwise accuracy and Kendall-like τ of sentence scores against human preferences.

    Every pair of systems ranked differently in an item (both systems scored) is one
    comparison; the metric agrees when it orders the pair the same way, and a metric tie is
    a disagreement.
    """
    agree = disagree = ties = 0
    for r in rankings:
        items = [(s, k) for s, k in r.ranks.items() if s in sentence_scores]
        for (a, ra), (b, rb) in combinations(items, 2):
            if ra == rb:
                continue
            better, worse = (a, b) if ra < rb else (b, a)
            try:
                mb, mw = sentence_scores[better][r.src_id], sentence_scores[worse][r.src_id]
            except IndexError:
                raise InputError(f"ranking item {r.item_id}: sentence {r.src_id} is beyond "
                                 f"the {len(sentence_scores[better])} scored sentences") from None
            if mb == mw:
                ties += 1
                disagree += 1
            elif (mb > mw) == higher_is_better:
                agree += 1
            else:
                disagree += 1
    n = agree + disagree
    return {"accuracy": agree / n if n else math.nan,
            "kendall": (agree - disagree) / n if n else math.nan,
            "pairs": n, "agree": agree, "disagree": disagree, "metric_ties": ties,
            "systems": sorted(s for s in sentence_scores
                              if any(s in r.ranks for r in rankings))}


# --------------------------------------------------------------------------- score files


def read_scores(path: str | os.PathLike[str], column: str | int | None = None
                ) -> dict[str, float]:
    """System scores from a file.

    * a ranking XML (``.xml``): ExpectedWins computed from the judgments;
    * JSON: ``{system: number}`` or ``{system: ScoreResult dict}`` (``column`` picks a key of
      ``corpus``, default its first);
    * text: one ``system value [value ...]`` row per line (whitespace or tabs), ``#`` comments,
      an optional header row whose second field is not a number. ``column`` is a header name
      or a 0-based index among the value columns (default: the first).
    """
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", path=str(path))
    if p.suffix.lower() == ".xml":
        return expected_wins(read_judgments(p))
    text = p.read_text(encoding="utf-8")
    if p.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return _scores_from_json(json.loads(text), column, str(path))
    rows = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    header: list[str] | None = None
    if rows and len(rows[0]) > 1 and not _is_number(rows[0][1]):
        header, rows = rows[0][1:], rows[1:]
    if column is None:
        idx = 0
    elif isinstance(column, int) or str(column).isdigit():
        idx = int(column)
    elif header and column in header:
        idx = header.index(str(column))
    else:
        raise InputError(f"no column {column!r} (header: {header})", path=str(path))
    out = {}
    for number, row in enumerate(rows, 1):
        try:
            out[row[0]] = float(row[1 + idx])
        except (IndexError, ValueError):
            raise InputError(f"row {row!r} has no number in value column {idx}",
                             path=str(path), line=number) from None
    return out


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _scores_from_json(data: Any, column: str | int | None, name: str) -> dict[str, float]:
    out = {}
    for system, v in data.items():
        if isinstance(v, (int, float)):
            out[system] = float(v)
        elif isinstance(v, dict) and isinstance(v.get("corpus"), dict):
            corpus = v["corpus"]
            key = column if column is not None else next(iter(corpus))
            if key not in corpus:
                raise InputError(f"system {system}: no corpus score {key!r}", path=name)
            out[system] = float(corpus[key])
        else:
            raise InputError(f"system {system}: expected a number or a score result", path=name)
    return out


def sentence_stats_from_json(data: Mapping[str, Any], stat: str | None = None
                             ) -> tuple[dict[str, list[Any]], str]:
    """Per-sentence statistics of ``{system: ScoreResult dict}`` and their kind.

    The kind is ``"counts"`` ((tp, fp, fn) per sentence; aggregated as F-beta) when every
    sentence has tp/fp/fn and ``stat`` is not given; otherwise the sentence field ``stat``
    (default ``score``) as numbers.
    """
    out: dict[str, list[Any]] = {}
    kinds = set()
    for system, res in data.items():
        sents = res.get("sentences") if isinstance(res, dict) else None
        if not sents:
            raise InputError(f"system {system}: the result has no per-sentence values")
        if stat is None and all({"tp", "fp", "fn"} <= s.keys() for s in sents):
            out[system] = [(s["tp"], s["fp"], s["fn"]) for s in sents]
            kinds.add("counts")
        else:
            key = stat or "score"
            if not all(key in s for s in sents):
                raise InputError(f"system {system}: sentences have no {key!r} value")
            out[system] = [float(s[key]) for s in sents]
            kinds.add(key)
    if len(kinds) > 1:
        raise InputError(f"systems carry different sentence statistics: {sorted(kinds)}")
    return out, kinds.pop() if kinds else "score"
