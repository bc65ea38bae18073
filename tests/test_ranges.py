"""Workers that read, annotate and format their own line ranges (errtype.ranges, ``-j N``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import errtype
from errtype import textio
from errtype.convert import parallel_to_m2
from errtype.convert.ranges import cut, line_ranges, range_lines, range_sizes
from errtype.errors import EncodingError, InputError
from errtype.textio import read_parallel

from .conftest import shared_path


@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


#: line endings, a BOM, empty and non-ASCII lines, no final newline
AWKWARD = [
    b"\xef\xbb\xbfFirst line .\r\nSecond , with CRLF .\r\n\r\nna\xc3\xafve caf\xc3\xa9 .\n"
    + b"".join(b"line %d of many .\n" % k for k in range(40)) + b"last without newline",
    b"\xef\xbb\xbfFirst line !\nSecond , with LF .\n\nnaive cafe .\r\n"
    + b"".join(b"line %d of many !\n" % k for k in range(40)) + b"last without newline\n",
]


@pytest.mark.parametrize("sizes", [[1] * 45, [7, 3, 20, 15], [45], [2, 40, 3]])
def test_ranges_read_what_the_whole_file_reader_reads(tmp_path: Path, sizes: list[int]) -> None:
    paths = [_write(tmp_path / f"f{k}", data) for k, data in enumerate(AWKWARD)]
    whole = list(read_parallel(paths))
    assert len(whole) == sum(sizes) == 45
    got = [line for r in cut(paths, sizes) for line in range_lines(r)]
    assert got == whole
    later = [line for r in cut(paths, sizes[1:], skip=sizes[0]) for line in range_lines(r)]
    assert later == whole[sizes[0]:]


def test_ranges_on_a_real_corpus() -> None:
    paths = [shared_path("jfleg", "dev.src"), shared_path("jfleg", "dev.ref0")]
    whole = list(read_parallel(paths))
    for size in (1, 64, 100, 10_000):
        ranges = line_ranges(paths, size)
        assert [r.first for r in ranges] == list(range(1, len(whole) + 1, size))
        assert [line for r in ranges for line in range_lines(r)] == whole


def test_range_sizes_cover_the_lines_and_shrink_towards_the_end() -> None:
    for lines, jobs in [(0, 2), (1, 2), (754, 2), (10_000, 16), (100_000, 4)]:
        sizes = range_sizes(lines, jobs, largest=256, smallest=64)
        assert sum(sizes) == lines
        assert all(64 <= s <= 256 for s in sizes[:-1])
        assert sizes == sorted(sizes, reverse=True) or sizes[-1] < 64


def test_an_encoding_error_names_the_file_and_line_in_a_range(tmp_path: Path) -> None:
    good = b"".join(b"a sentence %d .\n" % k for k in range(10))
    bad = good.replace(b"sentence 7", b"sent\xffnce 7")
    paths = [_write(tmp_path / "o", good), _write(tmp_path / "c", bad)]
    with pytest.raises(EncodingError) as whole:
        list(read_parallel(paths))
    for sizes in ([3, 3, 4], [8, 2], [1] * 10):
        with pytest.raises(EncodingError) as part:
            [line for r in cut(paths, sizes) for line in range_lines(r)]
        assert (part.value.path, part.value.line, part.value.offset) == \
            (whole.value.path, whole.value.line, whole.value.offset)
    assert (whole.value.path, whole.value.line) == (paths[1], 8)


def test_the_parent_only_joins(tmp_path: Path, en: errtype.Annotator,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``jobs=2`` the whole-file reader and the M2 formatter never run in this process,
    and the output is the single process's, byte for byte."""
    from errtype.convert import jobs

    src = shared_path("jfleg", "dev.src").read_text(encoding="utf-8").splitlines()[:150]
    ref = shared_path("jfleg", "dev.ref0").read_text(encoding="utf-8").splitlines()[:150]
    o = _write(tmp_path / "o", ("\n".join(src) + "\n").encode())
    c = _write(tmp_path / "c", ("\n".join(ref) + "\n").encode())
    one, two = tmp_path / "one.m2", tmp_path / "two.m2"
    report_one = parallel_to_m2(en, o, [c], one)
    parent = os.getpid()
    real_format, real_read = jobs.format_annotation, textio.read_lines

    def format_in_workers_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert os.getpid() != parent, "the parent formatted an item"
        return real_format(*args, **kwargs)

    def read_in_workers_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert os.getpid() != parent, "the parent read the lines"
        return real_read(*args, **kwargs)

    monkeypatch.setattr(jobs, "format_annotation", format_in_workers_only)
    monkeypatch.setattr(textio, "read_lines", read_in_workers_only)
    ticks: list[int] = []
    report_two = parallel_to_m2(en, o, [c], two, jobs=2, progress=ticks.append)
    assert two.read_bytes() == one.read_bytes()
    assert (report_two.blocks, report_two.noops) == (report_one.blocks, report_one.noops) \
        == (150, report_one.noops)
    assert sum(ticks) == 150


def test_skipped_and_unwritable_lines_are_reported_alike(tmp_path: Path,
                                                         en: errtype.Annotator) -> None:
    origs = [f"this is sentence {k} ." for k in range(70)]
    cors = [f"this was sentence {k} ." for k in range(70)]
    cors[5] = "this ||| 5 ."
    cors[66] = "this is sentence 66 -NONE-"
    origs[10] = "this is a much longer sentence 10 ."
    o = _write(tmp_path / "o", ("\n".join(origs) + "\n").encode())
    c = _write(tmp_path / "c", ("\n".join(cors) + "\n").encode())
    outs = {}
    reports = {}
    for jobs in (1, 2):
        outs[jobs] = tmp_path / f"out{jobs}.m2"
        reports[jobs] = parallel_to_m2(en, o, [c], outs[jobs], jobs=jobs, on_error="skip",
                                       max_tokens=5)
    assert outs[1].read_bytes() == outs[2].read_bytes()
    assert reports[1].skipped == reports[2].skipped
    assert [line for line, _ in reports[2].skipped] == [6, 11, 67]  # |||, too long, -NONE-
    assert c in reports[2].skipped[0][1] and "max_tokens" in reports[2].skipped[1][1]
    for jobs in (1, 2):
        with pytest.raises(InputError) as info:
            parallel_to_m2(en, o, [c], tmp_path / "x.m2", jobs=jobs)
        assert (info.value.path, info.value.line) == (c, 6)
