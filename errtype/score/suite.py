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
from .common import ScoreResult, with_setting
from .extract import (
    annotate_to_blocks,
    apply_edits,
    extract_edits,
    gold_references,
    m2_dialect,
)
from .registry import Metric, ScoreInput, describe
from .units import char_block, char_text, is_char_segmented, resolve_unit

__all__ = ["EDIT_GOLD", "Row", "Suite", "SuiteSystem", "aggregate_rows", "load_suite",
           "parse_system_arg", "score_systems"]

PathLike = str | os.PathLike[str]

#: how the gold edits of ERRANT-edit metrics (errant, senterrant, cleme, goto, pt-errant) are
#: made from an M2 gold; ``errtype score`` and ``errtype report`` default to "detect"
EDIT_GOLD = {
    "detect": "the gold M2's own edits, re-typed by the annotator as with retype when the "
              "gold's types are not the annotator's type set and the systems' types are "
              "(e.g. a NUCLE-typed gold against ERRANT-typed systems); the output says so",
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
    #: the blocks as read, when the system's M2 is in ChERRANT's dialect (else None)
    as_read: list[M2Block] | None = None


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
    _hyp_blocks: dict[bool, dict[str, list[M2Block]]] = field(default_factory=dict, repr=False)
    _edit_gold: dict[str, list[M2Block]] = field(default_factory=dict, repr=False)
    _gold_extracted: bool = field(default=False, repr=False)
    #: the re-typed gold and its cache entry, once ``edit_gold("retype")`` has made it
    retyped: Any = field(default=None, repr=False)
    #: the errtype Language whose type set tells a foreign gold (default: the loaded
    #: annotator's, else ``get_language(lang)``)
    language: Any = field(default=None, repr=False)
    #: what "detect" resolved to, and why the gold is re-typed (empty: it is not)
    _detected: tuple[str, str] | None = field(default=None, repr=False)
    _shared: dict[tuple[str, str], dict[Any, Any]] = field(default_factory=dict, repr=False)
    notes: list[str] = field(default_factory=list)
    #: the scoring unit, ``token`` or ``char`` (every input was segmented in it when read; in
    #: characters, edits are extracted between characters in every language)
    unit: str = "token"
    #: the M2 gold was segmented in words and is scored in characters (its edits re-expressed)
    word_gold: bool = False
    #: the gold blocks as read, when the gold M2 is in ChERRANT's dialect (else None)
    _gold_as_read: list[M2Block] | None = field(default=None, repr=False)
    #: essays (MultiGEC Markdown inputs, :mod:`errtype.score.essays`): the suite of the joint
    #: sentence units, which sentence-level metrics score instead of this one (one line per
    #: essay); None for line inputs
    sentences: Suite | None = field(default=None, repr=False)
    #: essays: which view this suite is (a key of :data:`errtype.score.essays.ESSAY_VIEWS`)
    essay_view: str | None = None

    def view(self, level: str) -> Suite:
        """The suite a metric of ``level`` (``sentence`` or ``corpus``) scores: for essays, the
        sentence units or the essays; else this one."""
        return self.sentences if level == "sentence" and self.sentences is not None else self

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
            self._gold = annotate_to_blocks(self.annotator(), items,
                                            pretokenised=self.unit == "char")
            self._gold_extracted = True
            self.notes.append(f"gold edits extracted from {len(self._references)} reference "
                              f"text(s) by errtype's {self.lang} annotator")
        return self._gold

    def references(self) -> list[list[str]]:
        """Reference texts (``[k][i]``): as given, or one per gold annotator."""
        if self._references is None:
            self._references = gold_references(self.gold())
        return self._references

    def resolve_edit_gold(self, mode: str) -> str:
        """The gold edit mode ``mode`` stands for: ``"detect"`` is ``"retype"`` when the M2
        gold's types are foreign (:meth:`foreign_gold`), else ``"m2"``; the others are
        themselves."""
        if mode not in EDIT_GOLD:
            raise InputError(f"unknown gold edit mode {mode!r} (choose from "
                             f"{', '.join(EDIT_GOLD)})")
        if mode != "detect":
            return mode
        if self._detected is None and self.is_m2_gold and self.word_gold:
            self._detected = ("auto", "")
            self.notes.append("the gold M2 is segmented in words and scored in characters: the "
                              "gold edits of the ERRANT-edit metrics are extracted in "
                              "characters from its corrected texts, as the systems' are "
                              "(--edit-gold auto)")
        if self._detected is None:
            why = self.foreign_gold() if self.is_m2_gold else ""
            self._detected = ("retype" if why else "m2", why)
        return self._detected[0]

    @property
    def retype_reason(self) -> str:
        """Why "detect" re-typed the gold ('' when it did not, or was not asked)."""
        return self._detected[1] if self._detected else ""

    def gold_language(self) -> Any:
        """The errtype Language whose type set the gold is checked against."""
        if self.language is not None:
            return self.language
        if self._annotator is not None:
            return self._annotator.language
        from ..lang import get_language

        return get_language(self.lang)

    def foreign_gold(self) -> str:
        """Why the M2 gold should be re-typed ('' = it should not): some of its types are
        outside the annotator's type set (:mod:`errtype.lang.typesets`) and every system with
        typed edits is in it (text systems always are). A foreign gold kept because an M2
        system shares its scheme, or no system has typed edits, gets a note."""
        from ..lang.typesets import foreign_types, type_set

        language = self.gold_language()
        known = type_set(language)
        if known is None:
            return ""
        foreign = foreign_types(self.gold(), known)
        if not foreign:
            return ""
        m2_sys = [s for s in self.systems if s.blocks is not None]
        off = [s.name for s in m2_sys if foreign_types(s.blocks or [], known)]
        typed = len(m2_sys) < len(self.systems) or any(
            not e.is_noop for s in m2_sys for b in s.blocks or [] for e in b.edits)
        if off or not typed:
            why = (f"system(s) {', '.join(off)} use types outside it too" if off
                   else "no system has typed edits")
            self.notes.append(f"the gold's types are not errtype's {language.code} type set, "
                              f"but {why}: the gold keeps its own types")
            return ""
        n = sum(foreign.values())
        top = ", ".join(t for t, _ in foreign.most_common(4))
        return (f"{n} of its edits carry {len(foreign)} types outside errtype's "
                f"{language.code} type set (e.g. {top})")

    def edit_gold(self, mode: str = "m2") -> list[M2Block]:
        """Gold blocks for metrics comparing the annotator's edits (see :data:`EDIT_GOLD`)."""
        mode = self.resolve_edit_gold(mode)
        if mode == "m2" or self._references is not None and (self._gold is None
                                                             or self._gold_extracted):
            return self.gold()  # a gold from texts holds the annotator's edits already
        if mode not in self._edit_gold:
            if mode == "auto":
                refs = gold_references(self.gold())
                items = [(s, [r[i] for r in refs]) for i, s in enumerate(self.sources)]
                self._edit_gold[mode] = annotate_to_blocks(self.annotator(), items,
                                                           pretokenised=self.unit == "char")
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
            self.notes.append(self.retype_note())
        return self.retyped

    def retype_note(self) -> str:
        """What re-typed the gold, why, and where the re-typed gold is cached."""
        r, ann = self.retyped, self.annotator()
        parser = getattr(ann.parser, "name", type(ann.parser).__name__)
        why = self.retype_reason or "re-typing was asked for"
        where = ((("read from the cache " if r.cached else "cached in ") + str(r.path))
                 if r.path else "not cached: no writable cache folder")
        return (f"gold edits re-typed by errtype's {ann.lang} annotator ({parser}) because "
                f"{why}, so the systems' edits and the gold's have one type set; {where}")

    def hyp_blocks(self, dialect: bool = False) -> dict[str, list[M2Block]]:
        """Every system's edits: its own (M2 systems) or extracted for all text systems at once.

        ``dialect``: as read (M2 systems in ChERRANT's dialect keep every edit sequence) or as
        the language's M2 dialect writes them (text systems; see
        :func:`errtype.score.extract.extract_edits`)."""
        text = {s.name: s.hypotheses for s in self.systems if s.blocks is None}
        written = dialect and bool(text) and m2_dialect(self.annotator()) != "standard"
        if written not in self._hyp_blocks:  # a standard dialect: extracted once
            self._hyp_blocks[written] = (extract_edits(
                self.annotator(), self.sources, text, written,
                pretokenised=self.unit == "char") if text else {})
        out = dict(self._hyp_blocks[written])
        for s in self.systems:
            if s.blocks is not None:
                out[s.name] = s.as_read if dialect and s.as_read is not None else s.blocks
        return out

    def inputs(self, metric: Metric) -> list[ScoreInput]:
        """One :class:`ScoreInput` per system holding what ``metric`` uses; a metric comparing
        the annotator's edits gets the gold its ``gold_edits`` setting asks for, one using the
        ``dialect`` gets the M2 blocks as read ("detect" is resolved here, and the metric's
        setting becomes what it resolved to, so that its signature says which gold was
        scored)."""
        uses = describe(metric).uses
        edit_gold = getattr(metric, "gold_edits", None)
        if edit_gold is None:  # a metric without the setting (cherrant) scores the M2's edits,
            # or, from a gold in words scored in characters, characters as the systems' are
            edit_gold = (self.resolve_edit_gold("detect") if self.word_gold
                         and "hyp_edits" in uses else "m2")
        as_read = "dialect" in uses
        if edit_gold == "detect" and "gold" in uses and "hyp_edits" in uses:
            edit_gold = self.resolve_edit_gold(edit_gold)
            metric.gold_edits = edit_gold  # type: ignore[attr-defined]  # the signature's
        gold: list[M2Block] = []
        tag = "none"
        if "gold" in uses:
            tag = edit_gold if "hyp_edits" in uses else "m2"
            gold = self.edit_gold(tag) if "hyp_edits" in uses else self.gold()
            if as_read and tag == "m2" and self._gold_as_read is not None:
                gold = self._gold_as_read
        refs = self.references() if "references" in uses else None
        hyp = self.hyp_blocks(as_read) if "hyp_edits" in uses else {}
        return [ScoreInput(gold, s.hypotheses, hyp.get(s.name), self.sources, s.name, refs,
                           shared=self._shared.setdefault(
                               (s.name, f"{tag}:dialect" if as_read else tag), {}))
                for s in self.systems]


def _read_m2(path: PathLike) -> tuple[list[M2Block], list[M2Block] | None]:
    """Blocks in standard M2, and as read when the file is in ChERRANT's dialect (else None)."""
    blocks = list(read_m2(path))
    if not any(b.is_cherrant for b in blocks):
        return blocks, None
    return [b.to_standard() for b in blocks], blocks


def _once(factory: Callable[[], Any] | None, lang: str) -> Callable[[], Any]:
    """The annotator factory ``factory`` (default ``errtype.load(lang)``), called at most once:
    the segmenter of texts without spaces and the edit extractor are one annotator."""
    made: list[Any] = []

    def annotator() -> Any:
        if not made:
            if factory is None:
                from .. import load

                made.append(load(lang))
            else:
                made.append(factory())
        return made[0]

    return annotator


def _segmented(annotator: Callable[[], Any], lang: str, language: Any,
               gold: list[M2Block] | None, src_lines: list[str] | None,
               refs: list[list[str]] | None, texts: dict[str, list[str]]
               ) -> tuple[list[str] | None, list[list[str]] | None, dict[str, list[str]]]:
    """Texts of a language written without spaces, in the gold's tokens.

    When the gold's sentences are segmented as errtype segments (``errtype-m2``'s segmenter,
    :meth:`errtype.annotator.Annotator.segment`), or there is no M2 gold, every text is
    segmented so (references and systems as corrections). A gold segmented otherwise
    (NLPCC-2018's PKUNLP words) leaves texts as given, which must then be segmented as it is:
    a file with no space in any line is refused. Texts of other languages are unchanged."""
    from ..lang import get_language

    if (language or get_language(lang)).spaced:
        return src_lines, refs, texts
    ann = annotator()
    if gold is not None:
        found = ann.segment(b.source for b in gold)
        differ = next((b for b, f in zip(gold, found, strict=True) if f.split() != b.tokens),
                      None)
        if differ is not None:
            said = ann.language.segmenter_hint
            hint = f" ({said})" if said else ""
            for name, lines in [("--src", src_lines or []), *texts.items()]:
                if lines and not any(len(t.split()) > 1 for t in lines):
                    raise InputError(
                        f"{name}: {lang} text without spaces, but the gold is not segmented as "
                        f"errtype segments it (line {differ.line}: {differ.source[:40]!r}): "
                        f"give the text segmented as the gold, annotate with the segmenter "
                        f"that made it{hint}, or score characters (--unit char)")
            return src_lines, refs, texts
    src_lines = None if src_lines is None else ann.segment(src_lines)
    refs = None if refs is None else [ann.segment(r, corrections=True) for r in refs]
    texts = {name: ann.segment(lines, corrections=True) for name, lines in texts.items()}
    return src_lines, refs, texts


def load_suite(systems: Sequence[tuple[str, PathLike]], ref: Sequence[PathLike] = (),
               src: PathLike | None = None, *, lang: str = "en",
               annotator: Callable[[], Any] | None = None, unit: str | None = None,
               same_source: bool = True, language: Any = None, realign: bool = True) -> Suite:
    """Read and check every input before any scoring.

    ``ref``: one M2 file, or reference text files (one per annotator, parallel to ``src``), or
    nothing (reference-free metrics only; then ``src`` is required). ``systems``: (name, path)
    pairs, each tokenised text or M2 (either dialect: ChERRANT's is kept as read for the metrics
    that use it, and given in standard M2, each reference's first edit sequence, to the others).
    ``annotator``: a factory for the annotator that extracts edits (default
    ``errtype.load(lang)``), called only if a metric needs edits. ``unit``: ``token`` or
    ``char`` (:func:`errtype.score.units.resolve_unit`; the default depends on ``lang``).
    ``same_source=False`` notes an M2 system or a ``src`` line that differs from the gold's
    sentence instead of refusing it (for metrics that pair blocks by position, as ChERRANT
    does); text systems are then annotated against ``src``, as ChERRANT annotates them
    against its input.
    ``language``: the errtype Language whose type set tells a foreign gold (default
    ``get_language(lang)``; give it when the annotator is configured, e.g. with ``feats``).
    A ``src`` in MultiGEC Markdown makes an essay suite (:mod:`errtype.score.essays`);
    ``realign=False`` aligns its essays whole (``--no-realign``).
    """
    from .essays import is_essay_input, load_essay_suite

    annotator = _once(annotator, lang)
    if not systems:
        raise InputError("no system given (--hyp NAME=FILE)")
    names = [n for n, _ in systems]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InputError(f"system names must be unique: {', '.join(dup)}")
    if is_essay_input(src, ref):
        if unit not in (None, "token"):
            raise InputError("essays are scored in tokens: --unit char is not supported for "
                             "MultiGEC Markdown inputs")
        views = load_essay_suite(systems, ref, src, lang=lang,  # type: ignore[arg-type]
                                 annotator=annotator, realign=realign, language=language)
        paths = dict(systems)

        def essay_suite(v: Any) -> Suite:
            s = Suite(v.sources, [SuiteSystem(n, str(paths[n]), v.hypotheses[n],
                                              v.hyp_blocks[n]) for n in names],
                      gold_name=", ".join(map(str, ref)) or "<none>", lang=lang,
                      _gold=v.gold if ref else None, _gold_extracted=bool(ref),
                      _annotator=views.annotator, language=language)
            s.essay_view = v.view
            return s

        out = essay_suite(views.essays)
        out.sentences = essay_suite(views.units)
        out.notes.extend(views.notes)
        return out
    gold: list[M2Block] | None = None
    gold_read: list[M2Block] | None = None
    refs: list[list[str]] | None = None
    src_lines: list[str] | None = None
    if len(ref) == 1 and is_m2(ref[0]):
        gold, gold_read = _read_m2(ref[0])
        gold_name = str(ref[0])
        if src is not None:
            src_lines = _text_lines(src, len(gold), f"the gold {gold_name}")
    else:
        if src is None:
            raise InputError("parallel references need the source (--src)" if ref else
                             "without a reference, give the source (--src)")
        if any(is_m2(r) for r in ref):
            raise InputError("give one M2 gold file, or reference text files, not both")
        src_lines = _text_lines(src, None, "")
        refs = [_text_lines(r, len(src_lines), f"the source {src}") for r in ref] or None
        gold_name = ", ".join(map(str, ref)) or "<none>"
    n = len(gold) if gold is not None else len(src_lines or ())
    read: list[tuple[str, str, list[M2Block], list[M2Block] | None]] = []
    texts: dict[str, list[str]] = {}
    for name, path in systems:
        if is_m2(path):
            blocks, as_read = _read_m2(path)
            if len(blocks) != n:
                raise LineCountError(f"{len(blocks)} sentences, but the gold {gold_name} has "
                                     f"{n}", path=str(path))
            read.append((name, str(path), blocks, as_read))
        else:
            texts[name] = _text_lines(path, n, f"the gold {gold_name}")
    m2_inputs = ([(gold_name, gold)] if gold is not None else []) + [
        (path, blocks) for _, path, blocks, _ in read]
    unit = resolve_unit(unit, lang, m2_inputs, bool(texts or refs or src_lines is not None))
    hint = None if language is None else language.unit_hint(unit)
    if unit == "char" and hint is not None:
        raise InputError(f"--unit char scores {lang} in characters: {hint}, or score the "
                         f"words with --unit token")
    if unit == "token" and (texts or refs or src_lines is not None):
        src_lines, refs, texts = _segmented(annotator, lang, language, gold, src_lines, refs,
                                            texts)
    word_gold = unit == "char" and gold is not None and not is_char_segmented(gold)
    if unit == "char":
        def chars(blocks: list[M2Block] | None) -> list[M2Block] | None:
            return None if blocks is None else [char_block(b) for b in blocks]

        gold, gold_read = chars(gold), chars(gold_read)
        read = [(name, path, chars(b) or [], chars(r)) for name, path, b, r in read]
        src_lines = None if src_lines is None else [char_text(t) for t in src_lines]
        refs = None if refs is None else [[char_text(t) for t in r] for r in refs]
        texts = {name: [char_text(t) for t in lines] for name, lines in texts.items()}
    notes: list[str] = []
    if gold is not None:
        sources = [b.source for b in gold]
        differ = [i for i, s in enumerate(src_lines or ()) if s.split() != gold[i].tokens]
        if differ and same_source:
            i = differ[0]
            raise InputError(f"the source line differs from the gold sentence "
                             f"{gold[i].source[:60]!r} ({gold_name} line {gold[i].line})",
                             path=str(src), line=i + 1)
        if differ:  # paired by position: text systems are annotated against --src
            sources = list(src_lines or ())
            notes.append(f"warning: {len(differ)} source line(s) differ from the gold's "
                         f"sentence (first at {src} line {differ[0] + 1}); text systems are "
                         f"annotated against the source lines")
    else:
        sources = src_lines or []
    out = []
    for name, path in systems:
        if name in texts:
            out.append(SuiteSystem(name, str(path), texts[name]))
            continue
        _, _, blocks, as_read = next(r for r in read if r[0] == name)
        differ = [(i, hb) for i, (hb, s) in enumerate(zip(blocks, sources, strict=True))
                  if hb.tokens != s.split()]
        if differ and same_source:
            i, hb = differ[0]
            where = f" (gold line {gold[i].line})" if gold is not None else ""
            raise InputError(f"the system sentence differs from the gold sentence "
                             f"{sources[i][:60]!r}{where}", path=str(path), line=hb.line)
        if differ:
            notes.append(f"warning: {name}: {len(differ)} sentence(s) differ from the gold's "
                         f"source (first at {path} line {differ[0][1].line}); blocks are "
                         f"paired by position")
        hyps = [apply_edits(b.tokens, b.edits_by_annotator().get(0, [])) for b in blocks]
        out.append(SuiteSystem(name, str(path), hyps, blocks, as_read))
    suite = Suite(sources, out, gold_name, lang, gold, refs, annotator, unit=unit,
                  word_gold=word_gold, _gold_as_read=gold_read, language=language)
    suite.notes.extend(notes)
    return suite


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


def check_ready(metrics: Sequence[tuple[str, Metric]]) -> None:
    """What would stop a metric later (an LLM judge's missing API key) refused now, before any
    work: each metric's ``ready()``, where it has one. :func:`score_systems` calls it first; a
    caller that reads the inputs (:func:`load_suite`) calls it before that."""
    for _, metric in metrics:
        ready = getattr(metric, "ready", None)
        if ready is not None:
            ready()


def score_systems(metrics: Sequence[tuple[str, Metric]], suite: Suite,
                  timings: dict[str, float] | None = None) -> list[Row]:
    """Every (label, metric) over every system of the suite, metric by metric (system order
    kept), after :func:`check_ready`. ``timings`` receives the wall-clock seconds spent per
    metric label."""
    rows: list[Row] = []
    check_ready(metrics)
    for label, metric in metrics:
        t0 = time.perf_counter()
        info = describe(metric)
        view = suite.view(info.level)
        inputs = view.inputs(metric)
        if info.needs_systems:
            metric.prepare(inputs)  # type: ignore[attr-defined]
        for data in inputs:
            res = metric.score(data)
            if suite.unit != "token":
                res.signature = with_setting(res.signature, "unit", suite.unit)
            if view.essay_view is not None:
                from .essays import ESSAY_VIEWS

                res.signature = with_setting(res.signature, "essays",
                                             ESSAY_VIEWS[view.essay_view])
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
