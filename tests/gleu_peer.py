"""The PyPI ``gleu`` package (1.1.0, the bench extra) run in its character mode, as a peer."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Sequence
from pathlib import Path

from .conftest import peer


def gleu_package_char(tmp_path: Path, src: Sequence[str], refs: Sequence[Sequence[str]],
                      hyp: Sequence[str]) -> tuple[str, dict[str, Path]]:
    """The package's corpus GLEU over characters (``gleu -t char -f``: 4 decimals, percent) of
    ``hyp``, and the files written for it (``src``, ``ref1``..., ``sys``) to score with errtype."""
    count = peer("gleu.count", "the bench extra installs gleu 1.1.0")
    corpus = peer("gleu.corpus_main")
    named = [("src", src), *((f"ref{i}", r) for i, r in enumerate(refs, 1)), ("sys", hyp)]
    paths = {}
    for name, lines in named:
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    caches = (count.ngram_counter, count.split_word_ngram, count.split_char_ngram)
    for fn in caches:
        fn.cache_clear()
    count.set_tokenization("char")
    try:
        args = argparse.Namespace(n=4, source_path=str(paths["src"]),
                                  ref_path_list=[str(paths[f"ref{i}"])
                                                 for i in range(1, len(refs) + 1)],
                                  hyp_path_list=[str(paths["sys"])], iter=500, digit=4, proc=1,
                                  token="char", max=False, fix_seed=True, verbose=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            corpus.corpus_main(args)
    finally:                    # the package's tokenisation and caches are module state
        count.set_tokenization("word")
        for fn in caches:
            fn.cache_clear()
    return f"{float(out.getvalue().split(chr(9))[-1]):.4f}", paths
