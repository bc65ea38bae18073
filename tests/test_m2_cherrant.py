"""ChERRANT's M2 dialect (``T{i}-A{j}`` lines): reading, writing, conversion to and from standard
M2, on hand-written blocks and on the samples ChERRANT ships (HillZhang1999/MuCGEC at commit
3922193, ``scorers/ChERRANT/samples``; read from a checkout named by ``$ERRTYPE_CHERRANT``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype import M2Edit, M2FormatError, read_m2
from errtype.cli.main import main as errtype_main
from errtype.m2 import M2Block, M2Target, sniff_m2, to_cherrant

from .conftest import peer_repo

# the shape ChERRANT's parallel_to_m2.py writes: two references, the second with two equal-cost
# edit sequences; a reference without change; an unannotatable one
DIALECT = ("S 这 部 电 影 不 仅 是 国 内 ， 在 国 外 也 很 有 名 。\n"
           "T0-A0 这 部 电 影 不 仅 是 在 国 内 ， 在 国 外 也 很 有 名 。\n"
           "A 7 7|||M|||在|||REQUIRED|||-NONE-|||0\n"
           "T1-A0 这 部 电 影 不 仅 在 国 内 ， 在 国 外 也 很 有 名 。\n"
           "A 6 7|||S|||在|||REQUIRED|||-NONE-|||1\n"
           "T1-A1 这 部 电 影 不 仅 在 国 内 ， 在 国 外 也 很 有 名 。\n"
           "A 6 6|||M|||在|||REQUIRED|||-NONE-|||1\n"
           "A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||1\n"
           "\n"
           "S 大 家 都 想 吃 烧 烤 。\n"
           "T0 没有错误\n"
           "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
           "T1 无法标注\n"
           "A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||1\n"
           "\n")

STANDARD_FIRST = ("S 这 部 电 影 不 仅 是 国 内 ， 在 国 外 也 很 有 名 。\n"
                  "A 7 7|||M|||在|||REQUIRED|||-NONE-|||0\n"
                  "A 6 7|||S|||在|||REQUIRED|||-NONE-|||1\n"
                  "\n"
                  "S 大 家 都 想 吃 烧 烤 。\n"
                  "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                  "A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||1\n"
                  "\n")


def blocks(text: str) -> list[M2Block]:
    return list(read_m2(text.splitlines(True), name="t.m2"))


def test_dialect_is_read_and_written_back_byte_identical() -> None:
    bs = blocks(DIALECT)
    assert [b.is_cherrant for b in bs] == [True, True]
    first = bs[0]
    assert [(t.annotator, t.alternative, t.size) for t in first.targets] == \
        [(0, 0, 1), (1, 0, 1), (1, 1, 2)]
    assert first.targets[1].label == "T1-A0"
    assert first.targets[0].text.replace(" ", "") == "这部电影不仅是在国内，在国外也很有名。"
    # the flat edit list is every A line in file order, annotator = reference index
    assert [e.annotator for e in first.edits] == [0, 1, 1, 1]
    assert [(t.label, len(es)) for t, es in first.target_edits()] == \
        [("T0-A0", 1), ("T1-A0", 1), ("T1-A1", 2)]
    assert [first.edit_line_number(i) for i in range(4)] == [3, 5, 7, 8]
    assert [first.edit_target(i) for i in range(4)] == [0, 1, 2, 2]
    assert [(t.label, t.text) for t in bs[1].targets] == [("T0", "没有错误"), ("T1", "无法标注")]
    assert all(e.is_noop for e in bs[1].edits)
    assert "".join(b.to_m2() for b in bs) == DIALECT


def test_to_standard_first_and_split() -> None:
    bs = blocks(DIALECT)
    assert "".join(b.to_standard().to_m2() for b in bs) == STANDARD_FIRST
    split = bs[0].to_standard("split")
    assert [(e.start, e.end, e.type, e.annotator) for e in split.edits] == \
        [(7, 7, "M", 0), (6, 7, "S", 1), (6, 6, "M", 2), (6, 7, "R", 2)]
    assert not split.targets
    plain = blocks(STANDARD_FIRST)[0]
    assert plain.to_standard() is plain
    with pytest.raises(ValueError, match="first' or 'split"):
        bs[0].to_standard("all")


def test_to_cherrant_makes_the_target_lines() -> None:
    back = [to_cherrant(b) for b in blocks(STANDARD_FIRST)]
    expected = [b for b in blocks(DIALECT)]
    # the second sequence of reference 1 is lost by 'first'; everything else comes back
    del expected[0].edits[2:]
    del expected[0].targets[2]
    assert [b.to_m2() for b in back] == [b.to_m2() for b in expected]
    # an annotator that deletes: -NONE- corrections leave the T line without the word
    b = to_cherrant(M2Block("a b c", [M2Edit(1, 2, "R", "-NONE-", 0)]))
    assert b.targets == [M2Target(0, 0, "a c", 1)]
    # a block without any edit line has no T line either
    assert to_cherrant(M2Block("a b", [])).to_m2() == "S a b\n\n"


@pytest.mark.parametrize("bad,line,message", [
    ("S a b\nT0-A0 a c\nA 1 2|||S|||c|||REQUIRED|||-NONE-|||1\n", 3,
     "edit line of annotator 1 under the ChERRANT line T0-A0"),
    ("S a b\nA 1 2|||S|||c|||REQUIRED|||-NONE-|||0\nT0-A0 a c\n", 3,
     "ChERRANT target line 'T0-A0 a c' after standard edit lines"),
    ("S a b\nT0-B0 a c\n", 2, "got 'T0-B0 a c' \\(or, in ChERRANT's M2, 'T\\{i\\}-A\\{j\\}'\\)"),
    ("T0-A0 a c\n", 1, "expected a line starting with 'S ' or 'A ', got"),
])
def test_malformed_dialect_names_file_and_line(bad: str, line: int, message: str) -> None:
    with pytest.raises(M2FormatError, match=message) as exc:
        blocks(bad)
    assert exc.value.line == line and exc.value.path == "t.m2"


def test_lint_takes_each_sequence_as_one_edit_set(tmp_path: Path) -> None:
    from errtype.lint import lint_m2

    path = tmp_path / "d.m2"
    path.write_text(DIALECT, encoding="utf-8")
    # T1-A0 and T1-A1 both edit span 6 7: alternatives, not an overlap of one annotator; the
    # dialect writes deletions -NONE- (no none-deletion finding, issue 33)
    assert lint_m2(path).counts() == {}
    path.write_text(DIALECT.replace("A 6 6|||M|||在|||REQUIRED|||-NONE-|||1",
                                    "A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||1"),
                    encoding="utf-8")
    found = [f for f in lint_m2(path).findings if f.code == "duplicate-edit"]
    assert [(f.line, f.message.split(" (")[0]) for f in found] == [
        (8, "annotator 1 repeats the edit of line 7")]


def test_sniff_recognises_the_dialect() -> None:
    assert sniff_m2(DIALECT.splitlines(True)[:3]) is True
    assert sniff_m2(["S 大 家\n", "T0 没有错误\n"]) is True


def test_convert_cli_both_ways(tmp_path: Path) -> None:
    src = tmp_path / "in.m2"
    src.write_text(DIALECT, encoding="utf-8")
    std, back = tmp_path / "std.m2", tmp_path / "back.m2"
    assert errtype_main(["convert", "cherrant-to-m2", str(src), "-o", str(std), "-q"]) == 0
    assert std.read_text(encoding="utf-8") == STANDARD_FIRST
    assert errtype_main(["convert", "m2-to-cherrant", str(std), "-o", str(back), "-q"]) == 0
    assert [b.targets[0].label for b in blocks(back.read_text(encoding="utf-8"))] == ["T0-A0", "T0"]
    split = tmp_path / "split.m2"
    assert errtype_main(["convert", "cherrant-to-m2", str(src), "-o", str(split),
                         "--alternatives", "split", "-q"]) == 0
    assert blocks(split.read_text(encoding="utf-8"))[0].annotators() == [0, 1, 2]
    # m2-to-text reads a ChERRANT file as its first edit sequences
    assert errtype_main(["convert", "m2-to-text", str(src), "-o", str(tmp_path / "p"), "-q"]) == 0
    assert (tmp_path / "p.cor.1").read_text(encoding="utf-8").splitlines()[0] == \
        "这 部 电 影 不 仅 在 国 内 ， 在 国 外 也 很 有 名 。"


# --------------------------------------------------------------------- ChERRANT's own samples

CHERRANT_SAMPLES = ("demo.ref.m2.char", "demo.ref.m2.word", "demo.hyp.m2.char",
                    "demo.hyp.m2.word", "nlpcc2018_official.ref.m2.char",
                    "nlpcc2018_official.ref.m2.word")


@pytest.mark.parametrize("name", CHERRANT_SAMPLES)
def test_cherrant_samples_round_trip(name: str) -> None:
    text = (peer_repo("cherrant") / "scorers/ChERRANT/samples" / name).read_bytes().decode("utf-8")
    bs = blocks(text)
    assert len(bs) == text.count("\nS ") + text.startswith("S ")
    assert all(b.is_cherrant for b in bs)
    assert "".join(b.to_m2() for b in bs) == text
    # to standard and back gives the same blocks wherever a reference has one edit sequence;
    # at word level the T line has the reference's own segmentation, which the edits do not
    # record: the unchanged words come back as the source segments them
    def unspaced(b: M2Block) -> tuple:
        return b.edits, [(t.label, t.text.replace(" ", ""), t.size) for t in b.targets]

    same = unspaced if name.endswith(".word") else M2Block.to_m2
    for b in bs:
        if len({t.annotator for t in b.targets}) == len(b.targets):
            assert same(to_cherrant(b.to_standard())) == same(b)
