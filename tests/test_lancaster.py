"""Tests for the Lancaster (Paice/Husk) stemmer (must equal NLTK's ``LancasterStemmer()``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.lang.en.lancaster import RULES, stem

from .conftest import peer

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = Path(__file__).with_name("data") / "lancaster_expected.tsv"
WORDLIST = ROOT / "resources" / "en_GB-large.txt"


def _load_expected() -> list[tuple[str, str]]:
    """(word, stem) pairs generated with nltk (see the header of the data file)."""
    pairs = []
    for line in EXPECTED.read_text(encoding="utf-8").split("\n"):
        if not line or line.startswith("# "):
            continue
        word, expected = line.split("\t")
        pairs.append((word, expected))
    return pairs


EXPECTED_PAIRS = _load_expected()


def test_expected_table_size() -> None:
    assert len(EXPECTED_PAIRS) >= 300


@pytest.mark.parametrize(("word", "expected"), EXPECTED_PAIRS)
def test_expected_stems(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_table_covers_every_rule_ending() -> None:
    words = [w.lower() for w, _ in EXPECTED_PAIRS]
    for rule in RULES:
        assert any(w.endswith(rule.ending) for w in words), rule


def test_rule_table_shape() -> None:
    assert len(RULES) == 115
    assert sum(r.intact_only for r in RULES) == 7


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("", ""),
        ("maximum", "maxim"),  # "ium"/"um*" only on intact words
        ("Running", "run"),  # lower-cased, "ing" then "nn"
        ("sofa", "sof"),  # intact "a*"
        ("is", "is"),  # vowel-initial word must keep 2 letters
        ("try", "try"),  # consonant-initial word must keep 3 letters
        ("x-ray", "x-ray"),  # rules keyed on the leading run of letters
        ("'tis", "'tis"),  # leading non-letter: unchanged
    ],
)
def test_edge_cases(word: str, expected: str) -> None:
    assert stem(word) == expected


@pytest.mark.slow
def test_matches_nltk_on_wordlist() -> None:
    """Compare with nltk on every (lower-cased) word of the bundled speller list."""
    nltk_stem = peer("nltk.stem", "the bench extra installs nltk for this cross-check")
    reference = nltk_stem.LancasterStemmer()
    words = WORDLIST.read_text(encoding="utf-8").splitlines()
    assert len(words) == 170565
    mismatches = [
        (w, stem(w), reference.stem(w))
        for w in (x.lower() for x in words)
        if stem(w) != reference.stem(w)
    ]
    assert not mismatches, f"{len(mismatches)} of {len(words)} differ, e.g. {mismatches[:10]}"
