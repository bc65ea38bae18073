"""What a new user hit (issue 29), each checked: binary files named as such, the metric list
agreeing with the README's names, ``--sent`` on the table's scale, the whole "no parser"
message, library errors without CLI flags, the M2 model in docs/api.md."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

import errtype
from errtype.cli.score import main as score_main
from errtype.errors import EncodingError
from errtype.m2 import read_m2
from errtype.textio import count_lines, read_lines

ROOT = Path(__file__).resolve().parents[1]
TEXT = "He go home .\nShe like it .\n"


def _elf() -> bytes:
    """The start of a real executable (this interpreter), else an ELF header."""
    exe = shutil.which("ls") or sys.executable
    head = Path(exe).read_bytes()[:4096]
    return head if head.startswith(b"\x7fELF") else (b"\x7fELF\x02\x01\x01" + bytes(9) +
                                                     b"\x02\x00\x3e\x00" + bytes(40))


@pytest.mark.parametrize(("data", "what"), [
    (_elf(), "an ELF executable or library"),
    (b"\x1f\x8b\x08\x00" + bytes(12) + b"\n", "gzip data"),
    (b"PK\x03\x04\x14\x00" + bytes(20), "a zip archive"),
    (b"abc\x00\x00\x00\x01\x02\x00\x00d\x00\x00\x00\x00e\x00\x07\x00\x00\n", "binary data"),
])
def test_binary_files_are_not_called_wide_text(tmp_path: Path, data: bytes, what: str) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    for reader in (lambda: list(read_lines(path)), lambda: list(read_m2(path)),
                   lambda: count_lines(path)):
        with pytest.raises(EncodingError) as info:
            reader()
        assert f"{path}, line 1, byte 0: the file is {what}, not utf-8 text" in str(info.value)
        assert "UTF-32" not in str(info.value) and "UTF-16" not in str(info.value)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_text_with_accents_is_still_named(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(("Dobrý den , žluťoučký kůň .\n" + TEXT).encode(codec))
    with pytest.raises(EncodingError, match=f"looks like {codec[:6].upper()} text"):
        list(read_lines(path))


def test_errtype_m2_names_an_executable(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from errtype.cli.m2 import main as m2_main

    exe, cor = tmp_path / "prog", tmp_path / "cor.txt"
    exe.write_bytes(_elf())
    cor.write_text(TEXT, encoding="utf-8")
    assert m2_main(["-orig", str(exe), "-cor", str(cor), "-o", str(tmp_path / "o.m2")]) == 2
    err = capsys.readouterr().err
    assert f"{exe}, line 1, byte 0: the file is an ELF executable or library" in err


def test_metric_list_names_the_readme_names(capsys: pytest.CaptureFixture) -> None:
    assert score_main(["--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert "maxmatch (also: m2)" in listed and "goto (also: gotoscorer)" in listed
    names = {n for line in listed for n in re.findall(r"[\w-]+", line) if n != "also"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in re.findall(r"errtype score -m ([\w -]+?) --", readme):
        assert set(command.split()) <= names, command


def test_sentence_scores_on_the_table_scale(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
                    "S She like it .\nA 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n\n",
                    encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("He goes home .\nShe like it .\n", encoding="utf-8")
    args = ["-m", "m2", "--ref", str(gold), "--hyp", f"S={hyp}", "--sent"]
    assert score_main(args) == 0
    out = capsys.readouterr().out
    corpus = out.splitlines()[1].split()
    assert corpus == ["S", "83.33"]  # P 1, R 1/2: F0.5 = 0.625 / 0.75
    sent = out.split("\n\n")[-1].splitlines()
    assert sent[1:] == ["S\tm2\t1\t100.00", "S\tm2\t2\t0.00"]  # percentages, like the table
    assert score_main([*args, "--tsv"]) == 0
    tsv = capsys.readouterr().out.split("\n\n")
    assert len(tsv) == 2
    assert float(tsv[0].splitlines()[1].split("\t")[2]) == pytest.approx(0.625 / 0.75)
    assert tsv[1].splitlines()[1:] == ["S\tm2\t1\t1.0", "S\tm2\t2\t0.0"]  # raw, like its corpus


def test_no_parser_message_is_complete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    if importlib.util.find_spec("de_core_news_sm"):
        pytest.skip("a German spaCy pipeline is installed here")
    monkeypatch.setenv("ERRTYPE_CACHE_DIR", str(tmp_path))
    with pytest.raises(errtype.ResourceError) as info:
        errtype.load("de")
    msg = str(info.value)
    assert msg.startswith("no parser for German (de): run 'errtype download de'")
    assert msg.endswith("pass a parser: udpipe_model=PATH or nlp=a loaded spaCy pipeline (on "
                        "the command line: --udpipe-model PATH or --spacy-model NAME)")


def test_library_reasons_name_no_command_line_flag() -> None:
    ann = errtype.load("en")
    [result] = ann.annotate_stream([("a b c d e", "a b c d f")], on_error="skip", max_tokens=3)
    assert result.error == "more than 3 tokens (the max_tokens limit)"
    assert "--" not in result.error


def test_api_page_lists_every_export() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    exceptions = {n for n in errtype.__all__ if n.endswith("Error")}
    for name in set(errtype.__all__) - exceptions - {"__version__"}:
        assert re.search(rf"\b{name}\b", page), name
