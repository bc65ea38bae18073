"""ChERRANT's scorer (``compare_m2_for_evaluation.py`` of HillZhang1999/MuCGEC, Chinese GEC), as a
library: the ERRANT comparison (:mod:`errtype.score.edits.errant`) with ChERRANT's conventions.

What ChERRANT changes in errant_compare, reproduced here:

* a correction is compared with its spaces removed (``大 学`` = ``大学``), so a correction
  segmented differently from the reference still matches;
* every ``A`` line of a block counts, grouped by its annotator id: in ChERRANT's M2 dialect a
  reference's equal-cost edit sequences (``T{i}-A0``, ``T{i}-A1``, ...) share the id ``i``, so their
  edits form one set (an edit of both sequences is listed, and counted, twice);
* a sentence whose reference is one annotator with one edit key, of type ``NA`` (``无法标注``,
  not annotatable), is not scored (it adds nothing to TP, FP, FN or the type counts);
* ``max_answer_num = n`` keeps the edits of annotators ``0 .. n-1`` of both files;
  ``reference_num = n`` scores only the sentences whose reference (after that) has exactly ``n``
  annotators; ``start``/``end`` score the blocks ``[start:end]`` of both files;
* blocks are paired by position: their source sentences are not compared.

The rest is errant_compare's (:func:`errtype.score.edits.errant.choose_pair`): the pair of
hypothesis and reference annotators that maximises the running corpus F (4 decimals) per sentence,
the ``cs``/``cse``/``ds``/``dt`` modes, ``single``/``multi``/``filt``, ``UNK`` dropped in correction
modes, and the ``cat`` tables (``1`` = operation, ``2`` = the type without its first two characters,
``3`` = as written). :meth:`ErrantResult.errant_text` prints exactly what ChERRANT prints.

Where ChERRANT's script misbehaves, this follows what the option says (see docs/chinese.md,
"Scoring"): ``max_answer_num`` above 3 keeps annotators ``0 .. n-1`` (the script keeps no edit at
all, so every sentence scores as unchanged); ``start`` or ``end`` alone also slices (the script
needs both); a selection that leaves no sentence to score is refused (the script prints P = R =
F = 1.0, as for sentences with nothing to correct and nothing proposed, which keep that score
here); the blocks are read by the M2 reader (the script splits the file on blank lines, so
two blank lines in a row make an extra empty sentence there).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...errors import InputError
from ...m2 import M2Block, M2Edit, read_m2
from ..common import ScoreResult, signature
from ..options import option
from ..registry import ScoreInput, register
from .errant import (
    MODES,
    Counts,
    ErrantResult,
    SentenceCountError,
    aggregate_types,
    choose_pair,
    coder_edits,
    errant_prf,
)

__all__ = ["CHERRANT", "CherrantMetric", "cherrant_edits", "cherrant_score", "is_unannotatable"]

#: the ChERRANT version reproduced: HillZhang1999/MuCGEC, the last commit of
#: scorers/ChERRANT/compare_m2_for_evaluation.py (2022-04-27)
CHERRANT = "cherrant-cd92389"
#: ChERRANT's type of a reference marked not annotatable (``T{i} 无法标注``)
NA = "NA"

Source = str | os.PathLike[str] | Iterable[M2Block]


def cherrant_edits(block: M2Block, max_answer_num: int | None = None) -> list[M2Edit]:
    """The edits ChERRANT compares in one block: every ``A`` line (all edit sequences of each
    reference), corrections without spaces, only annotators ``0 .. max_answer_num - 1`` when
    given."""
    return [M2Edit(e.start, e.end, e.type, e.cor.replace(" ", ""), e.annotator)
            for e in block.edits
            if max_answer_num is None or 0 <= e.annotator < max_answer_num]


def is_unannotatable(ref: dict[int, dict[Any, list[str]]]) -> bool:
    """ChERRANT's skip rule: one reference annotator with one edit key, whose first type is NA."""
    if len(ref) != 1:
        return False
    (edits,) = ref.values()
    return len(edits) == 1 and next(iter(edits.values()))[0] == NA


def _blocks(source: Source, default: str) -> tuple[list[M2Block], str]:
    if isinstance(source, (str, os.PathLike)):
        return list(read_m2(source)), str(source)
    return list(source), default


def _settings(mode: str, beta: float, single: bool, multi: bool, filt: Sequence[str],
              max_answer_num: int | None, reference_num: int | None, start: int | None,
              end: int | None, extra: dict[str, Any] | None) -> dict[str, Any]:
    """The settings of a ChERRANT score, in signature order (defaults left out)."""
    settings: dict[str, Any] = {"mode": mode, "beta": float(beta)}
    optional = {"single": "yes" if single else None, "multi": "yes" if multi else None,
                "filt": ",".join(filt) or None, "max_answer_num": max_answer_num,
                "reference_num": reference_num, "start": start, "end": end}
    settings.update({k: v for k, v in optional.items() if v is not None})
    settings["round"] = 4
    settings["compat"] = CHERRANT
    settings.update(extra or {})
    return settings


def _check(mode: str, cat: int | None, max_answer_num: int | None,
           reference_num: int | None) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown ChERRANT scoring mode {mode!r} (choose from "
                         f"{', '.join(MODES)})")
    if cat not in (None, 1, 2, 3):
        raise ValueError(f"cat must be 1, 2 or 3, not {cat!r}")
    for name, value in (("max_answer_num", max_answer_num), ("reference_num", reference_num)):
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValueError(f"{name} must be a positive integer, not {value!r}")


def _nothing_selected(total: int, kept: int, start: int | None, end: int | None,
                      off_count: int, reference_num: int | None, na: int, ref_name: str
                      ) -> None:
    """Refuse a selection that scores no sentence (ChERRANT prints P = R = F = 1.0 for it)."""
    if not kept:
        why = f"start {start} and end {end} keep none of the {total} sentences"
    else:
        parts = ([f"{off_count} without exactly {reference_num} reference(s)"] if off_count
                 else []) + ([f"{na} not annotatable (NA)"] if na else [])
        why = f"of the {kept} sentences, " + " and ".join(parts)
    raise InputError(f"cherrant: no sentence to score: {why}",
                     path=None if ref_name.startswith("<") else ref_name)


def cherrant_score(
    hyp: Source,
    ref: Source,
    mode: str = "cs",
    beta: float = 0.5,
    single: bool = False,
    multi: bool = False,
    filt: Iterable[str] = (),
    cat: int | None = None,
    max_answer_num: int | None = None,
    reference_num: int | None = None,
    start: int | None = None,
    end: int | None = None,
    *,
    hyp_name: str | None = None,
    ref_name: str | None = None,
    extra_settings: dict[str, Any] | None = None,
) -> ErrantResult:
    """Score hypothesis M2 against reference M2 as ChERRANT's compare_m2_for_evaluation.py does.

    ``hyp``/``ref``: paths or iterables of :class:`M2Block` (either M2 dialect). The options are
    the script's: ``mode`` (``-cs``/``-cse``/``-ds``/``-dt``), ``beta`` (``-b``), ``single``,
    ``multi``, ``filt``, ``cat``, ``max_answer_num``, ``reference_num``, ``start``/``end``.
    The result's ``sentences`` are the scored sentences (``index`` = position in the files);
    ``counts`` add how many were skipped as not annotatable (``na``) or for ``reference_num``.
    Raises :class:`SentenceCountError` when the (sliced) files differ in length, and
    :class:`InputError` when the selection (``start``/``end``, ``reference_num``, ``NA``
    references) leaves no sentence to score: ChERRANT prints P = R = F = 1.0 then, as for a
    corpus with nothing to correct, and errtype refuses an empty selection as its report does.
    """
    _check(mode, cat, max_answer_num, reference_num)
    filt = tuple(filt)
    beta = float(beta)
    hblocks, hname = _blocks(hyp, "<hyp>")
    rblocks, rname = _blocks(ref, "<ref>")
    hname, rname = hyp_name or hname, ref_name or rname
    offset, total = 0, len(rblocks)
    if start is not None or end is not None:
        window = slice(start, end)
        offset = window.indices(len(rblocks))[0]
        hblocks, rblocks = hblocks[window], rblocks[window]
    if len(hblocks) != len(rblocks):
        longer, name = (hblocks, hname) if len(hblocks) > len(rblocks) else (rblocks, rname)
        raise SentenceCountError(
            f"{len(hblocks)} hypothesis and {len(rblocks)} reference sentences"
            f"{' in the chosen range' if offset or end is not None else ''}: sentence "
            f"{min(len(hblocks), len(rblocks)) + 1} starts here",
            path=name, line=longer[min(len(hblocks), len(rblocks))].line)
    TP = FP = FN = 0
    na = off_count = 0
    types: dict[str, Counts] = {}
    sentences: list[dict[str, Any]] = []
    for k, (hb, rb) in enumerate(zip(hblocks, rblocks, strict=True)):
        hc = coder_edits(cherrant_edits(hb, max_answer_num), mode, single, multi, filt)
        rc = coder_edits(cherrant_edits(rb, max_answer_num), mode, single, multi, filt)
        if reference_num is not None and len(rc) != reference_num:
            off_count += 1
            continue
        if is_unannotatable(rc):
            na += 1
            continue
        (tp, fp, fn, h, r, cats), _ = choose_pair(hc, rc, (TP, FP, FN), beta)
        TP, FP, FN = TP + tp, FP + fp, FN + fn
        for t, c in cats.items():
            old = types.get(t)
            types[t] = list(c) if old is None else [old[0] + c[0], old[1] + c[1], old[2] + c[2]]
        p, rr, f = errant_prf(tp, fp, fn, beta)
        sentences.append({"index": offset + k, "hyp_coder": h, "ref_coder": r, "tp": tp,
                          "fp": fp, "fn": fn, "p": p, "r": rr, "f": f, "types": cats})
    if total and not sentences:
        _nothing_selected(total, len(rblocks), start, end, off_count, reference_num, na, rname)
    p, r, f = errant_prf(TP, FP, FN, beta)
    per_type = {}
    for t, (a, b, c) in sorted(aggregate_types(types, cat).items()):
        tp_p, tp_r, tp_f = errant_prf(a, b, c, beta)
        per_type[t] = {"tp": a, "fp": b, "fn": c, "p": tp_p, "r": tp_r, "f": tp_f}
    settings = _settings(mode, beta, single, multi, filt, max_answer_num, reference_num,
                         start, end, extra_settings)
    counts: dict[str, float] = {"tp": TP, "fp": FP, "fn": FN, "sentences": len(sentences)}
    notes = []
    if na:
        counts["na"] = na
        notes.append(f"{na} sentence(s) not scored: the reference is NA (not annotatable)")
    if off_count:
        counts["other_reference_num"] = off_count
        notes.append(f"{off_count} sentence(s) not scored: not {reference_num} reference(s)")
    return ErrantResult(
        metric="cherrant",
        corpus={"p": p, "r": r, f"f{beta}": f},
        signature=signature("cherrant", settings),
        counts=counts,
        sentences=sentences,
        per_type=per_type,
        notes=notes,
        mode=mode, beta=beta, cat=cat, type_counts=types,
    )


@register("cherrant")
@dataclass
class CherrantMetric:
    """ChERRANT's compare_m2_for_evaluation.py (span-based correction by default; every option
    of the script: ``mode``, ``beta``, ``single``, ``multi``, ``filt``, ``cat``,
    ``max_answer_num``, ``reference_num``, ``start``, ``end``). Hypotheses without edits are
    annotated once with ``errtype.load(lang)`` (or the given annotator) and written in the
    language's M2 dialect, as ChERRANT's parallel_to_m2.py writes them (every equal-cost edit
    sequence)."""

    mode: str = option("cs", choices=MODES)
    beta: float = option(0.5, ge=0)
    single: bool = False
    multi: bool = False
    filt: Sequence[str] = ()
    cat: int | None = option(None, choices=(1, 2, 3))
    max_answer_num: int | None = option(None, ge=1)
    reference_num: int | None = option(None, ge=1)
    start: int | None = option(None, ge=0)
    end: int | None = option(None, ge=0)
    lang: str = "zh"
    annotator: Any = field(default=None, repr=False, compare=False)
    name: str = "cherrant"
    #: the M2 blocks as read (ChERRANT's T lines and every edit sequence), paired by position
    uses: ClassVar[tuple[str, ...]] = ("gold", "hyp_edits", "dialect")
    #: the blocks are paired by position, as ChERRANT does: a differing source is only noted
    same_source: ClassVar[bool] = False
    #: the columns of ``errtype score --tsv`` (ChERRANT's table)
    columns: ClassVar[tuple[str, ...]] = ("tp", "fp", "fn", "p", "r", "f")

    def __post_init__(self) -> None:
        _check(self.mode, self.cat, self.max_answer_num, self.reference_num)

    @property
    def main(self) -> str:
        """The headline key of the result: ChERRANT's ``f{beta}`` (``f0.5``)."""
        return f"f{float(self.beta)}"

    def options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`cherrant_score` these settings stand for."""
        return {"mode": self.mode, "beta": self.beta, "single": self.single,
                "multi": self.multi, "filt": tuple(self.filt), "cat": self.cat,
                "max_answer_num": self.max_answer_num, "reference_num": self.reference_num,
                "start": self.start, "end": self.end}

    def settings(self) -> dict[str, Any]:
        o = self.options()
        del o["cat"]
        return _settings(**o, extra=None)

    def score_blocks(self, hyp: Source, ref: Source, **kwargs: Any) -> ErrantResult:
        """:func:`cherrant_score` of hypothesis and reference M2 with these settings."""
        return cherrant_score(hyp, ref, **self.options(), **kwargs)

    def score(self, data: ScoreInput) -> ScoreResult:
        from ..extract import hypothesis_blocks

        hyp = hypothesis_blocks(data, self.lang, self.annotator, dialect=True)
        return self.score_blocks(hyp, list(data.gold), hyp_name=data.name)
