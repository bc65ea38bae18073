"""``errtype score --compat multigec``: MultiGEC-2025's official ERRANT and GLEU of Markdown essays.

Unit tests on files they write; essay sets built from ../shared (Ukrainian, Estonian) with
pseudo-systems, scored against the official pipeline when ``ERRTYPE_MULTIGEC_PYTHON`` and
``ERRTYPE_MULTIGEC_SCRIPTS`` name it (``bench/multigec_official.py``), and a regression pin of
errtype's counts on the same essays so that a run without the peer still checks them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errtype.cli.score import main
from errtype.score.compat import multigec

from .conftest import bench_module, peer, shared_path

HEAD = "system\tmetric\tscore\tp\tr\tf\ttp\tfp\tfn"


@pytest.fixture(autouse=True)
def _syntok() -> None:
    peer("syntok", "the official scorer's pre-tokeniser (pip install 'errtype[multigec]')")


def _md(path: Path, essays: dict[str, str]) -> Path:
    path.write_text("".join(f"### essay_id = {k}\n{v}\n\n" for k, v in essays.items()),
                    encoding="utf-8")
    return path


@pytest.fixture
def essays(tmp_path: Path) -> dict[str, Path]:
    orig = {"1": "Я пішов до школи, і там був день.\n\nДругий абзац тут.",
            "2": "Він читає книгу.", "3": "Ми йдемо додому."}
    ref = {"1": "Я пішла до школи і там був день!\n\nДругий абзац там.",
           "2": "Він читав книгу.", "3": "Ми йдемо додому."}
    hyp = {"1": "Я пішла до школи, і там був день.\n\nДругий абзац тут.",
           "3": "Ми йдемо додому.", "9": "Не з цього файлу."}
    return {"orig": _md(tmp_path / "orig.md", orig), "ref": _md(tmp_path / "ref.md", ref),
            "ref2": _md(tmp_path / "ref2.md", {"2": "Він прочитав книгу."}),
            "hyp": _md(tmp_path / "hyp.md", hyp), "dir": tmp_path}


def test_essay_line_is_syntok_tokens_joined_by_spaces() -> None:
    # syntok splits the punctuation off; the paragraph break disappears with the tokenisation
    assert multigec.essay_line("Я пішов до школи, і там.\n\nДругий абзац!") == \
        "Я пішов до школи , і там . Другий абзац !"


def test_fork_words_follow_its_whitespace_tokenizer() -> None:
    assert multigec.fork_words("a b") == ["a", "b"]
    assert multigec.fork_words("a  b") == ["a", " ", "b"]  # an empty word becomes " "
    assert multigec.fork_words("a b ") == ["a", "b"]  # a final empty word is dropped
    assert multigec.fork_words("") == []
    sent = multigec.WhitespaceParser().parse(" a b ")
    assert [(t.text, t.lemma, t.pos, t.tag, t.dep) for t in sent] == [
        ("a", "", "", "", ""), ("b", "", "", "", "")]


def test_edits_are_english_rules_over_bare_words() -> None:
    # what the fork's errant_parallel -lang uk wrote for these lines (run by hand, fork 3.0.0):
    # A 1 2|||R:MORPH|||пішла, A 4 5|||U:OTHER|||; then a noop (coder 0), A 1 2|||R:OTHER|||c
    ann = multigec.annotator()
    [block] = multigec.edit_blocks(ann, ["Я пішов до школи , і там"],
                                   [["Я пішла до школи і там"]])
    assert [(e.start, e.end, e.type, e.cor) for e in block.edits] == [
        (1, 2, "R:MORPH", "пішла"), (4, 5, "U:OTHER", "")]
    [same] = multigec.edit_blocks(ann, ["a b"], [["a b", "a c"]])
    assert [(e.start, e.type, e.annotator) for e in same.edits] == [(-1, "noop", 0),
                                                                     (1, "R:OTHER", 1)]


def test_missing_and_extra_essays_as_the_official_conversion(essays: dict[str, Path]) -> None:
    data = multigec.load_essays(essays["orig"], [essays["ref"], essays["ref2"]],
                                [("sys", essays["hyp"])])
    assert data.ids == ["1", "2", "3"]
    assert data.systems["sys"][1] == "!"  # missing essay 2
    assert len(data.systems["sys"]) == 3  # essay 9 (not in orig) ignored
    assert any("1 of 3 essays missing" in n for n in data.notes)
    assert any("not in the orig file" in n for n in data.notes)
    # references: the files holding the essay in file order, padded with the first
    assert data.references[1][0] == data.references[0][0]
    assert data.references[1][1] == "Він прочитав книгу ."
    assert data.references[0][1] == "Він читав книгу ."


def test_cli_tsv_columns(essays: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    out = essays["dir"] / "scores.tsv"
    assert main(["-m", "errant", "gleu", "--compat", "multigec", "--lang", "uk",
                 "--src", str(essays["orig"]), "--ref", str(essays["ref"]), str(essays["ref2"]),
                 "--hyp", f"S={essays['hyp']}", "--tsv", "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == HEAD
    rows = {ln.split("\t")[1]: ln.split("\t") for ln in lines[1:]}
    assert set(rows) == {"errant", "gleu"}
    errant = dict(zip(HEAD.split("\t"), rows["errant"], strict=True))
    assert errant["score"] == errant["f"]
    assert int(errant["tp"]) >= 1 and int(errant["fn"]) >= 1
    assert 0 < float(rows["gleu"][2]) < 1
    assert "essays missing" in capsys.readouterr().err


def test_cli_refuses_other_metrics_and_text_files(essays: dict[str, Path]) -> None:
    base = ["--compat", "multigec", "--lang", "uk", "--src", str(essays["orig"]), "--ref",
            str(essays["ref"]), "--hyp", str(essays["hyp"])]
    assert main(["-m", "m2", *base]) != 0
    txt = essays["dir"] / "hyp.txt"
    txt.write_text("a b\n", encoding="utf-8")
    assert main(["-m", "errant", *base[:-1], str(txt)]) != 0
    assert main(["-m", "errant", *base[:2], "--lang", "is", *base[4:]]) != 0


def test_gleu_is_koyamas(essays: dict[str, Path]) -> None:
    """official_gleu against Koyama's ``gleu -d 4 -f -n 4 -t word`` on the same lines."""
    peer("gleu", "Shota Koyama's GLEU (pip install gleu==1.1.0)")
    data = multigec.load_essays(essays["orig"], [essays["ref"], essays["ref2"]],
                                [("sys", essays["hyp"])])
    d = essays["dir"]
    files = {}
    for name, lines in [("s", data.sources), ("r1", data.references[0]),
                        ("r2", data.references[1]), ("h", data.systems["sys"])]:
        files[name] = d / f"{name}.tmp"
        files[name].write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    code = "import sys; from gleu.main import gleu; sys.argv[0] = 'gleu'; gleu()"
    for refs in (["r1"], ["r1", "r2"]):
        out = subprocess.run([sys.executable, "-c", code, "-s", str(files["s"]), "-r",
                              *(str(files[r]) for r in refs), "-o", str(files["h"]), "-d", "4",
                              "-f", "-n", "4", "-t", "word"],
                             capture_output=True, text=True, check=True).stdout
        ours = multigec.official_gleu(data.sources, [data.references[int(r[1]) - 1]
                                                     for r in refs], data.systems["sys"])
        assert multigec.official_gleu_text(ours) == out.split()[1]


#: hard cases: an empty orig essay, an empty hypothesis essay, a punctuation-only one, one equal
#: to the orig, newlines and repeated spaces only, a no-break space, quotes and an ellipsis
EDGE = {
    "orig": {"1": "Я пішов до школи, і там був день.", "2": "", "3": "Він читає книгу вдома.",
             "4": "Ми йдемо додому швидко.", "5": "Це тест.",
             "6": "Перший рядок.\nДругий рядок.", "7": "Слово\u00a0слово і\tтаб.",
             "8": "“Лапки” — це «добре»... Так?!"},
    "ref1": {"1": "Я пішла до школи і там був день!", "2": "Щось.",
             "3": "Він читав книгу вдома.", "4": "Ми йдемо додому.", "5": "Це тест.",
             "6": "Перший рядок.\n\nДругий рядок!", "7": "Слово слово і таб.",
             "8": "\"Лапки\" - це «добре» ... Так?"},
    "hyp": {"1": "Я пішла до школи, і там був день.", "2": "Щось інше.", "3": "", "4": "!!!",
            "5": "Це тест.", "6": "Перший   рядок.\n\n\nДругий рядок.",
            "7": "Слово\u00a0слово і таб.", "8": "“Лапки” — це «добре» … Так?!"},
}
#: regression pin; the official pipeline (bench/multigec_official.py) gave the same on 2026-11-28
EDGE_PIN = (1, 3, 10, "25.9735")


@pytest.fixture
def edge(tmp_path: Path) -> Path:
    for name, essays in EDGE.items():
        _md(tmp_path / f"{name}.md", essays)
    return tmp_path


def test_edge_essays(edge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _ours("uk", edge, "hyp", capsys) == EDGE_PIN


def test_udpipe_model_is_not_read(edge: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = shared_path("..", "models", "uk.udpipe")
    args = ["-m", "errant", "gleu", "--compat", "multigec", "--lang", "uk", "--src",
            str(edge / "orig.md"), "--ref", str(edge / "ref1.md"), "--hyp", str(edge / "hyp.md"),
            "--tsv"]
    capsys.readouterr()
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert main([*args, "--udpipe-model", str(model)]) == 0
    got = capsys.readouterr()
    assert got.out == plain and "--udpipe-model is not read" in got.err


@pytest.mark.slow
def test_edge_essays_as_official(edge: Path) -> None:
    official = bench_module("multigec_official")
    if official.peer() is None:
        pytest.skip(official.INSTALL)
    theirs = official.run_official("uk", edge / "orig.md", [edge / "ref1.md"], edge / "hyp.md")
    assert (theirs["tp"], theirs["fp"], theirs["fn"], theirs["gleu"]) == EDGE_PIN


# --------------------------------------------------------------------------- shared essay sets

#: regression pin (errtype's counts; on 2026-11-28 bench/bench_multigec.py found the official
#: MultiGEC-2025 pipeline, cainesap/errant + Koyama's gleu, giving the same on these essays):
#: (lang, system) -> (TP, FP, FN, GLEU as ``gleu -d 4`` prints it), 8 essays, seed 0
PIN = {("uk", "partial"): (55, 11, 38, "78.2480"), ("uk", "missing"): (46, 11, 47, "40.7215"),
       ("et", "partial"): (74, 21, 51, "63.7501"), ("et", "missing"): (48, 20, 77, "37.8239")}


@pytest.fixture(scope="module")
def essay_sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    shared_path("multilingual", "uagec.dev.m2")
    shared_path("multilingual", "estgec.dev.m2")
    corpus, bench = bench_module("essay_corpus"), bench_module("bench_multigec")
    out = {}
    for lang in ("uk", "et"):
        folder = tmp_path_factory.mktemp(f"essays-{lang}")
        corpus.build(lang, folder, max_essays=8)
        bench.drop_essays(folder / "partial.md", folder / "missing.md")
        out[lang] = folder
    return out


def _ours(lang: str, folder: Path, system: str, capsys: pytest.CaptureFixture[str]
          ) -> tuple[int, int, int, str]:
    """errtype's TP, FP, FN and official GLEU text of ``folder/system.md`` (CLI, --tsv)."""
    refs = bench_module("bench_multigec").references(folder)
    capsys.readouterr()
    assert main(["-m", "errant", "gleu", "--compat", "multigec", "--lang", lang, "--src",
                 str(folder / "orig.md"), "--ref", *map(str, refs), "--hyp",
                 f"{system}={folder / (system + '.md')}", "--tsv"]) == 0
    rows = [ln.split("\t") for ln in capsys.readouterr().out.splitlines()[1:]]
    by = {r[1]: r for r in rows}
    tp, fp, fn = (int(x) for x in by["errant"][6:9])
    return tp, fp, fn, multigec.official_gleu_text(float(by["gleu"][2]))


@pytest.mark.parametrize("lang,system", sorted(PIN))
def test_pinned_counts(essay_sets: dict[str, Path], lang: str, system: str,
                       capsys: pytest.CaptureFixture[str]) -> None:
    assert _ours(lang, essay_sets[lang], system, capsys) == PIN[(lang, system)]


@pytest.mark.slow
@pytest.mark.parametrize("lang,system", [("uk", "partial"), ("uk", "missing"),
                                         ("et", "merged")])
def test_same_as_official_pipeline(essay_sets: dict[str, Path], lang: str, system: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    official = bench_module("multigec_official")
    if official.peer() is None:
        pytest.skip(official.INSTALL)
    folder = essay_sets[lang]
    refs = bench_module("bench_multigec").references(folder)
    theirs = official.run_official(lang, folder / "orig.md", refs, folder / f"{system}.md")
    assert _ours(lang, folder, system, capsys) == (theirs["tp"], theirs["fp"], theirs["fn"],
                                                  theirs["gleu"])


def test_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--side-by-side``: the official numbers beside errtype's own on the same essays; a
    system merging two sentences moves the official ERRANT score, not errtype's."""
    orig = {"1": "He go to school. He like it.", "2": "She read books."}
    ref = {"1": "He goes to school. He likes it.", "2": "She reads books."}
    hyp = {"1": "He goes to school, he likes it.", "2": "She reads books."}
    args = ["-m", "errant", "--lang", "en", "--src", str(_md(tmp_path / "o.md", orig)),
            "--ref", str(_md(tmp_path / "r.md", ref)), "--hyp",
            f"M={_md(tmp_path / 'h.md', hyp)}", "--tsv"]
    assert main(["--compat", "multigec", "--side-by-side", *args]) == 0
    rows = {ln.split("\t")[1]: dict(zip(HEAD.split("\t"), ln.split("\t"), strict=True))
            for ln in capsys.readouterr().out.splitlines()[1:]}
    assert set(rows) == {"errant@multigec", "errant"}
    official, own = rows["errant@multigec"], rows["errant"]
    assert (int(own["tp"]), int(own["fp"]), int(own["fn"])) == (3, 0, 0)  # the join not scored
    assert int(official["fp"]) > 0 and float(official["score"]) < float(own["score"])
    assert main(["--side-by-side", *args]) == 2  # needs --compat
