"""Edit attribution (errtype.score.attribution): exact Shapley values' axioms, seeded sampling,
gec-metrics' add and sub attributors (and exact Shapley) reproduced on CoNLL-2014 system outputs
with GREEN, and the report's per-type attribution columns in headless Chromium."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from errtype.cli.main import main as errtype_main
from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit, read_m2, write_m2
from errtype.score.attribution import (
    attribute,
    attribute_corpus,
    per_type,
    shapley_exact,
    shapley_sampled,
)
from errtype.score.common import ScoreResult
from errtype.score.registry import ScoreInput, get_metric

from .conftest import bench_module, peer, shared_path
from .report_browser import Dom, dump_dom, rows


@dataclass
class TableMetric:
    """A toy sentence-level metric: the sum of the weights of the listed tokens the hypothesis
    contains (additive in the edits), plus ``bonus`` when every token of ``pair`` is present
    (an interaction)."""

    weights: dict[str, float]
    pair: tuple[str, ...] = ()
    bonus: float = 0.0
    name: str = "toy"
    uses: ClassVar[tuple[str, ...]] = ()

    def settings(self) -> dict[str, Any]:
        return {}

    def score(self, data: ScoreInput) -> ScoreResult:
        out = []
        for h in data.hypotheses:
            toks = set(h.split())
            v = sum(w for t, w in self.weights.items() if t in toks)
            if self.pair and set(self.pair) <= toks:
                v += self.bonus
            out.append({"score": v})
        return ScoreResult(self.name, {"score": 0.0}, "toy", sentences=out)


SRC = "a b c d e"
EDITS = [M2Edit(0, 1, "R:X", "A"), M2Edit(1, 2, "R:Y", "B"), M2Edit(2, 3, "R:ORTH", "C"),
         M2Edit(5, 5, "M:Z", "F")]
HYP = "A B C d e F"


def test_exact_shapley_axioms() -> None:
    # A and B interact (bonus 1 only together: symmetric players), C is a dummy, F additive
    m = TableMetric({"A": 0.5, "B": 0.5, "F": -0.25}, pair=("A", "B"), bonus=1.0)
    s = attribute(m, SRC, HYP, EDITS)
    v = [a.value for a in s.edits]
    assert s.delta == pytest.approx(0.5 + 0.5 + 1.0 - 0.25)
    assert math.fsum(v) == pytest.approx(s.delta, abs=1e-12)  # efficiency
    assert v[0] == pytest.approx(v[1]) == pytest.approx(1.0)  # symmetry: 0.5 + half the bonus
    assert v[2] == 0.0  # dummy
    assert v[3] == pytest.approx(-0.25)  # additivity of an independent edit
    assert [a.edit.type for a in s.edits] == ["R:X", "R:Y", "R:ORTH", "M:Z"]
    table = per_type([s])
    assert table["R:ORTH"] == {"n": 1, "sum": 0.0, "mean": 0.0}
    assert table["R:X"]["sum"] == pytest.approx(1.0)


def test_add_and_sub_are_scaled_to_the_sentence_change() -> None:
    m = TableMetric({"A": 0.5, "B": 0.5, "F": -0.25}, pair=("A", "B"), bonus=1.0)
    add = attribute(m, SRC, HYP, EDITS, method="add")
    sub = attribute(m, SRC, HYP, EDITS, method="sub")
    # add: each edit alone on the source; sub: the hypothesis minus the edit
    assert [a.raw for a in add.edits] == pytest.approx([0.5, 0.5, 0.0, -0.25])
    assert [a.raw for a in sub.edits] == pytest.approx([1.5, 1.5, 0.0, -0.25])
    for s in (add, sub):
        assert math.fsum(a.value for a in s.edits) == pytest.approx(s.delta)
        w = s.delta / math.fsum(a.raw for a in s.edits)
        assert [a.value for a in s.edits] == pytest.approx([w * a.raw for a in s.edits])
    raw = attribute(m, SRC, HYP, EDITS, method="add", normalise=False)
    assert [a.value for a in raw.edits] == pytest.approx([0.5, 0.5, 0.0, -0.25])


def test_sampling_is_seeded_and_converges() -> None:
    rng_weights = {t: (i % 5 - 2) / 3 for i, t in enumerate("ABCDEFGHIJKL")}
    src = " ".join("abcdefghijkl")
    edits = [M2Edit(i, i + 1, f"R:{t}", t) for i, t in enumerate("ABCDEFGHIJKL")]
    m = TableMetric(rng_weights, pair=("A", "L"), bonus=2.0)
    hyp = " ".join("ABCDEFGHIJKL")
    exact = attribute(m, src, hyp, edits, max_exact=12)
    assert not exact.sampled
    one = attribute(m, src, hyp, edits, max_exact=4, samples=300, seed=7)
    two = attribute(m, src, hyp, edits, max_exact=4, samples=300, seed=7)
    other = attribute(m, src, hyp, edits, max_exact=4, samples=300, seed=8)
    assert one.sampled  # 2^12 > 300 * 12: sampled
    # below that, sampling would score as many subsets as the exact values need
    assert not attribute(m, src, hyp, edits, max_exact=4, samples=400).sampled
    assert [a.value for a in one.edits] == [a.value for a in two.edits]
    assert [a.value for a in one.edits] != [a.value for a in other.edits]
    # every order sums to v(E): sampled values are efficient too
    assert math.fsum(a.value for a in one.edits) == pytest.approx(exact.delta)
    err = max(abs(a.value - b.value) for a, b in zip(one.edits, exact.edits, strict=True))
    assert err < 0.15  # the interaction's share (1 each) is estimated within sampling error
    # additive players are exact under any order
    assert [a.value for a in one.edits][1:11] == pytest.approx(
        [b.value for b in exact.edits][1:11])


def test_shapley_functions_agree_on_all_orders() -> None:
    v = {m: float(m.bit_count() ** 2) for m in range(8)}
    import itertools

    orders = list(itertools.permutations(range(3)))
    assert shapley_sampled(3, v, orders) == pytest.approx(shapley_exact(3, v))


def test_bad_input_is_refused() -> None:
    m = TableMetric({"A": 1.0})
    with pytest.raises(InputError, match="unknown attribution method"):
        attribute(m, SRC, HYP, EDITS, method="loo")
    with pytest.raises(InputError, match="edit blocks"):
        attribute_corpus(m, ScoreInput([], ["x"], sources=["x"]), [])


@dataclass
class EditCounter:
    """A metric reading the hypothesis' edits: the number of edits of type R:X it is given;
    ``None`` (unscored) for the sentences in ``refuse``; every call recorded."""

    refuse: tuple[str, ...] = ()
    name: str = "counter"
    uses: ClassVar[tuple[str, ...]] = ("hyp_edits",)

    def __post_init__(self) -> None:
        self.calls: list[ScoreInput] = []

    def settings(self) -> dict[str, Any]:
        return {}

    def score(self, data: ScoreInput) -> ScoreResult:
        self.calls.append(data)
        assert data.hyp_blocks is not None
        out = [{"score": None if src in self.refuse
                else float(sum(e.type == "R:X" for e in b.edits))}
               for src, b in zip(data.sources or [], data.hyp_blocks, strict=True)]
        return ScoreResult(self.name, {"score": 0.0}, "counter", sentences=out)


def test_one_metric_call_with_the_applied_edits_and_unscored_sentences() -> None:
    m = EditCounter(refuse=("x y",))
    gold = [M2Block(SRC, []), M2Block("x y", [])]
    data = ScoreInput(gold, [HYP, "X y"], sources=[SRC, "x y"])
    blocks = [M2Block(SRC, EDITS), M2Block("x y", [M2Edit(0, 1, "R:X", "X")])]
    out = attribute_corpus(m, data, blocks)
    assert len(m.calls) == 1  # every variant of the corpus in one call
    variants = m.calls[0]
    assert len(variants.hypotheses) == 2 ** 4 + 2  # 16 subsets of sentence 1, 2 of sentence 2
    assert {len([e for e in b.edits if not e.is_noop]) for b in variants.hyp_blocks or []} == \
        {0, 1, 2, 3, 4}
    assert [a.value for a in out[0].edits] == [1.0, 0.0, 0.0, 0.0]
    assert out[1].edits == [] and math.isnan(out[1].hyp_score)  # unscored: no values


# ------------------------------------------------------------------ gec-metrics on CoNLL-2014

SYSTEMS = ("AMU", "CAMB", "CUUI")
N = 40


@pytest.fixture(scope="module")
def conll() -> tuple[list[M2Block], dict[str, list[str]], dict[str, list[M2Block]]]:
    from errtype import load
    from errtype.score.extract import extract_edits

    gold = list(read_m2(shared_path("conll14", "official-2014.combined.m2")))[:N]
    hyps = {s: shared_path("conll14", "systems", s).read_text(encoding="utf-8").splitlines()[:N]
            for s in SYSTEMS}
    return gold, hyps, extract_edits(load("en"), [b.source for b in gold], hyps)


@pytest.mark.parametrize("method", ["add", "sub", "shapley"])
def test_equal_to_gec_metrics_attributors_on_conll14(conll: Any, method: str) -> None:
    gm = bench_module("gec_metrics_peer")
    why = gm.ATTRIBUTOR_INSTALL
    for name in ("gecommon", "trueskill", "errant"):
        peer(name, why)
    try:
        gm.attributor(method)
    except (ImportError, AttributeError) as exc:
        pytest.skip(f"gec-metrics' attributors not importable ({exc}): {why}")
    from errtype.score.extract import gold_references

    gold, hyps, blocks = conll
    refs = gold_references(gold)
    metric = get_metric("green")
    compared = edits = 0
    for s in SYSTEMS:
        ours = attribute_corpus(metric, ScoreInput(gold, hyps[s]), blocks[s], method=method)
        for i, sent in enumerate(ours):
            if not sent.edits:
                continue
            theirs = gm.attribute(method, gm.bound_green([r[i] for r in refs]), gold[i].source,
                                  [a.edit for a in sent.edits])
            assert [a.value for a in sent.edits] == pytest.approx(theirs, abs=1e-12), (s, i)
            compared += 1
            edits += len(theirs)
    assert compared >= 40 and edits >= 100  # real outputs: most sentences are edited


# ------------------------------------------------------------------ the report


def _blocks(sources: Sequence[str], edits: Sequence[Sequence[M2Edit]]) -> list[M2Block]:
    return [M2Block(s, list(e)) for s, e in zip(sources, edits, strict=True)]


def test_report_attribution_table_in_chromium(tmp_path: Path) -> None:
    from errtype.report import ReportOptions, build_report, load_input
    from errtype.report.tables import type_table

    from .test_report_select import GOLD, GOOD, SOURCES

    for name, edits in (("gold", GOLD), ("good", GOOD)):
        write_m2(_blocks(SOURCES, edits), tmp_path / f"{name}.m2")
    html = tmp_path / "report.html"
    assert errtype_main(["report", "--ref", str(tmp_path / "gold.m2"), "--hyp",
                         f"good={tmp_path / 'good.m2'}", "--attribution", "green", "sentm2:add",
                         "--bootstrap", "40", "--trials", "40", "-o", str(html), "-q"]) == 0
    inp = load_input([tmp_path / "gold.m2"], [("good", tmp_path / "good.m2")])
    report = build_report(inp, ReportOptions(bootstrap=40, trials=40,
                                             attribution=("green", "sentm2:add")))
    # the columns are the per-type sums of the library's attributions
    for label, metric, method in (("green:shapley", "green", "shapley"),
                                  ("sentm2:add", "sentm2", "add")):
        sents = attribute_corpus(get_metric(metric), ScoreInput(inp.gold,
                                 inp.systems[0].hypotheses), inp.systems[0].blocks,
                                 method=method)
        assert report.attribution["good"][label] == per_type(sents)
        assert per_type(sents)  # the system has edits
    dom = Dom(dump_dom(html, tmp_path / "profile"))
    table = dom.tables["table-types-good"]
    expected = type_table(report, "good")
    assert table == [expected.header, *expected.rows]
    head = table[0]
    assert head[-4:] == ["green:shapley sum", "green:shapley per edit", "sentm2:add sum",
                         "sentm2:add per edit"]
    got = rows(dom, "types-good")
    for t, x in report.attribution["good"]["green:shapley"].items():
        assert float(got[t][head.index("green:shapley sum")]) == pytest.approx(x["sum"],
                                                                               abs=5e-5)
    unedited = [t for t in report.types if t not in report.attribution["good"]["green:shapley"]]
    assert unedited and all(got[t][-1] == "\u2014" for t in unedited)
    assert "attribution green:shapley" in report.signatures
    assert "METRIC:METHOD sum" in dom.by_id["types"]["text"]


# ------------------------------------------------------------------ errtype score --attribution


def test_score_attribution_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from .test_report_select import GOLD, GOOD, SOURCES

    gold, good = _blocks(SOURCES, GOLD), _blocks(SOURCES, GOOD)
    write_m2(gold, tmp_path / "gold.m2")
    write_m2(good, tmp_path / "good.m2")
    base = ["score", "-m", "green", "sentm2", "--ref", str(tmp_path / "gold.m2"), "--hyp",
            f"good={tmp_path / 'good.m2'}", "--attribution", "sub"]
    assert errtype_main([*base, "--json", "--sent", "-o", str(tmp_path / "a.json")]) == 0
    data = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    for r in data["results"]:
        att = r["attribution"]
        assert att["method"] == "sub" and "attribution:sub" in att["signature"]
        ours = attribute_corpus(get_metric(r["metric"]), ScoreInput(gold, [
            _corrected(b) for b in good]), good, method="sub")
        assert att["per_type"] == per_type(ours)  # JSON keeps floats exactly
        for s, o in zip(att["sentences"], ours, strict=True):
            assert [e["value"] for e in s["edits"]] == pytest.approx([a.value for a in o.edits])
            if s["edits"] and any(e["raw"] for e in s["edits"]):
                assert math.fsum(e["value"] for e in s["edits"]) == pytest.approx(s["delta"])
    assert errtype_main([*base, "--tsv"]) == 0
    out = capsys.readouterr().out
    block = out.split("system\tmetric\tmethod\ttype\tedits\tsum\tmean\n", 1)[1].splitlines()
    assert {tuple(line.split("\t")[:4]) for line in block} == {
        ("good", m, "sub", t) for m in ("green", "sentm2") for t in per_type(ours)}
    files = base[4:8]  # --ref GOLD --hyp good=GOOD
    for argv, msg in ((["score", "-m", "green", *files, "--seed", "1"], "--attribution METHOD"),
                      (["score", "-m", "goto", *files, "--attribution", "add"],
                       "set of systems")):
        assert errtype_main(argv) == 2
        assert msg in capsys.readouterr().err


def _corrected(block: M2Block) -> str:
    from errtype.m2 import apply_edits

    return apply_edits(block.tokens, [e for e in block.edits if not e.is_noop]).text
