"""Meta-evaluation: correlations, bootstrap, ExpectedWins, sentence-level agreement, GJG15."""

from __future__ import annotations

import json
import math

import pytest

from errtype.cli.meta import main
from errtype.errors import InputError
from errtype.score.meta.correlation import (
    aggregate_fscore,
    aggregate_sum,
    bootstrap_system_correlation,
    expected_wins,
    pearson,
    ranks,
    read_judgments,
    read_scores,
    sentence_agreement,
    spearman,
    system_correlation,
)

from .conftest import shared_path

XML = """<?xml version="1.0" encoding="UTF-8"?>
<appraise-results>
<error-correction-ranking-result id="x">
  <ranking-item doc-id="d" id="0" src-id="0" user="u1">
    <translation rank="1" system="A"/>
    <translation rank="2" system="B C"/>
  </ranking-item>
  <ranking-item doc-id="d" id="1" src-id="1" user="u1">
    <translation rank="3" system="A"/>
    <translation rank="1" system="B"/>
    <translation rank="2" system="C"/>
  </ranking-item>
  <ranking-item doc-id="d" id="2" src-id="1" user="u2">
    <translation rank="1" system="A"/>
    <translation rank="4" system="C"/>
  </ranking-item>
</error-correction-ranking-result>
</appraise-results>
"""


@pytest.fixture
def judgments(tmp_path):
    p = tmp_path / "j.xml"
    p.write_text(XML)
    return p


def test_pearson_spearman_by_hand() -> None:
    x, y = [1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 4.0]
    assert pearson(x, y) == pytest.approx(0.8)
    assert spearman(x, y) == pytest.approx(0.8)
    assert spearman([1, 2, 3], [10, 20, 1000]) == pytest.approx(1.0)
    assert ranks([5, 1, 5, 3]) == [3.5, 1.0, 3.5, 2.0]
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ValueError):
        pearson([1], [1, 2])


def test_system_correlation_checks() -> None:
    m = {"a": 1.0, "b": 2.0, "c": 3.0, "extra": 9.0}
    h = {"a": 0.1, "b": 0.3, "c": 0.2}
    r = system_correlation(m, h)
    assert r["n"] == 3 and r["spearman"] == pytest.approx(0.5)
    with pytest.raises(InputError):
        system_correlation(m, h, ["a", "b", "zz"])
    with pytest.raises(InputError):
        system_correlation({"a": 1.0, "b": 2.0}, h)


def test_expected_wins_by_hand(judgments) -> None:
    items = read_judgments(judgments)
    assert [r.src_id for r in items] == [0, 1, 1]
    assert items[0].ranks == {"A": 1, "B": 2, "C": 2}  # collapsed outputs share the rank
    ew = expected_wins(items)
    # A-B: A wins item 0, loses item 1 -> 1/2; A-C: wins 0 and 2, loses 1 -> 2/3
    # B-C: tie in item 0 (ignored), B wins item 1 -> 1; C: vs A 1/3, vs B 0
    assert ew["A"] == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert ew["B"] == pytest.approx((1 / 2 + 1) / 2)
    assert ew["C"] == pytest.approx((1 / 3 + 0) / 2)
    assert list(ew) == ["B", "A", "C"]


def test_sentence_agreement_ties_disagree(judgments) -> None:
    items = read_judgments(judgments)
    scores = {"A": [0.9, 0.1], "B": [0.5, 0.5], "C": [0.5, 0.1]}
    r = sentence_agreement(items, scores)
    # item 0: A>B agree, A>C agree (B=C human tie skipped); item 1: B>A agree, B>C agree,
    # C>A metric tie -> disagree; item 2: A>C metric tie -> disagree
    assert (r["agree"], r["disagree"], r["metric_ties"], r["pairs"]) == (4, 2, 2, 6)
    assert r["accuracy"] == pytest.approx(4 / 6)
    assert r["kendall"] == pytest.approx(2 / 6)
    low = sentence_agreement(items, scores, higher_is_better=False)
    assert low["agree"] == 0
    with pytest.raises(InputError):
        sentence_agreement(items, {"A": [1.0], "B": [0.0]})


def test_bootstrap_is_seeded_and_sane() -> None:
    human = {"s1": 0.1, "s2": 0.2, "s3": 0.3, "s4": 0.4}
    stats = {f"s{k}": [float((i * k) % 5 + k) for i in range(40)] for k in range(1, 5)}
    a = bootstrap_system_correlation(stats, human, aggregate_sum, n_samples=50, seed=3)
    b = bootstrap_system_correlation(stats, human, aggregate_sum, n_samples=50, seed=3)
    c = bootstrap_system_correlation(stats, human, aggregate_sum, n_samples=50, seed=4)
    assert a == b and a["pearson"]["mean"] != c["pearson"]["mean"]
    for coef in ("pearson", "spearman"):
        s = a[coef]
        assert s["ci"][0] <= s["mean"] <= s["ci"][1] and s["std"] >= 0
        assert s["valid_samples"] == 50
    assert a["spearman"]["value"] == pytest.approx(1.0)
    counts = {k: [(1, 1, 1)] * 3 for k in ("x", "y", "z")}
    counts["z"] = [(2, 0, 1)] * 3
    r = bootstrap_system_correlation(counts, {"x": 1, "y": 2, "z": 3}, aggregate_fscore(0.5),
                                     n_samples=5)
    assert r["metric_scores"]["x"] == pytest.approx(0.5)
    with pytest.raises(InputError):
        bootstrap_system_correlation({"x": [1.0], "y": [1.0, 2.0], "z": [1.0]},
                                     {"x": 1, "y": 2, "z": 3})


def test_read_scores_formats(tmp_path) -> None:
    a = tmp_path / "a.txt"
    a.write_text("X 0.5 0.1\nY 0.25 0.2\n")
    assert read_scores(a) == {"X": 0.5, "Y": 0.25}
    assert read_scores(a, 1) == {"X": 0.1, "Y": 0.2}
    b = tmp_path / "b.tsv"
    b.write_text("# comment\nsystem\tew\tts\nX\t0.6\t1\nY\t0.4\t2\n")
    assert read_scores(b, "ts") == {"X": 1.0, "Y": 2.0}
    with pytest.raises(InputError):
        read_scores(b, "nope")
    c = tmp_path / "c.json"
    c.write_text(json.dumps({"X": {"corpus": {"score": 3, "mean": 0.1}}, "Y": 2}))
    assert read_scores(c) == {"X": 3.0, "Y": 2.0}
    assert read_scores(c, "mean")["X"] == 0.1
    with pytest.raises(InputError):
        read_scores(tmp_path / "missing.txt")


def test_cli_on_written_results(tmp_path, capsys) -> None:
    res = {s: {"metric": "x", "corpus": {"score": 0}, "sentences": [
        {"score": v} for v in vals]} for s, vals in
        {"A": [1, 1, 0], "B": [0, 1, 0], "C": [-1, 0, 0]}.items()}
    rpath = tmp_path / "r.json"
    rpath.write_text(json.dumps(res))
    human = tmp_path / "h.txt"
    human.write_text("A 3\nB 2\nC 1\n")
    out = tmp_path / "o.json"
    assert main(["system", "--human", str(human), "--results", str(rpath), "--bootstrap", "20",
                 "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["spearman"]["value"] == pytest.approx(1.0) and report["n_samples"] == 20
    assert "bootstrap:20|seed:0" in capsys.readouterr().out
    assert main(["system", "--human", str(human), "--results", str(rpath), "--json",
                 str(out)]) == 0
    assert json.loads(out.read_text())["n_samples"] == 100  # the default
    assert main(["system", "--human", str(human), "--results", str(rpath), "--bootstrap",
                 "0"]) == 0
    assert "spearman\t1.000\n" in capsys.readouterr().out
    assert main(["system", "--human", str(human)]) == 2  # no metric given
    judg = tmp_path / "j.xml"
    judg.write_text(XML.replace('system="B C"', 'system="B"'))
    assert main(["sentence", "--judgments", str(judg), "--results", str(rpath)]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    # item 0: A>B agree; item 1: B>A disagree, B>C agree, C>A disagree; item 2: A>C agree
    assert row[:3] == ["0.600", "0.200", "5"]


# ---------------------------------------------------------------- GJG15 fidelity

def test_gjg15_table5_m2_f05() -> None:
    h = shared_path("human")
    metric = read_scores(h / "GJG15_scores.m2")
    human = read_scores(h / "GJG15_human_scores.tsv", "expected_wins")
    r = system_correlation(metric, human)
    assert r["n"] == 13
    assert round(r["spearman"], 3) == 0.692
    assert round(r["pearson"], 3) == 0.627


def test_gjg15_expected_wins_table3b() -> None:
    h = shared_path("human")
    ew = expected_wins(read_judgments(h / "GJG15_judgments.xml"))
    paper = read_scores(h / "GJG15_human_scores.tsv", "expected_wins")
    assert {s: round(v, 3) for s, v in ew.items()} == paper
    assert list(ew)[0] == "AMU" and list(ew)[-1] == "IPN"


def test_gjg15_cli_table5(capsys) -> None:
    h = shared_path("human")
    assert main(["system", "--human", str(h / "GJG15_human_scores.tsv"), "--human-column",
                 "expected_wins", "--metric", str(h / "GJG15_scores.m2")]) == 0
    out = capsys.readouterr().out
    assert "pearson\t0.627\nspearman\t0.692\n" in out
    assert main(["ew", str(h / "GJG15_judgments.xml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "1\tAMU\t0.628" and lines[13] == "13\tIPN\t0.300"


def test_gjg15_scribendi_sentence_level(capsys) -> None:
    h = shared_path("human")
    d = shared_path("conll14", "systems")
    systems = [str(d / s) for s in ("INPUT", "AMU", "CAMB", "CUUI", "INPUT")]
    assert main(["sentence", "--judgments", str(h / "GJG15_judgments.xml"),
                 "--scribendi", *systems]) == 0
    row = capsys.readouterr().out.splitlines()[1].split("\t")
    assert (row[0], row[2], row[3]) == ("0.493", "4595", "838")  # regression pin


def test_gjg15_m2_bootstrap(tmp_path) -> None:
    h = shared_path("human")
    c = shared_path("conll14")
    out = tmp_path / "r.json"
    assert main(["system", "--human", str(h / "GJG15_judgments.xml"), "--m2",
                 str(c / "official-2014.combined.m2"),
                 *(str(c / "systems" / s) for s in ("AMU", "CAMB", "INPUT")),
                 "--bootstrap", "100", "--seed", "1", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    # official CoNLL-2014 F0.5 (METRICS.md §3; exact in test_maxmatch.CONLL)
    assert report["metric_scores"]["AMU"] == pytest.approx(0.3501, abs=1e-4)
    assert report["metric_scores"]["CAMB"] == pytest.approx(0.3733, abs=1e-4)
    assert report["n_samples"] == 100 and report["sentences"] == 1312
    p = report["pearson"]
    assert p["ci"][0] <= p["mean"] <= p["ci"][1]
