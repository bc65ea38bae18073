"""Learning a profile's span conventions (:mod:`.spanmodel`) from gold spans: labels, binary
logistic regressions (scikit-learn, extra ``profile``) and the choice, by cross-validation on
the training gold alone, of whether the learned step is kept."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..merge import MergeSettings
from .matrix import binary_matrix, logistic_regression
from .spanmodel import MAX_GAP, Linear, Span, SpanModel, cut_points, join_pairs, pair_features
from .spans import GoldEdit, folds, span_prf

if TYPE_CHECKING:
    from .fit import Parsed

#: regularisation of the split and join models (scikit-learn's ``C``), tried by the inner CV
SPAN_C = (0.3, 1.0)
#: folds of the cross-validation that decides whether the learned step is kept
SPAN_FOLDS = 4
#: decision thresholds on the models' scores (log-odds) tried by the inner CV
THRESHOLDS = (-1.0, 0.0, 1.0)
#: the least cross-validated span F1 gain (points) for which the learned step is kept: smaller
#: gains are within the noise of a held-out half (UA-GEC: +0.7 cross-validated on the training
#: half, -0.2 on the test half, two edits)
MIN_GAIN = 1.0
#: the variants tried: (split, join)
VARIANTS = ((True, True), (True, False), (False, True))


def parsed_folds(parsed: Sequence[Parsed], k: int) -> list[list[Parsed]]:
    """``parsed`` in ``k`` disjoint folds, by document (:func:`.spans.folds`)."""
    by_sent = {id(p.gold): p for p in parsed}
    return [[by_sent[id(s)] for s in fold] for fold in folds([p.gold for p in parsed], k)]


def _overlaps(g: GoldEdit, x: Span) -> bool:
    """Whether gold edit ``g`` covers part of the change ``x`` (on either side)."""
    if max(g.start, x[0]) < min(g.end, x[1]):
        return True
    if x[0] == x[1] and g.start < x[0] < g.end:        # an insertion inside the gold edit
        return True
    if g.c_start is None or g.c_end is None:
        return False
    return max(g.c_start, x[2]) < min(g.c_end, x[3])


def _together(gold: Sequence[GoldEdit], a: Span, b: Span) -> bool:
    """One gold edit covers part of both ``a`` and ``b``."""
    return any(_overlaps(g, a) and _overlaps(g, b) for g in gold)


def split_examples(parsed: Sequence[Parsed], settings: MergeSettings
                   ) -> list[tuple[list[str], bool]]:
    """(features, the corpus cuts here) for each cut point of errtype's edits."""
    rows = []
    for p in parsed:
        for span in p.edit_spans(settings):
            for _, left, right in cut_points(span, p.seq, p.orig, p.cor):
                rows.append((pair_features(left, right, p.orig, p.cor, p.lexicon),
                             not _together(p.gold.edits, left, right)))
    return rows


def join_examples(parsed: Sequence[Parsed], settings: MergeSettings,
                  split: Linear | None = None, max_gap: int = MAX_GAP
                  ) -> list[tuple[list[str], bool]]:
    """(features, the corpus annotates them as one edit) for each pair of neighbouring edits
    (after ``split``)."""
    rows = []
    model = SpanModel(split=split, join=None, max_gap=max_gap)
    for p in parsed:
        spans = p.edit_spans(settings, model)
        for i in join_pairs(spans, max_gap):
            a, b = spans[i], spans[i + 1]
            rows.append((pair_features(a, b, p.orig, p.cor, p.lexicon),
                         _together(p.gold.edits, a, b)))
    return rows


def fit_linear(rows: Sequence[tuple[list[str], bool]], c: float = 1.0) -> Linear | None:
    """A binary logistic regression from the features to the labels (None: one label only)."""
    learner = logistic_regression()
    labels = [y for _, y in rows]
    if len(set(labels)) < 2:
        return None
    vocab, x = binary_matrix([f for f, _ in rows])
    model = learner(C=c, max_iter=3000)
    model.fit(x, labels)
    sign = 1.0 if bool(model.classes_[1]) else -1.0
    return Linear(vocab, [sign * float(v) for v in model.coef_[0]],
                  sign * float(model.intercept_[0]))


def fit_span_model(parsed: Sequence[Parsed], settings: MergeSettings, split: bool = True,
                   join: bool = True, c: float = 1.0) -> SpanModel:
    """Split and join models learned from ``parsed``'s gold spans on top of ``settings``."""
    split_model = fit_linear(split_examples(parsed, settings), c) if split else None
    join_model = fit_linear(join_examples(parsed, settings, split_model), c) if join else None
    return SpanModel(split_model, join_model)


def _shifted(model: SpanModel, split: float, join: float) -> SpanModel:
    """``model`` with its decision thresholds moved (scores above ``split``/``join`` decide)."""
    def shift(m: Linear | None, t: float) -> Linear | None:
        return None if m is None else Linear(m.vocabulary, m.coef, m.intercept - t)
    return SpanModel(shift(model.split, split), shift(model.join, join), model.max_gap)


def choose_span_model(parsed: Sequence[Parsed], settings: MergeSettings,
                      k: int = SPAN_FOLDS) -> tuple[SpanModel | None, dict[str, Any]]:
    """The learned span step (fitted on all of ``parsed``) if one of :data:`VARIANTS`,
    :data:`SPAN_C` and :data:`THRESHOLDS` beats ``settings`` alone by :data:`MIN_GAIN` points
    of span F1 under ``k``-fold cross-validation on ``parsed``, else None; and what was
    measured (for the profile's meta)."""
    parts = [p for p in parsed_folds(parsed, k) if p]
    gold = [g for part in parts for g in ([e.key for e in p.gold.edits] for p in part)]
    base = span_prf(gold, [p.spans(settings) for part in parts for p in part])
    results: dict[tuple[bool, bool, float, float, float], float] = {}
    for split, join in VARIANTS:
        for c in SPAN_C:
            models = [fit_span_model([p for j, part in enumerate(parts) if j != i for p in part],
                                     settings, split, join, c) for i in range(len(parts))]
            for ts in THRESHOLDS if split else (0.0,):
                for tj in THRESHOLDS if join else (0.0,):
                    found = [p.spans(settings, _shifted(m, ts, tj))
                             for m, part in zip(models, parts, strict=True) for p in part]
                    results[(split, join, c, ts, tj)] = span_prf(gold, found).f1
    best = max(results, key=lambda v: round(results[v], 6))
    split, join, c, ts, tj = best
    info: dict[str, Any] = {"span_cv_f1_switches": round(base.f1, 2),
                            "span_cv_f1_learned": round(results[best], 2),
                            "span_learned": results[best] >= base.f1 + MIN_GAIN,
                            "span_variant": {"split": split, "join": join, "c": c,
                                             "split_threshold": ts, "join_threshold": tj}}
    if not info["span_learned"]:
        return None, info
    return _shifted(fit_span_model(parsed, settings, split, join, c), ts, tj), info
