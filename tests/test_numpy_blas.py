"""spaCy's matrix products through numpy's BLAS give blis's annotations (issue 10), and every
parse, batch or single sentence, runs under one BLAS thread policy (issue 21)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from errtype.lang.en import English
from errtype.parse.spacy import SpacyParser, use_numpy_blas

from .conftest import shared_path

#: sentences written here (learner-like errors, punctuation, numbers, long and short)
SENTENCES = [
    "He go to school every days .",
    "Their is many reason why peoples likes to travelling abroad , I think .",
    "The results was published in 2014 and 3.5 % of the 1,000 participant disagree .",
    "Yes .",
    "Although she had not ate anything since morning , she refused the sandwich which "
    "I have offered her , because she was afraid that it contain peanuts and she is allergic .",
    "Mr. Smith 's dog barked at the the postman ; nobody knows why !",
]


@cache
def parsers() -> tuple[SpacyParser, SpacyParser]:
    """(blis, numpy BLAS) default English parsers."""
    return English().make_parser(numpy_blas=False), English().make_parser()


def layer_ops(nlp: Any) -> set[tuple[str, bool]]:
    return {(type(node.ops).__name__, getattr(node.ops, "use_blis", None))
            for _, pipe in nlp.pipeline if hasattr(getattr(pipe, "model", None), "walk")
            for node in pipe.model.walk()}


def test_default_switches_every_layer_and_opt_out_keeps_blis() -> None:
    blis, fast = parsers()
    assert layer_ops(fast.nlp) == {("NumpyOps", False)}
    assert layer_ops(blis.nlp) == {("NumpyOps", True)}
    assert use_numpy_blas(fast.nlp) == 0  # nothing left to switch


def test_annotations_identical_on_written_sentences() -> None:
    blis, fast = parsers()
    assert list(fast.parse_many(SENTENCES)) == list(blis.parse_many(SENTENCES))
    assert [fast.parse(s) for s in SENTENCES] == [blis.parse(s) for s in SENTENCES]


#: a component recording the BLAS thread counts it runs under
PROBE = "errtype_test_blas_probe"
SEEN: list[list[int]] = []


def blas_threads() -> list[int]:
    from threadpoolctl import threadpool_info

    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


@cache
def _register_probe() -> None:
    from spacy.language import Language

    @Language.component(PROBE)
    def probe(doc: Any) -> Any:
        SEEN.append(blas_threads())
        return doc


@contextmanager
def probed(nlp: Any) -> Iterator[list[list[int]]]:
    """The pipeline with the probe as its last component, while inside; two BLAS threads
    outside every parse (so that a parse's limit is visible)."""
    from threadpoolctl import threadpool_limits

    _register_probe()
    nlp.add_pipe(PROBE, last=True)
    SEEN.clear()
    try:
        with threadpool_limits(2, user_api="blas"):
            assert blas_threads() and set(blas_threads()) == {2}
            yield SEEN
            assert set(blas_threads()) == {2}  # restored after every parse
    finally:
        nlp.remove_pipe(PROBE)


def test_every_parse_runs_with_one_blas_thread() -> None:
    """Batch and single-sentence paths alike: parse_many, parse, parse_doc, Annotator.annotate
    on strings, errtype.annotate-style use, and the ERRANT shim's parse + annotate."""
    import errtype
    from errtype.errant.annotator import Annotator as Shim

    engine = errtype.load("en")
    shim = Shim("en", engine=engine)
    parser = engine.parser
    with probed(parser.nlp) as seen:
        parser.batch_size = 2  # several chunks, each under the limit
        try:
            assert len(list(parser.parse_many(SENTENCES))) == len(SENTENCES)
        finally:
            parser.batch_size = 256
        parser.parse(SENTENCES[0])
        parser.parse_doc(SENTENCES[0])
        engine.annotate("He go home .", "He goes home .")
        for i in range(3):  # a client loop over the drop-in (distinct texts: each is parsed)
            shim.annotate(shim.parse(f"This are a example {i} ."),
                          shim.parse(f"This is an example {i} ."))
    assert len(seen) == len(SENTENCES) + 1 + 1 + 2 + 6
    assert all(set(threads) == {1} for threads in seen)


def _worker_threads(annotation: Any, item: Any) -> tuple[list[int], int]:
    """(BLAS thread counts, OS threads of this process), recorded in a -j worker."""
    import os

    return blas_threads(), len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_workers_are_forked_under_the_policy_and_start_no_blas_threads() -> None:
    """``-j``: the workers inherit the one-thread setting and never change it, so OpenBLAS (whose
    threads a fork does not copy) starts no busy-waiting thread in them; the caller's setting
    is back when the stream ends."""
    from threadpoolctl import threadpool_info, threadpool_limits

    import errtype

    engine = errtype.load("en")
    items = [(f"He go to school number {i} .", f"He goes to school number {i} .")
             for i in range(12)]
    openblas = any(i["internal_api"] == "openblas" for i in threadpool_info()
                   if i["user_api"] == "blas")
    with threadpool_limits(2, user_api="blas"):
        seen = list(engine.annotate_stream(items, batch_size=3, jobs=2,
                                           transform=_worker_threads))
        assert set(blas_threads()) == {2}
    assert len(seen) == len(items)
    assert all(set(threads) == {1} for threads, _ in seen)
    if openblas:
        assert {tasks for _, tasks in seen} == {1}


def test_the_policy_has_an_escape_hatch(monkeypatch: Any) -> None:
    from errtype.parse.blas import ENV

    _, fast = parsers()
    with probed(fast.nlp) as seen:
        SpacyParser(fast.nlp, blas_threads=None).parse(SENTENCES[0])
        monkeypatch.setenv(ENV, "none")
        SpacyParser(fast.nlp).parse(SENTENCES[0])
        monkeypatch.setenv(ENV, "1")
        SpacyParser(fast.nlp).parse(SENTENCES[0])
    assert seen == [[2] * len(seen[0]), [2] * len(seen[0]), [1] * len(seen[0])]
    monkeypatch.setenv(ENV, "zero")
    with pytest.raises(ValueError, match=ENV):
        SpacyParser(fast.nlp)
    with pytest.raises(ValueError, match="at least 1"):
        SpacyParser(fast.nlp, blas_threads=0)


def test_the_limit_is_reentrant_and_restores_the_outer_setting() -> None:
    from threadpoolctl import threadpool_limits

    from errtype.parse.blas import BlasThreads

    with threadpool_limits(2, user_api="blas"):
        outer, inner = BlasThreads(1), BlasThreads(1)
        with outer:
            with inner:
                assert set(blas_threads()) == {1}
            assert set(blas_threads()) == {1}
        assert set(blas_threads()) == {2}


def test_a_blas_loaded_after_the_first_parse_is_limited_too() -> None:
    """The libraries are looked up again after an import: SciPy's OpenBLAS, which scikit-learn
    (``errtype fit``) loads, was left at the outer thread count by parses that followed it."""
    import subprocess
    import sys

    code = """
import sys
from threadpoolctl import threadpool_info, threadpool_limits
from errtype.parse.blas import BlasThreads, blas_libraries
blas_libraries()
import scipy.linalg  # loads another BLAS where SciPy ships its own
with threadpool_limits(2, user_api="blas"):
    with BlasThreads(1):
        inside = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
    after = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
print(len([i for i in threadpool_info() if i["user_api"] == "blas"]), sorted(inside), sorted(after))
"""
    try:
        import scipy  # noqa: F401
    except ImportError:
        pytest.skip("SciPy is not installed (it comes with the profile extra's scikit-learn)")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root).stdout.split(maxsplit=1)
    assert out[1].strip() == "[1] [2]", out


@pytest.mark.slow
def test_annotations_identical_on_real_corpora() -> None:
    """Every CoNLL-2014 source sentence and AMU output (2,624 sentences): the same tokens,
    tags, POS, lemmas, features, dependencies and heads with numpy's BLAS as with blis."""
    texts: list[str] = []
    for system in ("INPUT", "AMU"):
        path = shared_path("conll14", "systems", system)
        texts += [t for t in path.read_text(encoding="utf-8").splitlines() if t.split()]
    blis, fast = parsers()
    assert list(fast.parse_many(texts)) == list(blis.parse_many(texts))


def test_blis_switch_reaches_every_spacy_loader() -> None:
    """``--blis`` / ``numpy_blas=False`` keeps blis for English, Czech and UD spaCy pipelines."""
    import argparse

    import errtype
    from errtype.cli.common import add_backend_options, backend_options

    ap = argparse.ArgumentParser()
    add_backend_options(ap)
    assert backend_options(ap.parse_args(["--blis"])) == {"numpy_blas": False}
    assert backend_options(ap.parse_args([])) == {}
    assert layer_ops(errtype.load("en", numpy_blas=False).parser.nlp) == {("NumpyOps", True)}
    for lang, model in (("cs", "cs_core_news_sm"), ("fr", "fr_core_news_sm")):
        for blas, expected in ((False, {("NumpyOps", True)}), (True, {("NumpyOps", False)})):
            parser = errtype.load(lang, backend="spacy", spacy_model=model,
                                  numpy_blas=blas).parser
            nlp = getattr(parser, "parser", parser).nlp  # Czech wraps it in UD25Compat
            assert layer_ops(nlp) == expected, (lang, blas)
