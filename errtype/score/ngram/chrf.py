"""chrF++ (Popović 2017, "chrF++: words helping character n-grams") through sacreBLEU.

The scores are sacreBLEU's own (``sacrebleu.metrics.CHRF``): character n-grams of order 1..6
(whitespace removed) and word n-grams of order 1..2, F-beta with beta 2, averaged over the orders.
The corpus score is computed from the statistics summed over the corpus, each sentence scored
against the reference with the best sentence F (sacreBLEU's rule for several references);
sentence scores are ``CHRF.sentence_score``. ``word_order=0`` gives chrF (Popović 2015).
Needs the ``meta`` extra (``pip install errtype[meta]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...errors import InputError, LineCountError
from ..common import ScoreResult, signature
from ..extract import MISSING
from ..options import option
from ..registry import ScoreInput, register

__all__ = ["ChrfMetric", "chrf"]


def _scorer(char_order: int, word_order: int, beta: float, lowercase: bool,
            whitespace: bool) -> Any:
    from sacrebleu.metrics import CHRF  # the meta extra; imported when a score is asked for

    return CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                whitespace=whitespace)


def chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]], *,
         char_order: int = 6, word_order: int = 2, beta: float = 2.0, lowercase: bool = False,
         whitespace: bool = False, sentence_level: bool = True,
         name: str = "chrf") -> ScoreResult:
    """Corpus chrF++ (sacreBLEU), and sentence scores; ``references[k][i]`` is reference k of
    sentence i."""
    if not references:
        raise InputError("chrF needs at least one reference")
    n = len(hypotheses)
    for k, ref in enumerate(references):
        if len(ref) != n:
            raise LineCountError(f"reference {k + 1} has {len(ref)} sentences for {n}")
    scorer = _scorer(char_order, word_order, beta, lowercase, whitespace)
    refs = [list(r) for r in references]
    corpus = scorer.corpus_score(list(hypotheses), refs)
    rows = []
    if sentence_level:
        for i, hyp in enumerate(hypotheses):
            s = scorer.sentence_score(hyp, [r[i] for r in refs])
            rows.append({"id": i, "chrf": s.score / 100})
    settings = {"nc": char_order, "nw": word_order, "beta": float(beta),
                "case": "lc" if lowercase else "mixed", "space": "yes" if whitespace else "no",
                "refs": len(references),
                "impl": "sacrebleu-" + str(scorer.get_signature()).rsplit("version:", 1)[-1]}
    return ScoreResult(metric=name, corpus={"chrf": corpus.score / 100},
                       signature=signature(name, settings),
                       counts={"sentences": n, "references": len(references)},
                       sentences=rows)


@register("chrf")
@dataclass
class ChrfMetric:
    """chrF++ (sacreBLEU) against the reference texts, or else the gold annotators' corrected
    sentences (one reference per annotator; ``missing``: see
    :func:`errtype.score.extract.gold_references`). ``word_order=0``: chrF."""

    char_order: int = option(6, ge=1)
    word_order: int = option(2, ge=0)
    beta: float = option(2.0, gt=0)
    lowercase: bool = False
    whitespace: bool = False
    sentence_level: bool = True
    missing: str = option("first", choices=MISSING)
    name: str = "chrf"
    main: ClassVar[str] = "chrf"
    uses: ClassVar[tuple[str, ...]] = ("references",)
    extra: ClassVar[str] = "meta"

    def settings(self) -> dict[str, Any]:
        return {"nc": self.char_order, "nw": self.word_order, "beta": float(self.beta),
                "case": "lc" if self.lowercase else "mixed",
                "space": "yes" if self.whitespace else "no",
                "gold": f"texts-or-m2-{self.missing}", "impl": "sacrebleu"}

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import gold_references

        refs = (data.references if data.references is not None
                else gold_references(data.gold, self.missing))
        return chrf(list(data.hypotheses), refs, char_order=self.char_order,
                    word_order=self.word_order, beta=self.beta, lowercase=self.lowercase,
                    whitespace=self.whitespace, sentence_level=self.sentence_level,
                    name=self.name)
