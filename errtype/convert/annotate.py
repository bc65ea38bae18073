"""Producers of M2: parallel text or pre-parsed CoNLL-U, annotated in order (worker processes,
resumable), one block per input sentence."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from itertools import islice
from typing import Any

from .. import m2
from ..annotator import Annotator
from ..errors import AnnotationError, InputError
from ..m2 import M2Edit
from ..merge import MAX_RULE_RUN
from ..records import Annotation, Item
from ..textio import read_parallel
from ..tokens import Sentence
from .output import Formatted, PathLike, Report, _Sink, job_identity, m2_sink


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


def write_m2_stream(annotator: Annotator, items: Iterable[Item], sink: _Sink,
                    line_of: Callable[[int], int | None], *, errant_noop: bool = False,
                    cor_paths: Sequence[PathLike] | None = None, **stream: Any) -> None:
    """Annotate ``items`` (:meth:`Annotator.annotate_stream` keyword arguments in ``stream``;
    blocks are formatted in the workers) and put their M2 blocks into ``sink`` in order.

    ``line_of(k)`` locates item ``k`` (called once per item, in order, and for a failed item);
    ``cor_paths`` name the correction files in errors about a correction M2 cannot express.
    """
    fmt = partial(format_annotation, errant_noop=errant_noop,
                  dialect=annotator.language.m2_dialect)
    on_error = stream.get("on_error", "fail")
    try:
        for k, result in enumerate(annotator.annotate_stream(items, transform=fmt, **stream)):
            line = line_of(k) or k + 1
            sink.put(line, checked(result, line, cor_paths, on_error))
    except AnnotationError as exc:
        line = None if exc.index is None else line_of(exc.index)
        raise InputError(f"annotation failed: {exc.reason} (use --on-error skip to write a noop "
                         "block and continue)", line=line) from exc


def parallel_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike],
                   out: PathLike, *, tokenize: bool = False, lev: bool = False,
                   merging: str = "rules", on_error: str = "fail", max_tokens: int | None = None,
                   progress: Callable[[int], None] | None = None, batch_size: int = 256,
                   errant_noop: bool = False, jobs: int = 1,
                   encoding_errors: str = "strict", merge_run_limit: int = MAX_RULE_RUN,
                   resume: bool = False) -> Report:
    """Annotate parallel files (one sentence per line) and write M2 to ``out`` atomically.

    Every input line gives one block (an empty original gives ``S`` with no tokens); an
    annotator whose correction is token-identical to the original gets a noop line, and so does
    one whose correction yields no edit. ``errant_noop=True`` restores ERRANT's rule instead (noop
    only for a raw-text match; no line at all for a whitespace-only difference). Annotation runs
    through :meth:`Annotator.annotate_stream`; with ``jobs > 1`` forked workers read, annotate
    and format line ranges of the files themselves (:mod:`errtype.ranges`) and this process
    only joins their text in order.

    An edit whose correction M2 cannot express (it contains ``|||`` or ``||``, or is
    ``-NONE-``: :func:`errtype.m2.unwritable`) raises :class:`InputError` naming the correction
    file and line (``on_error="skip"``: a reported noop block).
    ``encoding_errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising.
    ``resume=True`` writes ``out`` resumably and continues an interrupted run of the same job
    (:mod:`errtype.checkpoint`).
    """
    report = Report()
    paths = [orig, *cors]
    options = dict(lev=lev, merging=merging, tokenize=tokenize, batch_size=batch_size,
                   on_error=on_error, max_tokens=max_tokens, merge_run_limit=merge_run_limit)
    identity = job_identity(annotator, paths, mode="parallel", errant_noop=errant_noop,
                            encoding_errors=encoding_errors, **options) if resume else None
    with m2_sink(out, report, identity, batch_size) as sink:
        if jobs > 1 and all(os.path.isfile(p) for p in paths):  # workers read their own lines
            from ..ranges import parallel_to_m2_ranges

            parallel_to_m2_ranges(annotator, paths, sink, jobs, errant_noop=errant_noop,
                                  encoding_errors=encoding_errors, progress=progress, **options)
            return report
        items = parallel_items(paths, encoding_errors, progress, skip=sink.done)
        write_m2_stream(annotator, items, sink, lambda k: sink.done + k + 1,
                        errant_noop=errant_noop, cor_paths=cors, jobs=jobs, **options)
    return report


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


PARA_FORMAT = "id<TAB>source[<TAB>reference ...]"


def read_para(path: PathLike, encoding_errors: str = "strict"
              ) -> Iterator[tuple[int, str, list[str]]]:
    """``(line, source, references)`` of each line of a ChERRANT parallel file
    (``id<TAB>source<TAB>reference 1<TAB>reference 2 ...``; the id is not used).

    A line may have any number of references, none included; an empty reference field (a
    trailing tab) is no reference, and the others keep their order. A reference of whitespace
    only is a reference (its annotator keeps its place; :func:`para_to_m2` writes it as
    unchanged). Blank lines before the
    first and after the last line are ignored (ChERRANT strips the file); a blank line between
    two lines, or a line without a tab, is an :class:`InputError` naming file and line.
    """
    from ..textio import read_text_lines

    started = False
    blank: int | None = None  # the first blank line since the last line read
    for number, text, _ in read_text_lines(path, str(path), encoding_errors):
        if not text.strip():
            if started and blank is None:
                blank = number
            continue
        if blank is not None:
            raise InputError(f"blank line between two lines of a parallel file ({PARA_FORMAT} "
                             "on every line)", path=str(path), line=blank)
        started = True
        fields = text.split("\t")
        if len(fields) < 2:
            raise InputError(f"expected {PARA_FORMAT}, found no tab", path=str(path),
                             line=number)
        yield number, fields[1], [r for r in fields[2:] if r]


def para_to_m2(annotator: Annotator, para: PathLike, out: PathLike, *, lev: bool = False,
               merging: str = "rules", on_error: str = "fail", max_tokens: int | None = None,
               progress: Callable[[int], None] | None = None, batch_size: int = 256,
               jobs: int = 1, encoding_errors: str = "strict",
               merge_run_limit: int = MAX_RULE_RUN, resume: bool = False) -> Report:
    """Annotate a ChERRANT parallel file (:func:`read_para`) and write M2 in the language's
    dialect (ChERRANT's for Chinese: one ``T{i}-A{j}`` group per reference ``i`` and equal-cost
    edit sequence ``j``), one block per line, atomically or resumably; the references are
    annotators 0, 1, ... of their line. A reference of whitespace only is written as the
    dialect writes an unchanged reference (ChERRANT's ``T{i} 没有错误`` and a noop line; a noop
    line), never left out: the annotators after it keep their ids."""
    report = Report()
    unchanged = m2.CHERRANT_NOOP if annotator.language.m2_dialect == "cherrant" else None
    starts: dict[int, int] = {}
    options = dict(lev=lev, merging=merging, batch_size=batch_size, on_error=on_error,
                   max_tokens=max_tokens, merge_run_limit=merge_run_limit)
    identity = job_identity(annotator, [para], mode="para", encoding_errors=encoding_errors,
                            **options) if resume else None

    def items(skip: int) -> Iterator[tuple[str, list[str]]]:
        lines = read_para(para, encoding_errors)
        for _ in islice(lines, skip):
            pass
        if progress and skip:
            progress(skip)
        for k, (line, source, refs) in enumerate(lines):
            starts[k] = line
            yield source, [r if r.strip() else unchanged or source for r in refs]
            if progress:
                progress(1)

    try:
        with m2_sink(out, report, identity, batch_size) as sink:
            write_m2_stream(annotator, items(sink.done), sink, starts.pop, jobs=jobs, **options)
    except InputError as exc:
        if exc.path is None and exc.line is not None:  # an annotation failure: name the file
            raise InputError(exc.reason, path=str(para), line=exc.line) from exc.__cause__
        raise
    return report


def conllu_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike], out: PathLike,
                 *, lev: bool = False, merging: str = "rules", on_error: str = "fail",
                 max_tokens: int | None = None, progress: Callable[[int], None] | None = None,
                 batch_size: int = 256, errant_noop: bool = False, jobs: int = 1,
                 encoding_errors: str = "strict", merge_run_limit: int = MAX_RULE_RUN,
                 resume: bool = False) -> Report:
    """Annotate pre-parsed parallel CoNLL-U files (sentence k of each file is one item) and write
    M2 to ``out`` atomically (or resumably), as :func:`parallel_to_m2` but parsing nothing. The
    files must have the same number of sentences (:class:`~errtype.errors.LineCountError`
    otherwise); an item is reported by the line where its sentence starts in ``orig``.
    """
    from ..parse.conllu import check_sentence_counts, read_conllu

    paths = [orig, *cors]
    check_sentence_counts(paths)
    report = Report()
    starts: dict[int, int] = {}  # item index -> first line in ``orig`` (items in flight only)
    options = dict(lev=lev, merging=merging, batch_size=batch_size, on_error=on_error,
                   max_tokens=max_tokens, merge_run_limit=merge_run_limit)
    identity = job_identity(annotator, paths, mode="conllu", errant_noop=errant_noop,
                            encoding_errors=encoding_errors, **options) if resume else None

    def items(skip: int) -> Iterator[tuple[Sentence, list[Sentence]]]:
        readers = [read_conllu(p, encoding_errors) for p in paths]
        sentences = zip(*readers, strict=True)
        for _ in islice(sentences, skip):
            pass
        if progress and skip:
            progress(skip)
        for k, parts in enumerate(sentences):
            starts[k] = parts[0][0]
            yield parts[0][1], [s for _, s in parts[1:]]
            if progress:
                progress(1)

    try:
        with m2_sink(out, report, identity, batch_size) as sink:
            write_m2_stream(annotator, items(sink.done), sink, starts.pop,
                            errant_noop=errant_noop, cor_paths=cors, jobs=jobs, **options)
    except InputError as exc:
        if exc.path is None and exc.line is not None:  # an annotation failure: name the file
            raise InputError(exc.reason, path=str(orig), line=exc.line) from exc.__cause__
        raise
    return report


