"""GLEU against the PyPI ``gleu`` 1.1.0 package (the bench extra) on JFLEG dev.

``gleu -f`` emulates the Python-2 reference draws of the official script (METRICS.md §2.3), as
errtype's default does; both must give the same corpus score to 4 decimals.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest

from errtype.score.ngram.gleu import GLEU, read_gleu_inputs

from .conftest import peer, shared_path


def _peer_gleu(src: Path, refs: list[Path], hyp: Path) -> str:
    count = peer("gleu.count", "the bench extra installs gleu 1.1.0")
    corpus = peer("gleu.corpus_main")
    for fn in (count.ngram_counter, count.split_word_ngram, count.split_char_ngram):
        fn.cache_clear()
    count.set_tokenization("word")
    args = argparse.Namespace(n=4, source_path=str(src), ref_path_list=[str(r) for r in refs],
                              hyp_path_list=[str(hyp)], iter=500, digit=4, proc=1,
                              token="word", max=False, fix_seed=True, verbose=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        corpus.corpus_main(args)
    return out.getvalue().split("\t")[-1].strip()


@pytest.mark.slow
@pytest.mark.parametrize("system", ["dev.src", "dev.spellchecked.src"])
def test_jfleg_dev_same_as_gleu_package(system: str) -> None:
    src = shared_path("jfleg", "dev.src")
    refs = [shared_path("jfleg", f"dev.ref{i}") for i in range(4)]
    hyp = shared_path("jfleg", system)
    sources, references, hyps = read_gleu_inputs(src, refs, hyp)
    ours = f"{100 * GLEU().score(sources, references, hyps).corpus['gleu']:.4f}"
    theirs = f"{float(_peer_gleu(src, refs, hyp)):.4f}"  # the package prints percentages
    assert ours == theirs
    if system == "dev.src":
        assert ours == "38.2146"  # the official figure (METRICS.md §2.2)
