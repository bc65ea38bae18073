"""The meta-evaluation protocol of Napoles et al. (TACL 2019, "Enabling Robust Grammatical Error
Correction in New Domains"), for any registry metric.

Per domain: the real systems and synthetic hybrids of them (:mod:`.hybrid`) are the points; each
point has a human score (its sentences' mean human score) and a metric score (the corpus score of
its sentences). The protocol reports Pearson r and Spearman ρ over the points with a seeded
bootstrap (100 resamples of the points; percentile interval), the Williams test between metrics
(:mod:`.williams`), and for an F-measure the correlations over a β sweep (0-2).

A metric is seen through a :class:`~.hybrid.SentenceView` (:func:`metric_view`):

* ``counts``: sentences carrying ``tp``/``fp``/``fn`` (errant, maxmatch/m2, ...): the F-beta of
  the summed counts. A multi-reference scorer picks each sentence's reference by the running
  corpus totals of the real system; a hybrid keeps each sentence's pick.
* ``categories`` (``average="categories"``, ERRANT as Napoles et al. report it, "the average
  F0.5 or F0.2 score of the 24 error categories"): the mean F-beta over the error categories
  (M:/R:/U: merged, UNK left out) that occur in any real system's sentences (gold or
  hypothesis side; ERRANT's 24 on GMEG-Data), a category without edits scoring F = 1 by ERRANT's
  convention (P = 1 with nothing proposed, R = 1 with nothing to find).
* ``statistics``: a metric whose scorer has ``statistics()`` (GLEU): the hybrid's per-sentence
  n-gram statistics, scored by the metric itself.
* ``rescore``: any other metric scores each hybrid's hypotheses anew (slow for a slow metric).
* ``sentence-mean`` (``system="mean"``, any metric with sentence scores): a point's score is the
  mean of its sentences' scores (the metric's own sentence score: F, GLEU, chrF, I, ...), the
  way a point's human score is the mean of its sentences' human scores; what Popović's
  chrF++.py prints as its "avgF" beside the corpus F. Napoles et al. do not say that they scored
  systems this way; it is the reading that reproduces their CHRF++ row on FCE (with
  ``word_order=0``; docs/meta-evaluation.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...errors import InputError
from ..common import prf
from ..registry import ScoreInput, describe
from .correlation import _summary, pearson, spearman
from .hybrid import Hybrid, SentenceView, human_score

__all__ = ["BETAS", "SYSTEM_SCORES", "beta_sweep", "build_metrics", "correlate", "f_measure",
           "metric_view", "points_scores"]

#: the β sweep: 0 to 2 in steps of 0.1
BETAS = tuple(round(0.1 * k, 1) for k in range(21))
OPERATIONS = ("M:", "R:", "U:")
#: how a point's metric score is made: the metric's corpus score of its sentences, or the mean
#: of its sentence scores
SYSTEM_SCORES = ("corpus", "mean")
#: ERRANT's category of gold edits it could not type; not one of its 24 categories
UNK = "UNK"


def f_measure(metric: Any) -> bool:
    """Whether a metric is an F-measure (it takes a ``beta``)."""
    return isinstance(getattr(metric, "beta", None), (int, float))


def _counts_aggregate(beta: float) -> Callable[[list[Any]], float]:
    def agg(items: list[Any]) -> float:
        tp = fp = fn = 0.0
        for a, b, c in items:
            tp += a
            fp += b
            fn += c
        return prf(tp, fp, fn, beta)[2]

    return agg


def _category(etype: str) -> str:
    return etype[2:] if etype[:2] in OPERATIONS else etype


def _categories_aggregate(beta: float, categories: Sequence[str]
                          ) -> Callable[[list[Any]], float]:
    def agg(items: list[Any]) -> float:
        total: dict[str, list[float]] = {c: [0.0, 0.0, 0.0] for c in categories}
        for per_type in items:
            for cat, (a, b, c) in per_type.items():
                t = total.get(cat)
                if t is not None:
                    t[0] += a
                    t[1] += b
                    t[2] += c
        fs = [prf(a, b, c, beta)[2] for a, b, c in total.values()]
        return sum(fs) / len(fs) if fs else 0.0

    return agg


def _merged_types(types: Mapping[str, Sequence[float]]) -> dict[str, tuple[float, ...]]:
    out: dict[str, list[float]] = {}
    for etype, counts in types.items():
        t = out.setdefault(_category(etype), [0.0, 0.0, 0.0])
        for k in range(3):
            t[k] += counts[k]
    return {k: tuple(v) for k, v in out.items()}


def metric_view(metric: Any, inputs: Sequence[ScoreInput], average: str = "micro",
                system: str = "corpus") -> SentenceView:
    """The :class:`SentenceView` of a configured registry metric over the real systems'
    :class:`ScoreInput` s (``suite.inputs(metric)``). ``average="categories"`` gives an
    ERRANT-typed metric as the mean F over error categories; ``system="mean"`` scores a point
    by the mean of its sentence scores (see the module docstring)."""
    if average not in ("micro", "categories"):
        raise ValueError(f"unknown average {average!r} (micro, categories)")
    if system not in SYSTEM_SCORES:
        raise ValueError(f"unknown system score {system!r} ({', '.join(SYSTEM_SCORES)})")
    if system == "mean":
        if average == "categories":
            raise ValueError("a category average is a corpus score: no sentence mean of it")
        return _mean_view(metric, inputs)
    hook = _statistics_hook(metric)
    if hook is not None:
        if average == "categories":
            raise ValueError(f"{metric.name} gives no tp/fp/fn per sentence, so no category "
                             f"average")
        stats_of, from_stats = hook
        return SentenceView({d.name: stats_of(d) for d in inputs}, from_stats, "statistics")
    scorer = getattr(metric, "scorer", None)
    gleu_like = callable(scorer) and hasattr(scorer(), "statistics")
    if gleu_like:
        if average == "categories":
            raise ValueError(f"{metric.name} gives no tp/fp/fn per sentence, so no category "
                             f"average")
        return _statistics_view(metric, inputs)
    results = {d.name: metric.score(d) for d in inputs}
    first = next(iter(results.values()))
    sents = first.sentences
    beta = float(getattr(metric, "beta", 0.5))
    if sents and all(k in sents[0] for k in ("tp", "fp", "fn")):
        if average == "categories":
            if "types" not in sents[0]:
                raise ValueError(f"{metric.name} gives no error types per sentence, so no "
                                 f"category average")
            items = {n: [_merged_types(s["types"]) for s in r.sentences]
                     for n, r in results.items()}
            cats = sorted({c for rows in items.values() for per in rows for c in per} - {UNK})
            return SentenceView(items, _categories_aggregate(beta, cats), "categories")
        return SentenceView({n: [(s["tp"], s["fp"], s["fn"]) for s in r.sentences]
                             for n, r in results.items()}, _counts_aggregate(beta), "counts")
    if average == "categories":
        raise ValueError(f"{metric.name} gives no tp/fp/fn per sentence, so no category average")
    return _rescore_view(metric, inputs)


def _statistics_hook(metric: Any) -> tuple[Callable[[ScoreInput], list[Any]],
                                           Callable[[list[Any]], float]] | None:
    """(per-sentence statistics of a system, corpus score of a list of them) where the metric
    offers them: its own ``sentence_statistics(data)`` and ``from_statistics(rows)`` methods, or,
    for ``chrf`` (sacreBLEU's CHRF), sacreBLEU's per-sentence statistics (each sentence against
    its best reference, as its corpus score takes them) summed by sacreBLEU."""
    own = getattr(metric, "sentence_statistics", None), getattr(metric, "from_statistics", None)
    if all(callable(f) for f in own):
        return own  # type: ignore[return-value]
    if getattr(metric, "name", "") == "imeasure" and hasattr(metric, "w"):
        return _imeasure_hook(metric)
    if getattr(metric, "name", "") != "chrf" or not hasattr(metric, "char_order"):
        return None
    from ..extract import gold_references
    from ..ngram.chrf import _scorer

    scorer = _scorer(metric.char_order, metric.word_order, metric.beta, metric.lowercase,
                     metric.whitespace)

    def stats_of(data: ScoreInput) -> list[Any]:
        refs = (data.references if data.references is not None
                else gold_references(data.gold, metric.missing))
        return list(scorer._extract_corpus_statistics(list(data.hypotheses),
                                                      [list(r) for r in refs]))

    def from_stats(rows: list[Any]) -> float:
        return float(scorer._aggregate_and_compute(rows).score) / 100

    return stats_of, from_stats


def _imeasure_hook(metric: Any) -> tuple[Callable[[ScoreInput], list[Any]],
                                          Callable[[list[Any]], float]]:
    """The I-measure from per-sentence counts: the system's TP/TN/FP/FN/FPN against the
    reference the metric chose for the sentence, and the unchanged source's counts against the
    same reference; the corpus I is the I of the two summed WAccs, as the metric computes it."""
    from ..edits.imeasure import KEYS, align3, counts, i_measure, wacc
    from ..extract import gold_references

    base_memo: dict[tuple[str, str], tuple[int, ...]] = {}

    def stats_of(data: ScoreInput) -> list[Any]:
        refs = (data.references if data.references is not None
                else gold_references(data.gold, metric.missing))
        res = metric.score(data)
        out = []
        for i, row in enumerate(res.sentences):
            src = (data.sources or [])[i]
            cands = list(dict.fromkeys(" ".join(r[i].split()) or " ".join(src.split())
                                       for r in refs))
            ref = cands[row["reference"]]
            key = (src, ref)
            if key not in base_memo:
                b = counts(align3(src.split(), src.split(), ref.split()))
                base_memo[key] = tuple(b[k] for k in KEYS)
            out.append((tuple(row["counts"][k] for k in KEYS), base_memo[key]))
        return out

    def from_stats(rows: list[Any]) -> float:
        sys_total = [0] * len(KEYS)
        base_total = [0] * len(KEYS)
        for c, b in rows:
            for k in range(len(KEYS)):
                sys_total[k] += c[k]
                base_total[k] += b[k]
        return i_measure(wacc(dict(zip(KEYS, sys_total, strict=True)), metric.w),
                         wacc(dict(zip(KEYS, base_total, strict=True)), metric.w))

    return stats_of, from_stats


def _statistics_view(metric: Any, inputs: Sequence[ScoreInput]) -> SentenceView:
    from ..extract import gold_references

    scorer = metric.scorer()
    scorer.sentence_level = False
    base = inputs[0]
    refs = (base.references if base.references is not None
            else gold_references(base.gold, getattr(metric, "missing", "first")))
    memo: dict[Any, Any] = {}
    items = {d.name: scorer.statistics(list(d.sources or []), refs, list(d.hypotheses), memo)
             for d in inputs}
    n = len(base.hypotheses)
    blank: list[list[str]] = [[] for _ in range(n)]
    blank_refs = [blank] * len(refs)
    key = describe(metric).main

    def agg(rows: list[Any]) -> float:
        res = scorer.score(blank, blank_refs, blank, statistics=rows)
        return float(res.corpus[key or next(iter(res.corpus))])

    view = SentenceView(items, agg, "statistics")
    if (key or "gleu") == "gleu":
        view.hybrid_scores = _gleu_hybrids(scorer, items, n, len(refs))
    return view


def _gleu_hybrids(scorer: Any, items: Mapping[str, list[Any]], n: int, k: int
                  ) -> Callable[[Sequence[Hybrid]], list[float]]:
    """GLEU of hybrids, vectorised: GLEU's corpus score is the mean over its iterations of the
    score of the statistics summed with that iteration's reference per sentence, so for each
    real system the statistics each iteration draws are laid out once (sentence × (iteration,
    statistic)) and the sums of the hybrids of a pair are two matrix products with their
    sentence masks. Equal
    to :meth:`GLEU.score` of the picked statistics (``tests/test_meta_protocol.py``)."""
    import numpy as np

    draws = np.asarray(scorer._draws(k, n), dtype=np.intp)  # (iterations, sentences)
    order = scorer.order
    rows = np.arange(n)
    laid: dict[str, Any] = {}

    def layout(system: str) -> Any:
        if system not in laid:
            st = np.asarray(items[system], dtype=np.float64)  # (sentences, refs, statistics)
            picked = st[rows[None, :], draws]  # (iterations, sentences, statistics)
            laid[system] = np.ascontiguousarray(picked.transpose(1, 0, 2).reshape(n, -1))
        return laid[system]

    def scores(hybrids: Sequence[Hybrid]) -> list[float]:
        out: list[float] = [0.0] * len(hybrids)
        groups: dict[tuple[str, str], list[int]] = {}
        for j, h in enumerate(hybrids):
            groups.setdefault((h.first, h.second), []).append(j)
        for (a, b), idx in groups.items():
            masks = np.asarray([hybrids[j].from_first for j in idx], dtype=np.float64)
            totals = masks @ layout(a) + (1.0 - masks) @ layout(b)  # (hybrids, iter * stats)
            stats = totals.reshape(len(idx), len(draws), -1)
            zero = (stats == 0).any(axis=2)
            safe = np.where(stats == 0, 1.0, stats)
            c, r = safe[..., 0], safe[..., 1]
            log_prec = np.log(safe[..., 2::2] / safe[..., 3::2]).sum(axis=2) / order
            vals = np.where(zero, 0.0, np.exp(np.minimum(0.0, 1.0 - r / c) + log_prec))
            for j, v in zip(idx, vals.mean(axis=1), strict=True):
                out[j] = float(v)
        return out

    return scores


def _mean_view(metric: Any, inputs: Sequence[ScoreInput]) -> SentenceView:
    """Each point scored by the mean of its sentences' scores (unscored sentences, NaN, left
    out, as unjudged sentences are from the human mean)."""
    from ..common import sentence_scores

    beta = float(getattr(metric, "beta", 0.5))
    items = {}
    for d in inputs:
        try:
            items[d.name] = sentence_scores(metric.score(d), beta)
        except InputError as exc:
            raise InputError(f"{getattr(metric, 'name', metric)}: no sentence mean: {exc}"
                             ) from None
    return SentenceView(items, human_score, "sentence-mean")


def _rescore_view(metric: Any, inputs: Sequence[ScoreInput]) -> SentenceView:
    base = inputs[0]
    key = describe(metric).main
    has_blocks = all(d.hyp_blocks is not None for d in inputs)
    items = {d.name: list(zip(d.hypotheses, d.hyp_blocks if has_blocks else d.hypotheses,
                              strict=True)) for d in inputs}

    def agg(rows: list[Any]) -> float:
        data = ScoreInput(base.gold, [h for h, _ in rows],
                          [b for _, b in rows] if has_blocks else None, base.sources,
                          name="<hybrid>", references=base.references)
        res = metric.score(data)
        return float(res.corpus[key or next(iter(res.corpus))])

    return SentenceView(items, agg, "rescore")


def points_scores(view: SentenceView, systems: Sequence[str], hybrids: Sequence[Hybrid]
                  ) -> list[float]:
    """The metric's score of every point: the real systems, then the hybrids."""
    return [view.score(s) for s in systems] + view.scores(hybrids)


def correlate(metric: Sequence[float], human: Sequence[float], samples: int = 100,
              seed: int = 0, confidence: float = 0.95) -> dict[str, Any]:
    """Pearson r and Spearman ρ over the points, with a bootstrap: ``samples`` resamples of the
    points (with replacement, seeded), reported as mean, standard deviation and percentile
    interval around the full-data value."""
    n = len(human)
    if len(metric) != n:
        raise ValueError(f"{len(metric)} metric scores for {n} human scores")
    rng = random.Random(seed)
    rs: list[float] = []
    rhos: list[float] = []
    for _ in range(samples):
        idx = [rng.randrange(n) for _ in range(n)]
        m = [metric[i] for i in idx]
        h = [human[i] for i in idx]
        rs.append(pearson(m, h))
        rhos.append(spearman(m, h))
    return {"pearson": _summary(rs, pearson(metric, human), confidence),
            "spearman": _summary(rhos, spearman(metric, human), confidence),
            "points": n, "samples": samples, "seed": seed, "confidence": confidence}


def beta_sweep(view_at: Callable[[float], SentenceView], systems: Sequence[str],
               hybrids: Sequence[Hybrid], human: Sequence[float],
               betas: Sequence[float] = BETAS) -> list[dict[str, float]]:
    """r and ρ of an F-measure at each β (``view_at(beta)``: the metric's view with that β,
    so a scorer that picks references or edits by F-beta picks them at that β)."""
    out = []
    for b in betas:
        try:
            view = view_at(b)
        except InputError:  # a β the metric does not take (chrF's must be > 0)
            out.append({"beta": b, "pearson": math.nan, "spearman": math.nan})
            continue
        vals = points_scores(view, systems, hybrids)
        out.append({"beta": b, "pearson": pearson(vals, human), "spearman": spearman(vals, human)})
    return out


def build_metrics(specs: list[str], options: list[str]) -> list[tuple[str, Any]]:
    """(label, configured metric) per ``NAME[:KEY=VALUE,...]`` entry (the label is the entry as
    written), with the ``METRIC.KEY=VALUE`` settings of ``options`` (``-O``) for every entry of
    that metric; every value checked before any work."""
    from ..options import check_settings, declared_options, parse_value
    from ..registry import factory_of, get_metric

    common: dict[str, dict[str, tuple[str, str]]] = {}
    for opt in options:
        key, sep, val = opt.partition("=")
        name, dot, field = key.partition(".")
        if not sep or not dot or not field:
            raise InputError(f"-O expects METRIC.KEY=VALUE, got {opt!r}")
        if name not in {s.partition(":")[0] for s in specs}:
            raise InputError(f"-O {opt}: {name!r} is not one of the metrics asked for "
                             f"({', '.join(specs)})")
        common.setdefault(name, {})[field] = (val, f"-O {opt}")
    out = []
    for spec in dict.fromkeys(specs):
        name, _, rest = spec.partition(":")
        try:
            factory = factory_of(name)
        except KeyError as exc:
            raise InputError(f"metric {name}: {exc}") from None
        given = dict(common.get(name, {}))
        for part in filter(None, rest.split(",")):
            field, sep, val = part.partition("=")
            if not sep:
                raise InputError(f"metric {spec}: expected KEY=VALUE after ':', got {part!r}")
            given[field.strip()] = (val, f"--metric {spec}")
        specs_of = declared_options(factory) or {}
        settings = {k: parse_value(specs_of.get(k), v) for k, (v, _) in given.items()}
        settings = check_settings(name, factory, settings, {k: w for k, (_, w) in given.items()})
        try:
            out.append((spec, get_metric(name, **settings)))
        except (TypeError, ValueError) as exc:
            raise InputError(f"metric {spec}: {exc}") from None
    return out
