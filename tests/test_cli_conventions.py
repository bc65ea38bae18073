"""One command-line convention for every command (issue 20): paths checked before any work,
one error line and exit 2, input detection, ``--version``, ``--lang``, ``-o/--out``, and the
generated reference in docs/cli.md."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import errtype
from errtype.cli import common, reference
from errtype.cli.main import COMMANDS
from errtype.cli.main import main as errtype_main
from errtype.errors import OutputError
from errtype.m2 import sniff_m2
from errtype.textio import atomic_output, check_output

ROOT = Path(__file__).resolve().parents[1]

ORIG = "This are a example .\nShe go home .\n"
COR = "This is an example .\nShe goes home .\n"
GOLD = ("S This are a example .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"
        "A 2 3|||R:DET|||an|||REQUIRED|||-NONE-|||0\n\n"
        "S She go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n")

#: what each command's role placeholders are: {text} a plain-text input, {m2} an M2 input,
#: {out} the output location under test (role "file", "prefix" or "folder"); other names are
#: further valid files. The M2 hint / text hint must appear in the input-detection errors.
CASES = {
    "errtype-m2 parallel": (["m2", "-orig", "{text}", "-cor", "{cor}", "-o", "{out}"],
                            "file", "-gold or -auto", None),
    "errtype-m2 -out": (["m2", "-orig", "{cor}", "-cor", "{text}", "-out", "{out}"],
                        "file", "-gold or -auto", None),
    "errtype-m2 -gold": (["m2", "-gold", "{m2}", "-o", "{out}"], "file", None, "-orig ORIG -cor"),
    "errtype-compare": (["compare", "-hyp", "{m2}", "-ref", "{gold}", "--json", "{out}"],
                        "file", None, "-orig SRC -hyp_text HYP -ref_text REF"),
    "errtype-compare -o": (["compare", "-hyp", "{gold}", "-ref", "{m2}", "-o", "{out}"],
                           "file", None, "-orig SRC -hyp_text HYP"),
    "errtype-compare text": (["compare", "-orig", "{text}", "-hyp_text", "{cor}", "-ref_text",
                              "{cor}", "--tsv", "{out}"], "file", "-hyp HYP.m2 -ref REF.m2", None),
    "errtype-m2score": (["m2score", "{text}", "{m2}", "--sentences", "{out}"], "file",
                        "SYSTEM comes first", "the gold comes second as M2"),
    "errtype-gleu": (["gleu", "-s", "{text}", "-r", "{cor}", "--hyp", "{cor}", "--json",
                      "{out}"], "file", "GLEU scores plain text", None),
    "errtype-gleu -o HYP": (["gleu", "-s", "{cor}", "-r", "{cor}", "-o", "{text}", "--out",
                             "{out}"], "file", "GLEU scores plain text", None),
    "errtype-scribendi": (["scribendi", "{text}", "{cor}", "--json", "{out}"], "file",
                          "compares plain text", None),
    "errtype-ratio --m2": (["ratio", "--m2", "{m2}", "{text}", "--json", "{out}"], "file",
                           "an M2 gold goes after --m2", "--source SRC --refs"),
    "errtype-ratio --refs": (["ratio", "--source", "{text}", "--refs", "{cor}", "{cor}",
                              "--scorer", "errant", "-o", "{out}"], "file",
                             "an M2 gold goes after --m2", None),
    "errtype-meta system": (["meta", "system", "--human", "{human}", "--scribendi", "{text}",
                             "{cor}", "--json", "{out}"], "file", "--scribendi takes plain text",
                            None),
    "errtype-meta sentence": (["meta", "sentence", "--judgments", "{human}", "--m2", "{gold}",
                               "{cor}", "-o", "{out}"], "file", None, None),
    "errtype-meta seeda": (["meta", "seeda", "{adir}", "--ref", "{m2}", "-m", "m2", "-o",
                            "{out}"], "file", None, "official-2014.combined.m2"),
    "errtype-meta ts": (["meta", "ts", "{human}", "-o", "{out}"], "file", None, None),
    "errtype-meta ew": (["meta", "ew", "{human}", "--json", "{out}"], "file", None, None),
    "errtype score": (["score", "-m", "gleu", "m2", "--src", "{text}", "--ref", "{cor}",
                       "--hyp", "S={cor}", "-o", "{out}"], "file",
                      "give the gold M2 as --ref GOLD.m2", None),
    "errtype lint": (["lint", "{m2}", "-o", "{out}"], "file", None, "errtype-m2 -orig ORIG"),
    "errtype convert m2-to-text": (["convert", "m2-to-text", "{m2}", "-o", "{out}"], "prefix",
                                   None, "text-to-m2"),
    "errtype convert m2-to-json": (["convert", "m2-to-json", "{m2}", "-o", "{out}"], "file",
                                   None, "text-to-m2"),
    "errtype convert m2-to-cherrant": (["convert", "m2-to-cherrant", "{m2}", "-o", "{out}"],
                                       "file", None, "text-to-m2"),
    "errtype convert cherrant-to-m2": (["convert", "cherrant-to-m2", "{m2}", "-o", "{out}"],
                                       "file", None, "text-to-m2"),
    "errtype convert text-to-m2": (["convert", "text-to-m2", "{text}", "{cor}", "-o", "{out}"],
                                   "file", "m2-to-text or m2-to-json", None),
    "errtype report": (["report", "--ref", "{gold}", "--src", "{text}", "--hyp", "S={cor}",
                        "-o", "{out}"], "file", "the gold M2 goes after --ref", None),
    "errtype report --svg-dir": (["report", "--ref", "{gold}", "--hyp", "S={text}", "-o",
                                  "{html}", "--svg-dir", "{out}"], "folder", None, None),
    "errtype download": (["download", "cs", "--url", "http://127.0.0.1:9/none", "--cache-dir",
                          "{out}"], "folder", None, None),
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    contents = {"text": ORIG, "cor": COR, "m2": GOLD, "gold": GOLD, "human": "cor.txt 1.0\n"}
    names = {"text": "orig.txt", "cor": "cor.txt", "m2": "sys.m2", "gold": "gold.m2",
             "human": "human.txt"}
    out = {}
    for key, text in contents.items():
        (tmp_path / names[key]).write_text(text, encoding="utf-8")
        out[key] = str(tmp_path / names[key])
    (tmp_path / "adir").mkdir()
    out["adir"] = str(tmp_path / "adir")
    out["html"] = str(tmp_path / "r.html")
    return out


def _fail(*args: object, **kwargs: object) -> None:
    raise AssertionError("a model was loaded or work started before the paths were checked")


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every model loader, the report statistics and the download fail the test when called."""
    import spacy

    import errtype.annotator
    import errtype.cli.download
    import errtype.download
    import errtype.parse.udpipe
    import errtype.report
    import errtype.score.lm.models

    monkeypatch.setattr(errtype, "load", _fail)
    monkeypatch.setattr(errtype.annotator.Annotator, "__init__", _fail)
    monkeypatch.setattr(spacy, "load", _fail)
    monkeypatch.setattr(errtype.parse.udpipe.UDPipeParser, "__init__", _fail)
    monkeypatch.setattr(errtype.score.lm.models, "load_lm", _fail)
    monkeypatch.setattr(errtype.report, "load_input", _fail)
    monkeypatch.setattr(errtype.report, "build_report", _fail)
    monkeypatch.setattr(errtype.download, "download", _fail)
    monkeypatch.setattr(errtype.cli.download, "download", _fail)


def _bad_paths(case: str, files: dict[str, str], tmp: Path) -> Iterator[tuple[str, dict, str]]:
    """(what, placeholder values, the path the message must name) for each fault of ``case``."""
    argv, role, m2_hint, text_hint = CASES[case]
    good = {**files, "out": str(tmp / "result.out")}
    if role == "folder":
        yield "folder under a file", {**good, "out": f"{files['cor']}/sub"}, f"{files['cor']}/sub"
        yield "a file for a folder", {**good, "out": files["cor"]}, files["cor"]
    else:
        missing = str(tmp / "nodir" / "sub" / "x.out")
        yield "missing output folder", {**good, "out": missing}, missing
        yield "output is a folder", {**good, "out": files["adir"]}, files["adir"]
    first_input = next((p[1:-1] for p in argv if p.startswith("{") and p[1:-1] != "out"
                        and p[1:-1] in files), None)
    if first_input:
        gone = str(tmp / "missing.txt")
        yield "missing input", {**good, first_input: gone}, gone
    if m2_hint:
        yield "M2 for text", {**good, "text": files["gold"]}, files["gold"]
    if text_hint:
        yield "text for M2", {**good, "m2": files["cor"]}, files["cor"]


@pytest.mark.parametrize("case", CASES)
def test_bad_paths_fail_before_any_work(case: str, files: dict[str, str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        no_work: None) -> None:
    """Every command, for a missing output folder, an output that is a folder (folder outputs:
    a file), a missing input, M2 for text and text for M2: exit 2, one error line naming the
    path (and, for a format mix-up, the option to use), nothing written, no model loaded."""
    argv, role, m2_hint, text_hint = CASES[case]
    faults = list(_bad_paths(case, files, tmp_path))
    assert len(faults) >= (3 if case != "errtype download" else 2)  # download reads no file
    for what, values, named in faults:
        before = sorted(p.name for p in tmp_path.rglob("*"))
        code = errtype_main([a.format(**values) for a in argv])
        err = capsys.readouterr().err
        assert code == 2, (what, err)
        assert err.count("\n") == 1 and ": error: " in err and "Traceback" not in err, (what, err)
        assert named in err, (what, err)
        if what == "M2 for text":
            assert "this is an M2 file, not plain text" in err and m2_hint in err, err
        if what == "text for M2":
            assert "this is plain text, not an M2 file" in err and text_hint in err, err
        assert sorted(p.name for p in tmp_path.rglob("*")) == before, what


def test_one_error_line_format(files: dict[str, str], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """``PROG: error: FILE...`` from every command; ``errtype convert text-to-m2`` names itself,
    not errtype-m2."""
    missing = str(tmp_path / "nodir" / "x.m2")
    assert errtype_main(["convert", "text-to-m2", files["text"], files["cor"], "-o",
                         missing]) == 2
    assert capsys.readouterr().err == (
        f"errtype convert text-to-m2: error: {missing}: the folder {tmp_path / 'nodir'} does not "
        f"exist; create it first (mkdir -p {tmp_path / 'nodir'}) or choose another path\n")
    assert errtype_main(["m2", "-orig", files["gold"], "-cor", files["cor"], "-o", "-"]) == 2
    assert capsys.readouterr().err == (
        f"errtype-m2: error: {files['gold']}: this is an M2 file, not plain text; re-annotate an "
        "M2 file with -gold or -auto: errtype-m2 -gold FILE.m2 -o OUT.m2\n")


def test_console_script_loads_nothing(files: dict[str, str], tmp_path: Path) -> None:
    """The installed entry point, in a fresh interpreter: one line, exit 2, spaCy never
    imported (timing-free evidence that no model was loaded)."""
    missing = str(tmp_path / "nodir" / "x.m2")
    code = ("import sys\nfrom errtype.cli.m2 import main\n"
            f"status = main(['-orig', {files['text']!r}, '-cor', {files['cor']!r}, '-o', "
            f"{missing!r}])\n"
            "print(sorted(m for m in ('spacy', 'ufal', 'numpy') if m in sys.modules))\n"
            "sys.exit(status)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and proc.stdout == "[]\n"
    assert proc.stderr.startswith(f"errtype-m2: error: {missing}: the folder ")
    assert proc.stderr.count("\n") == 1


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {o: a for a in parser._actions for o in a.option_strings}


def test_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert errtype_main(["--version"]) == 0
    assert capsys.readouterr().out == f"{errtype.__version__}\n"
    for name in COMMANDS:
        with pytest.raises(SystemExit) as exc:
            errtype_main([name, "--version"])
        assert exc.value.code == 0
        out = capsys.readouterr().out
        assert out.endswith(f"(errtype {errtype.__version__})\n"), (name, out)


def test_lang_and_out_spellings() -> None:
    """--lang (ERRANT's -lang kept) wherever edits are extracted; -o/--out is the output
    everywhere but errtype-gleu, where -o stays GLEU's hypothesis; ERRANT's -out is kept."""
    annotating = {"m2", "compare", "ratio", "report"}
    for name, parser in reference.every_parser():
        opts = _options(parser)
        if name in annotating:
            assert opts["--lang"] is opts["-lang"], name
            assert {"--spacy-model", "--udpipe-model", "--feats", "--blis"} <= set(opts), name
        if name in ("gleu", "download", "convert", "meta"):
            continue
        assert opts["-o"] is opts["--out"] and opts["--out"].dest == "out", name
        assert getattr(opts["--out"].type, "role", None) in ("output", "prefix"), name
    m2_opts = _options(dict(reference.every_parser())["m2"])
    assert m2_opts["-out"] is m2_opts["--out"]
    gleu_opts = _options(dict(reference.every_parser())["gleu"])
    assert gleu_opts["--out"].dest == "out" and gleu_opts["-o"].dest == "gleu_hypothesis"


def test_gleu_keeps_o_as_hypothesis(files: dict[str, str], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from errtype.cli import gleu

    assert gleu.main(["-s", files["text"], "-r", files["cor"], "-o", files["cor"]]) == 0
    by_o = capsys.readouterr().out
    out = tmp_path / "gleu.tsv"
    assert gleu.main(["-s", files["text"], "-r", files["cor"], "--hyp", files["cor"],
                      "--out", str(out)]) == 0
    assert capsys.readouterr().out == "" and out.read_text(encoding="utf-8") == by_o
    assert "cor.txt\t100.0000" in by_o
    with pytest.raises(SystemExit) as exc:
        gleu.main(["-s", files["text"], "-r", files["cor"], "--hyp", files["cor"], "-o",
                   str(out)])
    assert exc.value.code == 2
    assert "-o is the hypothesis in errtype-gleu" in capsys.readouterr().err


def test_out_writes_what_is_printed(files: dict[str, str], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """-o FILE holds exactly the standard output (errant_compare's tables included)."""
    for argv in (["compare", "-hyp", files["m2"], "-ref", files["gold"], "-cat", "3"],
                 ["m2score", files["cor"], files["gold"]],
                 ["lint", "--json", files["gold"]]):
        assert errtype_main(argv) == 0
        printed = capsys.readouterr().out
        out = tmp_path / "printed.txt"
        assert errtype_main([*argv, "-o", str(out)]) == 0
        assert capsys.readouterr().out == ""
        assert out.read_text(encoding="utf-8") == printed and printed, argv


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for name in COMMANDS:
        with pytest.raises(SystemExit) as exc:
            errtype_main([name, "--no-such-option"])
        assert exc.value.code == 2, name
        assert "error:" in capsys.readouterr().err
    assert errtype_main(["no-such-command"]) == 2


def test_help_texts_are_clean() -> None:
    """No reST backticks or doubled full stops in any help (issue 20)."""
    for name, parser in reference.every_parser():
        text = parser.format_help()
        assert "``" not in text and "`:" not in text, name
        assert not re.search(r"\w\.\.\s", text), name  # "directory.. Install" (not "...")


def test_reference_is_current() -> None:
    """docs/cli.md's reference is generated from the parsers: regenerate it with
    ``python -m errtype.cli.reference docs/cli.md`` after changing an option."""
    page = ROOT / "docs" / "cli.md"
    assert reference.is_current(page), f"run: python -m errtype.cli.reference {page}"
    text = page.read_text(encoding="utf-8")
    for name, parser in reference.every_parser():
        assert f"`{parser.prog}`" in text, name


def test_check_output(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    check_output("-")
    check_output(tmp_path / "new.m2")
    check_output(tmp_path / "afile")  # an existing file is replaced
    check_output(tmp_path / "a" / "b", "folder")  # created with its parents
    check_output(tmp_path / "prefix", "prefix")
    faults = {
        (tmp_path / "no" / "x.m2", "file"): "the folder",
        (tmp_path, "file"): "is a folder; give a file name in it",
        (tmp_path, "prefix"): "is a folder",
        (tmp_path / "afile" / "x.m2", "file"): "is a file, not a folder",
        (tmp_path / "afile", "folder"): "is a file, not a folder",
        (tmp_path / "afile" / "sub", "folder"): "cannot be created",
        ("-", "prefix"): "standard output cannot hold several files",
    }
    for (path, kind), message in faults.items():
        with pytest.raises(OutputError, match=message) as exc:
            check_output(path, kind)
        assert exc.value.path == str(path)
    # the library's atomic writer raises the same typed error before creating anything
    with pytest.raises(OutputError, match="does not exist"), \
            atomic_output(tmp_path / "no" / "x.txt") as fh:
        fh.write("never")
    assert not (tmp_path / "no").exists()


def test_sniff_m2() -> None:
    a_line = "A 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0"
    assert sniff_m2(["S a b .", a_line, ""]) is True
    assert sniff_m2(["\ufeffS a b .", "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"]) is True
    assert sniff_m2(["S a b .", "", "S c d .", ""]) is True  # blocks without edits
    assert sniff_m2(["This are a example .", "x|||y"]) is False
    assert sniff_m2(["", "  ", "Hello ."]) is False
    # Czech text may start with the words "S" (with) and "A" (and): not taken for M2
    assert sniff_m2(["S Petrem jsem šel domů .", "A pak jsme jedli ."]) is None
    assert sniff_m2(["S Petrem .", "S Janou ."]) is None
    assert sniff_m2(["S a b .", "A 0 x|||R:DET|||the|||REQUIRED|||-NONE-|||0"]) is None
    assert sniff_m2([]) is None


def test_describe_strips_markup() -> None:
    assert common.describe("``errtype-x``: one\nline.\n\nmore") == "errtype-x: one line."


def test_pipes_are_not_read_by_the_checks(tmp_path: Path) -> None:
    """A FIFO (or a shell pipe, ``<(zcat x.gz)``) given as input is neither opened nor sniffed
    by the checks, so the command reads all of its data."""
    import threading

    from errtype.cli.files import check_paths, m2_input, text_input

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = argparse.Namespace(a=text_input("x")(str(fifo)), b=m2_input("y")(str(fifo)))
    done = threading.Event()
    worker = threading.Thread(target=lambda: (check_paths(args), done.set()), daemon=True)
    worker.start()
    worker.join(10)  # opening a FIFO without a writer would block
    assert done.is_set()


def test_a_reader_closing_the_pipe_stops_the_command_quietly_with_141(tmp_path: Path) -> None:
    """``errtype lint big.m2 | head -1``: no traceback, no 'Exception ignored', exit 128 +
    SIGPIPE (lint's own findings status is 1, so the two stay apart)."""
    block = ("S a b c d\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
             "A 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n")
    m2 = tmp_path / "dup.m2"
    m2.write_text("\n".join([block] * 3000), encoding="utf-8")  # ~400 KB of findings
    proc = subprocess.Popen([sys.executable, "-m", "errtype.cli.main", "lint", str(m2)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert b"duplicate-edit" in proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""


def _every_parser() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser of the project: each console script of pyproject.toml (``errtype`` through
    its subcommands), the ``python -m`` tools, and every subcommand's parser."""
    import importlib
    import tomllib

    from errtype.cli import errant_alias

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    modules = {target.split(":")[0] for target in scripts.values()}
    commands = {f"errtype.cli.{module}" for module, _ in COMMANDS.values()}
    assert modules - {"errtype.cli.main"} <= commands, "a console script is not a command"
    seen = dict(reference.every_parser())
    captured: list[argparse.ArgumentParser] = []

    class Stop(Exception):
        pass

    def capture(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        captured.append(self)
        raise Stop

    with pytest.MonkeyPatch.context() as mp:  # the tools that build their parser in main()
        mp.setattr(argparse.ArgumentParser, "parse_args", capture)
        for name, tool in (("errant_alias", errant_alias), ("reference", reference)):
            with pytest.raises(Stop):
                tool.main([])
            seen[name] = captured[-1]
    yield from seen.items()
    by_module = {f"errtype.cli.{module}": name for name, (module, _) in COMMANDS.items()}
    for module in sorted(modules - {"errtype.cli.main"}):  # the scripts' own parsers
        yield by_module[module], importlib.import_module(module).build_parser()


#: each concept that several commands take -> its one set of spellings; a command taking the
#: concept as an option accepts exactly these (plus its reference tool's, in EXTRA_SPELLINGS)
CONCEPTS = {
    "original text": {"-orig", "--orig", "--src", "--source"},
    "corrected text": {"-cor", "--cor"},
    "references": {"--ref", "-ref"},
    "hypotheses": {"--hyp", "-hyp"},
    "output": {"-o", "--out", "-out"},
    "lang": {"--lang", "-lang"},
    "unit": {"--unit"},
    "edit gold": {"--edit-gold"},
    "keep gold types": {"--keep-gold-types"},
    "retype gold": {"--retype-gold"},
    "granularity": {"--granularity"},
    "encoding errors": {"--encoding-errors"},
}
#: (parser, concept) -> the further spellings its reference tool or its past documented
EXTRA_SPELLINGS = {
    ("gleu", "original text"): {"-s"},            # compute_gleu's
    ("gleu", "references"): {"-r", "--reference"},
    ("gleu", "hypotheses"): {"--hypothesis"},
    ("ratio", "references"): {"--refs"},
    ("ratio", "hypotheses"): {"--systems"},
}
#: (parser, concept) -> why a spelling of the set is missing there
MISSING_SPELLINGS = {("gleu", "output"): {"-o"}}  # -o is GLEU's hypothesis (compute_gleu)
#: concepts that travel together: a parser with the first has the others
SIBLINGS = [("--edit-gold", "--keep-gold-types", "--retype-gold", "--unit"),
            ("--lang", "--granularity", "--scheme", "--no-simplified")]
#: --edit-gold with another meaning: SEEDA's columns (default auto, no detect)
OWN_EDIT_GOLD = {"meta seeda"}


def test_every_parser_matches_exactly_and_spells_each_concept_one_way() -> None:
    """allow_abbrev is off everywhere (``errtype-compare --hyp`` is not ``--hyp-text``), and
    every concept has one set of spellings in every parser that takes it (ERRANT's
    ``-hyp``/``-ref``/``-orig``/``-cor``/``-out`` included), and the options of one concept
    (edit gold, zh options) go together."""
    parsers = list(_every_parser())
    assert len(parsers) >= 30
    for name, parser in parsers:
        assert parser.allow_abbrev is False, name
        opts = _options(parser)
        for concept, flags in CONCEPTS.items():
            want = (flags | EXTRA_SPELLINGS.get((name, concept), set())) - \
                MISSING_SPELLINGS.get((name, concept), set())
            for action in {id(a): a for o, a in opts.items() if o in want}.values():
                if concept == "edit gold" and name in OWN_EDIT_GOLD:
                    continue
                assert set(action.option_strings) == want, (name, concept)
        for group in SIBLINGS:
            if group[0] in opts and name not in OWN_EDIT_GOLD:
                assert set(group) <= set(opts), (name, group)


@pytest.mark.parametrize("argv", [
    ["compare", "--hyp-t", "x.m2", "-ref", "y.m2"],   # a prefix of --hyp-text
    ["score", "-m", "m2", "--re", "g.m2", "--hyp", "x.txt"],
    ["report", "--ref", "g.m2", "--hyp", "x.txt", "-o", "r.html", "--keep-gold"],
    ["m2", "-orig", "a", "-cor", "b", "-o", "c", "--max-tok", "5"],
])
def test_no_prefix_matching(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        errtype_main(argv)
    assert exc.value.code == 2
    assert "unrecognized arguments" in capsys.readouterr().err


def test_errant_spellings_and_shared_options(files: dict[str, str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``errtype score -hyp/-ref/-orig`` (ERRANT's spellings) and ``--keep-gold-types`` work as
    in ``errtype report``; ``errtype-m2 --src/--cor`` are ``-orig/-cor``."""
    out = tmp_path / "s.tsv"
    assert errtype_main(["score", "-m", "m2", "errant", "-ref", files["gold"], "-hyp",
                         f"S={files['cor']}", "-orig", files["text"], "--keep-gold-types",
                         "--tsv", "-out", str(out)]) == 0
    rows = out.read_text().splitlines()
    assert any(r.startswith("S\terrant\t") for r in rows), rows
    from errtype.cli import score

    args = score.build_parser().parse_args(["-m", "errant", "--keep-gold-types"])
    assert score.metric_settings(["errant"], args)["errant"]["gold_edits"] == "m2"
    m2 = tmp_path / "o.m2"
    assert errtype_main(["m2", "--src", files["text"], "--cor", files["cor"], "--out",
                         str(m2)]) == 0
    assert m2.read_text() == GOLD
    assert errtype_main(["score", "-m", "m2", "--ref", files["gold"], "--hyp", files["cor"],
                         "--granularity", "word"]) == 2
    assert "apply to languages written without spaces" in capsys.readouterr().err
