"""Scribendi Score (Islam & Magnani, EMNLP 2021): a reference-free sentence-level score.

Per sentence pair (source s, hypothesis h):

* 0 if ``s == h`` (exact string equality);
* −1 if the language-model perplexity does not drop (``PPL(s) <= PPL(h)``);
* otherwise +1 if ``max(TSR, LDR) >= threshold`` (0.8), else −1,

where TSR is the token-sort ratio and LDR the character Levenshtein ratio with substitution
cost 2, ``1 - d/(|s|+|h|)``. The system score is the sum; the mean is reported too.

TSR modes (``tsr=``): ``"fuzzywuzzy"`` (default; what the public reimplementation computes:
fuzzywuzzy's ``full_process`` — drop non-ASCII, non-alphanumerics to spaces, lowercase — then an
**integer percentage**, so 0.8372 becomes 0.84 and 0.7951 becomes 0.80), ``"difflib"`` (the same
but with :class:`difflib.SequenceMatcher`, as fuzzywuzzy computes it when python-Levenshtein is
not installed) and ``"float"`` (rapidfuzz's unrounded value with its ``default_process``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rapidfuzz import fuzz
from rapidfuzz import utils as rf_utils
from rapidfuzz.distance import Indel, Levenshtein

from ...errors import LineCountError
from ..common import ScoreResult, signature
from ..options import option
from ..registry import ScoreInput, register
from . import models
from .models import LanguageModel

TSR_MODES = ("fuzzywuzzy", "difflib", "float")
_NON_WORD = re.compile(r"(?ui)\W")


def _fuzzywuzzy_process(text: str) -> str:
    """fuzzywuzzy's ``full_process(force_ascii=True)`` (drops U+0080–U+00FF), then token sort."""
    text = "".join(c for c in text if not 128 <= ord(c) < 256)  # its asciidammit
    text = _NON_WORD.sub(" ", text).lower().strip()
    return " ".join(sorted(text.split()))


def _intr(x: float) -> int:
    """fuzzywuzzy's integer rounding of a percentage (Python's round: halves to even)."""
    return int(round(x))


def token_sort_ratio(a: str, b: str, mode: str = "fuzzywuzzy") -> float:
    """Token-sort ratio in [0, 1] (see the module docstring for ``mode``)."""
    if mode == "float":
        return fuzz.token_sort_ratio(a, b, processor=rf_utils.default_process) / 100.0
    if mode not in TSR_MODES:
        raise ValueError(f"unknown token-sort mode {mode!r}; use one of {', '.join(TSR_MODES)}")
    pa, pb = _fuzzywuzzy_process(a), _fuzzywuzzy_process(b)
    if pa == pb:
        return 1.0
    if not pa or not pb:
        return 0.0
    if mode == "difflib":
        sim = difflib.SequenceMatcher(None, pa, pb).ratio()
    else:
        sim = Indel.normalized_similarity(pa, pb)
    return _intr(100.0 * sim) / 100.0


def levenshtein_distance_ratio(a: str, b: str) -> float:
    """``1 - d/(|a|+|b|)`` with character Levenshtein distance d, substitution cost 2."""
    total = len(a) + len(b)
    if not total:
        return 1.0
    return 1.0 - Levenshtein.distance(a, b, weights=(1, 1, 2)) / total


@dataclass
class SentenceScore:
    """One pair's verdict and the quantities behind it."""

    score: int
    reason: str  # unchanged | ppl_not_lower | similar | dissimilar
    ppl_src: float | None = None
    ppl_hyp: float | None = None
    tsr: float | None = None
    ldr: float | None = None


def sentence_score(src: str, hyp: str, ppl_src: float, ppl_hyp: float, *,
                   threshold: float = 0.8, tsr: str = "fuzzywuzzy") -> SentenceScore:
    """The Scribendi verdict for one pair given both perplexities."""
    if src == hyp:
        return SentenceScore(0, "unchanged")
    if ppl_src <= ppl_hyp:
        return SentenceScore(-1, "ppl_not_lower", ppl_src, ppl_hyp)
    t = token_sort_ratio(src, hyp, tsr)
    d = levenshtein_distance_ratio(src, hyp)
    ok = max(t, d) >= threshold
    return SentenceScore(1 if ok else -1, "similar" if ok else "dissimilar", ppl_src, ppl_hyp,
                         t, d)


class Scribendi:
    """Scribendi scorer around one language model, caching perplexities across systems."""

    def __init__(self, lm: LanguageModel | str | None = None, *, threshold: float = 0.8,
                 tsr: str = "fuzzywuzzy", batch_size: int | None = None) -> None:
        if tsr not in TSR_MODES:
            raise ValueError(f"unknown token-sort mode {tsr!r}; use one of {', '.join(TSR_MODES)}")
        self.lm = lm if isinstance(lm, LanguageModel) else models.load_lm(lm or "default")
        self.threshold = threshold
        self.tsr = tsr
        self.batch_size = batch_size
        self._ppl: dict[str, float] = {}

    def perplexities(self, sentences: Sequence[str]) -> list[float]:
        """Perplexities with a cache (each distinct sentence is scored once, in batches)."""
        todo = list(dict.fromkeys(s for s in sentences if s not in self._ppl))
        if todo:
            for s, p in zip(todo, self.lm.perplexities(todo, self.batch_size), strict=True):
                self._ppl[s] = p
        return [self._ppl[s] for s in sentences]

    def signature(self) -> str:
        return signature("scribendi", {"lm": self.lm.name, "threshold": self.threshold,
                                       "tsr": self.tsr})

    def sentences(self, sources: Sequence[str], hypotheses: Sequence[str]) -> list[SentenceScore]:
        if len(sources) != len(hypotheses):
            raise LineCountError(f"{len(sources)} sources but {len(hypotheses)} hypotheses")
        changed = [i for i, (s, h) in enumerate(zip(sources, hypotheses, strict=True)) if s != h]
        need = [sources[i] for i in changed] + [hypotheses[i] for i in changed]
        ppl = dict(zip(need, self.perplexities(need), strict=True))
        return [sentence_score(s, h, ppl.get(s, 0.0), ppl.get(h, 0.0),
                               threshold=self.threshold, tsr=self.tsr)
                for s, h in zip(sources, hypotheses, strict=True)]

    def score(self, sources: Sequence[str], hypotheses: Sequence[str]) -> ScoreResult:
        """Corpus result: ``score`` (sum), ``mean``, counts of +1/0/−1; per-sentence detail."""
        sents = self.sentences(sources, hypotheses)
        values = [s.score for s in sents]
        n = len(values)
        corpus = {"score": sum(values), "mean": sum(values) / n if n else 0.0, "n": n,
                  "plus": values.count(1), "zero": values.count(0), "minus": values.count(-1)}
        detail = [{k: v for k, v in vars(s).items() if v is not None} for s in sents]
        notes = []
        if getattr(self.lm, "words_only", False):
            notes.append("the language model scores words only: an edit of punctuation alone "
                         "cannot lower the perplexity and scores -1")
        return ScoreResult("scribendi", corpus, self.signature(), sentences=detail, notes=notes)


def scribendi(sources: Sequence[str], hypotheses: Sequence[str],
              lm: LanguageModel | str | None = None, *, threshold: float = 0.8,
              tsr: str = "fuzzywuzzy", batch_size: int | None = None) -> ScoreResult:
    """Score one system (convenience wrapper around :class:`Scribendi`)."""
    return Scribendi(lm, threshold=threshold, tsr=tsr, batch_size=batch_size).score(
        sources, hypotheses)


@register("scribendi")
@dataclass
class ScribendiMetric:
    """The Scribendi score of a system's hypotheses against its sources (no references); the
    language model (``lm``: a :func:`~errtype.score.lm.models.load_lm` spec, with its
    ``batch_size``, ``lowercase``, ``local_files_only``, ``device`` and ``dtype``) is loaded on
    first use and its perplexities are shared by every system this object scores."""

    lm: str = "default"
    threshold: float = option(0.8, ge=0, le=1)
    tsr: str = option("fuzzywuzzy", choices=TSR_MODES)
    batch_size: int | None = option(None, ge=1)
    lowercase: bool = False
    local_files_only: bool = False
    device: str = "cpu"
    dtype: str = "float32"
    name: str = "scribendi"
    main: ClassVar[str] = "score"
    scale: ClassVar[float] = 1
    uses: ClassVar[tuple[str, ...]] = ()
    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    _scorer: Scribendi | None = field(default=None, init=False, repr=False, compare=False)

    def scorer(self) -> Scribendi:
        if self._scorer is None:
            lm = models.load_lm(self.lm, batch_size=self.batch_size, lowercase=self.lowercase,
                                local_files_only=self.local_files_only, device=self.device,
                                dtype=self.dtype)
            self._scorer = Scribendi(lm, threshold=self.threshold, tsr=self.tsr)
        return self._scorer

    def settings(self) -> dict[str, Any]:
        dtype = {} if self.dtype == "float32" else {"dtype": self.dtype}
        return {"lm": self.lm, **dtype, "threshold": self.threshold, "tsr": self.tsr}

    def score(self, data: ScoreInput) -> ScoreResult:
        return self.scorer().score(list(data.sources or []), list(data.hypotheses))
