"""Checks of an M2 file for the things that silently change scores or re-annotation.

Every finding names the file, the line and a code:

=====================  ==========================================================================
code                   meaning
=====================  ==========================================================================
``span-outside``       an edit span lies outside its sentence (readers and scorers refuse it)
``duplicate-edit``     one annotator gives the same span and correction twice: ERRANT's scorer
                       counts a matching hypothesis edit once per copy (ERRANT issue 49)
``overlap``            two edits of one annotator overlap (common with word-order edits); the
                       correction is ambiguous (errtype applies the longer edit, ERRANT garbles)
``noop-with-edits``    an annotator has a noop line and real edits in the same block
``noop-form``          a noop line whose span is not ``-1 -1`` or whose type is not ``noop``
``annotator-missing``  a block lacks annotator ids that other blocks have (or, with
                       ``annotators=N``, one of the ids 0 … N-1)
``annotator-extra``    with ``annotators=N``: an annotator id outside 0 … N-1
``no-edit-lines``      a block without any edit line (scorers read it as a noop of annotator 0)
``none-and-empty``     the file writes deletions both as ``-NONE-`` and as an empty correction
``none-deletion``      deletions written ``-NONE-`` (ERRANT reads the literal token ``-NONE-``)
``alternatives``       a correction with ``a||b`` alternatives (ERRANT reads one literal token)
``no-blank-line``      a block starts without a blank line after the previous one (errant_m2
                       and errant_compare then fail)
=====================  ==========================================================================

``none-deletion`` and ``none-and-empty`` are reported once per file (at the first such line, with
the count), the others once per occurrence.

Every dialect errtype writes is clean. In ChERRANT's dialect (``T`` lines; what ``errtype-m2 --lang
zh`` writes) a sentence has as many references as it was given, and ``-NONE-`` is how the
dialect writes a deletion, so neither ``annotator-missing`` nor ``none-deletion`` applies there.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .m2 import ALT, NONE, NOOP, M2Block, overlaps, read_m2

CODES = ("span-outside", "duplicate-edit", "overlap", "noop-with-edits", "noop-form",
         "annotator-missing", "annotator-extra", "no-edit-lines", "none-and-empty",
         "none-deletion", "alternatives", "no-blank-line")


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: int
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.code} {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "code": self.code, "message": self.message}


@dataclass
class LintResult:
    """The findings of one file, in line order, and its block count."""

    path: str
    blocks: int = 0
    findings: list[Finding] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return dict(Counter(f.code for f in self.findings))

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "blocks": self.blocks, "counts": self.counts(),
                "findings": [f.to_dict() for f in self.findings]}


def _block_findings(block: M2Block, path: str, all_ids: set[int]) -> Iterator[Finding]:
    def at(i: int, code: str, message: str) -> Finding:
        return Finding(path, block.edit_line_number(i), code, message)

    if block.unseparated:
        yield Finding(path, block.line, "no-blank-line",
                      "no blank line before this block (ERRANT's readers fail here)")
    for line, message in block.problems:
        yield Finding(path, line, "span-outside", message)
    if not block.edits:
        yield Finding(path, block.line, "no-edit-lines",
                      "block without edit lines (scorers read it as a noop of annotator 0)")
    # ChERRANT's dialect: each sentence lists the references it has
    missing = sorted(all_ids - set(block.annotators())) if block.edits and not block.targets \
        else []
    for i, e in enumerate(block.edits):
        if e.annotator not in all_ids:
            yield at(i, "annotator-extra", f"annotator {e.annotator} is not one of the "
                                           f"{len(all_ids)} expected (0 to {len(all_ids) - 1})")
    if missing:
        yield Finding(path, block.line, "annotator-missing",
                      f"annotator(s) {', '.join(map(str, missing))} absent from this block")
    # one edit set per annotator, or per T line in ChERRANT's dialect (a reference's equal-cost
    # sequences are alternatives, not one set)
    by_ann: dict[tuple[int, int | None], list[int]] = {}
    for i, e in enumerate(block.edits):
        by_ann.setdefault((e.annotator, block.edit_target(i)), []).append(i)
        cherrant_na = bool(block.targets) and e.type == "NA"  # ChERRANT's 无法标注 line
        if e.is_noop and ((e.start, e.end) != (-1, -1) or e.type != NOOP) and not cherrant_na:
            yield at(i, "noop-form", f"noop line with span {e.start} {e.end} and type {e.type!r}")
        if not e.is_noop and ALT in e.cor:
            yield at(i, "alternatives", f"correction with {len(e.alternatives)} alternatives "
                                        f"{e.cor!r} (ERRANT reads one literal token)")
    for (ann, _), idx in by_ann.items():
        real = [i for i in idx if not block.edits[i].is_noop]
        if real and len(real) < len(idx):
            noop = next(i for i in idx if block.edits[i].is_noop)
            yield at(noop, "noop-with-edits",
                     f"annotator {ann} has a noop line and {len(real)} edit(s) in this block")
        for n, i in enumerate(real):
            e = block.edits[i]
            for j in real[:n]:
                f = block.edits[j]
                if (e.start, e.end, e.cor) == (f.start, f.end, f.cor):
                    yield at(i, "duplicate-edit",
                             f"annotator {ann} repeats the edit of line "
                             f"{block.edit_line_number(j)} ({e.start} {e.end} {e.cor!r}); "
                             "ERRANT's scorer counts a match once per copy (ERRANT issue 49)")
                    break
                if overlaps(e, f):
                    yield at(i, "overlap",
                             f"annotator {ann}'s edit {e.start} {e.end} overlaps its edit "
                             f"{f.start} {f.end} on line {block.edit_line_number(j)}")
                    break


def lint_blocks(blocks: Iterable[M2Block], path: str, annotators: int | None = None
                ) -> LintResult:
    """Lint blocks read with ``read_m2(..., lenient=True)`` (two passes over a list).
    ``annotators``: the expected number of annotators (ids 0 … N-1); default: every id seen."""
    blocks = list(blocks)
    result = LintResult(path, len(blocks))
    if annotators is None:
        all_ids = {e.annotator for b in blocks for e in b.edits}
    else:
        all_ids = set(range(annotators))
    # "dialect": -NONE- in ChERRANT's dialect, which writes every deletion so
    deletions: dict[str, list[int]] = {"-NONE-": [], "dialect": [], "empty": []}
    for block in blocks:
        result.findings.extend(_block_findings(block, path, all_ids))
        for i, e in enumerate(block.edits):
            if not e.is_noop and e.start < e.end and e.cor.strip() in (NONE, ""):
                kind = "empty" if not e.cor.strip() else "dialect" if block.targets else "-NONE-"
                deletions[kind].append(block.edit_line_number(i))
    none, empty = deletions["-NONE-"], deletions["empty"]
    if none:
        result.findings.append(Finding(
            path, none[0], "none-deletion",
            f"{len(none)} deletion(s) written '-NONE-' (errtype and MaxMatch read an empty "
            "correction; ERRANT 3.0.2 the literal token '-NONE-')"))
    none = sorted(none + deletions["dialect"])
    if none and empty:
        result.findings.append(Finding(
            path, max(none[0], empty[0]), "none-and-empty",
            f"deletions written both '-NONE-' ({len(none)}, first on line {none[0]}) and empty "
            f"({len(empty)}, first on line {empty[0]})"))
    result.findings.sort(key=lambda f: f.line)
    return result


def lint_m2(path: str | os.PathLike[str], encoding_errors: str = "strict",
            annotators: int | None = None) -> LintResult:
    """Lint one M2 file. Raises :class:`errtype.errors.InputError` if it cannot be read at all
    (a malformed line); spans outside the sentence are findings, not errors."""
    return lint_blocks(read_m2(path, errors=encoding_errors, lenient=True), str(path),
                       annotators)
