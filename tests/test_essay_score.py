"""errtype score on MultiGEC Markdown essays (errtype.score.essays): realigned units and essays."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.score.registry import available_metrics, describe, get_metric
from errtype.score.suite import load_suite, score_systems

from .conftest import SHARED, bench_module, shared_path

ORIG = {
    "1": "I has a dog. He like to play in the park. We goes there every day.\n"
         "My sister have a cat. It sleep all day.",
    "2": "She dont know the answer. The teacher were angry. Everyone laughed at she.",
    "3": "This are my house. It is very big.",
}
REF = {
    "1": "I have a dog. He likes to play in the park. We go there every day.\n"
         "My sister has a cat. It sleeps all day.",
    "2": "She doesn't know the answer. The teacher was angry. Everyone laughed at her.",
    "3": "This is my house. It is very big.",
}
#: some corrections made, one missed per essay, one wrong
HYP = {
    "1": "I have a dog. He like to play in a park. We go there every day.\n"
         "My sister has a cat. It sleep all day.",
    "2": "She doesn't know the answer. The teacher was angry. Everyone laughed at she.",
    "3": "This is my house. It is very big.",
}
#: HYP with every sentence boundary inside a paragraph of essays 1 and 2 joined by a comma
MERGED = {
    "1": "I have a dog, he like to play in a park, we go there every day.\n"
         "My sister has a cat, it sleep all day.",
    "2": "She doesn't know the answer, the teacher was angry, everyone laughed at she.",
    "3": HYP["3"],
}


def _md(path: Path, essays: dict[str, str], order: list[str] | None = None) -> Path:
    path.write_text("".join(f"### essay_id = {i}\n{essays[i]}\n\n" for i in order or essays),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("essays")
    return {"orig": _md(d / "orig.md", ORIG), "ref": _md(d / "ref.md", REF),
            "ref2": _md(d / "ref2.md", REF, ["3", "1"]),  # lacks essay 2
            "hyp": _md(d / "hyp.md", HYP),
            "reversed": _md(d / "reversed.md", HYP, ["3", "2", "1"]),
            "merged": _md(d / "merged.md", MERGED),
            "missing": _md(d / "missing.md", HYP, ["1", "3"]),
            "perfect": _md(d / "perfect.md", REF)}


def _scores(files: dict[str, Path], metrics: list[str], systems: list[str],
            refs: tuple[str, ...] = ("ref",), realign: bool = True) -> dict[str, dict]:
    suite = load_suite([(s, files[s]) for s in systems], [files[r] for r in refs],
                       files["orig"], lang="en", realign=realign)
    rows = score_systems([(m, get_metric(m)) for m in metrics], suite)
    return {f"{r.system}/{r.metric}": r.result.corpus for r in rows} | {"_notes": suite.notes}


def _runnable() -> list[str]:
    """Every registry metric that runs here without downloading a model or calling an API."""
    out = []
    for name in available_metrics():
        try:
            metric = get_metric(name)
        except Exception:  # an extra that is not installed: refused by the registry
            continue
        if describe(metric).extra is not None or name.startswith("llm-"):
            continue
        out.append(name)
    return out


def test_every_metric_runs_on_essays_and_the_reference_gets_the_maximum(
        files: dict[str, Path]) -> None:
    metrics = _runnable()
    assert {"errant", "maxmatch", "gleu", "green", "sentm2", "cleme", "goto"} <= set(metrics)
    got = _scores(files, metrics, ["perfect", "hyp"])
    for m in metrics:
        perfect, hyp = got[f"perfect/{m}"], got[f"hyp/{m}"]
        info = describe(get_metric(m))
        main = info.main or next(iter(perfect))
        if info.scale != 100 or m == "goto":  # a count or model score; goto: weighted by the
            continue  # systems' own edits, no fixed maximum
        assert perfect[main] == pytest.approx(1.0), (m, perfect)
        assert hyp[main] < perfect[main], (m, hyp)


def test_levels_declared() -> None:
    """Sentence-level metrics (they align or compare texts themselves) score the units."""
    level = {m: describe(get_metric(m)).level for m in ("errant", "maxmatch", "gleu", "green",
                                                         "sentm2", "cleme", "senterrant")}
    assert level == {"errant": "corpus", "maxmatch": "sentence", "gleu": "sentence",
                     "green": "sentence", "sentm2": "sentence", "cleme": "corpus",
                     "senterrant": "sentence"}


def test_merged_sentences_keep_precision_and_recall(files: dict[str, Path]) -> None:
    metrics = ["errant", "maxmatch"]
    on = _scores(files, metrics, ["hyp", "merged"])
    off = _scores(files, metrics, ["hyp", "merged"], realign=False)
    for m in metrics:
        for k in ("p", "r"):
            assert abs(on[f"hyp/{m}"][k] - on[f"merged/{m}"][k]) <= 0.01, (m, k, on)
        # aligned whole, the joins are edits of their own: precision falls
        assert on[f"hyp/{m}"]["p"] == pytest.approx(off[f"hyp/{m}"]["p"])
        assert off[f"hyp/{m}"]["p"] - off[f"merged/{m}"]["p"] > 0.1, (m, off)


def test_essays_are_matched_by_id(files: dict[str, Path]) -> None:
    metrics = ["errant", "maxmatch", "gleu"]
    a = _scores(files, metrics, ["hyp"])
    b = _scores(files, metrics, ["reversed"])
    for m in metrics:
        assert a[f"hyp/{m}"] == b[f"reversed/{m}"]


def test_missing_hypothesis_essay_is_the_official_bang(files: dict[str, Path]) -> None:
    got = _scores(files, ["errant"], ["hyp", "missing"])
    assert any("missing: 1 essay(s) missing" in n for n in got["_notes"])
    assert got["missing/errant"]["r"] < got["hyp/errant"]["r"]
    assert got["missing/errant"]["p"] < got["hyp/errant"]["p"]  # "!" is a wrong edit


def test_a_reference_file_lacking_an_essay_gives_fewer_references(
        files: dict[str, Path]) -> None:
    got = _scores(files, ["errant", "gleu"], ["perfect"], refs=("ref", "ref2"))
    assert any("1 essay reference(s) missing" in n for n in got["_notes"])
    assert got["perfect/errant"]["f0.5"] == pytest.approx(1.0)


def test_cli_no_realign_and_signature(files: dict[str, Path], capsys) -> None:
    from errtype.cli.score import main

    base = ["-m", "errant", "maxmatch", "--src", str(files["orig"]), "--ref", str(files["ref"]),
            "--hyp", f"hyp={files['hyp']}", f"merged={files['merged']}"]
    assert main(base) == 0
    out = capsys.readouterr().out
    assert "essays:realigned-essays" in out and "essays:realigned-units" in out
    assert main([*base, "--no-realign"]) == 0
    assert "essays:whole-essays" in capsys.readouterr().out


def test_a_line_file_among_markdown_essays_is_refused(files: dict[str, Path],
                                                      tmp_path: Path) -> None:
    from errtype.errors import InputError

    lines = tmp_path / "hyp.txt"
    lines.write_text("I have a dog .\n", encoding="utf-8")
    with pytest.raises(InputError, match="MultiGEC Markdown"):
        load_suite([("x", lines)], [files["ref"]], files["orig"], lang="en")


# ------------------------------------------------------------------ shared data: uk and cs
@pytest.fixture(scope="module", params=["uk", "cs"])
def essay_set(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
              ) -> tuple[str, Path, Path]:
    lang = request.param
    corpus = bench_module("essay_corpus")
    shared_path(*corpus.SOURCES[lang])
    model = SHARED / "models" / f"{lang}.udpipe"
    if not model.exists():
        pytest.skip(f"stand-in UDPipe model not available: {model}")
    folder = tmp_path_factory.mktemp(f"essays-{lang}")
    corpus.build(lang, folder, max_essays=12)
    return lang, folder, model


def test_merged_pseudo_system_on_shared_essays(essay_set: tuple[str, Path, Path]) -> None:
    """errant's and maxmatch's P and R of the partial system and of it merged (every boundary
    inside a paragraph of ~30 % of the essays joined by a comma): realigned they move by at most
    1.5 points, aligned whole by more than three times as much. Issue 34 asks for 1 point; on
    these 12 essays errant's P moves 1.3 points (uk, cs; regression bound, see docs/essays.md
    "Open problems": commas the pseudo-system puts where the segmenter sees no boundary)."""
    import errtype

    lang, folder, model = essay_set
    ann = errtype.load(lang, udpipe_model=str(model))
    got = {}
    for realign in (True, False):
        suite = load_suite([(s, folder / f"{s}.md") for s in ("partial", "merged")],
                           [folder / "ref1.md", folder / "ref2.md"], folder / "orig.md",
                           lang=lang, annotator=lambda: ann, realign=realign)
        for r in score_systems([(m, get_metric(m)) for m in ("errant", "maxmatch")], suite):
            got[realign, r.system, r.metric] = r.result.corpus
    for m in ("errant", "maxmatch"):
        moved = {}
        for realign in (True, False):
            a, b = got[realign, "partial", m], got[realign, "merged", m]
            moved[realign] = max(abs(a["p"] - b["p"]), abs(a["r"] - b["r"]))
        assert moved[True] <= 0.015, (m, lang, moved)
        assert moved[False] > 3 * moved[True], (m, lang, moved)


def test_report_reads_markdown_essays(files: dict[str, Path], tmp_path: Path, capsys) -> None:
    from errtype.cli.report import main

    for extra in ([], ["--no-realign"]):
        out = tmp_path / f"report{len(extra)}.html"
        assert main(["--src", str(files["orig"]), "--ref", str(files["ref"]), "--hyp",
                     f"hyp={files['hyp']}", "-o", str(out), *extra]) == 0
        assert out.stat().st_size > 0
        err = capsys.readouterr().err
        assert "3 MultiGEC essays" in err
        assert ("--no-realign" in err) == bool(extra)
