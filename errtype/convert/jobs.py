"""Annotation jobs: an input read as items, annotated in order and written as M2, one block per
item, atomically or resumably.

A producer (:func:`errtype.convert.parallel_to_m2`, ``para_to_m2``, ``conllu_to_m2``) only
describes its input as a :class:`Job` (its kind, the files a resumed run must find unchanged,
and a reader of ``(line, item)`` pairs) and hands it to :func:`run_job` with the one
:class:`~errtype.convert.options.JobOptions` of the run. :func:`run_job` does the rest for every
kind alike: the sink (:func:`errtype.convert.output.m2_sink`) and the resumable job's identity,
skipping what an interrupted run wrote, progress, annotation
(:meth:`errtype.Annotator.annotate_stream`, forked workers with ``jobs > 1``), formatting in the
workers, and errors naming file and line.

A new kind of input is one producer function: read the input as ``(line, item)`` pairs after the
first ``skip`` items (an item is ``(orig, [cor, ...])`` strings or Sentences; ``line`` is what
errors and the report name), then ``run_job(annotator, Job("kind", [files], read, path=file),
out, resolve(options, overrides), progress)``. A kind whose blocks are not one annotation each
passes ``fmt`` (called in the workers with ``errant_noop=`` and ``dialect=``, returning a
:class:`~errtype.convert.output.Formatted`). A kind whose items are not annotated by
:meth:`~errtype.Annotator.annotate_stream` at all (essays: :mod:`errtype.convert.essays`) passes
``annotate``: items in, one :class:`~errtype.convert.output.Formatted` per item out, in order.
New options are fields of :class:`~errtype.convert.options.JobOptions`, set once in
:func:`errtype.cli.m2.job_options`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from .. import m2
from ..errors import AnnotationError, InputError
from ..m2 import M2Edit
from .options import JobOptions
from .output import Formatted, Joined, PathLike, Report, _Sink, job_identity, m2_sink

if TYPE_CHECKING:
    from ..annotator import Annotator
    from ..records import Annotation, Item

__all__ = ["Job", "checked", "format_annotation", "job_sink", "join", "run_job",
           "write_m2_stream"]

#: ``formatter(annotation, item, errant_noop=..., dialect=...)``: an item's M2 block
Formatter = Callable[..., Formatted]
#: ``annotate(items)``: each item's :class:`Formatted` block(s), in order
Annotate = Callable[[Iterable[Any]], Iterator[Formatted]]


def format_annotation(ann: Annotation, item: Item, errant_noop: bool = False,
                      dialect: str = "standard") -> Formatted:
    """The M2 block of one streamed item (:func:`errtype.m2.annotation_block`, corrections as
    the text had them; ``dialect="cherrant"``: :func:`errtype.m2.cherrant_block`); a skipped
    item is a noop block carrying its reason.

    ``errant_noop`` switches on ERRANT's noop rule: noop only when the raw correction equals the
    rendered original, and no line at all for zero edits. A correction that would read back as
    something else (:func:`errtype.m2.unwritable`) gives a noop block with ``refused`` set.
    """
    if dialect == "cherrant":
        cblock = m2.cherrant_block(ann)
        noops = 0 if ann.error is not None else sum(e.is_noop for e in cblock.edits)
        return Formatted(cblock.to_m2(), noops, ann.error)
    raw = [c if isinstance(c, str) else c.span_text(0, len(c)) for c in item[1]] \
        if errant_noop else None
    block = m2.annotation_block(ann, source_text=True, errant_noop=raw)
    if ann.error is not None:
        return Formatted(block.to_m2(), 0, ann.error)
    for e in block.edits:
        why = None if e.is_noop else m2.unwritable(e.cor)
        if why is not None:
            noops = m2.M2Block(block.source, [M2Edit.noop(i) for i in range(len(ann.cors))])
            return Formatted(noops.to_m2(), 0, f"the correction {why}, which cannot be written "
                             "in an edit line", e.annotator)
    return Formatted(block.to_m2(), sum(e.is_noop for e in block.edits))


def checked(result: Formatted, line: int, cor_paths: Sequence[PathLike] | None,
            on_error: str) -> Formatted:
    """``result`` of input ``line``; if M2 cannot express a correction, an :class:`InputError`
    naming its file, or with ``on_error="skip"`` the noop block with the file in its reason."""
    if result.refused is None:
        return result
    path = None if cor_paths is None else str(cor_paths[result.refused])
    if on_error != "skip":
        raise InputError(f"{result.skipped} (use --on-error skip to write a noop block and "
                         "continue)", path=path, line=line)
    return result if path is None else replace(result, skipped=f"{path}: {result.skipped}")


def join(results: Iterable[Formatted], first: int, cor_paths: Sequence[PathLike] | None,
         on_error: str) -> Joined:
    """The formatted items of lines ``first, first + 1, ...`` as one :class:`Joined` (a
    correction M2 cannot express: :func:`checked`)."""
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


def formatter(annotator: Annotator, options: JobOptions,
              fmt: Formatter | None = None) -> Callable[[Annotation, Item], Formatted]:
    """The transform that formats each item where it was annotated (a worker, with jobs > 1):
    ``fmt`` (default :func:`format_annotation`) in the annotator's M2 dialect."""
    return partial(fmt or format_annotation, errant_noop=options.errant_noop,
                   dialect=annotator.language.m2_dialect)


def failed(exc: AnnotationError, line: int | None) -> InputError:
    """An item that could not be annotated (``on_error="fail"``), as the error of its line."""
    return InputError(f"annotation failed: {exc.reason} (use --on-error skip to write a noop "
                      "block and continue)", line=line)


def write_m2_stream(annotator: Annotator, items: Iterable[Item], sink: _Sink,
                    line_of: Callable[[int], int | None], options: JobOptions, *,
                    cor_paths: Sequence[PathLike] | None = None,
                    fmt: Formatter | None = None,
                    annotate: Annotate | None = None) -> None:
    """Annotate ``items`` as ``options`` say (blocks are formatted in the workers, by ``fmt``,
    default :func:`format_annotation`) and put their M2 blocks into ``sink`` in order.

    ``line_of(k)`` locates item ``k`` (called once per item, in order, and for a failed item);
    ``cor_paths`` name the correction files in errors about a correction M2 cannot express.
    ``annotate``: the step that annotates and formats the items instead of
    :meth:`~errtype.Annotator.annotate_stream` (``fmt`` is then not used).
    """
    stream = annotate(items) if annotate is not None else annotator.annotate_stream(
        items, transform=formatter(annotator, options, fmt), jobs=options.jobs,
        **options.stream())
    try:
        for k, result in enumerate(stream):
            line = line_of(k) or k + 1
            sink.put(line, checked(result, line, cor_paths, options.on_error))
    except AnnotationError as exc:
        raise failed(exc, None if exc.index is None else line_of(exc.index)) from exc


@dataclass(frozen=True)
class Job:
    """One input of :func:`run_job`, as its producer describes it."""

    #: the kind of input ("parallel", "para", "conllu", ...): part of a resumable job's identity
    kind: str
    #: the files a resumed run must find unchanged (size and SHA-256)
    inputs: Sequence[PathLike]
    #: ``read(skip)``: ``(line, item)`` of each item after the first ``skip`` (written by an
    #: interrupted run); ``line`` locates the item in errors and reports
    read: Callable[[int], Iterable[tuple[int, Item]]]
    #: the correction files, named when M2 cannot express a correction (None: none named)
    cor_paths: Sequence[PathLike] | None = None
    #: the file an annotation failure's line is in (None: the error names no file)
    path: PathLike | None = None
    #: an item's M2 block (default :func:`format_annotation`), called where it was annotated
    fmt: Formatter | None = None
    #: the items' annotation and formatting, instead of ``annotate_stream`` and ``fmt``
    annotate: Annotate | None = None


@contextlib.contextmanager
def job_sink(annotator: Annotator, job: Job, out: PathLike, options: JobOptions,
             report: Report, step: int | None = None) -> Iterator[_Sink]:
    """``out`` for ``job``: written atomically, or with ``options.resume`` resumably under the
    job's identity (kind, inputs, :meth:`JobOptions.identity`, model), checkpointed every
    ``step`` items (default: the batch size)."""
    identity = job_identity(annotator, job.inputs, job.kind, **options.identity()) \
        if options.resume else None
    with m2_sink(out, report, identity, step or options.batch_size) as sink:
        yield sink


def run_job(annotator: Annotator, job: Job, out: PathLike, options: JobOptions,
            progress: Callable[[int], None] | None = None) -> Report:
    """Annotate ``job``'s items as ``options`` say and write their M2 blocks to ``out`` in input
    order, one per item (atomically; with ``options.resume``, resumably after what an
    interrupted run of the same job wrote). ``progress(n)``: ``n`` more items read."""
    report = Report()
    lines: dict[int, int] = {}  # item index -> its line (items in flight only)

    def items(skip: int) -> Iterator[Item]:
        if progress and skip:
            progress(skip)
        for k, (line, item) in enumerate(job.read(skip)):
            lines[k] = line
            yield item
            if progress:
                progress(1)

    try:
        with job_sink(annotator, job, out, options, report) as sink:
            write_m2_stream(annotator, items(sink.done), sink, lines.pop, options,
                            cor_paths=job.cor_paths, fmt=job.fmt, annotate=job.annotate)
    except InputError as exc:
        if job.path is not None and exc.path is None and exc.line is not None:
            raise InputError(exc.reason, path=str(job.path), line=exc.line) from exc.__cause__
        raise
    return report
