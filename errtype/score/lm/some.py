"""SOME (Yoshimura et al., COLING 2020): a reference-free score of a correction from three
regression models, as gec-metrics computes it.

Grammaticality (model g, on the hypothesis), fluency (model f, on the hypothesis) and meaning
preservation (model m, on the source-hypothesis pair) each predict a rating on 1..4, normalised
to (x - 1) / 3; the score is 0.55 g + 0.43 f + 0.02 m (the weights are settings). All three
use model f's tokenizer. The corpus score is the mean over sentences.

The authors' models are not on a hub: download them from the SOME repository and point
errtype at the folders: ``-O some.model_g=DIR/gfm-models/grammer -O some.model_f=DIR/...
-O some.model_m=DIR/...``, ``-O some.device=cuda``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..common import ScoreResult, signature
from ..registry import ScoreInput, register
from . import encoders

__all__ = ["SomeMetric"]


@register("some")
@dataclass
class SomeMetric:
    """SOME (see the module docstring); reference-free."""

    model_g: Any = "gfm-models/grammer"
    model_f: Any = "gfm-models/fluency"
    model_m: Any = "gfm-models/meaning"
    tokenizer: Any = field(default=None, repr=False)
    weight_g: float = 0.55
    weight_f: float = 0.43
    weight_m: float = 0.02
    max_length: int = 128
    batch_size: int = 32
    device: str = "cpu"
    local_files_only: bool = False
    name: str = "some"
    main: ClassVar[str] = "some"
    uses: ClassVar[tuple[str, ...]] = ()
    _models: Any = field(default=None, repr=False, compare=False)

    def settings(self) -> dict[str, Any]:
        return {"g": encoders.model_name(self.model_g), "f": encoders.model_name(self.model_f),
                "m": encoders.model_name(self.model_m),
                "weights": f"{self.weight_g:g},{self.weight_f:g},{self.weight_m:g}",
                "max_length": self.max_length}

    def _load(self) -> Any:
        if self._models is None:
            kw = {"device": self.device, "local_files_only": self.local_files_only}
            kind = "AutoModelForSequenceClassification"
            f, tok = encoders.load(self.model_f, kind, self.tokenizer, **kw)
            g, _ = encoders.load(self.model_g, kind, tok, **kw)
            m, _ = encoders.load(self.model_m, kind, tok, **kw)
            self._models = (g, f, m, tok)
        return self._models

    def sentence_scores(self, sources: list[str], hypotheses: list[str]) -> list[dict]:
        import torch

        g, f, m, tok = self._load()
        args = {"padding": True, "truncation": True, "max_length": self.max_length,
                "return_tensors": "pt"}

        def rate(model: Any, *texts: list[str]) -> list[float]:
            logits = model(**tok(*texts, **args).to(self.device)).logits.float().view(-1)
            return [(x - 1) / 3 for x in logits.tolist()]

        def run(pairs: list[tuple[str, str]]) -> list[dict]:
            src = [s for s, _ in pairs]
            hyp = [h for _, h in pairs]
            with torch.inference_mode():
                sg, sf, sm = rate(g, hyp), rate(f, hyp), rate(m, src, hyp)
            return [{"grammaticality": a, "fluency": b, "meaning": c,
                     "score": self.weight_g * a + self.weight_f * b + self.weight_m * c}
                    for a, b, c in zip(sg, sf, sm, strict=True)]

        return encoders.batched(list(zip(sources, hypotheses, strict=True)), run,
                                self.batch_size, key=lambda p: len(p[0]) + len(p[1]))

    def score(self, data: ScoreInput) -> ScoreResult:
        rows = [{"id": i, **r} for i, r in enumerate(
            self.sentence_scores(list(data.sources or []), list(data.hypotheses)))]
        mean = sum(r["score"] for r in rows) / len(rows) if rows else 0.0
        return ScoreResult(self.name, {"some": mean}, signature(self.name, self.settings()),
                           sentences=rows)
