"""Czech component oracles: stemmer, weighted char cost, substitution table, transposition test,
ASCII folding (the unidecode behaviour DIACR/QUOTATION depend on)."""

from __future__ import annotations

import ast
import csv
from pathlib import Path

import pytest

from errtype.lang.cs.charcost import (
    CZ_LOWER,
    CZ_UPPER,
    difflib_cost,
    sub_cost,
    symbol,
    weighted_char_cost,
)
from errtype.lang.cs.diacritics import ascii_fold, same_ascii, strip_quotes
from errtype.lang.cs.stemmer import cz_stem
from errtype.lang.cs.transposition import is_transposition_compatible

from .conftest import shared_path


def _rows(name: str) -> list[list[str]]:
    path: Path = shared_path("oracles", "cs_oracles", name)
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]


def test_stemmer_oracle() -> None:
    rows = _rows("czech_stemmer_oracle.tsv")
    assert len(rows) == 156
    bad = [(w, light, aggr, cz_stem(w, False), cz_stem(w, True)) for w, light, aggr in rows
           if cz_stem(w, aggressive=False) != light or cz_stem(w, aggressive=True) != aggr]
    assert bad == []


def test_char_cost_oracle() -> None:
    rows = _rows("czech_char_cost_oracle.tsv")
    assert rows
    for a, b, weighted, ratio, _indel in rows:
        assert f"{weighted_char_cost(a, b):.10f}" == weighted, (a, b)
        assert f"{1 - difflib_cost(a, b):.10f}" == ratio, (a, b)


def test_substitution_table_oracle() -> None:
    expected = {(ast.literal_eval(a), ast.literal_eval(b)): float(c)
                for a, b, c in _rows("czech_substitution_costs_non_unit.tsv")}
    alphabet = [chr(0), *map(chr, range(31, 128)), *CZ_LOWER, *CZ_UPPER]
    got = {(x, y): sub_cost(x, y) for x in alphabet for y in alphabet
           if x != y and sub_cost(x, y) != 1.0}
    assert got == expected
    assert sorted(_counts(got)) == [(0.1, 82), (0.2, 60), (0.3, 16)]


def _counts(d: dict) -> list[tuple[float, int]]:
    out: dict[float, int] = {}
    for v in d.values():
        out[v] = out.get(v, 0) + 1
    return list(out.items())


def test_transposition_oracle() -> None:
    rows = _rows("czech_transposition_oracle.tsv")
    assert len(rows) == 14
    for src, tgt, expected in rows:
        assert str(is_transposition_compatible(src.split(), tgt.split())) == expected, (src, tgt)


def test_unidecode_oracle() -> None:
    for ch, _cp, translit in _rows("unidecode_oracle_v1.4.0.tsv"):
        assert ascii_fold(ch) == translit, ch


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Bydlim", "Bydlím", 1 - 10 / 12), ("abbaa", "baccaab", 1 - 1 / 3),
])
def test_difflib_cost_hand_values(a: str, b: str, expected: float) -> None:
    """1 - 2M/T by hand (M characters in difflib's matching blocks, T both lengths): M = 5,
    T = 12 for "Bydlim"/"Bydlím"; M = 4, T = 12 for "abbaa"/"baccaab"."""
    assert difflib_cost(a, b) == pytest.approx(expected)


def test_other_non_ascii_collapse() -> None:
    assert symbol("ü") == symbol("ö") == symbol("„") == "\x7f"
    assert weighted_char_cost("ü", "ö") == 0.0
    assert weighted_char_cost("", "") == 0.0
    assert weighted_char_cost("a", "bcd") == 1.5


def test_stemmer_input_handling() -> None:
    assert cz_stem("hrad-") == "hrad-"
    assert cz_stem("iPhone") == "iPhone"
    assert cz_stem("PRAHA") == "PRAH"
    assert cz_stem("Praha") == "Prah"


def test_transposition_edge_cases() -> None:
    assert not is_transposition_compatible(["a"], ["a"])
    assert not is_transposition_compatible(["a", "b"], ["b"])
    # long windows: exact case-insensitive reordering only
    assert is_transposition_compatible(list("abcdef"), list("FEDCBA"))
    assert not is_transposition_compatible(list("abcdef"), list("fedcbá"))


@pytest.mark.parametrize(("a", "b", "diacr"), [
    ("kratka veta", "krátká věta", True),
    ("-", "\u2013", True),            # en dash -> "-"
    ("...", "\u2026", True),          # ellipsis
    ("ss", "\u00df", True),
    ('"', "\u201c", True),
    ("'", "\u2019", True),
    ('"', "\u201e", False),           # „ -> ",,"
    ("praha", "Praha", False),        # case is kept
    ("a\u0301", "á", True),           # combining accent
    ("radost\u2665", "radost", True),  # pictographs are dropped (GECCC: R:DIACR)
    ("\u263bSituace", "Situace", True),
    ("\u2192", "", False),
])
def test_diacritic_rule_quirks(a: str, b: str, diacr: bool) -> None:
    assert same_ascii(a, b) is diacr


def test_strip_quotes() -> None:
    assert strip_quotes('„ ahoj “') == "ahoj" == strip_quotes('" ahoj "')
    assert strip_quotes("\u201d") == "\u201d"
