"""Czech: the error types of the Czech ERRANT (ufal/errant_czech), as used by the GECCC corpus.

Backends: a UDPipe 1 model (``udpipe_model=`` / ``ERRTYPE_UDPIPE_MODEL`` / a model fetched with
``errtype download cs``) reproduces the Czech ERRANT exactly with ``czech-pdt-ud-2.5-191206``;
without one the spaCy pipeline ``cs_core_news_sm`` is used.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ...edit import Edit
from ...errors import ResourceError
from ...merge import MAX_RULE_RUN
from ...tokens import Sentence, Token
from ..base import AlignOp, Language, Parser, linguistic_cost
from .charcost import difflib_cost, weighted_char_cost
from .classifier import CzechClassifier
from .spelling import default_lexicon
from .transposition import is_transposition_compatible

__all__ = ["Czech", "UDPIPE_ENV", "SPACY_MODEL"]

UDPIPE_ENV = "ERRTYPE_UDPIPE_MODEL"
SPACY_MODEL = "cs_core_news_sm"
_CONTENT_POS = frozenset({"ADJ", "ADV", "NOUN", "VERB"})


def _similar(a: str, b: str) -> bool:
    """Czech similar-substitution split test: weighted char cost below 0.25."""
    return weighted_char_cost(a, b) < 0.25


class Czech(Language):
    """The Czech language plug-in (ERRANT 2.0.0 alignment and merging, Czech classifier)."""

    code = "cs"
    name = "Czech"
    strict_walk = True

    def __init__(self, is_valid_word: Callable[[str], bool] | None = None) -> None:
        self._lexicon = is_valid_word
        self._classifier: CzechClassifier | None = None
        self._merger: Any = None

    # ----------------------------------------------------------------- parsing
    def make_parser(self, **options: Any) -> Parser:
        """Parser from options: ``nlp`` (a spaCy pipeline), ``udpipe_model`` (path),
        ``backend`` ("udpipe" or "spacy"), ``spacy_model`` (name, default cs_core_news_sm),
        ``ud25_compat`` (spaCy only, default True: map PDTC-style tags to UD 2.5 PDT ones),
        ``numpy_blas`` (spaCy only, default True: :func:`errtype.parse.spacy.use_numpy_blas`).

        Without options: ``$ERRTYPE_UDPIPE_MODEL``, then a model fetched by
        ``errtype download cs``, then the embedded spaCy pipeline.
        """
        nlp = options.get("nlp")
        backend = options.get("backend")
        model = options.get("udpipe_model")
        if backend not in (None, "spacy", "udpipe"):
            raise ResourceError(f"unknown Czech backend {backend!r}; choose 'udpipe' or 'spacy'")
        compat = options.get("ud25_compat", True)
        blas = options.get("numpy_blas", True)
        if nlp is not None or backend == "spacy" or options.get("spacy_model"):
            return _spacy_parser(nlp, options.get("spacy_model") or SPACY_MODEL, compat, blas)
        if model is None:
            model = os.environ.get(UDPIPE_ENV) or None
        trusted = model is None  # a downloaded model: cached_model verified its digest
        if model is None:
            from ...download import cached_model
            model = cached_model("cs")
        if model is None and backend == "udpipe":
            raise ResourceError(
                "no UDPipe model configured: pass udpipe_model=, set $ERRTYPE_UDPIPE_MODEL "
                "or run 'errtype download cs'"
            )
        if model is not None:
            from ...parse.udpipe import UDPipeParser
            return UDPipeParser(model, trusted=trusted)
        return _spacy_parser(None, options.get("spacy_model") or SPACY_MODEL, compat, blas)

    # --------------------------------------------------------------- alignment
    def substitution_cost(self, o: Token, c: Token) -> float:
        """ERRANT 2.0.0 cost: lemma + POS + (1 - difflib ratio); 0 for case-only changes."""
        return linguistic_cost(o, c, difflib_cost, _CONTENT_POS)

    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        return is_transposition_compatible([t.text for t in o], [t.text for t in c])

    #: windows of more than 5 tokens are exact case-insensitive reorderings (found by the index)
    transposition_key_window = 6

    def transposition_keys(self, sent: Sentence) -> Sequence[object]:
        return [t.text.lower() for t in sent]

    # ----------------------------------------------------------------- merging
    def merge_rules(
        self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence, run_limit: int = MAX_RULE_RUN
    ) -> list[tuple[int, int, int, int]]:
        if self._merger is None:
            from ...merge import errant2_rules
            self._merger = errant2_rules(similar=_similar)
        return self._merger(seq, orig, cor, run_limit)

    # ---------------------------------------------------------- classification
    @property
    def classifier(self) -> CzechClassifier:
        """The classifier (its spelling lexicon is loaded at first use)."""
        if self._classifier is None:
            lexicon = self._lexicon if self._lexicon is not None else default_lexicon()
            self._classifier = CzechClassifier(lexicon, self.feats)
        return self._classifier

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        return self.classifier.classify(edit, orig, cor)


def _spacy_parser(nlp: Any, model_name: str, compat: bool = True, numpy_blas: bool = True
                  ) -> Parser:
    from ...parse.spacy import SpacyParser, use_numpy_blas
    from ...parse.spacy_import import import_spacy
    from .compat import UD25Compat
    if nlp is None:
        try:
            nlp = import_spacy([model_name]).load(model_name, exclude=["ner"])
        except OSError as exc:
            raise ResourceError(
                f"spaCy pipeline {model_name!r} is not installed "
                "(pip install 'errtype[cs]' or pip install cs-core-news-sm==0.2.1)"
            ) from exc
        if numpy_blas:
            use_numpy_blas(nlp)
    return UD25Compat(SpacyParser(nlp)) if compat else SpacyParser(nlp)
