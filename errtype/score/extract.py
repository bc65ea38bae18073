"""What every metric family shares: the edits of text hypotheses, extracted with an annotator,
and the reference texts of gold M2 annotators.

Edit extraction is the expensive step (a parser runs), so :func:`extract_edits` parses each source
once for all systems and never parses a hypothesis equal to its source or to another system's
hypothesis; edit-based metrics scoring the same systems take its blocks instead of extracting
again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import m2
from ..m2 import M2Block, M2Edit, M2Target, annotation_block
from .registry import ScoreInput

__all__ = ["MISSING", "annotate_to_blocks", "apply_edits", "extract_edits", "gold_references",
           "hypothesis_blocks", "m2_dialect"]

#: what an annotator absent from a block wrote (:func:`gold_references`)
MISSING = ("first", "unchanged")

NOOP = M2Edit(-1, -1, "noop", "-NONE-", 0)


def apply_edits(tokens: Sequence[str], edits: Sequence[M2Edit]) -> str:
    """The corrected sentence of one annotator: :func:`errtype.m2.apply_edits` with the default
    (m2scorer-style) rules, joined by spaces."""
    return m2.apply_edits(tokens, edits).text


def gold_references(gold: Sequence[M2Block], missing: str = "first") -> list[list[str]]:
    """One corrected text per annotator of the gold (``references[k][i]``).

    ``missing`` says what an annotator absent from a block that lists others wrote: the same as
    the block's ``"first"`` annotator (default: the CoNLL-2014 combined M2 drops an annotation
    equal to an earlier one, and with it the published GLEU numbers are reproduced) or the
    sentence ``"unchanged"``. A block without edit lines leaves every reference unchanged.
    """
    if missing not in MISSING:
        raise ValueError(f"missing must be 'unchanged' or 'first', not {missing!r}")
    anns = sorted({a for b in gold for a in b.annotators()}) or [0]
    refs: list[list[str]] = [[] for _ in anns]
    for b in gold:
        by_ann = b.edits_by_annotator()
        first = next(iter(by_ann.values()), [])
        for r, a in enumerate(anns):
            edits = by_ann.get(a, first if missing == "first" else [])
            refs[r].append(apply_edits(b.tokens, edits))
    return refs


def annotate_to_blocks(annotator: Any, items: Iterable[tuple[str, Sequence[str]]],
                       tokenize: bool = False, pretokenised: bool = False) -> list[M2Block]:
    """M2 blocks of (source, [correction, ...]) pairs; correction k is annotator k
    (``pretokenised``: see :meth:`errtype.annotator.Annotator.annotate_stream`)."""
    return [annotation_block(ann) for ann in annotator.annotate_stream(
        items, tokenize=tokenize, **({"pretokenised": True} if pretokenised else {}))]


def _edits_of(ann: Any, k: int) -> list[M2Edit]:
    ctexts = ann.cors[k].texts
    return [M2Edit(e.o_start, e.o_end, e.type, " ".join(ctexts[e.c_start:e.c_end]), 0)
            for e in ann.edits[k]] or [NOOP]


def m2_dialect(annotator: Any) -> str:
    """The M2 dialect the annotator's language writes (``standard``, or ``cherrant``)."""
    return getattr(getattr(annotator, "language", None), "m2_dialect", "standard")


def _dialect_block(ann: Any, k: int) -> M2Block:
    """Correction ``k`` of an annotation as the language's M2 dialect writes it, as annotator 0
    (ChERRANT's: every equal-cost edit sequence under its ``T0-A{j}`` line)."""
    block = m2.cherrant_block(ann)
    targets, edits = [], []
    for t, group in block.target_edits():
        if t.annotator == k:
            targets.append(M2Target(0, t.alternative, t.text, t.size))
            edits.extend(e._replace(annotator=0) for e in group)
    return M2Block(block.source, edits, targets=targets)


def extract_edits(annotator: Any, sources: Sequence[str],
                  systems: Mapping[str, Sequence[str]], dialect: bool = False,
                  pretokenised: bool = False) -> dict[str, list[M2Block]]:
    """Hypothesis blocks (annotator 0) of every text system, parsing each source and each
    distinct changed hypothesis once (a hypothesis token-identical to its source is a noop,
    unless the language rewrites corrections first: Chinese converts them to simplified
    characters). ``dialect``: blocks as the language's M2 dialect writes them (standard M2 for
    most; ChERRANT's, with every equal-cost edit sequence, for Chinese). ``pretokenised``: the
    texts' space-separated tokens are kept in every language (characters scored as tokens)."""
    from ..lang.base import Language

    lang = getattr(annotator, "language", None)  # None: an annotator-like object
    rewrites = lang is not None and type(lang).correction_text is not Language.correction_text
    dialect = dialect and m2_dialect(annotator) == "cherrant"
    names = list(systems)
    items: list[tuple[str, list[str]]] = []
    for i, src in enumerate(sources):
        toks = src.split()
        distinct: list[str] = []
        for n in names:
            h = " ".join(systems[n][i].split())
            if (rewrites or h.split() != toks) and h not in distinct:
                distinct.append(h)
        items.append((src, distinct))
    changed = [i for i, (_, d) in enumerate(items) if d]  # unchanged sentences are not parsed
    found: dict[int, list[M2Block]] = {}
    stream = annotator.annotate_stream((items[i] for i in changed),
                                       **({"pretokenised": True} if pretokenised else {}))
    for i, ann in zip(changed, stream, strict=True):
        found[i] = [_dialect_block(ann, k) if dialect else M2Block(items[i][0], _edits_of(ann, k))
                    for k in range(len(items[i][1]))]
    out: dict[str, list[M2Block]] = {n: [] for n in names}
    for i, (src, distinct) in enumerate(items):
        for n in names:
            h = " ".join(systems[n][i].split())
            out[n].append(found[i][distinct.index(h)] if h in distinct
                          else M2Block(src, [NOOP]))
    return out


def hypothesis_blocks(data: ScoreInput, lang: str = "en", annotator: Any = None,
                      dialect: bool = False) -> list[M2Block]:
    """The system's edits: ``data.hyp_blocks`` when given, else extracted from its hypotheses
    with ``annotator`` (default ``errtype.load(lang)``) once per system and language, and kept in
    ``data.shared`` for the other edit-based metrics (``dialect``: see :func:`extract_edits`)."""
    if data.hyp_blocks is not None:
        return list(data.hyp_blocks)
    key = ("hyp_blocks", annotator.lang if annotator is not None else lang, dialect)
    blocks = data.shared.get(key)
    if blocks is None:
        if annotator is None:
            from .. import load

            annotator = load(lang)
        sources = data.sources or []
        blocks = data.shared[key] = extract_edits(annotator, sources,
                                                  {data.name: data.hypotheses},
                                                  dialect)[data.name]
    return blocks
