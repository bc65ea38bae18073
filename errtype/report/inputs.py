"""Report inputs: the gold M2 (or parallel references) and each system's edits.

A gold M2 whose types are not the annotator's type set (NUCLE types against ERRANT-typed
systems) is re-typed by the annotator by default, and the re-typed gold is cached.

A system is an M2 file (its own edits) or tokenised text, one sentence per line, whose edits are
extracted with the language's annotator. Every source sentence is parsed once for all systems,
and hypotheses equal to the source (or to another system's hypothesis) are not parsed again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, ResourceError
from ..m2 import M2Block
from ..retype import Retyped
from ..score.suite import load_suite
from .typesets import foreign_types, type_set

PathLike = str | os.PathLike[str]


@dataclass
class System:
    """One system: its corrected sentences and its edits (M2 blocks, annotator 0)."""

    name: str
    hypotheses: list[str]
    blocks: list[M2Block]
    origin: str = ""


@dataclass
class ReportInput:
    """Gold blocks and systems, aligned sentence by sentence."""

    gold: list[M2Block]
    systems: list[System]
    gold_name: str = "<gold>"
    lang: str = "en"
    notes: list[str] = field(default_factory=list)
    #: the re-typed gold's origin, when the gold was re-typed
    retyped: Retyped | None = None

    @property
    def sources(self) -> list[str]:
        return [b.source for b in self.gold]


GOLD_TYPES = ("auto", "keep", "retype")


def load_input(ref: Sequence[PathLike], systems: Sequence[tuple[str, PathLike]], *,
               src: PathLike | None = None, lang: str = "en", annotator: Any = None,
               gold_types: str = "auto", cache: bool = True, unit: str | None = None
               ) -> ReportInput:
    """Read the gold (one M2 file, or ``src`` + parallel corrected texts) and the systems.

    Text systems (and parallel references) are annotated with ``annotator`` or
    ``errtype.load(lang)``, loaded only when needed. Line counts and M2 sources are checked
    against the gold; errors name the file and line.

    ``gold_types`` says what happens to the types of an M2 gold: ``"auto"`` re-types it with
    the annotator (as ``errtype-m2 -gold``) when it has types outside the annotator's type set
    (:mod:`.typesets`; e.g. CoNLL-2014's NUCLE types) and every system with typed edits is
    in that set (text systems always are); ``"keep"`` keeps its types; ``"retype"`` always
    re-types. The re-typed gold is cached on disk (:mod:`errtype.retype`) unless ``cache=False``.
    ``unit``: ``token`` or ``char`` (:func:`errtype.score.units.resolve_unit`).
    """
    if gold_types not in GOLD_TYPES:
        raise ValueError(f"gold_types must be one of {', '.join(GOLD_TYPES)}, not {gold_types!r}")
    if not ref:
        raise InputError("no reference given")
    suite = load_suite(systems, ref, src, lang=lang,
                       annotator=(lambda: annotator) if annotator is not None else None,
                       unit=unit)
    gold = suite.gold()
    notes = list(suite.notes)
    retyped = None
    if suite.is_m2_gold and gold_types != "keep":
        m2_sys = {s.name: s.blocks for s in suite.systems if s.blocks is not None}
        text_sys = any(s.blocks is None for s in suite.systems)
        why = (_foreign_gold(gold, m2_sys, text_sys, lang, annotator, notes)
               if gold_types == "auto" else "re-typing was asked for")
        if why:
            try:
                ann = suite.annotator()
            except ResourceError as exc:
                raise ResourceError(f"{exc} (the annotator re-types the gold, {why}; "
                                    f"--keep-gold-types keeps its types)") from exc
            retyped = suite.retype(cache)
            gold = retyped.blocks
            notes.append(_retype_note(why, ann, retyped))
    blocks = suite.hyp_blocks()
    out = []
    for s in suite.systems:
        origin = (f"{s.path} (M2)" if s.blocks is not None
                  else f"{s.path} (text; edits by errtype-{suite.annotator().lang})")
        out.append(System(s.name, s.hypotheses, blocks[s.name], origin))
    notes += [n for n in suite.notes if n not in notes]
    used = suite.annotator_if_loaded()
    return ReportInput(gold, out, suite.gold_name, used.lang if used is not None else lang,
                       notes, retyped)


def _foreign_gold(gold: Sequence[M2Block], m2_sys: Mapping[str, Sequence[M2Block]],
                  text_sys: bool, lang: str, annotator: Any, notes: list[str]) -> str:
    """Why the gold should be re-typed ('' = it should not): its types outside the
    annotator's set, when the systems' types are in it. A kept foreign gold gets a note."""
    from ..lang import get_language

    language = annotator.language if annotator is not None else get_language(lang)
    known = type_set(language)
    if known is None:
        return ""
    foreign = foreign_types(gold, known)
    if not foreign:
        return ""
    off = [n for n, blocks in m2_sys.items() if foreign_types(blocks, known)]
    typed = text_sys or any(not e.is_noop for bs in m2_sys.values() for b in bs
                            for e in b.edits)
    if off or not typed:
        why = (f"system(s) {', '.join(off)} use types outside it too" if off
               else "no system has typed edits")
        notes.append(f"the gold's types are not errtype's {language.code} type set, but {why}: "
                     f"the gold keeps its own types")
        return ""
    n = sum(foreign.values())
    top = ", ".join(t for t, _ in foreign.most_common(4))
    return (f"{n} of its edits carry {len(foreign)} types outside errtype's {language.code} "
            f"type set (e.g. {top})")


def _retype_note(why: str, annotator: Any, r: Retyped) -> str:
    parser = getattr(annotator.parser, "name", type(annotator.parser).__name__)
    where = ("read from the cache " if r.cached else "cached in ") + str(r.path) if r.path else (
        "not cached: no writable cache folder")
    return (f"gold edits re-typed by errtype's {annotator.lang} annotator ({parser}) because "
            f"{why}, so the per-type rows compare the systems' types with the gold's; "
            f"--keep-gold-types keeps the gold's own types; {where}")
