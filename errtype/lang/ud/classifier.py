"""The language-independent UD error-type classifier.

Types (after ERRANT's M:/U:/R: prefix, see :func:`~errtype.lang.base.prefixed_type`): the UD POS
classes, ``POS:INFL`` (one lexeme in another form: inflection, aspect partners, suppletive
comparison), ``MORPH`` (derivation: a shared stem across word classes), ``SPELL``, ``PUNCT``,
``ORTH:CASING``, ``ORTH:WSPACE``, ``ORTH`` (both, or hyphenation), ``DIACR`` (only combining marks
differ, any script), ``QUOTATION``, ``WO`` and ``OTHER``; ``ORTH`` also covers writing
conventions of the same words: a number in digits or words, elision, contraction. With
``feats`` the inflectional UD features that differ between the two forms of an inflection error
are appended, sorted and joined by ``+`` (``R:NOUN:INFL:Case+Number``).
``docs/languages.md`` states every rule with an example.

Every decision is a method, so a language refines only what it needs (the Czech ERRANT's rule
order is :class:`~errtype.lang.cs.classifier.CzechClassifier`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rapidfuzz.distance import Indel, Levenshtein

from ...edit import Edit
from ...tokens import Sentence, Token
from ..base import prefixed_type
from .morph import (
    doubling,
    ending_change,
    feature_diff,
    features,
    inflection_diff,
    lemma_of,
    prefixed,
    unlemmatised,
    verbal,
)
from .numbers import number_form
from .relations import INFLECTED_POS, LexemeRelations
from .resources import prefix_same_stem
from .text import (
    HYPHENS,
    elided,
    fold_marks,
    hyphen_inversion,
    is_punct_char,
    lower,
    punct_and_words,
    quote_key,
    reordered,
    similar_words,
    transposition_compatible,
    unapostrophe,
    unhyphen,
)
from .wordlists import CLOSED_CLASSES, WordLists

__all__ = ["INFLECTED_POS", "PRON_DEPS", "UDClassifier", "feature_diff"]

RARE_POS = frozenset({"SYM", "X"})
DEP_MAP = {"acomp": "ADJ", "amod": "ADJ", "advmod": "ADV", "det": "DET", "prep": "PREP",
           "prt": "PART", "punct": "PUNCT"}
PRON_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
#: which token of a multi-token inflection edit names it (nominal heads before their modifiers)
_HEAD_ORDER = ("NOUN", "PROPN", "PRON", "VERB", "AUX", "ADJ", "DET", "NUM", "ADV")
_CONJ = frozenset({"CCONJ", "SCONJ"})
_CONNECTIVE = frozenset({"CCONJ", "SCONJ", "PRON", "DET", "ADV"})
#: closed classes in the order a word listed under several is named by
_CLASS_ORDER = ("SCONJ", "CCONJ", "ADP", "PART", "PRON", "DET", "AUX", "NUM")
#: words between a preposition and the nominal it governs (its modifiers)
_MODIFIERS = frozenset({"ADJ", "DET", "NUM", "ADV"})
#: word classes whose members are few and short: a one-character change between two of them is
#: a word choice (на -> за), not a misspelling
_CLOSED = frozenset({"ADP", "AUX", "CCONJ", "DET", "NUM", "PART", "PRON", "PUNCT", "SCONJ",
                     "SYM"})
#: the endings of a verb or adjective in a ``bound_aux`` language: auxiliaries and conjunctive
#: particles (``て``, ``ながら``)
_ENDINGS = frozenset({"AUX", "SCONJ"})
#: types of a changed sentence or clause boundary (the capital of the next word belongs to them)
_BOUNDARY = frozenset({"PUNCT", "CCONJ", "SCONJ"})
#: features of a verb reading (finiteness, tense, voice, mood, person, aspect)
_VERB_FEATURES = frozenset({"VerbForm", "Tense", "Voice", "Mood", "Person", "Aspect", "Polarity"})
#: vowels a lemma's stem leaves off (the citation ending of many languages)
_VOWELS = "aeiouyäöüåæøéèàòùìíóúáýαεηιουωάέήίόύώаеиоуыэюяіїєё"
_NOM_INFL = re.compile(r"(NOUN|PROPN|ADJ|DET|PRON|NUM):INFL(:.*)?")


def _same_word(a: Token, b: Token) -> bool:
    return a.lower == b.lower or (lemma_of(a) != "" and lemma_of(a) == lemma_of(b))


def _similar_tokens(a: Token, b: Token) -> bool:
    return _same_word(a, b) or similar_words(a.text, b.text)


def _trim(o: Sequence[Token], c: Sequence[Token]) -> tuple[int, int]:
    """How many tokens identical on both sides lead and end the span."""
    i = 0
    while i < len(o) and i < len(c) and o[i].text == c[i].text:
        i += 1
    j = 0
    while j < len(o) - i and j < len(c) - i and o[-1 - j].text == c[-1 - j].text:
        j += 1
    return i, j


class UDClassifier(LexemeRelations):
    """Types edits of UD-annotated sentences.

    ``is_valid_word``: the SPELL lexicon (None: no SPELL decisions from a lexicon);
    ``same_stem(a, b)``: the stem test of inflection and derivation; ``feats``: name differing UD
    features in ``:INFL``; ``variants(a, b)``: the two words are orthographic alternants of one
    word (SPELL); ``stems(word)``: the lexicon's lemmas of a word (a second lemmatiser that checks
    the tagger's); ``words``: the pack's closed-class and suppletion lists.
    """

    rare_pos = RARE_POS
    inflected_pos = INFLECTED_POS
    dep_map = DEP_MAP
    #: drop identical leading/trailing tokens before typing (unminimised gold spans)
    trim = True
    #: auxiliaries are the inflectional endings of the verb or adjective before them (pack
    #: ``bound_aux``: Japanese)
    bound_aux = False
    #: words are written with spaces between them (False: Japanese; the segmenter may cut a
    #: misspelled word into pieces)
    spaced = True

    def __init__(self, is_valid_word: Callable[[str], bool] | None = None,
                 same_stem: Callable[[str, str], bool] | None = None,
                 feats: bool = False,
                 variants: Callable[[str, str], bool] | None = None,
                 stems: Callable[[str], frozenset[str]] | None = None,
                 words: WordLists | None = None) -> None:
        self.is_valid_word = is_valid_word
        self.variants = variants
        self.same_stem = same_stem
        self.feats = feats
        self.stems = stems
        self.words = words if words is not None else WordLists()
        #: notes on the resources this classifier runs without (set by its language)
        self.resources_missing: list[str] = []

    # ------------------------------------------------------------------ top level
    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The type of ``edit`` with its M:/U:/R: prefix (or UNK)."""
        os_, oe, cs_, ce = edit.o_start, edit.o_end, edit.c_start, edit.c_end
        if self.trim and edit.o_str != edit.c_str:
            lead, tail = _trim(orig[os_:oe], cor[cs_:ce])
            os_, oe, cs_, ce = os_ + lead, oe - tail, cs_ + lead, ce - tail
        o, c = orig[os_:oe], cor[cs_:ce]
        found = prefixed_type(o, c, edit.o_str == edit.c_str, self.one_sided, self.two_sided)
        return self.in_context(found, orig, cor, (os_, oe, cs_, ce))

    def in_context(self, found: str, orig: Sentence, cor: Sentence,
                   span: tuple[int, int, int, int]) -> str:
        """Refine a type by the sentence around the edit:

        * a hyphen inserted between two words is hyphenation (``M:ORTH``): ``онлайн виступі`` ->
          ``онлайн-виступі`` (tokenised ``онлайн - виступі``);
        * a nominal inflection whose case follows a preposition the correction changed or added,
          one that governs case (the tagger gives it a ``Case`` feature, as UD does for Slavic
          languages), is part of that preposition error (``ADP``): ``по місту`` -> ``у місті``
          types ``місту -> місті`` ADP. (With the preposition dropped, the new case is governed
          by something else: an inflection error.)
        * a sentence boundary changed with the capital of the next word (``. Und`` -> ``und``,
          ``ich`` -> ``. Ich``, ``und er`` -> ``. Er``) is a replacement: the capital belongs to
          the edit (``R:PUNCT``, ``R:CCONJ``), where ERRANT's prefix would drop it with the
          case-only last token (``U:PUNCT``).
        """
        os_, oe, cs_, ce = span
        if found[2:] in _BOUNDARY and found[:2] in ("M:", "U:") and os_ < oe and cs_ < ce:
            return "R:" + found[2:]
        if self.bound_aux and found.startswith("R:"):
            host = self.ending_host(orig[os_:oe], cor[cs_:ce], cor[:cs_])
            if host is not None:
                return f"R:{host}:INFL"
        if found == "M:PUNCT" and all(t.text in HYPHENS for t in cor[cs_:ce]):
            if 0 < cs_ and ce < len(cor) and _wordlike(cor[cs_ - 1]) and _wordlike(cor[ce]):
                return "M:ORTH"
        if found.startswith("R:") and _NOM_INFL.fullmatch(found[2:]):
            pairs = list(zip(orig[os_:oe], cor[cs_:ce], strict=False))
            po, pc = _governor(orig, os_), _governor(cor, cs_)
            if (any(features(a.feats).get("Case") != features(b.feats).get("Case")
                    for a, b in pairs)
                    and pc is not None and "Case=" in pc.feats
                    and (po is None or not self._same_word_form(po, pc))):
                return "R:ADP"
        return found

    @staticmethod
    def ending_host(o: Sequence[Token], c: Sequence[Token], before: Sequence[Token]
                    ) -> str | None:
        """In a language whose auxiliaries are inflectional endings (``bound_aux``): the class
        of the verb or adjective whose ending a replacement changes, or None. The correction is
        only auxiliaries; the original only auxiliaries or one particle used as the ending
        (``きれい の`` -> ``きれい な``), right after a verb or adjective (across auxiliaries) in
        the correction: ``降り ます`` -> ``降り まし た`` is the verb's tense (VERB:INFL)."""
        if not c or any(t.pos != "AUX" for t in c):
            return None
        if not (all(t.pos == "AUX" for t in o)
                or (len(o) == 1 and o[0].pos in ("ADP", "SCONJ", "PART"))):
            return None
        for t in reversed(before):
            if t.pos in ("VERB", "ADJ"):
                return t.pos
            if t.pos != "AUX":
                return None
        return None

    def _same_word_form(self, a: Token, b: Token) -> bool:
        """One word, up to case and the pack's alternants (Ukrainian в/у)."""
        return a.lower == b.lower or (self.variants is not None and self.variants(a.text, b.text))

    def one_sided(self, toks: Sequence[Token]) -> str:
        """Type of an insertion or deletion, without prefix."""
        if (self.bound_aux and len(toks) > 1 and toks[0].pos != "AUX"
                and all(t.pos == "AUX" for t in toks[1:])):
            toks = toks[:1]     # a word with its endings (の で: a conjunction)
        conj = self.clause_link([], toks)
        if conj:
            return conj
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
        if self.is_hyphenation(o_texts, c_texts):
            return "ORTH"
        if self.is_punct_change(o_join, c_join):
            return "PUNCT"
        if self.is_diacritic_change(o_join, c_join):
            return "DIACR"
        orth = self.orth_type(o_texts, c_texts)
        if orth:
            return orth
        if self.is_quotation_change(o_join, c_join):
            return "QUOTATION"
        if self.is_elision(o_texts, c_texts):
            return "ORTH"
        contracted = self.contraction(o, c)
        if contracted:
            return contracted
        if self.is_apostrophe_change(o_join, c_join):
            return "SPELL"
        if self.is_number_form(o, c):
            return "ORTH"
        conj = self.clause_link(o, c)
        if conj:
            return conj
        if self.is_reordering(o, c):
            return "WO"
        moved = self.transposition_type(o, c)
        if moved:
            return moved
        if len(o) == 1 and len(c) == 1:
            one = self.one_to_one(o[0], c[0])
            if one is not None:
                return one
        if self.bound_aux:
            misread = self.misread_form(o, c)
            if misread is not None:
                return misread
        if not self.spaced:
            cut = self.cut_misspelling(o, c)
            if cut is not None:
                return cut
        return self.multi(o, c)

    @staticmethod
    def misread_form(o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """Another form of a verb or adjective with its endings (``bound_aux`` languages): the
        correction is one verb or adjective with its endings (auxiliaries, conjunctive
        particles) and the original starts with the same lemma (``高い で`` -> ``高く て``) or
        spells its dictionary form with a wrong ending the segmenter cut off (``高 いく`` ->
        ``高く``, ``広い じゃ`` -> ``広く``): that word's INFL."""
        head = c[0]
        if head.pos not in ("VERB", "ADJ") or any(t.pos not in _ENDINGS for t in c[1:]):
            return None
        lemma = lemma_of(head)
        text = "".join(t.text for t in o)
        if ((lemma_of(o[0]) == lemma and all(t.pos in _ENDINGS for t in o[1:]))
                or (len(lemma) >= 2 and text.startswith(lemma) and text != lemma)):
            return head.pos + ":INFL"
        return None

    @staticmethod
    def cut_misspelling(o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """A misspelled word the segmenter of a language written without spaces cut into
        pieces (``ちょ と`` -> ``ちょっと``): the pieces spell a word one character edit from
        the one-word correction (of 3+ characters): SPELL."""
        if len(c) != 1 or len(o) < 2 or len(c[0].text) < 3 or c[0].pos in _CLOSED:
            return None
        text = "".join(t.text for t in o)
        return "SPELL" if Levenshtein.distance(text, c[0].text, score_cutoff=1) <= 1 else None

    # --------------------------------------------------------------- string tests
    def is_hyphenation(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> bool:
        """Words joined or split at a hyphen (``веб - сторінок`` -> ``вебсторінок``,
        ``будь яка`` -> ``будь-яка``): the letters agree once hyphens and spaces are dropped,
        the words do not."""
        o_all, c_all = "".join(o_texts), "".join(c_texts)
        if not any(h in o_all or h in c_all for h in HYPHENS):
            return False
        o_cat, c_cat = unhyphen(o_all).lower(), unhyphen(c_all).lower()
        if o_cat != c_cat or not any(ch.isalnum() for ch in o_cat):
            return False
        return ([t.lower() for t in o_texts if t not in HYPHENS]
                != [t.lower() for t in c_texts if t not in HYPHENS])

    def is_punct_change(self, o_join: str, c_join: str) -> bool:
        """Only punctuation differs (word-internal apostrophes and hyphens are spelling), or
        punctuation and the capitalisation that follows a changed sentence boundary, or the same
        punctuation moved among the same words."""
        o_p, o_w = punct_and_words(o_join)
        c_p, c_w = punct_and_words(c_join)
        if o_w != c_w and o_w.lower() != c_w.lower():
            return False
        if o_p != c_p:
            return True
        return o_join.replace(" ", "").lower() != c_join.replace(" ", "").lower()

    def is_diacritic_change(self, o_join: str, c_join: str) -> bool:
        return fold_marks(o_join) == fold_marks(c_join)

    def orth_type(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> str | None:
        """ORTH:WSPACE (only spacing), ORTH:CASING (only case), ORTH (both)."""
        o_cat, c_cat = "".join(o_texts), "".join(c_texts)
        if lower(o_cat) != lower(c_cat):
            return None
        if o_cat == c_cat:
            return "ORTH:WSPACE"
        if lower(" ".join(o_texts)) == lower(" ".join(c_texts)):
            return "ORTH:CASING"
        return "ORTH"

    def is_quotation_change(self, o_join: str, c_join: str) -> bool:
        return quote_key(o_join) == quote_key(c_join)

    def is_elision(self, o_texts: Sequence[str], c_texts: Sequence[str]) -> bool:
        """A word written with its final vowel elided or in full (``que`` -> ``qu'``, ``lo
        amico`` -> ``l'amico``), whichever side is elided, for words the pack's ``ELISION``
        list names (``*``: any word): orthography (:func:`~errtype.lang.ud.text.elided`)."""
        if not self.words.elisions:
            return False
        words = elided(o_texts, c_texts) or elided(c_texts, o_texts)
        return bool(words) and all(self.words.elides(w) for w in words)

    def contraction(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """A contraction of the pack's ``CONTRACTION`` list applied or undone (``de le`` ->
        ``du``, ``in la`` -> ``nella``, ``in dem`` -> ``im``): ``ORTH``; with one word of the
        expanded sides changed besides (``avec le`` -> ``au`` = ``à le``, ``du`` -> ``de la``),
        the type of that change (``ADP``, ``DET``). None when neither side holds a contraction
        or the expanded sides differ otherwise."""
        if not self.words.contractions:
            return None
        eo = self.words.expand(t.text for t in o)
        ec = self.words.expand(t.text for t in c)
        if (len(eo) == len(o) and len(ec) == len(c)) or len(eo) != len(ec):
            return None
        changed = [(a, b) for a, b in zip(eo, ec, strict=True) if a[0] != b[0]]
        if not changed:
            return "ORTH"
        if len(changed) > 1:
            return None
        (wa, ka), (wb, kb) = changed[0]
        ta = o[ka] if o[ka].lower == wa else self._listed_token(wa)
        tb = c[kb] if c[kb].lower == wb else self._listed_token(wb)
        return self.two_sided([ta], [tb])

    def _listed_token(self, word: str) -> Token:
        """A word of a contraction as a token: its class from the pack's lists."""
        classes = self.words.word_classes(word)
        pos = next((p for p in _CLASS_ORDER if p in classes), "X")
        return Token(word, word, pos)

    def contracted_pieces(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        """The span is a contraction applied or undone, with at most one other word changed:
        the pieces the alignment split (``à`` -> ``au`` and ``le`` deleted) belong together."""
        return self.contraction(o, c) is not None

    def is_number_form(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        """A number in digits for the same kind of number in words or back (``4`` -> ``vier``,
        ``2.`` -> ``second``): :func:`~errtype.lang.ud.numbers.number_form`, with the pack's
        ``NUM`` list as number words."""
        return number_form(o, c, self._listed_number)

    def _listed_number(self, word: str) -> bool:
        return self.words.number_word(word)

    def clause_link(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """Punctuation for a conjunction or back, the clauses joined or split another way
        (``,`` -> ``and``, ``and he`` -> ``. He``, ``,`` -> ``parce qu'``, a deletion of
        ``, and``): the conjunction is the error, named by its class (CCONJ or SCONJ,
        :meth:`_conjunction`), and the punctuation and the capital of the next word change
        with it. The words of the two sides, punctuation left out, are the same up to case but
        for a run of up to three clause-linking words one side adds (conjunctions, relative
        words and connective adverbs, at least one conjunction), and the punctuation differs.
        None otherwise (a conjunction that stays while only the punctuation and the case
        change is PUNCT: ``. And`` -> ``and``)."""
        wo = [t for t in o if not _is_punct(t)]
        wc = [t for t in c if not _is_punct(t)]
        extra = len(wo) - len(wc)
        if not 1 <= abs(extra) <= 3:
            return None
        if [t.text for t in o if _is_punct(t)] == [t.text for t in c if _is_punct(t)]:
            return None
        short, long_ = (wc, wo) if extra > 0 else (wo, wc)
        n = abs(extra)
        for k in range(len(long_) - n + 1):
            run = long_[k:k + n]
            if [x.lower for x in long_[:k] + long_[k + n:]] != [x.lower for x in short]:
                continue
            conj = next((x for x in map(self._conjunction, run) if x), None)
            if conj and all(t.pos in _CONNECTIVE or self._conjunction(t) for t in run):
                return conj
        return None

    def is_reordering(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        """The same words in another order, also across a hyphen (``Tu as`` -> ``As-tu``)."""
        return (sorted(t.lower for t in o) == sorted(t.lower for t in c)
                or hyphen_inversion([t.text for t in o], [t.text for t in c]))

    def is_apostrophe_change(self, o_join: str, c_join: str) -> bool:
        """Only a word-internal apostrophe is added or dropped (``Almanyaya`` ->
        ``Almanya'ya``, ``здоровя`` -> ``здоров'я``): a spelling rule."""
        return unapostrophe(o_join) == unapostrophe(c_join)

    def transposition_type(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """WO when the words are reordered, re-inflected or re-spelled (each moved pair shares
        its lemma or resembles in spelling), or when at least two words recur in another order
        among other changes (``vaja teie appi`` -> ``teie abi vaja``); else None."""
        if len(o) < 2 or len(c) < 2:
            return None
        if transposition_compatible(o, c, _similar_tokens):
            return "WO"
        if reordered(o, c, self._recurs):
            return "WO"
        return None

    @staticmethod
    def _recurs(a: Token, b: Token) -> bool:
        """A word of the original recurs in the correction (same word or lemma, a close
        spelling or a long common prefix); punctuation never counts."""
        if a.pos == "PUNCT" or b.pos == "PUNCT" or not a.text.isalnum():
            return False
        return _similar_tokens(a, b) or prefix_same_stem(a.text, b.text)

    # ------------------------------------------------------------------- 1:1 edits
    def one_to_one(self, o: Token, c: Token) -> str | None:
        """The type of a one-token replacement (None: fall through to the multi-token rules).

        Order: pack alternants (SPELL); verbs the tagger misread re-read (:meth:`reanalysed`);
        one lexeme with other inflectional features (INFL); related lexemes: aspect partners,
        the reflexive voice, suppletive comparison (INFL); a non-word close to a correction the
        lexicon knows, a doubled letter, one letter off inside related-looking words (SPELL);
        one lexeme otherwise (INFL across a paradigm or of a form variant, MORPH across word
        classes, the class of a function word); closed classes by the pack's lists, a
        conjunction for another clause-linking word, the tagger's closed class; a real-word
        near miss (SPELL); :meth:`word_class`.
        """
        if self.variants is not None and self.variants(o.text, c.text):
            return "SPELL"
        if self.is_elision([o.text], [c.text]):
            return "ORTH"
        read = self.by_reading(o, c)
        if read is not None:
            return read
        o, c = self.reanalysed(o, (c,)), self.reanalysed(c, (o,))
        lexeme = self.lexeme(o, c)
        if lexeme is not None and self.derived_adverb(o, c):
            return "MORPH"
        if self.regularised_verb(o, c):
            return self.inflection(o, c, "VERB")
        if (lexeme is not None and (lexeme != "stem" or o.pos == c.pos)
                and (not self.misspelled_form(o, c) if inflection_diff(o, c)
                     else self.rebuilt_form(o, c))):
            pos = self.inflection_pos(o, c, lexeme)
            if pos:
                return self.inflection(o, c, pos)
        related = self.related_forms(o, c)
        if related:
            return related[0] + ":INFL" + self.feature_suffix([(o, c)], related[1])
        spell = self.spelling(o, c)
        if spell is not None:
            return spell
        if (doubling(o.lower, c.lower) and o.pos not in _CLOSED
                and not self.lexicon_lexeme(o, c)):
            # a letter doubled or undoubled (tekkivad/tekivad, засяло/засяяло), unless the
            # lexicon gives the original the correction's lemma (another form: its case)
            return "SPELL"
        if (lexeme == "stem" and not ending_change(o, c) and self.near_miss(o, c)
                and not self._two_words(o, c)):
            return "SPELL"      # one letter inside related-looking words: contant/content
        if lexeme is not None:
            if o.pos != c.pos:
                pos = self.inflection_pos(o, c, lexeme) or self.lexicon_pos(o, c)
                if pos:
                    return self.inflection(o, c, pos)
                closed = self.word_classes(o)     # function words are not derived
                return next((p for p in _CLASS_ORDER if p in closed), "MORPH")
            if o.pos in self.inflected_pos and (lexeme != "stem" or unlemmatised(o, c)
                                                 or ending_change(o, c)):
                # another form the tagger did not tell apart (sõbra/sõber, ma/mina), unless,
                # without a lexicon to say the original is a word, one letter inside the word is
                # off (хатта/хата): a misspelling
                if (self.is_valid_word is None and not ending_change(o, c)
                        and Levenshtein.distance(o.lower, c.lower, score_cutoff=1) <= 1):
                    return "SPELL"
                return self.inflection(o, c, o.pos)
        if self.copula(o, c):
            return "AUX"
        listed = self.closed_class(o, c, listed_only=True)
        if listed:
            return listed
        connective = self.connective_pos(o, c)
        if connective:
            return connective
        closed = self.closed_class(o, c)
        if closed:
            return closed
        if self.near_miss(o, c) and not (lexeme is not None and self._two_words(o, c)):
            return "SPELL"
        return self.word_class(o, c)

    @staticmethod
    def by_reading(o: Token, c: Token) -> str | None:
        """With the reading of each lemma (``Reading``, from a backend of a language written
        in several scripts: Japanese): one lemma in the same form spelled otherwise is ORTH
        (``わたし`` -> ``私``: kana for kanji, hiragana for katakana), unless both are written
        in the same script (``直す`` -> ``治す``: the wrong kanji; ``こんにちわ`` ->
        ``こんにちは``: the wrong kana; SPELL); two lemmas with one reading are a misspelling
        (``熱い`` -> ``暑い``, ``会い`` -> ``合い``: the wrong kanji for the word's sound,
        SPELL). None otherwise."""
        ro, rc = features(o.feats).get("Reading"), features(c.feats).get("Reading")
        if not ro or not rc:
            return None
        lo, lc = lemma_of(o), lemma_of(c)
        if lo == lc and not inflection_diff(o, c):
            return "ORTH" if _script(o.text) != _script(c.text) else "SPELL"
        if lo != lc and ro == rc and o.pos not in _CLOSED and c.pos not in _CLOSED:
            return "SPELL"
        return None

    def inflection(self, o: Token, c: Token, pos: str) -> str:
        """``POS:INFL`` (with the features under ``feats``) for two forms of one lexeme that
        ``pos`` names; a participle that only agrees otherwise is an adjective's agreement
        (:meth:`~.relations.LexemeRelations.agreeing_participle`)."""
        if pos == "VERB" and self.agreeing_participle(o, c):
            pos = "ADJ"
        return pos + ":INFL" + self.feature_suffix([(o, c)], pos=pos)

    def misspelled_form(self, o: Token, c: Token) -> bool:
        """The tagger reads ``o`` as another form of the correction's lexeme, but the lexicon
        rejects it and knows the correction: a non-word the tagger dressed up as an
        inflection, so a misspelling, unless the forms differ in the ending alone by more than
        one letter (another ending, which the learner chose: майоріє -> майоріла)."""
        if ending_change(o, c) and Levenshtein.distance(o.lower, c.lower, score_cutoff=1) > 1:
            return False
        return self._unknown(o, c) and self._known(c)

    def rebuilt_form(self, o: Token, c: Token) -> bool:
        """A participle the learner built with the wrong pattern: the tagger reads both sides
        as the participle of one verb with the same features (``VerbForm=Part``), the lexicon
        rejects the original and knows the correction, and the two differ as forms, not as
        letters: in the ending alone by more than one letter (gelest -> gelesen), or the
        original keeps the verb's stem where the correct participle changes it (a weak
        participle made of a strong verb: gegeht -> gegangen). That is the verb's inflection,
        as ERRANT types getted -> got. The stem is the lemma less a verb-lemma ending of the
        pack's ``INFINITIVE`` list, else less its final vowels, of at least three letters.

        Only participles: for other words, EstGEC-L2's annotators type a non-word built on
        the lemma's stem as spelling (``hindist`` -> ``hinnast``, ``Mantelid`` -> ``Mantlid``,
        ``ostada`` -> ``osta``), and so does errtype (:meth:`misspelled_form`)."""
        if not ("VerbForm=Part" in o.feats and "VerbForm=Part" in c.feats
                and lemma_of(o) == lemma_of(c) and self._unknown(o, c) and self._known(c)):
            return False
        if ending_change(o, c) and Levenshtein.distance(o.lower, c.lower, score_cutoff=1) > 1:
            return True
        return _stem_changed(o, c, self._stem(c))

    def regularised_verb(self, o: Token, c: Token) -> bool:
        """A verb form the learner built regularly on a verb whose correct form changes its
        stem (Swedish ``springde`` -> ``sprang``, Portuguese ``fazi`` -> ``fiz``, ``trazeu``
        -> ``trouxe``): the lexicon rejects the original, which the tagger reads as a verb, and
        gives the correction a verb lemma (pack ``INFINITIVE`` endings) whose stem (the lemma
        less that ending, at least three letters) the original keeps and the correction does
        not. That is the verb's inflection, as ERRANT types ``getted`` -> ``got``, however the
        tagger lemmatised the non-word or read the correction."""
        if (self.stems is None or not self.words.infinitives or not verbal(o)
                or not self._unknown(o, c) or not self._known(c)):
            return False
        return any(_stem_changed(o, c, self.words.infinitive_stem(lemma) or "")
                   for lemma in self.stems(c.text))

    def _stem(self, t: Token) -> str:
        """The lemma of ``t`` less a verb-lemma ending (pack ``INFINITIVE``) for a verb, else
        less its final vowels."""
        lemma = lemma_of(t)
        stem = self.words.infinitive_stem(lemma) if verbal(t) else None
        return lemma.rstrip(_VOWELS) if stem is None else stem

    def word_class(self, o: Token, c: Token) -> str | None:
        """ERRANT's last resort for a 1:1 edit: the shared UPOS, the mapped shared dependency,
        PRON/DET by the correction's dependency (None: the multi-token rules), else OTHER."""
        if o.pos == c.pos and o.pos not in self.rare_pos:
            return o.pos
        if o.dep == c.dep and o.dep in self.dep_map:
            return self.dep_map[o.dep]
        if {o.pos, c.pos} == {"DET", "PRON"}:
            if c.dep in PRON_DEPS:
                return "PRON"
            if c.dep == "poss":
                return "DET"
            return None
        return "OTHER"

    def spelling(self, o: Token, c: Token) -> str | None:
        """SPELL when the lexicon rejects the original word, accepts the correction and the two
        are close: one character edit, or more than half of the characters shared. (When it
        rejects both, it lacks the word, and says nothing about the spelling.)"""
        if self.is_valid_word is None or not o.text.isalpha():
            return None
        if (Levenshtein.distance(o.lower, c.lower, score_cutoff=1) > 1
                and 1 - Indel.normalized_distance(o.lower, c.lower) <= 0.5):
            return None
        if not self._unknown(o, c):  # lookups last: the slow part
            return None
        return "SPELL" if not c.text.isalpha() or self._known(c) else None

    def near_miss(self, o: Token, c: Token) -> bool:
        """Unrelated content words one character edit apart (two for words of 8+ characters),
        not a prefixed form of each other (може/зможе is word formation): a real-word
        misspelling."""
        if o.pos in _CLOSED or c.pos in _CLOSED or min(len(o.text), len(c.text)) < 3:
            return False
        if prefixed(o.lower, c.lower):
            return False
        limit = 2 if max(len(o.text), len(c.text)) >= 8 else 1
        return Levenshtein.distance(o.lower, c.lower, score_cutoff=limit) <= limit

    def word_classes(self, t: Token) -> frozenset[str]:
        """The closed classes of ``t``: the pack's lists when they name the word (the tagger
        is unsure exactly on such short function words), else its UPOS if closed."""
        listed = self.words.word_classes(t.text)
        if listed:
            return listed
        return frozenset({t.pos}) & CLOSED_CLASSES

    def closed_class(self, o: Token, c: Token, listed_only: bool = False) -> str | None:
        """A closed-class word replaced by another of its class (by the pack's lists or the
        tagger; ``listed_only``: both words in the lists): that class (conjunction,
        preposition, particle, pronoun, determiner)."""
        if listed_only:
            shared = self.words.word_classes(o.text) & self.words.word_classes(c.text)
        else:
            shared = self.word_classes(o) & self.word_classes(c)
        if not shared:
            return None
        if c.pos in shared:
            return c.pos
        return next(p for p in _CLASS_ORDER if p in shared)

    def connective_pos(self, o: Token, c: Token) -> str | None:
        """A conjunction replacing, or replaced by, another clause-linking word (relative
        pronoun/determiner/adverb, other conjunction): that conjunction's class."""
        for a, b in ((c, o), (o, c)):
            conj = self._conjunction(a)
            if conj and (b.pos in _CONNECTIVE or self._conjunction(b)):
                return conj
        return None

    def _conjunction(self, t: Token) -> str | None:
        """The conjunction class of ``t``: by the tagger, or by the pack's lists when they list
        the word only as a conjunction (як, коли: the tagger often calls them adverbs)."""
        if t.pos in _CONJ:
            return t.pos
        listed = self.words.word_classes(t.text)
        if listed and listed <= _CONJ:
            return sorted(listed)[-1]
        return None

    def feature_suffix(self, pairs: Sequence[tuple[Token, Token]], implied: str = "",
                       pos: str = "") -> str:
        """``:F1+F2`` naming the differing inflectional UD features when ``feats`` is on (with
        ``implied``, a feature the relation of the lexemes changes though the tagger may not
        show it: Aspect of aspect partners, Degree of a suppletive comparison). When the two
        forms got different UPOS and ``pos`` names the error, the features only the other
        reading has are left out: they belong to the misreading; when ``pos`` is neither
        reading (the lexicon's lexeme: an adjective both misread, :meth:`lexicon_pos`), so are
        the features of a verb reading an adjective does not take."""
        if not self.feats:
            return ""
        names = {implied} if implied else set()
        for a, b in pairs:
            ignore: set[str] = set()
            if pos and a.pos != b.pos and pos in (a.pos, b.pos):
                right, wrong = (a, b) if a.pos == pos else (b, a)
                ignore = set(features(wrong.feats)) - set(features(right.feats))
            elif pos and a.pos != b.pos and pos not in ("VERB", "AUX"):
                ignore = set(_VERB_FEATURES)
            names.update(feature_diff([(a, b)], lexical=False, ignore=ignore))
        return ":" + "+".join(sorted(names)) if names else ""

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

    def pairwise_type(self, o: Sequence[Token], c: Sequence[Token]) -> str | None:
        """Multi-token edits read word by word (agreement across a span): the changed words are
        paired by lexeme (:meth:`_pairs`). Only inflection changes -> POS:INFL of the head
        (nominal heads before their modifiers) with the features changed on every pair; one
        other change plus inflections that follow it -> the type of that change (``в місто`` ->
        ``до міста`` is ADP); one word added or dropped whose neighbour only adapts its spelling
        -> that word's class (``n'`` -> ``ne l'`` is PRON: the elision follows the pronoun)."""
        paired = self._pairs(o, c)
        if paired is None:
            return None
        pairs, left = paired
        inflected, other = [], []
        for a, b in pairs:
            typ = self.one_to_one(a, b) or "OTHER"
            (inflected if typ.split(":")[1:2] == ["INFL"] else other).append((a, b, typ))
        if any(not _function_word(t) and t.lower not in self.words.comparatives for t in left):
            if (len(left) == 1 and not inflected and left[0].pos not in self.rare_pos
                    and all(typ in ("SPELL", "ORTH") for _, _, typ in other)):
                return left[0].pos
            return None
        if not inflected and not other:
            return None
        if not other:
            pos = {typ.split(":")[0] for _, _, typ in inflected}
            head = next(p for p in _HEAD_ORDER if p in pos)
            names = {n for _, _, typ in inflected for part in typ.split(":")[2:3]
                     for n in part.split("+")}
            return head + ":INFL" + (":" + "+".join(sorted(names)) if names else "")
        if inflected and len(other) == 1:
            typ = other[0][2]
            if typ not in ("OTHER", "MORPH"):
                return typ
        return None

    def _pairs(self, o: Sequence[Token], c: Sequence[Token]
               ) -> tuple[list[tuple[Token, Token]], list[Token]] | None:
        """The changed (orig, cor) word pairs of a multi-token edit and the words left over, or
        None when the sides do not pair up: equal lengths pair position by position; otherwise
        each word of the shorter side must find its lexeme, in order, on the longer side.
        Inflection reads through left-over function words added or dropped with the inflection
        they govern (a particle, determiner, auxiliary, a word of analytic comparison from the
        pack's ``COMPARATIVE`` list: ``plus bon`` -> ``meilleur``, or an adposition the tagger
        says governs a case: Slavic ``статею`` -> ``у статті``; an Estonian postposition
        replacing a case ending, ``minust`` -> ``minu kohta``, is another construction)."""
        if len(o) == len(c):
            return [(a, b) for a, b in zip(o, c, strict=True) if a.text != b.text], []
        short, long_ = (o, c) if len(o) < len(c) else (c, o)
        pairs, used, j = [], set(), 0
        for t in short:
            while j < len(long_) and not (t.text == long_[j].text
                                          or self.lexeme(t, long_[j]) is not None
                                          or self.related_forms(t, long_[j]) is not None):
                j += 1
            if j == len(long_):
                return None
            used.add(j)
            if t.text != long_[j].text:
                pairs.append((t, long_[j]) if short is o else (long_[j], t))
            j += 1
        return pairs, [long_[k] for k in range(len(long_)) if k not in used]

    def multi(self, o: Sequence[Token], c: Sequence[Token]) -> str:
        """Type of a multi-token replacement: word by word (:meth:`pairwise_type`), else PRON
        for a noun phrase replaced by a pronoun or back (``la maison`` -> ``celle``), else the
        one changed word when the rest is punctuation (``, як`` -> ``коли`` is SCONJ), else the
        shared UPOS or mapped dependency, else a verb phrase (VERB, VERB:INFL when its content
        verbs are one lexeme: analytic vs synthetic forms, voice), else OTHER."""
        o, c = [self.reanalysed(t, c) for t in o], [self.reanalysed(t, o) for t in c]
        found = self.pairwise_type(o, c)
        if found:
            return found
        for one, group in ((o, c), (c, o)):    # a noun phrase for a pronoun, or back
            if (len(one) == 1 and one[0].pos == "PRON" and len(group) > 1
                    and all(t.pos in _NOUN_PHRASE for t in group)):
                return "PRON"
        wo = [t for t in o if t.pos != "PUNCT"]
        wc = [t for t in c if t.pos != "PUNCT"]
        if len(wo) == len(wc) == 1 and (len(wo) < len(o) or len(wc) < len(c)):
            found = self.one_to_one(wo[0], wc[0])   # a word change with punctuation around it
            if found:
                return found
        verb_group = all(verbal(t) for t in o) and all(verbal(t) for t in c)
        if verb_group:
            vo = [t for t in o if t.pos != "AUX"] or list(o[-1:])
            vc = [t for t in c if t.pos != "AUX"] or list(c[-1:])
            related = self.related_forms(vo[-1], vc[-1])
            if related is not None or self.lexeme(vo[-1], vc[-1]) is not None:
                return "VERB:INFL" + self.feature_suffix([(vo[-1], vc[-1])],
                                                         related[1] if related else "")
        pos = {t.pos for t in o} | {t.pos for t in c}
        found = self._shared_tag(pos, {t.dep for t in o} | {t.dep for t in c})
        if found:
            return found
        return "VERB" if verb_group else "OTHER"


_NOUN_PHRASE = frozenset({"DET", "NOUN", "PROPN", "ADJ", "NUM"})
#: word classes a multi-token inflection edit may add or drop beside its paired words
_FUNCTION = frozenset({"ADP", "AUX", "DET", "PART", "PUNCT", "CCONJ", "SCONJ"})


def _function_word(t: Token) -> bool:
    return t.pos in _FUNCTION and (t.pos != "ADP" or "Case=" in t.feats)


def _script(text: str) -> str:
    """The script a Japanese word is written in: "han" when it has a kanji, else "katakana"
    when it has a katakana letter, else "hiragana" (or other kana-less text)."""
    if any("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" for ch in text):
        return "han"
    if any("\u30a1" <= ch <= "\u30fa" for ch in text):
        return "katakana"
    return "hiragana"


def _is_punct(t: Token) -> bool:
    return t.pos == "PUNCT" or (t.text != "" and all(is_punct_char(ch) for ch in t.text))


def _wordlike(t: Token) -> bool:
    return any(ch.isalnum() for ch in t.text)


def _governor(sent: Sentence, start: int) -> Token | None:
    """The preposition left of position ``start`` across at most two modifiers, or None."""
    for k in range(start - 1, max(-1, start - 4), -1):
        t = sent[k]
        if t.pos == "ADP":
            return t
        if t.pos not in _MODIFIERS:
            return None
    return None


def _stem_changed(o: Token, c: Token, stem: str) -> bool:
    """The original keeps ``stem`` (three letters or more) where the correction changes it."""
    return len(stem) >= 3 and stem in o.lower and stem not in c.lower
