"""spaCy's matrix products through numpy's BLAS give blis's annotations (issue 10)."""

from __future__ import annotations

from functools import cache
from typing import Any

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


def test_blas_is_one_thread_while_parsing_and_restored_after(monkeypatch: Any) -> None:
    from threadpoolctl import threadpool_info

    _, fast = parsers()
    before = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
    seen: list[list[int]] = []
    pipe = fast.nlp.pipe

    def spy(*a: Any, **k: Any) -> Any:
        seen.append([i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"])
        return pipe(*a, **k)

    monkeypatch.setattr(fast.nlp, "pipe", spy)
    fast.batch_size = 2  # several chunks, each under the limit
    try:
        out = list(fast.parse_many(SENTENCES))
    finally:
        fast.batch_size = 256
    assert len(out) == len(SENTENCES) and len(seen) == 3
    assert all(set(threads) <= {1} for threads in seen)
    assert [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"] == before


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
