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
from pathlib import Path
from typing import Any

from ..errors import InputError, LineCountError, ResourceError
from ..m2 import M2Block, M2Edit, read_m2
from ..textio import read_lines
from .retype import Retyped, retype_gold
from .typesets import foreign_types, type_set

PathLike = str | os.PathLike[str]
NOOP = M2Edit(-1, -1, "noop", "-NONE-", 0)


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


def _edits_of(ann: Any, k: int) -> list[M2Edit]:
    ctexts = ann.cors[k].texts
    return [M2Edit(e.o_start, e.o_end, e.type, " ".join(ctexts[e.c_start:e.c_end]), 0)
            for e in ann.edits[k]] or [NOOP]


def extract_edits(annotator: Any, sources: Sequence[str],
                  systems: Mapping[str, Sequence[str]]) -> dict[str, list[M2Block]]:
    """Hypothesis blocks of every text system, parsing each source and each distinct changed
    hypothesis once (a hypothesis token-identical to its source is a noop)."""
    names = list(systems)
    items: list[tuple[str, list[str]]] = []
    for i, src in enumerate(sources):
        toks = src.split()
        distinct: list[str] = []
        for n in names:
            h = " ".join(systems[n][i].split())
            if h.split() != toks and h not in distinct:
                distinct.append(h)
        items.append((src, distinct))
    changed = [i for i, (_, d) in enumerate(items) if d]  # unchanged sentences are not parsed
    found: dict[int, list[list[M2Edit]]] = {}
    for i, ann in zip(changed, annotator.annotate_stream(items[i] for i in changed),
                      strict=True):
        found[i] = [_edits_of(ann, k) for k in range(len(items[i][1]))]
    out: dict[str, list[M2Block]] = {n: [] for n in names}
    for i, (src, distinct) in enumerate(items):
        for n in names:
            h = " ".join(systems[n][i].split())
            es = found[i][distinct.index(h)] if h in distinct else [NOOP]
            out[n].append(M2Block(src, list(es)))
    return out


def apply_block(block: M2Block) -> str:
    """The corrected sentence of an M2 system block (coder 0, first alternative)."""
    from ..score.ratio import apply_edits

    return apply_edits(block.tokens, block.edits_by_annotator().get(0, []))


GOLD_TYPES = ("auto", "keep", "retype")


def load_input(ref: Sequence[PathLike], systems: Sequence[tuple[str, PathLike]], *,
               src: PathLike | None = None, lang: str = "en", annotator: Any = None,
               gold_types: str = "auto", cache: bool = True) -> ReportInput:
    """Read the gold (one M2 file, or ``src`` + parallel corrected texts) and the systems.

    Text systems (and parallel references) are annotated with ``annotator`` or
    ``errtype.load(lang)``, loaded only when needed. Line counts and M2 sources are checked
    against the gold; errors name the file and line.

    ``gold_types`` says what happens to the types of an M2 gold: ``"auto"`` re-types it with
    the annotator (as ``errtype-m2 -gold``) when it has types outside the annotator's type set
    (:mod:`.typesets`; e.g. CoNLL-2014's NUCLE types) and every system with typed edits is
    in that set (text systems always are); ``"keep"`` keeps its types; ``"retype"`` always
    re-types. The re-typed gold is cached on disk (:mod:`.retype`) unless ``cache=False``.
    """
    if gold_types not in GOLD_TYPES:
        raise ValueError(f"gold_types must be one of {', '.join(GOLD_TYPES)}, not {gold_types!r}")
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
    gold_m2 = len(ref) == 1 and is_m2(ref[0])
    if gold_m2:
        gold = list(read_m2(ref[0]))
        gold_name = str(ref[0])
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
        from ..score.ratio import annotate_to_blocks
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
    retyped = None
    if gold_m2 and gold_types != "keep":
        why = (_foreign_gold(gold, m2_sys, bool(text_sys), lang, state["annotator"], notes)
               if gold_types == "auto" else "re-typing was asked for")
        if why:
            try:
                ann = get_annotator()
            except ResourceError as exc:
                raise ResourceError(f"{exc} (the annotator re-types the gold, {why}; "
                                    f"--keep-gold-types keeps its types)") from exc
            retyped = retype_gold(ref[0], gold, ann, cache)
            gold = retyped.blocks
            notes.append(_retype_note(why, get_annotator(), retyped))
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
    return ReportInput(gold, out, gold_name, used.lang if used is not None else lang, notes,
                       retyped)


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
