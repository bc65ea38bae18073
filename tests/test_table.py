"""Edits as a table (JSON lines, TSV, Parquet, pandas): every format reads back, with the standard
readers, to the edits of the M2 it came from; errtype-m2 --format on parallel text."""

from __future__ import annotations

import csv
import json
import sys
from itertools import islice
from pathlib import Path

import pytest

import errtype
from errtype.cli import convert as cli_convert
from errtype.cli import m2 as cli_m2
from errtype.convert import m2_to_text
from errtype.convert.table import COLUMNS, m2_to_table, type_parts
from errtype.m2 import none_as_empty, read_m2, write_m2

from .conftest import peer, shared_path, zh_extra

N = 150  # CoNLL-2014 blocks used


def _expected(m2: Path) -> list[tuple]:
    """(sentence, annotator, start, end, orig, cor, type) of every edit line, from read_m2."""
    out = []
    for n, block in enumerate(read_m2(m2)):
        tokens = block.tokens
        for e in block.edits:
            noop = e.is_noop
            out.append((n, e.annotator, -1 if noop else e.start, -1 if noop else e.end,
                        "" if noop else " ".join(tokens[e.start:e.end]),
                        e.cor if noop else none_as_empty(e.cor), e.type))
    return out


def _read(path: Path, fmt: str) -> list[tuple]:
    if fmt == "jsonl":
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    elif fmt == "tsv":
        with path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh, dialect="excel-tab"))
        for r in rows:
            for c in ("sentence", "annotator", "start", "end"):
                r[c] = int(r[c])
    else:
        rows = peer("pyarrow.parquet").read_table(path).to_pylist()
    assert all(list(r) == list(COLUMNS) for r in rows)
    return [tuple(r[c] for c in COLUMNS[:7]) for r in rows]


@pytest.fixture(scope="module")
def conll_slice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first blocks of CoNLL-2014's official M2 (NUCLE types, two annotators, noops)."""
    path = tmp_path_factory.mktemp("conll") / "c14.m2"
    blocks = list(islice(read_m2(shared_path("conll14", "official-2014.combined.m2")), N))
    write_m2(blocks, path)
    return path


@pytest.mark.parametrize("fmt", ["jsonl", "tsv", "parquet"])
def test_formats_read_back_to_the_m2(conll_slice: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"t.{fmt}"
    n = m2_to_table(conll_slice, out, fmt)
    expected = _expected(conll_slice)
    assert n == len(expected) > N
    assert _read(out, fmt) == expected
    assert any(r[6] == "noop" for r in expected)


def test_to_frame_of_a_path_blocks_and_annotations(conll_slice: Path, tmp_path: Path) -> None:
    peer("pandas")
    frame = errtype.to_frame(conll_slice)
    assert list(frame.columns) == list(COLUMNS)
    assert [tuple(r) for r in frame[list(COLUMNS[:7])].itertuples(index=False)] \
        == _expected(conll_slice)
    assert str(frame.start.dtype) == "int64"
    assert errtype.to_frame(list(read_m2(conll_slice))).equals(frame)
    # the error profile is one groupby away
    counts = frame[frame.type != "noop"].groupby("type").size()
    assert counts["ArtOrDet"] > 10


def test_type_parts() -> None:
    assert type_parts("R:NOUN:INFL:Case+Number") == ("R", "NOUN:INFL", "Case+Number")
    assert type_parts("M:VERB:TENSE") == ("M", "VERB:TENSE", "")
    assert type_parts("R:NOUN:INFL") == ("R", "NOUN:INFL", "")
    assert type_parts("noop") == ("", "noop", "")
    assert type_parts("Vt") == ("", "Vt", "")


@pytest.fixture(scope="module")
def parallel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """80 CoNLL-2014 sources with both annotators' corrections, as parallel text."""
    tmp = tmp_path_factory.mktemp("par")
    m2_to_text(shared_path("conll14", "official-2014.combined.m2"), tmp / "full")
    paths = []
    for name in ("orig", "cor.0", "cor.1"):
        lines = (tmp / f"full.{name}").read_text(encoding="utf-8").split("\n")[:80]
        (tmp / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(tmp / name)
    return paths[0], paths[1:]


def test_errtype_m2_format_reads_back_to_its_m2(parallel: tuple[Path, list[Path]],
                                                tmp_path: Path) -> None:
    """errtype-m2 --format jsonl|tsv|parquet (with -j 2) = the rows of errtype-m2's M2, and to_frame
    of the annotations gives the same rows."""
    orig, cors = parallel
    m2 = tmp_path / "out.m2"
    argv = ["-orig", str(orig), "-cor", *map(str, cors), "-q"]
    assert cli_m2.main([*argv, "-o", str(m2)]) == 0
    expected = _expected(m2)
    assert any(r[6] == "noop" for r in expected) and any(r[6].startswith("R:") for r in expected)
    for fmt in ("jsonl", "tsv", "parquet"):
        out = tmp_path / f"out.{fmt}"
        assert cli_m2.main([*argv, "-o", str(out), "--format", fmt, "-j", "2"]) == 0
        assert _read(out, fmt) == expected, fmt
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left
    annotator = errtype.load("en")
    items = [(o, list(c)) for o, *c in zip(*(p.read_text("utf-8").splitlines()
                                             for p in (orig, *cors)), strict=True)]
    frame = errtype.to_frame(annotator.annotate_stream(items))
    assert frame.equals(errtype.to_frame(m2))


def test_format_usage_errors(parallel: tuple[Path, list[Path]], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    orig, cors = parallel
    for extra, message in ((["-o", "-", "--format", "parquet"], "needs an output file"),
                           (["-o", str(tmp_path / "x"), "--format", "tsv", "--resume"],
                            "--resume writes M2")):
        with pytest.raises(SystemExit) as info:
            cli_m2.main(["-orig", str(orig), "-cor", str(cors[0]), *extra])
        assert info.value.code == 2
        assert message in capsys.readouterr().err


def test_convert_m2_to_table(conll_slice: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.tsv"
    assert cli_convert.main(["m2-to-table", str(conll_slice), "-o", str(out), "--format", "tsv",
                             "-q"]) == 0
    assert _read(out, "tsv") == _expected(conll_slice)


@pytest.mark.parametrize("command", ["m2", "convert"])
def test_parquet_without_pyarrow_stops_before_any_work(tmp_path: Path, command: str,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """--format parquet without the table extra: one line naming the pip command, exit 2,
    before a model is loaded or the input read, and no output file."""
    from errtype.cli.main import main as errtype_main

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("work started before the extra was checked")

    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # import pyarrow raises ImportError
    monkeypatch.setattr(errtype, "load", fail)
    monkeypatch.setattr("errtype.convert.table.read_m2", fail)
    text = tmp_path / "orig.txt"
    text.write_text("This are a example .\n", encoding="utf-8")
    m2 = tmp_path / "in.m2"
    m2.write_text("S This are a example .\nA 1 2|||R:VERB|||is|||REQUIRED|||-NONE-|||0\n\n",
                  encoding="utf-8")
    out = tmp_path / "out.parquet"
    argv = (["m2", "-orig", str(text), "-cor", str(text), "-o", str(out), "--format", "parquet"]
            if command == "m2" else
            ["convert", "m2-to-table", str(m2), "-o", str(out), "--format", "parquet"])
    assert errtype_main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.endswith("--format parquet: Parquet output needs pyarrow: pip install "
                        "'errtype[table]'\n"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.m2", "orig.txt"]


#: ChERRANT's dialect at character level (ChERRANT's M/R/S/W) and at word level (ChERRANT's
#: scheme: R:NOUN is a redundant word; errtype's scheme: R:NOUN a replacement, U:NOUN a deletion),
#: a noop and an unannotatable reference; then standard M2 with a deletion written -NONE-
DIALECTS = """S 我 在 也 不 去 了 了 。
T0-A0 我 再 也 去 不 了 。
A 1 2|||S|||再|||REQUIRED|||-NONE-|||0
A 3 5|||W|||去 不|||REQUIRED|||-NONE-|||0
A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||0
A 7 7|||M|||啊|||REQUIRED|||-NONE-|||0
T1 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
T2 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||2

S 我 在也 不 去 书 了 。
T0-A0 我 再也 不 去 了 。
A 1 2|||S:SPELL|||再也|||REQUIRED|||-NONE-|||0
A 4 5|||R:NOUN|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 3|||M:MC|||[缺失成分]|||REQUIRED|||-NONE-|||0
T1-A0 我 再也 不 去 了 。
A 1 2|||R:SPELL|||再也|||REQUIRED|||-NONE-|||1
A 4 5|||U:NOUN|||-NONE-|||REQUIRED|||-NONE-|||1

S a b c
A 1 2|||U:NOUN|||-NONE-|||REQUIRED|||-NONE-|||0
A 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0

"""


def test_columns_mean_the_same_in_every_dialect(tmp_path: Path) -> None:
    """Issue 33: in ChERRANT's dialect (errtype-m2 --lang zh) op was empty, ChERRANT's R (a
    deletion) sat in category and a deletion's cor was -NONE-; every dialect now gives op =
    M/R/U of the edit, category = the type's class, cor empty for a deletion."""
    m2 = tmp_path / "d.m2"
    m2.write_text(DIALECTS, encoding="utf-8")
    out = tmp_path / "d.tsv"
    assert cli_convert.main(["m2-to-table", str(m2), "-o", str(out), "--format", "tsv",
                             "-q"]) == 0
    with out.open(encoding="utf-8", newline="") as fh:
        got = [(r["type"], r["cor"], r["op"], r["category"])
               for r in csv.DictReader(fh, dialect="excel-tab")]
    assert got == [
        ("S", "再", "R", ""), ("W", "去 不", "R", "WO"), ("R", "", "U", ""), ("M", "啊", "M", ""),
        ("noop", "-NONE-", "", "noop"), ("NA", "-NONE-", "", "NA"),
        ("S:SPELL", "再也", "R", "SPELL"), ("R:NOUN", "", "U", "NOUN"),
        ("M:MC", "[缺失成分]", "M", "MC"), ("R:SPELL", "再也", "R", "SPELL"),
        ("U:NOUN", "", "U", "NOUN"),
        ("U:NOUN", "", "U", "NOUN"), ("R:NOUN", "x", "R", "NOUN"),
    ]


def test_chinese_sample_table(tmp_path: Path) -> None:
    """errtype-m2 --lang zh --format jsonl: every edit has its operation, no -NONE-."""
    zh_extra()
    para = Path(__file__).resolve().parents[1] / "samples" / "zh.para"
    out = tmp_path / "zh.jsonl"
    assert cli_m2.main(["--lang", "zh", "--para", str(para), "-o", str(out), "--format", "jsonl",
                        "-q"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["op"] for r in rows} == {"M", "R", "U"}
    assert all(r["cor"] != "-NONE-" and r["category"] in ("", "WO") for r in rows)
    assert [r["op"] for r in rows if r["type"] == "R"] == ["U"]
