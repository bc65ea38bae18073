"""Corpus-level conversions: parallel text or CoNLL-U -> M2, and re-annotation of an M2 file.

All stream their input, write exactly one M2 block per input sentence in input order, and write
the output atomically. They return a :class:`Report` (nothing is printed here).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .annotator import Annotation, Annotator, Item
from .edit import NOOP, Edit, noop_m2
from .errors import AnnotationError, InputError
from .m2 import SEP, M2Block, M2Edit, edits_to_m2_lines, format_block, read_m2
from .textio import _open_binary, atomic_output, count_lines, read_parallel
from .tokens import Sentence

PathLike = str | os.PathLike[str]


@dataclass
class Report:
    """What a conversion did: blocks written, noops, and every skipped sentence with its reason."""

    blocks: int = 0
    noops: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        text = f"{self.blocks} sentences written, {self.noops} noop annotations"
        if self.skipped:
            text += f", {len(self.skipped)} sentences skipped (written as noop blocks)"
        return text


def _noop_block(source: str, n_cors: int) -> str:
    return format_block(source, [noop_m2(i) for i in range(n_cors)])


@dataclass(frozen=True)
class Formatted:
    """One item's M2 block and what the :class:`Report` counts of it."""

    block: str
    noops: int = 0
    skipped: str | None = None


def format_annotation(ann: Annotation, item: Item, errant_noop: bool = False) -> Formatted:
    """The M2 block of one streamed item; a skipped item is a noop block carrying its reason.

    ``errant_noop`` switches on ERRANT's noop rule: noop only when the raw correction equals the
    rendered original, and no line at all for zero edits.
    """
    if ann.error is not None:
        return Formatted(_noop_block(ann.orig.text, len(ann.cors)), 0, ann.error)
    orig = ann.orig
    lines: list[str] = []
    noops = 0
    raw = [c if isinstance(c, str) else c.span_text(0, len(c)) for c in item[1]] \
        if errant_noop else []
    for i, edits in enumerate(ann.edits):
        if errant_noop:
            if orig.span_text(0, len(orig)).strip() == raw[i]:
                noops += 1
                lines.append(noop_m2(i))
            else:
                lines.extend(e.to_m2(i) for e in edits)
            continue
        noops += not edits
        lines.extend(edits_to_m2_lines(edits, i))
    return Formatted(format_block(orig.text, lines), noops)


def write_m2_stream(annotator: Annotator, items: Iterable[Item], out: PathLike, report: Report,
                    line_of: Callable[[int], int | None], *, errant_noop: bool = False,
                    replace: dict[int, Formatted] | None = None, **stream: Any) -> None:
    """Annotate ``items`` (:meth:`Annotator.annotate_stream` keyword arguments in ``stream``;
    blocks are formatted in the workers) and write their M2 blocks to ``out`` atomically.

    ``line_of(k)`` locates item ``k`` (called once per item, in order, and for a failed item);
    ``replace`` maps item indices
    to blocks written instead of the annotation (entries are removed as they are used).
    """
    fmt = partial(format_annotation, errant_noop=errant_noop)
    replace = {} if replace is None else replace
    try:
        with atomic_output(out) as fh:
            for k, result in enumerate(annotator.annotate_stream(items, transform=fmt, **stream)):
                result = replace.pop(k, result)
                line = line_of(k)
                report.blocks += 1
                report.noops += result.noops
                if result.skipped is not None:
                    report.skipped.append((line or k + 1, result.skipped))
                fh.write(result.block)
    except AnnotationError as exc:
        line = None if exc.index is None else line_of(exc.index)
        raise InputError(f"annotation failed: {exc.reason} (use --on-error skip to write a noop "
                         "block and continue)", line=line) from exc


def parallel_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike],
                   out: PathLike, *, tokenize: bool = False, lev: bool = False,
                   merging: str = "rules", on_error: str = "fail", max_tokens: int | None = None,
                   progress: Callable[[int], None] | None = None, batch_size: int = 256,
                   errant_noop: bool = False, jobs: int = 1,
                   encoding_errors: str = "strict") -> Report:
    """Annotate parallel files (one sentence per line) and write M2 to ``out`` atomically.

    Every input line gives one block (an empty original gives ``S`` with no tokens); an
    annotator whose correction is token-identical to the original gets a noop line, and so does
    one whose correction yields no edit. ``errant_noop=True`` restores ERRANT's rule instead (noop
    only for a raw-text match; no line at all for a whitespace-only difference). Annotation runs
    through :meth:`Annotator.annotate_stream` (``jobs`` worker processes, ordered, bounded).

    A correction containing the M2 field separator ``|||`` cannot be written as an edit: it raises
    :class:`InputError` naming the file and line (``on_error="skip"``: a reported noop block).
    ``encoding_errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising.
    """
    report = Report()
    unwritable: dict[int, Formatted] = {}
    items = parallel_items([orig, *cors], on_error, unwritable, encoding_errors, progress)
    write_m2_stream(annotator, items, out, report, lambda k: k + 1, errant_noop=errant_noop,
                    replace=unwritable, lev=lev, merging=merging, tokenize=tokenize,
                    batch_size=batch_size, jobs=jobs, on_error=on_error, max_tokens=max_tokens)
    return report


def parallel_items(paths: Sequence[PathLike], on_error: str, unwritable: dict[int, Formatted],
                   encoding_errors: str = "strict",
                   progress: Callable[[int], None] | None = None, *, first: int = 0,
                   lines: Iterable[tuple[int, list[str]]] | None = None
                   ) -> Iterator[tuple[str, list[str]]]:
    """Items ``(orig, [cor, ...])`` of parallel files (``paths[0]`` the original), stripped.

    A correction holding the M2 separator raises :class:`InputError`, or with
    ``on_error="skip"`` records the noop block to write in ``unwritable`` (item index from
    ``first``). ``lines`` gives the numbered lines when they are read some other way.
    """
    numbered = read_parallel(paths, errors=encoding_errors) if lines is None else lines
    for k, (number, texts) in enumerate(numbered, first):
        o, cs = texts[0].strip(), [t.strip() for t in texts[1:]]
        bad = next((i for i, t in enumerate(cs) if SEP in t), None)
        if bad is not None:
            reason = (f"the correction contains the M2 field separator '{SEP}', "
                      "which cannot be written in an edit line")
            if on_error != "skip":
                raise InputError(reason + " (use --on-error skip to write a noop block "
                                 "and continue)", path=str(paths[1 + bad]), line=number)
            unwritable[k] = Formatted(_noop_block(" ".join(o.split()), len(cs)), 0,
                                      f"{paths[1 + bad]}: {reason}")
        yield o, cs
        if progress:
            progress(1)


def conllu_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike], out: PathLike,
                 *, lev: bool = False, merging: str = "rules", on_error: str = "fail",
                 max_tokens: int | None = None, progress: Callable[[int], None] | None = None,
                 batch_size: int = 256, errant_noop: bool = False, jobs: int = 1,
                 encoding_errors: str = "strict") -> Report:
    """Annotate pre-parsed parallel CoNLL-U files (sentence k of each file is one item) and write
    M2 to ``out`` atomically, as :func:`parallel_to_m2` but parsing nothing. The files must have
    the same number of sentences (:class:`~errtype.errors.LineCountError` otherwise); an item is
    reported by the line where its sentence starts in ``orig``.
    """
    from .parse.conllu import check_sentence_counts, read_conllu

    paths = [orig, *cors]
    check_sentence_counts(paths)
    report = Report()
    starts: dict[int, int] = {}  # item index -> first line in ``orig`` (items in flight only)

    def items() -> Iterator[tuple[Sentence, list[Sentence]]]:
        readers = [read_conllu(p, encoding_errors) for p in paths]
        for k, parts in enumerate(zip(*readers, strict=True)):
            starts[k] = parts[0][0]
            yield parts[0][1], [s for _, s in parts[1:]]
            if progress:
                progress(1)

    try:
        write_m2_stream(annotator, items(), out, report, starts.pop, errant_noop=errant_noop,
                        lev=lev, merging=merging, batch_size=batch_size, jobs=jobs,
                        on_error=on_error, max_tokens=max_tokens)
    except InputError as exc:
        if exc.path is None and exc.line is not None:  # an annotation failure: name the file
            raise InputError(exc.reason, path=str(orig), line=exc.line) from exc.__cause__
        raise
    return report


# --- re-annotation of an existing M2 file (errant_m2 -gold / -auto) -------------------------

DETECTION_TYPES = frozenset({"Um", "UNK"})


def _build_correction(tokens: list[str], edits: list[M2Edit]
                      ) -> tuple[list[str], list[tuple[M2Edit, int, int, str | None]]]:
    """Apply gold edits (sorted by span) to the original tokens; detection edits keep the words."""
    cor = list(tokens)
    placed: list[tuple[M2Edit, int, int, str | None]] = []
    offset = 0
    for e in sorted((e for e in edits if e.start >= 0), key=lambda e: (e.start, e.end)):
        pseudo = None
        if e.type in DETECTION_TYPES:
            pseudo = e.cor
            new = tokens[e.start:e.end]
        else:
            new = e.cor.split()
        cor[e.start + offset:e.end + offset] = new
        c_start = e.start + offset
        placed.append((e, c_start, c_start + len(new), pseudo))
        offset += len(new) - (e.end - e.start)
    return cor, placed


def reannotate_block(annotator: Annotator, block: M2Block, mode: str = "gold",
                     minimise: bool = True, old_cats: bool = False, lev: bool = False,
                     merging: str = "rules") -> str:
    """Re-type (``gold``) or re-extract (``auto``) the edits of one M2 block."""
    orig = annotator.parse(block.source)
    groups = block.edits_by_annotator()
    lines: list[str] = []
    for ann_id in sorted(groups, key=str):  # ERRANT orders annotator ids as strings
        edits = groups[ann_id]
        if edits[0].type == NOOP:
            lines.append(noop_m2(ann_id))
            continue
        cor_toks, placed = _build_correction(list(orig.texts), edits)
        cor = annotator.parse(" ".join(cor_toks))
        kept: list[Edit] = []
        for e, c_start, c_end, pseudo in placed:
            span = [e.start, e.end, c_start, c_end, e.type]
            if pseudo is not None:
                new = annotator.import_edit(orig, cor, span, min=False, old_cat=old_cats)
                new = Edit(new.o_start, new.o_end, new.c_start, new.c_end, new.o_str,
                           " ".join(pseudo.split()), new.type)
                kept.append(new)
            elif mode == "gold":
                kept.append(annotator.import_edit(orig, cor, span, min=minimise,
                                                  old_cat=old_cats))
        if mode == "auto":
            kept = sorted(kept + annotator.annotate(orig, cor, lev, merging),
                          key=lambda x: (x.o_start, x.o_end))
        lines.extend(edits_to_m2_lines(kept, ann_id))
    return format_block(block.source, lines)


def m2_to_m2(annotator: Annotator, m2_path: PathLike, out: PathLike, mode: str = "gold",
             minimise: bool = True, old_cats: bool = False, lev: bool = False,
             merging: str = "rules", progress: Callable[[int], None] | None = None,
             encoding_errors: str = "strict", on_error: str = "fail") -> Report:
    """Re-annotate every block of an M2 file and write the result atomically.

    A block that cannot be re-annotated stops the run with an error naming its line, or with
    ``on_error="skip"`` is written with a noop line per annotator and reported.
    """
    from .errors import ErrtypeError, InputError

    report = Report()
    with atomic_output(out) as fh:
        for block in read_m2(m2_path, errors=encoding_errors):
            try:
                text = reannotate_block(annotator, block, mode, minimise, old_cats, lev, merging)
            except Exception as exc:  # noqa: BLE001 - located, or skipped and reported
                if on_error != "skip":
                    if isinstance(exc, ErrtypeError):
                        raise
                    raise InputError(f"annotation failed: {type(exc).__name__}: {exc} (use "
                                     "--on-error skip to write a noop block and continue)",
                                     path=str(m2_path), line=block.line) from exc
                report.skipped.append((block.line, f"{type(exc).__name__}: {exc}"))
                text = format_block(block.source,
                                    [noop_m2(a) for a in sorted(block.annotators() or [0],
                                                                key=str)])
            fh.write(text)
            report.blocks += 1
            if progress:
                progress(1)
    return report


def m2_block_count(path: PathLike) -> int | None:
    """Rough count of blocks (S lines) for progress display (None for standard input)."""
    if str(path) == "-":
        return None
    n = 0
    with _open_binary(path) as fh:
        for line in fh:
            n += line.startswith(b"S ")
    return n


__all__ = ["Report", "count_lines", "m2_to_m2", "parallel_to_m2", "reannotate_block"]
