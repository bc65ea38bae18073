"""Bring the spaCy Czech pipeline's annotation closer to the Czech ERRANT's UDPipe (UD 2.5 PDT).

``cs_core_news_sm`` is trained on UD Czech-PDTC, whose later UD releases re-tag many emphasising
adverbs ("také", "už", "ještě", "opravdu", … with deprel ``advmod:emph``) as PART; the UD 2.5
PDT model used by the Czech ERRANT tags them ADV. Only a few words stay particles there. The word
lists were checked against the types the Czech ERRANT gave GECCC dev edits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from ...tokens import Sentence, Token

__all__ = ["UD25Compat", "to_ud25"]

#: words that UD 2.5 Czech-PDT also tags PART
UD25_PARTICLES = frozenset({"jen", "jenom", "nejen", "až", "ba", "ne", "ano", "ať", "kéž", "nechť",
                            "copak", "jestlipak", "zdalipak", "li"})
#: words that UD 2.5 Czech-PDT tags as coordinating conjunctions even in the "even" sense
UD25_CCONJ = frozenset({"i", "ani"})


#: colloquial forms the UD 2.5 model lemmatises under the standard lemma (PDT convention), and
#: the learner spelling "ja" of "já", which it tags as a pronoun
UD25_LEMMAS = {"taky": "také"}
UD25_WORDS = {"ja": ("PRON", "já")}


def _token(tok: Token) -> Token:
    low = tok.lower
    if low in UD25_WORDS:
        pos, lemma = UD25_WORDS[low]
        return replace(tok, pos=pos, lemma=lemma)
    if low in UD25_LEMMAS:
        tok = replace(tok, lemma=UD25_LEMMAS[low])
    if tok.pos != "PART":
        return tok
    if low in UD25_PARTICLES:
        return tok
    return replace(tok, pos="CCONJ" if low in UD25_CCONJ else "ADV")


_CHANGED = frozenset(UD25_LEMMAS) | frozenset(UD25_WORDS)


def to_ud25(sentence: Sentence) -> Sentence:
    """The sentence with PDTC-style PART tags mapped to their UD 2.5 PDT counterparts."""
    if not any(t.pos == "PART" or t.lower in _CHANGED for t in sentence):
        return sentence
    return Sentence([_token(t) for t in sentence])


class UD25Compat:
    """A parser wrapper applying :func:`to_ud25` to every parsed sentence."""

    def __init__(self, parser: Any) -> None:
        self.parser = parser

    def __repr__(self) -> str:
        return f"UD25Compat({self.parser!r})"

    @property
    def name(self) -> str:
        return getattr(self.parser, "name", type(self.parser).__name__) + "+ud25"

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        return to_ud25(self.parser.parse(text, tokenize))

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        for s in self.parser.parse_many(texts, tokenize):
            yield to_ud25(s)

    def parse_texts(self, texts: Sequence[str], tag: bool = True
                    ) -> Iterator[list[Sentence] | None]:
        """The wrapped parser's sentences of each raw text (``parse_texts`` or ``parse_text``;
        None where it has neither, or cannot split), those it tagged mapped by
        :func:`to_ud25` (untagged ones are mapped when :meth:`parse_many` tags them)."""
        many = getattr(self.parser, "parse_texts", None)
        one = getattr(self.parser, "parse_text", None)
        found: Iterable[list[Sentence] | None]
        if many is not None:
            found = many(texts, tag)
        elif one is not None:
            found = (one(t, tag) for t in texts)
        else:
            found = (None for _ in texts)
        for sents in found:
            yield None if sents is None else [
                to_ud25(s) if any(t.pos for t in s) else s for s in sents]
