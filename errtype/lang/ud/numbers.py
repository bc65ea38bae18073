"""Numbers written in digits and numbers written in words (typed ``ORTH``: a writing convention).

One rule for every language: one side of an edit is a number in digits (the decimal digits of any
script, with group or decimal separators, and an ordinal's full stop or short suffix: ``4``,
``10 000``, ``2.``, ``2nd``, ``2-й``, ``3º``), the other the same kind of number in words (each
word a numeral by the tagger, UD ``NUM`` or a ``NumType`` feature, or by the pack's ``NUM`` list,
joined by hyphens or a conjunction: ``vingt et un``). The tagger reads the two sides as different
words and classes (``4`` NUM, ``vier`` NUM with another lemma, ``second`` ADJ ``NumType=Ord``), so
without this rule the edit would be typed by those readings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import regex

from ...tokens import Token
from .morph import features, lemma_of

__all__ = ["is_digits", "number_form"]

#: digits with separators, then an ordinal marker: a full stop, an apostrophe or hyphen and up
#: to four letters, up to four letters, or a masculine/feminine ordinal indicator
_DIGITS = regex.compile(r"\d+(?:[.,\u00a0\u202f' ]\d+)*(?:\.|['\u2019-]?\p{L}{1,4}|[ºª°])?")
_CONNECTORS = frozenset({"CCONJ"})


def is_digits(text: str) -> bool:
    """``text`` is a number written in digits (with an ordinal marker)."""
    return _DIGITS.fullmatch(text) is not None


def _numeral(t: Token, listed: Callable[[str], bool]) -> bool:
    return (t.pos == "NUM" or "NumType" in features(t.feats) or listed(t.text)
            or (lemma_of(t) != "" and listed(lemma_of(t)))) and not any(ch.isdigit()
                                                                    for ch in t.text)


def _in_words(toks: Sequence[Token], listed: Callable[[str], bool]) -> bool:
    """Numerals, possibly joined by hyphens or a conjunction between two of them."""
    if not toks or not _numeral(toks[0], listed) or not _numeral(toks[-1], listed):
        return False
    return all(_numeral(t, listed) or t.pos in _CONNECTORS or t.text in ("-", "\u2010")
               for t in toks[1:-1])


def _in_digits(toks: Sequence[Token]) -> bool:
    """Digit groups, each possibly followed by a separate full stop (an ordinal)."""
    if not toks or not is_digits(toks[0].text):
        return False
    return all(is_digits(t.text) or (t.text == "." and is_digits(p.text))
               for p, t in zip(toks, toks[1:], strict=False))


def number_form(o: Sequence[Token], c: Sequence[Token], listed: Callable[[str], bool]) -> bool:
    """One side is a number in digits, the other a number in words (``listed(word)``: the
    pack's number words)."""
    return ((_in_digits(o) and _in_words(c, listed))
            or (_in_digits(c) and _in_words(o, listed)))
