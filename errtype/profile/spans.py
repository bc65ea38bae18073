"""Gold M2 as (sentence, corrected sentence, human edits) and span P/R/F1 against it.

A gold edit is ``(start, end, correction)`` of one annotator (default 0): ``-NONE-`` is an empty
correction and of ``a||b`` the first alternative counts. The corrected sentence applies the
annotator's edits as the M2 scorer does (overlapping edits: the longer one wins, :mod:`errtype.m2`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..m2 import ALT, M2SCORER, apply_edits, none_as_empty, read_m2

#: a span as compared: (start, end, correction tokens joined by spaces)
SpanKey = tuple[int, int, str]


@dataclass(frozen=True)
class GoldEdit:
    """One human edit: original span, correction, category and where the correction sits in
    the corrected sentence (``None`` when an overlapping edit was applied instead)."""

    start: int
    end: int
    cor: str
    category: str
    c_start: int | None
    c_end: int | None

    @property
    def key(self) -> SpanKey:
        return (self.start, self.end, self.cor)


@dataclass(frozen=True)
class GoldSentence:
    """One M2 block: its tokens, one annotator's corrected tokens and edits, its document."""

    index: int
    doc: str
    tokens: tuple[str, ...]
    cor_tokens: tuple[str, ...]
    edits: tuple[GoldEdit, ...]


def _first(cor: str) -> str:
    return " ".join(none_as_empty(cor.split(ALT)[0]).split())


def read_gold(path: str | os.PathLike[str], annotator: int = 0) -> list[GoldSentence]:
    """The sentences of a gold M2 file with ``annotator``'s edits. Document-marker blocks
    (``S # NNNN``, UA-GEC) are left out and name the document of the blocks after them; a file
    without markers has one document per block."""
    out: list[GoldSentence] = []
    doc = ""
    for n, block in enumerate(read_m2(path)):
        if block.document is not None:
            doc = block.document
            continue
        tokens = block.tokens
        mine = [e for e in block.edits if e.annotator == annotator and not e.is_noop]
        applied = apply_edits(tokens, mine, M2SCORER)
        edits = tuple(GoldEdit(p.edit.start, p.edit.end, _first(p.edit.cor), p.edit.type,
                               p.c_start, p.c_end) for p in applied.placed)
        out.append(GoldSentence(n, doc or str(n), tuple(tokens), tuple(applied.tokens), edits))
    return out


def halves(sents: Sequence[GoldSentence]) -> tuple[list[GoldSentence], list[GoldSentence]]:
    """Two disjoint halves: by document when the file names documents (each document, in file
    order, to the half with fewer edits so far), else by block order (first and second half)."""
    docs: dict[str, list[GoldSentence]] = {}
    for s in sents:
        docs.setdefault(s.doc, []).append(s)
    if len(docs) < len(sents):
        parts: tuple[list[GoldSentence], list[GoldSentence]] = ([], [])
        sizes = [0, 0]
        for group in docs.values():
            k = 0 if sizes[0] <= sizes[1] else 1
            parts[k].extend(group)
            sizes[k] += sum(len(g.edits) for g in group)
        return parts[0], parts[1]
    mid = len(sents) // 2
    return list(sents[:mid]), list(sents[mid:])


def folds(sents: Sequence[GoldSentence], k: int) -> list[list[GoldSentence]]:
    """``k`` disjoint folds, by document as :func:`halves`."""
    docs = list(dict.fromkeys(s.doc for s in sents))
    where = {d: i * k // max(1, len(docs)) for i, d in enumerate(docs)}
    out: list[list[GoldSentence]] = [[] for _ in range(k)]
    for s in sents:
        out[where[s.doc]].append(s)
    return out


@dataclass(frozen=True)
class PRF:
    """Span counts and precision, recall, F1 (in %)."""

    tp: int
    fp: int
    fn: int

    @property
    def p(self) -> float:
        return 100 * self.tp / max(1, self.tp + self.fp)

    @property
    def r(self) -> float:
        return 100 * self.tp / max(1, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return 2 * self.p * self.r / max(1e-9, self.p + self.r)


def span_prf(gold: Iterable[Iterable[SpanKey]], found: Iterable[Iterable[SpanKey]]) -> PRF:
    """Exact-match span P/R/F1 of ``found`` against ``gold``, sentence by sentence."""
    tp = fp = fn = 0
    for g, f in zip(gold, found, strict=True):
        gs, fs = set(g), set(f)
        tp += len(gs & fs)
        fp += len(fs - gs)
        fn += len(gs - fs)
    return PRF(tp, fp, fn)
