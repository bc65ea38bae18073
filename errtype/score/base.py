"""The metric protocol and registry: every scorer as an object with a name, settings, a signature
and ``score(data) -> ScoreResult`` whose sentences carry per-sentence statistics.

A count-based metric (``errant``, ``maxmatch``) gives every sentence ``tp``/``fp``/``fn``, so
bootstraps, significance tests and meta-evaluation need no per-metric conversion; ``gleu`` gives
its per-sentence score. One F-beta rule (:func:`errtype.score.common.prf`) and one F-key rule
(:func:`f_key`) serve every metric.

    >>> m = get_metric("maxmatch", beta=0.5)
    >>> m.score(ScoreInput(gold_blocks, hypotheses)).corpus   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..errors import InputError
from ..m2 import M2Block, M2Edit
from .common import ScoreResult, prf, signature

__all__ = [
    "METRICS", "Metric", "ScoreInput", "ScoreResult", "corpus_f", "f_key", "get_metric",
    "macro_f", "register", "sentence_counts",
]


def f_key(beta: float) -> str:
    """The key of F-beta in new result dictionaries: ``f0.5``, ``f1``, ``f2``.

    (``errant`` keeps errant_compare's historic ``f{beta}`` key, e.g. ``f1.0``, for output
    compatibility; :func:`corpus_f` reads either.)
    """
    return f"f{beta:g}"


def corpus_f(result: ScoreResult, beta: float = 0.5) -> float:
    """The corpus F-beta of a count-based result, whichever F key its metric uses."""
    for key in (f_key(beta), f"f{float(beta)}"):
        if key in result.corpus:
            return float(result.corpus[key])
    raise KeyError(f"{result.metric} result has no F{beta:g} score")


def macro_f(per_type: Mapping[str, Mapping[str, float]], beta: float = 0.5) -> float:
    """Macro-averaged F-beta: the mean of the per-type F over types with gold edits (TP + FN > 0).

    0.0 when no type has gold edits.
    """
    fs = [prf(c.get("tp", 0), c.get("fp", 0), c.get("fn", 0), beta)[2]
          for c in per_type.values() if c.get("tp", 0) + c.get("fn", 0) > 0]
    return sum(fs) / len(fs) if fs else 0.0


def sentence_counts(result: ScoreResult) -> list[tuple[float, float, float]]:
    """Per-sentence ``(tp, fp, fn)`` of a count-based result."""
    try:
        return [(s["tp"], s["fp"], s["fn"]) for s in result.sentences]
    except KeyError:
        raise InputError(f"{result.metric} results carry no per-sentence tp/fp/fn") from None


@dataclass
class ScoreInput:
    """What a metric scores: gold M2 blocks and one hypothesis sentence per block.

    ``hyp_blocks`` are the hypothesis' own edits (ERRANT scores edits; without them the metric
    extracts them with its language's annotator). ``sources`` default to the blocks' sentences.
    """

    gold: Sequence[M2Block]
    hypotheses: Sequence[str]
    hyp_blocks: Sequence[M2Block] | None = None
    sources: Sequence[str] | None = None
    name: str = "<hyp>"

    def __post_init__(self) -> None:
        if len(self.hypotheses) != len(self.gold):
            raise InputError(f"{self.name}: {len(self.hypotheses)} hypotheses for "
                             f"{len(self.gold)} gold sentences")
        if self.sources is None:
            self.sources = [b.source for b in self.gold]


@runtime_checkable
class Metric(Protocol):
    """A configured metric."""

    name: str

    def settings(self) -> dict[str, Any]: ...

    def score(self, data: ScoreInput) -> ScoreResult: ...


def metric_signature(metric: Metric) -> str:
    """The metric's reproducibility string (as printed by its command)."""
    return signature(metric.name, metric.settings())


# --------------------------------------------------------------------------- built-in metrics


@dataclass
class ErrantMetric:
    """errant_compare (span-based correction by default); hypotheses without edits are
    annotated with ``errtype.load(lang)`` (or the given annotator)."""

    mode: str = "cs"
    beta: float = 0.5
    lang: str = "en"
    annotator: Any = field(default=None, repr=False, compare=False)
    name: str = "errant"

    def settings(self) -> dict[str, Any]:
        return {"mode": self.mode, "beta": float(self.beta), "round": 4,
                "compat": "errant-3.0.2"}

    def hyp_blocks(self, data: ScoreInput) -> list[M2Block]:
        if data.hyp_blocks is not None:
            return list(data.hyp_blocks)
        from .ratio import annotate_to_blocks

        if self.annotator is None:
            from .. import load

            self.annotator = load(self.lang)
        items = [(s, [h]) for s, h in zip(data.sources or [], data.hypotheses, strict=True)]
        return annotate_to_blocks(self.annotator, items)

    def score(self, data: ScoreInput) -> ScoreResult:
        from .errant import errant_score

        return errant_score(self.hyp_blocks(data), list(data.gold), mode=self.mode,
                            beta=self.beta, hyp_name=data.name)


@dataclass
class MaxMatchMetric:
    """m2scorer 3.2; every sentence also gets ``tp = correct``, ``fp = proposed - correct``,
    ``fn = gold - correct`` of its chosen annotator."""

    beta: float = 0.5
    max_unchanged_words: int = 2
    ignore_whitespace_casing: bool = False
    name: str = "maxmatch"

    def _scorer(self) -> Any:
        from .maxmatch import MaxMatch

        return MaxMatch(self.beta, self.max_unchanged_words, self.ignore_whitespace_casing)

    def settings(self) -> dict[str, Any]:
        return self._scorer().settings()

    def score(self, data: ScoreInput) -> ScoreResult:
        from .maxmatch import gold_from_blocks

        res = self._scorer().score(list(data.hypotheses), gold_from_blocks(data.gold))
        for s in res.sentences:
            s["tp"], s["fp"], s["fn"] = (s["correct"], s["proposed"] - s["correct"],
                                         s["gold"] - s["correct"])
        return res


def gold_references(gold: Sequence[M2Block]) -> list[list[str]]:
    """One corrected text per annotator of the gold (``references[k][i]``); an annotator
    absent from a block leaves the sentence unchanged (as :func:`gleu.m2_references`)."""
    from .ratio import apply_edits

    anns = sorted({a for b in gold for a in b.annotators()}) or [0]
    refs: list[list[str]] = [[] for _ in anns]
    for b in gold:
        by_ann = b.edits_by_annotator()
        for r, a in enumerate(anns):
            edits: list[M2Edit] = by_ann.get(a, [])
            refs[r].append(apply_edits(b.tokens, edits))
    return refs


@dataclass
class GleuMetric:
    """GLEU+ against the gold annotators' corrected sentences (one reference per annotator)."""

    order: int = 4
    iterations: int = 500
    draw: str = "py2"
    name: str = "gleu"

    def _scorer(self) -> Any:
        from .gleu import GLEU

        return GLEU(order=self.order, iterations=self.iterations, draw=self.draw)

    def settings(self) -> dict[str, Any]:
        return {"n": self.order, "iterations": self.iterations, "draw": self.draw,
                "refs": "m2-annotators", "variant": "gleu+2016"}

    def score(self, data: ScoreInput) -> ScoreResult:
        return self._scorer().score(list(data.sources or []), gold_references(data.gold),
                                    list(data.hypotheses))


#: metric name -> factory taking the metric's settings as keyword arguments
METRICS: dict[str, Callable[..., Metric]] = {}


def register(name: str, factory: Callable[..., Metric]) -> None:
    """Make ``get_metric(name, **settings)`` build ``factory(**settings)``."""
    METRICS[name] = factory


def get_metric(name: str, **settings: Any) -> Metric:
    """A configured metric from the registry (``errant``, ``maxmatch``, ``gleu``, ...)."""
    try:
        factory = METRICS[name]
    except KeyError:
        raise InputError(f"unknown metric {name!r} (choose from {', '.join(METRICS)})") from None
    return factory(**settings)


register("errant", ErrantMetric)
register("maxmatch", MaxMatchMetric)
register("gleu", GleuMetric)
