"""A report made from a ``--config`` file with ``--baseline``, ``--types`` and ``--subset``,
rendered and clicked in headless Chromium: the heatmap's cells open the sentence browser on
their system and type, the baseline tables sort by a header click and download as CSV, the
per-type views hold the selected types only, and the browser numbers the subset's sentences as
the whole input does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from errtype.cli.main import main as errtype_main
from errtype.m2 import M2Block, write_m2
from errtype.report import ReportOptions, build_report, load_input
from errtype.report.svg import heatmap_value
from errtype.report.tables import baseline_table, baseline_type_table, to_csv

from .report_browser import Dom, dump_dom, rows, run_harness
from .test_report_select import GOLD, GOOD, NONE, SOURCES

TYPES = ("VERB*", "NOUN:*", "M:*")
SUBSET = ("len:-6",)  # drops sentence 5 (7 tokens)
CONFIG = """
ref = "data/gold.m2"
out = "report.html"
title = "options page"
baseline = "none"
types = {types}
subset = {subset}
bootstrap = 80
trials = 80
seed = 2

[hyp]
good = "data/good.m2"
none = "data/none.m2"
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    d = tmp_path_factory.mktemp("options")
    (d / "data").mkdir()
    for name, edits in (("gold", GOLD), ("good", GOOD), ("none", NONE)):
        write_m2([M2Block(s, e) for s, e in zip(SOURCES, edits, strict=True)],
                 d / "data" / f"{name}.m2")
    conf = d / "report.toml"
    conf.write_text(CONFIG.format(types=json.dumps(list(TYPES)), subset=json.dumps(SUBSET)),
                    encoding="utf-8")
    assert errtype_main(["report", "--config", str(conf), "-q"]) == 0
    inp = load_input([d / "data" / "gold.m2"], [("good", d / "data" / "good.m2"),
                                                 ("none", d / "data" / "none.m2")])
    report = build_report(inp, ReportOptions(bootstrap=80, trials=80, seed=2, baseline="none",
                                             types=TYPES, subset=SUBSET))
    return report, d / "report.html"


def test_the_page_shows_the_options(page: tuple[Any, Path], tmp_path: Path) -> None:
    report, html = page
    dom = Dom(dump_dom(html, tmp_path / "profile"))
    assert report.types == ["R:VERB:SVA", "M:DET", "R:NOUN:NUM", "R:VERB:TENSE"]
    for system in report.systems:  # per-type tables: the selection, in gold-frequency order
        assert list(rows(dom, f"types-{system}")) == report.types
    assert dom.by_id["b-type"]["text"] == "all types" + "".join(report.types)
    base = dom.tables["table-baseline"]
    assert base == [baseline_table(report).header, *baseline_table(report).rows]
    assert {r[1] for r in base[1:]} == {"good"} and {r[2] for r in base[1:]} == {"none"}
    assert "table-pairs" not in dom.tables  # every pair is not tested: the baseline is
    assert "5 of 6 sentences (subset)" in dom.by_id["page-head"]["text"]
    notes = dom.by_id["notes"]["text"]
    assert "options from" in notes and "subset len:-6: 5 of 6 sentences" in notes
    cells = [b for b in dom.bars if b["svg"] == "type-chart"]
    assert {c["data-category"].rsplit(" (", 1)[0] for c in cells} <= set(report.types)


def test_heatmap_cells_open_the_browser(page: tuple[Any, Path], tmp_path: Path) -> None:
    report, html = page
    script = """
      const out = [];
      const cells = Array.from(document.querySelectorAll('#heatmap-f a.cell'));
      out.push(cells.map(a => [a.dataset.system, a.dataset.type, a.dataset.value,
                               a.dataset.mark]));
      for (const [sys, type] of [['good', 'R:VERB:SVA'], ['none', 'R:NOUN:NUM'],
                                 ['good', 'M:DET']]) {
        const a = cells.find(c => c.dataset.system === sys && c.dataset.type === type);
        a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
        await wait(300);
        out.push({hash: decodeURIComponent(location.hash),
                  sys: document.getElementById('b-sys').value,
                  type: document.getElementById('b-type').value,
                  count: +document.getElementById('browser-count').dataset.count,
                  tp: +document.getElementById('browser-totals').dataset.tp,
                  fn: +document.getElementById('browser-totals').dataset.fn,
                  numbers: Array.from(document.querySelectorAll('#browser-list .sent .n'))
                    .map(n => +n.textContent)});
      }
      return out;
    """
    seen = run_harness(html, script, tmp_path / "h")["result"]
    cells = seen.pop(0)
    gold_types = [t for t in report.types if report.gold_freq.get(t)]
    assert [(s, t) for s, t, _, _ in cells] == [(s, t) for s in report.systems
                                                 for t in gold_types]
    for s, t, value, _ in cells:
        v = heatmap_value(report, s, t)
        assert value == ("" if v is None else f"{v:.6f}")
    for (sys_, type_), got in zip([("good", "R:VERB:SVA"), ("none", "R:NOUN:NUM"),
                                   ("good", "M:DET")], seen, strict=True):
        assert got["hash"] == f"#sys={sys_}&type={type_}"
        assert (got["sys"], got["type"]) == (sys_, type_)
        with_type = [s for s in report.sentences
                     if any(e[3] == type_ for e in s["sys"][sys_])]
        assert got["count"] == len(with_type)
        assert got["numbers"] == [s["id"] for s in with_type]  # numbers of the whole input
        row = report.per_type[sys_][type_]
        assert (got["tp"], got["fn"]) == (row["tp"], row["fn"])
    assert seen[0]["numbers"] == [1, 3, 6]  # sentence 5 is outside the subset


def test_baseline_tables_sort_and_download(page: tuple[Any, Path], tmp_path: Path) -> None:
    report, html = page
    sort = """
      const t = document.getElementById('table-baseline-types');
      const th = Array.from(t.tHead.rows[0].cells).find(c => c.textContent === 'Delta');
      th.click();
      const order = Array.from(t.tBodies[0].rows).map(r => r.cells[4].textContent);
    """
    # one download per Chromium run: a second one may be cut off when Chromium exits
    got = run_harness(html, sort + """
      document.querySelector('button.csv[data-table="table-baseline-types"]').click();
      await wait(300);
      return {order, sort: th.getAttribute('aria-sort')};
    """, tmp_path / "h1", downloads=1)
    assert got["result"]["sort"] == "descending"
    table = baseline_type_table(report)
    rank = sorted(range(len(table.rows)), key=lambda i: (-float(table.rows[i][6]), i))
    assert got["result"]["order"] == [table.rows[i][4] for i in rank]
    table.rows = [table.rows[i] for i in rank]
    assert got["files"]["baseline-types.csv"] == to_csv(table)
    got = run_harness(html, """
      document.querySelector('button.csv[data-table="table-baseline"]').click();
      await wait(300);
      return 1;
    """, tmp_path / "h2", downloads=1)
    assert got["files"]["baseline.csv"] == to_csv(baseline_table(report))
