"""Corpora to GECToR's tags and back: parallel text or M2 -> tag lines, tag lines -> text.

Every function streams its input and writes its output atomically. :func:`parallel_to_gector` is
GECToR's ``utils/preprocess_data.py`` (byte-identical output given the same verb-form vocabulary):
it leaves out the pairs GECToR leaves out and says which and why in its :class:`GectorReport`;
``keep_untaggable=True`` writes one line for every input pair instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from .. import m2
from ..errors import InputError
from ..records import too_long
from ..textio import atomic_output, read_lines, read_parallel
from .gector import (
    DELIMITER,
    EMPTY,
    FAILS,
    KEEP,
    UNTAGGABLE,
    Span,
    Tagger,
    VerbForms,
    format_line,
    known_label,
    parse_line,
    writable,
)
from .output import PathLike

CHUNK = 500  # pairs per task of a worker process
EXAMPLES = 5  # input lines kept per reason for the report

#: (input line, tag line or None, why GECToR drops the pair or None)
Result = tuple[int, str | None, str | None]


@dataclass
class GectorReport:
    """What a conversion did: pairs read, lines written, pairs left out by reason (with the
    first few input lines of each), pairs kept although GECToR drops them, pairs skipped as
    longer than ``max_tokens`` (not tagged: left out, or with ``keep_untaggable`` written with
    ``$KEEP`` labels only, as errtype-m2 writes a noop block)."""

    pairs: int = 0
    written: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    lines: dict[str, list[int]] = field(default_factory=dict)
    #: the reason of a pair longer than ``max_tokens`` (None: no limit)
    too_long: str | None = None
    skipped: int = 0
    skipped_written: int = 0

    def add(self, result: Result) -> None:
        line, text, reason = result
        self.pairs += 1
        self.written += text is not None
        if reason is not None:
            if reason == self.too_long:
                self.skipped += 1
                self.skipped_written += text is not None
            else:
                (self.dropped if text is None else self.kept)[reason] += 1
            seen = self.lines.setdefault(reason, [])
            if len(seen) < EXAMPLES:
                seen.append(line)

    def summary(self) -> str:
        text = f"{self.pairs} pairs, {self.written} tag lines written"
        if self.skipped:
            text += (f", {self.skipped} skipped ({self.too_long}; lines "
                     f"{_lines(self.lines[self.too_long or ''], self.skipped)})")
            if self.skipped_written:
                text += f" and written with {KEEP} labels only"
        for what, counts in (("left out", self.dropped), ("kept although GECToR drops them",
                                                         self.kept)):
            if counts:
                parts = "; ".join(f"{n} because {why} (lines {_lines(self.lines[why], n)})"
                                  for why, n in counts.most_common())
                text += f", {sum(counts.values())} {what}: {parts}"
        return text


def _lines(lines: list[int], n: int) -> str:
    return ", ".join(map(str, lines)) + (", ..." if n > len(lines) else "")


def tag_pair(tagger: Tagger, source: str, target: str, keep: bool = False,
             max_tokens: int | None = None) -> tuple[str | None, str | None]:
    """(tag line, why GECToR drops it) of one pair of lines, as GECToR's script: lines
    stripped, empty ones dropped, the pair kept when its tags read back to the target.
    ``keep=True`` gives the tag line of a dropped pair too (None only for a delimiter). A pair
    with more than ``max_tokens`` tokens on either side is not tagged (reason
    :func:`errtype.records.too_long`; ``keep=True``: its line with ``$KEEP`` labels only)."""
    s, t = source.strip(), target.strip()
    if not (s and t) and not keep:  # GECToR reads past these before looking at the text
        return None, EMPTY
    if not writable(s) or not writable(t):
        return None, DELIMITER
    src, tgt = s.split(), t.split()
    if max_tokens is not None and max(len(src), len(tgt)) > max_tokens:
        return (format_line(src, [[KEEP]] * (len(src) + 1)) if keep else None), \
            too_long(max_tokens)
    if not (s and t):
        return format_line(src, tagger.tag(src, tgt)), EMPTY
    if src == tgt:
        return format_line(src, [[KEEP]] * (len(src) + 1)), None
    labels = tagger.tag(src, tgt)
    ok = tagger.reads_back(src, labels, t)
    reason = None if ok else UNTAGGABLE if ok is False else FAILS
    return (format_line(src, labels) if ok or keep else None), reason


def _tag_chunk(tagger: Tagger, keep: bool, chunk: list[tuple[int, str, str]],
               max_tokens: int | None = None) -> list[Result]:
    return [(n, *tag_pair(tagger, s, t, keep, max_tokens)) for n, s, t in chunk]


def _chunks(items: Iterable[tuple], size: int = CHUNK) -> Iterator[list]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def _run(work: Callable[[list], list[Result]], chunks: Iterable[list], jobs: int,
         out: PathLike, report: GectorReport, what: str,
         progress: Callable[[int], None] | None) -> None:
    """``work`` on every chunk (``jobs`` forked workers, in order), lines written to ``out``."""
    if jobs > 1:
        from ..workers import ordered_map

        results: Iterable[list[Result]] = ordered_map(
            work, ((c,) for c in chunks), jobs,
            describe=lambda task: f"{what} from line {task[0][0][0]}")
    else:
        results = map(work, chunks)
    with atomic_output(out) as fh:
        for chunk in results:
            for result in chunk:
                report.add(result)
                if result[1] is not None:
                    fh.write(result[1] + "\n")
            if progress:
                progress(len(chunk))


def _report(max_tokens: int | None) -> GectorReport:
    return GectorReport(too_long=None if max_tokens is None else too_long(max_tokens))


def _checked(line: int, reason: str | None, keep: bool, path: PathLike) -> None:
    if keep and reason == DELIMITER:
        raise InputError(f"no tag line can be written for this pair: {reason}; "
                         "--keep-untaggable promises one line per pair", path=str(path),
                         line=line)


def parallel_to_gector(orig: PathLike, cor: PathLike, out: PathLike, *,
                       verbs: VerbForms | None = None, keep_untaggable: bool = False,
                       jobs: int = 1, encoding_errors: str = "strict",
                       max_tokens: int | None = None,
                       progress: Callable[[int], None] | None = None) -> GectorReport:
    """Tag parallel files (one sentence per line) as GECToR's ``preprocess_data.py -s ORIG -t
    COR -o OUT`` does, with ``verbs`` (default: errtype's vocabulary), and write the tag lines
    to ``out`` atomically. ``keep_untaggable=True`` writes a line for every pair (a pair holding
    a delimiter then raises :class:`InputError`). A pair with more than ``max_tokens`` tokens on
    either side is skipped and reported (:func:`tag_pair`). ``jobs`` worker processes tag
    chunks of pairs; the output is the same."""
    tagger = Tagger(verbs)
    report = _report(max_tokens)
    pairs = ((n, s, t) for n, (s, t) in read_parallel([orig, cor], errors=encoding_errors))

    def work(chunk: list[tuple[int, str, str]]) -> list[Result]:
        results = _tag_chunk(tagger, keep_untaggable, chunk, max_tokens)
        for n, _, reason in results:
            _checked(n, reason, keep_untaggable, cor)
        return results

    _run(work, _chunks(pairs), jobs, out, report, "pairs", progress)
    return report


def block_spans(block: m2.M2Block, edits: Sequence[m2.M2Edit],
                rules: m2.ApplyRules = m2.M2SCORER) -> tuple[list[Span], str]:
    """The applied edits of one annotator as spans (sorted) and its corrected text."""
    correction = m2.apply_edits(block.tokens, edits, rules)
    spans = sorted(((p.edit.start, p.edit.end, correction.tokens[p.c_start:p.c_end])
                    for p in correction.placed if p.c_start is not None),
                   key=lambda s: (s[0], s[1]))
    return spans, correction.text


def tag_block(tagger: Tagger, block: m2.M2Block, edits: Sequence[m2.M2Edit], keep: bool = False,
              rules: m2.ApplyRules = m2.M2SCORER, max_tokens: int | None = None
              ) -> tuple[str | None, str | None]:
    """(tag line, why it is left out) of one annotator's edits of ``block``: the edit spans
    replace GECToR's difflib alignment (:meth:`Tagger.tag_edits`), the rest is GECToR's (the
    check that the tags read back, the pairs left out); ``max_tokens`` as in :func:`tag_pair`."""
    spans, target = block_spans(block, edits, rules)
    if not writable(block.source) or not writable(target):
        return None, DELIMITER
    src = block.tokens
    if max_tokens is not None and max(len(src), len(target.split())) > max_tokens:
        return (format_line(src, [[KEEP]] * (len(src) + 1)) if keep else None), \
            too_long(max_tokens)
    labels = tagger.tag_edits(src, spans)
    if not (src and target.strip()):
        return (format_line(src, labels) if keep else None), EMPTY
    ok = tagger.reads_back(src, labels, target)
    reason = None if ok else UNTAGGABLE if ok is False else FAILS
    return (format_line(src, labels) if ok or keep else None), reason


def m2_to_gector(m2_path: PathLike, out: PathLike, *, annotator: int | None = None,
                 missing: str = "first", verbs: VerbForms | None = None,
                 keep_untaggable: bool = False, jobs: int = 1, encoding_errors: str = "strict",
                 max_tokens: int | None = None,
                 progress: Callable[[int], None] | None = None) -> GectorReport:
    """Tag the corrections of an M2 file with the spans of its edits: one line per block and
    annotator (every annotator of the file in id order, or only ``annotator``; an absent one as
    in :func:`errtype.convert.m2_to_text`), the corrections made with
    :data:`errtype.m2.M2SCORER`. Pairs are left out (or kept) as in
    :func:`parallel_to_gector` (``max_tokens`` too); a line of the report is the block's ``S``
    line."""
    from .export import _annotator_edits, _read_all

    tagger = Tagger(verbs)
    report = _report(max_tokens)
    blocks, annotators = _read_all(m2_path, encoding_errors)
    if annotator is not None:
        if annotator not in annotators:
            raise InputError(f"no edits of annotator {annotator} (the file has "
                             f"{', '.join(map(str, annotators))})", path=str(m2_path))
        annotators = [annotator]

    def work(chunk: list[m2.M2Block]) -> list[Result]:
        results = []
        for block in chunk:
            for edits in _annotator_edits(block, annotators, missing).values():
                line, reason = tag_block(tagger, block, edits, keep_untaggable,
                                         max_tokens=max_tokens)
                _checked(block.line, reason, keep_untaggable, m2_path)
                results.append((block.line, line, reason))
        return results

    _run(work, _chunks(blocks, CHUNK // max(1, len(annotators))), jobs, out, report, "blocks",
         progress)
    return report


def gector_to_text(tags: PathLike, out: PathLike, *, source_out: PathLike | None = None,
                   verbs: VerbForms | None = None, encoding_errors: str = "strict") -> int:
    """Write the corrected sentence of every tag line (GECToR's reading, :meth:`Tagger.read`)
    to ``out``, and its source tokens to ``source_out``; returns the number of lines. A line
    that is not in the format, holds a label GECToR's tagging never writes
    (:func:`~errtype.convert.gector.known_label`: GECToR's own reading would pass over most of
    them), or whose tags GECToR cannot apply raises :class:`InputError` naming the file and
    line, before anything is written."""
    from contextlib import ExitStack

    tagger = Tagger(verbs)
    n = 0
    with ExitStack() as stack:
        fh = stack.enter_context(atomic_output(out))
        src = None if source_out is None else stack.enter_context(atomic_output(source_out))
        for number, text, _ in read_lines(tags, errors=encoding_errors):
            try:
                tokens, labels = parse_line(text)
                unknown = next((x for ops in labels for x in ops if not known_label(x)), None)
                if unknown is not None:
                    raise ValueError(f"unknown label {unknown!r}")
                corrected = tagger.read(tokens, labels)
            except (ValueError, IndexError) as exc:
                raise InputError(f"not a readable GECToR tag line: {exc}", path=str(tags),
                                 line=number) from None
            fh.write(corrected + "\n")
            if src is not None:
                src.write(" ".join(tokens) + "\n")
            n += 1
    return n


__all__ = ["GectorReport", "gector_to_text", "m2_to_gector", "parallel_to_gector", "tag_block",
           "tag_pair"]
