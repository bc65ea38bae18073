"""BERTScore (Zhang, Kishore, Wu, Weinberger and Artzi, ICLR 2020) as GEC uses it: the
hypothesis against the references (gec-metrics' ``BertScore``; a component of PT-M2), or,
``against="source"``, against the source (a meaning-preservation variant, reference-free).

Each sentence is encoded once by ``model`` (``tokenizer.encode(text.strip())`` with its special
tokens, truncated to the model's maximum length); a token's embedding is hidden layer ``layer``
(bert_score's tuned layer for the model when not given: 9 for ``bert-base-uncased``, 17 for
``roberta-large``, ...), scaled to unit length. With the cosine similarities ``sim(i, j)`` of
hypothesis token i and reference token j:

* ``P = mean over hypothesis tokens i of max_j sim(i, j)``,
* ``R = mean over reference tokens j of max_i sim(i, j)``,
* ``F = 2PR / (P + R)`` (0 when P + R = 0),

where the means leave out the [CLS]/[SEP] (``<s>``/``</s>``) tokens (bert_score's weights without
idf: 0 for them, 1 for every other token) and the maxima range over every token of the other
side, special tokens included. An empty sentence scores P = R = F = 0. With several references
each of P, R and F is the largest over the references (separately, as bert_score does); then,
with a baseline, every value is rescaled to ``(x - b) / (1 - b)`` by the baseline b of that
model and layer (bert_score's rescale_with_baseline; gec-metrics' default). The baselines of
``bert-base-uncased`` and ``roberta-large`` for English ship with errtype
(``resources/bertscore/``, from bert_score, MIT); another model's is read from bert_score's TSV
file (``baseline=PATH``). The sentence score is ``score_type`` (``f``, ``p`` or ``r``); the
system score the mean over sentences.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...data import resource_path
from ...errors import InputError, ResourceError
from ..common import ScoreResult, signature
from ..options import option
from ..registry import ScoreInput, register
from .hf import HFMetric, import_hf

#: bert_score's tuned layer of the models GEC papers use (its ``model2layers``)
LAYERS = {"bert-base-uncased": 9, "bert-large-uncased": 18, "bert-base-multilingual-cased": 9,
          "roberta-base": 10, "roberta-large": 17, "roberta-large-mnli": 19,
          "xlm-roberta-base": 9, "xlm-roberta-large": 17, "distilbert-base-uncased": 5,
          "microsoft/deberta-large-mnli": 18, "microsoft/deberta-xlarge-mnli": 40}
#: hub organisations that the old short model names moved into
_ORGS = ("google-bert/", "FacebookAI/", "distilbert/")
#: tokenizers that need a space before the first word (byte-level BPE), as bert_score gives them
_PREFIX_SPACE = {"roberta", "gpt2", "bart", "longformer"}
SCORE_TYPES = ("f", "p", "r")


def short_name(model: str) -> str:
    """The model's name without a hub organisation that old names lacked."""
    for org in _ORGS:
        if model.startswith(org):
            return model[len(org):]
    return model


def read_baseline(path: str | os.PathLike[str], layer: int) -> tuple[float, float, float]:
    """(P, R, F) baselines of ``layer`` from a bert_score baseline file (``LAYER,P,R,F``)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                if int(row["LAYER"]) == layer:
                    return float(row["P"]), float(row["R"]), float(row["F"])
    except FileNotFoundError:
        raise InputError("no such BERTScore baseline file", path=str(path)) from None
    except (KeyError, ValueError) as exc:
        raise InputError(f"not a bert_score baseline file (LAYER,P,R,F): {exc}",
                         path=str(path)) from None
    raise InputError(f"no baseline for layer {layer}", path=str(path))


def greedy_match(hyp: Any, hyp_weights: Any, ref: Any, ref_weights: Any
                 ) -> tuple[float, float, float]:
    """(P, R, F) of unit-length token embeddings ``hyp`` (m×d) and ``ref`` (n×d) with token
    weights (0 leaves a token out of the mean; see the module docstring)."""
    wh, wr = float(hyp_weights.sum()), float(ref_weights.sum())
    if wh == 0 or wr == 0:
        return 0.0, 0.0, 0.0
    sim = hyp @ ref.T
    p = float((sim.max(dim=1).values * hyp_weights).sum()) / wh
    r = float((sim.max(dim=0).values * ref_weights).sum()) / wr
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@register("bertscore")
@dataclass
class BertScore(HFMetric):
    """BERTScore of a system's hypotheses (see the module docstring). ``baseline``: ``auto``
    (the shipped baseline of ``model`` for ``lang`` when there is one, else no rescaling),
    ``none``, or a bert_score baseline file."""

    model: str = "bert-base-uncased"
    layer: int | None = option(None, ge=0)
    score_type: str = "f"
    against: str = "references"
    baseline: str = "auto"
    lang: str = "en"
    batch_size: int = option(64, ge=1)
    max_length: int | None = option(None, ge=1)
    name: str = "bertscore"
    _emb: dict[str, tuple[Any, Any]] = field(default_factory=dict, init=False, repr=False,
                                             compare=False)
    #: the number of layers the loaded encoder was cut to (-1: not cut)
    _depth: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.score_type not in SCORE_TYPES:
            raise InputError(f"bertscore: unknown score_type {self.score_type!r} (choose from "
                             f"{', '.join(SCORE_TYPES)})")
        if self.against not in ("references", "source"):
            raise InputError(f"bertscore: against must be 'references' or 'source', not "
                             f"{self.against!r}")

    @property
    def uses(self) -> tuple[str, ...]:
        return ("references",) if self.against == "references" else ()

    def num_layer(self) -> int:
        """The hidden layer used (``layer``, else bert_score's tuned layer of the model)."""
        if self.layer is not None:
            return int(self.layer)
        try:
            return LAYERS[short_name(self.model)]
        except KeyError:
            raise InputError(f"bertscore: no tuned layer known for {self.model!r}: give one "
                             f"(-O bertscore.layer=N; bert_score's model2layers lists them)"
                             ) from None

    def baseline_values(self) -> tuple[str, tuple[float, float, float] | None]:
        """(description, (P, R, F) baselines or None)."""
        if self.baseline in ("none", "", None):
            return "none", None
        layer = self.num_layer()
        if self.baseline != "auto":
            return f"{Path(self.baseline).name}:L{layer}", read_baseline(self.baseline, layer)
        key = f"{self.lang}-{short_name(self.model).replace('/', '-')}"
        try:
            path = resource_path(f"bertscore/{key}.tsv")
        except ResourceError:
            return "none", None
        return f"{key}:L{layer}", read_baseline(path, layer)

    def settings(self) -> dict[str, Any]:
        return {"model": self.model, "layer": self.num_layer(), "score": self.score_type,
                "against": self.against, "baseline": self.baseline_values()[0],
                "idf": False, **self._settings()}

    def embeddings(self, texts: Sequence[str]) -> list[tuple[Any, Any]]:
        """(unit token embeddings, token weights) per text, cached (float32 on the CPU)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._emb))
        if todo:
            torch, _ = import_hf()
            model, tok = self._encoder()
            layer = self.num_layer()
            special = {tok.cls_token_id, tok.sep_token_id} - {None}
            for idx, batch in self.batches(tok, [t.strip() for t in todo]):
                out = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                            output_hidden_states=layer != self._depth)
                states = (out.last_hidden_state if layer == self._depth
                          else out.hidden_states[layer]).float()
                states = states / states.norm(dim=-1, keepdim=True)
                lens = batch["attention_mask"].sum(dim=1).tolist()
                for row, (i, n) in enumerate(zip(idx, lens, strict=True)):
                    ids = batch["input_ids"][row, :n].tolist()
                    weights = torch.tensor([0.0 if t in special else 1.0 for t in ids])
                    self._emb[todo[i]] = (states[row, :n].cpu(), weights)
        return [self._emb[t] for t in texts]

    def _encoder(self) -> tuple[Any, Any]:
        """The model, cut after ``layer`` where its layers can be cut (bert_score does)."""
        key = f"AutoModel:{self.model}"
        if key in self._loaded:
            return self._loaded[key]
        torch, transformers = import_hf()
        config = transformers.AutoConfig.from_pretrained(self.model,
                                                         local_files_only=self.local_files_only)
        extra = {"add_prefix_space": True} if config.model_type in _PREFIX_SPACE else {}
        model, tok = self.load("AutoModel", self.model, what="BERTScore encoder", **extra)
        layer = self.num_layer()
        stack = getattr(getattr(model, "encoder", None), "layer", None)
        if isinstance(stack, torch.nn.ModuleList):
            if not 0 <= layer <= len(stack):
                raise InputError(f"bertscore: layer {layer} not in 0..{len(stack)} for "
                                 f"{self.model!r}")
            if layer < len(stack):
                model.encoder.layer = torch.nn.ModuleList(list(stack)[:layer])
            self._depth = layer
        else:
            self._depth = -1  # not cut: read hidden_states[layer]
        return model, tok

    def pair_scores(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
                    ) -> list[tuple[float, float, float]]:
        """(P, R, F) per hypothesis against its references (``references[k][i]``), the best
        of each over the references, rescaled by the baseline when there is one."""
        texts = list(hypotheses) + [r for ref in references for r in ref]
        emb = dict(zip(texts, self.embeddings(texts), strict=True))
        _, base = self.baseline_values()
        out = []
        for i, h in enumerate(hypotheses):
            each = [greedy_match(*emb[h], *emb[ref[i]]) for ref in references]
            best = tuple(max(v[c] for v in each) for c in range(3))
            if base is not None:
                best = tuple((v - b) / (1 - b) for v, b in zip(best, base, strict=True))
            out.append(best)
        return out

    def score(self, data: ScoreInput) -> ScoreResult:
        hypotheses = list(data.hypotheses)
        if self.against == "source":
            refs: Sequence[Sequence[str]] = [list(data.sources or [])]
        else:
            from ..extract import gold_references

            refs = data.references if data.references is not None else gold_references(
                data.gold)
        k = "prf".index(self.score_type)
        rows = [{"score": v[k], "P": v[0], "R": v[1], "F": v[2]}
                for v in self.pair_scores(hypotheses, refs)]
        n = len(rows)
        corpus = {key: sum(r[key] for r in rows) / n if n else 0.0
                  for key in ("score", "P", "R", "F")}
        return ScoreResult(self.name, corpus, signature(self.name, self.settings()),
                           counts={"sentences": n, "references": len(refs)}, sentences=rows)
