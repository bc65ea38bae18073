"""The Czech ERRANT error-type classifier (ERRANT_BEHAVIOUR §7.3-7.5) in its exact rule order.

A specialisation of the generic :class:`~errtype.lang.ud.classifier.UDClassifier`: the Czech
string tests (ASCII punctuation with spacing significant, ``ascii_fold`` for DIACR, the Czech
quotation characters, the weighted transposition test) and the Czech ERRANT's 1:1 rule order
(SPELL decides alone, VERB before the lemma test, the same stem is always MORPH, DET does not
inflect, spans are typed unminimised, no pair-by-pair reading of multi-token edits, no context
rules).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence

from ...tokens import Sentence, Token
from ..ud.classifier import UDClassifier
from .diacritics import ascii_fold, strip_quotes
from .stemmer import cz_stem
from .transposition import is_transposition_compatible

__all__ = ["CzechClassifier"]

INFLECTED_POS = frozenset({"ADJ", "AUX", "PRON", "PROPN", "NOUN", "VERB", "NUM", "ADV"})
#: Python's string.punctuation without the two quote characters
_PUNCT_DELETE = str.maketrans("", "", "!#$%&()*+,-./:;<=>?@[\\]^_`{|}~")


def _same_cz_stem(a: str, b: str) -> bool:
    return cz_stem(a) == cz_stem(b)


class CzechClassifier(UDClassifier):
    """Classifies edits of parsed Czech sentences; ``is_valid_word`` is the SPELL lexicon."""

    inflected_pos = INFLECTED_POS
    trim = False

    def __init__(self, is_valid_word: Callable[[str], bool], feats: bool = False) -> None:
        super().__init__(is_valid_word, _same_cz_stem, feats)

    def in_context(self, found: str, orig: Sentence, cor: Sentence,
                   span: tuple[int, int, int, int]) -> str:
        return found

    def is_hyphenation(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> bool:
        return False

    def is_punct_change(self, o_join: str, c_join: str) -> bool:
        return o_join.translate(_PUNCT_DELETE) == c_join.translate(_PUNCT_DELETE)

    def is_diacritic_change(self, o_join: str, c_join: str) -> bool:
        return ascii_fold(o_join) == ascii_fold(c_join)

    def is_quotation_change(self, o_join: str, c_join: str) -> bool:
        return strip_quotes(o_join) == strip_quotes(c_join)

    def is_apostrophe_change(self, o_join: str, c_join: str) -> bool:
        return False

    def is_number_form(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        return False

    def clause_link(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        return None

    def is_elision(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> bool:
        return False

    def contraction(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        return None

    def is_reordering(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        return sorted(t.lower for t in o) == sorted(t.lower for t in c)

    def orth_type(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> str | None:
        o_cat, c_cat = "".join(o_texts), "".join(c_texts)
        if o_cat.lower() != c_cat.lower():
            return None
        if o_cat == c_cat:
            return "ORTH:WSPACE"
        if " ".join(o_texts).lower() == " ".join(c_texts).lower():
            return "ORTH:CASING"
        return "ORTH"

    def transposition_type(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """WO:SPELL by the Czech weighted transposition test."""
        if is_transposition_compatible([t.text for t in o], [t.text for t in c]):
            return "WO:SPELL"
        return None

    def spelling(self, o: Token, c: Token) -> str | None:
        """A word unknown to the lexicon decides the type alone: SPELL when close to the
        correction (difflib ratio > 0.5), else the shared UPOS, else OTHER."""
        if not o.text.isalpha() or self.is_valid_word(o.text):
            return None
        if difflib.SequenceMatcher(None, o.text, c.text).ratio() > 0.5:
            return "SPELL"
        if o.pos == c.pos and o.pos not in self.rare_pos:
            return o.pos
        return "OTHER"

    def one_to_one(self, o: Token, c: Token) -> str | None:
        """The Czech ERRANT's order: SPELL; VERB for two verbs; one lemma: POS:INFL (same UPOS)
        or MORPH; one stem: MORPH; then :meth:`word_class` (shared UPOS, mapped dependency,
        DET/PRON, OTHER)."""
        spell = self.spelling(o, c)
        if spell is not None:
            return spell
        po, pc = o.pos, c.pos
        if po == "VERB" and pc == "VERB":
            return "VERB"
        if o.lemma == c.lemma:
            if po == pc and po in self.inflected_pos:
                return po + ":INFL" + self.feature_suffix([(o, c)])
            return "MORPH"
        if (self.same_stem(o.text, c.text)
                and po in self.inflected_pos and pc in self.inflected_pos):
            return "MORPH"
        return self.word_class(o, c)

    def multi(self, o: Sequence[Token], c: Sequence[Token]) -> str:
        """The shared UPOS or mapped dependency; VERB(:INFL) for AUX+VERB; else OTHER."""
        pos = {t.pos for t in o} | {t.pos for t in c}
        found = self._shared_tag(pos, {t.dep for t in o} | {t.dep for t in c})
        if found:
            return found
        if pos == {"AUX", "VERB"}:
            if o[-1].lemma == c[-1].lemma:
                return "VERB:INFL" + self.feature_suffix([(o[-1], c[-1])])
            return "VERB"
        return "OTHER"
