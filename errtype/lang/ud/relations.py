"""How two forms of an edit relate as words: one lexeme, related lexemes (aspect partners, the
reflexive voice, suppletive comparison), and whether the tagger's analysis of a form can be
right. A mixin of :class:`~errtype.lang.ud.classifier.UDClassifier`, which holds the resources it
reads: the lexicon (``is_valid_word``, ``stems``), the stem test and the pack's word lists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ...tokens import Token
from .morph import (
    common_prefix,
    features,
    inflection_diff,
    lemma_of,
    prefixed,
    suffixed,
    verbal,
)
from .wordlists import WordLists

__all__ = ["AGREEMENT", "INFLECTED_POS", "LexemeRelations", "same_compound"]

#: UPOS that inflect in UD languages (DET too: articles and determiners agree in case/gender)
INFLECTED_POS = frozenset({"ADJ", "AUX", "DET", "PRON", "PROPN", "NOUN", "VERB", "NUM", "ADV"})
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "DET", "PRON", "NUM"})
#: word classes without inflection: a lemma other than the form is a misreading
_UNINFLECTED = frozenset({"ADV", "ADP", "CCONJ", "SCONJ", "PART", "INTJ"})
#: the features of nominal agreement (a participle that changes only these agrees as an adjective)
AGREEMENT = frozenset({"Animacy", "Case", "Definite", "Gender", "Number"})
#: classes for which Gender is inflection (agreement), not a property of the lexeme
_GENDER_AGREES = frozenset({"ADJ", "DET", "PRON", "NUM"})


def same_compound(a: str, b: str, word: Callable[[str], bool],
                  one_lexeme: Callable[[str, str], bool], links: tuple[str, ...] = (),
                  least: int = 3) -> bool:
    """``a`` and ``b`` are one compound with its last part in two forms: they share a first
    part of at least ``least`` letters, a word by ``word`` itself or before one of the
    language's linking elements ``links`` (German ``Arbeit|s``), after which both remainders
    (at least ``least`` letters) are words and forms of one lexeme by ``one_lexeme``
    (``lemmik|raamatut`` / ``lemmik|raamatu``, ``Arbeits|platz`` / ``Arbeits|plätze``,
    ``bil|nyckeln`` / ``bil|nyckel``; not ``tulevi|kusest`` / ``tulevi|kust``: no first word,
    nor ``vane|made`` / ``vane|mate``: two lexemes)."""
    la, lb = a.lower(), b.lower()
    for k in range(least, common_prefix(la, lb) + 1):
        ra, rb = la[k:], lb[k:]
        if (len(ra) >= least and len(rb) >= least and word(ra) and word(rb)
                and one_lexeme(ra, rb) and _first_part(la[:k], word, links, least)):
            return True
    return False


def _one_word(a: Token, b: Token) -> bool:
    """The tagger reads ``a`` and ``b`` as one word: the same class or the same lemma (without
    the compound boundaries some treebanks mark: ``eba_võrdne``)."""
    return a.pos == b.pos or _bare_lemma(a) == _bare_lemma(b)


def _same_analysis(a: Token, b: Token) -> bool:
    """The tagger gives ``a`` and ``b`` one class and one lemma."""
    return a.pos == b.pos and lemma_of(a) != "" and lemma_of(a) == lemma_of(b)


def _bare_lemma(t: Token) -> str:
    return lemma_of(t).replace("_", "").replace("=", "")


def _first_part(part: str, word: Callable[[str], bool], links: tuple[str, ...],
                least: int) -> bool:
    if word(part):
        return True
    return any(part.endswith(link) and len(part) - len(link) >= least
               and word(part[:len(part) - len(link)]) for link in links)


class LexemeRelations:
    """Relations of two forms read from the tagger's analyses and the language's resources."""

    inflected_pos = INFLECTED_POS
    is_valid_word: Callable[[str], bool] | None
    same_stem: Callable[[str, str], bool] | None
    stems: Callable[[str], frozenset[str]] | None
    words: WordLists

    def lexeme(self, o: Token, c: Token) -> str | None:
        """How the two forms are known to be one lexeme: ``"lemma"`` (the tagger's lemmas
        agree), ``"lexicon"`` (the lexicon gives them a common lemma, :meth:`_readings`),
        ``"paradigm"`` (a pack ``PARADIGM`` line holds a form or lemma of each: pronouns the
        tagger lemmatises apart, ``ik`` -> ``mij``), ``"stem"`` (the stem test), else None."""
        if lemma_of(o) and lemma_of(o) == lemma_of(c):
            return "lemma"
        if self.lexicon_lexeme(o, c):
            return "lexicon"
        if {o.pos, c.pos} <= {"PRON", "DET"} and any(self.words.same_paradigm(a, b)
                                        for a in (o.lower, lemma_of(o))
                                        for b in (c.lower, lemma_of(c))):
            return "paradigm"
        if self.same_stem is not None and self.same_stem(o.text, c.text):
            return "stem"
        return None

    def lexicon_lexeme(self, o: Token, c: Token) -> bool:
        """The lexicon knows ``o`` as a form of the correction's lexeme: it gives ``o`` a lemma
        of ``c``'s reading (only where the lexicon's stems are lemmas)."""
        return self.stems is not None and bool(self.stems(o.text) & self._readings(c))

    def _readings(self, t: Token) -> frozenset[str]:
        """The lexicon's lemmas of ``t``, narrowed to the tagger's when it is one of them
        (``content`` is ``content`` or a form of ``conter``; tagged ``content``, it is not
        ``conter``). Applied to the correction only: on the erroneous side the tagger is
        often wrong (``разом`` tagged ADV is also a form of ``раз``)."""
        stems = self.stems(t.text) if self.stems is not None else frozenset()
        lemma = lemma_of(t)
        return frozenset((lemma,)) if lemma in stems else stems

    def plausible(self, t: Token) -> bool | None:
        """Whether the tagger's analysis of ``t`` can be right (None: nothing tells).

        Implausible: a verb whose lemma does not end like the language's verb lemmas (pack
        ``INFINITIVE``: ``rouge`` VERB); a verb with a case but no VerbForm (``çantama``); a
        lemma the lexicon does not give the form; a word
        class that does not inflect (ADV, ADP, conjunctions, PART, INTJ) with a lemma the
        lexicon gives as the lemma of another form (``mangent`` ADV ``manger``). Plausible:
        the lexicon gives the form that lemma."""
        lemma = lemma_of(t)
        if t.pos == "VERB" and lemma and not self._verb_lemma(t):
            return False
        feats = features(t.feats)
        if t.pos == "VERB" and "Case" in feats and "VerbForm" not in feats:
            return False    # only non-finite verb forms (VerbForm) take a case
        if self.stems is None:
            return None
        stems = self.stems(t.text)
        if not stems:
            return None
        if t.pos in _UNINFLECTED and lemma != t.lower and lemma in stems:
            return False
        return lemma in stems

    def _verb_lemma(self, t: Token) -> bool:
        """``t`` can be a verb: its tagger lemma or a lemma the lexicon gives it ends like the
        language's verb lemmas (always true without a pack ``INFINITIVE`` list)."""
        if not self.words.infinitives:
            return True
        lemmas = {lemma_of(t)} | (self.stems(t.text) if self.stems is not None else frozenset())
        return any(self.words.infinitive(lemma) for lemma in lemmas if lemma)

    def reanalysed(self, t: Token, other: Sequence[Token] = ()) -> Token:
        """``t`` as a verb when the tagger misread one (it is often wrong exactly on the edited
        word): its analysis is implausible (:meth:`plausible`) and every lemma the lexicon gives
        the form ends like the language's verb lemmas (pack ``INFINITIVE`` list: French
        ``viens`` tagged NOUN ``vien`` is a form of ``venir``). The lexicon's lemma replaces
        the tagger's; the tagger's features, read for another word class, are dropped.

        The tagger is believed where it read a verb form already (a participle tagged ADJ has a
        ``VerbForm``) and where a word of the ``other`` side of the edit has ``t``'s class and
        lemma: both sides agree on the lexeme (Italian ``stanco`` -> ``stanchi``, both ADJ
        ``stanco``, stay an adjective though the lexicon's lemma of ``stanchi`` is the verb
        ``stancare``), and where it reads an adjective beside a participle (Portuguese
        ``cansado`` ADJ -> ``cansada`` VERB ``cansar``: a participle used as an adjective)."""
        if (self.stems is None or not self.words.infinitives or t.pos in ("VERB", "AUX")
                or "VerbForm" in features(t.feats)
                or any(_same_analysis(t, u) or t.pos == "ADJ" and "VerbForm=Part" in u.feats
                       for u in other)):
            return t
        stems = self.stems(t.text)
        if (not stems or not all(self.words.infinitive(s) for s in stems)
                or self.plausible(t) is not False):
            return t
        return replace(t, pos="VERB", lemma=min(stems), feats="")

    def agreeing_participle(self, o: Token, c: Token) -> bool:
        """Two forms of one participle that differ only in the features of nominal agreement
        (:data:`AGREEMENT`, among the features both analyses have; an adjective reading on one
        side counts as the participle) where the participle is an adjective: the error is the
        adjective's agreement (Italian ``La porta è aperto`` -> ``aperta``, Greek
        ``κουρασμένος`` -> ``κουρασμένα``). A participle is a verb form, and its agreement the
        verb's, where UD marks it active (``Voice=Act``: Latvian ``esmu redzējis``) or gives
        it neither case, passive voice nor past tense (the Slavic past tense: Slovene ``je
        šel`` -> ``je šla``), and where the lexicon reads it as a form of the verb: it gives
        the form the tagger's verb lemma or a lemma ending like the language's verb lemmas
        (French ``elle est arrivé`` -> ``arrivée``: ``arriver``), not an adjective lemma of
        its own (``aperto``, ``geschlossen``), unless the tagger reads a side as an adjective
        with an adjective's lemma (``contento`` VERB -> ``contenta`` ADJ ``contento``,
        ``cansado`` ADJ -> ``cansada`` VERB ``cansar``, ``gebruikt`` ADJ -> ``gebruikte``
        VERB, whose features name no agreement: the tagger's adjective reading is the
        evidence)."""
        fo, fc = features(o.feats), features(c.feats)
        forms = {fo.get("VerbForm"), fc.get("VerbForm")}
        if "Part" not in forms or not forms <= {"Part", None} or "Act" in (fo.get("Voice"),
                                                                            fc.get("Voice")):
            return False
        # the tagger's adjective reading (where the lexicon gives lemmas), unless the participle
        # lacks the case the adjective has: a predicative or impersonal verb form (Ukrainian
        # ``запрошено`` -> ``запрошені``)
        adjective = self.stems is not None and any(
            t.pos == "ADJ" and not self.words.infinitive(lemma_of(t))
            and ("Case" in f.keys() & g.keys() or "Case" not in f)
            for t, f, g in ((o, fo, fc), (c, fc, fo)))
        if not adjective and not any(
                f.get("VerbForm") == "Part" and ("Case" in f or f.get("Voice") == "Pass"
                                                 or f.get("Tense") == "Past") for f in (fo, fc)):
            return False
        differ = {k for k in fo.keys() & fc.keys() if fo[k] != fc[k]}
        if differ - AGREEMENT or not (differ or adjective):
            return False
        if self.stems is None or adjective:
            return True
        verbs = {lemma_of(t) for t in (o, c) if t.pos in ("VERB", "AUX")}
        return not any(lemma in verbs or self.words.infinitive(lemma)
                       for t in (o, c) for lemma in self.stems(t.text))

    def copula(self, o: Token, c: Token) -> bool:
        """Two auxiliaries or copulas of different lemmas (Spanish ``es`` -> ``está``, Polish
        ``był`` -> ``został``, Dutch ``heb`` -> ``ben``): both sides verbs, each tagged AUX or
        with a lemma the pack lists as AUX (taggers read a copula as VERB where it stands
        without a verb; the lexicon's lemma where it rejects the tagger's: ``estuvo``
        ``estener``), at least one of them by the pack's list. A verb for a copula
        (``is`` -> ``seems``) is not: its lemma is not listed."""
        if {o.pos, c.pos} - {"AUX", "VERB"} or lemma_of(o) == lemma_of(c):
            return False
        listed = [any("AUX" in self.words.word_classes(lemma) for lemma in self._lemmas(t))
                  for t in (o, c)]
        return any(listed) and all(t.pos == "AUX" or x for t, x in zip((o, c), listed, strict=True))

    @staticmethod
    def derived_adverb(o: Token, c: Token) -> bool:
        """An adjective and the adverb derived from it by a suffix, two lexemes (``MORPH``, as
        ERRANT types ``quick`` -> ``quickly``): Italian ``veloce`` -> ``velocemente``,
        Portuguese ``cuidadoso`` -> ``cuidadosamente``, Estonian ``kiire`` -> ``kiiresti``.
        The tagger reads one side ADJ and the other ADV, the adverb is its own lemma, and it
        continues the adjective (all of it but at most its last two letters) with at least
        three letters more: an adjective's own short or neuter form read as an adverb (Swedish
        ``snabb`` -> ``snabbt``, Ukrainian ``швидкий`` -> ``швидко``) is not derivation."""
        if {o.pos, c.pos} != {"ADJ", "ADV"}:
            return False
        adj, adv = (o, c) if o.pos == "ADJ" else (c, o)
        if lemma_of(adv) != adv.lower:
            return False
        n = common_prefix(adj.lower, adv.lower)
        return n >= max(3, len(adj.lower) - 2) and len(adv.lower) - n >= 3

    def inflection_pos(self, o: Token, c: Token, lexeme: str) -> str | None:
        """The POS naming an inflection error between two forms of one lexeme, or None
        (derivation).

        Same UPOS: that UPOS. Two UPOS of one paradigm (:meth:`paradigm_pos`): the correction's.
        Otherwise the tagger misread one side (the erroneous form especially: it is an error):
        the side whose tagger lemma the lexicon confirms is believed, the correction by default;
        with only the stem test as evidence, this needs a sign that the original's analysis is
        implausible (its lemma unconfirmed by the lexicon, or the word unknown to it), else it is
        derivation.
        """
        if o.pos == c.pos:
            return o.pos if o.pos in self.inflected_pos else None
        pos = self.paradigm_pos(o, c)
        if pos:
            return pos
        po, pc = self.plausible(o), self.plausible(c)
        if pc is False and po is not False:
            trusted = o
        elif lexeme != "stem" or po is False or (po is None and self._unknown(o)):
            trusted = c
        else:
            return None
        return trusted.pos if trusted.pos in self.inflected_pos else None

    def lexicon_pos(self, o: Token, c: Token) -> str | None:
        """One lexeme, two analyses: the tagger gives the two forms different classes and
        lemmas, but the lexicon gives both one lemma (``content`` ADV, ``contentes`` VERB
        ``contenter``: both are forms of ``content``). The class naming that lexeme: a side's
        whose tagger lemma is the shared one, in a class that inflects (not ADV); else, beside a
        participle whose verb the lexicon does not share (``contenter``), the adjective the
        participle reading stands for. None when the lexicon does not tell (then derivation)."""
        if self.stems is None:
            return None
        shared = self.stems(o.text) & self.stems(c.text)
        if not shared or not inflection_diff(o, c):
            return None
        for t in (c, o):
            if lemma_of(t) in shared and t.pos in _NOMINAL | {"VERB", "AUX"}:
                return t.pos
        for t in (c, o):
            if ("VerbForm=Part" in t.feats and lemma_of(t) not in shared
                    and {o.pos, c.pos} <= {"ADJ", "ADV", "VERB"}):
                return "ADJ"
        return None

    def paradigm_pos(self, o: Token, c: Token) -> str | None:
        """For one lexeme under two UPOS: the POS naming it when both tags belong to one
        paradigm; None otherwise.

        Nominal (NOUN PROPN ADJ DET PRON NUM): the correction's, but the agreeing class when
        Gender changes and the original's when only its analysis is plausible. Verbal (VERB,
        AUX, any form with a VerbForm feature: participles and converbs, or an adjective beside
        a plausible verb, as taggers often leave participles without VerbForm: наповнено/
        наповнене; not a word the lexicon knows only as a non-verb: Polish ``miły`` VERB
        ``mić``):
        VERB or AUX. Nominal, ADJ, DET or PRON, one side tagged a determiner or pronoun
        whose lemma the pack lists in that class (Polish ``Taki`` DET -> ``Taka`` ADJ, Spanish
        ``mucho`` PRON -> ``mucha`` DET): that side's class (the correction's where both are),
        as UD classes the word (annotators of some traditions call it an adjective)."""
        verb = next((t for t in (o, c) if t.pos in ("VERB", "AUX")), None)
        if ((verbal(o) or o.pos == "ADJ") and (verbal(c) or c.pos == "ADJ")
                and verb is not None and self._verb_lemma(verb) and not self._no_verb(verb)):
            return c.pos if c.pos in ("VERB", "AUX") else "VERB"
        if o.pos in _NOMINAL and c.pos in _NOMINAL:
            listed = [t.pos for t in (c, o) if t.pos in ("DET", "PRON") and t.pos in
                      self.words.word_classes(lemma_of(t) or t.text)]
            if listed and {o.pos, c.pos} <= {"ADJ", "DET", "PRON"}:
                return listed[0]    # a determiner or pronoun the tagger read as ADJ
            if features(o.feats).get("Gender") != features(c.feats).get("Gender"):
                # nouns do not change gender: the agreeing reading is the right one
                for t in (c, o):
                    if t.pos in _GENDER_AGREES:
                        return t.pos
            if self.plausible(c) is False and self.plausible(o):
                return o.pos
            return c.pos
        return None

    def related_forms(self, o: Token, c: Token) -> tuple[str, str] | None:
        """Two lexemes that grammar pairs as forms of one word, with the POS to name them:
        aspect partners (verbs whose lemmas differ by a short prefix, the correction with an
        Aspect: писати/написати, robić/zrobić, делать/сделать; or share a stem with Aspect
        values that differ: давати/дати), verbs whose lemmas differ by a short suffix (the
        reflexive voice: використовувати/використовуватися) and suppletive comparison from
        the pack's DEGREE lists (добрий/кращий, good/better). Lemmas are the tagger's and, for
        a form whose tagger lemma the lexicon does not give it, the lexicon's. Returns (POS,
        the feature the relation changes: Aspect, Degree or '' for voice)."""
        if verbal(o) and verbal(c):
            ao, ac = features(o.feats).get("Aspect"), features(c.feats).get("Aspect")
            pairs = [(lo, lc) for lo in self._lemmas(o) for lc in self._lemmas(c)]
            verb = c.pos if c.pos in ("VERB", "AUX") else "VERB"
            if ac and any(prefixed(lo, lc) for lo, lc in pairs):
                return verb, "Aspect"   # the original's Aspect is often misread: it is the error
            if ao and ac and ao != ac and self.same_stem is not None and any(
                    self.same_stem(lo, lc) for lo, lc in pairs):
                return verb, "Aspect"
            if o.pos == c.pos and any(suffixed(lo, lc) for lo, lc in pairs):
                return verb, ""
        if self.words.comparison(lemma_of(o) or o.lower, lemma_of(c) or c.lower) or \
                self.words.comparison(o.lower, c.lower):
            pos = c.pos if c.pos in ("ADJ", "ADV") else o.pos if o.pos in ("ADJ", "ADV") else None
            return (pos, "Degree") if pos else None
        return None

    def _no_verb(self, t: Token) -> bool:
        """The lexicon knows the form of ``t``, and none of its lemmas is a verb's (pack
        ``INFINITIVE``): a verb reading of ``t`` is the tagger's error."""
        stems = self.stems(t.text) if self.stems is not None else frozenset()
        return bool(stems) and bool(self.words.infinitives) and not any(
            self.words.infinitive(s) for s in stems)

    def _lemmas(self, t: Token) -> set[str]:
        """The tagger's lemma of ``t``, or the lexicon's when it does not confirm the tagger's."""
        lemma = lemma_of(t)
        if self.plausible(t) is False and self.stems is not None:
            return set(self.stems(t.text)) | ({lemma} if lemma else set())
        return {lemma} if lemma else set()

    def _two_words(self, o: Token, c: Token) -> bool:
        """The lexicon knows both forms, each with lemmas of its own: related but different
        words (отримаєте: отримати, отримуєте: отримувати), never a misspelling."""
        if self.stems is None:
            return False
        so, sc = self.stems(o.text), self.stems(c.text)
        return bool(so) and bool(sc) and not so & sc

    def _unknown(self, t: Token, other: Token | None = None) -> bool:
        """The lexicon rejects ``t``: not as a word of its own, nor as a compound. Beside the
        other side of the edit (``other``), a compound counts only when ``other`` is the same
        compound in another form (:func:`same_compound`: ``postkastis`` -> ``postkasti``) and
        the tagger gives both one lemma, not when the compound reading is only a way to accept
        a misspelling (Estonian ``vaatanud`` = ``vaat`` + ``anud`` beside ``vaadanud``). The
        compound search (the slow part) runs last."""
        if self.is_valid_word is None or not t.text.isalpha():
            return False
        single = getattr(self.is_valid_word, "single", None)
        if single is None:
            return not self.is_valid_word(t.text)
        if single(t.text):
            return False
        if other is not None and not (_one_word(t, other) and same_compound(
                t.text, other.text, self._single_word, self._one_lexeme, self.words.links)):
            return True
        return not self.is_valid_word(t.text)

    def _one_lexeme(self, a: str, b: str) -> bool:
        """Two words are forms of one lexeme by the lexicon (the lemmas it gives them meet,
        where its stems are lemmas: pack ``lexicon_lemmas``), else by the stem test."""
        if self.stems is not None:
            sa = self.stems(a) | self.stems(a[:1].upper() + a[1:])
            sb = self.stems(b) | self.stems(b[:1].upper() + b[1:])
            if sa and sb:
                return bool(sa & sb)
        return self.same_stem is not None and self.same_stem(a, b)

    def _single_word(self, word: str) -> bool:
        """The lexicon knows ``word`` (or it capitalised) as a word of its own."""
        single = getattr(self.is_valid_word, "single", self.is_valid_word)
        return bool(single is not None and (single(word) or single(word[:1].upper() + word[1:])))

    def _known(self, t: Token) -> bool:
        """The lexicon knows the (corrected) word, as a compound too."""
        known = getattr(self.is_valid_word, "accepts_compound", self.is_valid_word)
        return bool(known(t.text))
