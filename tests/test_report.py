"""errtype.report on small M2 inputs (no parser, no shared data): counts agree with the ERRANT
scorer, statistics behave, tables/SVG/HTML are well-formed, the CLI reports bad input."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from errtype.cli.main import main as errtype_main
from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit, write_m2
from errtype.report import (
    ReportOptions,
    all_charts,
    build_report,
    load_input,
    render_html,
    render_tables,
    tables_dict,
)
from errtype.report import stats as st
from errtype.score.common import macro_f, prf
from errtype.score.edits.errant import errant_score
from errtype.score.suite import parse_system_arg

FEAT = "R:NOUN:INFL:Case+Number"
SOURCES = ["Vidím velký pes .", "Mám dva kočka a pes .", "To je dobře .", "Byl jsem tam ."]
GOLD = [
    [M2Edit(2, 3, FEAT, "psa", 0), M2Edit(1, 2, "R:ADJ:INFL:Case", "velkého", 0)],
    [M2Edit(2, 3, FEAT, "kočky", 0), M2Edit(4, 5, FEAT, "psa", 0)],
    [M2Edit(-1, -1, "noop", "-NONE-", 0)],
    [M2Edit(-1, -1, "noop", "-NONE-", 0)],
]
GOOD = [
    [M2Edit(2, 3, FEAT, "psa", 0)],
    [M2Edit(2, 3, FEAT, "kočky", 0), M2Edit(4, 5, FEAT, "psy", 0)],
    [M2Edit(-1, -1, "noop", "-NONE-", 0)],
    [M2Edit(1, 2, "R:VERB", "jsme", 0)],
]
NONE = [[M2Edit(-1, -1, "noop", "-NONE-", 0)] for _ in SOURCES]


def _write(path: Path, edits: list[list[M2Edit]]) -> Path:
    write_m2([M2Block(s, e) for s, e in zip(SOURCES, edits, strict=True)], path)
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"gold": _write(tmp_path / "gold.m2", GOLD),
            "good": _write(tmp_path / "good.m2", GOOD),
            "none": _write(tmp_path / "none.m2", NONE)}


def _report(files: dict[str, Path], **opts):  # type: ignore[no-untyped-def]
    inp = load_input([files["gold"]], [("good", files["good"]), ("none", files["none"])])
    return inp, build_report(inp, ReportOptions(bootstrap=200, trials=200, gleu=True, **opts))


def test_counts_match_the_errant_scorer(files: dict[str, Path]) -> None:
    inp, r = _report(files)
    assert r.types[0] == FEAT and r.gold_freq[FEAT] == 3
    for s in inp.systems:
        ref = errant_score(s.blocks, inp.gold)
        c = r.corpus[s.name]
        assert c["counts"] == {k: ref.counts[k] for k in ("tp", "fp", "fn")}
        assert round(c["errant"]["f"]["v"], 4) == ref.corpus["f0.5"]
        for t, row in r.per_type[s.name].items():
            want = ref.per_type.get(t, {"tp": 0, "fp": 0, "fn": 0})
            assert (row["tp"], row["fp"], row["fn"]) == (want["tp"], want["fp"], want["fn"])
        assert c["macro_f"]["v"] == pytest.approx(macro_f(ref.per_type))
        # type-only = errant_compare -filt with every other type, on the whole corpus
        every = sorted({e.type for b in [*inp.gold, *s.blocks] for e in b.edits})
        for t in r.types:
            only = errant_score(s.blocks, inp.gold, filt=[x for x in every if x != t]).counts
            got = r.per_type[s.name][t]["type_only"]["f"]
            if only["tp"] + only["fp"] + only["fn"] == 0:
                assert got is None  # undefined, shown as "—" (prf's convention says 1.0)
            else:
                assert got["v"] == prf(only["tp"], only["fp"], only["fn"])[2]
    good = r.per_type["good"][FEAT]
    assert (good["tp"], good["fp"], good["fn"]) == (2, 1, 1)
    assert good["type_only"]["f"]["v"] == pytest.approx(prf(2, 1, 1)[2])
    assert r.geclens["good"]["clean"] == 2 and r.geclens["good"]["overcorrected"] == 1
    assert r.geclens["good"]["change_rate"]["v"] == 0.75
    assert r.geclens["none"]["change_rate"]["v"] == 0.0
    # sentence-level detection of the type: predicted and gold in sentences 1 and 2
    assert r.per_type["good"][FEAT]["det"]["f"]["v"] == 1.0
    assert r.per_type["good"][FEAT]["success"]["v"] == 0.5  # sentence 2 missed one
    assert r.corpus["none"]["gleu"]["v"] >= 0


def test_intervals_are_seeded_and_cover_the_estimate(files: dict[str, Path]) -> None:
    _, a = _report(files)
    _, b = _report(files)
    _, c = _report(files, seed=5)
    assert a.corpus == b.corpus and a.comparisons == b.comparisons
    assert a.corpus != c.corpus
    for sys_ in a.systems:
        for est in (a.corpus[sys_]["errant"]["f"], a.corpus[sys_]["macro_f"],
                    a.corpus[sys_]["maxmatch"]["f"]):
            assert est["lo"] <= est["v"] <= est["hi"]
    # a system without edits has F = 0 on every type, in every resample: a type a resample
    # leaves out must not enter its macro average with the scorers' F = 1 of empty counts
    assert a.corpus["none"]["macro_f"] == {"v": 0.0, "lo": 0.0, "hi": 0.0}


def test_statistics() -> None:
    rng = np.random.default_rng(1)
    x = rng.integers(0, 4, (60, 3)).astype(float)
    p, r, f = st.prf_array(x[:, 0], x[:, 1], x[:, 2])
    for i in range(60):
        assert (p[i], r[i], f[i]) == pytest.approx(prf(*x[i]))
    assert st.prf_array(np.zeros(1), np.zeros(1), np.zeros(1))[2][0] == prf(0, 0, 0)[2]
    fstat = st.f_stat()
    assert st.approximate_randomization(x, x.copy(), fstat, 300, 0) == 1.0
    w = st.bootstrap_weights(60, 100, 3)
    assert (w.sum(axis=1) == 60).all() and (w == st.bootstrap_weights(60, 100, 3)).all()
    boot = fstat(st.resampled_sums(w, x))
    full = fstat(x.sum(axis=0))
    assert st.paired_bootstrap_p(full, full, boot, boot) == 1.0
    # a system that fixes everything vs one that fixes nothing: clearly different
    good = np.array([[1, 0, 0]] * 60, dtype=float)
    bad = np.array([[0, 1, 1]] * 60, dtype=float)
    assert st.approximate_randomization(good, bad, fstat, 500, 0) < 0.01
    # Holm: sorted p * (m - rank), made monotone, capped at 1
    assert st.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])


def test_randomisation_draws_its_swaps_once_per_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pair of systems of a corpus is tested with the same swaps: drawn once and kept
    (read-only) when small, drawn anew chunk by chunk when large; the p-values are the same."""
    rng = np.random.default_rng(4)
    a, b = (rng.integers(0, 3, (700, 3)).astype(float) for _ in range(2))
    fstat = st.f_stat()
    kept = st.approximate_randomization(a, b, fstat, 600, 5)
    assert st.swap_masks(700, 600, 5) is st.swap_masks(700, 600, 5)
    assert not st.swap_masks(700, 600, 5)[0].flags.writeable
    monkeypatch.setattr(st, "KEPT_SWAP_BYTES", 0)
    assert not isinstance(st.swap_masks(700, 600, 5), tuple)
    assert st.approximate_randomization(a, b, fstat, 600, 5) == kept
    assert st.approximate_randomization(b, a, fstat, 600, 5) == kept


def test_tables_in_every_format(files: dict[str, Path]) -> None:
    _, r = _report(files)
    md = render_tables(r, "md")
    assert f"| {FEAT} |" in md and "### Pairwise comparisons" in md
    tex = render_tables(r, "tex")
    assert r"\begin{tabular}" in tex and "R:NOUN:INFL:Case+Number" in tex
    assert r"F0.5 CI" in tex and "report|" in tex
    csv_text = render_tables(r, "csv")
    assert "Type,Gold,TP,FP,FN" in csv_text
    t = tables_dict(r)
    assert t["corpus"]["rows"][0][0] == "good" and len(t["types-good"]["rows"]) == len(r.types)
    with pytest.raises(ValueError):
        render_tables(r, "xlsx")


def test_svg_and_html_are_self_contained(files: dict[str, Path]) -> None:
    _, r = _report(files)
    for stem, svg in all_charts(r).items():
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg", stem
    bars = ET.fromstring(all_charts(r)["types"]).findall(".//{http://www.w3.org/2000/svg}rect")
    values = {(b.get("data-series"), b.get("data-category")): float(b.get("data-value", "nan"))
              for b in bars if b.get("class") == "bar"}
    assert values[("good", f"{FEAT} (3)")] == pytest.approx(r.per_type["good"][FEAT]["f"]["v"])
    html = render_html(r)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and html.count("<svg") == 4  # 3 bar charts and the heatmap
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html,
                     re.S)
    assert data is not None
    assert "<" not in data.group(1)
    parsed = json.loads(data.group(1))
    assert parsed["systems"] == ["good", "none"] and FEAT in parsed["types"]
    edits = parsed["sentences"][1]["sys"]["good"]
    assert sorted(e[2:5] for e in edits) == [["kočky", FEAT, "TP"], ["psa", FEAT, "FN"],
                                             ["psy", FEAT, "FP"]]


def test_cli_writes_report_svg_and_tables(files: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    args = ["report", "--ref", str(files["gold"]), "--hyp", f"good={files['good']}",
            str(files["none"]), "--bootstrap", "50", "--trials", "50"]
    assert errtype_main([*args, "-o", str(out), "--svg-dir", str(tmp_path / "svg")]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in (tmp_path / "svg").iterdir()) == [
        "corpus.svg", "frequency.svg", "heatmap.svg", "types.svg"]
    md = tmp_path / "r.md"
    assert errtype_main([*args, "-o", str(md), "--format", "md"]) == 0
    assert "| none.m2 |" in md.read_text(encoding="utf-8")


def test_cli_errors_name_file_and_line(files: dict[str, Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    short = tmp_path / "short.txt"
    short.write_text("Vidím velký pes .\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert errtype_main(["report", "--ref", str(files["gold"]), "--hyp", f"s={short}",
                         "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(short) in err and "1 lines, but the gold" in err and not out.exists()
    other = _write(tmp_path / "other.m2", NONE)
    text = other.read_text(encoding="utf-8").replace("Mám dva", "Máme dva")
    other.write_text(text, encoding="utf-8")
    assert errtype_main(["report", "--ref", str(files["gold"]), "--hyp", f"o={other}",
                         "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{other}, line 4" in err and "differs from the gold sentence" in err
    assert errtype_main(["report", "--ref", str(files["gold"]), "--hyp", "a=",
                         "-o", str(out)]) == 2
    assert "expected NAME=FILE" in capsys.readouterr().err
    assert parse_system_arg("x/y/AMU") == ("AMU", "x/y/AMU")


def test_parallel_references_and_text_systems(tmp_path: Path) -> None:
    """Gold from corrected texts and systems from text: edits by the English annotator."""
    src = tmp_path / "src.txt"
    src.write_text("He go to school .\nI like apple .\nThe sky is blue .\n", encoding="utf-8")
    ref1 = tmp_path / "ref1.txt"
    ref1.write_text("He goes to school .\nI like apples .\nThe sky is blue .\n",
                    encoding="utf-8")
    ref2 = tmp_path / "ref2.txt"
    ref2.write_text("He went to school .\nI like apples .\nThe sky is blue .\n",
                    encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("He goes to school .\nI like apple .\nThe sky was blue .\n", encoding="utf-8")
    inp = load_input([ref1, ref2], [("sys", hyp), ("src", src)], src=src, lang="en")
    assert [len(b.annotators()) for b in inp.gold] == [2, 2, 2]
    assert inp.systems[1].blocks[0].edits[0].is_noop
    r = build_report(inp, ReportOptions(bootstrap=100, trials=100))
    assert r.corpus["sys"]["counts"] == {"tp": 1, "fp": 1, "fn": 1}
    assert r.per_type["sys"]["R:VERB:SVA"]["tp"] == 1
    assert r.per_type["sys"]["R:NOUN:NUM"]["fn"] == 1
    assert r.geclens["sys"]["overcorrected"] == 1 and r.geclens["sys"]["clean"] == 1
    with pytest.raises(InputError, match="parallel references need the source"):
        load_input([ref1, ref2], [("sys", hyp)])


def test_charts_are_compact_with_even_ticks(files: dict[str, Path]) -> None:
    """One row per type whatever the number of systems, tick labels above and below at even
    steps, whiskers under their bars, a zero drawn as a labelled stub."""
    from errtype.report.svg import nice_ticks, type_chart

    assert nice_ticks(0.2345) == [0.0, 0.05, 0.1, 0.15, 0.2, 0.25]
    assert nice_ticks(17) == [0, 5, 10, 15, 20] and nice_ticks(1.0)[-1] == 1.0
    for peak in (0.003, 0.07, 0.9, 13, 420):
        t = nice_ticks(peak)
        steps = {round(b - a, 9) for a, b in zip(t, t[1:], strict=False)}
        assert len(steps) == 1 and t[-1] >= peak and 3 <= len(t) <= 7, (peak, t)
    _, r = _report(files)
    ns = "{http://www.w3.org/2000/svg}"
    for stem, svg in all_charts(r).items():
        if stem == "heatmap":
            continue  # no bars: a colour scale
        root = ET.fromstring(svg)
        ticks = [t for t in root.iter(f"{ns}text") if t.get("class") == "tick"]
        ys = sorted({float(t.get("y", "0")) for t in ticks})
        assert len(ys) == 2, stem  # one row of labels above the bars, one below
        labels = [float(t.text or "nan") for t in ticks if float(t.get("y", "0")) == ys[0]]
        gaps = {round(b - a, 6) for a, b in zip(labels, labels[1:], strict=False) if b > a}
        assert len(gaps) == 1, (stem, labels)
    root = ET.fromstring(type_chart(r))
    assert int(root.get("height", "0")) == 66 + 17 * len([t for t in r.types
                                                          if r.gold_freq.get(t)]) + 24
    bars = [b for b in root.iter(f"{ns}rect") if b.get("class") == "bar"]
    zero = [b for b in bars if b.get("data-value") == "0.000000"]
    assert zero and len(list(b for b in root.iter(f"{ns}rect") if b.get("class") == "zero")) \
        == len(zero)
    for path in (p for p in root.iter(f"{ns}path") if p.get("class") == "ci"):
        y = float(path.get("d", "").split()[1].split("v")[0]) + 2  # the whisker's line
        assert any(float(b.get("y", "0")) + float(b.get("height", "0")) < y
                   < float(b.get("y", "0")) + 17 for b in bars)


def test_csv_cells_are_never_formulas(files: dict[str, Path], tmp_path: Path) -> None:
    """CSV for spreadsheets (``report --format csv``, the page's CSV buttons): a cell starting
    with =, +, -, @ gets a leading ', a number keeps its sign; the edit table's TSV (data read
    back by other tools) keeps every cell as written."""
    from errtype.convert.table import m2_to_table
    from errtype.report.tables import Table, spreadsheet_cell, to_csv

    for cell, want in (("=1+1", "'=1+1"), ("+x", "'+x"), ("-2+3", "'-2+3"), ("@SUM(A1)",
                       "'@SUM(A1)"), ("\tx", "'\tx"), ("-1.25", "-1.25"), ("+3", "+3"),
                       ("1e-3", "1e-3"), ("R:VERB", "R:VERB"), ("", ""), ("a=b", "a=b")):
        assert spreadsheet_cell(cell) == want, cell
    table = Table("t", "T", ["=name", "delta"], [["=cmd|' /C calc'!A0", "-0.52"]])
    assert to_csv(table) == "'=name,delta\n'=cmd|' /C calc'!A0,-0.52\n"
    m2 = tmp_path / "f.m2"
    m2.write_text("S a b\nA 0 1|||R:NOUN|||=SUM(A1)|||REQUIRED|||-NONE-|||0\n\n",
                  encoding="utf-8")
    out = tmp_path / "f.tsv"
    m2_to_table(m2, out, "tsv")
    assert "\t=SUM(A1)\t" in out.read_text(encoding="utf-8")
