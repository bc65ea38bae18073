"""errtype-meta textlevel: ratings of the gec-evaluation annotation tool (Östling et al. 2024)."""

from __future__ import annotations

import io
import json
import math
import statistics
import subprocess
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from errtype.cli.meta import TEXTLEVEL_COLUMNS
from errtype.cli.meta import main as meta_main
from errtype.errors import InputError
from errtype.score.meta import textlevel as tl
from errtype.score.registry import get_metric

from .conftest import peer_repo

SOURCES = ["jag har en bok .", "han gå hem .", "vi bor i stockholm ."]
REFS = ["Jag har en bok .", "Han går hem .", "Vi bor i Stockholm ."]
#: three systems: the reference itself, half corrected, the source unchanged
OUTPUTS = {"good": REFS,
           "half": ["Jag har en bok .", "han gå hem .", "Vi bor i Stockholm ."],
           "copy": SOURCES}
GRAMMAR = {"good": 4, "half": 3, "copy": 1}


def rater_file(path: Path, rater: str, grammar: dict[str, int], rated: bool = True,
               newline: bool = False) -> None:
    data = []
    for k, (src, ref) in enumerate(zip(SOURCES, REFS, strict=True)):
        systems = {}
        for s, outs in OUTPUTS.items():
            out = outs[k] + ("\u2424Slut ." if newline else "")
            rec = {"Grammaticality": grammar[s], "Fluency": grammar[s],
                   "Meaning Preservation": 4, "corrected": REFS[k]} if rated else None
            systems[s] = {"output": out, "annotators": {rater: rec} if rec else {}}
        data.append({"original": src + ("\u2424Slut ." if newline else ""),
                     "reference": ref + ("\u2424Slut ." if newline else ""),
                     "systems": systems})
    path.write_text(json.dumps({"data": data, "item_order": [0, 1, 2], "next_item": 0}),
                    encoding="utf-8")


@pytest.fixture
def ratings(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    rater_file(folder / "anna.json", "anna", GRAMMAR)
    rater_file(folder / "bo.json", "bo", {"good": 4, "half": 2, "copy": 0})  # 0 = "Other"
    return folder


def test_a_folder_merges_its_raters_and_other_is_left_out(ratings: Path) -> None:
    js = tl.read_judgment_set([ratings])
    assert len(js.items) == 3 and js.systems() == ["good", "half", "copy"]
    assert js.raters() == ["anna", "bo"]
    assert js.rated_items() == [0, 1, 2]
    g = js.human_scores("Grammaticality")
    assert g["good"] == 4 and g["half"] == 2.5
    assert g["copy"] == 1  # bo's "Other" (0) is not a rating
    assert js.human_scores("Grammaticality", ["bo"])["half"] == 2
    nld = js.human_scores("NLD")
    assert nld["good"] == 0
    assert nld["copy"] == pytest.approx(statistics.mean(
        tl._nld(s, r) for s, r in zip(SOURCES, REFS, strict=True)))


def test_files_and_folders_are_concatenated(ratings: Path, tmp_path: Path) -> None:
    other = tmp_path / "one.json"
    rater_file(other, "cy", GRAMMAR, newline=True)
    js = tl.read_judgment_set([ratings, other])
    assert len(js.items) == 6 and len(js.files) == 3
    assert tl.as_line(js.items[3].original) == "jag har en bok . Slut ."


def test_unrated_items_are_not_scored(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    rater_file(f, "anna", GRAMMAR, rated=False)
    js = tl.read_judgment_set([f])
    assert js.rated_items() == []
    with pytest.raises(InputError, match="no item is rated for every system"):
        tl.rated_items_or_error(js)


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "not JSON"),
    ('{"items": []}', 'no "data" list'),
    ('{"data": [{"original": "a", "reference": "b", "systems": {"s": {"output": "a", '
     '"annotators": {"r": {"Grammaticality": 7}}}}}]}', "item 1: .*integers 0-4"),
    ('{"data": [{"original": "a", "reference": "b", "systems": {"s": {}}}]}',
     "item 1: system 's' has no \"output\""),
])
def test_bad_rater_files_are_refused_naming_file_and_item(tmp_path: Path, text: str,
                                                          message: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        tl.read_judgment_set([f])
    assert "bad.json" in str(err.value)


def test_rater_files_of_one_folder_must_hold_the_same_items(ratings: Path) -> None:
    data = json.loads((ratings / "bo.json").read_text(encoding="utf-8"))
    data["data"][1]["reference"] = "Något annat ."
    (ratings / "bo.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match="item 2 differs from .*anna.json"):
        tl.read_judgment_set([ratings])


def test_correlations_follow_the_ratings(ratings: Path) -> None:
    js = tl.read_judgment_set([ratings])
    items = js.rated_items(["anna"])
    scores, failed = tl.score_metrics(js, [("gleu", get_metric("gleu"))], items)
    assert failed == {}
    (gleu,) = scores
    assert gleu.system["good"] > gleu.system["half"] > gleu.system["copy"]
    rows = {r["human"]: r for r in tl.correlate(js, scores, items, ["anna"])}
    g = rows["Grammaticality"]
    assert g["systems"] == 3 and g["system_spearman"] == pytest.approx(1.0)
    xs = [gleu.system[s] for s in js.systems()]
    ys = [GRAMMAR[s] for s in js.systems()]
    assert g["system_pearson"] == pytest.approx(statistics.correlation(xs, ys))
    assert g["items"] == 9
    item_x = [v for s in js.systems() for v in gleu.items[s]]
    item_y = [GRAMMAR[s] for s in js.systems() for _ in items]
    assert g["item_pearson"] == pytest.approx(statistics.correlation(item_x, item_y))
    assert math.isnan(rows["Meaning Preservation"]["system_pearson"])  # constant ratings


def run_cli(*args: str) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert meta_main(["textlevel", *args]) == 0
    return buf.getvalue()


def test_cli_tsv_columns_and_a_metric_that_cannot_run(ratings: Path, tmp_path: Path) -> None:
    not_a_model = tmp_path / "sv.udpipe"
    not_a_model.write_text("not a model\n", encoding="utf-8")
    out = run_cli("--data", str(ratings), "-m", "gleu", "errant", "--rater", "anna", "--tsv",
                  "--udpipe-model", str(not_a_model))
    lines = [ln.split("\t") for ln in out.splitlines()]
    assert lines[0] == list(TEXTLEVEL_COLUMNS)
    rows = {(r[0], r[1]): dict(zip(TEXTLEVEL_COLUMNS, r, strict=True)) for r in lines[1:]}
    assert len(rows) == 2 * len(tl.HUMAN) == len(lines) - 1
    g = rows[("gleu", "Grammaticality")]
    assert g["status"] == "ok" and float(g["system_spearman"]) == pytest.approx(1.0)
    assert g["systems"] == "3" and g["items"] == "9"
    e = rows[("errant", "Fluency")]
    assert e["status"].startswith("not run: ") and e["system_pearson"] == "nan"


def test_cli_report_and_json(ratings: Path, tmp_path: Path) -> None:
    js_out = tmp_path / "out.json"
    out = run_cli("--data", str(ratings), "-m", "gleu", "--json", str(js_out))
    assert out.startswith("# 3 items from 2 file(s); 3 rated for every system by anna, bo")
    assert "system\tGrammaticality\tFluency\tMeaning Preservation\tNLD" in out
    assert "meta-textlevel|" in out
    report = json.loads(js_out.read_text(encoding="utf-8"))
    assert report["human"]["Grammaticality"]["half"] == 2.5
    assert {r["metric"] for r in report["correlations"]} == {"gleu"}


def test_cli_unknown_rater_is_an_input_error(ratings: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert meta_main(["textlevel", "--data", str(ratings), "-m", "gleu", "--rater", "zed"]) != 0
    assert "no rating by zed (raters: anna, bo)" in capsys.readouterr().err


#: Östling et al. (2024), Table 4: system means of Katarina's ratings over the 192 sentences
#: (printed to one decimal; NLD to three)
TABLE4 = {"Grammaticality": {"granska": 3.0, "mt": 3.3, "s2": 3.7, "mm": 3.9, "mw": 3.9},
          "Fluency": {"granska": 2.8, "mt": 3.1, "s2": 3.6, "mm": 3.8, "mw": 3.8},
          "Meaning Preservation": {"granska": 3.5, "mt": 3.4, "s2": 3.4, "mm": 3.9, "mw": 3.8},
          "NLD": {"granska": 0.126, "mt": 0.113, "s2": 0.076, "mm": 0.034, "mw": 0.029}}
PAPER_COMMIT = "3d7108bab98d555b7be00df42302168faea4069e"


def test_real_ratings_give_the_papers_table4(tmp_path: Path) -> None:
    root = peer_repo("textlevel_eval")
    folders = []
    for level in "ABC":
        folder = tmp_path / f"balanced_{level}"
        folder.mkdir()
        blob = subprocess.run(["git", "-C", str(root), "show",
                               f"{PAPER_COMMIT}:annotations/balanced_{level}/katarina.json"],
                              capture_output=True, check=True)
        (folder / "katarina.json").write_bytes(blob.stdout)
        folders.append(folder)
    js = tl.read_judgment_set(folders)
    items = js.rated_items(["katarina"])
    assert len(items) == 192
    table = tl.human_table(js, items, ["katarina"])
    for measure, row in TABLE4.items():
        for system, value in row.items():
            assert round(table[measure][system], 3 if measure == "NLD" else 1) == value
    scores, failed = tl.score_metrics(js, [("gleu", get_metric("gleu"))], items)
    rows = {r["human"]: r for r in tl.correlate(js, scores, items, ["katarina"])}
    # regression pin (errtype's GLEU on the paper set, bench/bench_swedish_meta.py)
    assert rows["Grammaticality"]["system_pearson"] == pytest.approx(0.869, abs=5e-4)
    assert rows["NLD"]["system_spearman"] == pytest.approx(-0.9)
    text = tl.read_judgment_set([root / "annotations" / "sv-test.json"])
    assert len(text.items) == 50 and text.systems() == ["UAM-CSI"]
    assert len(text.rated_items()) == 1  # the fork's text-level ratings: a one-essay pilot


def test_metrics_that_extract_edits_run_with_a_udpipe_model(ratings: Path,
                                                            tiny_udpipe_model: Path) -> None:
    """A UD language's edit-based metrics run once a parser is given (here the tests' tiny
    Czech tagger standing in for a Swedish one: the texts are pre-tokenised)."""
    out = run_cli("--data", str(ratings), "-m", "maxmatch", "errant", "--rater", "anna",
                  "--tsv", "--lang", "cs", "--udpipe-model", str(tiny_udpipe_model))
    rows = [dict(zip(TEXTLEVEL_COLUMNS, ln.split("\t"), strict=True))
            for ln in out.splitlines()[1:]]
    assert {r["status"] for r in rows} == {"ok"}
    g = {r["metric"]: r for r in rows if r["human"] == "Grammaticality"}
    assert float(g["maxmatch"]["system_spearman"]) == pytest.approx(1.0)
