"""End-to-end byte identity of errtype-m2 with ERRANT 3.0.2 (same spaCy model) on the oracles."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli.m2 import main

from .conftest import peer, shared_path

STRATEGIES = ["rules", "all-split", "all-merge", "all-equal"]


def run_m2(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "out.m2"
    assert main([*args, "-out", str(out), "-q"]) == 0
    return out.read_text(encoding="utf-8")


def expected(*parts: str) -> str:
    return shared_path(*parts).read_text(encoding="utf-8")


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_parallel_strategies_byte_identical(tmp_path: Path, strategy: str) -> None:
    d = shared_path("oracles", "en_oracles")
    got = run_m2(tmp_path, "-orig", str(d / "orig.txt"), "-cor", str(d / "cor.txt"),
                 "-merge", strategy)
    assert got == expected("oracles", "en_oracles", f"out.{strategy}.m2")


def test_levenshtein_byte_identical(tmp_path: Path) -> None:
    d = shared_path("oracles", "en_oracles")
    got = run_m2(tmp_path, "-orig", str(d / "orig.txt"), "-cor", str(d / "cor.txt"), "-lev")
    assert got == expected("oracles", "en_oracles", "out.lev.m2")


def test_tokenise_byte_identical_with_errant_noop(tmp_path: Path) -> None:
    d = shared_path("oracles", "en_oracles")
    got = run_m2(tmp_path, "-orig", str(d / "orig.txt"), "-cor", str(d / "cor.txt"), "-tok",
                 "--errant-noop")
    assert got == expected("oracles", "en_oracles", "out.tok.m2")


def test_tokenise_default_differs_only_by_documented_noop(tmp_path: Path) -> None:
    """"can not" -> "cannot" is token-identical after spaCy tokenisation ("can" "not"): ERRANT
    writes no line for the annotator, errtype a noop (README: Differences from ERRANT)."""
    d = shared_path("oracles", "en_oracles")
    got = run_m2(tmp_path, "-orig", str(d / "orig.txt"), "-cor", str(d / "cor.txt"), "-tok")
    want = expected("oracles", "en_oracles", "out.tok.m2").split("\n\n")
    got_blocks = got.split("\n\n")
    assert len(got_blocks) == len(want)
    diff = [(g, w) for g, w in zip(got_blocks, want, strict=True) if g != w]
    assert len(diff) == 1
    g, w = diff[0]
    assert g == w + "\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


def test_demo_two_annotators_byte_identical(tmp_path: Path) -> None:
    """The demo's orig.txt has a 5th, whitespace-only line with no correction: ERRANT zips to the
    shortest file; errtype refuses mismatched files, so the 4 aligned lines are given."""
    d = shared_path("oracles", "en_demo")
    orig = tmp_path / "orig.txt"
    lines = (d / "orig.txt").read_text(encoding="utf-8").split("\n")
    assert lines[4].strip() == ""
    orig.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    got = run_m2(tmp_path, "-orig", str(orig), "-cor", str(d / "cor1.txt"), str(d / "cor2.txt"))
    assert got == expected("oracles", "en_demo", "out_v3.0.2_spacy3.8_sm3.8.m2")


def test_demo_unaligned_files_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    d = shared_path("oracles", "en_demo")
    out = tmp_path / "out.m2"
    code = main(["-orig", str(d / "orig.txt"), "-cor", str(d / "cor1.txt"), "-out", str(out)])
    assert code == 2
    err = capsys.readouterr().err
    assert "orig.txt: 5" in err and "cor1.txt: 4" in err
    assert not out.exists()


@pytest.mark.parametrize("flags,name", [
    (["-gold"], "out.gold.m2"),
    (["-gold", "-no_min"], "out.goldno_min.m2"),
    (["-gold", "-old_cats"], "out.goldold_cats.m2"),
    (["-auto"], "out.auto.m2"),
])
def test_m2_to_m2_byte_identical(tmp_path: Path, flags: list[str], name: str) -> None:
    src = shared_path("oracles", "en_m2_to_m2", "input.m2")
    got = run_m2(tmp_path, *flags, str(src))
    assert got == expected("oracles", "en_m2_to_m2", name)


def test_m2_without_trailing_blank_line_is_not_dropped(tmp_path: Path) -> None:
    """ERRANT writes an empty file for this input; errtype keeps the block."""
    src = shared_path("oracles", "en_m2_to_m2", "no_trailing_blank.m2")
    got = run_m2(tmp_path, "-gold", str(src))
    assert got.startswith("S ") and got.endswith("\n\n")
    assert got.count("\n\n") == src.read_text(encoding="utf-8").count("S ")


def test_m2_with_double_blank_lines_reads(tmp_path: Path) -> None:
    """ERRANT crashes with IndexError on two consecutive blank lines; errtype reads every block."""
    src = shared_path("oracles", "en_m2_to_m2", "double_blank.m2")
    got = run_m2(tmp_path, "-gold", str(src))
    n_blocks = sum(1 for ln in src.read_text(encoding="utf-8").splitlines() if ln.startswith("S "))
    assert got.count("S ") == n_blocks >= 2


def test_quirks_every_line_gives_a_block(tmp_path: Path) -> None:
    d = shared_path("oracles", "en_quirks")
    got = run_m2(tmp_path, "-orig", str(d / "orig.txt"), "-cor", str(d / "cor1.txt"),
                 str(d / "cor2.txt"))
    n_lines = len((d / "orig.txt").read_text(encoding="utf-8").splitlines())
    blocks = got.rstrip("\n").split("\n\n")
    assert len(blocks) == n_lines
    # ERRANT's output is our output minus the documented extra lines (empty orig, noops)
    want = expected("oracles", "en_quirks", "out.m2")
    for block in want.rstrip("\n").split("\n\n"):
        head = block.split("\n")[0]
        ours = next(b for b in blocks if b.split("\n")[0] == head)
        assert set(block.split("\n")) <= set(ours.split("\n"))


@pytest.mark.slow
def test_same_edits_as_errant_on_jfleg_and_conll(shared: type) -> None:
    """Differential check against the reference implementation (the `bench` extra installs it):
    the same spaCy pipeline object, JFLEG dev (ref0) + CoNLL-2014 CAMB, every edit and type."""
    errant = peer("errant", "pip install '.[bench]'")
    import errtype

    src = shared.path("jfleg", "dev.src").read_text(encoding="utf-8").splitlines()
    ref = shared.path("jfleg", "dev.ref0").read_text(encoding="utf-8").splitlines()
    inp = shared.path("conll14", "systems", "INPUT").read_text(encoding="utf-8").splitlines()
    camb = shared.path("conll14", "systems", "CAMB").read_text(encoding="utf-8").splitlines()
    pairs = [(o.strip(), c.strip()) for o, c in [*zip(src, ref, strict=True),
                                                 *zip(inp, camb, strict=True)]]
    pairs = [(o, c) for o, c in pairs if o and c]
    ours = errtype.load("en")
    real = errant.load("en", nlp=ours.parser.nlp)
    sents = list(ours.parser.parse_many([t for p in pairs for t in p]))
    differ = []
    for n, (o, c) in enumerate(pairs):
        want = [(e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.c_str)
                for e in real.annotate(real.parse(o), real.parse(c))]
        got = [(e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.c_str)
               for e in ours.annotate(sents[2 * n], sents[2 * n + 1])]
        if got != want:
            differ.append((o, c, got, want))
    assert len(pairs) > 2000
    assert not differ, differ[:3]
