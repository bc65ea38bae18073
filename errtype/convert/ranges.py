"""Parallel files read as items, whole or cut into line ranges that workers read, annotate and
format themselves.

The process that starts the work only cuts the files (byte offsets of the first line of each
range, found with one pass over each file) and joins the M2 text of each range, in order, into
the output: a worker reads its own lines, parses, annotates, formats and counts them, and sends
back one string per range. ``errtype-m2 -j N`` (forked workers, :func:`parallel_to_m2_ranges`)
and ``errtype-m2 --dask`` (a cluster's workers, :mod:`errtype.convert.dask`) both work this way;
the output is the same as a single process's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import TYPE_CHECKING

from ..errors import AnnotationError, EncodingError
from ..textio import check_line_counts, decode_lines, read_parallel
from .jobs import Job, failed, formatter, job_sink, join
from .options import JobOptions
from .output import Joined, PathLike, Report

if TYPE_CHECKING:
    from ..annotator import Annotator

__all__ = ["Joined", "LineRange", "annotate_range", "cut", "join", "line_ranges",
           "parallel_items", "parallel_job", "parallel_to_m2_ranges", "range_lines",
           "range_sizes"]

#: the smallest range :func:`range_sizes` cuts (fewer lines make too small a parse batch: a
#: 32-line floor cost more worker CPU on bench_m2 than 64)
MIN_RANGE = 64


@dataclass(frozen=True)
class LineRange:
    """Lines ``first .. first + count - 1`` of parallel files: the byte range in each file."""

    paths: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    first: int  # 1-based number of the first line
    count: int


def parallel_items(paths: Sequence[PathLike], encoding_errors: str = "strict",
                   progress: Callable[[int], None] | None = None, *, skip: int = 0,
                   lines: Iterable[tuple[int, list[str]]] | None = None
                   ) -> Iterator[tuple[str, list[str]]]:
    """Items ``(orig, [cor, ...])`` of parallel files (``paths[0]`` the original), stripped,
    after the first ``skip`` lines. ``lines`` gives the numbered lines when they are read some
    other way."""
    numbered = iter(read_parallel(paths, errors=encoding_errors) if lines is None else lines)
    if skip:
        for _ in islice(numbered, skip):
            pass
        if progress:
            progress(skip)
    for _, texts in numbered:
        yield texts[0].strip(), [t.strip() for t in texts[1:]]
        if progress:
            progress(1)


def parallel_job(paths: Sequence[PathLike], encoding_errors: str = "strict") -> Job:
    """Parallel files (``paths[0]`` the original, one sentence per line) as a :class:`Job`:
    line k of every file is item k."""
    def read(skip: int) -> Iterator[tuple[int, tuple[str, list[str]]]]:
        return enumerate(parallel_items(paths, encoding_errors, skip=skip), skip + 1)

    return Job("parallel", list(paths), read, cor_paths=list(paths[1:]))


# --- cutting (the parent) -----------------------------------------------------------------------

def range_sizes(lines: int, jobs: int, largest: int, smallest: int = MIN_RANGE) -> list[int]:
    """Sizes of consecutive ranges covering ``lines`` lines for ``jobs`` workers: each half a
    worker's share of what is left, between ``smallest`` and ``largest`` lines, so that the
    ranges shrink towards the end and the workers finish together, while each range still
    fills a parse batch of many sentences (shared tokens and windows)."""
    sizes = []
    left = lines
    while left > 0:
        size = min(left, max(smallest, min(largest, math.ceil(left / (2 * jobs)))))
        sizes.append(size)
        left -= size
    return sizes


def _line_offsets(path: PathLike, lines: Sequence[int]) -> list[int]:
    """Byte offset of the start of each line number in ``lines`` (0-based, ascending; a number
    at or past the last line gives the file's size)."""
    import numpy

    wanted = list(lines)
    out: list[int] = []
    k = 0  # index into wanted
    seen = 0  # newlines before this block
    pos = 0  # byte offset of this block
    with open(path, "rb") as fh:
        while k < len(wanted) and (block := fh.read(1 << 22)):
            while k < len(wanted) and wanted[k] == 0:
                out.append(0)
                k += 1
            count = block.count(b"\n")
            if k < len(wanted) and wanted[k] <= seen + count:
                ends = numpy.flatnonzero(numpy.frombuffer(block, dtype=numpy.uint8) == 10)
                while k < len(wanted) and wanted[k] <= seen + count:
                    out.append(pos + int(ends[wanted[k] - seen - 1]) + 1)
                    k += 1
            seen += count
            pos += len(block)
    out.extend([pos] * (len(wanted) - k))
    return out


def cut(paths: Sequence[PathLike], sizes: Sequence[int], skip: int = 0) -> list[LineRange]:
    """Ranges of ``sizes`` lines each, one after another from line ``skip + 1`` of the
    parallel files (the caller has checked their line counts: :func:`check_line_counts`)."""
    bounds = [skip]
    for size in sizes:
        bounds.append(bounds[-1] + size)
    offsets = [_line_offsets(p, bounds) for p in paths]
    names = tuple(map(str, paths))
    return [LineRange(names, tuple(o[i] for o in offsets), tuple(o[i + 1] for o in offsets),
                      bounds[i] + 1, size) for i, size in enumerate(sizes)]


def line_ranges(paths: Sequence[PathLike], size: int, skip: int = 0) -> list[LineRange]:
    """Parallel files, after their first ``skip`` lines, cut into ranges of ``size`` lines."""
    n = check_line_counts(paths)
    left = max(0, n - skip)
    return cut(paths, [size] * (left // size) + ([left % size] if left % size else []), skip)


# --- reading, annotating, joining (the workers) -------------------------------------------------

def range_lines(r: LineRange, encoding_errors: str = "strict"
                ) -> Iterator[tuple[int, list[str]]]:
    """The numbered lines of a range: ``(line number, [text of each file])``, decoded exactly as
    the whole-file reader decodes them (errors name the file and its line)."""
    columns = []
    for path, start, end in zip(r.paths, r.starts, r.ends, strict=True):
        with open(path, "rb") as fh:
            fh.seek(start)
            data = fh.read(end - start)
        raw = data.split(b"\n")
        chunks = [x + b"\n" for x in raw[:-1]] + ([raw[-1]] if raw[-1] else [])
        # decode_lines drops a BOM on its line 1 only: a range not at the file start gets a
        # dummy first line, so its lines are decoded exactly as the whole-file reader does
        pad = 0 if start == 0 else 1
        lines = decode_lines(chain([b"\n"] * pad, chunks), path, errors=encoding_errors)
        try:
            columns.append([ln.text for ln in lines][pad:])
        except EncodingError as exc:
            raise EncodingError(exc.reason, path=path, line=(exc.line or 0) - pad + r.first - 1,
                                offset=(exc.offset or 0) - pad + start) from None
    for k, texts in enumerate(zip(*columns, strict=True)):
        yield r.first + k, list(texts)


def annotate_range(annotator: Annotator, r: LineRange, options: JobOptions) -> Joined:
    """Read, annotate and format one range as ``options`` say (in one process: ``jobs`` is not
    read); a failure is an :class:`InputError` naming the line."""
    items = parallel_items(list(r.paths), lines=range_lines(r, options.encoding_errors))
    try:
        done = list(annotator.annotate_stream(items, transform=formatter(annotator, options),
                                              **options.stream()))
    except AnnotationError as exc:
        raise failed(exc, None if exc.index is None else r.first + exc.index) from None
    return join(done, r.first, r.paths[1:], options.on_error)


def parallel_to_m2_ranges(annotator: Annotator, job: Job, out: PathLike, options: JobOptions,
                          progress: Callable[[int], None] | None = None) -> Report:
    """Annotate the parallel files of ``job`` (:func:`parallel_job`) with ``options.jobs`` forked
    workers that read and format their own ranges, and write the joined text to ``out`` in order
    (resumably as :func:`errtype.convert.jobs.run_job` would: the same identity)."""
    from ..stream import worker_map

    paths = list(job.inputs)
    report = Report()
    with job_sink(annotator, job, out, options, report) as sink:
        n = check_line_counts(paths)
        ranges = cut(paths, range_sizes(max(0, n - sink.done), options.jobs,
                                        options.batch_size), sink.done)
        if progress and sink.done:
            progress(sink.done)

        def work(r: LineRange) -> Joined:
            return annotate_range(annotator, r, options)

        def describe(task: tuple[LineRange]) -> str:
            r = task[0]
            return f"lines {r.first}-{r.first + r.count - 1}"

        for joined in worker_map(annotator, work, ((r,) for r in ranges), options.jobs,
                                 describe):
            sink.put_joined(joined)
            if progress:
                progress(joined.blocks)
    return report
