"""IMPARA (Maeda, Kaneko and Okazaki, COLING 2022): a reference-free score from a quality
estimator gated by a similarity estimator.

Per sentence pair (source s, hypothesis h):

* ``qe(h) = sigmoid(QE(h))``, the quality estimator's single logit for the hypothesis alone
  (a BERT regressor fine-tuned on edit-level impact; gec-metrics' reproduction:
  ``gotutiyan/IMPARA-QE``);
* ``sim(s, h)``: the cosine of the mean-pooled last hidden states of the similarity encoder
  (``bert-base-cased``), the mean taken over every real token, [CLS] and [SEP] included;
* ``IMPARA(s, h) = qe(h)`` when ``sim(s, h) >= threshold`` (0.9), else 0.

The system score is the mean over sentences, as in gec-metrics; each side is truncated to
``max_length`` (128) tokens. The definition follows gec-metrics' ``IMPARA`` (MIT); the batches
here are padded to their longest sentence instead of to ``max_length`` (the attention mask makes
the two equal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..common import ScoreResult, signature
from ..options import option
from ..registry import ScoreInput, register
from .hf import HFMetric, import_hf


@register("impara")
@dataclass
class Impara(HFMetric):
    """IMPARA of a system's hypotheses against its sources (see the module docstring):
    ``model`` is the quality estimator, ``similarity_model`` the encoder of the gate;
    ``threshold`` is a cosine similarity from -1 up (above 1: every sentence is gated)."""

    model: str = "gotutiyan/IMPARA-QE"
    similarity_model: str = "bert-base-cased"
    threshold: float = option(0.9, ge=-1)
    name: str = "impara"
    uses: ClassVar[tuple[str, ...]] = ()
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    _qe: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    _pooled: dict[str, Any] = field(default_factory=dict, init=False, repr=False,
                                    compare=False)

    def settings(self) -> dict[str, Any]:
        return {"qe": self.model, "se": self.similarity_model, "threshold": self.threshold,
                **self._settings()}

    def quality(self, texts: Sequence[str]) -> list[float]:
        """``sigmoid`` of the quality estimator's logit per text (cached)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._qe))
        if todo:
            torch, _ = import_hf()
            model, tok = self.load("AutoModelForSequenceClassification", self.model,
                                   what="IMPARA quality estimator")
            for idx, batch in self.batches(tok, todo):
                logits = model(**batch).logits.float().view(-1)
                for i, v in zip(idx, torch.sigmoid(logits).tolist(), strict=True):
                    self._qe[todo[i]] = v
        return [self._qe[t] for t in texts]

    def pooled(self, texts: Sequence[str]) -> list[Any]:
        """The similarity encoder's mean-pooled last hidden state per text (cached, float32 on
        the CPU)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._pooled))
        if todo:
            model, tok = self.load("AutoModel", self.similarity_model,
                                   what="IMPARA similarity estimator")
            for idx, batch in self.batches(tok, todo):
                states = model(input_ids=batch["input_ids"],
                               attention_mask=batch["attention_mask"]).last_hidden_state.float()
                mask = batch["attention_mask"].unsqueeze(-1).to(states.dtype)
                means = (states * mask).sum(dim=1) / mask.sum(dim=1)
                for i, vec in zip(idx, means.cpu(), strict=True):
                    self._pooled[todo[i]] = vec
        return [self._pooled[t] for t in texts]

    def similarity(self, sources: Sequence[str], hypotheses: Sequence[str]) -> list[float]:
        """Cosine similarity of the pooled source and hypothesis per pair."""
        torch, _ = import_hf()
        if not sources:
            return []
        src = torch.stack(self.pooled(sources))
        hyp = torch.stack(self.pooled(hypotheses))
        return torch.nn.functional.cosine_similarity(src, hyp, dim=-1).tolist()

    def score(self, data: ScoreInput) -> ScoreResult:
        sources, hypotheses = list(data.sources or []), list(data.hypotheses)
        qe = self.quality(hypotheses)
        sim = self.similarity(sources, hypotheses)
        rows = [{"score": q if s >= self.threshold else 0.0, "qe": q, "similarity": s}
                for q, s in zip(qe, sim, strict=True)]
        n = len(rows)
        corpus = {"score": sum(r["score"] for r in rows) / n if n else 0.0,
                  "qe": sum(qe) / n if n else 0.0,
                  "gated": sum(s < self.threshold for s in sim)}
        return ScoreResult(self.name, corpus, signature(self.name, self.settings()),
                           counts={"sentences": n}, sentences=rows)
