"""Edit-weighted ERRANT in the manner of PT-ERRANT (Gong et al., EMNLP 2022): every edit counts
with a weight, how much applying it alone changes a sentence scorer's score, instead of 1.

Weighted counts of one sentence (ERRANT's span-based correction keys ``(start, end,
correction)``, noop and ``UNK`` edits ignored): TP = the summed weights of the hypothesis edits
the reference also has, FP = of the others, FN = of the reference edits the hypothesis lacks.
The weight of an edit is ``|score(source with the edit applied) - score(source)|``; the reference
of a sentence is chosen by errant_compare's rule on the weighted counts; P, R and F-beta come from
the summed weights. A sentence where every weight is 0 contributes nothing.

The scorer is pluggable: any callable ``scorer(tokens, references) -> float`` (``references``:
the reference corrections of the sentence as token lists, for reference-based scorers such as
PT-M2's BERTScore), or a spec string ``lm:SPEC`` for the mean log10 probability per token of a
language model of :func:`errtype.score.lm.models.load_lm` (``lm:default``, the offline English
trigram model; ``lm:arpa:FILE``; ``lm:hf:NAME`` with the ``lm`` extra). A language model makes
the weight the change in fluency the edit brings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...errors import InputError
from ...m2 import ALT, NONE, M2Block
from ..common import ScoreResult, f_key, prf, signature
from ..registry import ScoreInput, register
from .base import EditMetric
from .errant import coder_edits

__all__ = ["WeightedErrant", "apply_one", "lm_scorer"]

Scorer = Callable[[Sequence[str], Sequence[Sequence[str]]], float]
Key = tuple[int, int, str]


def apply_one(tokens: Sequence[str], key: Key) -> list[str]:
    """The tokens with one edit key applied (``-NONE-`` deletes, ``a||b`` takes ``a``)."""
    start, end, cor = key
    first = cor.split(ALT)[0]
    return [*tokens[:start], *([] if first in (NONE, "") else first.split()), *tokens[end:]]


def lm_scorer(spec: str) -> Scorer:
    """Mean log10 probability per token (``</s>`` included) under the language model ``spec``."""
    from ..lm import models

    lm = models.load_lm(spec or "default")

    @lru_cache(maxsize=1 << 16)
    def score(text: str) -> float:
        lp, n = lm.log_probs([text])[0]
        return lp / n if n else 0.0

    return lambda tokens, refs: score(" ".join(tokens))


@register("pt-errant")
@dataclass(kw_only=True)
class WeightedErrant(EditMetric):
    """ERRANT's span-based correction with every edit weighted by a pluggable scorer (see the
    module docstring)."""

    scorer: Any = "lm:default"
    name: str = "pt-errant"

    def settings(self) -> dict[str, Any]:
        name = self.scorer if isinstance(self.scorer, str) else getattr(
            self.scorer, "__name__", type(self.scorer).__name__)
        return {"mode": "cs", "beta": float(self.beta), "weights": f"abs-delta:{name}",
                **self.edit_settings()}

    def _scorer(self) -> Scorer:
        if callable(self.scorer):
            return self.scorer
        kind, _, spec = str(self.scorer).partition(":")
        if kind != "lm":
            raise InputError(f"pt-errant: unknown scorer {self.scorer!r} (use lm:SPEC, e.g. "
                             "lm:default, or pass a callable)")
        return lm_scorer(spec)

    def score(self, data: ScoreInput) -> ScoreResult:
        scorer = self._scorer()
        hyp = self.hyp_blocks(data)
        total = [0.0, 0.0, 0.0]
        rows = []
        for i, (hb, rb) in enumerate(zip(hyp, data.gold, strict=True)):
            counts, chosen = self._sentence(scorer, hb, rb, total)
            total = [t + c for t, c in zip(total, counts, strict=True)]
            tp, fp, fn = counts
            rows.append({"id": i, "ref_coder": chosen, "tp": tp, "fp": fp, "fn": fn,
                         "f": prf(tp, fp, fn, self.beta)[2]})
        p, r, f = prf(*total, self.beta)
        return ScoreResult(metric=self.name, corpus={"p": p, "r": r, f_key(self.beta): f},
                           signature=signature(self.name, self.settings()),
                           counts={"tp": total[0], "fp": total[1], "fn": total[2]},
                           sentences=rows)

    def _sentence(self, scorer: Scorer, hb: M2Block, rb: M2Block, total: Sequence[float]
                  ) -> tuple[tuple[float, float, float], int]:
        tokens = rb.tokens
        hyp = _keys(coder_edits(hb.edits, "cs"))
        refs = {k: _keys({k: v}) for k, v in coder_edits(rb.edits, "cs").items()}
        references = [_corrected(tokens, keys) for keys in refs.values()]
        base = scorer(tokens, references)
        cache: dict[Key, float] = {}

        def weight(key: Key) -> float:
            if key not in cache:
                cache[key] = abs(scorer(apply_one(tokens, key), references) - base)
            return cache[key]

        best: tuple[tuple[float, float, float], int] | None = None
        best_rank: tuple[float, ...] | None = None
        for coder, keys in refs.items():
            tp = sum(weight(k) for k in hyp & keys)
            fp = sum(weight(k) for k in hyp - keys)
            fn = sum(weight(k) for k in keys - hyp)
            f = prf(total[0] + tp, total[1] + fp, total[2] + fn, self.beta)[2]
            rank = (f, tp, -fp, -fn)
            if best_rank is None or rank > best_rank:
                best, best_rank = ((tp, fp, fn), coder), rank
        return best if best is not None else ((0.0, 0.0, 0.0), 0)


def _keys(coders: dict[int, dict[Any, list[str]]]) -> set[Key]:
    """The real (non-noop) edit keys of the first coder in ``coders``."""
    for edits in coders.values():
        return {k for k, types in edits.items() if types[0] != "noop"}
    return set()


def _corrected(tokens: Sequence[str], keys: set[Key]) -> list[str]:
    out = list(tokens)
    for key in sorted(keys, reverse=True):  # right to left: earlier offsets stay valid
        out = apply_one(out, key)
    return out
