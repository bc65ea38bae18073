"""Human-relative ratio scoring (Bryant & Ng 2015, Eq. 1–3).

Given N ≥ 2 annotators A of the same sources:

* each annotator i is scored as a system against the other annotators, ``h_i = F(i, A∖{i})``,
  and the average human score is ``H = mean_i h_i``;
* a system is scored against the same leave-one-out subsets, ``s_i = F(sys, A∖{i})``,
  ``S = mean_i s_i``; its ratio is ``S / H`` (how close it gets to human performance);
* optionally the whole curve over subset sizes k = 1 … N−1: for every annotator i and every
  k-subset G of the others, ``h = F(i, G)`` and ``s = F(sys, G)``, averaged per k (all pairs, or
  a seeded sample of ``max_pairs`` when their number explodes).

The scorer is pluggable: a callable ``(hypotheses, gold_blocks, hyp_edits) -> (tp, fp, fn)``
where ``gold_blocks`` are M2 blocks restricted to a subset of annotators. Built in:
:func:`maxmatch_scorer` (m2scorer 3.2 numbers), :func:`errant_scorer` (errant_compare) and
:func:`exact_scorer` (exact edit-set matching of given edits, no dependencies).

An annotator missing from a block that lists others is taken to agree with the first one (the
CoNLL-2014 combined M2 drops duplicate annotations); see :meth:`Annotations.from_blocks`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Any

from ...errors import InputError, LineCountError
from ...m2 import M2Block, M2Edit, read_m2
from ..common import ScoreResult, prf, sentence_counts, signature
from ..edits.errant import ErrantMetric
from ..extract import annotate_to_blocks, apply_edits
from ..registry import Metric, ScoreInput, get_metric

Counts = tuple[float, float, float]
#: (hypothesis sentences, gold M2 blocks of a subset, the hypothesis' own edits or None)
Scorer = Callable[[Sequence[str], Sequence[M2Block], Sequence[Sequence[M2Edit]] | None], Counts]


# --------------------------------------------------------------------------- the annotated corpus


@dataclass
class Annotations:
    """Sources (tokenised) and every annotator's edits per sentence."""

    sources: list[str]
    annotators: list[int]
    edits: list[dict[int, list[M2Edit]]]
    #: how annotators missing from a block were read (see :meth:`from_blocks`)
    missing: str = "first"

    @classmethod
    def from_blocks(cls, blocks: Iterable[M2Block], annotators: Sequence[int] | None = None,
                    missing: str = "first") -> Annotations:
        """From M2 blocks; ``annotators`` defaults to every id seen anywhere, sorted.

        ``missing`` says what an annotator absent from a block that has other annotators did:
        ``"first"`` (default) — the same as the block's first annotator, as in the CoNLL-2014
        combined M2, which drops an annotation identical to an earlier one; ``"empty"`` — no
        correction. A block without any edit line means no annotator corrected anything.
        """
        if missing not in ("first", "empty"):
            raise ValueError(f"missing must be 'first' or 'empty', not {missing!r}")
        sources, edits = [], []
        seen: set[int] = set()
        raw = []
        for b in blocks:
            sources.append(b.source)
            per = {a: [e for e in es if not e.is_noop] for a, es in
                   b.edits_by_annotator().items()}
            seen.update(per)
            raw.append(per)
        anns = sorted(seen) if annotators is None else list(annotators)
        unknown = [a for a in anns if a not in seen]
        if unknown:
            raise InputError(f"annotator id(s) {unknown} never occur (found {sorted(seen)})")
        if len(anns) < 2:
            raise InputError(f"ratio scoring needs at least 2 annotators, found {anns}")
        for per in raw:
            if missing == "first" and per:
                first = next(iter(per.values()))
                per = {a: per.get(a, first) for a in anns}
            edits.append(per)
        return cls(sources, anns, edits, missing)

    @classmethod
    def from_m2(cls, path: Any, annotators: Sequence[int] | None = None,
                missing: str = "first") -> Annotations:
        return cls.from_blocks(read_m2(path), annotators, missing)

    @classmethod
    def from_texts(cls, sources: Sequence[str], references: Sequence[Sequence[str]],
                   annotator: Any = None, lang: str = "en", *, tokenize: bool = False
                   ) -> Annotations:
        """Extract the edits of N reference texts (``references[k][i]``) with the annotator
        (``errtype.load(lang)`` by default); reference k becomes annotator k. Text is
        whitespace-tokenised unless ``tokenize``."""
        if len(references) < 2:
            raise InputError("ratio scoring needs at least 2 references")
        for k, ref in enumerate(references):
            if len(ref) != len(sources):
                raise LineCountError(f"reference {k} has {len(ref)} lines for "
                                     f"{len(sources)} sources")
        if annotator is None:
            from ... import load

            annotator = load(lang)
        items = [(s, [r[i] for r in references]) for i, s in enumerate(sources)]
        blocks = annotate_to_blocks(annotator, items, tokenize=tokenize)
        return cls.from_blocks(blocks, list(range(len(references))))

    def __len__(self) -> int:
        return len(self.sources)

    def correction(self, ann: int) -> list[str]:
        """Annotator ``ann``'s corrected sentences (tokenised like the sources)."""
        return [apply_edits(s.split(), e.get(ann, [])) for s, e in
                zip(self.sources, self.edits, strict=True)]

    def own_edits(self, ann: int) -> list[list[M2Edit]]:
        return [list(e.get(ann, [])) for e in self.edits]

    def blocks(self, subset: Iterable[int]) -> list[M2Block]:
        """M2 blocks holding only the annotators of ``subset`` (a noop line for no edits)."""
        subset = sorted(subset)
        out = []
        for src, per in zip(self.sources, self.edits, strict=True):
            lines: list[M2Edit] = []
            for a in subset:
                es = per.get(a, [])
                lines.extend(es if es else [M2Edit.noop(a)])
            out.append(M2Block(src, lines))
        return out


# --------------------------------------------------------------------------- scorers


def _own_blocks(gold: Sequence[M2Block], own: Sequence[Sequence[M2Edit]]) -> list[M2Block]:
    return [M2Block(g.source, [M2Edit(e.start, e.end, e.type, e.cor, 0) for e in es] or
                    [M2Edit.noop(0)])
            for g, es in zip(gold, own, strict=True)]


def metric_scorer(metric: Metric, name: str | None = None) -> Scorer:
    """Corpus (tp, fp, fn) of any count-based metric of the registry
    (:func:`errtype.score.get_metric`); annotators are scored with their own edits."""

    def score(hyps: Sequence[str], gold: Sequence[M2Block],
              own: Sequence[Sequence[M2Edit]] | None = None) -> Counts:
        blocks = _own_blocks(gold, own) if own is not None else None
        counts = sentence_counts(metric.score(ScoreInput(gold, hyps, blocks)))
        return (sum(c[0] for c in counts), sum(c[1] for c in counts),
                sum(c[2] for c in counts))

    return _named(score, name or metric.name)


def maxmatch_scorer(beta: float = 0.5, max_unchanged_words: int = 2) -> Scorer:
    """MaxMatch (m2scorer 3.2) counts: best annotator of the subset per sentence."""
    return metric_scorer(get_metric("maxmatch", beta=beta,
                                    max_unchanged_words=max_unchanged_words),
                         f"maxmatch(beta={beta:g},max_unchanged_words={max_unchanged_words})")


def errant_scorer(mode: str = "cs", beta: float = 0.5, lang: str = "en",
                  annotator: Any = None) -> Scorer:
    """ERRANT (errant_compare) counts. Annotators use their own edits; systems are annotated
    once (whatever the subset)."""
    metric = ErrantMetric(mode=mode, beta=beta, lang=lang, annotator=annotator)
    cache: dict[tuple[tuple[str, ...], tuple[str, ...]], list[M2Block]] = {}

    def score(hyps: Sequence[str], gold: Sequence[M2Block],
              own: Sequence[Sequence[M2Edit]] | None = None) -> Counts:
        if own is not None:
            hyp_blocks = _own_blocks(gold, own)
        else:
            key = (tuple(g.source for g in gold), tuple(hyps))
            if key not in cache:
                cache[key] = metric.hyp_blocks(ScoreInput(gold, hyps))
            hyp_blocks = cache[key]
        c = metric.score(ScoreInput(gold, hyps, hyp_blocks)).counts
        return c["tp"], c["fp"], c["fn"]

    return _named(score, f"errant(mode={mode},beta={beta:g})")


def exact_scorer(hyps: Sequence[str], gold: Sequence[M2Block],
                 own: Sequence[Sequence[M2Edit]] | None = None) -> Counts:
    """Exact (start, end, correction) matching of the hypothesis' own edits, choosing per
    sentence the gold annotator with the best running corpus F0.5 (ties: more TP, fewer FP,
    fewer FN). Needs ``own`` edits: a dependency-free scorer for annotators and tests."""
    if own is None:
        raise InputError("exact_scorer needs the hypothesis edits (use maxmatch or errant)")
    TP = FP = FN = 0
    for block, hyp_edits in zip(gold, own, strict=True):
        hyp = {(e.start, e.end, e.cor) for e in hyp_edits if not e.is_noop}
        best: tuple[float, int, int, int] | None = None
        for es in block.edits_by_annotator().values():
            ref = {(e.start, e.end, e.cor) for e in es if not e.is_noop}
            tp, fp, fn = len(hyp & ref), len(hyp - ref), len(ref - hyp)
            f = prf(TP + tp, FP + fp, FN + fn)[2]
            cand = (f, tp, -fp, -fn)
            if best is None or cand > best:
                best = cand
        assert best is not None
        TP, FP, FN = TP + best[1], FP - best[2], FN - best[3]
    return TP, FP, FN


def _named(fn: Scorer, name: str) -> Scorer:
    fn.name = name  # type: ignore[attr-defined]
    return fn


def _scorer_name(scorer: Scorer) -> str:
    return getattr(scorer, "name", None) or getattr(scorer, "__name__", "custom").removesuffix(
        "_scorer")


# --------------------------------------------------------------------------- ratio scoring


@dataclass
class RatioResult:
    """Leave-one-out human and system scores, ratios and (optionally) the subset-size curve."""

    annotators: dict[int, dict[str, float]]
    human: float
    systems: dict[str, dict[str, Any]]
    curve: list[dict[str, Any]] = field(default_factory=list)
    signature: str = ""

    def to_score_result(self) -> ScoreResult:
        corpus = {"human_f": self.human}
        for name, s in self.systems.items():
            corpus[f"{name}:f"] = s["f"]
            corpus[f"{name}:ratio"] = s["ratio"]
        return ScoreResult("ratio", corpus, self.signature,
                           sentences=[], notes=[f"curve: {self.curve}"] if self.curve else [])

    def to_dict(self) -> dict[str, Any]:
        return {"annotators": {str(k): v for k, v in self.annotators.items()},
                "human": self.human, "systems": self.systems, "curve": self.curve,
                "signature": self.signature}


class RatioScorer:
    """Scores candidates against annotator subsets, caching every (candidate, subset) result."""

    def __init__(self, data: Annotations, scorer: Scorer, beta: float = 0.5) -> None:
        self.data = data
        self.scorer = scorer
        self.beta = beta
        self._cache: dict[tuple[str, frozenset[int]], Counts] = {}
        self._texts: dict[str, tuple[list[str], list[list[M2Edit]] | None]] = {}
        for a in data.annotators:
            self._texts[f"annotator:{a}"] = (data.correction(a), data.own_edits(a))

    def add_system(self, name: str, hypotheses: Sequence[str]) -> None:
        if len(hypotheses) != len(self.data):
            raise LineCountError(f"system {name} has {len(hypotheses)} sentences for "
                                 f"{len(self.data)} sources")
        self._texts[f"system:{name}"] = (list(hypotheses), None)

    def counts(self, key: str, subset: Iterable[int]) -> Counts:
        sub = frozenset(subset)
        hit = self._cache.get((key, sub))
        if hit is None:
            hyps, own = self._texts[key]
            hit = self._cache[(key, sub)] = tuple(  # type: ignore[assignment]
                self.scorer(hyps, self.data.blocks(sub), own))
        return hit

    def f(self, key: str, subset: Iterable[int]) -> float:
        return prf(*self.counts(key, subset), beta=self.beta)[2]


def _pairs(anns: Sequence[int], k: int, max_pairs: int | None, rng: random.Random
           ) -> list[tuple[int, tuple[int, ...]]]:
    """(annotator, k-subset of the others) pairs: all, or a sample of ``max_pairs``."""
    n = len(anns)
    total = n * comb(n - 1, k)
    if max_pairs is None or total <= max_pairs:
        return [(i, g) for i in anns for g in combinations([a for a in anns if a != i], k)]
    seen: set[tuple[int, tuple[int, ...]]] = set()
    while len(seen) < max_pairs:
        i = rng.choice(list(anns))
        g = tuple(sorted(rng.sample([a for a in anns if a != i], k)))
        seen.add((i, g))
    return sorted(seen)


def ratio_score(data: Annotations, systems: Mapping[str, Sequence[str]] | None = None,
                scorer: Scorer = exact_scorer, *, beta: float = 0.5, curve: bool = False,
                max_pairs: int | None = 200, seed: int = 0) -> RatioResult:
    """Leave-one-out human average, system scores and ratios (Bryant & Ng 2015, Eq. 1–3).

    ``systems`` maps names to hypothesis sentences tokenised like ``data.sources``. With
    ``curve=True`` the averages are computed for every subset size k = 1 … N−1; when more than
    ``max_pairs`` (annotator, subset) pairs exist for a k, a seeded sample of that many is used.
    """
    rs = RatioScorer(data, scorer, beta)
    for name, hyps in (systems or {}).items():
        rs.add_system(name, hyps)
    anns = data.annotators
    full = set(anns)
    per_ann = {}
    for a in anns:
        tp, fp, fn = rs.counts(f"annotator:{a}", full - {a})
        p, r, f = prf(tp, fp, fn, beta)
        per_ann[a] = {"tp": tp, "fp": fp, "fn": fn, "p": p, "r": r, "f": f}
    human = sum(v["f"] for v in per_ann.values()) / len(anns)
    sys_out: dict[str, dict[str, Any]] = {}
    for name in systems or {}:
        loo = {a: rs.f(f"system:{name}", full - {a}) for a in anns}
        s = sum(loo.values()) / len(anns)
        sys_out[name] = {"f": s, "ratio": s / human if human else float("nan"),
                         "leave_one_out": {str(a): v for a, v in loo.items()}}
    points = []
    if curve:
        rng = random.Random(seed)
        for k in range(1, len(anns)):
            pairs = _pairs(anns, k, max_pairs, rng)
            h = sum(rs.f(f"annotator:{i}", g) for i, g in pairs) / len(pairs)
            point: dict[str, Any] = {"k": k, "pairs": len(pairs),
                                     "all_pairs": len(anns) * comb(len(anns) - 1, k),
                                     "human": h, "systems": {}}
            for name in systems or {}:
                s = sum(rs.f(f"system:{name}", g) for _, g in pairs) / len(pairs)
                point["systems"][name] = {"f": s, "ratio": s / h if h else float("nan")}
            points.append(point)
    settings: dict[str, Any] = {"scorer": _scorer_name(scorer), "beta": beta,
                                "annotators": len(anns), "missing": data.missing,
                                "scheme": "leave-one-out"}
    if curve:
        settings.update(curve="yes", max_pairs=max_pairs, seed=seed)
    return RatioResult(per_ann, human, sys_out, points, signature("ratio", settings))
