"""Report inputs: the gold M2 (or parallel references) and each system's edits.

A system is an M2 file (its own edits) or tokenised text, one sentence per line, whose edits are
extracted with the language's annotator. Every source sentence is parsed once for all systems,
and hypotheses equal to the source (or to another system's hypothesis) are not parsed again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, LineCountError
from ..m2 import M2Block, read_m2
from ..score.extract import extract_edits
from ..textio import read_lines

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


def is_m2(path: PathLike) -> bool:
    """An ``.m2`` name, or a first non-blank line that starts with ``S ``."""
    if str(path).endswith(".m2"):
        return True
    for ln in read_lines(path):
        if ln.text.strip():
            return ln.text.startswith("S ")
    return False


def parse_system_arg(arg: str) -> tuple[str, str]:
    """``NAME=FILE`` (or just ``FILE``, named by its file name)."""
    name, sep, path = arg.partition("=")
    if not sep:
        return Path(arg).name, arg
    if not name or not path:
        raise InputError(f"expected NAME=FILE, got {arg!r}")
    return name, path


def _text_lines(path: PathLike, expected: int, gold_name: str) -> list[str]:
    lines = [ln.text.strip() for ln in read_lines(path)]
    if len(lines) != expected:
        raise LineCountError(f"{len(lines)} lines, but the gold {gold_name} has {expected} "
                             f"sentences", path=str(path))
    return lines


def retype(annotator: Any, gold: Sequence[M2Block]) -> list[M2Block]:
    """The gold blocks with their edits re-typed by the annotator (``errtype-m2 -gold``)."""
    from ..convert import reannotate_block

    out = []
    for b in gold:
        text = reannotate_block(annotator, b, "gold")
        new = next(iter(read_m2(text.splitlines(), name="<retyped>")))
        out.append(M2Block(b.source, new.edits, b.line))
    return out


def apply_block(block: M2Block) -> str:
    """The corrected sentence of an M2 system block (coder 0, first alternative)."""
    from ..score.extract import apply_edits

    return apply_edits(block.tokens, block.edits_by_annotator().get(0, []))


def load_input(ref: Sequence[PathLike], systems: Sequence[tuple[str, PathLike]], *,
               src: PathLike | None = None, lang: str = "en", annotator: Any = None,
               retype_gold: bool = False) -> ReportInput:
    """Read the gold (one M2 file, or ``src`` + parallel corrected texts) and the systems.

    Text systems (and parallel references) are annotated with ``annotator`` or
    ``errtype.load(lang)``, loaded only when needed. Line counts and M2 sources are checked
    against the gold; errors name the file and line. ``retype_gold`` re-types the gold M2
    edits with the annotator (as ``errtype-m2 -gold``), e.g. NUCLE types -> ERRANT types.
    """
    if not ref:
        raise InputError("no reference given")
    if not systems:
        raise InputError("no system given (--hyp NAME=FILE)")
    state = {"annotator": annotator}

    def get_annotator() -> Any:
        if state["annotator"] is None:
            from .. import load

            state["annotator"] = load(lang)
        return state["annotator"]

    notes: list[str] = []
    if len(ref) == 1 and is_m2(ref[0]):
        gold = list(read_m2(ref[0]))
        gold_name = str(ref[0])
        if retype_gold:
            gold = retype(get_annotator(), gold)
            notes.append(f"gold edits re-typed by errtype's {get_annotator().lang} annotator")
        if src is not None:
            srcs = _text_lines(src, len(gold), gold_name)
            for i, (b, s) in enumerate(zip(gold, srcs, strict=True)):
                if b.tokens != s.split():
                    raise InputError(f"the source line differs from the gold sentence "
                                     f"{b.source[:60]!r} ({gold_name} line {b.line})",
                                     path=str(src), line=i + 1)
    else:
        if src is None:
            raise InputError("parallel references need the source (--src)")
        from ..score.extract import annotate_to_blocks
        from ..textio import read_parallel

        rows = [[t.strip() for t in r] for _, r in read_parallel([src, *ref])]
        gold = annotate_to_blocks(get_annotator(), [(r[0], r[1:]) for r in rows])
        gold_name = ", ".join(map(str, ref))
        notes.append(f"gold edits extracted from {len(ref)} reference text(s) by errtype's "
                     f"{lang} annotator")
    names = [n for n, _ in systems]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise InputError(f"system names must be unique: {', '.join(sorted(dup))}")
    m2_sys: dict[str, list[M2Block]] = {}
    text_sys: dict[str, list[str]] = {}
    for name, path in systems:
        if is_m2(path):
            blocks = list(read_m2(path))
            if len(blocks) != len(gold):
                raise LineCountError(f"{len(blocks)} sentences, but the gold {gold_name} has "
                                     f"{len(gold)}", path=str(path))
            for hb, gb in zip(blocks, gold, strict=True):
                if hb.tokens != gb.tokens:
                    raise InputError(f"the system sentence differs from the gold sentence "
                                     f"{gb.source[:60]!r} (gold line {gb.line})",
                                     path=str(path), line=hb.line)
            m2_sys[name] = blocks
        else:
            text_sys[name] = _text_lines(path, len(gold), gold_name)
    sources = [b.source for b in gold]
    extracted = extract_edits(get_annotator(), sources, text_sys) if text_sys else {}
    out = []
    for name, path in systems:
        if name in m2_sys:
            blocks = m2_sys[name]
            out.append(System(name, [apply_block(b) for b in blocks], blocks, f"{path} (M2)"))
        else:
            out.append(System(name, text_sys[name], extracted[name],
                              f"{path} (text; edits by errtype-{get_annotator().lang})"))
    used = state["annotator"]
    return ReportInput(gold, out, gold_name, used.lang if used is not None else lang, notes)
