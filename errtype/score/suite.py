"""Several metrics over several systems in one run (what ``errtype score`` does).

:func:`load_suite` reads the gold (one M2 file, or reference texts with the source), the sources
and every system (tokenised text, or M2 with its own edits) and checks their lengths before any
metric runs. Everything expensive is done at most once and only when a metric asks for it: the
systems' edits are extracted together (each source parsed once for all systems, unchanged and
repeated hypotheses not parsed; see :func:`errtype.score.extract.extract_edits`), the gold edits of
reference texts likewise, and MaxMatch's edit paths are shared by ``maxmatch`` and ``sentm2``.

:func:`score_systems` runs configured metrics over the suite: metrics whose definition depends on
the set of systems (GoToScorer) are prepared with all of them first.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import InputError, LineCountError
from ..m2 import M2Block, is_m2, read_m2
from ..textio import read_lines
from .common import ScoreResult
from .extract import annotate_to_blocks, apply_edits, extract_edits, gold_references
from .registry import Metric, ScoreInput, describe

__all__ = ["EDIT_GOLD", "Row", "Suite", "SuiteSystem", "aggregate_rows", "load_suite",
           "parse_system_arg", "score_systems"]

PathLike = str | os.PathLike[str]

#: how the gold edits of ERRANT-edit metrics (errant, senterrant, goto) are made from an M2 gold
EDIT_GOLD = {
    "m2": "the gold M2's own edits",
    "auto": "re-extracted by the annotator from each gold annotator's corrected text "
            "(errant_m2 -auto; what SEEDA's ERRANT columns use)",
    "retype": "the gold M2's edits re-typed by the annotator (errant_m2 -gold)",
}


def parse_system_arg(arg: str) -> tuple[str, str]:
    """``NAME=FILE`` (or just ``FILE``, named by its file name)."""
    name, sep, path = arg.partition("=")
    if not sep:
        return Path(arg).name, arg
    if not name or not path:
        raise InputError(f"expected NAME=FILE, got {arg!r}")
    return name, path


def _text_lines(path: PathLike, expected: int | None, what: str) -> list[str]:
    lines = [ln.text.strip() for ln in read_lines(path)]
    if expected is not None and len(lines) != expected:
        raise LineCountError(f"{len(lines)} lines, but {what} has {expected} sentences",
                             path=str(path))
    return lines


@dataclass
class SuiteSystem:
    """One system: its corrected sentences, and its own edits when it was given as M2."""

    name: str
    path: str
    hypotheses: list[str]
    blocks: list[M2Block] | None = None


@dataclass
class Suite:
    """Sources, gold, references and systems, aligned sentence by sentence.

    ``gold`` and ``references`` are made on first use when only the other was given;
    ``annotator`` (a factory, called once) extracts edits only when a metric needs them.
    """

    sources: list[str]
    systems: list[SuiteSystem]
    gold_name: str = "<none>"
    lang: str = "en"
    _gold: list[M2Block] | None = None
    _references: list[list[str]] | None = None
    _annotator_factory: Callable[[], Any] | None = field(default=None, repr=False)
    _annotator: Any = field(default=None, repr=False)
    _hyp_blocks: dict[str, list[M2Block]] | None = field(default=None, repr=False)
    _edit_gold: dict[str, list[M2Block]] = field(default_factory=dict, repr=False)
    _gold_extracted: bool = field(default=False, repr=False)
    #: the re-typed gold and its cache entry, once ``edit_gold("retype")`` has made it
    retyped: Any = field(default=None, repr=False)
    _shared: dict[tuple[str, str], dict[Any, Any]] = field(default_factory=dict, repr=False)
    notes: list[str] = field(default_factory=list)

    def annotator(self) -> Any:
        """The annotator that extracts edits (made on first use)."""
        if self._annotator is None:
            if self._annotator_factory is None:
                from .. import load

                self._annotator = load(self.lang)
            else:
                self._annotator = self._annotator_factory()
        return self._annotator

    def annotator_if_loaded(self) -> Any:
        return self._annotator

    @property
    def is_m2_gold(self) -> bool:
        """The gold was an M2 file (not reference texts)."""
        return self._gold is not None and not self._gold_extracted

    def gold(self) -> list[M2Block]:
        """The gold M2 blocks (extracted from the reference texts when those were given)."""
        if self._gold is None:
            if self._references is None:
                raise InputError("this metric needs a gold: give --ref GOLD.m2 or reference "
                                 "texts")
            items = [(s, [r[i] for r in self._references]) for i, s in enumerate(self.sources)]
            self._gold = annotate_to_blocks(self.annotator(), items)
            self._gold_extracted = True
            self.notes.append(f"gold edits extracted from {len(self._references)} reference "
                              f"text(s) by errtype's {self.lang} annotator")
        return self._gold

    def references(self) -> list[list[str]]:
        """Reference texts (``[k][i]``): as given, or one per gold annotator."""
        if self._references is None:
            self._references = gold_references(self.gold())
        return self._references

    def edit_gold(self, mode: str = "m2") -> list[M2Block]:
        """Gold blocks for metrics comparing the annotator's edits (see :data:`EDIT_GOLD`)."""
        if mode not in EDIT_GOLD:
            raise InputError(f"unknown gold edit mode {mode!r} (choose from "
                             f"{', '.join(EDIT_GOLD)})")
        if mode == "m2" or self._references is not None and (self._gold is None
                                                             or self._gold_extracted):
            return self.gold()  # a gold from texts holds the annotator's edits already
        if mode not in self._edit_gold:
            if mode == "auto":
                refs = gold_references(self.gold())
                items = [(s, [r[i] for r in refs]) for i, s in enumerate(self.sources)]
                self._edit_gold[mode] = annotate_to_blocks(self.annotator(), items)
            else:
                self._edit_gold[mode] = self.retype().blocks
        return self._edit_gold[mode]

    def retype(self, cache: bool = True) -> Any:
        """The M2 gold re-typed by the annotator (``errtype-m2 -gold``), cached on disk
        (:func:`errtype.retype.retype_gold`); returns its :class:`~errtype.retype.Retyped`."""
        from ..retype import retype_gold

        if not self.is_m2_gold:
            raise InputError("only an M2 gold can be re-typed")
        if self.retyped is None:
            self.retyped = retype_gold(self.gold_name, self.gold(), self.annotator(), cache)
            self._edit_gold["retype"] = self.retyped.blocks
        return self.retyped

    def hyp_blocks(self) -> dict[str, list[M2Block]]:
        """Every system's edits: its own (M2 systems) or extracted for all text systems at once."""
        if self._hyp_blocks is None:
            text = {s.name: s.hypotheses for s in self.systems if s.blocks is None}
            out = extract_edits(self.annotator(), self.sources, text) if text else {}
            out.update({s.name: s.blocks for s in self.systems if s.blocks is not None})
            self._hyp_blocks = out
        return self._hyp_blocks

    def inputs(self, metric: Metric) -> list[ScoreInput]:
        """One :class:`ScoreInput` per system holding what ``metric`` uses; a metric comparing
        the annotator's edits gets the gold its ``gold_edits`` setting asks for."""
        uses = describe(metric).uses
        edit_gold = getattr(metric, "gold_edits", "m2")
        gold: list[M2Block] = []
        tag = "none"
        if "gold" in uses:
            tag = edit_gold if "hyp_edits" in uses else "m2"
            gold = self.edit_gold(tag) if "hyp_edits" in uses else self.gold()
        refs = self.references() if "references" in uses else None
        hyp = self.hyp_blocks() if "hyp_edits" in uses else {}
        return [ScoreInput(gold, s.hypotheses, hyp.get(s.name), self.sources, s.name, refs,
                           shared=self._shared.setdefault((s.name, tag), {}))
                for s in self.systems]


def load_suite(systems: Sequence[tuple[str, PathLike]], ref: Sequence[PathLike] = (),
               src: PathLike | None = None, *, lang: str = "en",
               annotator: Callable[[], Any] | None = None) -> Suite:
    """Read and check every input before any scoring.

    ``ref``: one M2 file, or reference text files (one per annotator, parallel to ``src``), or
    nothing (reference-free metrics only; then ``src`` is required). ``systems``: (name, path)
    pairs, each tokenised text or M2. ``annotator``: a factory for the annotator that extracts
    edits (default ``errtype.load(lang)``), called only if a metric needs edits.
    """
    if not systems:
        raise InputError("no system given (--hyp NAME=FILE)")
    names = [n for n, _ in systems]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(f"system names must be unique: {', '.join(dup)}")
    gold: list[M2Block] | None = None
    refs: list[list[str]] | None = None
    if len(ref) == 1 and is_m2(ref[0]):
        gold = list(read_m2(ref[0]))
        gold_name = str(ref[0])
        sources = [b.source for b in gold]
        if src is not None:
            for i, s in enumerate(_text_lines(src, len(gold), f"the gold {gold_name}")):
                if s.split() != gold[i].tokens:
                    raise InputError(f"the source line differs from the gold sentence "
                                     f"{gold[i].source[:60]!r} ({gold_name} line {gold[i].line})",
                                     path=str(src), line=i + 1)
    else:
        if src is None:
            raise InputError("parallel references need the source (--src)" if ref else
                             "without a reference, give the source (--src)")
        if any(is_m2(r) for r in ref):
            raise InputError("give one M2 gold file, or reference text files, not both")
        sources = _text_lines(src, None, "")
        refs = [_text_lines(r, len(sources), f"the source {src}") for r in ref] or None
        gold_name = ", ".join(map(str, ref)) or "<none>"
    out = []
    for name, path in systems:
        if is_m2(path):
            blocks = list(read_m2(path))
            if len(blocks) != len(sources):
                raise LineCountError(f"{len(blocks)} sentences, but the gold {gold_name} has "
                                     f"{len(sources)}", path=str(path))
            for i, (hb, s) in enumerate(zip(blocks, sources, strict=True)):
                if hb.tokens != s.split():
                    where = f" (gold line {gold[i].line})" if gold is not None else ""
                    raise InputError(f"the system sentence differs from the gold sentence "
                                     f"{s[:60]!r}{where}", path=str(path), line=hb.line)
            hyps = [apply_edits(b.tokens, b.edits_by_annotator().get(0, [])) for b in blocks]
            out.append(SuiteSystem(name, str(path), hyps, blocks))
        else:
            out.append(SuiteSystem(name, str(path),
                                   _text_lines(path, len(sources), f"the gold {gold_name}")))
    return Suite(sources, out, gold_name, lang, gold, refs, annotator)


@dataclass
class Row:
    """One system's result under one metric; ``value`` is the metric's headline corpus score, or
    the system score that ``aggregation`` gave it (:func:`aggregate_rows`)."""

    system: str
    metric: str
    result: ScoreResult
    value: float
    scale: float
    aggregation: str = "default"

    @property
    def signature(self) -> str:
        """The metric's signature, with the aggregation when there is one."""
        if self.aggregation == "default":
            return self.result.signature
        from .meta.aggregation import describe_aggregation

        return f"{self.result.signature}|aggregation:{describe_aggregation(self.aggregation)}"


def score_systems(metrics: Sequence[tuple[str, Metric]], suite: Suite,
                  timings: dict[str, float] | None = None) -> list[Row]:
    """Every (label, metric) over every system of the suite, metric by metric (system order
    kept). ``timings`` receives the wall-clock seconds spent per metric label."""
    rows: list[Row] = []
    for label, metric in metrics:
        t0 = time.perf_counter()
        info = describe(metric)
        inputs = suite.inputs(metric)
        if info.needs_systems:
            metric.prepare(inputs)  # type: ignore[attr-defined]
        for data in inputs:
            res = metric.score(data)
            key = info.main or next(iter(res.corpus))
            rows.append(Row(data.name, label, res, float(res.corpus[key]), info.scale))
        if timings is not None:
            timings[label] = timings.get(label, 0.0) + time.perf_counter() - t0
    return rows


def aggregate_rows(rows: Sequence[Row], aggregation: str = "default") -> list[Row]:
    """The rows with each metric's system scores replaced by ``trueskill`` or ``expected_wins``
    over its sentence scores, the systems in the order of the rows
    (:func:`errtype.score.meta.aggregation.aggregate`); ``default`` keeps them."""
    from .common import sentence_scores
    from .meta.aggregation import AGGREGATIONS, aggregate

    if aggregation not in AGGREGATIONS:
        raise InputError(f"unknown aggregation {aggregation!r} (choose from "
                         f"{', '.join(AGGREGATIONS)})")
    if aggregation == "default":
        return list(rows)
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(r.metric, []).append(r)
    system_scores: dict[tuple[str, str], float] = {}
    for label, group in groups.items():
        try:
            scores = {r.system: sentence_scores(r.result) for r in group}
        except InputError as exc:
            raise InputError(f"--aggregation {aggregation} needs sentence scores: {exc}"
                             ) from None
        for system, value in aggregate(scores, aggregation).items():
            system_scores[(label, system)] = value
    return [replace(r, value=system_scores[(r.metric, r.system)], scale=1,
                    aggregation=aggregation) for r in rows]
