"""BERTScore (Zhang et al. 2020) with a Hugging Face encoder, as the ``bert-score`` package
computes it without idf weighting or baseline rescaling (gec-metrics' ``BertScore`` and
CLEME2.0's similarity weights use it).

Each text is encoded with the model's special tokens; the hidden states of layer ``layer``
(default: the layer bert-score uses for the known models, else the last) are L2-normalised; the
special tokens ([CLS], [SEP], <s>, </s>) are left out. P = mean over candidate tokens of the best
cosine with a reference token, R likewise over reference tokens, F = 2PR / (P + R). With several
references a sentence takes the reference of the highest F.

Point it at a real model with ``-O bertscore.model=roberta-large`` (a hub name or a local
directory; ``local_files_only=True`` forbids downloads) and ``-O bertscore.device=cuda``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..common import ScoreResult, signature
from ..registry import ScoreInput, register
from . import encoders

__all__ = ["BertScore", "BertScoreMetric", "DEFAULT_LAYERS"]

#: bert-score's layer for some models (its ``model2layers``)
DEFAULT_LAYERS = {"bert-base-uncased": 9, "bert-base-cased": 9, "bert-large-uncased": 18,
                  "roberta-base": 10, "roberta-large": 17, "distilbert-base-uncased": 5,
                  "microsoft/deberta-xlarge-mnli": 40, "xlm-roberta-large": 17}


@dataclass
class BertScore:
    """A loaded BERTScore scorer; :meth:`pairs` scores candidate/reference pairs."""

    model: Any = "bert-base-uncased"
    tokenizer: Any = None
    layer: int | None = None
    batch_size: int = 64
    max_length: int = 512
    device: str = "cpu"
    local_files_only: bool = False
    _loaded: Any = field(default=None, repr=False)

    def _load(self) -> Any:
        if self._loaded is None:
            model, tok = encoders.load(self.model, "AutoModel", self.tokenizer,
                                       device=self.device,
                                       local_files_only=self.local_files_only)
            layers = getattr(model.config, "num_hidden_layers", None)
            layer = self.layer if self.layer is not None else DEFAULT_LAYERS.get(
                encoders.model_name(self.model), layers)
            self._loaded = (model, tok, layer)
        return self._loaded

    def embed(self, texts: Sequence[str]) -> list[Any]:
        """Per text the normalised embeddings of its non-special tokens (a tensor)."""
        import torch

        model, tok, layer = self._load()
        special = set(tok.all_special_ids)

        def run(batch: list[str]) -> list[Any]:
            enc = tok(batch, padding=True, truncation=True, max_length=self.max_length,
                      return_tensors="pt").to(self.device)
            with torch.inference_mode():
                out = model(**enc, output_hidden_states=True)
            states = out.hidden_states[layer].float()
            res = []
            for row, ids in enumerate(enc["input_ids"].tolist()):
                keep = [j for j, (t, m) in enumerate(zip(ids, enc["attention_mask"][row].tolist(),
                                                         strict=True))
                        if m and t not in special]
                emb = states[row, keep]
                res.append(emb / emb.norm(dim=-1, keepdim=True).clamp_min(1e-12))
            return res

        return encoders.batched(list(texts), run, self.batch_size)

    def pairs(self, cands: Sequence[str], refs: Sequence[str]) -> dict[str, list[float]]:
        """P, R and F of each (candidate, reference) pair."""
        uniq = list(dict.fromkeys([*cands, *refs]))
        emb = dict(zip(uniq, self.embed(uniq), strict=True))
        out: dict[str, list[float]] = {"p": [], "r": [], "f": []}
        for c, r in zip(cands, refs, strict=True):
            a, b = emb[c], emb[r]
            if len(a) == 0 or len(b) == 0:
                p = rr = 0.0
            else:
                sim = a @ b.T
                p = float(sim.max(dim=1).values.mean())
                rr = float(sim.max(dim=0).values.mean())
            out["p"].append(p)
            out["r"].append(rr)
            out["f"].append(2 * p * rr / (p + rr) if p + rr else 0.0)
        return out


@register("bertscore")
@dataclass
class BertScoreMetric:
    """BERTScore F1 of each hypothesis against its best reference (the gold annotators'
    corrected sentences, or the reference texts); the corpus score is the mean. Settings:
    ``model``, ``layer``, ``batch_size``, ``device``, ``local_files_only``, ``measure``
    (``f``, ``p`` or ``r``)."""

    model: Any = "bert-base-uncased"
    layer: int | None = None
    batch_size: int = 64
    device: str = "cpu"
    local_files_only: bool = False
    measure: str = "f"
    tokenizer: Any = field(default=None, repr=False)
    name: str = "bertscore"
    main: ClassVar[str] = "bertscore"
    uses: ClassVar[tuple[str, ...]] = ("references",)
    _scorer: BertScore | None = field(default=None, repr=False, compare=False)

    def scorer(self) -> BertScore:
        if self._scorer is None:
            self._scorer = BertScore(self.model, self.tokenizer, self.layer, self.batch_size,
                                     device=self.device, local_files_only=self.local_files_only)
        return self._scorer

    def settings(self) -> dict[str, Any]:
        return {"model": encoders.model_name(self.model), "layer": self.layer or "default",
                "idf": False, "rescale": False, "measure": self.measure, "refs": "best-f"}

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import gold_references

        refs = data.references if data.references is not None else gold_references(data.gold)
        hyps = list(data.hypotheses)
        per_ref = [self.scorer().pairs(hyps, list(r)) for r in refs]
        rows = []
        for i in range(len(hyps)):
            k = max(range(len(per_ref)), key=lambda k: (per_ref[k]["f"][i], -k))
            vals = {m: per_ref[k][m][i] for m in ("p", "r", "f")}
            rows.append({"id": i, "score": vals[self.measure], "reference": k, **vals})
        mean = sum(r["score"] for r in rows) / len(rows) if rows else 0.0
        return ScoreResult(self.name, {"bertscore": mean},
                           signature(self.name, self.settings()), sentences=rows)
