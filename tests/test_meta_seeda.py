"""SEEDA meta-evaluation (system sets, sentence-level ties, windows, the checkout reader, the
command) and TrueSkill, on hand-built data; the protocol on SEEDA itself is checked by
``bench/seeda_meta.py`` against gec-metrics' pinned numbers (SEEDA has no licence file, so it is
never copied here)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from errtype.cli.main import main as errtype_main
from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit, write_m2
from errtype.score.meta import seeda as sd
from errtype.score.meta.correlation import Ranking, pearson, read_judgments, spearman
from errtype.score.meta.trueskill import TrueSkill

from .conftest import shared_path

SOURCES = ["He go home .", "She like apples .", "They is here ."]
FIXED = ["He goes home .", "She likes apples .", "They are here ."]


def _write_seeda(root: Path, human: dict[str, float] | None = None) -> Path:
    """A SEEDA-shaped checkout: 3 test sentences, the last two judged (the subset); REF-M and
    GPT-3.5 fix everything, INPUT nothing, the others fix the first judged sentence."""
    human = human or {s: float(i) for i, s in enumerate(reversed(sd.SYSTEMS))}
    (root / "scores" / "human").mkdir(parents=True)
    for rating, g in sd.HUMAN:
        (root / "scores" / "human" / f"{rating}_{g}.txt").write_text(
            "\n".join(f"{human[s]:.3f}" for s in sd.SYSTEMS) + "\n", encoding="utf-8")
    for part, rows in (("all", range(3)), ("subset", (1, 2))):
        (root / "outputs" / part).mkdir(parents=True)
        for s in sd.SYSTEMS:
            out = [FIXED[i] if s in ("REF-M", "GPT-3.5") or (s != "INPUT" and i == 1)
                   else SOURCES[i] for i in rows]
            (root / "outputs" / part / f"{s}.txt").write_text("\n".join(out) + "\n",
                                                              encoding="utf-8")
    (root / "data").mkdir()
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<appraise-results>\n'
           '<error-correction-ranking-result id="x">\n'
           '<ranking-item src-id="2" id="1" user="a">\n'
           '<translation system="REF-M BART" rank="1" />\n<translation system="INPUT" rank="3" />\n'
           '<translation system="T5" rank="2" />\n</ranking-item>\n'
           '<ranking-item src-id="3" id="2" user="a">\n'
           '<translation system="REF-M" rank="1" />\n<translation system="BART" rank="2" />\n'
           '<translation system="PIE" rank="3" />\n</ranking-item>\n'
           '</error-correction-ranking-result>\n</appraise-results>\n')
    for g in sd.GRANULARITIES:
        (root / "data" / f"judgments_{g}.xml").write_text(xml, encoding="utf-8")
    return root


def test_system_sets() -> None:
    assert len(sd.systems_of("base")) == 12 and "INPUT" not in sd.systems_of("base")
    assert sd.systems_of("+INPUT") == [s for s in sd.SYSTEMS if s not in ("GPT-3.5", "REF-F")]
    assert sd.systems_of("+REF-F_GPT-3.5") == sd.systems_of("+fluent") == [
        s for s in sd.SYSTEMS if s != "INPUT"]
    assert sd.systems_of("all") == list(sd.SYSTEMS)
    with pytest.raises(InputError, match="unknown SEEDA system set"):
        sd.systems_of("best")


def test_sentence_ties_as_seeda_counts_them() -> None:
    """Item: A better than B better than C (A, B, C in SEEDA order). Metric: A = B > C. SEEDA's
    script counts the tie as a preference for B (later in its order): A-B disagrees; the other
    two pairs agree. As a disagreement: the same here. Reversed human order: the tie agrees."""
    a, b, c = "BART", "PIE", "T5"
    scores = {a: [1.0], b: [1.0], c: [0.0]}
    pos = {4: 0}
    forward = [Ranking("1", 5, "u", {a: 1, b: 2, c: 3})]
    got = sd.sentence_agreement(forward, scores, pos, "all")
    assert (got["agree"], got["disagree"], got["metric_ties"]) == (2, 1, 1)
    assert got["accuracy"] == pytest.approx(2 / 3) and got["kendall"] == pytest.approx(1 / 3)
    backward = [Ranking("1", 5, "u", {a: 2, b: 1, c: 3})]
    assert sd.sentence_agreement(backward, scores, pos, "all")["agree"] == 3
    assert sd.sentence_agreement(backward, scores, pos, "all", ties="disagree")["agree"] == 2
    # equal human ranks are no comparison; systems outside the set are left out
    same = [Ranking("1", 5, "u", {a: 1, b: 1, "INPUT": 3})]
    assert sd.sentence_agreement(same, scores | {"INPUT": [5.0]}, pos, "base")["pairs"] == 0
    with pytest.raises(InputError, match="not among the scored sentences"):
        sd.sentence_agreement([Ranking("9", 99, "u", {a: 1, b: 2})], scores, pos)


def test_system_correlations_and_windows() -> None:
    human = {s: float(-i) for i, s in enumerate(sd.SYSTEMS)}
    metric = {s: v * 2 + 1 for s, v in human.items()}
    c = sd.system_correlations(metric, human, "base")
    assert c == {"pearson": pytest.approx(1.0), "spearman": pytest.approx(1.0), "n": 12}
    flipped = {s: -v for s, v in metric.items()}
    assert sd.system_correlations(flipped, human, "all")["spearman"] == pytest.approx(-1.0)
    windows = sd.window_analysis(metric, human, 4)
    assert len(windows) == 12 - 4 + 1 and windows[0]["systems"][0] == "BART"  # best first
    assert [w["from"] for w in windows] == list(range(1, 10))
    with pytest.raises(InputError, match="no metric score for"):
        sd.system_correlations({"BART": 1.0}, human)
    with pytest.raises(InputError, match="window"):
        sd.window_analysis(metric, human, 2)


def test_reader_and_subset(tmp_path: Path) -> None:
    seeda = sd.read_seeda(_write_seeda(tmp_path / "seeda"))
    assert seeda.human[("TS", "sent")]["UEDIN-MS"] == 0.0
    assert [r.src_id for r in seeda.judgments["edit"]] == [2, 3]
    assert sd.positions(seeda) == {1: 0, 2: 1}
    assert sd.subset_ids(["b", "a"], ["a", "b", "a"]) == [1, 2]  # in order, repeats allowed
    with pytest.raises(InputError, match="is not in the test set"):
        sd.subset_ids(["c"], ["a", "b"])
    bad = tmp_path / "seeda" / "scores" / "human" / "EW_edit.txt"
    bad.write_text("1\n2\n", encoding="utf-8")
    with pytest.raises(InputError, match="2 scores, but SEEDA has 15 systems") as info:
        sd.read_seeda(tmp_path / "seeda")
    assert info.value.path == str(bad)
    with pytest.raises(InputError, match="not a SEEDA checkout"):
        sd.read_seeda(tmp_path)


def test_seeda_command_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """errtype-meta seeda on the hand-built checkout: M2 computed on the subset (sentences 2-3
    of the gold) and correlated; the per-set rows, sentence rows and signatures."""
    root = _write_seeda(tmp_path / "seeda")
    gold = tmp_path / "gold.m2"
    write_m2([M2Block(SOURCES[0], [M2Edit(1, 2, "R:VERB:SVA", "goes", 0)]),
              M2Block(SOURCES[1], [M2Edit(1, 2, "R:VERB:SVA", "likes", 0)]),
              M2Block(SOURCES[2], [M2Edit(1, 2, "R:VERB:SVA", "are", 0)])], gold)
    out = tmp_path / "meta.json"
    assert errtype_main(["meta", "seeda", str(root), "--ref", str(gold), "-m", "m2",
                         "--sets", "base", "all", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    import json

    data = json.loads(out.read_text(encoding="utf-8"))["metrics"]["m2"]
    # M2 on the subset: REF-M/GPT-3.5 fix both judged sentences (F0.5 = 1), INPUT none (0),
    # the others the first of the two (P = 1, R = 0.5: F0.5 = 0.8333)
    scores = sd.score_subset(sd.read_seeda(root), gold, [("m2", _metric("m2"))])[0]
    assert scores.system["REF-M"] == 1.0 and scores.system["INPUT"] == 0.0
    assert scores.system["BART"] == pytest.approx(0.8333, abs=1e-4)
    assert scores.sentences["BART"] == [1.0, 0.0]
    human = sd.read_seeda(root).human[("TS", "sent")]
    want = sd.system_correlations(scores.system, human, "all")
    assert data["system"]["TS_sent"]["all"]["pearson"] == pytest.approx(want["pearson"])
    assert "m2\tTS_sent\tbase\t" in text and "m2\tSEEDA-S\tall\t" in text
    assert "meta-seeda|" in text and "m2: maxmatch|" in text
    # item 1 (sentence 2): 5 pairs with different ranks; REF-M, BART and T5 all fixed it (ties
    # REF-M-T5, BART-T5). Item 2 (sentence 3): REF-M 1.0 > BART 0.0 = PIE 0.0, 3 pairs, one tie
    # (counted for PIE, later in SEEDA's order: a disagreement, as the human ranked BART higher)
    sent = data["sentence"]["sent"]["all"]
    assert (sent["pairs"], sent["metric_ties"]) == (8, 3)
    # agreeing: REF-M/BART/T5 over INPUT (3), BART-T5 tie counted for T5 (later) while the human
    # preferred BART: no; REF-M-T5 tie for T5: no; REF-M over BART and PIE (2): 5 of 8
    assert (sent["agree"], sent["disagree"]) == (5, 3)


def _metric(name: str):  # type: ignore[no-untyped-def]
    from errtype.score.registry import get_metric

    return get_metric(name)


def test_trueskill_orders_and_is_seeded() -> None:
    items = [Ranking(str(i), i, "u", {"A": 1, "B": 2, "C": 3}) for i in range(30)]
    items += [Ranking("x", 0, "u", {"A": 2, "B": 1})]
    ts = TrueSkill(runs=5).rate(items)
    assert list(ts) == ["A", "B", "C"]
    assert TrueSkill(runs=5).rate(items) == ts  # seeded
    assert TrueSkill(runs=5, seed=1).rate(items) != ts
    draws = TrueSkill(runs=1).rate([Ranking("1", 0, "u", {"A": 1, "B": 1})] * 10)
    assert draws["A"] == pytest.approx(draws["B"], abs=1e-9)
    assert "runs:5|seed:0" in TrueSkill(runs=5).signature()


@pytest.mark.slow
def test_trueskill_from_gjg15_judgments_tracks_the_published_column() -> None:
    """GJG15's judgments: Pearson 0.980 / Spearman 0.945 with its published TrueSkill column at
    20 runs (regression pin of errtype's measurement; the published column came from other
    random orders, so only the ranking is comparable)."""
    xml = shared_path("human", "GJG15_judgments.xml")
    table = shared_path("human", "GJG15_human_scores.tsv")
    rows = [r for r in csv.reader(table.open(encoding="utf-8"), delimiter="\t")
            if r and not r[0].startswith("#")][1:]
    published = {r[0]: float(r[3]) for r in rows}
    ts = TrueSkill(runs=20).rate(read_judgments(xml))
    systems = list(published)
    x, y = [ts[s] for s in systems], [published[s] for s in systems]
    assert pearson(x, y) == pytest.approx(0.980, abs=5e-4)
    assert spearman(x, y) == pytest.approx(0.9451, abs=5e-4)
    assert not any(math.isnan(v) for v in ts.values())


def test_ts_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _write_seeda(tmp_path / "seeda")
    assert errtype_main(["meta", "ts", str(root / "data" / "judgments_sent.xml"), "--runs",
                         "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "rank\tsystem\ttrueskill" and out[1].split("\t")[1] == "REF-M"
    assert out[-1].startswith("trueskill|mu:0|sigma:0.5|")
    assert errtype_main(["meta", "ts", str(root / "data" / "judgments_sent.xml"), "--runs",
                         "0"]) == 2
