"""The Czech ERRANT error-type classifier (ERRANT_BEHAVIOUR §7.3-7.5) in its exact rule order."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence

from ...edit import Edit
from ...tokens import Sentence, Token
from ..base import prefixed_type
from .diacritics import ascii_fold, strip_quotes
from .stemmer import cz_stem
from .transposition import is_transposition_compatible

__all__ = ["CzechClassifier"]

RARE_POS = frozenset({"SYM", "X"})
INFLECTED_POS = frozenset({"ADJ", "AUX", "PRON", "PROPN", "NOUN", "VERB", "NUM", "ADV"})
DEP_MAP = {"acomp": "ADJ", "amod": "ADJ", "advmod": "ADV", "det": "DET", "prep": "PREP",
           "prt": "PART", "punct": "PUNCT"}
_PRON_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
#: Python's string.punctuation without the two quote characters
_PUNCT_DELETE = str.maketrans("", "", "!#$%&()*+,-./:;<=>?@[\\]^_`{|}~")


class CzechClassifier:
    """Classifies edits of parsed Czech sentences; ``is_valid_word`` is the SPELL lexicon."""

    def __init__(self, is_valid_word: Callable[[str], bool]) -> None:
        self.is_valid_word = is_valid_word

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The type of ``edit`` with its M:/U:/R: prefix (or UNK)."""
        o_toks = orig[edit.o_start:edit.o_end]
        c_toks = cor[edit.c_start:edit.c_end]
        return prefixed_type(o_toks, c_toks, edit.o_str == edit.c_str, one_sided,
                             self.two_sided)

    def two_sided(self, o: Sequence[Token], c: Sequence[Token]) -> str:
        """The type of a replacement (both sides non-empty), without prefix."""
        o_texts = [t.text for t in o]
        c_texts = [t.text for t in c]
        o_join, c_join = " ".join(o_texts), " ".join(c_texts)
        if o_join.translate(_PUNCT_DELETE) == c_join.translate(_PUNCT_DELETE):
            return "PUNCT"
        if ascii_fold(o_join) == ascii_fold(c_join):
            return "DIACR"
        o_cat, c_cat = "".join(o_texts), "".join(c_texts)
        if o_cat.lower() == c_cat.lower():
            if o_cat == c_cat:
                return "ORTH:WSPACE"
            if o_join.lower() == c_join.lower():
                return "ORTH:CASING"
            return "ORTH"
        if strip_quotes(o_join) == strip_quotes(c_join):
            return "QUOTATION"
        if sorted(t.lower for t in o) == sorted(t.lower for t in c):
            return "WO"
        if is_transposition_compatible(o_texts, c_texts):
            return "WO:SPELL"
        if len(o) == 1 and len(c) == 1:
            one = self._one_to_one(o[0], c[0])
            if one is not None:
                return one
        return _multi(o, c)

    def _one_to_one(self, o: Token, c: Token) -> str | None:
        po, pc = o.pos, c.pos
        if o.text.isalpha() and not self.is_valid_word(o.text):
            if difflib.SequenceMatcher(None, o.text, c.text).ratio() > 0.5:
                return "SPELL"
            if po == pc and po not in RARE_POS:
                return po
            return "OTHER"
        if po == "VERB" and pc == "VERB":
            return "VERB"
        if o.lemma == c.lemma:
            if po == pc and po in INFLECTED_POS:
                return po + ":INFL"
            return "MORPH"
        if (cz_stem(o.text) == cz_stem(c.text)
                and po in INFLECTED_POS and pc in INFLECTED_POS):
            return "MORPH"
        if po == pc and po not in RARE_POS:
            return po
        if o.dep == c.dep and o.dep in DEP_MAP:
            return DEP_MAP[o.dep]
        if {po, pc} == {"DET", "PRON"}:
            if c.dep in _PRON_DEPS:
                return "PRON"
            if c.dep == "poss":
                return "DET"
            return None
        return "OTHER"


def _shared_tag(pos: set[str], deps: set[str]) -> str | None:
    """The one UPOS all tokens share (unless rare), else the one mapped dependency, else None."""
    if len(pos) == 1:
        (p,) = pos
        if p not in RARE_POS:
            return p
    if len(deps) == 1:
        (d,) = deps
        if d in DEP_MAP:
            return DEP_MAP[d]
    return None


def one_sided(toks: Sequence[Token]) -> str:
    """Type of an insertion or deletion, without prefix."""
    pos = {t.pos for t in toks}
    found = _shared_tag(pos, {t.dep for t in toks})
    if found:
        return found
    return "VERB" if pos == {"AUX", "VERB"} else "OTHER"


def _multi(o: Sequence[Token], c: Sequence[Token]) -> str:
    pos = {t.pos for t in o} | {t.pos for t in c}
    found = _shared_tag(pos, {t.dep for t in o} | {t.dep for t in c})
    if found:
        return found
    if pos == {"AUX", "VERB"}:
        return "VERB:INFL" if o[-1].lemma == c[-1].lemma else "VERB"
    return "OTHER"
