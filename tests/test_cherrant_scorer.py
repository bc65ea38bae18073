"""The ``cherrant`` metric: ChERRANT's compare_m2_for_evaluation.py reproduced.

The expected numbers and tables below come from running ChERRANT's own script
(HillZhang1999/MuCGEC at commit 3922193; ``scorers/ChERRANT/compare_m2_for_evaluation.py``, last
changed in cd92389) on the hand-built files ``tests/data/cherrant/{hyp,ref}.m2``, which exercise
every flag: two references, a reference with two equal-cost edit sequences sharing an edit, a
``没有错误`` noop reference, an ``NA`` reference alone and beside another, four references,
a system with two hypotheses, a hypothesis with two edit sequences, a block in standard M2,
corrections segmented differently from the reference, ``UNK``, multi-token spans, insertions at
the end. :func:`test_same_text_as_cherrant` runs the script itself (from a checkout of MuCGEC
named by ``$ERRTYPE_CHERRANT``) on those files over the whole flag grid, and on the demo samples
ChERRANT ships.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errtype.cli.score import main as score_main
from errtype.m2 import read_m2
from errtype.score.edits.cherrant import CherrantMetric, cherrant_score
from errtype.score.edits.errant import SentenceCountError
from errtype.score.registry import get_metric

from .conftest import bench_module, peer, peer_repo

DATA = Path(__file__).parent / "data" / "cherrant"
HYP, REF = DATA / "hyp.m2", DATA / "ref.m2"

#: (options, (TP, FP, FN, P, R, F)) printed by ChERRANT for the same flags
PINNED: list[tuple[dict[str, Any], tuple[int, int, int, float, float, float]]] = [
    ({}, (9, 5, 4, 0.6429, 0.6923, 0.6522)),
    ({"mode": "cse"}, (9, 5, 5, 0.6429, 0.6429, 0.6429)),
    ({"mode": "ds"}, (11, 4, 2, 0.7333, 0.8462, 0.7534)),
    ({"mode": "dt"}, (12, 4, 2, 0.75, 0.8571, 0.7692)),
    ({"single": True}, (8, 4, 4, 0.6667, 0.6667, 0.6667)),
    ({"multi": True}, (1, 1, 0, 0.5, 1.0, 0.5556)),
    ({"max_answer_num": 1}, (7, 7, 6, 0.5, 0.5385, 0.5072)),
    ({"max_answer_num": 2}, (8, 6, 5, 0.5714, 0.6154, 0.5797)),
    ({"max_answer_num": 3}, (8, 6, 5, 0.5714, 0.6154, 0.5797)),
    ({"reference_num": 1}, (2, 4, 1, 0.3333, 0.6667, 0.3704)),
    ({"reference_num": 2}, (6, 1, 3, 0.8571, 0.6667, 0.8108)),
    ({"start": 2, "end": 7}, (4, 3, 1, 0.5714, 0.8, 0.6061)),
    ({"beta": 1.0}, (9, 5, 4, 0.6429, 0.6923, 0.6667)),
    ({"beta": 2}, (9, 5, 4, 0.6429, 0.6923, 0.6818)),
    ({"filt": ("S:SPELL", "UNK")}, (8, 5, 4, 0.6154, 0.6667, 0.625)),
    ({"filt": ("NA",)}, (9, 6, 4, 0.6, 0.6923, 0.6164)),
    ({"mode": "dt", "filt": ("NA",)}, (12, 5, 2, 0.7059, 0.8571, 0.7317)),
    ({"single": True, "multi": True}, (0, 0, 0, 1.0, 1.0, 1.0)),
]

#: ChERRANT's output with -cat 3; -cat 2 -ds; -cat 1 -dt
CAT3 = """
===================== Span-Based Correction ======================
Category       TP       FP       FN       P        R        F0.5
M:ADV          2        0        0        1.0      1.0      1.0
M:AUX          1        0        0        1.0      1.0      1.0
M:PUNCT        0        1        0        0.0      1.0      0.0
R:AUX          2        0        1        1.0      0.6667   0.9091
R:PREP         1        0        0        1.0      1.0      1.0
R:PRON         1        0        0        1.0      1.0      1.0
R:PUNCT        0        1        0        0.0      1.0      0.0
S:NOUN         0        2        1        0.0      0.0      0.0
S:OTHER        0        1        1        0.0      0.0      0.0
S:PRON         0        0        1        1.0      0.0      0.0
S:SPELL        1        0        0        1.0      1.0      1.0
W              1        0        0        1.0      1.0      1.0

=========== Span-Based Correction ============
TP\tFP\tFN\tPrec\tRec\tF0.5
9\t5\t4\t0.6429\t0.6923\t0.6522
==============================================

"""
CAT2_DS = """
====================== Span-Based Detection ======================
Category       TP       FP       FN       P        R        F0.5
               1        0        0        1.0      1.0      1.0
ADV            2        0        0        1.0      1.0      1.0
AUX            3        0        1        1.0      0.75     0.9375
NOUN           1        0        0        1.0      1.0      1.0
OTHER          0        1        0        0.0      1.0      0.0
PREP           1        0        0        1.0      1.0      1.0
PRON           0        0        1        1.0      0.0      0.0
PUNCT          0        2        0        0.0      1.0      0.0
SPELL          1        0        0        1.0      1.0      1.0
UNK            1        1        0        0.5      1.0      0.5556
VERB           1        0        0        1.0      1.0      1.0

============ Span-Based Detection ============
TP\tFP\tFN\tPrec\tRec\tF0.5
11\t4\t2\t0.7333\t0.8462\t0.7534
==============================================

"""
CAT1_DT = """
===================== Token-Based Detection ======================
Category       TP       FP       FN       P        R        F0.5
M              4        1        0        0.8      1.0      0.8333
R              3        1        1        0.75     0.75     0.75
S              2        1        1        0.6667   0.6667   0.6667
UNK            1        1        0        0.5      1.0      0.5556
W              2        0        0        1.0      1.0      1.0

=========== Token-Based Detection ============
TP\tFP\tFN\tPrec\tRec\tF0.5
12\t4\t2\t0.75\t0.8571\t0.7692
==============================================

"""


@pytest.mark.parametrize(("options", "expected"), PINNED,
                         ids=[str(o) or "defaults" for o, _ in PINNED])
def test_pinned_numbers(options: dict[str, Any], expected: tuple) -> None:
    res = cherrant_score(HYP, REF, **options)
    c = res.counts
    beta = float(options.get("beta", 0.5))
    got = (c["tp"], c["fp"], c["fn"], res.corpus["p"], res.corpus["r"], res.corpus[f"f{beta}"])
    assert got == expected


@pytest.mark.parametrize(("options", "text"), [({"cat": 3}, CAT3),
                                               ({"cat": 2, "mode": "ds"}, CAT2_DS),
                                               ({"cat": 1, "mode": "dt"}, CAT1_DT)])
def test_pinned_type_tables(options: dict[str, Any], text: str) -> None:
    assert cherrant_score(HYP, REF, **options).errant_text() == text


def test_conventions() -> None:
    res = cherrant_score(HYP, REF)
    first = res.sentences[0]
    # "一 起" matches "一起"; the deletion both edit sequences of reference 0 list counts twice;
    # the edits of reference 0's two sequences are one set: the other sequence's edit is missed
    assert (first["tp"], first["fp"], first["fn"]) == (3, 0, 1)
    assert first["types"] == {"M:ADV": [1, 0, 0], "R:AUX": [2, 0, 0], "S:PRON": [0, 0, 1]}
    # sentence 1 (index 1) has one NA reference: not scored; sentence 2 has NA beside another
    assert [s["index"] for s in res.sentences] == [0, *range(2, 10)]
    assert res.counts["na"] == 1 and "NA" in res.notes[0]
    second = res.sentences[1]
    assert (second["ref_coder"], second["tp"], second["fp"], second["fn"]) == (0, 0, 0, 0)
    # the fourth reference matches; of two hypotheses and two references, the second hypothesis
    # with the first reference (the first hypothesis' insertion is wrong)
    assert [(s["hyp_coder"], s["ref_coder"]) for s in res.sentences[3:5]] == [(0, 3), (1, 0)]
    assert res.signature.startswith("cherrant|mode:cs|beta:0.5|round:4|compat:cherrant-")


def test_more_than_three_answers_keeps_them() -> None:
    """ChERRANT's script keeps no edit at all for --max_answer_num 4 or more (TP = FP = FN = 0,
    F = 1.0, what it prints for these files); the option's meaning is kept instead."""
    assert cherrant_score(HYP, REF, max_answer_num=4).counts == cherrant_score(HYP, REF).counts
    with pytest.raises(ValueError, match="positive"):
        cherrant_score(HYP, REF, max_answer_num=0)
    with pytest.raises(ValueError, match="cat"):
        CherrantMetric(cat=4)


def test_lengths_are_checked_after_slicing() -> None:
    hyp = list(read_m2(HYP))
    ref = list(read_m2(REF))
    with pytest.raises(SentenceCountError, match="9 hypothesis and 10 reference"):
        cherrant_score(hyp[:9], ref)
    # the same slice of both files: their lengths may differ beyond it, as in ChERRANT
    assert cherrant_score(hyp[:9], ref, start=0, end=5).counts["sentences"] == 4


def test_metric_object() -> None:
    m = get_metric("cherrant", mode="ds", cat=1)
    assert m.settings()["mode"] == "ds" and m.main == "f0.5"
    res = m.score_blocks(HYP, REF)
    assert res.counts["tp"] == 11 and set(res.per_type) == {"M", "R", "S", "UNK", "W"}


# ------------------------------------------------------------------------------ errtype score


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = score_main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_cli_tsv(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "-m", "cherrant", "--ref", str(REF), "--hyp", f"SYS={HYP}",
                         "--tsv")
    assert code == 0, err
    assert out == ("system\tmetric\ttp\tfp\tfn\tp\tr\tf\n"
                   "SYS\tcherrant\t9\t5\t4\t0.6429\t0.6923\t0.6522\n")
    code, out, _ = run(capsys, "-m", "cherrant", "--ref", str(REF), "--hyp", f"SYS={HYP}",
                       "--tsv", "--cherrant-mode", "dt", "--cat", "1", "--max-answer-num", "3",
                       "--reference-num", "2", "--start", "0", "--end", "10")
    lines = out.splitlines()
    assert lines[1].split("\t")[:2] == ["SYS", "cherrant"]
    expected = cherrant_score(HYP, REF, mode="dt", cat=1, max_answer_num=3, reference_num=2,
                              start=0, end=10)
    assert lines[1].split("\t")[2:5] == [str(expected.counts[k]) for k in ("tp", "fp", "fn")]
    assert lines[3] == "system\tmetric\ttype\ttp\tfp\tfn\tp\tr\tf"
    assert [ln.split("\t")[2] for ln in lines[4:]] == sorted(expected.per_type)


def test_cli_table_prints_cherrant_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "-m", "cherrant", "--ref", str(REF), "--hyp", f"SYS={HYP}",
                       "--cat", "3", "--single", "--filt", "UNK")
    assert code == 0
    assert out.endswith("SYS (cherrant):\n" + cherrant_score(
        HYP, REF, cat=3, single=True, filt=("UNK",)).errant_text())
    assert "cherrant: cherrant|mode:cs|beta:0.5|single:yes|filt:UNK|" in out


def test_cli_mixed_metrics_and_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    # one source differs: ChERRANT pairs blocks by position (a warning); m2 refuses it
    other = tmp_path / "other.m2"
    other.write_text(HYP.read_text(encoding="utf-8").replace("S 天气 很 好 。", "S 天气 很 好 ！"),
                     encoding="utf-8")
    code, out, err = run(capsys, "-m", "cherrant", "--ref", str(REF), "--hyp", f"X={other}")
    assert code == 0 and "1 sentence(s) differ from the gold's source" in err
    code, _, err = run(capsys, "-m", "cherrant", "m2", "--ref", str(REF), "--hyp", f"X={other}")
    assert code == 2 and "differs from the gold sentence" in err
    # with other metrics the TSV keeps its generic columns; m2 scores each reference's first
    # edit sequence (standard M2), cherrant the file as read
    code, out, _ = run(capsys, "-m", "cherrant", "m2", "--ref", str(REF), "--hyp", f"X={HYP}",
                       "--tsv")
    rows = out.splitlines()
    assert rows[0] == "system\tmetric\tscore\tp\tr\tf\tsignature"
    assert rows[1].startswith("X\tcherrant\t0.6522\t0.6429\t0.6923\t0.6522\tcherrant|")
    code, _, err = run(capsys, "-m", "cherrant", "--ref", str(REF), "--hyp", f"X={HYP}",
                       "--max-answer-num", "0")
    assert code == 2 and "--max-answer-num 0: option 'max_answer_num' of metric cherrant must " \
        "be none or an integer >= 1" in err


# ------------------------------------------------------------------------------ the peer


def _peer(tmp_path: Path) -> tuple[Any, Any, Path]:
    """bench/cherrant_scorer.py, ChERRANT's scorer imported from the checkout, its samples."""
    checkout = peer_repo("cherrant")
    bench = bench_module("cherrant_scorer")
    return bench, bench.load_peer(tmp_path, checkout), checkout / bench.SAMPLES


def test_same_text_as_cherrant(tmp_path: Path) -> None:
    """ChERRANT's printed text, byte for byte, for every flag combination on the hand-built
    files (732 runs; 60 leave no sentence to score and are refused) and the basic ones on
    ChERRANT's demo samples (char and word)."""
    bench, peer, samples = _peer(tmp_path)
    pairs = [(HYP, REF, bench.flag_grid())]
    for g in ("char", "word"):
        hyp, ref = samples / f"demo.hyp.m2.{g}", samples / f"demo.ref.m2.{g}"
        pairs.append((hyp, ref, bench.BASIC))
    refused = []
    for hyp, ref, grid in pairs:
        blocks = list(read_m2(hyp)), list(read_m2(ref))
        for flags in grid:
            verdict = bench.same_as_peer(peer, hyp, ref, flags, blocks)
            assert verdict is not False, (hyp.name, flags)
            if verdict is None:
                refused.append(flags)
    # the one difference: a selection leaving no sentence to score (ChERRANT: P = R = F = 1.0)
    # is refused; here --max_answer_num 1 with --reference_num 2 (one reference left)
    assert refused and all(f[f.index("--max_answer_num") + 1] == "1"
                           and f[f.index("--reference_num") + 1] == "2" for f in refused)
    # the README's figure for the char demo
    assert cherrant_score(*pairs[1][:2]).counts == {"tp": 8, "fp": 19, "fn": 35, "sentences": 20}


def test_cli_on_cherrant_samples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench, peer, samples = _peer(tmp_path)
    for g in ("char", "word"):
        hyp, ref = samples / f"demo.hyp.m2.{g}", samples / f"demo.ref.m2.{g}"
        code, out, _ = run(capsys, "-m", "cherrant", "--ref", str(ref), "--hyp", f"demo={hyp}",
                           "--tsv")
        text = bench.run_peer(peer, hyp, ref, [])
        numbers = text.strip().splitlines()[-2].split("\t")
        assert code == 0 and out.splitlines()[1].split("\t") == ["demo", "cherrant", *numbers]


def test_text_hypotheses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A text system is annotated once by the Chinese char annotator, written as ChERRANT's
    parallel_to_m2.py writes it (every equal-cost edit sequence), against ``--src`` (ChERRANT
    annotates against its input; one demo reference has ":" where the input has "："): the
    numbers ChERRANT prints for the M2 it shipped for the same system (demo.hyp.m2.char)."""
    peer("opencc", "the zh extra converts corrections to simplified characters")
    peer("pypinyin", "the zh extra's substitution costs")
    bench, module, samples = _peer(tmp_path)
    src, text = samples / "demo.input", samples / "demo.hyp"
    hyp, ref = samples / "demo.hyp.m2.char", samples / "demo.ref.m2.char"
    code, out, err = run(capsys, "-m", "cherrant", "--src", str(src), "--ref", str(ref),
                         "--hyp", f"T={text}", f"M={hyp}", "--tsv")
    assert code == 0 and "1 source line(s) differ" in err
    numbers = bench.run_peer(module, hyp, ref, []).strip().splitlines()[-2].split("\t")
    assert out.splitlines()[1:] == ["\t".join(["T", "cherrant", *numbers]),
                                    "\t".join(["M", "cherrant", *numbers])]


def test_an_empty_selection_is_refused(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33: a selection scoring no sentence printed F = 100 (ChERRANT's script prints
    P = R = F = 1.0 for it); it is refused, as the report refuses an empty ``--subset``. A
    corpus with nothing to correct and nothing proposed keeps P = R = F = 1, the convention of
    ChERRANT, errant_compare and m2scorer, and of every errtype metric beside it."""
    from errtype.errors import InputError

    with pytest.raises(InputError, match="no sentence to score: start 3 and end 3 keep none "
                                         "of the 10 sentences"):
        cherrant_score(HYP, REF, start=3, end=3)
    with pytest.raises(InputError, match=r"of the 10 sentences, 10 without exactly 9 "
                                         r"reference\(s\)"):
        cherrant_score(HYP, REF, reference_num=9)
    code, out, err = run(capsys, "-m", "cherrant", "errant", "--ref", str(REF), "--hyp",
                         f"SYS={HYP}", "--reference-num", "9")
    assert (code, out) == (2, "") and err == (
        "errtype score: error: cherrant: no sentence to score: of the 10 sentences, 10 without "
        "exactly 9 reference(s)\n")
    # nothing to correct, nothing proposed: 1.0 in every edit metric
    gold = tmp_path / "gold.m2"
    gold.write_text("S 他 很 好 。\nT0 没有错误\n"
                    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("他很好。\n", encoding="utf-8")
    metrics = ["cherrant", "errant", "senterrant", "m2", "sentm2", "cleme"]
    code, out, err = run(capsys, "-m", *metrics, "--lang", "zh", "--ref", str(gold), "--hyp",
                         f"SYS={tmp_path / 'sys.txt'}", "--tsv")
    assert code == 0, err
    assert {r.split("\t")[1]: r.split("\t")[2:6] for r in out.splitlines()[1:]} == dict.fromkeys(
        metrics, ["1.0"] * 4)
