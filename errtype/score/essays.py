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
from dataclasses import replace
from typing import Any

from ..edit import Edit
from ..errors import InputError
from ..essay.multigec import hypothesis_text, is_multigec, read_parallel_essays
from ..essay.realign import EssayAnnotation, boundary_edit
from ..m2 import M2Block, annotation_block
from ..records import Annotation
from .extract import apply_edits

__all__ = ["ESSAY_VIEWS", "is_essay_input", "load_essay_suite", "without_joins"]

PathLike = str | os.PathLike[str]

_PUNCT = re.compile(r"[^\w\s]+")

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
    """``ea`` less the edits that join or split sentences: those that change only punctuation
    and letter case (the same words, lower-cased) and either touch a sentence boundary inside
    their group on one side only (``word Word`` -> ``word , word``; ``..`` -> ``.. ,``), or, not
    at the group's end, change the number of sentence-final marks
    (:func:`~errtype.essay.realign.boundary_edit`: ``. He`` -> ``, he`` where the segmenter did
    not cut). A final ``.`` added at the end of a sentence stays a correction."""
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
            kept.append([e for e in es if not _joins(e, o_cuts, c_cuts, o_len, c_len)])
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


def _words(text: str) -> list[str]:
    return [w for w in (_PUNCT.sub("", t).lower() for t in text.split()) if w]


def _joins(edit: Edit, o_cuts: set[int], c_cuts: set[int], o_len: int, c_len: int) -> bool:
    """Whether ``edit`` only joins or splits sentences (see :func:`without_joins`)."""
    if edit.o_start < 0 or _words(edit.o_str) != _words(edit.c_str):
        return False
    on_o = any(edit.o_start <= cut <= edit.o_end for cut in o_cuts)
    on_c = any(edit.c_start <= cut <= edit.c_end for cut in c_cuts)
    if on_o != on_c:
        return True
    at_end = edit.o_end == o_len and edit.c_end == c_len
    return not at_end and boundary_edit(edit)


def _blocks(ann: Annotation, picks: list[int]) -> M2Block:
    return annotation_block(ann, picks)


def _hyp(ann: Annotation, i: int, boundary_edits: bool) -> tuple[M2Block, str]:
    """Correction ``i``'s block, and its text: as written, or (without ``boundary_edits``) the
    original with the correction's other edits applied, so a merge or split is not seen."""
    block = annotation_block(ann, [i])
    if boundary_edits:
        return block, ann.cors[i].text
    return block, apply_edits(block.tokens, block.edits_by_annotator().get(0, []))


def load_essay_suite(systems: Sequence[tuple[str, PathLike]], ref: Sequence[PathLike],
                     src: PathLike, *, lang: str, annotator: Callable[[], Any],
                     realign: bool = True, language: Any = None,
                     boundary_edits: bool | None = None) -> Any:
    """The essay :class:`~errtype.score.suite.Suite` of Markdown inputs (module docstring); its
    ``sentences`` is the suite of the joint units. ``boundary_edits`` (default: not when
    realigning, as before without): keep the edits that only join or split sentences."""
    from ..essay.realign import annotate_essays
    from .suite import Suite, SuiteSystem

    for path in [*ref, *(p for _, p in systems)]:
        if not is_multigec(path):
            raise InputError("the source is MultiGEC Markdown essays, so every reference and "
                             "system must be too", path=str(path))
    names = [n for n, _ in systems]
    essays = read_parallel_essays(src, [*ref, *(p for _, p in systems)])
    n_ref = len(ref)
    items = [(e.orig, [*e.corrections[:n_ref],
                       *(hypothesis_text(h) for h in e.corrections[n_ref:])]) for e in essays]
    ann = annotator()
    keep = not realign if boundary_edits is None else boundary_edits
    e_src: list[str] = []
    e_gold: list[M2Block] = []
    e_hyp: dict[str, list[M2Block]] = {n: [] for n in names}
    e_txt: dict[str, list[str]] = {n: [] for n in names}
    u_src: list[str] = []
    u_gold: list[M2Block] = []
    u_hyp: dict[str, list[M2Block]] = {n: [] for n in names}
    u_txt: dict[str, list[str]] = {n: [] for n in names}
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
        whole = ea.annotation()
        e_src.append(whole.orig.text)
        e_gold.append(_blocks(whole, refs))
        for name, i in zip(names, syst, strict=True):
            block, text = _hyp(whole, i, keep)
            e_hyp[name].append(block)
            e_txt[name].append(text)
        for unit in ea.units():
            a = unit.annotation
            u_src.append(a.orig.text)
            u_gold.append(_blocks(a, refs))
            for name, i in zip(names, syst, strict=True):
                block, text = _hyp(a, i, keep)
                u_hyp[name].append(block)
                u_txt[name].append(text)
    if not essays:
        raise InputError("no essay in the source", path=str(src))
    paths = dict(systems)
    how = ("realigned sentence by sentence (errtype.essay.realign)" if realign
           else "each aligned whole (--no-realign)")
    if not keep:
        how += ("; edits that only join or split sentences are left out of the gold and the "
                "systems")
    notes = [f"{len(essays)} MultiGEC essays ({len(u_src)} sentence units), every reference and "
             f"system {how}; sentence-level metrics score the units, corpus metrics the essays "
             f"(docs/essays.md)"]
    if missing_refs:
        notes.append(f"{missing_refs} essay reference(s) missing from the reference files: "
                     f"those essays have fewer references")
    absent = {n: sum(1 for e in essays if e.corrections[n_ref + j] is None)
              for j, n in enumerate(names)}
    for name, count in absent.items():
        if count:
            notes.append(f"warning: {name}: {count} essay(s) missing, scored as the official "
                         f"'{hypothesis_text(None)}'")

    def suite(srcs: list[str], gold: list[M2Block], hyp: dict[str, list[M2Block]],
              txt: dict[str, list[str]], view: str) -> Any:
        s = Suite(srcs, [SuiteSystem(n, str(paths[n]), txt[n], hyp[n]) for n in names],
                  gold_name=", ".join(map(str, ref)) or "<none>", lang=lang,
                  _gold=gold if ref else None, _gold_extracted=bool(ref),
                  _annotator=ann, language=language)
        s.essay_view = view
        return s

    out = suite(e_src, e_gold, e_hyp, e_txt, "essays" if realign else "whole")
    out.sentences = suite(u_src, u_gold, u_hyp, u_txt, "units" if realign else "whole")
    out.notes.extend(notes)
    return out
