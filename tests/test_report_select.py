"""Report options for a researcher's evaluation section: type selectors (``--types``), sentence
subsets (``--subset``), tests against a baseline (``--baseline``), the systems x types heatmap
and ``--config`` files; checked on small M2 inputs written here (no parser)."""

from __future__ import annotations

import argparse
import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from errtype.cli.main import main as errtype_main
from errtype.errors import InputError
from errtype.m2 import M2Block, M2Edit, write_m2
from errtype.report import ReportOptions, build_report, load_input, render_tables, tables_dict
from errtype.report import stats as st
from errtype.report.select import (
    edit_count,
    match_type,
    parse_subset,
    select_sentences,
    select_types,
)
from errtype.report.svg import heatmap, heatmap_marks
from errtype.report.tables import significance

NOOP = [M2Edit(-1, -1, "noop", "-NONE-", 0)]
SOURCES = ["He go to school .", "I like apple .", "She have a cat .", "The sky is blue .",
           "They was at home yesterday evening .", "A dog barks ."]
GOLD = [[M2Edit(1, 2, "R:VERB:SVA", "goes", 0), M2Edit(3, 3, "M:DET", "the", 0)],
        [M2Edit(2, 3, "R:NOUN:NUM", "apples", 0)],
        [M2Edit(1, 2, "R:VERB:SVA", "has", 0), M2Edit(1, 2, "R:VERB:TENSE", "had", 1)],
        NOOP,
        [M2Edit(1, 2, "R:VERB:SVA", "were", 0), M2Edit(4, 5, "U:DET", "", 0)],
        NOOP]
GOOD = [[M2Edit(1, 2, "R:VERB:SVA", "goes", 0)], [M2Edit(2, 3, "R:NOUN:NUM", "apples", 0)],
        [M2Edit(1, 2, "R:VERB:SVA", "has", 0)], NOOP,
        [M2Edit(1, 2, "R:VERB:SVA", "were", 0)], [M2Edit(2, 3, "R:VERB:SVA", "bark", 0)]]
NONE = [NOOP] * len(SOURCES)


def _write(path: Path, edits: list[list[M2Edit]]) -> Path:
    write_m2([M2Block(s, e) for s, e in zip(SOURCES, edits, strict=True)], path)
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return {"gold": _write(tmp_path / "gold.m2", GOLD), "good": _write(tmp_path / "good.m2", GOOD),
            "none": _write(tmp_path / "none.m2", NONE), "dir": tmp_path}


def _input(files: dict[str, Path], *extra: str) -> Any:
    systems = [("good", files["good"]), ("none", files["none"])]
    systems += [(name, files["good"]) for name in extra]
    return load_input([files["gold"]], systems)


OPTS = {"bootstrap": 200, "trials": 200}


# --------------------------------------------------------------------------- type selectors


def test_type_selectors() -> None:
    types = ["R:VERB:SVA", "M:DET", "U:DET", "R:DET", "R:VERB", "M:VERB:TENSE", "R:NOUN:NUM",
             "Vt", "ArtOrDet"]
    assert select_types(types, ["DET"]) == ["M:DET", "U:DET", "R:DET"]
    assert select_types(types, ["R:VERB*"]) == ["R:VERB:SVA", "R:VERB"]
    assert select_types(types, ["M:*"]) == ["M:DET", "M:VERB:TENSE"]
    assert select_types(types, ["VERB:*"]) == ["R:VERB:SVA", "M:VERB:TENSE"]
    assert select_types(types, ["NOUN:NUM", "Vt"]) == ["R:NOUN:NUM", "Vt"]
    assert select_types(types, ["A*"]) == ["ArtOrDet"]  # no operation: the whole type
    assert select_types(types, []) == types
    assert not match_type("R:DET", "det")  # case matters, as in the types
    assert not match_type("R:DETX", "DET") and match_type("R:DET", "?:DET")
    with pytest.raises(InputError, match=r"--types 'DTE' selects none of the report's 9"):
        select_types(types, ["DET", "DTE"])


def test_types_keep_the_numbers_of_the_selected_rows(files: dict[str, Path]) -> None:
    inp = _input(files)
    full = build_report(inp, ReportOptions(**OPTS))
    sel = build_report(inp, ReportOptions(**OPTS, types=("VERB*", "U:*")))
    assert sel.types == ["R:VERB:SVA", "R:VERB:TENSE", "U:DET"]  # by gold frequency, name
    assert [t for t in full.types if t in sel.types] == sel.types  # the same order
    for s in sel.systems:
        assert sel.corpus[s] == full.corpus[s]  # corpus scores count every edit
        assert sel.geclens[s] == full.geclens[s]
        for t in sel.types:
            assert sel.per_type[s][t] == full.per_type[s][t]
        assert {g for g, _ in sel.confusion[s]} <= {*sel.types, "(no gold edit)"}
    assert any("types VERB* U:*: 3 error types" in n for n in sel.notes)
    assert "types:VERB*,U:*" in sel.signatures["report"]
    assert [row[0] for row in tables_dict(sel)["types-good"]["rows"]] == sel.types
    svg = ET.fromstring(heatmap(sel))
    cols = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")
            if t.get("class") == "col"]
    assert cols == [t for t in sel.types if sel.gold_freq.get(t)]


# --------------------------------------------------------------------------- subsets


def test_subset_specs(tmp_path: Path) -> None:
    gold = [M2Block(s, e) for s, e in zip(SOURCES, GOLD, strict=True)]
    assert [edit_count(b) for b in gold] == [2, 1, 1, 0, 2, 0]  # the busiest annotator
    assert select_sentences(gold, [parse_subset("len:5")]) == [0, 2, 3]
    assert select_sentences(gold, [parse_subset("len:-4")]) == [1, 5]
    assert select_sentences(gold, [parse_subset("len:6-")]) == [4]
    assert select_sentences(gold, [parse_subset("edits:0")]) == [3, 5]
    assert select_sentences(gold, [parse_subset("edits:1-"), parse_subset("len:5-5")]) == [0, 2]
    ids = tmp_path / "ids.txt"
    ids.write_text("# the hard ones\n1, 3\n5-6  # a range\n", encoding="utf-8")
    assert select_sentences(gold, [parse_subset(f"ids:{ids}")]) == [0, 2, 4, 5]
    for bad in ("len", "length:3", "len:", "len:x", "len:5-3", "len:-", "edits:1-2-3"):
        with pytest.raises(InputError, match="--subset"):
            parse_subset(bad)
    ids.write_text("1\n2 x\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"{ids}, line 2: not a sentence number"):
        parse_subset(f"ids:{ids}")
    ids.write_text("0\n", encoding="utf-8")
    with pytest.raises(InputError, match="start at 1"):
        parse_subset(f"ids:{ids}")
    with pytest.raises(InputError, match="no such file"):
        parse_subset(f"ids:{tmp_path / 'missing.txt'}")


def test_a_subset_report_is_the_report_of_those_sentences(files: dict[str, Path]) -> None:
    """--subset edits:1- gives exactly the report of a gold and systems holding only those
    sentences (and the browser keeps their numbers in the whole input)."""
    inp = _input(files)
    sub = build_report(inp, ReportOptions(**OPTS, subset=("edits:1-",)))
    keep = [0, 1, 2, 4]
    cut = files["dir"] / "cut"
    cut.mkdir()
    for name, edits in (("gold", GOLD), ("good", GOOD), ("none", NONE)):
        write_m2([M2Block(SOURCES[i], edits[i]) for i in keep], cut / f"{name}.m2")
    small = build_report(load_input([cut / "gold.m2"], [("good", cut / "good.m2"),
                                                        ("none", cut / "none.m2")]),
                         ReportOptions(**OPTS))
    assert sub.n_sentences == 4 and sub.n_total == 6 and small.n_sentences == 4
    assert sub.corpus == small.corpus and sub.per_type == small.per_type
    assert sub.geclens == small.geclens and sub.comparisons == small.comparisons
    assert [s["id"] for s in sub.sentences] == [i + 1 for i in keep]
    assert [s["id"] for s in small.sentences] == [1, 2, 3, 4]
    assert any("subset edits:1-: 4 of 6 sentences" in n for n in sub.notes)
    with pytest.raises(InputError, match="selects none of the 6 sentences"):
        build_report(inp, ReportOptions(**OPTS, subset=("len:100-",)))
    ids = files["dir"] / "ids.txt"
    ids.write_text("7\n", encoding="utf-8")
    with pytest.raises(InputError, match="sentence 7 is beyond the gold's 6 sentences"):
        build_report(inp, ReportOptions(**OPTS, subset=(f"ids:{ids}",)))


# --------------------------------------------------------------------------- baseline


def test_tests_against_a_baseline(files: dict[str, Path]) -> None:
    inp = _input(files, "twin")  # "twin" is "good" again
    r = build_report(inp, ReportOptions(bootstrap=300, trials=300, baseline="good"))
    assert "holm:systems-vs-baseline" in r.signatures["report"]
    assert "baseline:good" in r.signatures["report"]
    overall = {(x["label"], x["system"]): x for x in r.baseline["overall"]}
    assert {s for _, s in overall} == {"none", "twin"}  # every other system, not the baseline
    assert {m for m, _ in overall} == {"ERRANT F0.5", "M2 F0.5", "Detection F1", "Success",
                                       "Over-correction"}
    for x in r.baseline["overall"] + r.baseline["types"]:
        assert x["baseline"] == "good"
        if x["system"] == "twin":  # the same system: no difference, p = 1
            assert x["delta"] == 0 and x["p_boot"] == x["p_ar"] == 1.0
            assert significance(x) == ""
    # the values are the page's numbers: ERRANT F, detection, over-correction
    e = overall[("ERRANT F0.5", "none")]
    assert e["value"] == r.corpus["none"]["errant"]["f"]["v"]
    assert e["base_value"] == r.corpus["good"]["errant"]["f"]["v"]
    assert overall[("Detection F1", "none")]["value"] == r.geclens["none"]["det"]["f"]["v"]
    oc = overall[("Over-correction", "none")]
    assert (oc["value"], oc["base_value"]) == (0.0, 0.5)  # good changed 1 of 2 clean ones
    assert oc["lower_is_better"] and oc["delta"] == -0.5
    types = {(x["type"], x["label"], x["system"]): x for x in r.baseline["types"]}
    sva = types[("R:VERB:SVA", "F0.5", "none")]
    assert sva["value"] == 0.0 and sva["base_value"] == r.per_type["good"]["R:VERB:SVA"]["f"]["v"]
    # Holm over the two systems compared (the twin's p is 1)
    assert sva["p_boot_holm"] == pytest.approx(min(1.0, 2 * sva["p_boot"]))
    assert sva["p_ar_holm"] == pytest.approx(min(1.0, 2 * sva["p_ar"]))
    assert ("R:VERB:SVA", "type-only F0.5", "none") in types
    assert ("R:VERB:SVA", "Det F1", "none") in types
    # a type neither system touches has no row (its F is undefined for both)
    assert r.per_type["twin"]["R:VERB:TENSE"]["f"] is None  # annotator 1 is never chosen
    assert not any(t == "R:VERB:TENSE" for t, _, _ in types)
    # the tables, in every format
    tables = tables_dict(r)
    assert "baseline" in tables and "baseline-types" in tables and "pairs" not in tables
    assert tables["baseline"]["header"][-1] == "vs baseline"
    md = render_tables(r, "md")
    assert "### Against the baseline good (paired tests, Holm over the systems)" in md
    with pytest.raises(InputError, match="--baseline 'best' is not one of the systems"):
        build_report(inp, ReportOptions(**OPTS, baseline="best"))


def test_baseline_p_values_are_the_statistics_modules(files: dict[str, Path]) -> None:
    """The over-correction test is the paired bootstrap / AR of the (changed, clean) counts."""
    inp = _input(files)
    o = ReportOptions(bootstrap=250, trials=250, seed=3, baseline="none")
    r = build_report(inp, o)
    row = next(x for x in r.baseline["overall"] if x["measure"] == "overcorrection")
    rates = {}
    for s in inp.systems:
        clean = [not any(not e.is_noop for e in g.edits) for g in inp.gold]
        changed = [h.split() != g.tokens for h, g in zip(s.hypotheses, inp.gold, strict=True)]
        rates[s.name] = np.array([(c and ch, c) for c, ch in zip(clean, changed, strict=True)],
                                 dtype=float)
    w = st.bootstrap_weights(len(inp.gold), 250, 3)
    a, b = rates["good"], rates["none"]
    p_boot = st.paired_bootstrap_p(st.ratio_stat(a.sum(0)), st.ratio_stat(b.sum(0)),
                                   st.ratio_stat(st.resampled_sums(w, a)),
                                   st.ratio_stat(st.resampled_sums(w, b)))
    p_ar = st.approximate_randomization(a, b, st.ratio_stat, 250, 3)
    assert (row["p_boot"], row["p_ar"]) == (float(p_boot), float(p_ar))
    assert row["p_boot_holm"] == row["p_boot"]  # one system compared: Holm changes nothing


def test_heatmap(files: dict[str, Path]) -> None:
    inp = _input(files)
    r = build_report(inp, ReportOptions(**OPTS, baseline="none"))
    root = ET.fromstring(heatmap(r))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("id") == "heatmap-f"
    cells = [a for a in root.iter(f"{ns}a") if a.get("class") == "cell"]
    gold_types = [t for t in r.types if r.gold_freq.get(t)]
    assert len(cells) == len(r.systems) * len(gold_types)
    for a in cells:
        s, t = a.get("data-system"), a.get("data-type")
        f = r.per_type[s][t]["f"]
        assert a.get("data-value") == ("" if f is None else f"{f['v']:.6f}")
        assert a.get("href") == f"#sys={s}&type={t.replace(':', '%3A')}"
        assert a.get("data-mark") == heatmap_marks(r).get((s, t), "")
    rows = [t.text for t in root.iter(f"{ns}text") if t.get("class") == "row"]
    assert rows == ["good", "none (baseline)"]
    for measure in ("type_only", "det"):
        other = ET.fromstring(heatmap(r, measure))
        vals = {(a.get("data-system"), a.get("data-type")): a.get("data-value")
                for a in other.iter(f"{ns}a") if a.get("class") == "cell"}
        f = r.per_type["good"]["R:VERB:SVA"][measure]["f"]
        assert vals[("good", "R:VERB:SVA")] == f"{f['v']:.6f}"
    with pytest.raises(ValueError, match="measure"):
        heatmap(r, "gleu")
    assert "<script" not in heatmap(r) and "http://www.w3.org/2000/svg" in heatmap(r)


# --------------------------------------------------------------------------- --config


def _config(tmp: Path, text: str) -> Path:
    path = tmp / "conf" / "report.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_config_file_sets_every_option(files: dict[str, Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "conf" / "data").mkdir(parents=True)
    for name in ("gold", "good", "none"):
        (tmp_path / "conf" / "data" / f"{name}.m2").write_bytes(files[name].read_bytes())
    (tmp_path / "conf" / "ids.txt").write_text("1-5\n", encoding="utf-8")
    conf = _config(tmp_path, """
# relative paths are read from this file's folder
ref = "data/gold.m2"
out = "out/report.md"
format = "md"
baseline = "none"
types = ["VERB*", "M:*"]
subset = ["ids:ids.txt", "len:-6"]
bootstrap = 60
trials = 60
seed = 4
no_gleu = true
edit-gold = "m2"

[hyp]
good = "data/good.m2"
none = "data/none.m2"
""")
    (tmp_path / "conf" / "out").mkdir()
    assert errtype_main(["report", "--config", str(conf)]) == 0
    err = capsys.readouterr().err
    out = tmp_path / "conf" / "out" / "report.md"
    text = out.read_text(encoding="utf-8")
    assert f"errtype report: wrote {out} (Markdown tables: 2 systems, 4 of 6 sentences" in err
    assert "### Against the baseline none" in text and "GLEU" not in text
    assert "seed:4" in text and "types:VERB*,M:*" in text and "subset:ids:" in text
    assert f"note: options from {conf}: ref, out, format, baseline" in err
    # the command line wins over the file
    md = tmp_path / "cli.md"
    assert errtype_main(["report", "--config", str(conf), "--seed", "5", "-o", str(md),
                         "--types", "R:*", "-q"]) == 0
    assert capsys.readouterr().err == ""  # -q: nothing on success
    text = md.read_text(encoding="utf-8")
    assert "seed:5" in text and "types:R:*" in text and "bootstrap:60" in text


@pytest.mark.parametrize(("body", "line", "message"), [
    ("ref = 'g.m2'\nbootstrapp = 10\n", 2, "unknown key 'bootstrapp': it is not an option of "
                                           "this command"),
    ("version = true\n", 1, "unknown key 'version': it is set on the command line only"),
    ("bootstrap = '10'\n", 1, "bootstrap is an integer, not '10'"),
    ("beta = true\n", 1, "beta: not a number: True"),
    ("no-gleu = 'yes'\n", 1, "no-gleu is a flag: true or false, not 'yes'"),
    ("format = 'pdf'\n", 1, "format must be one of html, csv, md, tex, not 'pdf'"),
    ("title = ['a', 'b']\n", 1, "title takes one value, not a list"),
    ("keep-gold-types = true\nretype-gold = true\n", 2,
     "retype-gold and keep-gold-types exclude each other"),
    ("hyp = []\n", 1, "hyp needs at least one value"),
    ("ref = \n", 1, "not a valid TOML file"),
])
def test_config_errors_name_file_line_and_key(files: dict[str, Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str], body: str,
                                              line: int, message: str) -> None:
    conf = _config(tmp_path, body)
    out = tmp_path / "r.html"
    args = ["report", "--config", str(conf), "--ref", str(files["gold"]), "--hyp",
            f"good={files['good']}", "-o", str(out)]
    assert errtype_main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"errtype report: error: {conf}, line {line}: {message}"), err
    assert not out.exists()


def test_a_config_with_a_byte_order_mark(tmp_path: Path) -> None:
    """A TOML file saved with a UTF-8 byte order mark (and CRLF line ends, as Windows editors
    write it) is read; the lines of its errors are the file's."""
    from errtype.cli import report
    from errtype.cli.config import from_config, unset_namespace

    conf = tmp_path / "bom.toml"
    parser = report.build_parser()

    def complete() -> argparse.Namespace:
        args = parser.parse_args(["--config", str(conf), "--ref", "g.m2", "--hyp", "a=b.m2",
                                  "-o", "r.html"], namespace=unset_namespace(parser))
        from_config(parser, args)
        return args

    conf.write_bytes('\ufefftitle = "Über"\r\nseed = 3\r\n'.encode())
    args = complete()
    assert (args.title, args.seed) == ("Über", 3)
    conf.write_bytes("\ufeffseed = 3\nbootstrapp = 1\n".encode())
    with pytest.raises(InputError, match=r"line 2: unknown key 'bootstrapp'"):
        complete()


def test_required_options_and_a_missing_config(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    conf = _config(tmp_path, "seed = 1\n")
    assert errtype_main(["report", "--config", str(conf), "-o", str(tmp_path / "r")]) == 2
    assert ("error: the following options are required: --ref, --hyp (on the command line or "
            "in a --config file)") in capsys.readouterr().err
    missing = tmp_path / "nope.toml"
    assert errtype_main(["report", "--config", str(missing)]) == 2
    assert f"error: {missing}: no such file" in capsys.readouterr().err


def test_cli_baseline_and_subset_are_checked_before_any_work(
        files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import errtype.report

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the inputs were read before the options were checked")

    monkeypatch.setattr(errtype.report, "load_input", fail)
    base = ["report", "--ref", str(files["gold"]), "--hyp", f"good={files['good']}",
            f"none={files['none']}", "-o", str(tmp_path / "r.html")]
    assert errtype_main([*base, "--baseline", "best"]) == 2
    assert "--baseline 'best' is not one of the systems (good, none)" in capsys.readouterr().err
    assert errtype_main([*base, "--subset", "len:x"]) == 2
    assert "--subset 'len:x': expected a number or a range" in capsys.readouterr().err


def test_report_options_are_plain_data() -> None:
    o = ReportOptions(baseline="A", types=("DET",), subset=("len:-10",))
    assert dataclasses.replace(o, seed=1).baseline == "A"
    assert ReportOptions().settings() == {
        "beta": 0.5, "bootstrap": 1000, "ar_trials": 1000, "seed": 0, "ci": "percentile-0.95",
        "resample": "sentences", "holm": "pairs"}  # unchanged without the new options
