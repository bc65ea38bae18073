"""GREEN (gec-metrics' n-gram F-beta over source, hypothesis and reference) and the system
ranking by TrueSkill / ExpectedWins over sentence scores (``--aggregation``): hand-built cases,
gec-metrics' own pinned numbers, and gec-metrics itself side by side where it is installed."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from errtype.cli.score import main as score_main
from errtype.errors import InputError
from errtype.score.meta.aggregation import aggregate, pairwise_games
from errtype.score.meta.trueskill import GEC_METRICS
from errtype.score.ngram.green import Green, green_counts, ngram_counts
from errtype.score.registry import ScoreInput, get_metric

from .conftest import bench_module, peer

# gec-metrics' test data and pinned scores (src/gec_metrics/metrics/green_test.py, MIT)
SRCS = ["This sentences contain gramamtical error .", "This is a sentence .",
        "This is no change .", "I bought a pen to write a letter to a friend ."]
HYPS = ["This sentence contains a grammatical error .",
        "the sentence was corrected into completely different one .",
        "This is no change .", "I bought a pen to write a letter to a friend ."]
REFS = [["This sentence contains a gramamtical error .", "dummy sentence .",
         "This is no change .", "I bought a pen to write a letter to the friend ."],
        ["These sentences contain grammatical errors .", "another dummy sentence .",
         "This is no change .", "I bought a pen to write the letter to the friend ."]]
PINNED = {0.5: (67.353281938837, [67.080694940041, 34.099683242425, 100.0, 89.496113939418]),
          2.0: (71.852523831581, [74.467815149281, 60.992075408949, 100.0, 68.051848160668])}


@pytest.mark.parametrize("beta", [0.5, 2.0])
def test_green_equals_gec_metrics_pinned_scores(beta: float) -> None:
    res = Green(beta=beta).score(SRCS, REFS, HYPS)
    corpus, sents = PINNED[beta]
    assert math.isclose(100 * res.corpus["green"], corpus, abs_tol=1e-9)
    for got, want in zip(res.sentences, sents, strict=True):
        assert math.isclose(100 * got["score"], want, abs_tol=1e-9)


def test_green_counts_by_hand() -> None:
    # S "a b", H "a c", R "a c": unigrams a kept (TP 1), b deleted (TP 1), c inserted (TP 1)
    s, h, r = (ngram_counts(t, 2) for t in ("a b", "a c", "a c"))
    # bigrams: "a b" deleted, "a c" inserted
    assert green_counts(s, h, r, 2) == [(3, 0, 0), (2, 0, 0)]
    # H keeps b (under-deletion: FN), misses c (under-insertion: FN), adds d (over-insertion: FP)
    h2 = ngram_counts("a b d", 1)
    assert green_counts(ngram_counts("a b", 1), h2, ngram_counts("a c", 1), 1) == [(1, 1, 2)]
    # H deletes "a" that R keeps: over-deletion
    assert green_counts(ngram_counts("a b", 1), ngram_counts("b", 1),
                        ngram_counts("a b", 1), 1) == [(1, 1, 0)]
    assert ngram_counts("  ", 4) == {}
    assert ngram_counts("ab", 2, "char") == {("a",): 1, ("b",): 1, ("a", "b"): 1}


def test_green_chooses_the_best_reference_per_sentence() -> None:
    res = Green().score(["a b"], [["x y"], ["a c"]], ["a c"])
    assert res.sentences[0]["reference"] == 1 and res.sentences[0]["score"] == 1.0
    assert res.corpus["green"] == 1.0
    # a tie keeps the first reference
    assert Green().score(["a"], [["a"], ["a"]], ["a"]).sentences[0]["reference"] == 0


def test_green_char_unit_and_registry() -> None:
    m = get_metric("green-char")
    assert m.unit == "char" and m.name == "green-char"
    data = ScoreInput([], ["ab c"], sources=["ab d"], references=[["ab c"]])
    res = m.score(data)
    assert res.corpus["green"] == 1.0 and "unit:char" in res.signature
    word = get_metric("green", unit="word").score(data)
    assert word.corpus["green"] == 1.0
    with pytest.raises(InputError):
        get_metric("green", unit="byte").score(data)


def test_green_against_gec_metrics_on_generated_corpus() -> None:
    peer("trueskill")
    peer("gecommon")
    try:
        gm = bench_module("gec_metrics_peer").load("metrics.green")
    except ImportError:
        peer("gec_metrics")  # skips locally (fails in CI if required)
        raise
    rng = random.Random(7)
    words = "a b c d e the cat sat on mat .".split()
    src = [" ".join(rng.choices(words, k=rng.randint(0, 9))) for _ in range(60)]

    def vary(s: str) -> str:
        toks = s.split()
        for _ in range(rng.randint(0, 3)):
            if toks and rng.random() < 0.5:
                toks.pop(rng.randrange(len(toks)))
            else:
                toks.insert(rng.randint(0, len(toks)), rng.choice(words))
        return " ".join(toks)

    refs = [[vary(s) for s in src] for _ in range(2)]
    systems = {f"s{k}": [vary(s) for s in src] for k in range(4)}
    for unit in ("word", "char"):
        theirs = gm.GREEN(gm.GREEN.Config(unit=unit))
        ours = Green(unit=unit)
        for hyp in systems.values():
            res = ours.score(src, refs, hyp)
            assert res.corpus["green"] == theirs.score_corpus(src, hyp, refs)
            assert [s["score"] for s in res.sentences] == theirs.score_sentence(src, hyp, refs)
        sent = {k: [s["score"] for s in ours.score(src, refs, h).sentences]
                for k, h in systems.items()}
        for how in ("trueskill", "expected_wins") if hasattr(
                theirs, "run_expected_wins") else ("trueskill",):
            want = theirs.rank_systems(src, list(systems.values()), refs, aggregation=how)
            got = aggregate(sent, how)
            # trueskill's erfc is an approximation (about 1e-7 relative): equal to 1e-6
            assert [got[k] for k in systems] == pytest.approx(want, abs=1e-6)


def test_pairwise_games_order_and_ties() -> None:
    scores = {"A": [1.0, 0.5], "B": [0.0, 0.5], "C": [2.0, 0.0]}
    assert pairwise_games(scores) == [("A", "B", False), ("C", "A", False), ("C", "B", False),
                                      ("A", "B", True), ("A", "C", False), ("B", "C", False)]
    assert pairwise_games(scores, higher_is_better=False)[0] == ("B", "A", False)
    with pytest.raises(InputError):
        pairwise_games({"A": [1.0], "B": [1.0, 2.0]})
    with pytest.raises(InputError):
        aggregate({"A": [1.0]}, "trueskill")


def test_expected_wins_by_hand() -> None:
    # A beats B twice, B beats A once; C never decides against A, loses to B once
    scores = {"A": [1, 1, 0, 5], "B": [0, 0, 1, 4], "C": [1, 1, 0, 5]}
    ew = aggregate(scores, "expected_wins")
    # A: vs B 3/4 (sentences 1, 2, 4 won, 3 lost), vs C 0 (never decided) -> 0.375
    assert ew["A"] == pytest.approx(0.375)
    assert ew["B"] == pytest.approx((1 / 4 + 1 / 4) / 2)
    assert ew["C"] == pytest.approx(0.375)
    with pytest.raises(InputError):
        aggregate(scores, "borda")


def test_trueskill_aggregation_equals_the_trueskill_package() -> None:
    ts = peer("trueskill")
    rng = random.Random(3)
    systems = [f"sys{i}" for i in range(6)]
    scores = {s: [float(rng.randint(0, 3)) for _ in range(80)] for s in systems}  # many ties
    env = ts.TrueSkill(mu=0.0, sigma=0.5, beta=0.25, tau=0.0, draw_probability=0.25)
    players = {s: env.create_rating() for s in systems}
    for a, b, draw in pairwise_games(scores):
        players[a], players[b] = (x[0] for x in env.rate([(players[a],), (players[b],)],
                                                          ranks=[0, 0 if draw else 1]))
    got = aggregate(scores, "trueskill")
    for s in systems:
        # the package's erfc is an approximation (about 1e-7 relative): equal to 1e-6
        assert got[s] == pytest.approx(players[s].mu, abs=1e-6)
    assert list(got) == systems  # the given order, not sorted
    assert GEC_METRICS.runs == 1 and not GEC_METRICS.shuffle and GEC_METRICS.tau == 0


def test_cli_green_with_trueskill_aggregation_tsv(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S he go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S a cat sat .\n\nS it are here .\n"
                    "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n\n")
    src = tmp_path / "src.txt"
    src.write_text("he go home .\na cat sat .\nit are here .\n")
    sys_files = {"good": "he goes home .\na cat sat .\nit is here .\n",
                 "some": "he goes home .\na cat sat .\nit are here .\n",
                 "none": "he go home .\na cat sat .\nit are here .\n"}
    hyps = []
    for name, text in sys_files.items():
        (tmp_path / f"{name}.txt").write_text(text)
        hyps.append(f"{name}={tmp_path / name}.txt")
    assert score_main(["-m", "green", "--aggregation", "trueskill", "--src", str(src),
                       "--ref", str(gold), "--hyp", *hyps, "--tsv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    head = lines[0].split("\t")
    assert head[:3] == ["system", "metric", "score"]
    rows = {r.split("\t")[0]: r.split("\t") for r in lines[1:]}
    assert list(rows) == ["good", "some", "none"]
    values = {k: float(v[2]) for k, v in rows.items()}
    assert values["good"] > values["some"] > values["none"]
    assert all("aggregation:trueskill" in v[-1] for v in rows.values())
    # the same systems without aggregation: GREEN corpus scores, same order of merit
    assert score_main(["-m", "green", "--src", str(src), "--ref", str(gold), "--hyp", *hyps,
                       "--tsv"]) == 0
    plain = {r.split("\t")[0]: float(r.split("\t")[2])
             for r in capsys.readouterr().out.strip().splitlines()[1:]}
    assert plain["good"] == 1.0 > plain["some"] > plain["none"]


def test_cli_aggregation_needs_sentence_scores(tmp_path: Path, capsys) -> None:
    src = tmp_path / "src.txt"
    src.write_text("a b .\n")
    ref = tmp_path / "ref.txt"
    ref.write_text("a c .\n")
    hyp = tmp_path / "h.txt"
    hyp.write_text("a c .\n")
    code = score_main(["-m", "gleu", "-O", "gleu.sentence_level=False", "--aggregation",
                       "expected_wins", "--src", str(src), "--ref", str(ref),
                       "--hyp", f"x={hyp}", f"y={hyp}"])
    assert code != 0
    assert "sentence scores" in capsys.readouterr().err
