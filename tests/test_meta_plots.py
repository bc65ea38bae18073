"""errtype-meta seeda: system scores aggregated by TrueSkill / ExpectedWins over each set's
systems, the pairwise analysis (agreement per pair of human ranks) and the SVG charts of the
window and pairwise analyses, on the hand-built SEEDA checkout of test_meta_seeda."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from errtype.cli.main import main as errtype_main
from errtype.m2 import M2Block, M2Edit, write_m2
from errtype.report.svg import Series, grid_heatmap, line_chart, pairwise_chart, window_chart
from errtype.score.meta import seeda as sd
from errtype.score.meta.aggregation import aggregate

from .test_meta_seeda import SOURCES, _metric, _write_seeda


@pytest.fixture()
def checkout(tmp_path: Path) -> tuple[Path, Path]:
    root = _write_seeda(tmp_path / "seeda")
    gold = tmp_path / "gold.m2"
    write_m2([M2Block(SOURCES[0], [M2Edit(1, 2, "R:VERB:SVA", "goes", 0)]),
              M2Block(SOURCES[1], [M2Edit(1, 2, "R:VERB:SVA", "likes", 0)]),
              M2Block(SOURCES[2], [M2Edit(1, 2, "R:VERB:SVA", "are", 0)])], gold)
    return root, gold


def test_aggregated_system_scores_per_set(checkout) -> None:
    root, gold = checkout
    seeda = sd.read_seeda(root)
    scores = sd.score_subset(seeda, gold, [("m2", _metric("m2"))])[0]
    base = sd.system_scores(scores, "base", "trueskill")
    assert list(base) == sd.systems_of("base")
    assert base == aggregate({s: scores.sentences[s] for s in sd.systems_of("base")},
                             "trueskill")
    assert base["REF-M"] > base["BART"]
    # the set's systems only: adding INPUT changes everyone's TrueSkill
    assert sd.system_scores(scores, "+INPUT", "trueskill")["REF-M"] != base["REF-M"]
    assert sd.system_scores(scores, "base") == {s: scores.system[s]
                                                for s in sd.systems_of("base")}


def test_pairwise_analysis_counts(checkout) -> None:
    root, gold = checkout
    seeda = sd.read_seeda(root)
    scores = sd.score_subset(seeda, gold, [("m2", _metric("m2"))])[0]
    pos = sd.positions(seeda)
    cells = sd.pairwise_analysis(seeda.judgments["sent"], scores.sentences, pos, "all")
    total = sd.sentence_agreement(seeda.judgments["sent"], scores.sentences, pos, "all")
    assert sum(c["pairs"] for c in cells.values()) == total["pairs"] == 8
    assert sum(c["agree"] for c in cells.values()) == total["agree"]
    # item 1: REF-M/BART rank 1, T5 2, INPUT 3; item 2: REF-M 1, BART 2, PIE 3
    assert set(cells) == {(1, 2), (1, 3), (2, 3)}
    assert cells[(1, 3)] == {"agree": 3, "pairs": 3, "accuracy": 1.0}


def test_seeda_command_aggregation_and_plots(checkout, tmp_path: Path, capsys) -> None:
    root, gold = checkout
    out = tmp_path / "meta.json"
    plots = tmp_path / "plots"
    assert errtype_main(["meta", "seeda", str(root), "--ref", str(gold), "-m", "m2",
                         "--sets", "base", "all", "--window", "4", "--aggregation",
                         "expected_wins", "--plots", str(plots), "--json", str(out)]) == 0
    text = capsys.readouterr()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "aggregation:expected_wins" in data["signature"]
    m2 = data["metrics"]["m2"]
    assert m2["aggregation"] == "expected_wins" and set(m2["scores"]) == {"base", "all"}
    assert 0 <= m2["scores"]["base"]["REF-M"] <= 1
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["pairwise-m2-edit.svg", "pairwise-m2-sent.svg", "window-EW_edit.svg",
                     "window-EW_sent.svg", "window-TS_edit.svg", "window-TS_sent.svg"]
    assert "wrote" in text.err
    for p in plots.iterdir():
        root_el = ET.fromstring(p.read_text(encoding="utf-8"))  # well-formed, self-contained
        assert root_el.tag.endswith("svg") and "<script" not in p.read_text(encoding="utf-8")
    win = (plots / "window-TS_sent.svg").read_text(encoding="utf-8")
    assert win.count('class="point"') <= 2 * 9 and "m2 r" in win
    pair = (plots / "pairwise-m2-sent.svg").read_text(encoding="utf-8")
    assert pair.count('class="cell"') == len(m2["pairwise"]["sent"])


def test_charts_values_and_gaps() -> None:
    svg = line_chart("t", ["1-4", "2-5", "3-6"], [Series("a", [0.5, None, -0.25])])
    assert svg.count('class="point"') == 2 and 'data-value="-0.250000"' in svg
    assert svg.count("<path") == 1 and svg.count(" L") == 0  # the gap breaks the line
    hm = grid_heatmap("h", ["1"], ["2", "3"], [[1.0, None]])
    assert hm.count('class="cell"') == 1 and "#3b4cc0" in hm  # full blue at accuracy 1
    assert pairwise_chart({"1-2": {"agree": 1, "pairs": 2, "accuracy": 0.5}}).count(
        'fill="#ffffff" stroke="#ffffff"') == 1  # 0.5: white
    assert "Window analysis against TS_sent" in window_chart(
        {"m": [{"from": 1, "to": 4, "pearson": 0.1, "spearman": 0.2}]}, "TS_sent")
