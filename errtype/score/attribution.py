"""Edit attribution: how much each hypothesis edit contributes to a sentence-level metric's score
(Goto et al. 2024, "Improving Explainability of Sentence-level Metrics via Edit-level Attribution
for Grammatical Error Correction", arXiv:2412.13110; gec-metrics' ``analysis.attributor``).

Definitions. A hypothesis H of source S has the edits E = {e_1..e_n} (its M2 block: the edits
errtype extracted, or the system's own M2; noop lines are not edits). For a subset T of E, S+T is
the source with T applied (:func:`errtype.m2.apply_edits`, m2scorer rules: offsets of the
source, edits in span order; an edit overlapping a longer one is left out), and
v(T) = M(S+T) - M(S), M being the metric's sentence score (:func:`sentence_value`). The sentence's
total is ΔM = M(H) - M(S) (H as the system wrote it, as gec-metrics does).

* ``shapley``: phi_j = sum over T ⊆ E \\ {e_j} of |T|! (n-|T|-1)! / n! · (v(T ∪ {e_j}) - v(T)).
  Exact (all 2^n subsets scored) for n <= ``max_exact`` (default :data:`MAX_EXACT` = 10, 1024
  subsets), and also while 2^n <= ``samples`` · n (sampling would score about as many subsets:
  up to 13 edits with the default 1000 samples); above, the mean marginal contribution over
  ``samples`` random orders of the edits (permutation sampling), seeded per sentence by
  (``seed``, sentence number), so a sentence's values do not depend on the others. Exact and
  sampled values sum to v(E) (efficiency).
* ``add``: d_j = v({e_j}) (the edit alone on the source); ``sub``: d_j = M(H) - M(S+E\\{e_j})
  (what removing it from the hypothesis loses). Both are then scaled to sum to ΔM, as gec-metrics
  does: a_j = d_j · ΔM / sum(d) (all 0 when sum(d) = 0); ``normalise=False`` keeps d_j.

Every variant sentence of a corpus is scored in one call of the metric (one :class:`ScoreInput`
of the variants, each with its sentence's gold, references and, for metrics that read the
hypothesis' edits, the applied edits as its M2 block); a variant text is scored once per
sentence. A sentence the metric leaves unscored (NaN: an LLM judge's refusal) gets no values.

Per error type, :func:`per_type` sums the corpus' edit attributions by the edits' types.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..m2 import M2Block, M2Edit, apply_edits
from .common import sentence_value
from .registry import Metric, ScoreInput, describe

__all__ = ["MAX_EXACT", "METHODS", "SAMPLES", "EditAttribution", "SentenceAttribution",
           "attribute", "attribute_corpus", "per_type", "shapley_exact", "shapley_sampled",
           "to_dict"]

METHODS = ("shapley", "add", "sub")
#: exact Shapley values up to this many edits (2^10 = 1024 scored subsets); sampling above
MAX_EXACT = 10
#: permutations sampled above MAX_EXACT
SAMPLES = 1000


@dataclass
class EditAttribution:
    """One hypothesis edit and its contribution (``raw``: add/sub's d_j before scaling)."""

    edit: M2Edit
    value: float
    raw: float | None = None


@dataclass
class SentenceAttribution:
    """One sentence: M(S), M(H), its edits' attributions, and whether Shapley values were
    sampled."""

    index: int
    src_score: float
    hyp_score: float
    edits: list[EditAttribution] = field(default_factory=list)
    sampled: bool = False

    @property
    def delta(self) -> float:
        """ΔM = M(H) - M(S)."""
        return self.hyp_score - self.src_score


def shapley_exact(n: int, v: dict[int, float]) -> list[float]:
    """Shapley values of ``n`` players from ``v`` (bitmask of a coalition -> its value, every
    one of the 2^n present)."""
    fact = [math.factorial(k) for k in range(n + 1)]
    weight = [fact[k] * fact[n - k - 1] / fact[n] for k in range(n)]
    phi = [0.0] * n
    for j in range(n):
        bit = 1 << j
        for mask in range(1 << n):
            if not mask & bit:
                phi[j] += weight[mask.bit_count()] * (v[mask | bit] - v[mask])
    return phi


def _orders(n: int, samples: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``samples`` random orders of n players."""
    out = []
    for _ in range(samples):
        order = list(range(n))
        rng.shuffle(order)
        out.append(tuple(order))
    return out


def _prefix_masks(orders: Sequence[tuple[int, ...]]) -> set[int]:
    masks = {0}
    for order in orders:
        mask = 0
        for j in order:
            mask |= 1 << j
            masks.add(mask)
    return masks


def shapley_sampled(n: int, v: dict[int, float], orders: Sequence[tuple[int, ...]]
                    ) -> list[float]:
    """Mean marginal contribution of each player over ``orders`` (``v`` has every prefix)."""
    phi = [0.0] * n
    for order in orders:
        mask = 0
        for j in order:
            phi[j] += v[mask | 1 << j] - v[mask]
            mask |= 1 << j
    return [p / len(orders) for p in phi]


def _scaled(d: list[float], delta: float) -> list[float]:
    total = sum(d)
    w = 0.0 if total == 0 else delta / total
    return [w * x for x in d]


@dataclass
class _Plan:
    """One sentence's edits and the subsets (bitmasks) its method needs scored."""

    edits: list[M2Edit]
    masks: set[int]
    orders: list[tuple[int, ...]] | None = None


def _plan(edits: list[M2Edit], method: str, max_exact: int, samples: int, seed: int,
          index: int) -> _Plan:
    n = len(edits)
    full = (1 << n) - 1
    if n == 0:
        return _Plan(edits, {0})
    if method == "add":
        return _Plan(edits, {0} | {1 << j for j in range(n)})
    if method == "sub":
        return _Plan(edits, {0} | {full & ~(1 << j) for j in range(n)})
    if n <= max_exact or 1 << n <= samples * n:  # sampling would score as many subsets
        return _Plan(edits, set(range(1 << n)))
    orders = _orders(n, samples, random.Random(f"{seed}:{index}"))
    return _Plan(edits, _prefix_masks(orders), orders)


def _real_edits(block: M2Block | None) -> list[M2Edit]:
    return [] if block is None else [e for e in block.edits if not e.is_noop]


def attribute_corpus(metric: Metric, data: ScoreInput, edits: Sequence[M2Block], *,
                     method: str = "shapley", max_exact: int = MAX_EXACT,
                     samples: int = SAMPLES, seed: int = 0, normalise: bool = True,
                     beta: float = 0.5) -> list[SentenceAttribution]:
    """Attributions of every sentence's hypothesis edits (``edits[i]``: sentence i's M2 block,
    annotator 0, with types) to ``metric``'s sentence score (module docstring). ``beta``: the
    F-beta of a count-based metric's sentences without an ``f`` (:func:`sentence_value`)."""
    if method not in METHODS:
        raise InputError(f"unknown attribution method {method!r} (choose from "
                         f"{', '.join(METHODS)})")
    if max_exact < 0 or samples < 1:
        raise InputError("max_exact must be >= 0 and samples >= 1")
    if describe(metric).needs_systems:
        raise InputError(f"{metric.name} depends on the set of systems scored together; "
                         "edits cannot be attributed to it sentence by sentence")
    sources = list(data.sources or [])
    if len(edits) != len(sources):
        raise InputError(f"{len(edits)} edit blocks for {len(sources)} sentences")
    plans = [_plan(_real_edits(b), method, max_exact, samples, seed, i)
             for i, b in enumerate(edits)]
    # the variants: (sentence, text), each scored once (with the applied edits too, for a
    # metric reading them); the hypothesis as written is one of them
    by_edits = "hyp_edits" in describe(metric).uses
    where: dict[tuple[int, str, tuple[M2Edit, ...]], int] = {}
    rows: list[tuple[int, str, list[M2Edit]]] = []

    def variant(i: int, text: str, applied: list[M2Edit]) -> int:
        key = (i, text, tuple(applied) if by_edits else ())
        if key not in where:
            where[key] = len(rows)
            rows.append((i, text, applied))
        return where[key]

    texts: list[dict[int, int]] = []
    hyp_rows: list[int] = []
    for i, plan in enumerate(plans):
        tokens = sources[i].split()
        got = {}
        for mask in sorted(plan.masks):
            applied = [e for j, e in enumerate(plan.edits) if mask >> j & 1]
            got[mask] = variant(i, apply_edits(tokens, applied).text, applied)
        texts.append(got)
        hyp = " ".join(str(data.hypotheses[i]).split())
        hyp_rows.append(variant(i, hyp, plan.edits))
    scores = _score_variants(metric, data, rows, beta)
    out = []
    for i, plan in enumerate(plans):
        base = scores[texts[i][0]]
        hyp_score = scores[hyp_rows[i]]
        sent = SentenceAttribution(i, base, hyp_score, sampled=plan.orders is not None)
        n = len(plan.edits)
        v = {m: scores[r] - base for m, r in texts[i].items()}
        if n and not any(math.isnan(x) for x in (*v.values(), hyp_score)):
            raw: list[float] | None = None
            if method == "shapley":
                values = (shapley_exact(n, v) if plan.orders is None
                          else shapley_sampled(n, v, plan.orders))
            else:
                full = (1 << n) - 1
                raw = ([v[1 << j] for j in range(n)] if method == "add"
                       else [sent.delta - v[full & ~(1 << j)] for j in range(n)])
                values = _scaled(raw, sent.delta) if normalise else list(raw)
            sent.edits = [EditAttribution(e, x, None if raw is None else raw[j])
                          for j, (e, x) in enumerate(zip(plan.edits, values, strict=True))]
        out.append(sent)
    return out


def _score_variants(metric: Metric, data: ScoreInput, rows: list[tuple[int, str, list[M2Edit]]],
                    beta: float) -> list[float]:
    """Every variant's sentence score, in one call of the metric."""
    if not rows:
        return []
    idx = [i for i, _, _ in rows]
    sources = list(data.sources or [])
    uses = describe(metric).uses
    refs = (None if data.references is None
            else [[ref[i] for i in idx] for ref in data.references])
    hyp_blocks = ([M2Block(sources[i], list(applied) or [M2Edit.noop()])
                   for i, _, applied in rows] if "hyp_edits" in uses else None)
    variants = ScoreInput([data.gold[i] for i in idx] if data.gold else [],
                          [t for _, t, _ in rows], hyp_blocks=hyp_blocks,
                          sources=[sources[i] for i in idx], name=f"{data.name} (variants)",
                          references=refs)
    result = metric.score(variants)
    if len(result.sentences) != len(rows):
        raise InputError(f"{metric.name} gives no sentence scores ({len(result.sentences)} for "
                         f"{len(rows)} sentences); edits can only be attributed to a "
                         "sentence-level metric")
    return [sentence_value(s, beta) for s in result.sentences]


def attribute(metric: Metric, source: str, hypothesis: str, edits: Sequence[M2Edit], *,
              gold: M2Block | None = None, references: Sequence[str] | None = None,
              method: str = "shapley", max_exact: int = MAX_EXACT, samples: int = SAMPLES,
              seed: int = 0, normalise: bool = True, beta: float = 0.5
              ) -> SentenceAttribution:
    """One sentence's attributions (:func:`attribute_corpus`): ``edits`` are the hypothesis'
    edits (offsets into ``source``'s space-separated tokens); a reference-based metric takes
    ``gold`` (an M2 block) or ``references`` (corrected texts)."""
    data = ScoreInput([gold] if gold is not None else [], [hypothesis], sources=[source],
                      references=[[r] for r in references] if references is not None else None)
    return attribute_corpus(metric, data, [M2Block(source, list(edits))], method=method,
                            max_exact=max_exact, samples=samples, seed=seed,
                            normalise=normalise, beta=beta)[0]


def per_type(sentences: Sequence[SentenceAttribution]) -> dict[str, dict[str, float]]:
    """Per edit type: ``n`` (edits attributed), ``sum`` and ``mean`` of their values."""
    acc: dict[str, list[float]] = {}
    for s in sentences:
        for a in s.edits:
            acc.setdefault(a.edit.type, []).append(a.value)
    return {t: {"n": len(xs), "sum": math.fsum(xs), "mean": math.fsum(xs) / len(xs)}
            for t, xs in sorted(acc.items())}


def to_dict(s: SentenceAttribution) -> dict[str, Any]:
    """A sentence's attributions as plain data (JSON lines)."""
    return {"id": s.index, "src_score": s.src_score, "hyp_score": s.hyp_score,
            "delta": s.delta, "sampled": s.sampled,
            "edits": [{"start": a.edit.start, "end": a.edit.end, "type": a.edit.type,
                       "cor": a.edit.cor, "value": a.value,
                       **({"raw": a.raw} if a.raw is not None else {})} for a in s.edits]}
