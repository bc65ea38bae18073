"""Sentence segmentation of essays: raw text -> tokenised, tagged Sentences, one per sentence.

Each parser splits as it can: UDPipe with its model's tokenizer
(:meth:`errtype.parse.udpipe.UDPipeParser.parse_text`), spaCy where its pipeline sets sentence
boundaries (a parser, senter or sentencizer: ``doc.sents``,
:meth:`errtype.parse.spacy.SpacyParser.parse_texts`). Any other parser (the segmenters of
languages written without spaces, MeCab, a spaCy pipeline without boundaries) gets the one
generic rule, :func:`split_sentences`: a sentence ends after sentence-final punctuation
(``. ! ? …`` followed by a space, ``。！？`` and full-width ``！？`` anywhere), closing quotes
and brackets included, and each piece is tokenised and tagged by the parser. A line break always
ends a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..tokens import Sentence

__all__ = ["parse_texts", "segment_essay", "split_sentences"]

_CLOSE = "\"'»”’)\\]」』）】"
#: the end of a sentence: final punctuation and closing marks, then a space (spaced scripts) or
#: not (CJK full stops)
_END = re.compile(rf"[.!?…]+[{_CLOSE}]*\s+|[。！？]+[{_CLOSE}]*\s*")


def split_sentences(text: str) -> list[str]:
    """``text`` cut into sentence strings by the generic rule (module docstring); line breaks
    always cut; blank pieces are dropped, others keep their text (stripped)."""
    out = []
    for line in text.splitlines():
        at = 0
        for m in _END.finditer(line):
            out.append(line[at:m.end()].strip())
            at = m.end()
        out.append(line[at:].strip())
    return [s for s in out if s]


def parse_texts(annotator: Any, texts: Sequence[str], corrections: bool = False
                ) -> list[list[Sentence]]:
    """The sentences of each raw text (module docstring), tokenised and tagged by the
    annotator's parser; ``corrections``: the texts are corrections, first rewritten as the
    language rewrites one (e.g. Chinese in simplified characters)."""
    language, parser = annotator.language, annotator.parser
    if corrections:
        texts = [language.correction_text(t) for t in texts]
    found: list[list[Sentence] | None]
    if hasattr(parser, "parse_texts"):
        found = list(parser.parse_texts(texts))
    elif hasattr(parser, "parse_text"):
        found = [parser.parse_text(t) for t in texts]
    else:
        found = [None] * len(texts)
    todo = [k for k, f in enumerate(found) if f is None]
    if todo:
        pieces = [split_sentences(texts[k]) for k in todo]
        parsed = iter(parser.parse_many([p for ps in pieces for p in ps], True))
        for k, ps in zip(todo, pieces, strict=True):
            found[k] = [s for s in (next(parsed) for _ in ps) if len(s)]
    return [f if f is not None else [] for f in found]


def segment_essay(annotator: Any, text: str, correction: bool = False) -> list[Sentence]:
    """The sentences of one essay (:func:`parse_texts`)."""
    return parse_texts(annotator, [text], correction)[0]
