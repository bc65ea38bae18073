"""MultiGEC-2025 Markdown essays (errtype.essay.multigec) and the essay sets of bench/essay_corpus.

The format and the official reading are those of MultiGEC-2025's ``data_format.md`` and
``scripts/multigec_2025_utils.py`` (``md_to_dict``: split on ``### essay_id = ``, id = rest of the
line, text stripped of newlines; ``dict_to_md``: ``### essay_id = ID\\nTEXT\\n\\n``).
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

from errtype.errors import InputError
from errtype.essay import (
    OFFICIAL_MISSING_HYPOTHESIS,
    Essay,
    hypothesis_text,
    is_multigec,
    parse_name,
    read_metadata,
    read_multigec,
    read_parallel_essays,
    write_multigec,
)
from errtype.essay.multigec import format_multigec

from .conftest import bench_module, shared_path

ESSAYS = [Essay("1", "First line.\n\nSecond paragraph,  two spaces. "),
          Essay("b 2", "  Indented start\n\ttab line"),
          Essay("3", "")]


def official_md_to_dict(md: str) -> dict[str, str]:
    """The official reading (``multigec_2025_utils.md_to_dict``), restated for comparison."""
    out = {}
    for essay in md.split("### essay_id = ")[1:]:
        essay_id, text = essay.split("\n", maxsplit=1)
        out[essay_id] = text.strip("\n")
    return out


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


# --------------------------------------------------------------------------- round trip


def test_round_trip_exact(tmp_path: Path) -> None:
    p = tmp_path / "x.md"
    assert write_multigec(p, ESSAYS) == 3
    text = p.read_text(encoding="utf-8")
    assert text == "".join(f"### essay_id = {e.id}\n{e.text}\n\n" for e in ESSAYS)
    assert read_multigec(p) == ESSAYS
    assert official_md_to_dict(text) == {e.id: e.text for e in ESSAYS}
    q = tmp_path / "y.md"
    write_multigec(q, read_multigec(p))
    assert q.read_bytes() == p.read_bytes()


def test_write_to_stream_and_refusals() -> None:
    buf = io.StringIO()
    write_multigec(buf, ESSAYS[:1])
    assert buf.getvalue().startswith("### essay_id = 1\nFirst line.")
    for bad in (Essay("", "x"), Essay("a\nb", "x"), Essay("1", "\nleading newline"),
                Essay("1", "trailing newline\n"), Essay("1", "a ### essay_id = 2 b"),
                Essay("1", "crlf\r\nline")):
        with pytest.raises(ValueError):
            format_multigec([bad])
    with pytest.raises(ValueError, match="duplicate"):
        format_multigec([Essay("1", "a"), Essay("1", "b")])


def test_write_is_atomic(tmp_path: Path) -> None:
    p = write(tmp_path / "x.md", "### essay_id = 1\nkept\n\n")
    with pytest.raises(ValueError):
        write_multigec(p, [Essay("1", "ok"), Essay("2", "\nbad")])
    assert p.read_text() == "### essay_id = 1\nkept\n\n"
    assert [f.name for f in tmp_path.iterdir()] == ["x.md"]


def test_reading_matches_official(tmp_path: Path) -> None:
    """Separators found in the wild: one, two or three blank lines, none at the end, CRLF, BOM."""
    text = ("\ufeff\n### essay_id = a\n\n\nText a\n  kept indent\n\n\n\n### essay_id = b\nText b"
            "\n### essay_id = c\n\nText c\n")
    p = write(tmp_path / "w.md", text)
    essays = read_multigec(p)
    assert {e.id: e.text for e in essays} == official_md_to_dict(text.lstrip("\ufeff"))
    assert [e.id for e in essays] == ["a", "b", "c"]
    q = write(tmp_path / "crlf.md", text.replace("\n", "\r\n"))
    assert read_multigec(q) == essays


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("text", "line", "message"), [
    ("stray text\n### essay_id = 1\nx\n", 1, "before the first essay header"),
    ("\n\n### essay_id = 1\nx\n\n### essay_id = 2\ny\n\n### essay_id = 1\nz\n", 9,
     "duplicate essay id '1' \\(first at line 3\\)"),
    ("### essay_id = 1\nx\n###essay_id=2\ny\n", 3, "malformed essay header"),
    ("### essay_id = 1\nx ### essay_id = 2\n", 2, "inside a line"),
    ("### essay_id = \nx\n", 1, "without an id"),
])
def test_bad_input_names_file_and_line(tmp_path: Path, text: str, line: int,
                                       message: str) -> None:
    p = write(tmp_path / "bad.md", text)
    with pytest.raises(InputError, match=message) as exc:
        read_multigec(p)
    assert exc.value.path == str(p)
    assert exc.value.line == line
    assert str(exc.value).startswith(f"{p}, line {line}:")


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    p = write(tmp_path / "empty.md", text)
    with pytest.raises(InputError, match="no essays") as exc:
        read_multigec(p)
    assert exc.value.path == str(p)


def test_encoding_errors(tmp_path: Path) -> None:
    p = tmp_path / "latin.md"
    p.write_bytes(b"### essay_id = 1\ncaf\xe9\n")
    with pytest.raises(InputError, match="line 2"):
        read_multigec(p)
    assert read_multigec(p, encoding_errors="replace") == [Essay("1", "caf\ufffd")]


# --------------------------------------------------------------------------- detection


def test_detection_by_content(tmp_path: Path) -> None:
    yes = write(tmp_path / "essays.txt", "\n\n### essay_id = 7\nText\n")
    assert is_multigec(yes)
    assert is_multigec(write(tmp_path / "noext", "\ufeff### essay_id = x\n"))
    assert is_multigec(write(tmp_path / "crlf.m2", "### essay_id = x\r\ntext\r\n"))
    for i, text in enumerate(["# Title\n### essay_id = 1\n", "S a b\nA 0 1|||R|||c|||REQUIRED"
                              "|||-NONE-|||0\n", "### essay_id =\n", "plain text\n", ""]):
        assert not is_multigec(write(tmp_path / f"no{i}.md", text))
    assert not is_multigec(tmp_path)  # a folder
    assert not is_multigec(tmp_path / "missing.md")


def test_detection_reads_only_the_start(tmp_path: Path) -> None:
    p = tmp_path / "big.md"
    p.write_bytes(b"### essay_id = 1\n" + b"x" * 10_000_000)
    assert is_multigec(p)  # would be slow (and fail the 64 KiB head read) if it read it all


# --------------------------------------------------------------------------- parallel files


def test_parallel_missing_essays(tmp_path: Path) -> None:
    orig = tmp_path / "xx-c-orig-dev.md"
    write_multigec(orig, [Essay("1", "a"), Essay("2", "b"), Essay("3", "c")])
    ref1 = tmp_path / "xx-c-ref1-dev.md"
    write_multigec(ref1, [Essay("3", "C"), Essay("1", "A"), Essay("2", "B")])  # any order
    ref2 = tmp_path / "xx-c-ref2-dev.md"
    write_multigec(ref2, [Essay("2", "B2")])
    rows = read_parallel_essays(orig, [ref1, ref2])
    assert [r.id for r in rows] == ["1", "2", "3"]
    assert rows[0] == ("1", "a", ["A", None])
    assert rows[1].corrections == ["B", "B2"]
    assert [r.references() for r in rows] == [["A"], ["B", "B2"], ["C"]]
    assert hypothesis_text(rows[0].corrections[1]) == OFFICIAL_MISSING_HYPOTHESIS == "!"
    assert hypothesis_text("text") == "text"


def test_parallel_unknown_id(tmp_path: Path) -> None:
    orig = tmp_path / "orig.md"
    write_multigec(orig, [Essay("1", "a")])
    hyp = write(tmp_path / "hyp.md", "### essay_id = 1\nA\n\n### essay_id = 9\nZ\n")
    with pytest.raises(InputError, match="essay id '9' is not in") as exc:
        read_parallel_essays(orig, [hyp])
    assert (exc.value.path, exc.value.line) == (str(hyp), 4)


# --------------------------------------------------------------------------- names and metadata

METADATA = """\
target_language: cs
source_corpus: GECCC # a comment
learner_type: mixed
short_description: "Czech: essays, web text"
links: # optional
  - https://example.org/paper
  - 'https://example.org/data'
contact: someone@example.org
availability: open
license:
  name: CC BY-SA 4.0
  url: https://creativecommons.org/licenses/by-sa/4.0/
sentence_aligned: false
original_essays: # stats
  n_essays:
    total: 10
    train: 6
    dev: 2
    test: 2
reference_essays_1:
  correction_style: minimal
  n_essays:
    total: 10
reference_essays_2:
  correction_style: Fluency
"""


def test_metadata(tmp_path: Path) -> None:
    corpus = tmp_path / "czech" / "natwebinf"
    corpus.mkdir(parents=True)
    md = write(corpus / "cs-natwebinf-ref2-dev.md", "### essay_id = 1\nx\n")
    assert read_metadata(md) is None
    write(corpus / "metadata.yaml", METADATA)
    meta = read_metadata(md)
    assert meta is not None
    assert meta.language == "cs"
    assert meta.styles == {1: "minimal", 2: "fluency"}
    assert meta.style_of(md) == "fluency"
    assert meta.style_of(corpus / "cs-natwebinf-orig-dev.md") is None
    raw = meta.raw
    assert raw["links"] == ["https://example.org/paper", "https://example.org/data"]
    assert raw["short_description"] == "Czech: essays, web text"
    assert raw["source_corpus"] == "GECCC"
    assert raw["sentence_aligned"] is False
    assert raw["original_essays"]["n_essays"] == {"total": 10, "train": 6, "dev": 2, "test": 2}
    assert raw["license"]["url"].startswith("https://")


@pytest.mark.parametrize(("text", "line"), [("a: 1\nb: [1, 2\n", 3), ("a: 1\n  b: 2\n", 2),
                                            ("- a\n- b\n", 1)])
def test_metadata_bad_yaml(tmp_path: Path, text: str, line: int) -> None:
    """Malformed metadata (or a file that is not a mapping) names the file and the line."""
    p = write(tmp_path / "metadata.yaml", text)
    with pytest.raises(InputError) as exc:
        read_metadata(tmp_path / "sv-x-ref1-dev.md")
    assert (exc.value.path, exc.value.line) == (str(p), line)


def test_metadata_bad_style(tmp_path: Path) -> None:
    write(tmp_path / "metadata.yaml", "target_language: sv\nreference_essays_1:\n"
          "  correction_style: creative\n")
    with pytest.raises(InputError, match="creative"):
        read_metadata(tmp_path / "sv-x-ref1-dev.md")


def test_parse_name() -> None:
    n = parse_name("data/cs-natwebinf-ref2-dev.md")
    assert n is not None and (n.lang, n.corpus, n.role, n.split, n.number) == (
        "cs", "natwebinf", "ref2", "dev", 2)
    n = parse_name("en-write-and-improve-hypo1-test.md")
    assert n is not None and (n.corpus, n.role, n.number) == ("write-and-improve", "hypo1", 1)
    assert parse_name("cs-x-orig-train.md").number is None  # type: ignore[union-attr]
    assert parse_name("orig.md") is None


# --------------------------------------------------------------------------- shared-data essay sets

FINAL = {".", "!", "?", "…"}


def lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return text[:-1].split("\n")


def boundaries(text: str) -> int:
    """Sentence boundaries: final punctuation followed by more text (a token starting with a
    capital letter, a digit or a quote)."""
    return len(re.findall(r"[.!?…] (?=[\"'«„“(]?[A-ZА-ЯІЇЄҐÀ-ÞČŘŠŽĎŤŇŮÚÕÄÖÜ0-9])", text))


def normalised_tokens(text: str) -> Counter[str]:
    """Tokens without sentence punctuation and case: what joining sentences may change."""
    return Counter(t.lower() for t in text.split() if t not in FINAL | {","})


@pytest.fixture(scope="module")
def corpus():  # type: ignore[no-untyped-def]
    return bench_module("essay_corpus")


@pytest.mark.parametrize(("lang", "max_essays"), [("uk", None), ("cs", 300), ("et", None)])
def test_essay_sets(corpus, tmp_path: Path, lang: str, max_essays: int | None) -> None:  # type: ignore[no-untyped-def]
    from errtype import m2

    shared_path(*corpus.SOURCES[lang])
    s = corpus.build(lang, tmp_path / lang, seed=0, max_essays=max_essays)
    orig = read_multigec(s.orig)
    ids = [e.id for e in orig]
    assert ids == s.essay_ids and len(ids) == len(set(ids)) > 10
    assert all(is_multigec(p) for p in [s.orig, *s.refs, *s.systems.values()])

    # every orig sentence is in exactly one essay, in order
    sent_orig = lines(s.sentence_orig)
    essay_of = lines(s.sentence_essays)
    paragraph_of = [int(x) for x in lines(s.sentence_paragraphs)]
    assert len(sent_orig) == len(essay_of) == len(paragraph_of)
    assert list(dict.fromkeys(essay_of)) == ids  # each essay's sentences are consecutive
    blocks = list(m2.read_m2(s.gold_m2))
    assert [b.source for b in blocks] == sent_orig

    def essays_from(sentence_lines: list[str]) -> dict[str, str]:
        out: dict[str, list[list[str]]] = {}
        for line, e, p in zip(sentence_lines, essay_of, paragraph_of, strict=True):
            paras = out.setdefault(e, [])
            if not paras or p != paras[-1][0]:
                paras.append([p])  # type: ignore[list-item]
            paras[-1].append(line)
        return {e: "\n".join(t for t in (" ".join(x for x in p[1:] if x) for p in ps) if t)
                for e, ps in out.items()}

    assert {e.id: e.text for e in orig} == essays_from(sent_orig)
    if lang == "cs":  # GECCC's paragraphs recovered (paragraph.m2 and .meta)
        assert sum("\n" in e.text for e in orig) > len(orig) // 20
    assert sum(Counter(e.text.split()).total() for e in orig) == sum(
        len(b.tokens) for b in blocks)

    # ref1 = annotator 0's gold edits applied (errtype.m2.apply_edits), sentences joined
    gold = [" ".join(m2.apply_edits(b.tokens, b.edits_by_annotator().get(0, [])).tokens)
            for b in blocks]
    assert lines(s.sentence_refs[0]) == gold
    ref1 = {e.id: e.text for e in read_multigec(s.refs[0])}
    assert ref1 == essays_from(gold)

    # ref2 lacks exactly the essays annotator 1 did not annotate throughout
    ref2 = read_parallel_essays(s.orig, s.refs)
    has2 = {e for e in ids if all(1 in b.annotators() for b, x in zip(blocks, essay_of,
                                                                       strict=True) if x == e)}
    assert {r.id for r in ref2 if r.corrections[1] is not None} == has2 == set(s.ref2_ids)
    if lang in ("cs", "et"):  # some essays have a second reference, some do not
        assert 0 < len(has2) < len(ids)

    # the pseudo-systems: line-aligned sentence files whose joins are the essays
    partial_lines = lines(s.sentence_systems["partial"])
    for name in corpus.SYSTEMS:
        sl = lines(s.sentence_systems[name])
        assert len(sl) == len(sent_orig)
        assert {e.id: e.text for e in read_multigec(s.systems[name])} == essays_from(sl)
    partial = {e.id: e.text for e in read_multigec(s.systems["partial"])}
    assert partial != ref1
    differ = sum(partial[e] != ref1[e] for e in ids)
    assert differ > len(ids) // 4, differ
    changed = [p != o for p, o in zip(partial_lines, sent_orig, strict=True)]
    assert any(changed)

    # merged: fewer sentence boundaries, same tokens but for boundary punctuation and case
    merged = {e.id: e.text for e in read_multigec(s.systems["merged"])}
    assert s.merged_ids and set(s.merged_ids) < set(ids)
    fewer = 0
    for e in ids:
        if e in s.merged_ids:
            assert normalised_tokens(merged[e]) == normalised_tokens(partial[e])
            lower_m = Counter(t.lower() for t in merged[e].split())
            lower_p = Counter(t.lower() for t in partial[e].split())
            assert set(lower_m - lower_p) <= {","} and set(lower_p - lower_m) <= FINAL
            assert boundaries(merged[e]) <= boundaries(partial[e])
            fewer += boundaries(merged[e]) < boundaries(partial[e])
        else:
            assert merged[e] == partial[e]
    assert fewer > len(s.merged_ids) // 2
    merged_lines = lines(s.sentence_systems["merged"])
    joined = 0
    for k in range(len(merged_lines) - 1):
        a, b = merged_lines[k], merged_lines[k + 1]
        inside = essay_of[k] == essay_of[k + 1] and paragraph_of[k] == paragraph_of[k + 1]
        if essay_of[k] in s.merged_ids and inside and a and b:
            assert a.endswith(" ,") and b[0] == b[0].lower(), (a, b)
            joined += 1
        elif essay_of[k] not in s.merged_ids:
            assert a == partial_lines[k]
    assert joined > len(s.merged_ids)
    assert sum(map(boundaries, merged.values())) < sum(map(boundaries, partial.values()))

    # split: more boundaries, a comma turned into a full stop
    split = {e.id: e.text for e in read_multigec(s.systems["split"])}
    assert sum(map(boundaries, split.values())) > sum(map(boundaries, partial.values()))
    for e in ids:
        assert normalised_tokens(split[e]) == normalised_tokens(partial[e])

    # metadata written beside the files
    meta = read_metadata(s.orig)
    assert meta is not None and meta.language == lang and meta.styles == {1: "minimal",
                                                                           2: "minimal"}


def test_essay_sets_deterministic(corpus, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shared_path(*corpus.SOURCES["uk"])
    a = corpus.build("uk", tmp_path / "a", seed=3, max_essays=15)
    b = corpus.build("uk", tmp_path / "b", seed=3, max_essays=15)
    c = corpus.build("uk", tmp_path / "c", seed=4, max_essays=15)
    for name in corpus.SYSTEMS:
        assert a.systems[name].read_bytes() == b.systems[name].read_bytes()
    assert a.systems["partial"].read_bytes() != c.systems["partial"].read_bytes()
    assert a.orig.read_bytes() == c.orig.read_bytes()
    assert len(a.essay_ids) == 15


# --------------------------------------------------------------------------- errtype convert

ESSAY_M2 = ("S This are a example . She go home .\n"
            "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"
            "A 2 3|||R:DET|||an|||REQUIRED|||-NONE-|||0\n"
            "A 6 7|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
            "A 6 7|||R:VERB:SVA|||went|||REQUIRED|||-NONE-|||1\n\n"
            "S Fine .\nA 0 1|||R:ADJ|||Good|||REQUIRED|||-NONE-|||0\n\n")


def convert(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from errtype.cli.main import main

    code = main(["convert", *argv])
    return code, capsys.readouterr().err


def test_m2_to_multigec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m2_path = write(tmp_path / "essays.m2", ESSAY_M2)
    out = tmp_path / "ref1.md"
    assert convert(["m2-to-multigec", str(m2_path), "-o", str(out), "-q"], capsys) == (0, "")
    assert out.read_text() == ("### essay_id = 1\nThis is an example . She goes home .\n\n"
                               "### essay_id = 2\nGood .\n\n")
    ids = write(tmp_path / "orig.md", "### essay_id = a7\nx\n\n### essay_id = b9\ny\n")
    code, err = convert(["m2-to-multigec", str(m2_path), "--ids", str(ids), "--annotator", "1",
                         "-o", str(out)], capsys)
    assert code == 0 and "1 essays, 1 without annotator 1 left out" in err
    assert read_multigec(out) == [Essay("a7", "This are a example . She went home .")]
    for missing, second in (("first", "Good ."), ("orig", "Fine .")):
        convert(["m2-to-multigec", str(m2_path), "--annotator", "1", "--missing", missing,
                 "-o", str(out), "-q"], capsys)
        assert [e.text for e in read_multigec(out)][1] == second
    one = write(tmp_path / "one.md", "### essay_id = 1\nx\n")
    code, err = convert(["m2-to-multigec", str(m2_path), "--ids", str(one), "-o",
                         str(tmp_path / "x.md")], capsys)
    assert code == 2 and "2 M2 blocks but 1 essay ids" in err and str(m2_path) in err
    assert not (tmp_path / "x.md").exists()


def test_multigec_to_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orig = write(tmp_path / "orig.md", "### essay_id = 1\nPara one.\nPara two.\n\n"
                 "### essay_id = 2\nSecond.\n\n### essay_id = 3\nThird.\n")
    hyp = write(tmp_path / "hyp.md", "### essay_id = 3\nThird!\n\n### essay_id = 1\nP1.\nP2.\n")
    out, ids = tmp_path / "hyp.txt", tmp_path / "hyp.ids"
    code, err = convert(["multigec-to-text", str(hyp), "--align", str(orig), "-o", str(out),
                         "--ids-out", str(ids), "-q"], capsys)
    assert code == 0 and "1 missing essays written as '!'" in err  # said even with -q
    assert out.read_text() == "P1.\tP2.\n!\nThird!\n"
    assert ids.read_text() == "1\n2\n3\n"
    convert(["multigec-to-text", str(orig), "--newline", "space", "-o", str(out)], capsys)
    assert out.read_text() == "Para one. Para two.\nSecond.\nThird.\n"
    code, err = convert(["multigec-to-text", str(orig), "--align", str(hyp), "-o", str(out)],
                        capsys)
    assert code == 2 and "essay id '2' is not in" in err and f"{orig}, line 5" in err
    m2_path = write(tmp_path / "x.m2", ESSAY_M2)
    code, err = convert(["multigec-to-text", str(m2_path), "-o", str(out)], capsys)
    assert code == 2 and "m2-to-multigec" in err


@pytest.mark.parametrize("lang", ["uk", "cs"])
def test_essay_m2_round_trip(corpus, tmp_path: Path, lang: str,  # type: ignore[no-untyped-def]
                             capsys: pytest.CaptureFixture[str]) -> None:
    """The essay-level M2 of an essay set, converted back, gives its reference files (a
    paragraph break becomes a space: an M2 sentence is one line)."""
    shared_path(*corpus.SOURCES[lang])
    s = corpus.build(lang, tmp_path / lang, max_essays=200)
    for k, ref in enumerate(s.refs):
        out = tmp_path / f"ref{k}.md"
        assert convert(["m2-to-multigec", str(s.essay_m2), "--ids", str(s.orig), "--annotator",
                        str(k), "-o", str(out), "-q"], capsys)[0] == 0
        want = [Essay(e.id, e.text.replace("\n", " ")) for e in read_multigec(ref)]
        assert read_multigec(out) == want
        if lang == "uk":
            assert out.read_bytes() == ref.read_bytes()
    text = tmp_path / "ref2.txt"
    convert(["multigec-to-text", str(s.refs[1]), "--align", str(s.orig), "-o", str(text), "-q"],
            capsys)
    got = text.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(got) == len(s.essay_ids)
    assert got.count("!") == len(s.essay_ids) - len(s.ref2_ids)


def test_metadata_notes(tmp_path: Path) -> None:
    """The corpus metadata a run reports: each reference's style, and a language mismatch."""
    from errtype.essay.multigec import metadata_notes

    write(tmp_path / "metadata.yaml", "target_language: cs\nreference_essays_1:\n"
          "  correction_style: minimal\nreference_essays_2:\n  correction_style: fluency\n")
    orig = tmp_path / "cs-natform-orig-dev.md"
    refs = [tmp_path / "cs-natform-ref1-dev.md", tmp_path / "cs-natform-ref2-dev.md"]
    notes = metadata_notes(orig, refs, "cs")
    assert notes == ["correction style (metadata.yaml): cs-natform-ref1-dev.md: minimal, "
                     "cs-natform-ref2-dev.md: fluency"]
    warn = metadata_notes(orig, refs[:1], "en")
    assert warn[0].startswith("warning:") and "'cs'" in warn[0] and "'en'" in warn[0]
    assert metadata_notes(tmp_path / "sub" / "x.md", refs, "cs") == []
