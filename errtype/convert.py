"""Corpus-level conversions: parallel text -> M2, and re-annotation of an existing M2 file.

Both stream their input, write exactly one M2 block per input sentence in input order, and write
the output atomically. They return a :class:`Report` (nothing is printed here).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from .annotator import Annotator
from .edit import NOOP, Edit, noop_m2
from .errors import InputError
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


@dataclass
class _Item:
    line: int
    orig: str
    cors: list[str]
    skip_reason: str | None = None


def _parse_batch(annotator: Annotator, items: Sequence[_Item], tokenize: bool
                 ) -> list[list[Sentence] | Exception]:
    """Parse every text of a batch; an item whose parsing fails gets its exception instead."""
    texts = [t for it in items for t in (it.orig, *it.cors)]
    try:
        flat = list(annotator.parser.parse_many(texts, tokenize))
    except Exception:  # isolate the failing item
        results: list[list[Sentence] | Exception] = []
        for it in items:
            try:
                results.append([annotator.parse(t, tokenize) for t in (it.orig, *it.cors)])
            except Exception as exc:  # noqa: BLE001 - reported to the caller per item
                results.append(exc)
        return results
    out: list[list[Sentence] | Exception] = []
    k = 0
    for it in items:
        n = 1 + len(it.cors)
        out.append(flat[k:k + n])
        k += n
    return out


def _noop_block(source: str, n_cors: int) -> str:
    return format_block(source, [noop_m2(i) for i in range(n_cors)])


def annotate_items(annotator: Annotator, items: Iterable[_Item], report: Report, *,
                   tokenize: bool = False, lev: bool = False, merging: str = "rules",
                   on_error: str = "fail", batch_size: int = 256,
                   errant_noop: bool = False) -> Iterator[str]:
    """M2 blocks for parallel items, in order (see :func:`parallel_to_m2`)."""
    it = iter(items)
    while batch := list(islice(it, batch_size)):
        todo = [x for x in batch if x.skip_reason is None]
        parsed = dict(zip((id(x) for x in todo), _parse_batch(annotator, todo, tokenize),
                          strict=True))
        for item in batch:
            block = None
            result = parsed.get(id(item))
            reason = item.skip_reason
            if result is not None and not isinstance(result, Exception):
                try:
                    block = _annotated_block(annotator, result, report, lev, merging,
                                             item.cors if errant_noop else None)
                except Exception as exc:  # noqa: BLE001
                    if on_error != "skip":
                        raise _located(exc, item.line) from exc
                    reason = f"{type(exc).__name__}: {exc}"
            elif isinstance(result, Exception):
                if on_error != "skip":
                    raise _located(result, item.line) from result
                reason = f"{type(result).__name__}: {result}"
            if block is None:
                report.skipped.append((item.line, reason or "skipped"))
                block = _noop_block(" ".join(item.orig.split()), len(item.cors))
            report.blocks += 1
            yield block


def _located(exc: Exception, line: int) -> Exception:
    from .errors import ErrtypeError

    if isinstance(exc, ErrtypeError):
        return exc
    return InputError(f"annotation failed: {type(exc).__name__}: {exc} "
                      "(use --on-error skip to write a noop block and continue)", line=line)


def _annotated_block(annotator: Annotator, sents: list[Sentence], report: Report, lev: bool,
                     merging: str, errant_raw: list[str] | None = None) -> str:
    """One block. ``errant_raw`` (the raw corrections) switches on ERRANT's noop rule: noop only
    when the raw correction equals the rendered original, and no line at all for zero edits."""
    orig, cors = sents[0], sents[1:]
    lines: list[str] = []
    for i, cor in enumerate(cors):
        if errant_raw is not None:
            if orig.span_text(0, len(orig)).strip() == errant_raw[i]:
                report.noops += 1
                lines.append(noop_m2(i))
            else:
                lines.extend(e.to_m2(i) for e in annotator.annotate(orig, cor, lev, merging))
            continue
        edits = [] if orig.texts == cor.texts else annotator.annotate(orig, cor, lev, merging)
        if not edits:
            report.noops += 1
        lines.extend(edits_to_m2_lines(edits, i))
    return format_block(orig.text, lines)


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
    only for a raw-text match; no line at all for a whitespace-only difference). ``jobs > 1``
    annotates batches in worker processes (forked, so they share the loaded models); the output
    is identical and in input order, and at most ``2 * jobs`` batches are in flight.

    A correction containing the M2 field separator ``|||`` cannot be written as an edit: it raises
    :class:`InputError` naming the file and line (``on_error="skip"``: a reported noop block).
    ``encoding_errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising.
    """
    report = Report()
    paths = [orig, *cors]

    def items() -> Iterator[_Item]:
        for number, texts in read_parallel(paths, errors=encoding_errors):
            o, cs = texts[0].strip(), [t.strip() for t in texts[1:]]
            item = _Item(number, o, cs)
            bad = next((k for k, t in enumerate(cs) if SEP in t), None)
            if bad is not None:
                reason = (f"the correction contains the M2 field separator '{SEP}', "
                          "which cannot be written in an edit line")
                if on_error != "skip":
                    raise InputError(reason + " (use --on-error skip to write a noop block "
                                     "and continue)", path=str(cors[bad]), line=number)
                item.skip_reason = f"{cors[bad]}: {reason}"
            elif max_tokens is not None and max(len(t.split()) for t in texts) > max_tokens:
                item.skip_reason = f"more than --max-tokens {max_tokens} tokens"
            yield item
            if progress:
                progress(1)

    options = {"tokenize": tokenize, "lev": lev, "merging": merging, "on_error": on_error,
               "batch_size": batch_size, "errant_noop": errant_noop}
    if jobs > 1:
        blocks = _annotate_in_workers(annotator, items(), report, jobs, options)
    else:
        blocks = annotate_items(annotator, items(), report, **options)
    with atomic_output(out) as fh:
        for block in blocks:
            fh.write(block)
    return report


_WORKER: dict[str, Annotator] = {}


def _work(items: list[_Item], options: dict) -> tuple[list[str], Report]:
    report = Report()
    blocks = list(annotate_items(_WORKER["annotator"], items, report, **options))
    return blocks, report


def _annotate_in_workers(annotator: Annotator, items: Iterable[_Item], report: Report,
                         jobs: int, options: dict) -> Iterator[str]:
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError as exc:  # pragma: no cover - platforms without fork
        raise ValueError("--jobs needs the 'fork' start method (Linux/macOS)") from exc
    _WORKER["annotator"] = annotator  # inherited by the forked workers
    it = iter(items)
    size = options["batch_size"]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        pending: deque = deque()
        try:
            while True:
                while len(pending) < 2 * jobs and (batch := list(islice(it, size))):
                    pending.append(pool.submit(_work, batch, options))
                if not pending:
                    break
                blocks, part = pending.popleft().result()
                report.blocks += part.blocks
                report.noops += part.noops
                report.skipped.extend(part.skipped)
                yield from blocks
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    _WORKER.clear()


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
