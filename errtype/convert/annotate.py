"""Producers of M2: parallel text, ChERRANT's parallel format or pre-parsed CoNLL-U, one block per
input sentence. Each describes its input as a :class:`~errtype.convert.jobs.Job` and runs it with
:func:`~errtype.convert.jobs.run_job` under the caller's one
:class:`~errtype.convert.options.JobOptions` (keyword arguments, the option names, replace its
fields for Python callers)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from .. import m2
from ..errors import InputError
from .jobs import Job, run_job
from .options import JobOptions, resolve
from .output import PathLike, Report
from .ranges import parallel_job, parallel_to_m2_ranges

if TYPE_CHECKING:
    from ..annotator import Annotator

Progress = Callable[[int], None] | None


def parallel_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike],
                   out: PathLike, options: JobOptions | None = None, *,
                   progress: Progress = None, **overrides: Any) -> Report:
    """Annotate parallel files (one sentence per line) and write M2 to ``out`` atomically.

    ``options`` (default :class:`JobOptions`'s), its fields replaced by ``overrides`` (``lev``,
    ``merging``, ``tokenize``, ``jobs``, ``resume`` ...). Every input line gives one block (an
    empty original gives ``S`` with no tokens); an annotator whose correction is token-identical
    to the original gets a noop line, and so does one whose correction yields no edit.
    ``errant_noop=True`` restores ERRANT's rule instead (noop only for a raw-text match; no line
    at all for a whitespace-only difference). Annotation runs through
    :meth:`Annotator.annotate_stream`; with ``jobs > 1`` forked workers read, annotate and format
    line ranges of the files themselves (:mod:`errtype.convert.ranges`) and this process only
    joins their text in order.

    An edit whose correction M2 cannot express (it contains ``|||`` or ``||``, or is
    ``-NONE-``: :func:`errtype.m2.unwritable`) raises :class:`InputError` naming the correction
    file and line (``on_error="skip"``: a reported noop block).
    ``encoding_errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising.
    ``resume=True`` writes ``out`` resumably and continues an interrupted run of the same job
    (:mod:`errtype.convert.checkpoint`).
    """
    options = resolve(options, overrides)
    job = parallel_job([orig, *cors], options.encoding_errors)
    if options.jobs > 1 and all(os.path.isfile(p) for p in job.inputs):  # workers read lines
        return parallel_to_m2_ranges(annotator, job, out, options, progress)
    return run_job(annotator, job, out, options, progress)


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


def para_to_m2(annotator: Annotator, para: PathLike, out: PathLike,
               options: JobOptions | None = None, *, progress: Progress = None,
               **overrides: Any) -> Report:
    """Annotate a ChERRANT parallel file (:func:`read_para`) and write M2 in the language's
    dialect (ChERRANT's for Chinese: one ``T{i}-A{j}`` group per reference ``i`` and equal-cost
    edit sequence ``j``), one block per line, atomically or resumably; the references are
    annotators 0, 1, ... of their line. A reference of whitespace only is written as the
    dialect writes an unchanged reference (ChERRANT's ``T{i} 没有错误`` and a noop line; a noop
    line), never left out: the annotators after it keep their ids. ``options`` and
    ``overrides``: as :func:`parallel_to_m2`."""
    options = resolve(options, overrides)
    unchanged = m2.CHERRANT_NOOP if annotator.language.m2_dialect == "cherrant" else None

    def read(skip: int) -> Iterator[tuple[int, tuple[str, list[str]]]]:
        for line, source, refs in islice(read_para(para, options.encoding_errors), skip, None):
            yield line, (source, [r if r.strip() else unchanged or source for r in refs])

    return run_job(annotator, Job("para", [para], read, path=para), out, options, progress)


def conllu_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike], out: PathLike,
                 options: JobOptions | None = None, *, progress: Progress = None,
                 **overrides: Any) -> Report:
    """Annotate pre-parsed parallel CoNLL-U files (sentence k of each file is one item) and write
    M2 to ``out`` atomically (or resumably), as :func:`parallel_to_m2` but parsing nothing. The
    files must have the same number of sentences (:class:`~errtype.errors.LineCountError`
    otherwise); an item is reported by the line where its sentence starts in ``orig``.
    """
    from ..parse.conllu import check_sentence_counts, read_conllu

    options = resolve(options, overrides)
    paths = [orig, *cors]
    check_sentence_counts(paths)

    def read(skip: int) -> Iterator[tuple[int, tuple[Any, list[Any]]]]:
        readers = [read_conllu(p, options.encoding_errors) for p in paths]
        for parts in islice(zip(*readers, strict=True), skip, None):
            yield parts[0][0], (parts[0][1], [s for _, s in parts[1:]])

    job = Job("conllu", paths, read, cor_paths=list(cors), path=orig)
    return run_job(annotator, job, out, options, progress)
