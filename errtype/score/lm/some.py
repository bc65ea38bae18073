"""SOME (Yoshimura, Kaneko, Kajiwara and Komachi, COLING 2020): a reference-free score from three
BERT regressors fine-tuned on human ratings of grammaticality, fluency and meaning preservation.

Per sentence pair (source s, hypothesis h), with each regressor's single output ``x`` on the
1–4 rating scale normalised to ``(x - 1) / 3``:

* grammaticality ``g`` and fluency ``f`` read the hypothesis alone;
* meaning preservation ``m`` reads the pair (source as the first segment, hypothesis as the
  second);
* ``SOME(s, h) = weight_g·g + weight_f·f + weight_m·m`` (0.55, 0.43, 0.02: the paper's tuned
  weights, gec-metrics' defaults).

The system score is the mean over sentences; inputs are truncated to ``max_length`` (128)
tokens; the tokenizer is the fluency model's. The definition follows gec-metrics' ``SOME``
(MIT). The models are the authors' release (``gfm-models``, a folder with ``grammer``,
``fluency`` and ``meaning`` subfolders, linked from https://github.com/kokeman/SOME): point
``model`` at that folder, or each of ``model_g``, ``model_f``, ``model_m`` at one model.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..common import ScoreResult, signature
from ..options import option
from ..registry import ScoreInput, register
from .hf import HFMetric

#: the subfolder of each head in the authors' ``gfm-models`` release (their spelling)
HEADS = {"g": "grammer", "f": "fluency", "m": "meaning"}


def normalise(x: float, low: float = 1.0, high: float = 4.0) -> float:
    """A rating on ``low``–``high`` mapped to 0–1 (linearly; not clipped)."""
    return (x - low) / (high - low)


@register("some")
@dataclass
class Some(HFMetric):
    """SOME of a system's hypotheses against its sources (see the module docstring)."""

    model: str = "gfm-models"
    model_g: str | None = None
    model_f: str | None = None
    model_m: str | None = None
    weight_g: float = option(0.55, ge=0)
    weight_f: float = option(0.43, ge=0)
    weight_m: float = option(0.02, ge=0)
    name: str = "some"
    uses: ClassVar[tuple[str, ...]] = ()
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    _cache: dict[tuple[str, Any], float] = field(default_factory=dict, init=False, repr=False,
                                                 compare=False)

    def head(self, key: str) -> str:
        """The model of head ``g``, ``f`` or ``m``."""
        given = getattr(self, f"model_{key}")
        return given or os.path.join(self.model, HEADS[key])

    def settings(self) -> dict[str, Any]:
        return {"g": self.head("g"), "f": self.head("f"), "m": self.head("m"),
                "weights": f"{self.weight_g:g},{self.weight_f:g},{self.weight_m:g}",
                **self._settings()}

    def ratings(self, key: str, texts: Sequence[str], pairs: Sequence[str] | None = None
                ) -> list[float]:
        """Normalised outputs of head ``key`` per text (or per ``(text, pair)``), cached."""
        items = list(zip(texts, pairs, strict=True)) if pairs is not None else list(texts)
        todo = list(dict.fromkeys(i for i in items if (key, i) not in self._cache))
        if todo:
            _, tok = self.load("AutoModelForSequenceClassification", self.head("f"),
                               what="SOME fluency model")
            model, _ = self.load("AutoModelForSequenceClassification", self.head(key),
                                 what=f"SOME {HEADS[key]} model", tokenizer=key == "f")
            first = [i[0] for i in todo] if pairs is not None else todo
            second = [i[1] for i in todo] if pairs is not None else None
            for idx, batch in self.batches(tok, first, second):
                logits = model(**batch).logits.float().view(-1).tolist()
                for i, v in zip(idx, logits, strict=True):
                    self._cache[(key, todo[i])] = normalise(v)
        return [self._cache[(key, i)] for i in items]

    def score(self, data: ScoreInput) -> ScoreResult:
        sources, hypotheses = list(data.sources or []), list(data.hypotheses)
        g = self.ratings("g", hypotheses)
        f = self.ratings("f", hypotheses)
        m = self.ratings("m", sources, hypotheses)
        rows = [{"score": self.weight_g * a + self.weight_f * b + self.weight_m * c,
                 "grammaticality": a, "fluency": b, "meaning": c}
                for a, b, c in zip(g, f, m, strict=True)]
        n = len(rows)

        def mean(key: str) -> float:
            return sum(r[key] for r in rows) / n if n else 0.0

        corpus = {k: mean(k) for k in ("score", "grammaticality", "fluency", "meaning")}
        return ScoreResult(self.name, corpus, signature(self.name, self.settings()),
                           counts={"sentences": n}, sentences=rows)
