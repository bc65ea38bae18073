"""IMPARA (Maeda, Kaneko and Okazaki, COLING 2022): a reference-free score of a correction, as
gec-metrics computes it.

A quality-estimation model (a sequence classifier with one output; the authors' trained one is
``gotutiyan/IMPARA-QE``) scores the hypothesis: q = sigmoid(logit). A similarity model (a BERT
encoder, default ``bert-base-cased``) embeds source and hypothesis by the mean of their token
states; when their cosine is below ``threshold`` (0.9) the meaning is taken as changed and the
score is 0, otherwise q. The corpus score is the mean over sentences.

Point it at the real models with ``-O impara.qe_model=gotutiyan/IMPARA-QE`` (the default) and
``-O impara.se_model=bert-base-cased``, or at local directories; ``-O impara.device=cuda``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..common import ScoreResult, signature
from ..registry import ScoreInput, register
from . import encoders

__all__ = ["ImparaMetric"]


@register("impara")
@dataclass
class ImparaMetric:
    """IMPARA (see the module docstring); reference-free."""

    qe_model: Any = "gotutiyan/IMPARA-QE"
    se_model: Any = "bert-base-cased"
    qe_tokenizer: Any = field(default=None, repr=False)
    se_tokenizer: Any = field(default=None, repr=False)
    threshold: float = 0.9
    max_length: int = 128
    batch_size: int = 32
    device: str = "cpu"
    local_files_only: bool = False
    name: str = "impara"
    main: ClassVar[str] = "impara"
    uses: ClassVar[tuple[str, ...]] = ()
    _models: Any = field(default=None, repr=False, compare=False)

    def settings(self) -> dict[str, Any]:
        return {"qe": encoders.model_name(self.qe_model),
                "se": encoders.model_name(self.se_model), "threshold": self.threshold,
                "max_length": self.max_length}

    def _load(self) -> Any:
        if self._models is None:
            kw = {"device": self.device, "local_files_only": self.local_files_only}
            qe = encoders.load(self.qe_model, "AutoModelForSequenceClassification",
                               self.qe_tokenizer, **kw)
            se = encoders.load(self.se_model, "AutoModel", self.se_tokenizer, **kw)
            self._models = (qe, se)
        return self._models

    def sentence_scores(self, sources: list[str], hypotheses: list[str]) -> list[dict]:
        import torch

        (qe, qtok), (se, stok) = self._load()
        enc_args = {"padding": True, "truncation": True, "max_length": self.max_length,
                    "return_tensors": "pt"}

        def mean_pool(texts: list[str]) -> Any:
            enc = stok(texts, **enc_args).to(self.device)
            states = se(**enc).last_hidden_state.float()
            mask = enc["attention_mask"].unsqueeze(-1).float()
            return (states * mask).sum(1) / mask.sum(1)

        def run(pairs: list[tuple[str, str]]) -> list[dict]:
            src = [s for s, _ in pairs]
            hyp = [h for _, h in pairs]
            with torch.inference_mode():
                logits = qe(**qtok(hyp, **enc_args).to(self.device)).logits.float().view(-1)
                sim = torch.nn.functional.cosine_similarity(mean_pool(src), mean_pool(hyp))
            q = torch.sigmoid(logits).tolist()
            return [{"quality": qi, "similarity": float(si),
                     "score": qi if si >= self.threshold else 0.0}
                    for qi, si in zip(q, sim.tolist(), strict=True)]

        return encoders.batched(list(zip(sources, hypotheses, strict=True)), run,
                                self.batch_size, key=lambda p: len(p[1]))

    def score(self, data: ScoreInput) -> ScoreResult:
        rows = [{"id": i, **r} for i, r in enumerate(
            self.sentence_scores(list(data.sources or []), list(data.hypotheses)))]
        mean = sum(r["score"] for r in rows) / len(rows) if rows else 0.0
        return ScoreResult(self.name, {"impara": mean}, signature(self.name, self.settings()),
                           sentences=rows)
