"""Outputs are never inputs (issue 33): every command refuses, before any work, an output path
that is one of its inputs or another of its outputs, however it is spelled (the same string, a
relative spelling of an absolute path, a hard link, a symbolic link), with exit 2 and one line
naming both paths; the input is left unchanged."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from errtype.cli import common, reference
from errtype.cli.files import OUTPUT_KINDS, check_paths
from errtype.cli.main import main as errtype_main

TEXT = "This are a example .\nShe go home .\n"
M2 = ("S This are a example .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n\n"
      "S She go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n")
#: placeholder -> (file name, contents) of the inputs
INPUTS = {
    "text": ("orig.txt", TEXT), "cor": ("cor.txt", TEXT), "m2": ("sys.m2", M2),
    "gold": ("gold.m2", M2), "human": ("human.txt", "cor.txt 1.0\n"),
    "conllu": ("orig.conllu", "1\tThis\tthis\tPRON\t_\t_\t0\troot\t_\t_\n\n"),
    "para": ("zh.para", "1\t我们去\t我们走\n"), "tags": ("tags.txt", "$STARTSEPL|||SEPR$KEEP\n"),
    "vocab": ("verbs.txt", "go_goes:VB_VBZ\n"), "results": ("res.json", "{}\n"),
    "weights": ("weights.txt", "0.5\n"), "config": ("cfg.toml", 'title = "x"\n'),
    "model": ("cs.udpipe", "not a model\n"),
    "orig_prefix": ("split.orig", M2),  # m2-to-text -o split writes split.orig
    "partial": ("out.partial", TEXT),  # --resume -o out writes out.partial
    "svg": ("charts/x.svg", M2),  # --svg-dir charts writes charts/*.svg
    "md": ("orig.md", "### essay_id = 1\nThis are a example . She go home .\n\n"),
    "mdhyp": ("hyp.md", "### essay_id = 1\nThis is an example . She goes home .\n\n"),
}

#: command -> (argv; its output placeholders -> the suffix of the file each writes that the
#: clash is tested on: "" the output itself, ".orig" a prefix's file, "/x.svg" a folder's)
CASES: dict[str, tuple[list[str], dict[str, str]]] = {
    "m2 -orig/-cor": (["m2", "-orig", "{text}", "-cor", "{cor}", "-o", "{out}",
                       "--udpipe-model", "{model}"], {"out": ""}),
    "m2 -out --format jsonl": (["m2", "-orig", "{text}", "-cor", "{cor}", "-out", "{out}",
                                "--format", "jsonl"], {"out": ""}),
    "m2 --format tsv": (["m2", "-orig", "{text}", "-cor", "{cor}", "-o", "{out}", "--format",
                         "tsv"], {"out": ""}),
    "m2 --para": (["m2", "--lang", "zh", "--para", "{para}", "-o", "{out}"], {"out": ""}),
    "m2 -gold": (["m2", "-gold", "{m2}", "-o", "{out}"], {"out": ""}),
    "m2 -auto": (["m2", "-auto", "{m2}", "-o", "{out}"], {"out": ""}),
    "m2 --conllu": (["m2", "--conllu-orig", "{conllu}", "--conllu-cor", "{conllu}", "-o",
                     "{out}"], {"out": ""}),
    "m2 --resume": (["m2", "-orig", "{partial}", "-cor", "{cor}", "-o", "{out}", "--resume"],
                    {"out": ".partial"}),
    "compare": (["compare", "-hyp", "{m2}", "-ref", "{gold}", "-o", "{out}", "--json",
                 "{json}", "--tsv", "{tsv}"], {"out": "", "json": "", "tsv": ""}),
    "compare text": (["compare", "-orig", "{text}", "-hyp_text", "{cor}", "-ref_text", "{cor}",
                      "--json", "{json}"], {"json": ""}),
    "m2score": (["m2score", "{text}", "{gold}", "-o", "{out}", "--json", "{json}",
                 "--sentences", "{sent}", "--per-type", "{types}"],
                {"out": "", "json": "", "sent": "", "types": ""}),
    "gleu": (["gleu", "-s", "{text}", "-r", "{gold}", "--hyp", "{cor}", "{hyp}", "--out",
              "{out}", "--json", "{json}"], {"out": "", "json": ""}),
    "scribendi": (["scribendi", "{text}", "{cor}", "-o", "{out}", "--json", "{json}",
                   "--sentences", "{sent}"], {"out": "", "json": "", "sent": ""}),
    "ratio --m2": (["ratio", "--m2", "{gold}", "{text}", "-o", "{out}", "--json", "{json}"],
                   {"out": "", "json": ""}),
    "ratio --refs": (["ratio", "--source", "{text}", "--refs", "{cor}", "{hyp}", "--systems",
                      "{cor}", "-o", "{out}"], {"out": ""}),
    "meta ew": (["meta", "ew", "{human}", "-o", "{out}", "--json", "{json}"],
                {"out": "", "json": ""}),
    "meta ts": (["meta", "ts", "{human}", "-o", "{out}", "--json", "{json}"],
                {"out": "", "json": ""}),
    "meta seeda": (["meta", "seeda", "{adir}", "--ref", "{gold}", "-m", "m2", "-o", "{out}",
                    "--json", "{json}"], {"out": "", "json": ""}),
    "meta seeda --plots": (["meta", "seeda", "{adir}", "--ref", "{svg}", "-m", "m2",
                            "--plots", "{plots}"], {"plots": "/x.svg"}),
    "meta system": (["meta", "system", "--human", "{human}", "--metric", "{cor}",
                     "--json-results", "{results}", "-o", "{out}", "--json", "{json}"],
                    {"out": "", "json": ""}),
    "meta sentence": (["meta", "sentence", "--judgments", "{human}", "--m2", "{gold}", "{cor}",
                       "-o", "{out}"], {"out": ""}),
    "score": (["score", "-m", "gleu", "goto", "--src", "{text}", "--ref", "{cor}", "--hyp",
               "S={hyp}", "--goto-weights", "{weights}", "-o", "{out}",
               "--goto-save-weights", "{save}"], {"out": "", "save": ""}),
    "lint": (["lint", "{m2}", "{gold}", "-o", "{out}"], {"out": ""}),
    "convert m2-to-text": (["convert", "m2-to-text", "{orig_prefix}", "-o", "{out}"],
                           {"out": ".orig"}),
    "convert m2-to-json": (["convert", "m2-to-json", "{m2}", "-o", "{out}"], {"out": ""}),
    "convert m2-to-cherrant": (["convert", "m2-to-cherrant", "{m2}", "-o", "{out}"],
                               {"out": ""}),
    "convert cherrant-to-m2": (["convert", "cherrant-to-m2", "{m2}", "-o", "{out}"],
                               {"out": ""}),
    "convert m2-to-table": (["convert", "m2-to-table", "{m2}", "-o", "{out}", "--format",
                             "tsv"], {"out": ""}),
    "convert text-to-m2": (["convert", "text-to-m2", "{text}", "{cor}", "-o", "{out}"],
                           {"out": ""}),
    "convert parallel-to-gector": (["convert", "parallel-to-gector", "-orig", "{text}", "-cor",
                                    "{cor}", "--verb-vocab", "{vocab}", "-o", "{out}"],
                                   {"out": ""}),
    "convert parallel-to-gector --from-m2": (["convert", "parallel-to-gector", "--from-m2",
                                              "{m2}", "-o", "{out}"], {"out": ""}),
    "convert gector-to-text": (["convert", "gector-to-text", "{tags}", "--verb-vocab",
                                "{vocab}", "-o", "{out}", "--source-out", "{src}"],
                               {"out": "", "src": ""}),
    "convert m2-to-multigec": (["convert", "m2-to-multigec", "{m2}", "--ids", "{md}", "-o",
                                "{out}"], {"out": ""}),
    "convert multigec-to-text": (["convert", "multigec-to-text", "{mdhyp}", "--align", "{md}",
                                  "-o", "{out}", "--ids-out", "{ids}"], {"out": "", "ids": ""}),
    "report": (["report", "--ref", "{gold}", "--src", "{text}", "--hyp", "S={cor}",
                "--config", "{config}", "-o", "{out}"], {"out": ""}),
    "report --svg-dir": (["report", "--ref", "{gold}", "--hyp", "S={svg}", "-o", "{out}",
                          "--svg-dir", "{dir}"], {"out": "", "dir": "/x.svg"}),
}


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for key, (name, text) in INPUTS.items():
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths[key] = path
    (tmp_path / "adir").mkdir()
    paths["adir"] = tmp_path / "adir"
    return paths


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a model, computing a report or a metric fails the test."""
    import errtype.report
    import errtype.score.suite

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("work started before the output paths were checked")

    monkeypatch.setattr(errtype, "load", fail)
    monkeypatch.setattr(errtype.report, "load_input", fail)
    monkeypatch.setattr(errtype.score.suite, "parse_system_arg", fail)


def _spellings(target: Path, tmp: Path, suffix: str) -> Iterator[tuple[str, str]]:
    """(how, a path naming the file ``target`` that ends with ``suffix``) for each spelling."""
    yield "same", str(target)
    yield "relative", f"./{os.path.relpath(target)}"  # the input is given absolute
    for how, make in (("hard link", os.link), ("symlink", os.symlink)):
        link = tmp / how.replace(" ", "") / f"link{suffix or '.out'}"
        link.parent.mkdir(parents=True, exist_ok=True)
        make(target, link)
        yield how, str(link)


def _argv(argv: list[str], values: dict[str, str]) -> list[str]:
    return [a.format(**values) for a in argv]


def _fresh(case: str, tmp: Path) -> dict[str, str]:
    return {slot: str(tmp / "fresh" / slot) for slot in CASES[case][1]}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = errtype_main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("case", CASES)
def test_an_output_that_is_an_input_is_refused(case: str, inputs: dict[str, Path],
                                               tmp_path: Path, no_work: None,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Every output of every command, set to every input it can overwrite, in every spelling:
    exit 2, one error line naming the output and the input, the input unchanged."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fresh").mkdir()
    argv, slots = CASES[case]
    values = {k: str(p) for k, p in inputs.items()}
    values |= {"hyp": values["cor"], **_fresh(case, tmp_path)}
    used = set(re.findall(r"\{(\w+)\}", " ".join(argv)))
    tried = 0
    for slot, suffix in slots.items():
        for key in sorted(used - set(slots) - {"adir"}):
            target = inputs.get(key)
            if target is None or not str(target).endswith(suffix or ""):
                continue
            before = target.read_bytes()
            for how, spelled in _spellings(target, tmp_path / f"{slot}-{key}", suffix):
                out = spelled[:len(spelled) - len(suffix)] if suffix else spelled
                code, err = _run(_argv(argv, {**values, slot: out}), capsys)
                what = (case, slot, key, how, err)
                assert code == 2, what
                assert err.count("\n") == 1 and "Traceback" not in err, what
                assert ": error: output " in err and " is the input " in err, what
                assert out in err and str(target) in err, what
                assert target.read_bytes() == before, what
                tried += 1
    assert tried >= 4


MULTI = [case for case, (_, slots) in CASES.items() if list(slots.values()).count("") > 1]


@pytest.mark.parametrize("case", MULTI)
def test_two_outputs_on_one_file_are_refused(case: str, inputs: dict[str, Path],
                                             tmp_path: Path, no_work: None,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``-o X --source-out X`` and the like: one of the outputs would be lost."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fresh").mkdir()
    argv, slots = CASES[case]
    values = {k: str(p) for k, p in inputs.items()}
    values |= {"hyp": values["cor"], **_fresh(case, tmp_path)}
    first, *others = [slot for slot, suffix in slots.items() if not suffix]
    existing = tmp_path / "kept.out"
    existing.write_text("kept\n", encoding="utf-8")
    for second in others:
        for how, spelled in _spellings(existing, tmp_path / f"{first}-{second}", ""):
            code, err = _run(_argv(argv, {**values, first: str(existing), second: spelled}),
                             capsys)
            what = (case, second, how, err)
            assert code == 2 and err.count("\n") == 1, what
            assert " is also the output " in err, what
            assert str(existing) in err and spelled in err, what
            assert existing.read_text(encoding="utf-8") == "kept\n", what


def test_a_config_file_output_that_is_an_input_is_refused(
        inputs: dict[str, Path], tmp_path: Path, no_work: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Paths from ``errtype report --config`` are checked as those of the command line."""
    config = tmp_path / "clash.toml"
    config.write_text(f'out = "gold.m2"\nref = "{inputs["gold"]}"\n', encoding="utf-8")
    code, err = _run(["report", "--hyp", f"S={inputs['cor']}", "--config", str(config)],
                     capsys)
    assert code == 2, err
    assert err == (f"errtype report: error: output --out {inputs['gold']} is the input --ref "
                   f"{inputs['gold']}; give the output another path\n")


def test_the_message(inputs: dict[str, Path], tmp_path: Path,
                     capsys: pytest.CaptureFixture[str]) -> None:
    orig = str(inputs["text"])
    link = tmp_path / "link.txt"
    os.link(orig, link)
    code, err = _run(["m2", "-orig", orig, "-cor", str(inputs["cor"]), "-o", str(link)], capsys)
    assert code == 2
    assert err == (f"errtype-m2: error: output --out {link} is the input -orig {orig} (the same "
                   "file); give the output another path\n")
    code, err = _run(["convert", "m2-to-text", str(inputs["orig_prefix"]), "-o",
                      str(tmp_path / "split")], capsys)
    assert err == (f"errtype convert: error: output --out {tmp_path / 'split'} writes "
                   f"{tmp_path / 'split.orig'}, which is the input m2_file "
                   f"{inputs['orig_prefix']}; give the output another path\n")


def _parse(argv: list[str]) -> argparse.Namespace:
    name, *rest = argv
    for command, parser in reference.parsers():
        if command == name:
            return parser.parse_args(rest)
    raise AssertionError(name)


def test_what_is_not_a_clash(inputs: dict[str, Path], tmp_path: Path) -> None:
    """Standard output twice, /dev/null twice, a prefix whose files are not the input
    (``m2-to-text x.m2 -o x``), an input beside the charts that is not an SVG file, a pipe."""
    gold, text = str(inputs["gold"]), str(inputs["text"])
    stem = str(inputs["gold"].with_suffix(""))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for argv in (["m2score", text, gold, "--json", "-", "--per-type"],
                 ["m2score", text, gold, "--json", os.devnull, "--sentences", os.devnull],
                 ["convert", "m2-to-text", gold, "-o", stem],
                 ["report", "--ref", gold, "--hyp", f"S={text}", "-o", str(tmp_path / "r.html"),
                  "--svg-dir", str(tmp_path)],
                 ["gleu", "-s", str(fifo), "-r", text, "--out", str(fifo)]):
        check_paths(_parse(argv))  # no error


@pytest.mark.parametrize("argv", [
    ["meta", "gmeg", "--data", "{tree}", "--html", "{out}"],
    ["meta", "gmeg", "--data", "{tree}", "--json", "{out}"],
    ["meta", "textlevel", "--data", "{tree}", "-m", "gleu", "-o", "{out}"],
    ["meta", "seeda", "{tree}", "--ref", "{gold}", "-m", "m2", "--json", "{out}"],
])
def test_an_output_inside_an_input_folder_is_refused(
        argv: list[str], inputs: dict[str, Path], tmp_path: Path, no_work: None,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder read whole (GMEG-Data, SEEDA, rating folders) is an input file by file: an
    output on any file under it, however spelled, is refused before any work; a new file in
    it is not a clash."""
    monkeypatch.chdir(tmp_path)
    tree = tmp_path / "data"
    target = tree / "test" / "fce" / "source"
    target.parent.mkdir(parents=True)
    target.write_text(TEXT, encoding="utf-8")
    (tree / ".git").mkdir()
    (tree / ".git" / "HEAD").write_text("ref\n", encoding="utf-8")
    values = {"tree": str(tree), "gold": str(inputs["gold"])}
    for how, spelled in _spellings(target, tmp_path / "links", ""):
        code, err = _run(_argv(argv, {**values, "out": spelled}), capsys)
        assert code == 2 and " is the input " in err and str(target) in err, (how, err)
        assert target.read_text(encoding="utf-8") == TEXT
    check_paths(_parse(_argv(argv, {**values, "out": str(tree / "new.out")})))  # no clash


#: options taking a string that is not a path the command reads or writes (or, marked "read",
#: one the command only reads, inside a larger value or as a folder); every other string option
#: must declare its path role (errtype.cli.files), so that its value is checked before any work
#: and an output never overwrites an input
NOT_PATHS = {
    "annotators": "ids", "baseline": "a system name",
    "rater": "names",
    "dask": "an address", "device": "a name",
    "filt": "types", "human_column": "a column", "ignore": "codes", "lang": "a code",
    "lm": "read: a model spec (sphinx:PATH)", "metric_column": "a column",
    "metrics": "metric names", "option": "METRIC.KEY=VALUE",
    "sets": "set names", "sha256": "a digest", "spacy_model": "read: a name or a folder",
    "stat": "a field", "subset": "read: specs (ids:FILE)", "systems": "names",
    "attribution": "METRIC[:METHOD] specs",
    "title": "a title", "types": "selectors", "url": "a URL",
}


def test_every_path_option_declares_its_role() -> None:
    """Every parser names its path values (common.CommandParser), and every string option is a
    declared path (input or output) or listed in NOT_PATHS: a new command or option that
    writes a file joins the checks above by declaring it."""
    undeclared = []
    for name, parser in reference.every_parser():
        assert isinstance(parser, common.CommandParser), name
        for action in parser._actions:
            if (action.nargs == 0 or action.choices is not None
                    or action.type in (int, float, common.positive_int)
                    or isinstance(action, (argparse._HelpAction, argparse._VersionAction))):
                continue
            role = getattr(action.type, "role", None)
            if role is None and action.dest not in NOT_PATHS:
                undeclared.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
            if role in OUTPUT_KINDS:
                assert action.type.writes, (name, action.dest)  # type: ignore[union-attr]
    assert not undeclared, f"declare the path role of {undeclared} (errtype.cli.files)"
