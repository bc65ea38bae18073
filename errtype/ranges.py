"""Parallel files cut into line ranges that workers read, annotate and format themselves.

The process that starts the work only cuts the files (byte offsets of the first line of each
range, found with one pass over each file) and joins the M2 text of each range, in order, into
the output: a worker reads its own lines, parses, annotates, formats and counts them, and sends
back one string per range. ``errtype-m2 -j N`` (forked workers, :func:`parallel_to_m2_ranges`)
and ``errtype-m2 --dask`` (a cluster's workers, :mod:`errtype.dask`) both work this way; the
output is the same as a single process's.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any

from .convert import Formatted, checked, format_annotation, parallel_items
from .errors import AnnotationError, EncodingError, InputError
from .textio import check_line_counts, decode_lines

if TYPE_CHECKING:
    from .annotator import Annotator
    from .convert.output import _Sink

PathLike = str | os.PathLike[str]

__all__ = ["Joined", "LineRange", "annotate_range", "cut", "join", "line_ranges",
           "parallel_to_m2_ranges", "range_lines", "range_sizes"]

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


@dataclass(frozen=True)
class Joined:
    """The M2 blocks of consecutive items as one text, and what a Report counts of them."""

    first: int  # 1-based number of the first item's line
    text: str
    blocks: int
    noops: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)


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


def join(results: Iterable[Formatted], first: int, cor_paths: Sequence[PathLike] | None,
         on_error: str) -> Joined:
    """The formatted items of lines ``first, first + 1, ...`` as one :class:`Joined` (a
    correction M2 cannot express: :func:`errtype.convert.checked`)."""
    texts: list[str] = []
    noops = 0
    skipped: list[tuple[int, str]] = []
    for k, result in enumerate(results):
        line = first + k
        result = checked(result, line, cor_paths, on_error)
        texts.append(result.block)
        noops += result.noops
        if result.skipped is not None:
            skipped.append((line, result.skipped))
    return Joined(first, "".join(texts), len(texts), noops, skipped)


def annotate_range(annotator: Annotator, r: LineRange, *, errant_noop: bool = False,
                   encoding_errors: str = "strict", **stream: Any) -> Joined:
    """Read, annotate and format one range (``stream``: the keyword arguments of
    :meth:`errtype.Annotator.annotate_stream`); a failure is an :class:`InputError` naming the
    line."""
    items = parallel_items(list(r.paths), lines=range_lines(r, encoding_errors))
    fmt = partial(format_annotation, errant_noop=errant_noop,
                  dialect=annotator.language.m2_dialect)
    try:
        done = list(annotator.annotate_stream(items, transform=fmt, **stream))
    except AnnotationError as exc:
        line = None if exc.index is None else r.first + exc.index
        raise InputError(f"annotation failed: {exc.reason} (use --on-error skip to write a noop "
                         "block and continue)", line=line) from None
    return join(done, r.first, r.paths[1:], stream.get("on_error", "fail"))


def parallel_to_m2_ranges(annotator: Annotator, paths: Sequence[PathLike], sink: _Sink,
                          jobs: int, *, batch_size: int = 256, errant_noop: bool = False,
                          encoding_errors: str = "strict",
                          progress: Callable[[int], None] | None = None,
                          **stream: Any) -> None:
    """Annotate parallel files (``paths[0]`` the original) with ``jobs`` forked workers that
    read and format their own ranges; the joined text goes into ``sink`` in order (after the
    ``sink.done`` items an earlier run wrote)."""
    from .stream import worker_map

    n = check_line_counts(paths)
    ranges = cut(paths, range_sizes(max(0, n - sink.done), jobs, batch_size), sink.done)
    if progress and sink.done:
        progress(sink.done)

    def work(r: LineRange) -> Joined:
        return annotate_range(annotator, r, errant_noop=errant_noop,
                              encoding_errors=encoding_errors, batch_size=batch_size, **stream)

    def describe(task: tuple[LineRange]) -> str:
        r = task[0]
        return f"lines {r.first}-{r.first + r.count - 1}"

    for joined in worker_map(annotator, work, ((r,) for r in ranges), jobs, describe):
        sink.put_joined(joined)
        if progress:
            progress(joined.blocks)
