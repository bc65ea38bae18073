"""MaxMatch (M2) scorer: hand-built cases, input checking, CLI, and CoNLL-2014 fidelity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errtype.cli.m2score import main
from errtype.errors import LineCountError, M2FormatError
from errtype.score.edits.maxmatch import GoldEdit, MaxMatch, load_gold, maxmatch, sentence_edits

from .conftest import shared_path


def _m2(tmp_path: Path, text: str, name: str = "gold.m2") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _score(m2: str, hyps: list[str], tmp_path: Path, **kw: object) -> tuple[float, ...]:
    res = maxmatch(hyps, _m2(tmp_path, m2), **kw)
    c = res.counts
    return (c["correct"], c["proposed"], c["gold"], *res.corpus.values())


SVA = "S This are a test .\nA 1 2|||SVA|||is|||REQUIRED|||-NONE-|||0\n\n"


def test_exact_match(tmp_path: Path) -> None:
    assert _score(SVA, ["This is a test ."], tmp_path) == (1, 1, 1, 1.0, 1.0, 1.0)


def test_wrong_correction_and_no_change(tmp_path: Path) -> None:
    c, p, g, prec, rec, f = _score(SVA, ["This was a test ."], tmp_path)
    assert (c, p, g, prec, rec, f) == (0, 1, 1, 0.0, 0.0, 0.0)
    assert _score(SVA, ["This are a test ."], tmp_path) == (0, 0, 1, 1.0, 0.0, 0.0)


def test_alternatives_and_none(tmp_path: Path) -> None:
    m2 = ("S He go to the school .\nA 1 2|||SVA|||goes||went|||REQUIRED|||-NONE-|||0\n"
          "A 3 4|||ArtOrDet|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
    assert _score(m2, ["He went to school ."], tmp_path)[:3] == (2, 2, 2)


def test_no_edits_anywhere_scores_one(tmp_path: Path) -> None:
    m2 = "S Fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    assert _score(m2, ["Fine ."], tmp_path) == (0, 0, 0, 1.0, 1.0, 1.0)


def test_insertion_at_start_is_anchored_at_zero(tmp_path: Path) -> None:
    m2 = "S cat sat .\nA 0 0|||ArtOrDet|||The|||REQUIRED|||-NONE-|||0\n\n"
    assert _score(m2, ["The cat sat ."], tmp_path)[:3] == (1, 1, 1)


def test_two_insertions_at_one_offset() -> None:
    gold = {0: [GoldEdit(1, 1, "", ("X",)), GoldEdit(1, 1, "", ("Y",))]}
    seq, matched = sentence_edits("a b", "a X Y b", gold)[0]
    assert [(e.start, e.end, e.cor) for e in seq] == [(1, 1, "X"), (1, 1, "Y")]
    assert len(matched) == 2


@pytest.mark.parametrize(("mu", "expected"), [(0, (0, 2)), (1, (0, 2)), (2, (1, 1))])
def test_max_unchanged_words(mu: int, expected: tuple[int, int]) -> None:
    gold = {0: [GoldEdit(0, 4, "a b c d", ("x b c y",))]}
    seq, matched = sentence_edits("a b c d", "x b c y", gold, max_unchanged_words=mu)[0]
    assert (len(matched), len(seq)) == expected


def test_ignore_whitespace_casing(tmp_path: Path) -> None:
    m2 = "S the cat .\nA 0 1|||Mec|||The|||REQUIRED|||-NONE-|||0\n\n"
    assert _score(m2, ["The cat ."], tmp_path)[:3] == (1, 1, 1)
    assert _score(m2, ["The cat ."], tmp_path, ignore_whitespace_casing=True)[:3] == (0, 0, 1)


def test_best_annotator_on_cumulative_f(tmp_path: Path) -> None:
    m2 = ("S a b c\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n"
          "A 1 2|||Y|||y|||REQUIRED|||-NONE-|||1\n\n")
    res = maxmatch(["a y c"], _m2(tmp_path, m2))
    assert res.sentences[0]["annotator"] == 1
    assert res.counts["correct"] == 1
    assert res.per_type["Y"]["tp"] == 1 and "X" not in res.per_type


def test_signature_json_and_sentences(tmp_path: Path) -> None:
    res = maxmatch(["This is a test ."], _m2(tmp_path, SVA), beta=1.0)
    assert res.signature.startswith("maxmatch|beta:1.0|max_unchanged_words:2")
    data = json.loads(res.to_json())
    assert data["corpus"]["f1"] == 1.0 and data["sentences"][0]["correct"] == 1


def test_line_count_mismatch_names_file(tmp_path: Path) -> None:
    sys_file = tmp_path / "sys.txt"
    sys_file.write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(LineCountError, match="sys.txt.*2 lines.*1 source"):
        MaxMatch().score_files(sys_file, _m2(tmp_path, SVA))


def test_malformed_m2_names_line(tmp_path: Path) -> None:
    bad = _m2(tmp_path, "S a b\nA 0 1|||X|||y|||REQUIRED\n\n")
    with pytest.raises(M2FormatError, match=r"gold.m2, line 2"):
        load_gold(bad)
    out_of_range = _m2(tmp_path, "S a b\nA 0 5|||X|||y|||REQUIRED|||-NONE-|||0\n\n", "r.m2")
    with pytest.raises(M2FormatError, match=r"r.m2, line 2.*outside"):
        load_gold(out_of_range)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = _m2(tmp_path, SVA)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("This is a test .\n", encoding="utf-8")
    assert main([str(hyp), str(gold)]) == 0
    out = capsys.readouterr().out
    assert "Precision   : 1.0000" in out and "F_0.5       : 1.0000" in out
    assert "maxmatch|beta:0.5" in out
    assert main([str(hyp), str(gold), "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["correct"] == 1
    assert main([str(hyp), str(gold), "-v", "--per-type", "--sentences",
                 str(tmp_path / "s.tsv")]) == 0
    out = capsys.readouterr().out
    assert ">> Chosen Annotator for line 1 : 0" in out and "SVA\t1\t0\t0" in out
    assert (tmp_path / "s.tsv").read_text().splitlines()[1].startswith("0\t0\t1\t1\t1")
    hyp.write_text("a\nb\n", encoding="utf-8")
    assert main([str(hyp), str(gold)]) == 2
    assert "hyp.txt" in capsys.readouterr().err


# --------------------------------------------------------------------- CoNLL-2014 fidelity

CONLL = {  # correct, proposed, gold, then P/R/F0.5 x100 to 4 decimals (m2scorer 3.2)
    "AMU": (509, 1223, 2378, "41.6190", "21.4045", "35.0069"),
    "CAMB": (772, 1944, 2565, "39.7119", "30.0975", "37.3271"),
    "CUUI": (623, 1491, 2504, "41.7840", "24.8802", "36.7855"),
    "INPUT": (0, 0, 1994, "100.0000", "0.0000", "0.0000"),
}


def _check(res: object, expected: tuple) -> None:
    c = res.counts  # type: ignore[attr-defined]
    got = (c["correct"], c["proposed"], c["gold"],
           *(f"{100 * v:.4f}" for v in res.corpus.values()))  # type: ignore[attr-defined]
    assert got == expected


@pytest.fixture(scope="module")
def conll_gold() -> list:
    return load_gold(shared_path("conll14", "official-2014.combined.m2"))


@pytest.mark.parametrize("system", sorted(CONLL))
def test_conll14_official_numbers(system: str, conll_gold: list) -> None:
    path = shared_path("conll14", "systems", system)
    hyps = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    _check(MaxMatch().score(hyps, conll_gold), CONLL[system])


@pytest.mark.parametrize("system", sorted(CONLL))
def test_conll14_crlf_and_trailing_spaces(system: str, tmp_path: Path) -> None:
    gold = shared_path("conll14", "official-2014.combined.m2")
    sys_path = shared_path("conll14", "systems", system)
    g2 = tmp_path / "gold.m2"
    g2.write_bytes(b"".join(line.rstrip(b"\r\n") + b" \r\n"
                            for line in gold.read_bytes().splitlines(keepends=True)))
    s2 = tmp_path / "sys.txt"
    s2.write_bytes(b"".join(line.rstrip(b"\r\n") + b"  \r\n"
                            for line in sys_path.read_bytes().splitlines(keepends=True)))
    _check(MaxMatch().score_files(s2, g2), CONLL[system])


def test_cli_system_from_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"This is a test .\r\n")))
    assert main(["-", str(_m2(tmp_path, SVA))]) == 0
    assert "Recall      : 1.0000" in capsys.readouterr().out


def test_misaligned_output_is_reported(tmp_path: Path) -> None:
    m2 = "".join(f"S w{i} x{i} y{i} z{i} v{i}\n\n" for i in range(4))
    hyps = ["a b c d e", "f g h i j", "k l m n o", "w3 x3 y3 z3 v3"]
    res = maxmatch(hyps, _m2(tmp_path, m2))
    assert res.notes[0].startswith("warning: 3 of 4 hypotheses share almost no tokens")
    assert "lines 1, 2, 3" in res.notes[0]
    res = maxmatch(hyps[:1] + [f"w{i} x{i} y{i} z{i} v{i}" for i in (1, 2, 3)], _m2(tmp_path, m2))
    assert res.notes[0].startswith("note: 1 of 4")


def test_budget_is_reported_not_silent(tmp_path: Path) -> None:
    m2 = "S a b c d e f\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n\nS g h\n\n"
    hyps = ["u v w x y", "g h"]
    exact = maxmatch(hyps, _m2(tmp_path, m2))
    assert exact.counts["budget_hits"] == 0 and "max_arcs" not in exact.signature
    res = maxmatch(hyps, _m2(tmp_path, m2), max_arcs=3)
    assert res.counts["budget_hits"] == 1 and res.counts["proposed"] == 0
    assert "max_arcs:3" in res.signature
    assert res.notes[0].startswith("warning: budget: 1 sentences exceeded max_arcs=3")
    assert "lines 1)" in res.notes[0]


def test_one_metric_object_scores_systems_alike_as_fresh_ones() -> None:
    """A report scores every system with one metric object, which computes a hypothesis two
    systems wrote alike once: the results (and budget hits) are those of fresh objects."""
    from errtype.m2 import read_m2
    from errtype.score.registry import ScoreInput, get_metric

    gold = list(read_m2(shared_path("conll14", "official-2014.combined.m2")))[:200]
    systems = {n: [ln.strip() for ln in shared_path("conll14", "systems", n).read_text(
        encoding="utf-8").splitlines()][:200] for n in ("AMU", "CUUI", "INPUT")}
    systems["AMU2"] = systems["AMU"]
    for arcs in (None, 40):
        shared = get_metric("maxmatch", max_arcs=arcs)
        for name, hyps in systems.items():
            got = shared.score(ScoreInput(gold, hyps, name=name))
            want = get_metric("maxmatch", max_arcs=arcs).score(ScoreInput(gold, hyps, name=name))
            assert (got.corpus, got.counts | {"seconds": 0}, got.sentences, got.notes) == (
                want.corpus, want.counts | {"seconds": 0}, want.sentences, want.notes), name
        assert shared._memo is not None and len(shared._memo[3]) < 3 * 200
    assert get_metric("maxmatch", max_arcs=40).score(ScoreInput(gold, systems["AMU"])).counts[
        "budget_hits"] > 0
