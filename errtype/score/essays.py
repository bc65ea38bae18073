"""Scoring essays: MultiGEC Markdown inputs of ``errtype score`` and ``errtype report``.

When ``--src`` is a MultiGEC Markdown file (:func:`errtype.essay.multigec.is_multigec`), every
reference and every system is matched to the orig essays by id
(:func:`errtype.essay.multigec.read_parallel_essays`) and realigned against them in one pass per
essay (:func:`errtype.essay.realign.annotate_essays`, all corrections of an essay together, so
that the sentence-level units are joint). Two views of the same annotation are scored:

* **essays** (the :class:`~errtype.score.suite.Suite` returned): one line per essay, the gold
  and each system's M2 blocks from the realigned essay-level edits
  (:meth:`~errtype.essay.realign.EssayAnnotation.annotation`). Metrics of level ``corpus``
  (the edit-based ones that read the system's edits: errant, cleme, goto, ...) score it.
* **units** (:attr:`Suite.sentences`): one line per joint unit
  (:meth:`~errtype.essay.realign.EssayAnnotation.units`), the gold and system blocks of each
  unit. Metrics of level ``sentence`` (those that align or compare texts themselves: maxmatch,
  gleu, green, model-based metrics, sentence averages) score it.

A reference file lacking an essay gives that essay fewer references (the gold block lists fewer
annotators; text metrics read the first reference in its place, as
:func:`~errtype.score.extract.gold_references` does). A system lacking an essay is the official
scorer's ``!`` (:func:`errtype.essay.multigec.hypothesis_text`).
``realign=False`` (``--no-realign``): each correction is aligned with the whole essay as one
sentence and every view has one line per essay (the behaviour before realignment).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..edit import Edit
from ..errors import InputError
from ..essay.multigec import (
    hypothesis_text,
    is_multigec,
    metadata_notes,
    read_parallel_essays,
)
from ..essay.realign import EssayAnnotation, boundary_edit
from ..m2 import M2Block, annotation_block
from ..records import Annotation
from .extract import apply_edits

__all__ = ["ESSAY_VIEWS", "is_essay_input", "load_essay_suite", "without_joins"]

PathLike = str | os.PathLike[str]

_PUNCT = re.compile(r"[^\w\s]+")
_FINAL = frozenset(".!?…。！？")

#: signature value of each view (``essays:...`` is added to the metric's signature)
ESSAY_VIEWS = {"units": "realigned-units", "essays": "realigned-essays", "whole": "whole-essays"}


def is_essay_input(src: PathLike | None, ref: Sequence[PathLike] = ()) -> bool:
    """Whether the inputs are MultiGEC Markdown essays (told by ``src``'s content)."""
    if src is None or str(src) == "-":
        return False
    try:
        return is_multigec(src)
    except OSError:
        return False


def without_joins(ea: EssayAnnotation) -> EssayAnnotation:
    """``ea`` with the joins and splits of sentences undone in its edits (:func:`_unjoin`): a
    system that merges or splits sentences keeps the edits it would make unmerged. Sentence
    boundaries are the segmenter's and those after a final mark before a capital
    (:func:`_mark_cuts`)."""
    edits: list[list[list[Edit]] | None] = []
    for cors, groups, per_group in zip(ea.cors, ea.groups, ea.group_edits, strict=True):
        if cors is None or groups is None or per_group is None:
            edits.append(per_group)
            continue
        kept = []
        for g, es in zip(groups, per_group, strict=True):
            if not es:
                kept.append(es)
                continue
            o_cuts, o_len = _cuts(ea.orig[g.o_start:g.o_end])
            c_cuts, c_len = _cuts(cors[g.c_start:g.c_end])
            o_tok = [t for sent in ea.orig[g.o_start:g.o_end] for t in sent.texts]
            c_tok = [t for sent in cors[g.c_start:g.c_end] for t in sent.texts]
            o_cuts |= _mark_cuts(o_tok)
            c_cuts |= _mark_cuts(c_tok)
            norm = [_tokens(e, o_tok, c_tok) for e in es]
            done = [u for e in norm if (u := _unjoin(e, o_cuts, c_cuts, o_len, c_len))]
            kept.append(done)
        edits.append(kept)
    return replace(ea, group_edits=edits, _joined={})


def _cuts(sents: Sequence[Any]) -> tuple[set[int], int]:
    """The token offsets of the sentence boundaries inside ``sents``, and their length."""
    cuts, at = set(), 0
    for sent in sents:
        at += len(sent)
        cuts.add(at)
    cuts.discard(at)
    return cuts, at


def _mark_cuts(tokens: list[str]) -> set[int]:
    """Boundaries a segmenter may have missed: after a final mark, before a capital."""
    return {i for i in range(1, len(tokens))
            if set(tokens[i - 1]) <= _FINAL and tokens[i][:1].isupper()}


def _tokens(e: Edit, o_tok: list[str], c_tok: list[str]) -> Edit:
    """``e`` with its two strings the tokens of its spans joined by spaces (the blocks of
    :func:`without_joins` are written from them: ``annotation_block(source_text=True)``)."""
    if e.o_start < 0:
        return e
    return Edit(e.o_start, e.o_end, e.c_start, e.c_end, " ".join(o_tok[e.o_start:e.o_end]),
                " ".join(c_tok[e.c_start:e.c_end]), e.type)


def _words(tokens: Sequence[str]) -> list[str]:
    return [w for w in (_PUNCT.sub("", t).lower() for t in tokens) if w]


def _unjoin(edit: Edit, o_cuts: set[int], c_cuts: set[int], o_len: int, c_len: int
            ) -> Edit | None:
    """``edit`` without what joins or splits sentences (None: nothing else is left).

    * An edit that changes only punctuation and letter case (the same words, lower-cased) is a
      join or split when it touches a sentence boundary inside its group on one side only
      (``word Word`` -> ``word , word``; ``..`` -> ``.. ,``), or, away from the group's end,
      changes the number of sentence-final marks (:func:`~errtype.essay.realign.boundary_edit`:
      ``. He`` -> ``, he`` where the segmenter did not cut). A final ``.`` added at the end of a
      sentence stays a correction.
    * Any other edit that touches a boundary of the original which the correction joined gets
      the original's sentence-final mark and capital back at it (``. Musime`` -> ``, musíme``
      becomes ``Musime`` -> ``Musíme``), so the rest of it is scored as unmerged.
    """
    if edit.o_start < 0:
        return edit
    o_toks, c_toks = edit.o_str.split(), edit.c_str.split()
    on_o = [c for c in o_cuts if edit.o_start <= c <= edit.o_end]
    on_c = any(edit.c_start <= c <= edit.c_end for c in c_cuts)
    if _words(o_toks) == _words(c_toks):
        if bool(on_o) != on_c:
            return None
        at_end = edit.o_end == o_len and edit.c_end == c_len
        return None if not at_end and boundary_edit(edit) else edit
    if not on_o or on_c:
        return edit
    fixed = list(c_toks)
    for cut in sorted(on_o, reverse=True):
        fixed = _restore(o_toks, fixed, cut - edit.o_start)
    if fixed == o_toks:
        return None
    head = 0
    while head < min(len(o_toks), len(fixed)) and o_toks[head] == fixed[head]:
        head += 1
    tail = 0
    while (tail < min(len(o_toks), len(fixed)) - head
           and o_toks[-1 - tail] == fixed[-1 - tail]):
        tail += 1
    o_new, c_new = o_toks[head:len(o_toks) - tail], fixed[head:len(fixed) - tail]
    return Edit(edit.o_start + head, edit.o_end - tail, edit.c_start + head,
                edit.c_start + head + len(c_new), " ".join(o_new), " ".join(c_new), edit.type)


def _restore(o_toks: list[str], c_toks: list[str], i: int) -> list[str]:
    """``c_toks`` with the boundary of ``o_toks`` before token ``i`` put back: the first word
    at or after it capitalised as the original's was, and the original's final mark (or
    nothing) in place of the punctuation the correction put before that word (at the edit's
    end: after its last word)."""
    final = o_toks[i - 1] if 0 < i <= len(o_toks) and set(o_toks[i - 1]) <= _FINAL else None
    if i >= len(o_toks):
        j = len(c_toks)
        out = list(c_toks)
    else:
        if not o_toks[i][:1].isupper():
            return c_toks
        found = next((k for k in range(max(i - 1, 0), len(c_toks)) if _words([c_toks[k]])),
                     None)
        if found is None or not c_toks[found][:1].islower():
            return c_toks
        j = found
        out = [*c_toks[:j], c_toks[j][:1].upper() + c_toks[j][1:], *c_toks[j + 1:]]
    k = j
    while k > 0 and not _words([out[k - 1]]) and not set(out[k - 1]) <= _FINAL:
        k -= 1  # the joining punctuation before the word (",", ";")
    if k > 0 and set(out[k - 1]) <= _FINAL:
        return out  # the correction keeps a final mark there
    return [*out[:k], *([final] if final else []), *out[j:]]


def _blocks(ann: Annotation, picks: list[int], joins: bool) -> M2Block:
    """The M2 block of corrections ``picks``; without ``joins`` (:func:`without_joins`), the
    edits' own strings are the corrections."""
    return annotation_block(ann, picks, source_text=not joins)


def _hyp(ann: Annotation, i: int, boundary_edits: bool) -> tuple[M2Block, str]:
    """Correction ``i``'s block, and its text: as written, or (without ``boundary_edits``) the
    original with the correction's other edits applied, so a merge or split is not seen."""
    block = _blocks(ann, [i], boundary_edits)
    if boundary_edits:
        return block, ann.cors[i].text
    return block, apply_edits(block.tokens, block.edits_by_annotator().get(0, []))


@dataclass
class EssayView:
    """One view of scored essays: a line per essay or per joint unit."""

    sources: list[str]
    gold: list[M2Block]
    hyp_blocks: dict[str, list[M2Block]]
    hypotheses: dict[str, list[str]]
    view: str

    def add(self, ann: Annotation, refs: list[int], systems: dict[str, int],
            boundary_edits: bool) -> None:
        """One line: ``ann``'s original, the gold of its corrections ``refs`` and each system's
        block and text (``systems``: name -> correction index)."""
        self.sources.append(ann.orig.text)
        self.gold.append(_blocks(ann, refs, boundary_edits))
        for name, i in systems.items():
            block, text = _hyp(ann, i, boundary_edits)
            self.hyp_blocks[name].append(block)
            self.hypotheses[name].append(text)


@dataclass
class EssayViews:
    """The essays and the joint units, the notes of the run, and the annotator used."""

    essays: EssayView
    units: EssayView
    notes: list[str]
    annotator: Any


def load_essay_suite(systems: Sequence[tuple[str, PathLike]], ref: Sequence[PathLike],
                     src: PathLike, *, lang: str, annotator: Callable[[], Any],
                     realign: bool = True, language: Any = None,
                     boundary_edits: bool | None = None) -> EssayViews:
    """The two views of Markdown inputs (module docstring), from which
    :func:`errtype.score.suite.load_suite` builds the essay suite and its ``sentences`` (the
    joint units). ``boundary_edits`` (default: not when realigning, as before without): keep the
    edits that only join or split sentences."""
    from ..essay.realign import annotate_essays

    for path in [*ref, *(p for _, p in systems)]:
        if not is_multigec(path):
            why = ("has no essay" if not Path(path).read_text("utf-8", "replace").strip()
                   else "is not MultiGEC Markdown")
            raise InputError(f"the source is MultiGEC Markdown essays, so every reference and "
                             f"system must be too, but this file {why}", path=str(path))
    names = [n for n, _ in systems]
    essays = read_parallel_essays(src, [*ref, *(p for _, p in systems)])
    n_ref = len(ref)
    items = [(e.orig, [*e.corrections[:n_ref],
                       *(hypothesis_text(h) for h in e.corrections[n_ref:])]) for e in essays]
    ann = annotator()
    keep = not realign if boundary_edits is None else boundary_edits
    essay_view = EssayView([], [], {n: [] for n in names}, {n: [] for n in names},
                           "essays" if realign else "whole")
    unit_view = EssayView([], [], {n: [] for n in names}, {n: [] for n in names},
                          "units" if realign else "whole")
    missing_refs = 0
    for essay, ea in zip(essays, annotate_essays(ann, items, realign), strict=True):
        if not keep:
            ea = without_joins(ea)
        present = ea.present  # every system is present ("!" when missing)
        pos = {k: i for i, k in enumerate(present)}
        refs = [pos[k] for k in range(n_ref) if k in pos]
        missing_refs += n_ref - len(refs)
        syst = [pos[n_ref + j] for j in range(len(names))]
        if ea.error is not None:
            raise InputError(f"essay {essay.id!r}: {ea.error}", path=str(src))
        essay_view.add(ea.annotation(), refs, dict(zip(names, syst, strict=True)), keep)
        for unit in ea.units():
            unit_view.add(unit.annotation, refs, dict(zip(names, syst, strict=True)), keep)
    if not essays:
        raise InputError("no essay in the source", path=str(src))
    how = ("realigned sentence by sentence (errtype.essay.realign)" if realign
           else "each aligned whole (--no-realign)")
    if not keep:
        how += ("; edits that only join or split sentences are left out of the gold and the "
                "systems")
    notes = [f"{len(essays)} MultiGEC essays ({len(unit_view.sources)} sentence units), every "
             f"reference and system {how}; sentence-level metrics score the units, corpus "
             f"metrics the essays "
             f"(docs/essays.md)"]
    notes.extend(metadata_notes(src, ref, lang))
    if missing_refs:
        notes.append(f"{missing_refs} essay reference(s) missing from the reference files: "
                     f"those essays have fewer references")
    absent = {n: sum(1 for e in essays if e.corrections[n_ref + j] is None)
              for j, n in enumerate(names)}
    for name, count in absent.items():
        if count:
            notes.append(f"warning: {name}: {count} essay(s) missing, scored as the official "
                         f"'{hypothesis_text(None)}'")

    return EssayViews(essay_view, unit_view, notes, ann)
