"""The ERRANT scorer (``errant_compare`` of ERRANT 3.0.2), as a library.

Pipeline: M2 block pairs -> per-sentence ``coder -> {edit key -> [types]}`` dictionaries ->
greedy choice of the hypothesis/reference coder pair that maximises the *running corpus* F
(rounded to 4 decimals, ties: more TP, fewer FP, fewer FN, then the earliest pair) -> corpus
counts, per-type counts and the official text output (:meth:`ErrantResult.errant_text`).

Behaviour kept from ``errant_compare`` on purpose (see the spec, section 9.3):

* a block without edit lines is one noop of coder 0; a coder takes part as soon as one of its
  lines is seen, even if every edit of it is filtered away;
* keys are ``(start, end)`` for span detection, one ``(t, t + 1)`` per token for token detection
  (an insertion at ``s`` is ``(s, s + 1)``), ``(start, end, cor)`` for correction and
  ``(start, end, type, cor)`` with types;
* a hypothesis key found in the reference scores one TP per *reference* edit with that key
  (issue #49), and every count is attributed to the reference type (TP, FN) or the hypothesis
  type (FP);
* P = 1 when there is no FP, R = 1 when there is no FN, and P/R/F are rounded to 4 decimals
  (those rounded values also drive the choice of reference).

One deliberate difference: a ``-NONE-`` correction (m2scorer's spelling of a deletion, common in
human gold) is the empty correction ERRANT writes for a deletion, so a correct deletion matches
whichever way either side spells it; errant_compare takes ``-NONE-`` as a literal token and
counts it FP + FN. ``literal_none=True`` reads it as errant_compare does.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import InputError, LineCountError
from ...m2 import M2Block, M2Edit, annotation_block, none_as_empty, read_m2
from ..common import ScoreResult, prf, signature
from ..options import option
from ..registry import ScoreInput, register
from .base import EditMetric

__all__ = [
    "MODES", "ErrantMetric", "ErrantResult", "SentenceCountError", "SourceMismatchError",
    "aggregate_types", "annotate_blocks", "choose_pair", "coder_edits", "compare_edits",
    "errant_prf",
    "errant_score", "errant_score_text", "format_cat_table", "format_main_table",
    "format_verbose",
]

NOOP = "noop"
UNK = "UNK"

#: Scoring modes and their table titles, as printed by errant_compare.
MODES: dict[str, str] = {
    "dt": " Token-Based Detection ",
    "ds": " Span-Based Detection ",
    "cs": " Span-Based Correction ",
    "cse": " Span-Based Correction + Classification ",
}

Key = tuple[Any, ...]
CoderEdits = dict[Key, list[str]]
Counts = list[int]  # [TP, FP, FN]

_IMPLICIT_NOOP = (M2Edit.noop(0),)


class SentenceCountError(LineCountError):
    """The hypothesis and reference M2 files do not hold the same number of sentences."""


class SourceMismatchError(InputError):
    """A hypothesis sentence does not have the same source tokens as its reference."""


# --------------------------------------------------------------------------------------------
# Arithmetic


def errant_prf(tp: int, fp: int, fn: int, beta: float = 0.5) -> tuple[float, float, float]:
    """P, R, F-beta as errant_compare computes them (:func:`prf`), rounded to 4 decimals."""
    p, r, f = prf(tp, fp, fn, beta)
    return round(p, 4), round(r, 4), round(f, 4)


# --------------------------------------------------------------------------------------------
# Edits -> coder dictionaries


def coder_edits(
    edits: Sequence[M2Edit],
    mode: str = "cs",
    single: bool = False,
    multi: bool = False,
    filt: Iterable[str] = (),
    literal_none: bool = False,
) -> dict[int, CoderEdits]:
    """Group one block's edits by coder into ``{key: [types]}`` after the mode's filters.

    Coders appear in order of their first edit line; a block without edits is a noop of coder 0.
    An edit's ``-NONE-`` correction is the empty one (a deletion) unless ``literal_none``.
    """
    if mode not in MODES:
        raise ValueError(f"unknown ERRANT scoring mode {mode!r} (choose from {', '.join(MODES)})")
    drop = frozenset(filt)
    drop_unk = mode in ("cs", "cse")
    coders: dict[int, CoderEdits] = {}
    for e in edits or _IMPLICIT_NOOP:
        d = coders.get(e.annotator)
        if d is None:
            d = coders[e.annotator] = {}
        etype = e.type
        if drop_unk and etype == UNK:
            continue
        start, end, cor = e.start, e.end, e.cor
        if not literal_none and start != -1:
            cor = none_as_empty(cor)
        if single or multi:
            n_cor = len(cor.split())
            if single and (end - start >= 2 or n_cor >= 2):
                continue
            if multi and end - start < 2 and n_cor < 2:
                continue
        if etype in drop:
            continue
        if mode == "cs":
            d.setdefault((start, end, cor), []).append(etype)
        elif mode == "cse":
            d.setdefault((start, end, etype, cor), []).append(etype)
        elif mode == "ds":
            d.setdefault((start, end), []).append(etype)
        elif start == -1:  # dt: noop
            d.setdefault((-1, -1), []).append(etype)
        elif start == end:  # dt: insertion -> the token to its right
            d.setdefault((start, start + 1), []).append(etype)
        else:
            for t in range(start, end):
                d.setdefault((t, t + 1), []).append(etype)
    return coders


def _count(cats: dict[str, Counts], types: Sequence[str], slot: int) -> None:
    """Add one to column ``slot`` (0 TP, 1 FP, 2 FN) of each type's ``[TP, FP, FN]``."""
    for t in types:
        c = cats.get(t)
        if c is None:
            c = cats[t] = [0, 0, 0]
        c[slot] += 1


def compare_edits(hyp: CoderEdits, ref: CoderEdits) -> tuple[int, int, int, dict[str, Counts]]:
    """TP, FP, FN and per-type ``[TP, FP, FN]`` of one hypothesis coder against one reference.

    A key whose first type is ``noop`` is ignored. A matched key scores one TP per reference
    type under it; an unmatched hypothesis key one FP per hypothesis type; an unmatched
    reference key one FN per reference type.
    """
    tp = fp = fn = 0
    cats: dict[str, Counts] = {}
    for key, types in hyp.items():
        if types[0] == NOOP:
            continue
        rtypes = ref.get(key)
        if rtypes is not None:
            tp += len(rtypes)
            _count(cats, rtypes, 0)
        else:
            fp += len(types)
            _count(cats, types, 1)
    for key, types in ref.items():
        if types[0] == NOOP or key in hyp:
            continue
        fn += len(types)
        _count(cats, types, 2)
    return tp, fp, fn, cats


def aggregate_types(cats: dict[str, Counts], level: int | None = 3) -> dict[str, Counts]:
    """Per-type counts at errant's ``-cat`` level: 1 = operation (first character),
    2 = type without its first two characters, 3 (or None) = unchanged. ``UNK`` stays ``UNK``.
    """
    if level in (None, 3):
        return {t: list(c) for t, c in cats.items()}
    if level not in (1, 2):
        raise ValueError(f"-cat level must be 1, 2 or 3, not {level!r}")
    out: dict[str, Counts] = {}
    for t, c in cats.items():
        k = t if t == UNK else (t[:1] if level == 1 else t[2:])
        old = out.get(k)
        out[k] = list(c) if old is None else [a + b for a, b in zip(old, c, strict=True)]
    return out


def _verbose_edits(d: CoderEdits) -> list[Key]:
    """The sorted keys of one coder, each extended by its first type; [] when a noop is first."""
    keys = sorted(d)
    if not keys or keys[0][0] == -1:
        return []
    return [k + (d[k][0],) for k in keys]


# --------------------------------------------------------------------------------------------
# Result


@dataclass
class ErrantResult(ScoreResult):
    """A :class:`ScoreResult` that also knows how to print itself as errant_compare does."""

    mode: str = "cs"
    beta: float = 0.5
    cat: int | None = None
    type_counts: dict[str, Counts] = field(default_factory=dict)

    def errant_text(self, verbose: bool = False) -> str:
        """The exact standard output of ``errant_compare`` (verbose needs ``trace=True``)."""
        parts: list[str] = []
        if verbose:
            parts.append(format_verbose(self.sentences, self.beta))
        if self.cat:
            parts.append(format_cat_table(aggregate_types(self.type_counts, self.cat),
                                          MODES[self.mode], self.beta))
        c = self.counts
        parts.append(format_main_table(int(c["tp"]), int(c["fp"]), int(c["fn"]),
                                       MODES[self.mode], self.beta))
        return "".join(parts)

    def tsv(self) -> str:
        """Per-type TP/FP/FN/P/R/F (4 decimals) at the chosen ``-cat`` level, then the total."""
        rows = [f"type\tTP\tFP\tFN\tP\tR\tF{self.beta}"]
        for t, (tp, fp, fn) in sorted(aggregate_types(self.type_counts, self.cat).items()):
            p, r, f = errant_prf(tp, fp, fn, self.beta)
            rows.append(f"{t}\t{tp}\t{fp}\t{fn}\t{p}\t{r}\t{f}")
        c = self.counts
        p, r, f = errant_prf(int(c["tp"]), int(c["fp"]), int(c["fn"]), self.beta)
        rows.append(f"TOTAL\t{c['tp']}\t{c['fp']}\t{c['fn']}\t{p}\t{r}\t{f}")
        return "\n".join(rows) + "\n"


def format_main_table(tp: int, fp: int, fn: int, title: str, beta: float) -> str:
    """The closing TP/FP/FN/Prec/Rec/F table of errant_compare (with its leading blank line)."""
    p, r, f = errant_prf(tp, fp, fn, beta)
    return (f"\n{title:=^46}\n"
            f"TP\tFP\tFN\tPrec\tRec\tF{beta}\n"
            f"{tp}\t{fp}\t{fn}\t{p}\t{r}\t{f}\n"
            f"{'':=^46}\n\n")


def format_cat_table(cats: dict[str, Counts], title: str, beta: float) -> str:
    """The ``-cat`` table: fixed-width columns, categories in string order."""
    lines = ["", f"{title:=^66}",
             " ".join(["Category".ljust(14), "TP".ljust(8), "FP".ljust(8), "FN".ljust(8),
                       "P".ljust(8), "R".ljust(8), f"F{beta}"])]
    for name, (tp, fp, fn) in sorted(cats.items()):
        p, r, f = errant_prf(tp, fp, fn, beta)
        lines.append(" ".join([name.ljust(14), str(tp).ljust(8), str(fp).ljust(8),
                               str(fn).ljust(8), str(p).ljust(8), str(r).ljust(8), str(f)]))
    return "\n".join(lines) + "\n"


def _right_table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) + 3 for i in range(len(rows[0]))]
    return ["".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]


def format_verbose(sentences: Sequence[dict[str, Any]], beta: float) -> str:
    """The per-sentence ``-v`` trace of errant_compare (needs results scored with trace=True)."""
    rule = "-" * 40
    out: list[str] = []
    for s in sentences:
        if "pairs" not in s:
            raise ValueError("verbose output needs per-pair detail: score with trace=True")
        i = s["index"]
        out += [rule, f"Original sentence {i}: {s['source']}"]
        for pr in s["pairs"]:
            lp = errant_prf(pr["tp"], pr["fp"], pr["fn"], beta)
            gp = errant_prf(pr["global_tp"], pr["global_fp"], pr["global_fn"], beta)
            out += [
                rule,
                f"SENTENCE {i} - HYP {pr['hyp']} - REF {pr['ref']}",
                f"HYPOTHESIS EDITS : {pr['hyp_edits']!r}",
                f"REFERENCE EDITS  : {pr['ref_edits']!r}",
                f"Local TP/FP/FN   : {pr['tp']} {pr['fp']} {pr['fn']}",
                f"Local P/R/F{beta}  : {lp[0]} {lp[1]} {lp[2]}",
                f"Global TP/FP/FN  : {pr['global_tp']} {pr['global_fp']} {pr['global_fn']}",
                f"Global P/R/F{beta}  : {gp[0]} {gp[1]} {gp[2]}",
            ]
        out += [rule, f"^^ HYP {s['hyp_coder']}, REF {s['ref_coder']} chosen for sentence {i}",
                "Local results:"]
        rows = [["Category", "TP", "FP", "FN"]]
        rows += [[t, str(c[0]), str(c[1]), str(c[2])] for t, c in s["types"].items()]
        out += _right_table(rows)
    return "\n".join(out) + "\n" if out else ""


# --------------------------------------------------------------------------------------------
# Scoring


Choice = tuple[int, int, int, int, int, dict[str, Counts]]  # tp, fp, fn, hyp, ref, per type


def choose_pair(hc: dict[int, CoderEdits], rc: dict[int, CoderEdits],
                totals: tuple[int, int, int], beta: float, trace: bool = False
                ) -> tuple[Choice, list[dict[str, Any]]]:
    """The hypothesis/reference coder pair of one sentence that maximises the running corpus F.

    ``totals`` are the corpus TP, FP, FN so far. The F is rounded to 4 decimals; ties go to more
    TP, then fewer FP, then fewer FN, then the earliest pair. Returns ``(tp, fp, fn, hyp coder,
    ref coder, per-type counts)`` and, with ``trace``, every pair's detail (else ``[]``).
    """
    TP, FP, FN = totals
    best: Choice | None = None
    best_f = -1.0
    pairs: list[dict[str, Any]] = []
    ref_verbose = {r: _verbose_edits(d) for r, d in rc.items()} if trace else {}
    only_pair = not trace and len(hc) == 1 and len(rc) == 1
    for h, hd in hc.items():
        hyp_verbose = _verbose_edits(hd) if trace else []
        for r, rd in rc.items():
            tp, fp, fn, cats = compare_edits(hd, rd)
            if only_pair:  # nothing to choose
                return (tp, fp, fn, h, r, cats), pairs
            f = errant_prf(tp + TP, fp + FP, fn + FN, beta)[2]
            if (best is None or f > best_f
                    or (f == best_f and (tp > best[0] or (tp == best[0] and (
                        fp < best[1] or (fp == best[1] and fn < best[2])))))):
                best, best_f = (tp, fp, fn, h, r, cats), f
            if trace:
                pairs.append({"hyp": h, "ref": r, "hyp_edits": hyp_verbose,
                              "ref_edits": ref_verbose[r], "tp": tp, "fp": fp, "fn": fn,
                              "global_tp": tp + TP, "global_fp": fp + FP,
                              "global_fn": fn + FN})
    if best is None:
        raise ValueError("a sentence needs at least one coder on each side")
    return best, pairs


def _blocks(source: str | os.PathLike[str] | Iterable[M2Block], default: str
            ) -> tuple[Iterator[M2Block], str]:
    if isinstance(source, (str, os.PathLike)):
        return read_m2(source), str(source)
    return iter(source), default


def _check_sources(i: int, hb: M2Block, rb: M2Block, hyp_name: str, ref_name: str) -> None:
    if hb.source == rb.source:
        return
    ht, rt = hb.tokens, rb.tokens
    if ht == rt:
        return
    pos = next((k for k, (a, b) in enumerate(zip(ht, rt, strict=False)) if a != b),
               min(len(ht), len(rt)))
    ha = ht[pos] if pos < len(ht) else "<end>"
    ra = rt[pos] if pos < len(rt) else "<end>"
    raise SourceMismatchError(
        f"sentence {i + 1}: the hypothesis source differs from the reference source "
        f"({ref_name} line {rb.line}) at token {pos}: {ha!r} vs {ra!r}",
        path=hyp_name, line=hb.line)


def errant_score(
    hyp: str | os.PathLike[str] | Iterable[M2Block],
    ref: str | os.PathLike[str] | Iterable[M2Block],
    mode: str = "cs",
    beta: float = 0.5,
    single: bool = False,
    multi: bool = False,
    filt: Iterable[str] = (),
    cat: int | None = None,
    *,
    literal_none: bool = False,
    trace: bool = False,
    check_source: bool = True,
    hyp_name: str | None = None,
    ref_name: str | None = None,
    extra_settings: dict[str, Any] | None = None,
) -> ErrantResult:
    """Score hypothesis M2 against reference M2 exactly as errant_compare 3.0.2 does.

    ``hyp``/``ref`` are paths or iterables of :class:`M2Block`. ``mode``: ``cs`` (span-based
    correction), ``cse`` (with types), ``ds`` (span detection) or ``dt`` (token detection).
    ``cat`` only selects the level of :attr:`ScoreResult.per_type` and of the printed table.
    ``literal_none``: a ``-NONE-`` correction is the literal token, as in errant_compare (default:
    a deletion, see the module docstring).
    ``trace=True`` keeps every coder pair's detail (needed for the verbose text).
    ``extra_settings`` are added to the signature (e.g. how the edits were made).
    Raises :class:`SentenceCountError`, :class:`SourceMismatchError` or M2 format errors.
    """
    if mode not in MODES:
        raise ValueError(f"unknown ERRANT scoring mode {mode!r} (choose from {', '.join(MODES)})")
    if cat not in (None, 1, 2, 3):
        raise ValueError(f"cat must be 1, 2 or 3, not {cat!r}")
    filt = tuple(filt)
    beta = float(beta)
    hyp_it, hname = _blocks(hyp, "<hyp>")
    ref_it, rname = _blocks(ref, "<ref>")
    hname, rname = hyp_name or hname, ref_name or rname
    TP = FP = FN = 0
    types: dict[str, Counts] = {}
    sentences: list[dict[str, Any]] = []
    i = -1
    for i, (hb, rb) in enumerate(_lockstep(hyp_it, ref_it, hname, rname)):
        if check_source:
            _check_sources(i, hb, rb, hname, rname)
        hc = coder_edits(hb.edits, mode, single, multi, filt, literal_none)
        rc = coder_edits(rb.edits, mode, single, multi, filt, literal_none)
        best, pairs = choose_pair(hc, rc, (TP, FP, FN), beta, trace)
        tp, fp, fn, h, r, cats = best
        TP, FP, FN = TP + tp, FP + fp, FN + fn
        for t, c in cats.items():
            old = types.get(t)
            types[t] = list(c) if old is None else [old[0] + c[0], old[1] + c[1], old[2] + c[2]]
        p, rr, f = errant_prf(tp, fp, fn, beta)
        sent: dict[str, Any] = {"index": i, "hyp_coder": h, "ref_coder": r, "tp": tp, "fp": fp,
                                "fn": fn, "p": p, "r": rr, "f": f, "types": cats}
        if trace:
            sent["source"] = hb.source
            sent["pairs"] = pairs
        sentences.append(sent)
    p, r, f = errant_prf(TP, FP, FN, beta)
    settings = _settings(mode, beta, single, multi, filt, literal_none, extra_settings)
    per_type = {}
    for t, (a, b, c) in sorted(aggregate_types(types, cat).items()):
        tp_p, tp_r, tp_f = errant_prf(a, b, c, beta)
        per_type[t] = {"tp": a, "fp": b, "fn": c, "p": tp_p, "r": tp_r, "f": tp_f}
    return ErrantResult(
        metric="errant",
        corpus={"p": p, "r": r, f"f{beta}": f},
        signature=signature("errant", settings),
        counts={"tp": TP, "fp": FP, "fn": FN, "sentences": i + 1},
        sentences=sentences,
        per_type=per_type,
        mode=mode, beta=beta, cat=cat, type_counts=types,
    )


def _settings(mode: str, beta: float, single: bool, multi: bool, filt: Sequence[str],
              literal_none: bool, extra: dict[str, Any] | None) -> dict[str, Any]:
    """The settings of an ERRANT score, in signature order."""
    settings: dict[str, Any] = {"mode": mode, "beta": float(beta)}
    if single:
        settings["single"] = "yes"
    if multi:
        settings["multi"] = "yes"
    if filt:
        settings["filt"] = ",".join(filt)
    if literal_none:
        settings["none"] = "literal"
    settings["round"] = 4
    settings["compat"] = "errant-3.0.2"
    settings.update(extra or {})
    return settings


def _lockstep(hyp: Iterator[M2Block], ref: Iterator[M2Block], hname: str, rname: str
              ) -> Iterator[tuple[M2Block, M2Block]]:
    n = 0
    for hb in hyp:
        rb = next(ref, None)
        if rb is None:
            raise SentenceCountError(
                f"the hypothesis has more sentences than the reference: sentence {n + 1} "
                f"starts here but {rname} has only {n}", path=hname, line=hb.line)
        n += 1
        yield hb, rb
    rb = next(ref, None)
    if rb is not None:
        raise SentenceCountError(
            f"the reference has more sentences than the hypothesis: sentence {n + 1} starts "
            f"here but {hname} has only {n}", path=rname, line=rb.line)


# --------------------------------------------------------------------------------------------
# Text mode: source + hypothesis text + reference texts -> edits -> score


def annotate_blocks(annotations: Iterable[Any], coders: Sequence[int] | None = None
                    ) -> Iterator[M2Block]:
    """M2 blocks from :class:`errtype.annotator.Annotation` objects (coder i = correction i).

    ``coders`` picks which corrections to keep (renumbered from 0). A correction without edits is
    a noop (unlike errant_parallel, which gives a whitespace-only difference no line at all).
    Corrections are written as the corrected tokens joined by single spaces, as in M2.
    """
    for ann in annotations:
        yield annotation_block(ann, coders)


def errant_score_text(
    orig: str | os.PathLike[str],
    hyp: str | os.PathLike[str],
    refs: Sequence[str | os.PathLike[str]],
    lang: str = "en",
    *,
    tokenize: bool = False,
    lev: bool = False,
    merging: str = "rules",
    annotator: Any = None,
    encoding_errors: str = "strict",
    **options: Any,
) -> ErrantResult:
    """Extract edits from source/hypothesis/reference text files, then :func:`errant_score`.

    One sentence per line, the same number of lines in every file (checked first). Text is
    whitespace-tokenised unless ``tokenize``; ``lev``/``merging`` as in errant_parallel.
    ``annotator`` defaults to ``errtype.load(lang)``; ``options`` go to :func:`errant_score`.
    """
    from ...textio import read_parallel

    if not refs:
        raise ValueError("at least one reference text file is needed")
    lines = [texts for _, texts in read_parallel([orig, hyp, *refs], errors=encoding_errors)]
    if annotator is None:
        from ... import load  # the parser is loaded only when this mode is used

        annotator = load(lang)
    anns = list(annotator.annotate_stream(((t[0], t[1:]) for t in lines), lev=lev,
                                          merging=merging, tokenize=tokenize))
    hyp_blocks = list(annotate_blocks(anns, [0]))
    ref_blocks = list(annotate_blocks(anns, range(1, len(refs) + 1)))
    extra = {"edits": f"errtype-{annotator.lang}", "merge": merging, "lev": "yes" if lev else "no",
             "tok": "yes" if tokenize else "no"}
    result = errant_score(hyp_blocks, ref_blocks, hyp_name=str(hyp), ref_name=str(refs[0]),
                          extra_settings=extra, **options)
    result.notes.append(f"edits extracted from {orig} by errtype's {annotator.lang} annotator")
    return result


# --------------------------------------------------------------------------------------------
# The registered metric


@register("errant")
@dataclass(kw_only=True)
class ErrantMetric(EditMetric):
    """errant_compare (span-based correction by default; every option of errant_compare:
    ``mode``, ``beta``, ``single``, ``multi``, ``filt``, ``cat``; ``literal_none``: a ``-NONE-``
    correction is a literal token as in errant_compare, not a deletion); hypotheses without
    edits are annotated with ``errtype.load(lang)`` (or the given annotator)."""

    mode: str = option("cs", choices=MODES)
    single: bool = False
    multi: bool = False
    filt: Sequence[str] = ()
    cat: int | None = option(None, choices=(1, 2, 3))
    literal_none: bool = False
    name: str = "errant"

    @property
    def main(self) -> str:
        """The headline key of the result: errant_compare's ``f{beta}`` (``f0.5``)."""
        return f"f{float(self.beta)}"

    def settings(self) -> dict[str, Any]:
        return _settings(self.mode, self.beta, self.single, self.multi, tuple(self.filt),
                         self.literal_none, self._gold_setting())

    def _gold_setting(self) -> dict[str, str]:
        return {"gold": self.gold_edits} if self.gold_edits != "m2" else {}

    def options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`errant_score` these settings stand for."""
        return {"mode": self.mode, "beta": self.beta, "single": self.single,
                "multi": self.multi, "filt": tuple(self.filt), "cat": self.cat,
                "literal_none": self.literal_none}

    def score_blocks(self, hyp: str | os.PathLike[str] | Iterable[M2Block],
                     ref: str | os.PathLike[str] | Iterable[M2Block], **kwargs: Any
                     ) -> ErrantResult:
        """:func:`errant_score` of hypothesis and reference M2 with these settings (``kwargs``:
        ``trace``, ``hyp_name``, ``ref_name``, ...)."""
        return errant_score(hyp, ref, **self.options(), extra_settings=self._gold_setting(),
                            **kwargs)

    def score(self, data: ScoreInput) -> ScoreResult:
        return self.score_blocks(self.hyp_blocks(data), list(data.gold), hyp_name=data.name)
