"""Corpus-level conversions: parallel text or CoNLL-U -> M2, and re-annotation of an M2 file.

All stream their input, write exactly one M2 block per input sentence in input order, and write
the output atomically, or with ``resume=True`` resumably (:mod:`errtype.checkpoint`: a run that
died continues from its last complete batch). They return a :class:`Report` (nothing is printed
here).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any

from . import m2
from .annotator import Annotator
from .edit import NOOP, Edit
from .errors import AnnotationError, InputError
from .m2 import SEP, M2Block, M2Edit, read_m2
from .merge import MAX_RULE_RUN
from .records import Annotation, Item
from .textio import _open_binary, atomic_output, count_lines, read_parallel
from .tokens import Sentence

if TYPE_CHECKING:
    from .ranges import Joined

PathLike = str | os.PathLike[str]


@dataclass
class Report:
    """What a conversion did: blocks written, noops, and every skipped sentence with its reason
    (``resumed``: blocks an earlier, interrupted run had written)."""

    blocks: int = 0
    noops: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    resumed: int = 0

    def summary(self) -> str:
        text = f"{self.blocks} sentences written, {self.noops} noop annotations"
        if self.skipped:
            text += f", {len(self.skipped)} sentences skipped (written as noop blocks)"
        if self.resumed:
            text += f" (resumed after sentence {self.resumed})"
        return text

    def state(self) -> dict[str, Any]:
        return {"blocks": self.blocks, "noops": self.noops, "skipped": self.skipped}

    def restore(self, state: dict[str, Any]) -> None:
        self.blocks = int(state.get("blocks", 0))
        self.noops = int(state.get("noops", 0))
        self.skipped = [(int(line), str(reason)) for line, reason in state.get("skipped", [])]
        self.resumed = self.blocks


@dataclass(frozen=True)
class Formatted:
    """One item's M2 block and what the :class:`Report` counts of it (``refused``: the
    annotator whose correction M2 cannot express, when the block is a noop block for that)."""

    block: str
    noops: int = 0
    skipped: str | None = None
    refused: int | None = None


def format_annotation(ann: Annotation, item: Item, errant_noop: bool = False) -> Formatted:
    """The M2 block of one streamed item (:func:`errtype.m2.annotation_block`, corrections as
    the text had them); a skipped item is a noop block carrying its reason.

    ``errant_noop`` switches on ERRANT's noop rule: noop only when the raw correction equals the
    rendered original, and no line at all for zero edits. A correction that would read back as
    something else (:func:`errtype.m2.unwritable`) gives a noop block with ``refused`` set.
    """
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


class _Sink:
    """Where a conversion's blocks go: counted in the report, checkpointed when resumable."""

    def __init__(self, write: Callable[[str], Any], report: Report,
                 resumable: Any = None) -> None:
        self._write = write
        self.report = report
        self._resumable = resumable

    @property
    def done(self) -> int:
        """Items an earlier run already wrote (to be skipped)."""
        return self.report.resumed

    def put(self, line: int, result: Formatted) -> None:
        r = self.report
        r.blocks += 1
        r.noops += result.noops
        if result.skipped is not None:
            r.skipped.append((line, result.skipped))
        self._write(result.block)
        if self._resumable is not None:
            self._resumable.item_done(r.blocks, r.state())

    def put_joined(self, joined: Joined) -> None:
        """The blocks of consecutive items, formatted and counted elsewhere (a worker)."""
        r = self.report
        r.blocks += joined.blocks
        r.noops += joined.noops
        r.skipped.extend(joined.skipped)
        self._write(joined.text)
        if self._resumable is not None:
            self._resumable.items_done(r.blocks, r.state())


@contextlib.contextmanager
def m2_sink(out: PathLike, report: Report, resume: dict[str, Any] | None = None,
            step: int = 1) -> Iterator[_Sink]:
    """The output of a conversion: ``out`` written atomically, or, given the job's ``resume``
    identity, resumably (:class:`errtype.checkpoint.Resumable`, checkpoints every ``step``
    items; ``report`` is restored to the state saved with the kept items)."""
    if resume is None:
        with atomic_output(out) as fh:
            yield _Sink(fh.write, report)
        return
    from .checkpoint import Resumable

    with Resumable(out, resume, step) as r:
        report.restore(r.state)
        yield _Sink(r.write, report, r)


def job_identity(annotator: Annotator, inputs: Sequence[PathLike], **options: Any
                 ) -> dict[str, Any]:
    """What a resumed conversion must share with the run that died: the input files (size and
    SHA-256), the options, the language and parser, errtype's version."""
    from . import __version__
    from .checkpoint import file_identity

    parser = annotator.parser
    model: Any = getattr(parser, "path", None)
    nlp = getattr(parser, "nlp", None)
    if nlp is not None and hasattr(nlp, "meta"):
        meta = nlp.meta
        model = f"{meta.get('lang')}_{meta.get('name')}-{meta.get('version')}"
    return {"errtype": __version__, "inputs": file_identity(inputs), "lang": annotator.lang,
            "feats": bool(getattr(annotator.language, "feats", False)),
            "parser": f"{type(parser).__module__}.{type(parser).__qualname__}",
            "model": None if model is None else str(model), "options": options}


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
    fmt = partial(format_annotation, errant_noop=errant_noop)
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
            from .ranges import parallel_to_m2_ranges

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
    from .parse.conllu import check_sentence_counts, read_conllu

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


# --- re-annotation of an existing M2 file (errant_m2 -gold / -auto) -------------------------

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
    rules = m2.ERRANT if errant_compat else m2.GOLD
    orig = annotator.parse(block.source)
    lines: list[str] = []
    for ann_id, edits in sorted(block.edits_by_annotator().items(), key=lambda kv: str(kv[0])):
        real = [e for e in edits if not e.is_noop]
        if not real or (errant_compat and edits[0].type == NOOP):
            lines.append(m2.noop_m2(ann_id))
            continue
        # ERRANT applies a noop line that is not first like an edit (see m2.apply_edits)
        correction = m2.apply_edits(orig.texts, edits if errant_compat else real, rules)
        cor = annotator.parse(correction.text)
        placed = correction.placed
        if errant_compat:
            placed = sorted(placed, key=lambda p: (p.edit.start, p.edit.end))
        kept: list[Edit] = []
        for p in placed:
            sent = cor
            if not p.applied:  # overlaps an applied edit: its own minimal corrected context
                own = m2.apply_edits(orig.texts, [p.edit], rules)
                sent, p = annotator.parse(own.text), own.placed[0]
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


def m2_to_m2(annotator: Annotator, m2_path: PathLike, out: PathLike, mode: str = "gold",
             minimise: bool = True, old_cats: bool = False, lev: bool = False,
             merging: str = "rules", progress: Callable[[int], None] | None = None,
             encoding_errors: str = "strict", on_error: str = "fail",
             errant_compat: bool = False, merge_run_limit: int = MAX_RULE_RUN,
             resume: bool = False) -> Report:
    """Re-annotate every block of an M2 file and write the result atomically (or resumably:
    ``resume=True``, see :func:`parallel_to_m2`).

    See :func:`reannotate_block` for the semantics. A block that cannot be re-annotated (an edit
    span outside its sentence, a parser failure; with ``errant_compat``, overlapping edits that
    ERRANT's sequential application garbles) stops the run with an error naming its line, or with
    ``on_error="skip"`` is written with a noop line per annotator and reported with the reason.
    """
    from .errors import ErrtypeError

    report = Report()
    identity = job_identity(annotator, [m2_path], mode=mode, minimise=minimise,
                            old_cats=old_cats, lev=lev, merging=merging,
                            encoding_errors=encoding_errors, on_error=on_error,
                            errant_compat=errant_compat, merge_run_limit=merge_run_limit
                            ) if resume else None
    with m2_sink(out, report, identity) as sink:
        blocks = read_m2(m2_path, errors=encoding_errors, lenient=True)
        for _ in islice(blocks, sink.done):
            pass
        if progress and sink.done:
            progress(sink.done)
        for block in blocks:
            try:
                text = reannotate_block(annotator, block, mode, minimise, old_cats, lev, merging,
                                        errant_compat, merge_run_limit)
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
                noops = m2.format_block(block.source, [m2.noop_m2(a) for a in sorted(
                    block.annotators() or [0], key=str)])
                sink.put(block.line, Formatted(noops, noops.count(f"{SEP}{NOOP}{SEP}"), reason))
            else:
                sink.put(block.line, Formatted(text, text.count(f"{SEP}{NOOP}{SEP}")))
            if progress:
                progress(1)
    return report


def _reason(exc: Exception, block: M2Block, errant_compat: bool) -> str:
    """Why a block failed, naming overlapping edits when ERRANT's rules were in force."""
    from .errors import ErrtypeError

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


# --- M2 -> parallel text / JSON lines --------------------------------------------------------


def _annotator_edits(block: M2Block, annotators: Sequence[int], missing: str
                     ) -> dict[int, list[M2Edit]]:
    """Each annotator's edits in a block; an absent annotator copies the block's first one
    (``missing="first"``, as :meth:`errtype.score.meta.ratio.Annotations.from_blocks`) or has
    none."""
    per = {a: [e for e in es if not e.is_noop] for a, es in block.edits_by_annotator().items()}
    first = next(iter(per.values()), [])
    return {a: per.get(a, first if missing == "first" else []) for a in annotators}


def _read_all(m2_path: PathLike, encoding_errors: str) -> tuple[list[M2Block], list[int]]:
    blocks = list(read_m2(m2_path, errors=encoding_errors))
    return blocks, sorted({e.annotator for b in blocks for e in b.edits}) or [0]


def m2_to_text(m2_path: PathLike, prefix: PathLike, *, missing: str = "first",
               rules: m2.ApplyRules = m2.M2SCORER, encoding_errors: str = "strict"
               ) -> dict[str, int]:
    """Write ``PREFIX.orig`` (the ``S`` lines) and ``PREFIX.cor.<id>`` (annotator ``id``'s
    correction, :func:`errtype.m2.apply_edits` with ``rules``), one line per block, every file
    atomically (all or none). Returns {file name: lines written}."""
    from contextlib import ExitStack

    if missing not in ("first", "empty"):
        raise ValueError(f"missing must be 'first' or 'empty', not {missing!r}")
    blocks, annotators = _read_all(m2_path, encoding_errors)
    names = [f"{prefix}.orig", *(f"{prefix}.cor.{a}" for a in annotators)]
    with ExitStack() as stack:
        handles = [stack.enter_context(atomic_output(n)) for n in names]
        for b in blocks:
            handles[0].write(b.source + "\n")
            edits = _annotator_edits(b, annotators, missing)
            for fh, a in zip(handles[1:], annotators, strict=True):
                fh.write(m2.apply_edits(b.tokens, edits[a], rules).text + "\n")
    return dict.fromkeys(names, len(blocks))


def _char_offsets(tokens: Sequence[str]) -> list[int]:
    """Start of every token in ``" ".join(tokens)``, plus the text length at the end."""
    starts, pos = [], 0
    for t in tokens:
        starts.append(pos)
        pos += len(t) + 1
    return [*starts, max(pos - 1, 0)]


def _char_span(starts: list[int], tokens: Sequence[str], s: int, e: int) -> tuple[int, int]:
    if e > s:
        return starts[s], starts[e - 1] + len(tokens[e - 1])
    return starts[s], starts[s]


def block_to_json(block: M2Block, annotators: Sequence[int], missing: str = "first",
                  rules: m2.ApplyRules = m2.M2SCORER) -> dict:
    """One block as a JSON-ready dict with character offsets (see :func:`m2_to_jsonl`)."""
    from itertools import pairwise

    from .document import sentence_starts, sentences_of

    tokens = block.tokens
    starts = _char_offsets(tokens)
    sents = sentence_starts(tokens)
    bounds = [*sents, len(tokens)]
    out: dict = {"line": block.line, "source": block.source,
                 "sentences": [[s, e, *_char_span(starts, tokens, s, e)]
                               for s, e in pairwise(bounds)], "annotators": {}}
    line_of = {id(e): block.edit_line_number(i) for i, e in enumerate(block.edits)}
    for a, edits in _annotator_edits(block, annotators, missing).items():
        cor = m2.apply_edits(tokens, edits, rules)
        cstarts = _char_offsets(cor.tokens)
        items = []
        for p in cor.placed:
            e = p.edit
            o_s, o_e = _char_span(starts, tokens, e.start, e.end)
            item = {"line": line_of.get(id(e)), "start": o_s, "end": o_e, "token_start": e.start,
                    "token_end": e.end, "type": e.type,
                    "correction": " ".join(rules.correction_tokens(e, tokens)),
                    "field": e.cor, "applied": p.applied, "cor_start": None, "cor_end": None}
            item["sentence"], item["sentence_last"] = sentences_of(sents, e.start, e.end)
            if p.applied:
                item["cor_start"], item["cor_end"] = _char_span(cstarts, cor.tokens, p.c_start,
                                                                p.c_end)
            items.append(item)
        out["annotators"][str(a)] = {"correction": cor.text, "edits": items}
    return out


def m2_to_jsonl(m2_path: PathLike, out: PathLike, *, missing: str = "first",
                rules: m2.ApplyRules = m2.M2SCORER, encoding_errors: str = "strict") -> int:
    """Write one JSON object per block, atomically; returns the number of blocks.

    The sentence is the ``S`` line's tokens joined by single spaces (M2 stores tokens, not the
    original spacing). ``start``/``end`` are character offsets into it (end exclusive; an
    insertion has ``start == end`` at the start of the token it precedes, or at the text length);
    ``cor_start``/``cor_end`` are offsets into the annotator's ``correction`` (``null`` for an
    edit left out of it because it overlaps a longer one). ``field`` is the correction field
    verbatim, ``correction`` the text the rules make of it; ``line`` is the edit's file line.
    For paragraphs and documents, ``sentences`` lists the source's sentences as ``[token_start,
    token_end, start, end]`` (:func:`errtype.document.sentence_starts`) and ``sentence`` /
    ``sentence_last`` give the first and last sentence each edit covers.
    """
    import json

    blocks, annotators = _read_all(m2_path, encoding_errors)
    with atomic_output(out) as fh:
        for b in blocks:
            fh.write(json.dumps(block_to_json(b, annotators, missing, rules), ensure_ascii=False)
                     + "\n")
    return len(blocks)


def m2_block_count(path: PathLike) -> int | None:
    """Rough count of blocks (S lines) for progress display (None for standard input)."""
    if str(path) == "-":
        return None
    n = 0
    with _open_binary(path) as fh:
        for line in fh:
            n += line.startswith(b"S ")
    return n


__all__ = ["Report", "block_to_json", "count_lines", "m2_to_jsonl", "m2_to_m2", "m2_to_text",
           "parallel_to_m2", "reannotate_block"]
