"""The language-independent UD error-type classifier.

Types (after ERRANT's M:/U:/R: prefix, see :func:`~errtype.lang.base.prefixed_type`): the UD POS
classes, ``POS:INFL`` (same lemma or stem, same UPOS: an inflection error), ``MORPH`` (same lemma
or stem, different UPOS: derivation), ``SPELL`` (a word the lexicon rejects, close to its
correction), ``PUNCT``, ``ORTH:CASING``, ``ORTH:WSPACE``, ``ORTH``, ``DIACR`` (only combining
marks differ, any script), ``QUOTATION``, ``WO``, ``WO:SPELL`` and ``OTHER``. With ``feats`` the
UD features that differ between the two forms of an inflection error are appended, sorted and
joined by ``+`` (``R:NOUN:INFL:Case+Number``).

Every decision is a method or a switch, so a language refines only what it needs (the Czech
ERRANT's rule order is :class:`~errtype.lang.cs.classifier.CzechClassifier`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rapidfuzz.distance import Indel, Levenshtein

from ...edit import Edit
from ...tokens import Sentence, Token
from ..base import prefixed_type
from .text import (
    fold_marks,
    is_punct_char,
    quote_key,
    similar_words,
    transposition_compatible,
)

__all__ = ["INFLECTED_POS", "UDClassifier", "feature_diff"]

RARE_POS = frozenset({"SYM", "X"})
#: UPOS that inflect in UD languages (DET too: articles and determiners agree in case/gender)
INFLECTED_POS = frozenset({"ADJ", "AUX", "DET", "PRON", "PROPN", "NOUN", "VERB", "NUM", "ADV"})
DEP_MAP = {"acomp": "ADJ", "amod": "ADJ", "advmod": "ADV", "det": "DET", "prep": "PREP",
           "prt": "PART", "punct": "PUNCT"}
_PRON_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
#: which token of a multi-token inflection edit names it (nominal heads before their modifiers)
_HEAD_ORDER = ("NOUN", "PROPN", "PRON", "VERB", "AUX", "ADJ", "DET", "NUM", "ADV")
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "DET", "PRON", "NUM"})
_CONJ = frozenset({"CCONJ", "SCONJ"})
_CONNECTIVE = frozenset({"CCONJ", "SCONJ", "PRON", "DET", "ADV"})
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")


def _features(feats: str) -> dict[str, str]:
    out = {}
    for item in feats.split("|"):
        name, sep, value = item.partition("=")
        if sep:
            out[name] = value
    return out


#: word classes whose members are few and short: a one-character change between two of them is
#: a word choice (на -> за), not a misspelling
_CLOSED = frozenset({"ADP", "AUX", "CCONJ", "DET", "NUM", "PART", "PRON", "PUNCT", "SCONJ",
                     "SYM"})


def _near_miss(o: Token, c: Token) -> bool:
    """Unrelated content words (no shared lemma or stem) whose forms differ by one character
    edit (two for words of 8+ characters)."""
    if o.pos in _CLOSED or c.pos in _CLOSED or min(len(o.text), len(c.text)) < 3:
        return False
    limit = 2 if max(len(o.text), len(c.text)) >= 8 else 1
    return Levenshtein.distance(o.lower, c.lower, score_cutoff=limit) <= limit


def _same_analysis(o: Token, c: Token) -> bool:
    """Same lemma, UPOS and (non-empty) features: two spellings of one inflected form."""
    return (o.lemma == c.lemma and o.pos == c.pos and o.feats == c.feats and o.feats != ""
            and o.lower != c.lower)


def _same_word(a: Token, b: Token) -> bool:
    return a.lower == b.lower or (a.lemma == b.lemma and a.lemma != "")


def _similar_tokens(a: Token, b: Token) -> bool:
    return _same_word(a, b) or similar_words(a.text, b.text)


def _verbal(t: Token) -> bool:
    return t.pos in ("VERB", "AUX") or "VerbForm=" in t.feats


def _safe(name: str) -> str:
    """A feature name with M2/type-unsafe characters replaced: ``Number[psor]`` -> Number-psor."""
    return _UNSAFE.sub("-", name).strip("-")


def feature_diff(pairs: Sequence[tuple[Token, Token]]) -> list[str]:
    """Sorted names of the UD features whose values differ within any (orig, cor) token pair."""
    names: set[str] = set()
    for o, c in pairs:
        fo, fc = _features(o.feats), _features(c.feats)
        names.update(k for k in fo.keys() | fc.keys() if fo.get(k) != fc.get(k))
    return sorted(_safe(n) for n in names if _safe(n))


def _trim(o: Sequence[Token], c: Sequence[Token]) -> tuple[Sequence[Token], Sequence[Token]]:
    """Drop tokens identical on both sides at the start and the end of a span."""
    i = 0
    while i < len(o) and i < len(c) and o[i].text == c[i].text:
        i += 1
    j = 0
    while j < len(o) - i and j < len(c) - i and o[-1 - j].text == c[-1 - j].text:
        j += 1
    return o[i:len(o) - j], c[i:len(c) - j]


class UDClassifier:
    """Types edits of UD-annotated sentences.

    ``is_valid_word``: the SPELL lexicon (None: no SPELL decisions from a lexicon);
    ``same_stem(a, b)``: the MORPH stem test; ``feats``: name differing UD features in ``:INFL``;
    ``variants(a, b)``: the two words are orthographic alternants of one word (SPELL).
    """

    rare_pos = RARE_POS
    inflected_pos = INFLECTED_POS
    dep_map = DEP_MAP
    #: drop identical leading/trailing tokens before typing (unminimised gold spans)
    trim = True
    #: a 1:1 VERB -> VERB edit is typed VERB before the lemma test (the Czech ERRANT quirk)
    verb_before_lemma = False
    #: same stem and same UPOS is an inflection error (False: MORPH, as the Czech ERRANT)
    stem_inflection = True
    #: equal-length multi-token edits whose only lexical change is in one POS get that POS;
    #: pure inflection changes are POS:INFL of their head
    pairwise = True
    #: same lemma under two UPOS of one paradigm (ADJ/NOUN, AUX/VERB, participle/verb) is
    #: inflection, not derivation
    paradigm_groups = True
    #: conjunction vs relative word: a conjunction error
    connectives = True
    #: two unrelated content words one character apart: a (real-word) spelling error
    real_word_spelling = True
    #: two forms with one lemma, UPOS and feature set: the form, not the grammar, is wrong
    same_analysis_spelling = True

    def __init__(self, is_valid_word: Callable[[str], bool] | None = None,
                 same_stem: Callable[[str, str], bool] | None = None,
                 feats: bool = False,
                 variants: Callable[[str, str], bool] | None = None) -> None:
        self.is_valid_word = is_valid_word
        self.variants = variants
        self.same_stem = same_stem
        self.feats = feats
        #: notes on the resources this classifier runs without (set by its language)
        self.resources_missing: list[str] = []

    # ------------------------------------------------------------------ top level
    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The type of ``edit`` with its M:/U:/R: prefix (or UNK)."""
        o = orig[edit.o_start:edit.o_end]
        c = cor[edit.c_start:edit.c_end]
        if self.trim and edit.o_str != edit.c_str:
            o, c = _trim(o, c)
        return prefixed_type(o, c, edit.o_str == edit.c_str, self.one_sided, self.two_sided)

    def one_sided(self, toks: Sequence[Token]) -> str:
        """Type of an insertion or deletion, without prefix."""
        pos = {t.pos for t in toks}
        found = self._shared_tag(pos, {t.dep for t in toks})
        if found:
            return found
        return "VERB" if pos == {"AUX", "VERB"} else "OTHER"

    def two_sided(self, o: Sequence[Token], c: Sequence[Token]) -> str:
        """The type of a replacement (both sides non-empty), without prefix."""
        o_texts = [t.text for t in o]
        c_texts = [t.text for t in c]
        o_join, c_join = " ".join(o_texts), " ".join(c_texts)
        if self.is_punct_change(o_join, c_join):
            return "PUNCT"
        if self.is_diacritic_change(o_join, c_join):
            return "DIACR"
        orth = self.orth_type(o_texts, c_texts)
        if orth:
            return orth
        if self.is_quotation_change(o_join, c_join):
            return "QUOTATION"
        if sorted(t.lower for t in o) == sorted(t.lower for t in c):
            return "WO"
        moved = self.transposition_type(o, c)
        if moved:
            return moved
        if len(o) == 1 and len(c) == 1:
            one = self.one_to_one(o[0], c[0])
            if one is not None:
                return one
        return self.multi(o, c)

    # --------------------------------------------------------------- string tests
    def is_punct_change(self, o_join: str, c_join: str) -> bool:
        """Only punctuation differs (word-internal apostrophes and hyphens are spelling), or
        punctuation and the capitalisation that follows a changed sentence boundary."""
        o_p, c_p = _punct_part(o_join), _punct_part(c_join)
        if o_p == c_p:
            return False
        o_w, c_w = _words(o_join), _words(c_join)
        return o_w == c_w or o_w.lower() == c_w.lower()

    def is_diacritic_change(self, o_join: str, c_join: str) -> bool:
        return fold_marks(o_join) == fold_marks(c_join)

    def orth_type(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> str | None:
        """ORTH:WSPACE (only spacing), ORTH:CASING (only case), ORTH (both, or hyphenation)."""
        o_cat, c_cat = "".join(o_texts), "".join(c_texts)
        if o_cat.lower() == c_cat.lower():
            if o_cat == c_cat:
                return "ORTH:WSPACE"
            if " ".join(o_texts).lower() == " ".join(c_texts).lower():
                return "ORTH:CASING"
            return "ORTH"
        if o_cat.replace("-", "").lower() == c_cat.replace("-", "").lower():
            return "ORTH"
        return None

    def is_quotation_change(self, o_join: str, c_join: str) -> bool:
        return quote_key(o_join) == quote_key(c_join)

    def transposition_type(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """WO when the tokens are reordered and only re-inflected (each moved pair shares its
        lemma), WO:SPELL when some pairs are only similar in spelling, else None."""
        if len(o) != len(c) or len(o) < 2:
            return None
        if transposition_compatible(o, c, _same_word):
            return "WO"
        if transposition_compatible(o, c, _similar_tokens):
            return "WO:SPELL"
        return None

    # ------------------------------------------------------------------- 1:1 edits
    def spelling(self, o: Token, c: Token) -> str | None:
        """SPELL for orthographic alternants of one word, or when the lexicon rejects the
        original word and it is close to the correction; None to go on with the other rules."""
        if self.variants is not None and self.variants(o.text, c.text):
            return "SPELL"
        if (self.is_valid_word is None or not o.text.isalpha()
                or 1 - Indel.normalized_distance(o.lower, c.lower) <= 0.5):
            return None
        return None if self.is_valid_word(o.text) else "SPELL"  # lookups last: the slow part

    def one_to_one(self, o: Token, c: Token) -> str | None:
        """The type of a one-token replacement (None: fall through to the multi-token rules)."""
        spell = self.spelling(o, c)
        if spell is not None:
            return spell
        po, pc = o.pos, c.pos
        if self.verb_before_lemma and po == "VERB" and pc == "VERB":
            return "VERB"
        if self.same_analysis_spelling and _same_analysis(o, c):
            return "SPELL"
        if o.lemma == c.lemma:
            pos = po if po == pc and po in self.inflected_pos else self.paradigm_pos(o, c)
            if pos:
                return pos + ":INFL" + self.feature_suffix([(o, c)])
            return "MORPH"
        if (self.same_stem is not None and self.same_stem(o.text, c.text)
                and po in self.inflected_pos and pc in self.inflected_pos):
            if self.stem_inflection:
                pos = po if po == pc else self.paradigm_pos(o, c)
                if pos:
                    return pos + ":INFL" + self.feature_suffix([(o, c)])
            return "MORPH"
        if self.real_word_spelling and _near_miss(o, c):
            return "SPELL"
        if po == pc and po not in self.rare_pos:
            return po
        if self.connective_pos(o, c):
            return self.connective_pos(o, c)
        if o.dep == c.dep and o.dep in self.dep_map:
            return self.dep_map[o.dep]
        if {po, pc} == {"DET", "PRON"}:
            if c.dep in _PRON_DEPS:
                return "PRON"
            if c.dep == "poss":
                return "DET"
            return None
        return "OTHER"

    def paradigm_pos(self, o: Token, c: Token) -> str | None:
        """For one lemma under two UPOS: the POS of the correction when both tags belong to one
        paradigm (nominal: NOUN PROPN ADJ DET PRON NUM; verbal: VERB AUX or any form with a
        VerbForm feature, i.e. participles, converbs); None otherwise (derivation: MORPH)."""
        if not self.paradigm_groups:
            return None
        verbal = _verbal(o) and _verbal(c)
        if verbal:
            return c.pos if c.pos in ("VERB", "AUX") else "VERB"
        if o.pos in _NOMINAL and c.pos in _NOMINAL:
            return c.pos
        return None

    def connective_pos(self, o: Token, c: Token) -> str | None:
        """A conjunction replacing, or replaced by, another clause-linking word (relative
        pronoun/determiner/adverb, other conjunction): that conjunction's POS."""
        if not self.connectives:
            return None
        for a, b in ((c, o), (o, c)):
            if a.pos in _CONJ and b.pos in _CONNECTIVE:
                return a.pos
        return None

    def feature_suffix(self, pairs: Sequence[tuple[Token, Token]]) -> str:
        """``:F1+F2`` naming the differing UD features when ``feats`` is on, else ''."""
        if not self.feats:
            return ""
        names = feature_diff(pairs)
        return ":" + "+".join(names) if names else ""

    # -------------------------------------------------------------- longer edits
    def _shared_tag(self, pos: set[str], deps: set[str]) -> str | None:
        """The one UPOS all tokens share (unless rare), else the one mapped dependency."""
        if len(pos) == 1:
            (p,) = pos
            if p not in self.rare_pos:
                return p
        if len(deps) == 1:
            (d,) = deps
            if d in self.dep_map:
                return self.dep_map[d]
        return None

    def _inflected(self, o: Token, c: Token) -> bool:
        if o.pos != c.pos or o.pos not in self.inflected_pos:
            return False
        if o.lemma == c.lemma:
            return True
        return (self.stem_inflection and self.same_stem is not None
                and self.same_stem(o.text, c.text))

    def pairwise_type(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """Equal-length edits read pair by pair: only inflection changes -> POS:INFL of the head;
        one lexical change (other pairs inflected to agree) -> the POS of that change."""
        if len(o) != len(c):
            return None
        inflected, lexical = [], []
        for a, b in zip(o, c, strict=True):
            if a.text == b.text:
                continue
            (inflected if self._inflected(a, b) else lexical).append((a, b))
        if not inflected and not lexical:
            return None
        if not lexical:
            pos = {a.pos for a, _ in inflected}
            head = next(p for p in _HEAD_ORDER if p in pos)
            return head + ":INFL" + self.feature_suffix(inflected)
        if inflected and len(lexical) == 1:
            a, b = lexical[0]
            if a.pos == b.pos and a.pos not in self.rare_pos:
                return a.pos
        return None

    def multi(self, o: Sequence[Token], c: Sequence[Token]) -> str:
        """Type of a multi-token replacement."""
        if self.pairwise:
            found = self.pairwise_type(o, c)
            if found:
                return found
        pos = {t.pos for t in o} | {t.pos for t in c}
        found = self._shared_tag(pos, {t.dep for t in o} | {t.dep for t in c})
        if found:
            return found
        if pos == {"AUX", "VERB"}:
            if o[-1].lemma == c[-1].lemma:
                return "VERB:INFL" + self.feature_suffix([(o[-1], c[-1])])
            return "VERB"
        return "OTHER"


_INTERNAL = re.compile(r"(?<=\w)['\u2019\u02bc\-\u2010\u2011](?=\w)")
#: word-internal apostrophes and hyphens -> private-use stand-ins (neither punctuation nor space)
_PROTECT = str.maketrans("'\u2019\u02bc-\u2010\u2011", "\ue000\ue001\ue002\ue003\ue004\ue005")


def _protect(text: str) -> str:
    """``text`` with word-internal apostrophes and hyphens protected (they are spelling)."""
    return _INTERNAL.sub(lambda m: m.group(0).translate(_PROTECT), text)


def _punct_part(text: str) -> str:
    return "".join(ch for ch in _protect(text) if is_punct_char(ch))


def _words(text: str) -> str:
    """``text`` without punctuation and whitespace (word-internal marks kept)."""
    return "".join(ch for ch in _protect(text) if not ch.isspace() and not is_punct_char(ch))
