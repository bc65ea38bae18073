"""Sentence segmentation of essays: raw text -> tokenised, tagged Sentences, one per sentence.

Each parser splits as it can: UDPipe with its model's tokenizer
(:meth:`errtype.parse.udpipe.UDPipeParser.parse_text`), spaCy where its pipeline sets sentence
boundaries (a parser, senter or sentencizer: ``doc.sents``) and where the rule below does
(:meth:`errtype.parse.spacy.SpacyParser.parse_texts`). Any other parser (the segmenters of
languages written without spaces, MeCab, a spaCy pipeline without boundaries) tokenises each
line, which is then cut by errtype's one rule on tokens,
:func:`errtype.document.sentence_starts` (after ``. ! ? …`` and ``。！？`` unless a lower-case
word follows). A line break always ends a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..document import sentence_starts
from ..tokens import Sentence, Token, split_sentence

__all__ = ["parse_texts", "segment_essay", "tag_sentences", "tagged"]


def parse_texts(annotator: Any, texts: Sequence[str], corrections: bool = False,
                tag: bool = True) -> list[list[Sentence]]:
    """The sentences of each raw text (module docstring), tokenised and tagged by the
    annotator's parser; ``corrections``: the texts are corrections, first rewritten as the
    language rewrites one (e.g. Chinese in simplified characters). ``tag=False``: tokens only
    where the parser can segment without tagging (UDPipe; :func:`tag_sentences` tags them
    later); spaCy tags anyway."""
    language, parser = annotator.language, annotator.parser
    if corrections:
        texts = [language.correction_text(t) for t in texts]
    found: list[list[Sentence] | None]
    if hasattr(parser, "parse_texts"):
        found = list(parser.parse_texts(texts, tag))
    elif hasattr(parser, "parse_text"):
        found = [parser.parse_text(t, tag) for t in texts]
    else:
        found = [None] * len(texts)
    todo = [k for k, f in enumerate(found) if f is None]
    if todo:
        lines = [[line.strip() for line in texts[k].splitlines() if line.strip()]
                 for k in todo]
        flat = [line for ls in lines for line in ls]
        segment = None if tag else getattr(parser, "segment", None)
        parsed = iter([segment(line, True) for line in flat] if segment is not None
                      else parser.parse_many(flat, True))
        for k, ls in zip(todo, lines, strict=True):
            out: list[Sentence] = []
            for _ in ls:
                whole = next(parsed)
                out.extend(split_sentence(whole, sentence_starts(whole.texts)))
            found[k] = out
    return [f if f is not None else [] for f in found]


def tagged(sentence: Sentence) -> bool:
    """Whether a parser tagged ``sentence`` (some token has a part of speech)."""
    return any(t.pos for t in sentence.tokens)


def tag_sentences(annotator: Any, sentences: Sequence[Sentence]) -> list[Sentence]:
    """``sentences`` with those not yet tagged (:func:`tagged`) tagged and parsed by the
    annotator's parser from their tokens, in one batch; each token keeps the whitespace that
    followed it. A sentence whose tokens the parser would not keep (a token with a space
    inside) stays untagged."""
    out = list(sentences)
    todo = [k for k, s in enumerate(out) if len(s) and not tagged(s)]
    parsed = annotator.parser.parse_many([" ".join(out[k].texts) for k in todo], False)
    for k, p in zip(todo, parsed, strict=True):
        s = out[k]
        if p.texts != s.texts:
            continue
        out[k] = Sentence([t if t.ws == w.ws else Token(t.text, t.lemma, t.pos, t.tag, t.dep,
                                                        t.head, t.feats, w.ws, t.lower)
                           for t, w in zip(p.tokens, s.tokens, strict=True)])
    return out


def segment_essay(annotator: Any, text: str, correction: bool = False) -> list[Sentence]:
    """The sentences of one essay, tagged (:func:`parse_texts`)."""
    return parse_texts(annotator, [text], correction)[0]
