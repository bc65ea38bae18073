"""Re-annotation of an existing M2 file (``errant_m2 -gold`` / ``-auto``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import islice
from typing import Any

from .. import m2
from ..annotator import Annotator
from ..edit import NOOP, Edit
from ..errors import ErrtypeError, InputError, ResourceError
from ..m2 import SEP, M2Block, M2Edit, read_m2
from ..merge import MAX_RULE_RUN
from ..records import too_long
from ..textio import _open_binary
from ..tokens import Sentence
from .options import JobOptions, resolve
from .output import Formatted, PathLike, Report, job_identity, m2_sink

#: blocks per task of a worker process (errtype-m2 -gold/-auto -j N)
M2_CHUNK = 32


def _has_alternatives(e: M2Edit, rules: m2.ApplyRules) -> bool:
    return rules.alternative is not None and m2.ALT in e.cor and e.type not in m2.DETECTION_TYPES


def _retyped(annotator: Annotator, orig: Sentence, cor: Sentence, placed: m2.Placed,
             mode: str, minimise: bool, old_cats: bool, rules: m2.ApplyRules) -> Edit | None:
    """The re-typed edit of one placed gold edit (detection edits in both modes, others in gold)."""
    e = placed.edit
    span = [e.start, e.end, placed.c_start, placed.c_end, e.type]
    if e.type in m2.DETECTION_TYPES:  # not minimised; the pseudo correction is written back
        new = annotator.import_edit(orig, cor, span, min=False, old_cat=old_cats)
        return replace(new, c_str=" ".join(e.cor.split()))
    if mode != "gold":
        return None
    if _has_alternatives(e, rules):  # typed by the alternative used, written verbatim, unminimised
        new = annotator.import_edit(orig, cor, span, min=False, old_cat=old_cats)
        return replace(new, c_str=e.cor)
    return annotator.import_edit(orig, cor, span, min=minimise, old_cat=old_cats)


def reannotate_block(annotator: Annotator, block: M2Block, mode: str = "gold",
                     minimise: bool = True, old_cats: bool = False, lev: bool = False,
                     merging: str = "rules", errant_compat: bool = False,
                     merge_run_limit: int = MAX_RULE_RUN) -> str:
    """Re-type (``gold``) or re-extract (``auto``) the edits of one M2 block.

    Annotators come in ERRANT's order (ids sorted as strings). An annotator whose lines are all
    noops gets one noop line; noop lines beside real edits are ignored. Its correction is built by
    :func:`errtype.m2.apply_edits` with :data:`errtype.m2.GOLD` (``-NONE-`` deletes, the first
    ``a||b`` alternative, an edit overlapping a longer one is left out of the correction) and
    ``gold`` writes the edits in input order. An edit left out of the correction is typed against
    its own context: the original with only that edit applied. An edit with alternatives is typed
    by its first alternative, not minimised, and written with its correction field verbatim.

    ``errant_compat=True`` is ERRANT 3.0.2's ``errant_m2``: :data:`errtype.m2.ERRANT` rules
    (literal corrections, every edit applied in span order), edits written sorted by span, and an
    annotator whose first line is a noop gets only a noop line.
    """
    if block.problems:
        line, message = block.problems[0]
        raise InputError(message, line=line)
    if block.is_cherrant:
        if mode != "gold":
            raise InputError("-auto does not read ChERRANT's M2 dialect: re-extract from the "
                             "parallel text (--para) instead", line=block.line)
        return retype_cherrant_block(annotator, block).to_m2()
    rules = m2.ERRANT if errant_compat else m2.GOLD
    orig = annotator.parse(block.source, False)
    lines: list[str] = []
    for ann_id, edits in sorted(block.edits_by_annotator().items(), key=lambda kv: str(kv[0])):
        real = [e for e in edits if not e.is_noop]
        if not real or (errant_compat and edits[0].type == NOOP):
            lines.append(m2.noop_m2(ann_id))
            continue
        # ERRANT applies a noop line that is not first like an edit (see m2.apply_edits)
        correction = m2.apply_edits(orig.texts, edits if errant_compat else real, rules)
        cor = annotator.parse(correction.text, False)
        placed = correction.placed
        if errant_compat:
            placed = sorted(placed, key=lambda p: (p.edit.start, p.edit.end))
        kept: list[Edit] = []
        for p in placed:
            sent = cor
            if not p.applied:  # overlaps an applied edit: its own minimal corrected context
                own = m2.apply_edits(orig.texts, [p.edit], rules)
                sent, p = annotator.parse(own.text, False), own.placed[0]
            new = _retyped(annotator, orig, sent, p, mode, minimise, old_cats, rules)
            if new is not None:
                kept.append(new)
        if mode == "auto":
            found = annotator.annotate(orig, cor, lev, merging, merge_run_limit)
            for e in found:  # ERRANT reads every field literally: its M2 can say anything
                if not errant_compat and (why := m2.unwritable(e.c_str)) is not None:
                    raise InputError(f"the correction {why}, which cannot be written in an "
                                     "edit line")
            kept = sorted(kept + found, key=lambda x: (x.o_start, x.o_end))
        lines.extend(m2.edits_to_m2_lines(kept, ann_id))
    return m2.format_block(block.source, lines)


#: ChERRANT's type letter -> the edit's operation (the provisional type its classifier reads)
_CHERRANT_OPS = {"M": "I", "R": "D", "S": "S", "W": "T"}


def retype_cherrant_block(annotator: Annotator, block: M2Block) -> M2Block:
    """A block of ChERRANT's M2 dialect with every edit re-typed on its own spans and the file's
    segmentation: each ``T`` line's corrected words are the correction, the operation is the
    gold type's letter (``W`` stays a word-order edit), and every other field is kept."""
    orig = annotator.parse(block.source, False)
    edits: list[M2Edit] = []
    for target, group in block.target_edits():
        real = [e for e in group if not e.is_noop and e.type != "NA"]
        if target.alternative is None or not real:
            edits.extend(group)
            continue
        correction = m2.apply_edits(orig.texts, real, m2.GOLD)
        if correction.left_out:
            raise InputError(f"edits of {target.label} overlap", line=block.line)
        cor = annotator.parse(correction.text, False)
        for p in correction.placed:
            e = p.edit
            op = _CHERRANT_OPS.get(e.type[:1])
            span = Edit(e.start, e.end, p.c_start, p.c_end, type=op or "NA")
            edits.append(e._replace(type=annotator.language.classify(span, orig, cor)))
    return replace(block, edits=edits, problems=[])


def m2_to_m2(annotator: Annotator, m2_path: PathLike, out: PathLike,
             options: JobOptions | None = None, *, progress: Callable[[int], None] | None = None,
             **overrides: Any) -> Report:
    """Re-annotate every block of an M2 file and write the result atomically (or resumably:
    ``resume=True``, see :func:`errtype.convert.parallel_to_m2`).

    ``options`` (default :class:`JobOptions`'s), its fields replaced by ``overrides``: ``mode``
    (``gold`` or ``auto``), ``minimise``, ``old_cats``, ``lev``, ``merging``, ``errant_compat``,
    ``merge_run_limit``, ``on_error``, ``max_tokens``, ``encoding_errors``, ``jobs``, ``resume``.
    See :func:`reannotate_block` for the semantics. A block that cannot be re-annotated (an edit
    span outside its sentence, a parser failure; with ``errant_compat``, overlapping edits that
    ERRANT's sequential application garbles) stops the run with an error naming its line, or with
    ``on_error="skip"`` is written with a noop line per annotator and reported with the reason.
    ``jobs > 1`` re-annotates chunks of blocks in forked worker processes sharing the loaded
    models (:func:`errtype.workers.ordered_map`); the output is the same. A block whose sentence
    or an annotator's correction has more than ``max_tokens`` tokens is written with a noop line
    per annotator and reported, as a skipped sentence of :func:`parallel_to_m2`.
    """
    options = resolve(options, overrides)
    o = options
    report = Report()
    identity = job_identity(annotator, [m2_path], "m2", **o.identity()) if o.resume else None
    settings = (o.mode, o.minimise, o.old_cats, o.lev, o.merging, o.errant_compat,
                o.merge_run_limit)
    max_tokens, on_error, jobs = o.max_tokens, o.on_error, o.jobs

    def chunk_results(chunk: list[M2Block]) -> list[tuple[int, Formatted]]:
        return [(b.line, _noop_result(b, too_long(max_tokens))
                 if max_tokens is not None and _longest(b) > max_tokens
                 else _block_result(annotator, b, settings, m2_path, on_error)) for b in chunk]

    with m2_sink(out, report, identity) as sink:
        blocks = read_m2(m2_path, errors=o.encoding_errors, lenient=True)
        for _ in islice(blocks, sink.done):
            pass
        if progress and sink.done:
            progress(sink.done)
        chunks = iter(lambda: list(islice(blocks, 1 if jobs == 1 else M2_CHUNK)), [])
        if jobs > 1:
            from ..workers import ordered_map

            results: Iterable[list[tuple[int, Formatted]]] = ordered_map(
                chunk_results, ((c,) for c in chunks), jobs,
                describe=lambda task: f"the M2 block at line {task[0][0].line}")
        else:
            results = map(chunk_results, chunks)
        for chunk in results:
            for line, result in chunk:
                sink.put(line, result)
            if progress:
                progress(len(chunk))
    return report


def _block_result(annotator: Annotator, block: M2Block, settings: tuple, m2_path: PathLike,
                  on_error: str) -> Formatted:
    """The re-annotated block, or its noop block with the reason (``on_error="skip"``), or the
    located error raised."""
    errant_compat = settings[5]
    try:
        text = reannotate_block(annotator, block, *settings)
    except ResourceError:  # a missing resource fails every block: never skipped
        raise
    except Exception as exc:  # noqa: BLE001 - located, or skipped and reported
        reason = _reason(exc, block, errant_compat)
        if on_error != "skip":
            if isinstance(exc, InputError) and exc.path is None:
                raise InputError(f"{exc.reason} (use --on-error skip to write a noop block "
                                 "and continue)", path=str(m2_path),
                                 line=exc.line or block.line) from exc
            if isinstance(exc, ErrtypeError):
                raise
            raise InputError(f"annotation failed: {reason} (use --on-error skip to "
                             "write a noop block and continue)",
                             path=str(m2_path), line=block.line) from exc
        return _noop_result(block, reason)
    return Formatted(text, text.count(f"{SEP}{NOOP}{SEP}"))


def _noop_result(block: M2Block, reason: str) -> Formatted:
    """A skipped block: a noop line per annotator, and why."""
    noops = m2.format_block(block.source, [m2.noop_m2(a) for a in sorted(
        block.annotators() or [0], key=str)])
    return Formatted(noops, noops.count(f"{SEP}{NOOP}{SEP}"), reason)


def _longest(block: M2Block) -> int:
    """The most tokens of the block's sentence and its annotators' corrections (edits applied
    as :func:`reannotate_block` applies them; a block it refuses counts its sentence only)."""
    longest = len(block.tokens)
    try:
        for edits in block.edits_by_annotator().values():
            real = [e for e in edits if not e.is_noop]
            longest = max(longest, len(m2.apply_edits(block.tokens, real, m2.GOLD).tokens))
    except (ValueError, IndexError):  # reported as reannotate_block reports it
        pass
    return longest


def _reason(exc: Exception, block: M2Block, errant_compat: bool) -> str:
    """Why a block failed, naming overlapping edits when ERRANT's rules were in force."""
    if isinstance(exc, InputError):
        at = exc.line if exc.line not in (None, block.line) else None
        text = f"edit line {at}: {exc.reason}" if at else exc.reason
    else:
        text = f"{type(exc).__name__}: {exc}"
    if errant_compat and not isinstance(exc, ErrtypeError):
        for ann in block.annotators():
            real = [(i, e) for i, e in enumerate(block.edits) if e.annotator == ann
                    and not e.is_noop]
            for n, (i, e) in enumerate(real):
                hit = next((j for j, f in real[:n] if m2.overlaps(e, f)), None)
                if hit is not None:
                    return (f"{text}; annotator {ann}'s edits on lines "
                            f"{block.edit_line_number(hit)} and {block.edit_line_number(i)} "
                            "overlap, which ERRANT's sequential application cannot place "
                            "(drop --errant-compat to apply the outer edit)")
    return text


def m2_block_count(path: PathLike) -> int | None:
    """Rough count of blocks (S lines) for progress display (None for standard input)."""
    if str(path) == "-":
        return None
    n = 0
    with _open_binary(path) as fh:
        for line in fh:
            n += line.startswith(b"S ")
    return n


