"""GLEU+: statistics, Python-2 draws, corpus/sentence/human scores, input checks, CLI, JFLEG."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from errtype.cli.gleu import main
from errtype.errors import InputError, LineCountError
from errtype.score.ngram.gleu import (
    GLEU,
    gleu,
    gleu_human,
    read_gleu_inputs,
    sentence_stats,
    tokenize,
)
from errtype.score.ngram.py2random import Py2Random, py2_randints, py3_randints

from .conftest import shared_path


def test_sentence_stats_set_difference_penalty() -> None:
    st = sentence_stats("a b c".split(), "a b d".split(), "a b c".split())
    # n=1: matches a,b; c is a source unigram absent from the reference -> penalty 1
    assert st == [3, 3, 1, 3, 0, 2, 0, 1, 0, 0]


def test_penalty_ignores_frequency() -> None:
    # "x" occurs in the reference once, so it is not penalised however often the source has it
    st = sentence_stats("x x x".split(), "x y".split(), "x x".split(), order=1)
    assert st == [2, 2, 1, 2]


def test_py2_draws_match_python27() -> None:
    # values printed by CPython 2.7.18: random.seed(s); [random.randint(0, 3) for _ in range(8)]
    assert py2_randints(0, 4, 8) == [3, 3, 1, 1, 2, 1, 3, 1]
    assert py2_randints(101, 4, 8) == [2, 0, 3, 3, 1, 2, 0, 0]
    rng = Py2Random(101)
    assert [rng.randint(0, 3) for _ in range(8)] == [2, 0, 3, 3, 1, 2, 0, 0]
    assert Py2Random(0).choice("abcd") == "d"
    assert py3_randints(101, 4, 8) != py2_randints(101, 4, 8)


def test_perfect_hypothesis_and_zero_statistic() -> None:
    src, ref = ["a b c d e"], ["a b c d f"]
    res = gleu(src, [ref], ref)
    assert res.corpus["gleu"] == 1.0 and res.counts["iterations"] == 1
    assert gleu(["a b"], [["c d"]], ["a b"]).corpus["gleu"] == 0.0


def test_sentence_level_smoothing() -> None:
    res = GLEU().score(["a b c"], [["a b d"]], ["a b c"])
    # stats [3,3,1,3,0,2,0,1,0,0] -> zeros become 1 -> exp(log(1/3 * 1/2) / 4)
    assert res.sentences[0]["gleu"] == pytest.approx(6 ** -0.25)
    assert res.corpus["gleu"] == 0.0


def test_iterations_draw_and_signature() -> None:
    src = ["a b c d", "e f g h", "i j k l"]
    refs = [["a b c d", "e f g x", "i j k l"], ["a b x d", "e f g h", "i j x l"]]
    py2 = GLEU(iterations=20).score(src, refs, src)
    py3 = GLEU(iterations=20, draw="py3").score(src, refs, src)
    assert py2.counts["iterations"] == 20
    assert "draw:py2" in py2.signature and "iterations:20" in py2.signature
    assert "draw:py3" in py3.signature
    human = gleu_human(src, refs, iterations=20)
    assert human.corpus["gleu"] == pytest.approx((human.corpus["ref0"] + human.corpus["ref1"]) / 2)


def test_tokenize_py2_whitespace() -> None:
    assert tokenize("a\u00a0b c") == ["a\u00a0b", "c"]
    assert tokenize("a\u00a0b c", "unicode") == ["a", "b", "c"]
    assert tokenize("a\x1cb") == ["a\x1cb"]


def test_line_count_mismatch(tmp_path: Path) -> None:
    (tmp_path / "src").write_text("a\nb\n")
    (tmp_path / "ref").write_text("a\n")
    with pytest.raises(LineCountError, match="src: 2, .*ref: 1"):
        read_gleu_inputs(tmp_path / "src", [tmp_path / "ref"])
    with pytest.raises(LineCountError):
        GLEU().score(["a"], [["a", "b"]], ["a"])


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in [("src", "a b c d\ne f g h\n"), ("r0", "a b c x\ne f g h\n"),
                       ("r1", "a b c d\ne f y h\n"), ("hyp", "a b c x\ne f g h\n")]:
        (tmp_path / name).write_text(text)
    args = ["-s", str(tmp_path / "src"), "-r", str(tmp_path / "r0"), str(tmp_path / "r1"),
            "-o", str(tmp_path / "hyp"), "-l", "10"]
    assert main(args + ["--sent", "--human"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hypothesis\tGLEU") and "gleu|n:4|refs:2|iterations:10" in out
    assert "\nHUMAN\t" in out and "\nhyp\t1\t" in out
    assert main(args + ["--json", "-", "--py3-random"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert 0 < data["hyp"]["corpus"]["gleu"] <= 1 and len(data["hyp"]["sentences"]) == 2
    (tmp_path / "r1").write_text("only one line\n")
    assert main(args) == 2
    assert "r1: 1" in capsys.readouterr().err


# ------------------------------------------------------------------------- JFLEG fidelity

@pytest.fixture(scope="module")
def jfleg() -> tuple[list[str], list[list[str]]]:
    refs = [shared_path("jfleg", f"dev.ref{i}") for i in range(4)]
    src, ref_lines, _ = read_gleu_inputs(shared_path("jfleg", "dev.src"), refs)
    return src, ref_lines


def test_jfleg_dev_source(jfleg: tuple[list[str], list[list[str]]]) -> None:
    src, refs = jfleg
    # METRICS.md §2.2: official 38.2146 (jfleg README 38.21); the Py-3 draw 38.1965
    assert f"{100 * GLEU().score(src, refs, src).corpus['gleu']:.4f}" == "38.2146"
    py3 = GLEU(draw="py3", sentence_level=False).score(src, refs, src)
    assert f"{100 * py3.corpus['gleu']:.4f}" == "38.1965"


def test_jfleg_dev_human(jfleg: tuple[list[str], list[list[str]]]) -> None:
    src, refs = jfleg
    res = GLEU(sentence_level=False).human(src, refs)
    assert f"{100 * res.corpus['gleu']:.2f}" == "55.27"  # METRICS.md §2.2 (published 55.26/55.3)
    assert math.isclose(res.corpus["gleu"], sum(res.corpus[f"ref{r}"] for r in range(4)) / 4)


def test_m2_references_and_source_check(tmp_path: Path) -> None:
    (tmp_path / "src").write_text("he go home\nok .\n")
    (tmp_path / "hyp").write_text("he goes home\nok .\n")
    m2 = tmp_path / "ref.m2"
    m2.write_text("S he go home\nA 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n"
                  "A 1 2|||Vt|||went|||REQUIRED|||-NONE-|||1\n\nS ok .\n\n")
    src, refs, hyp = read_gleu_inputs(tmp_path / "src", [m2], tmp_path / "hyp")
    assert refs == [["he goes home", "ok ."], ["he went home", "ok ."]]
    (tmp_path / "src").write_text("he go home\nfine .\n")
    with pytest.raises(InputError, match=r"ref.m2, line 5: the reference's source sentence "
                                         r"differs from line 2"):
        read_gleu_inputs(tmp_path / "src", [m2], tmp_path / "hyp")


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7, 10])
def test_py3_draws_equal_python3_randint(k: int) -> None:
    import random

    for seed in (0, 101, 5050):
        rng = random.Random(seed)
        assert py3_randints(seed, k, 200) == [rng.randint(0, k - 1) for _ in range(200)]


def test_m2_reference_recognised_by_content(tmp_path: Path) -> None:
    """An M2 reference is read per annotator whatever its name; a text whose lines begin with
    the Czech preposition "S" stays text."""
    from errtype.m2 import is_m2

    (tmp_path / "src.txt").write_text("He go home .\nS tebou .\n", encoding="utf-8")
    gold = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\nS S tebou .\n" \
           "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
    (tmp_path / "gold.ref").write_text(gold, encoding="utf-8")
    (tmp_path / "czech.txt").write_text("S tebou .\nS tebou jdu .\n", encoding="utf-8")
    assert is_m2(tmp_path / "gold.ref") and not is_m2(tmp_path / "czech.txt")
    src, refs, hyp = read_gleu_inputs(tmp_path / "src.txt", [tmp_path / "gold.ref"],
                                      tmp_path / "src.txt")
    assert refs == [["He goes home .", "S tebou ."]]


def test_statistics_shared_across_systems(jfleg: tuple[list[str], list[list[str]]]) -> None:
    """One memo for several systems scored against the same references: each source and
    reference is counted once, and the statistics and scores are those computed afresh."""
    src, refs = jfleg
    scorer, memo = GLEU(), {}
    for hyp in (src, refs[0], [s.lower() for s in src]):
        table = scorer.statistics(src, refs, hyp, memo)
        assert table == [[sentence_stats(tokenize(s), tokenize(r[i]), tokenize(h))
                          for r in refs] for i, (s, h) in enumerate(zip(src, hyp, strict=True))]
        got, want = scorer.score(src, refs, hyp, table), scorer.score(src, refs, hyp)
        assert (got.corpus, got.sentences, got.signature) == (
            want.corpus, want.sentences, want.signature)
    assert len(memo) == len(set(src) | {r for ref in refs for r in ref})
