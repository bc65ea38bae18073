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
    ("de", "4/4/NUM/NumType=Card", "vier/vier/NUM/NumType=Card", "R:NUM:FORM"),
    ("de", "2./2./ADJ/NumType=Ord", "zweite/zweit/ADJ/Case=Nom|Degree=Pos", "R:NUM:FORM"),
    ("de", "2/2/NUM .", "zweite/zweit/ADJ", "R:NUM:FORM"),       # ordinal stop tokenised apart
    ("sv", "tio/tio/NUM/NumType=Card", "10/10/NUM/NumType=Card", "R:NUM:FORM"),
    ("it", "21/21/NUM", "ventuno/ventuno/NUM/NumType=Card", "R:NUM:FORM"),
    ("it", "21/21/NUM", "venti/venti/NUM e/e/CCONJ uno/uno/NUM", "R:NUM:FORM"),
    ("el", "3/3/NUM", "τρία/τρία/NUM/Case=Acc|Gender=Neut", "R:NUM:FORM"),
    ("lv", "2./2./ADJ", "otrais/otrais/ADJ/NumType=Ord|Case=Nom", "R:NUM:FORM"),
    ("ru", "2-й/2-й/ADJ", "второй/второй/ADJ/Case=Nom|Gender=Masc", "R:NUM:FORM"),  # pack NUM
    ("ru", "пять/пять/NUM/Case=Nom", "5/5/NUM", "R:NUM:FORM"),
    ("fr", "1er/1er/ADJ", "premier/premier/ADJ", "R:NUM:FORM"),
    ("sl", "dve/dva/NUM/Gender=Fem", "2/2/NUM", "R:NUM:FORM"),
    # the pack's list names the word when the tagger did not (a pronoun, an adjective)
    ("uk", "1/1/NUM", "одна/один/PRON/Gender=Fem", "R:NUM:FORM"),
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
    # not a clause link: the conjunction stays (only punctuation and case change) ...
    ("de", "./. Und/und/CCONJ", "und/und/CCONJ", "U:PUNCT"),
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
