"""Report inputs: the gold M2 (or parallel references) and each system's edits.

A gold M2 whose types are not the annotator's type set (NUCLE types against ERRANT-typed
systems) is re-typed by the annotator by default, as ``errtype score`` does (one rule,
:meth:`errtype.score.suite.Suite.foreign_gold`), and the re-typed gold is cached.

A system is an M2 file (its own edits) or tokenised text, one sentence per line, whose edits are
extracted with the language's annotator. Every source sentence is parsed once for all systems,
and hypotheses equal to the source (or to another system's hypothesis) are not parsed again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, ResourceError
from ..m2 import M2Block
from ..retype import Retyped
from ..score.suite import EDIT_GOLD, load_suite

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
    #: the gold edits scored (:data:`errtype.score.suite.EDIT_GOLD`; "detect" resolved)
    edit_gold: str = "m2"

    @property
    def sources(self) -> list[str]:
        return [b.source for b in self.gold]


#: the old spellings of the gold edit modes (``gold_types=``): "auto" is "detect"
GOLD_TYPES = {"auto": "detect", "keep": "m2", "retype": "retype"}


def load_input(ref: Sequence[PathLike], systems: Sequence[tuple[str, PathLike]], *,
               src: PathLike | None = None, lang: str = "en", annotator: Any = None,
               edit_gold: str = "detect", gold_types: str | None = None,
               cache: bool = True, unit: str | None = None, realign: bool = True
               ) -> ReportInput:
    """Read the gold (one M2 file, or ``src`` + parallel corrected texts) and the systems.

    Text systems (and parallel references) are annotated with ``annotator`` or
    ``errtype.load(lang)``, loaded only when needed. Line counts and M2 sources are checked
    against the gold; errors name the file and line.

    ``edit_gold`` says what the gold edits of an M2 gold are, as for ``errtype score``
    (:data:`errtype.score.suite.EDIT_GOLD`): ``"detect"`` (default) re-types the gold with the
    annotator (as ``errtype-m2 -gold``) when it has types outside the annotator's type set
    (:mod:`errtype.lang.typesets`; e.g. CoNLL-2014's NUCLE types) and every system with typed
    edits is in that set (text systems always are); ``"m2"`` keeps its edits and types;
    ``"retype"`` always re-types; ``"auto"`` re-extracts the edits from each annotator's
    corrected text. The re-typed gold is cached on disk (:mod:`errtype.retype`) unless
    ``cache=False``. ``gold_types`` is the older spelling (``"auto"``, ``"keep"``,
    ``"retype"``).
    ``unit``: ``token`` or ``char`` (:func:`errtype.score.units.resolve_unit`).
    MultiGEC Markdown inputs are essays (:mod:`errtype.score.essays`): the report's lines are
    the essays, with their realigned edits (``realign=False``: each aligned whole).
    """
    if gold_types is not None:
        if gold_types not in GOLD_TYPES:
            raise ValueError(f"gold_types must be one of {', '.join(GOLD_TYPES)}, not "
                             f"{gold_types!r}")
        edit_gold = GOLD_TYPES[gold_types]
    if edit_gold not in EDIT_GOLD:
        raise ValueError(f"edit_gold must be one of {', '.join(EDIT_GOLD)}, not {edit_gold!r}")
    if not ref:
        raise InputError("no reference given")
    suite = load_suite(systems, ref, src, lang=lang,
                       annotator=(lambda: annotator) if annotator is not None else None,
                       unit=unit, realign=realign,
                       language=annotator.language if annotator is not None else None)
    gold = suite.gold()
    mode = suite.resolve_edit_gold(edit_gold) if suite.is_m2_gold else "m2"
    if mode != "m2":
        try:
            suite.annotator()
        except ResourceError as exc:
            why = suite.retype_reason or f"edit_gold={edit_gold!r} was asked for"
            raise ResourceError(f"{exc} (the annotator makes the gold's edits, {why})"
                                ) from exc
        if mode == "retype":
            suite.retype(cache)
        gold = suite.edit_gold(mode)
    blocks = suite.hyp_blocks()
    out = []
    for s in suite.systems:
        origin = (f"{s.path} (M2)" if s.blocks is not None
                  else f"{s.path} (text; edits by errtype-{suite.annotator().lang})")
        out.append(System(s.name, s.hypotheses, blocks[s.name], origin))
    used = suite.annotator_if_loaded()
    return ReportInput(gold, out, suite.gold_name, used.lang if used is not None else lang,
                       list(dict.fromkeys(suite.notes)), suite.retyped, edit_gold=mode)
