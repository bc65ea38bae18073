"""Shared pieces of the scorers: P/R/F arithmetic, the result object with its signature, and
the readers of count-based results (one F-beta rule, one F key)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import InputError, LineCountError


def prf(tp: float, fp: float, fn: float, beta: float = 0.5) -> tuple[float, float, float]:
    """Precision, recall, F-beta with the ERRANT/M2 convention: an empty denominator gives 1.0.

    (P = 1 when nothing was proposed, R = 1 when nothing was to be found; F = 0 when P + R = 0
    or beta² P + R = 0, i.e. beta = 0 and R = 0.)
    """
    p = tp / (tp + fp) if fp else 1.0
    r = tp / (tp + fn) if fn else 1.0
    b2 = beta * beta
    denom = b2 * p + r
    f = (1 + b2) * p * r / denom if p + r and denom else 0.0
    return p, r, f


def check_parallel(metric: str, sources: Sequence[str],
                   references: Sequence[Sequence[str]], hypotheses: Sequence[str]) -> None:
    """Refuse a reference-based metric's input without references or with a hypothesis or
    reference file (numbered from 1) of another length than the sources."""
    if not references:
        raise InputError(f"{metric} needs at least one reference")
    n = len(sources)
    for what, seq in [("hypotheses", hypotheses),
                      *((f"reference {k + 1}", r) for k, r in enumerate(references))]:
        if len(seq) != n:
            raise LineCountError(f"{len(seq)} {what} for {n} source sentences")


def signature(metric: str, settings: Mapping[str, Any]) -> str:
    """A sacreBLEU-style reproducibility string: ``metric|key:value|...|version:errtype-X``."""
    from .. import __version__

    parts = [metric] + [f"{k}:{v}" for k, v in settings.items()]
    parts.append(f"version:errtype-{__version__}")
    return "|".join(parts)


def with_setting(sig: str, key: str, value: Any) -> str:
    """A :func:`signature` with ``key:value`` added before its version."""
    head, sep, version = sig.rpartition("|version:")
    return f"{head}|{key}:{value}{sep}{version}" if sep else f"{sig}|{key}:{value}"


@dataclass
class ScoreResult:
    """What every metric returns: corpus score(s), per-sentence and per-type detail, signature."""

    metric: str
    corpus: dict[str, float]
    signature: str
    counts: dict[str, float] = field(default_factory=dict)
    sentences: list[dict[str, Any]] = field(default_factory=list)
    per_type: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def table(self, columns: Sequence[str] | None = None) -> str:
        """A plain-text table of the corpus scores followed by the signature."""
        cols = list(columns or self.corpus)
        head = "\t".join(cols)
        vals = "\t".join(_fmt(self.corpus[c]) for c in cols)
        return f"{head}\n{vals}\n{self.signature}"

    def type_table(self, beta: float = 0.5) -> str:
        """Per-type TP/FP/FN/P/R/F table (TSV), types sorted by name."""
        rows = [f"Type\tTP\tFP\tFN\tP\tR\tF{beta}"]
        for t in sorted(self.per_type):
            c = self.per_type[t]
            p, r, f = prf(c.get("tp", 0), c.get("fp", 0), c.get("fn", 0), beta)
            rows.append(f"{t}\t{c.get('tp', 0):g}\t{c.get('fp', 0):g}\t{c.get('fn', 0):g}"
                        f"\t{p:.4f}\t{r:.4f}\t{f:.4f}")
        return "\n".join(rows)


def _fmt(x: float) -> str:
    return f"{x:.4f}" if isinstance(x, float) else str(x)


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


def sentence_value(entry: Mapping[str, Any], beta: float = 0.5) -> float:
    """A metric's score of one sentence: its ``f``, ``gleu`` or ``score``; else F-beta of its
    tp/fp/fn counts. A sentence the metric left unscored (``None``, e.g. an LLM judge's
    hypothesis it was not shown) is NaN."""
    for key in ("f", "gleu", "score"):
        if key in entry:
            return math.nan if entry[key] is None else float(entry[key])
    if "tp" in entry:
        return prf(entry["tp"], entry["fp"], entry["fn"], beta)[2]
    raise InputError(f"a sentence result without a score: {sorted(entry)}")


def sentence_scores(result: ScoreResult, beta: float = 0.5) -> list[float]:
    """Every sentence's score (:func:`sentence_value`); InputError when the result has none."""
    if not result.sentences:
        raise InputError(f"{result.metric} results carry no sentence scores")
    return [sentence_value(s, beta) for s in result.sentences]


def sentence_counts(result: ScoreResult) -> list[tuple[float, float, float]]:
    """Per-sentence ``(tp, fp, fn)`` of a count-based result."""
    try:
        return [(s["tp"], s["fp"], s["fn"]) for s in result.sentences]
    except KeyError:
        raise InputError(f"{result.metric} results carry no per-sentence tp/fp/fn") from None
