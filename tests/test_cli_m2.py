"""errtype-m2 behaviour on files the tests write: one block per line, errors, atomicity."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli import m2 as cli
from errtype.cli.main import main as errtype_main


def files(tmp_path: Path, orig: list[str], *cors: list[str]) -> list[str]:
    paths = []
    for name, lines in [("orig.txt", orig)] + [(f"cor{i}.txt", c) for i, c in enumerate(cors)]:
        p = tmp_path / name
        p.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
        paths.append(str(p))
    return paths


def test_one_block_per_line_in_order(tmp_path: Path) -> None:
    orig = ["He go home .", "", "   ", "Same .", "a  b", "X"]
    cor = ["He goes home .", "New sentence .", "", "Same .", "a b", ""]
    o, c = files(tmp_path, orig, cor)
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")[:-1]
    assert [b.split("\n")[0] for b in blocks] == [
        "S He go home .", "S ", "S ", "S Same .", "S a b", "S X"]
    assert "R:VERB:SVA" in blocks[0]
    assert "A 0 0|||M:" in blocks[1]
    assert blocks[2].endswith("|||noop|||-NONE-|||REQUIRED|||-NONE-|||0")  # both empty
    assert blocks[3].endswith("noop|||-NONE-|||REQUIRED|||-NONE-|||0")
    assert blocks[4].endswith("noop|||-NONE-|||REQUIRED|||-NONE-|||0")  # whitespace-only change
    assert "A 0 1|||U:" in blocks[5]


def test_stdout_output(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    o, c = files(tmp_path, ["a cat ."], ["the cat ."])
    assert cli.main(["-orig", o, "-cor", c, "-out", "-", "-q"]) == 0
    assert capsys.readouterr().out.startswith("S a cat .\nA 0 1|||R:DET|||the|||")


def test_max_tokens_is_reported_not_hidden(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    o, c = files(tmp_path, ["a b c d e f", "ok ."], ["a b c d e g", "ok !"])
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "--max-tokens", "4"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("S a b c d e f\nA -1 -1|||noop")
    assert "R:PUNCT" in text
    err = capsys.readouterr().err
    assert "skipped line 1: more than 4 tokens (the max_tokens limit)" in err
    assert "1 sentences skipped" in err


@pytest.mark.parametrize("mode", ["-gold", "-auto"])
def test_max_tokens_applies_to_m2_mode(tmp_path: Path, capsys: pytest.CaptureFixture,
                                       mode: str) -> None:
    """-gold/-auto took --max-tokens and ignored it: a block whose sentence or a correction is
    longer is now written with a noop line per annotator and reported, as in parallel mode."""
    m2 = tmp_path / "in.m2"
    m2.write_text("S a b c d e f\nA 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n\n"
                  "S ok .\nA 1 2|||R:PUNCT|||!|||REQUIRED|||-NONE-|||0\n\n"
                  "S x y z\nA 3 3|||M:X|||p q|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    out = tmp_path / "out.m2"
    assert cli.main([mode, str(m2), "-o", str(out), "--max-tokens", "4", "-q"]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")[:-1]
    assert blocks[0] == "S a b c d e f\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
    assert "R:PUNCT" in blocks[1]
    assert blocks[2] == "S x y z\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1"  # x y z p q
    err = capsys.readouterr().err
    assert "skipped line 1: more than 4 tokens" in err and "skipped line 7: more than 4" in err


UNSPACED = {  # a long line (thousands of tokens) and a short one, the original then a correction
    "zh": (("这本书是非常有意思的。" * 500, "这本书非常有意思的。" * 500),
           ("这本书是非常有意思。", "这本书非常有意思。")),
    "ja": (("私は学校に行きました。" * 600, "私は学校へ行きました。" * 600),
           ("私は学校を行きます。", "私は学校に行きます。")),
}


@pytest.mark.parametrize(("lang", "mode"), [
    (lang, mode) for lang in sorted(UNSPACED) for mode in ("parallel", "para", "jobs", "api")
    if mode != "para" or lang == "zh"])  # --para is ChERRANT's format
def test_max_tokens_bounds_languages_written_without_spaces(
        tmp_path: Path, capsys: pytest.CaptureFixture, lang: str, mode: str) -> None:
    """--max-tokens counts the tokens the language aligns (characters for Chinese, MeCab's words
    for Japanese), in every path: an over-long line is skipped and reported at once (unbounded,
    a 5,500-character Chinese line took ~30 s and grows quadratically), the short line is
    annotated; its noop block carries the segmented source."""
    import time

    from .conftest import peer, zh_extra

    if lang == "zh":
        zh_extra()
    else:
        peer("fugashi", "pip install 'errtype[ja]'")
    (long_o, long_c), (short_o, short_c) = UNSPACED[lang]
    out = tmp_path / "out.m2"
    started = time.monotonic()
    if mode == "api":
        import errtype

        results = list(errtype.load(lang).annotate_stream(
            [(long_o, long_c), (short_o, short_c)], max_tokens=200))
        assert results[0].error == "more than 200 tokens (the max_tokens limit)"
        assert len(results[0].orig) > 1000 and results[0].edits == [[]]
        assert results[1].error is None and len(results[1].edits[0]) == 1
        assert time.monotonic() - started < 60  # a safety ceiling, not a measurement
        return
    if mode == "para":
        para = tmp_path / "in.para"
        para.write_text(f"1\t{long_o}\t{long_c}\n2\t{short_o}\t{short_c}\n", encoding="utf-8")
        argv = ["--para", str(para)]
    else:
        o, c = files(tmp_path, [long_o, short_o], [long_c, short_c])
        argv = ["-orig", o, "-cor", c] + (["-j", "2", "--batch-size", "1"] if mode == "jobs"
                                          else [])
    assert cli.main(["--lang", lang, *argv, "-o", str(out), "--max-tokens", "200"]) == 0
    assert time.monotonic() - started < 60  # a safety ceiling, not a measurement
    first, second = out.read_text(encoding="utf-8").split("\n\n")[:2]
    source = first.split("\n")[0].split()
    assert len(source) > 1000
    assert [x for x in first.split("\n") if x.startswith("A ")] == [
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"]
    assert "noop" not in second and "\nA " in second
    err = capsys.readouterr().err
    assert "skipped line 1: more than 200 tokens (the max_tokens limit)" in err


def test_failure_leaves_no_output_and_names_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture) -> None:
    from errtype.annotator import Annotator

    real = Annotator.annotate

    def flaky(self, orig, cor, *options):  # noqa: ANN001, ANN002, ANN202
        if "boom" in cor.texts:
            raise RuntimeError("tagger exploded")
        return real(self, orig, cor, *options)

    monkeypatch.setattr(Annotator, "annotate", flaky)
    o, c = files(tmp_path, ["a .", "b .", "c ."], ["a !", "boom .", "c !"])
    out = tmp_path / "out.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 2
    assert "line 2: annotation failed: RuntimeError: tagger exploded" in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.glob(".out.m2*")) == []
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "--on-error", "skip"]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")[:-1]
    assert len(blocks) == 3
    assert blocks[1] == "S b .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
    assert "skipped line 2: RuntimeError: tagger exploded" in capsys.readouterr().err


def test_interrupt_leaves_no_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture) -> None:
    from errtype.annotator import Annotator

    def interrupted(self, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        raise KeyboardInterrupt

    monkeypatch.setattr(Annotator, "annotate", interrupted)
    o, c = files(tmp_path, ["a ."], ["b ."])
    out = tmp_path / "out.m2"
    out.write_text("previous\n")
    assert cli.main(["-orig", o, "-cor", c, "-out", str(out), "-q"]) == 130
    assert out.read_text() == "previous\n"
    assert "interrupted (after 1 of 1 sentences)" in capsys.readouterr().err


def test_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        cli.main(["-orig", "x", "-out", "y"])
    with pytest.raises(SystemExit):
        cli.main(["-gold", "-out", "y"])


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["-orig", str(tmp_path / "nope.txt"), "-cor", "x", "-out", "y", "-q"]) == 2
    assert "nope.txt: no such file" in capsys.readouterr().err


def test_errtype_dispatcher(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert errtype_main([]) == 0 and "m2" in capsys.readouterr().out
    assert errtype_main(["nope"]) == 2
    o, c = files(tmp_path, ["a cat ."], ["the cat ."])
    assert errtype_main(["m2", "-orig", o, "-cor", c, "-out", "-", "-q"]) == 0
    assert "R:DET" in capsys.readouterr().out


def test_jobs_give_identical_ordered_output(tmp_path: Path) -> None:
    orig = [f"He go to school number {i} ." for i in range(40)] + ["", "Fine ."]
    cor = [f"He goes to the school number {i} ." for i in range(40)] + ["New .", "Fine ."]
    o, c = files(tmp_path, orig, cor)
    one, two = tmp_path / "one.m2", tmp_path / "two.m2"
    assert cli.main(["-orig", o, "-cor", c, "-out", str(one), "-q"]) == 0
    assert cli.main(["-orig", o, "-cor", c, "-out", str(two), "-q", "-j", "2",
                     "--batch-size", "5"]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert one.read_text(encoding="utf-8").count("\nS ") + 1 == len(orig)


def test_merge_run_limit_switch() -> None:
    """Runs longer than the limit are merged in chunks; 0 restores ERRANT's unbounded merging."""
    from errtype import merge
    from errtype.align import align
    from errtype.lang import get_language
    from errtype.tokens import Sentence, Token

    en = get_language("en")
    orig = Sentence([Token("I", "I", "PRON"), Token("want", "want", "VERB"),
                     Token("to", "to", "PART"), Token("go", "go", "VERB")])
    cor = Sentence([Token("I", "I", "PRON"), Token("wanted", "want", "VERB"),
                    Token("going", "go", "VERB")])
    seq = align(orig, cor, en).align_seq
    unbounded = merge.merge(seq, orig, cor, en, run_limit=0)
    chunked = merge.merge(seq, orig, cor, en, run_limit=2)
    assert unbounded == [(1, 4, 1, 3)]          # ERRANT: one verb-phrase edit
    assert len(chunked) == 2 and chunked != unbounded
    assert merge.MAX_RULE_RUN == 100
    assert merge.merge(seq, orig, cor, en) == unbounded  # default limit 100
