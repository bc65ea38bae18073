"""Report inputs: the gold M2 (or parallel references) and each system's edits.

A system is an M2 file (its own edits) or tokenised text, one sentence per line, whose edits are
extracted with the language's annotator. Every source sentence is parsed once for all systems,
and hypotheses equal to the source (or to another system's hypothesis) are not parsed again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..m2 import M2Block
from ..score.suite import load_suite

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

    @property
    def sources(self) -> list[str]:
        return [b.source for b in self.gold]


def load_input(ref: Sequence[PathLike], systems: Sequence[tuple[str, PathLike]], *,
               src: PathLike | None = None, lang: str = "en", annotator: Any = None,
               retype_gold: bool = False) -> ReportInput:
    """Read the gold (one M2 file, or ``src`` + parallel corrected texts) and the systems
    (:func:`errtype.score.suite.load_suite`), and every system's edits.

    Text systems (and parallel references) are annotated with ``annotator`` or
    ``errtype.load(lang)``, loaded only when needed. Line counts and M2 sources are checked
    against the gold; errors name the file and line. ``retype_gold`` re-types the gold M2
    edits with the annotator (as ``errtype-m2 -gold``), e.g. NUCLE types -> ERRANT types.
    """
    if not ref:
        raise InputError("no reference given")
    suite = load_suite(systems, ref, src, lang=lang,
                       annotator=(lambda: annotator) if annotator is not None else None)
    gold = suite.edit_gold("retype") if retype_gold else suite.gold()
    notes = list(suite.notes)
    if retype_gold and suite.is_m2_gold:
        notes.append(f"gold edits re-typed by errtype's {suite.annotator().lang} annotator")
    blocks = suite.hyp_blocks()
    out = []
    for s in suite.systems:
        origin = (f"{s.path} (M2)" if s.blocks is not None
                  else f"{s.path} (text; edits by errtype-{suite.annotator().lang})")
        out.append(System(s.name, s.hypotheses, blocks[s.name], origin))
    used = suite.annotator_if_loaded()
    return ReportInput(gold, out, suite.gold_name, used.lang if used is not None else lang,
                       notes)
