"""Annotator.annotate_stream: skip/dedupe parsing with byte-identical M2 on real data, error
isolation, transform, forked workers (ordered, bounded), pre-parsed Sentence input."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import errtype
from errtype.cli import m2 as cli
from errtype.convert import parallel_to_m2
from errtype.errors import AnnotationError
from errtype.m2 import edits_to_m2_lines, format_block
from errtype.tokens import Sentence

from .conftest import shared_path


@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


class Spy:
    """A parser wrapper recording every text parsed."""

    def __init__(self, parser: object, segment: bool = True) -> None:
        self.parser = parser
        self.parsed: list[str] = []
        if segment:
            self.segment = parser.segment  # type: ignore[attr-defined]

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        self.parsed.append(text)
        return self.parser.parse(text, tokenize)  # type: ignore[attr-defined]

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        texts = list(texts)
        self.parsed.extend(texts)
        return self.parser.parse_many(texts, tokenize)  # type: ignore[attr-defined]


def unoptimised_m2(annotator: errtype.Annotator, items: list[tuple[str, list[str]]],
                   tokenize: bool) -> str:
    """The reference: every text of every item parsed in one batch, blocks as ERRANT-style noop
    rule of parallel_to_m2 (noop line for token-identical corrections and for no edits)."""
    texts = [t for o, cs in items for t in (o, *cs)]
    parsed = iter(list(annotator.parser.parse_many(texts, tokenize)))
    out = []
    for _, cs in items:
        o = next(parsed)
        lines = []
        for i in range(len(cs)):
            c = next(parsed)
            edits = [] if o.texts == c.texts else annotator.annotate(o, c)
            lines.extend(edits_to_m2_lines(edits, i))
        out.append(format_block(o.text, lines))
    return "".join(out)


def real_items(n_jfleg: int, n_conll: int) -> list[tuple[str, list[str]]]:
    jfleg = shared_path("jfleg")
    src = (jfleg / "dev.src").read_text(encoding="utf-8").splitlines()[:n_jfleg]
    refs = [(jfleg / f"dev.ref{i}").read_text(encoding="utf-8").splitlines() for i in range(4)]
    items = [(s.strip(), [r[k].strip() for r in refs]) for k, s in enumerate(src)]
    systems = shared_path("conll14", "systems")
    inp = (systems / "INPUT").read_text(encoding="utf-8").splitlines()[:n_conll]
    outs = [(systems / s).read_text(encoding="utf-8").splitlines() for s in ("AMU", "CAMB", "CUUI")]
    items += [(s.strip(), [o[k].strip() for o in outs]) for k, s in enumerate(inp)]
    return items


def write_items(tmp_path: Path, items: list[tuple[str, list[str]]]) -> list[str]:
    n = len(items[0][1])
    columns = [[o for o, _ in items]] + [[cs[i] for _, cs in items] for i in range(n)]
    paths = []
    for i, col in enumerate(columns):
        p = tmp_path / f"f{i}.txt"
        p.write_text("".join(x + "\n" for x in col), encoding="utf-8")
        paths.append(str(p))
    return paths


@pytest.mark.parametrize("tokenize", [False, True], ids=["pretokenised", "tok"])
def test_skip_and_dedupe_are_byte_identical_on_real_data(
        en: errtype.Annotator, tmp_path: Path, tokenize: bool) -> None:
    # jfleg: 4 references per sentence; CoNLL-2014 system outputs: many unchanged sentences
    items = [(o, cs[:3]) for o, cs in real_items(120, 240)]
    paths = write_items(tmp_path, items)
    spy = Spy(en.parser)
    fast = errtype.Annotator(en.language, parser=spy)
    out = tmp_path / "out.m2"
    parallel_to_m2(fast, paths[0], paths[1:], out, tokenize=tokenize, batch_size=64)
    assert out.read_text(encoding="utf-8") == unoptimised_m2(en, items, tokenize)
    every = sum(1 + len(cs) for _, cs in items)
    noop_only = sum(all(c.split() == o.split() for c in cs) for o, cs in items)
    assert noop_only > 10  # the data exercises the skip (CoNLL systems leave sentences as is)
    assert len(spy.parsed) == len(set(spy.parsed))  # no text parsed twice within a batch
    assert len(spy.parsed) <= every - noop_only * 4  # noop-only items are never parsed


def test_parse_noops_gives_parsed_sentences(en: errtype.Annotator) -> None:
    [fast] = en.annotate_stream([("He  went home .", ["He went home ."])])
    [full] = en.annotate_stream([("He  went home .", ["He went home ."])], parse_noops=True)
    assert fast.noop == full.noop == [True] and fast.edits == full.edits == [[]]
    assert fast.orig.texts == full.orig.texts and fast.orig[1].pos == ""
    assert full.orig[1].pos == "VERB" and full.cors[0][1].lemma == "go"


def test_parser_without_segment_still_dedupes(en: errtype.Annotator) -> None:
    spy = Spy(en.parser, segment=False)
    ann = errtype.Annotator(en.language, parser=spy)
    items = [("A b .", ["A b .", "A  b ."]), ("A b .", "A c .")]
    results = list(ann.annotate_stream(items))
    assert sorted(spy.parsed) == ["A  b .", "A b .", "A c ."]
    assert [r.noop for r in results] == [[True, True], [False]]


def test_failures_are_isolated_with_their_index(en: errtype.Annotator,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    real = errtype.Annotator.annotate

    def flaky(self, orig, cor, *options):  # noqa: ANN001, ANN002, ANN202
        if "boom" in cor.texts:
            raise RuntimeError("tagger exploded")
        return real(self, orig, cor, *options)

    monkeypatch.setattr(errtype.Annotator, "annotate", flaky)
    items = [("a .", "a !"), ("b .", ["b !", "boom ."]), ("c d e f", "c d e g")]
    with pytest.raises(AnnotationError) as info:
        list(en.annotate_stream(items, batch_size=2))
    assert info.value.index == 1 and info.value.reason == "RuntimeError: tagger exploded"
    results = list(en.annotate_stream(items, batch_size=2, on_error="skip", max_tokens=3))
    assert [r.error for r in results] == [
        None, "RuntimeError: tagger exploded", "more than 3 tokens (the max_tokens limit)"]
    assert results[1].orig.texts == ("b", ".") and results[1].edits == [[], []]
    assert results[0].edits[0][0].c_str == "!"


def test_bad_options_fail_early(en: errtype.Annotator) -> None:
    with pytest.raises(ValueError, match="on_error"):
        en.annotate_stream([], on_error="ignore")
    with pytest.raises(ValueError, match="merging"):
        en.annotate_stream([], merging="nope")
    with pytest.raises(ValueError, match="batch_size"):
        list(en.annotate_stream([("a", "b")], batch_size=0))


def test_sentences_are_used_as_given(en: errtype.Annotator) -> None:
    o, c = en.parse("He go home ."), en.parse("He goes home .")
    spy = Spy(en.parser)
    ann = errtype.Annotator(en.language, parser=spy)
    [r] = ann.annotate_stream([(o, [c, o, "He went home ."])])
    assert spy.parsed == ["He went home ."]
    assert r.orig is o and r.noop == [False, True, False]
    assert r.edits[0][0].type == "R:VERB:SVA" and r.edits[2][0].type == "R:VERB:TENSE"


def test_transform_runs_per_item(en: errtype.Annotator) -> None:
    items = [("a cat .", "the cat ."), ("x", ["x", "y"])]
    out = list(en.annotate_stream(items, transform=lambda ann, item: (item[0], len(ann.edits))))
    assert out == [("a cat .", 1), ("x", 2)]


def test_workers_are_ordered_identical_and_bounded(en: errtype.Annotator) -> None:
    items = [(f"He go to school number {i} .", [f"He goes to school number {i} .", "Fine ."])
             for i in range(30)] + [("", "New ."), ("Fine .", "Fine .")]
    one = list(en.annotate_stream(items, batch_size=4))
    two = list(en.annotate_stream(items, batch_size=4, jobs=2))
    assert [(a.orig, a.cors, a.edits, a.noop) for a in one] == \
        [(a.orig, a.cors, a.edits, a.noop) for a in two]
    consumed = 0

    def gen() -> Iterator[tuple[str, str]]:
        nonlocal consumed
        for i in range(10_000):
            consumed += 1
            yield (f"a b {i} .", f"a c {i} .")

    stream = en.annotate_stream(gen(), batch_size=8, jobs=2)
    next(stream)
    assert consumed <= 8 * (2 * 2 + 1)  # at most 2 * jobs batches in flight, one being read
    stream.close()


def test_worker_tasks_are_small_whatever_the_batch_size(en: errtype.Annotator) -> None:
    """Workers get at most WORKER_TASK items at a time, so two finish a run together."""
    from errtype import stream

    sizes: list[int] = []
    items = [(f"a {i} .", f"b {i} .") for i in range(3 * stream.WORKER_TASK + 5)]
    original = stream._in_workers

    def spy(annotator, batches, *rest):  # type: ignore[no-untyped-def]
        def counted():  # type: ignore[no-untyped-def]
            for batch in batches:
                sizes.append(len(batch))
                yield batch
        return original(annotator, counted(), *rest)

    stream._in_workers = spy
    try:
        out = list(en.annotate_stream(items, batch_size=512, jobs=2))
    finally:
        stream._in_workers = original
    assert len(out) == len(items)
    assert sizes == [stream.WORKER_TASK] * 3 + [5]


def test_collector_is_paused_per_batch_and_restored(en: errtype.Annotator,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from errtype import stream

    seen: list[bool] = []
    original = stream.annotate_batch

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(stream, "annotate_batch", spy)
    assert gc.isenabled()
    list(en.annotate_stream([("a cat .", "the cat .")] * 3, batch_size=2))
    assert seen == [False, False] and gc.isenabled()
    with pytest.raises(AnnotationError):  # an error inside a batch restores it too
        list(en.annotate_stream([(None, "x")]))  # type: ignore[list-item]
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        list(en.annotate_stream([("a cat .", "the cat .")]))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_worker_failure_names_the_item(en: errtype.Annotator) -> None:
    items = [("a .", "a !")] * 9 + [("b .", "b |||")] + [("c .", "c !")] * 5
    texts = [("a .", "a !")] * 9 + [(None, "x")]  # not a string: fails inside the worker
    with pytest.raises(AnnotationError) as info:
        list(en.annotate_stream(texts, batch_size=4, jobs=2))
    assert info.value.index == 9
    assert len(list(en.annotate_stream(items, batch_size=4, jobs=2))) == 15


def test_cli_jobs_identical_on_real_data(tmp_path: Path) -> None:
    items = [(o, cs[:3]) for o, cs in real_items(60, 120)]
    paths = write_items(tmp_path, items)
    one, two = tmp_path / "one.m2", tmp_path / "two.m2"
    args = ["-orig", paths[0], "-cor", *paths[1:], "-q", "--batch-size", "16"]
    assert cli.main([*args, "-out", str(one)]) == 0
    assert cli.main([*args, "-out", str(two), "-j", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert one.read_text(encoding="utf-8").count("\n\n") == len(items)
