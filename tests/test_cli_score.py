"""``errtype score``: one call over many metrics and systems; table/TSV/JSON output, per-sentence
scores, signatures, input errors naming file and line, and edits extracted once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errtype.cli.main import main as errtype_main
from errtype.cli.score import main
from errtype.m2 import read_m2
from errtype.score.suite import load_suite, score_systems

GOLD = """S he go home .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1

S the the cat sat .
A 0 1|||U:DET|||-NONE-|||REQUIRED|||-NONE-|||0

S fine .

"""
SYS_A = """S he go home .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S the the cat sat .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S fine .
A 1 2|||R:PUNCT|||!|||REQUIRED|||-NONE-|||0

"""


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    out = {"gold": tmp_path / "gold.m2", "a": tmp_path / "a.m2", "b": tmp_path / "b.txt"}
    out["gold"].write_text(GOLD)
    out["a"].write_text(SYS_A)
    out["b"].write_text("he went home .\nthe cat sat .\nfine .\n")
    return out


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_table_json_tsv(files, capsys, tmp_path: Path) -> None:
    common = ["-m", "m2", "sentm2", "gleu", "--ref", str(files["gold"]),
              "--hyp", f"A={files['a']}", f"B={files['b']}"]
    code, out, _ = run(capsys, *common)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["system", "m2", "sentm2", "gleu"]
    # A: goes (correct), the missed deletion, "!" where no edit is due: P 1/2, R 1/2; the
    # sentences score 1, 0 (R 0), 0 (P 0)
    assert lines[1].split()[:3] == ["A", "50.00", "33.33"]
    # B: "went" matches annotator 1, "the" deletion matches: P 1, R 1; sentences 1, 1, 1
    assert lines[2].split()[:3] == ["B", "100.00", "100.00"]
    assert any(ln.startswith("m2: maxmatch|beta:0.5") for ln in lines)
    assert any(ln.startswith("sentm2: sentm2|") for ln in lines)
    code, out, _ = run(capsys, *common, "--tsv", "--sent")
    rows = out.split("\n\n")[0].splitlines()
    assert rows[0] == "system\tmetric\tscore\tp\tr\tf\tsignature"
    assert len(rows) == 1 + 2 * 3
    sent = out.split("\n\n")[1].splitlines()
    assert sent[0] == "system\tmetric\tsentence\tscore"
    assert "A\tsentm2\t3\t0.0" in sent  # an edit where the gold has none
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, *common, "--json", "-o", str(target))
    assert code == 0 and out == ""
    data = json.loads(target.read_text())
    assert data["systems"] == ["A", "B"] and set(data["metrics"]) == {"m2", "sentm2", "gleu"}
    by = {(r["system"], r["metric"]): r for r in data["results"]}
    assert by[("A", "m2")]["score"] == 0.5
    assert "sentences" not in by[("A", "m2")]
    assert errtype_main(["score", "--list"]) == 0
    assert "goto" in capsys.readouterr().out.split()


def test_options_and_input_errors(files, capsys, tmp_path: Path) -> None:
    base = ["--ref", str(files["gold"]), "--hyp", f"A={files['a']}"]
    code, out, _ = run(capsys, "-m", "m2", "--beta", "1", *base, "--tsv")
    assert "|beta:1.0|" in out
    code, out, _ = run(capsys, "-m", "gleu", "-O", "gleu.iterations=7", *base, "--tsv")
    assert code == 0 and "gleu|n:4|refs:2|iterations:7|" in out
    code, _, err = run(capsys, "-m", "m2", "-O", "m2.colour=1", *base)
    assert code == 2 and "metric m2" in err
    code, _, err = run(capsys, "-m", "bleu", *base)
    assert code == 2 and "unknown metric 'bleu'" in err
    short = tmp_path / "short.txt"
    short.write_text("he goes home .\n")
    code, _, err = run(capsys, "-m", "m2", "--ref", str(files["gold"]), "--hyp", f"S={short}")
    assert code == 2 and "short.txt" in err and "1 lines, but" in err
    code, _, err = run(capsys, "-m", "m2", *base, "-o", str(tmp_path / "no" / "x.tsv"))
    assert code == 2 and "does not exist; create it first" in err
    code, _, err = run(capsys, "-m", "m2", "--hyp", f"A={files['b']}")
    assert code == 2 and "--src" in err


def test_goto_with_saved_weights(files, capsys, tmp_path: Path) -> None:
    weights = tmp_path / "w.txt"
    code, out, _ = run(capsys, "-m", "goto", "--ref", str(files["gold"]), "--hyp",
                       f"A={files['a']}", f"B={files['a']}", "--goto-save-weights",
                       str(weights), "--tsv")
    assert code == 0 and weights.read_text().startswith("2\n")
    code, again, _ = run(capsys, "-m", "goto", "--ref", str(files["gold"]), "--hyp",
                         f"A={files['a']}", "--goto-weights", str(weights), "--tsv")
    assert again.split("\t")[8:10] == out.split("\t")[8:10]  # same P and R with the same weights


def test_reference_texts_and_reference_free(tmp_path: Path, capsys) -> None:
    src = tmp_path / "src.txt"
    src.write_text("a b c d e\nf g h i j\n")
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c d e\nf g h i k\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c d e\nf g h i k\n")
    code, out, _ = run(capsys, "-m", "gleu", "--src", str(src), "--ref", str(ref),
                       "--hyp", str(hyp), "--tsv")
    assert code == 0 and out.splitlines()[1].startswith("hyp.txt\tgleu\t1.0\t")
    arpa = tmp_path / "lm.arpa"
    arpa.write_text("\\data\\\nngram 1=4\n\n\\1-grams:\n-1.0\t<s>\n-0.5\t</s>\n-0.3\tk\n"
                    "-2.0\tj\n\n\\end\\\n")
    code, out, err = run(capsys, "-m", "scribendi", "--lm", f"arpa:{arpa}", "--src", str(src),
                         "--hyp", str(hyp), "--tsv")
    assert code == 0, err
    # the unchanged sentence scores 0, the one whose perplexity drops +1
    assert out.splitlines()[1].split("\t")[:3] == ["hyp.txt", "scribendi", "1.0"]


def test_text_systems_are_edit_extracted_once(files) -> None:
    from errtype import load

    calls = []

    class Counting:
        def __init__(self) -> None:
            self.inner = load("en")
            self.lang = "en"

        def annotate_stream(self, items, **kw):
            calls.append(1)
            return self.inner.annotate_stream(items, **kw)

    suite = load_suite([("B", files["b"]), ("C", files["b"]), ("A", files["a"])],
                       [files["gold"]], annotator=Counting)
    from errtype.score import get_metric

    metrics = [(m, get_metric(m)) for m in ("errant", "senterrant", "goto", "m2")]
    rows = score_systems(metrics, suite)
    assert len(calls) == 1  # three edit metrics, two text systems: one extraction
    by = {(r.system, r.metric): r for r in rows}
    # B = C: went (annotator 1) and the deletion, which the gold writes -NONE- and ERRANT's
    # edits "": both a deletion, as in M2 (issue 33)
    assert (by[("B", "errant")].result.counts["tp"], by[("B", "errant")].result.counts["fp"]) \
        == (2, 0)
    assert by[("B", "m2")].value == 1.0
    assert by[("B", "goto")].result.signature == by[("C", "goto")].result.signature


def test_edit_gold_modes(files) -> None:
    from errtype.score import get_metric

    suite = load_suite([("B", files["b"])], [files["gold"]])
    auto = get_metric("errant", gold_edits="auto")
    rows = score_systems([("errant", auto)], suite)
    # re-extracted gold: the deletion is ERRANT's "" now, so B's edits all match
    assert rows[0].value == 1.0 and "|gold:auto|" in rows[0].result.signature
    gold = list(read_m2(files["gold"]))
    assert suite.gold() == gold
    # annotator 1, absent from the block, corrects as annotator 0 (the combined-M2 convention)
    assert [(e.annotator, e.cor) for e in suite.edit_gold("auto")[1].edits] == [(0, ""), (1, "")]


def test_edit_metrics_share_one_settings_base(files, capsys) -> None:
    """The five ERRANT-edit metrics extend one settings class; ``annotator`` is the edit
    extractor in each; GoToScorer's gold coder is ``coder`` (``-O goto.annotator=N`` still
    means the coder on the command line)."""
    from errtype.score import get_metric
    from errtype.score.edits.base import EditMetric

    class Extractor:  # stands for an errtype.Annotator
        lang = "en"

    for name in ("errant", "senterrant", "cleme", "goto", "pt-errant"):
        metric = get_metric(name, annotator=Extractor, beta=2.0, lang="en")
        assert isinstance(metric, EditMetric) and metric.annotator is Extractor, name
        assert metric.uses == ("gold", "hyp_edits") and metric.main in ("f2", "f2.0"), name
    assert get_metric("goto", coder=1).settings()["ref"] == 1
    common = ["-m", "goto", "--ref", str(files["gold"]), "--hyp", f"A={files['a']}",
              f"C={files['a']}", "--tsv"]
    outs = []
    for opt in ("goto.coder=1", "goto.annotator=1"):
        code, out, _ = run(capsys, *common, "-O", opt)
        assert code == 0 and "|ref:1|" in out
        outs.append(out)
    assert outs[0] == outs[1]
    code, out, _ = run(capsys, *common)
    assert "|ref:0|" in out and out != outs[0]


@pytest.mark.parametrize("lang,para,hyp", [
    ("zh", "1\t这本书是非常有意思。\t这本书非常有意思。\n", "这本书非常有意思。\n"),
    ("en", "1\tI like like cats very much .\tI like cats very much .\n",
     "I like cats very much .\n"),
])
def test_a_correct_deletion_scores_100_whichever_way_the_gold_writes_it(
        lang: str, para: str, hyp: str, tmp_path: Path, capsys) -> None:
    """Issue 33: a gold writing a deletion ``-NONE-`` (errtype-m2's Chinese output, m2scorer
    corpora) gave a perfect system ERRANT F0.5 = 0 (FP + FN) beside M2 = 1. Every edit metric
    gives it 1, with the gold's deletion written ``-NONE-`` or empty."""
    from errtype.cli.m2 import main as m2_main

    (tmp_path / "g.para").write_text(para, encoding="utf-8")
    none = tmp_path / "none.m2"
    assert m2_main(["--lang", lang, "--para", str(tmp_path / "g.para"), "-o", str(none),
                    "-q"]) == 0
    text = none.read_text(encoding="utf-8")
    if lang == "en":  # ERRANT writes the deletion empty: write it as m2scorer corpora do
        text = text.replace("||||||REQUIRED", "|||-NONE-|||REQUIRED")
        none.write_text(text, encoding="utf-8")
    assert "|||-NONE-|||REQUIRED" in text.split("\n")[-3]
    empty = tmp_path / "empty.m2"
    empty.write_text(text.replace("|||-NONE-|||REQUIRED", "||||||REQUIRED"), encoding="utf-8")
    (tmp_path / "sys.txt").write_text(hyp, encoding="utf-8")
    metrics = ["errant", "senterrant", "cleme", "m2"] + (["cherrant"] if lang == "zh" else [])
    for gold in (none, empty):
        code, out, err = run(capsys, "-m", *metrics, "--lang", lang, "--ref", str(gold),
                             "--hyp", f"SYS={tmp_path / 'sys.txt'}", "--tsv")
        assert code == 0, err
        rows = [line.split("\t") for line in out.splitlines()[1:]]
        assert {r[1]: r[2] for r in rows} == dict.fromkeys(metrics, "1.0"), (gold, out)
    # errant_compare's literal reading stays available
    code, out, _ = run(capsys, "-m", "errant", "--lang", lang, "--ref", str(none), "--hyp",
                       f"SYS={tmp_path / 'sys.txt'}", "--tsv", "-O", "errant.literal_none=True")
    assert out.splitlines()[1].split("\t")[2] == "0.0"
