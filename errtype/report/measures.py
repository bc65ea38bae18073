"""Every number of the report: corpus metrics, per-type and GECLens measures, their bootstrap
intervals, and pairwise system comparisons.

Definitions (all on ERRANT span-based correction, errant_compare's choice of reference coder):

* per type: TP/FN are counted by reference type, FP by hypothesis type (errant_compare -cat 3);
  macro F = mean per-type F over the types with gold edits;
* type-only: hypothesis and reference both restricted to the type (errant_compare ``-filt``
  with every other type), then scored;
* sentence-level detection (F1): a sentence is predicted for a type when the hypothesis has an
  edit of it and gold when the chosen reference has one; "all" uses any edit;
* success: the share of sentences with gold edits of a type whose edits of that type were all
  found (no FN); "all": hypotheses with no FP and no FN among sentences with gold edits;
* over-correction: the share of sentences no annotator changed that the system changed;
  change rate: the share of sentences the system changed;
* undefined per-type values are None (shown as "—"): P without proposals, R without gold edits,
  F (and type-only, detection) without either, success without sentences with gold edits;
* confusion: per system, gold edits by (gold type, system type at the same or an overlapping
  span, or "(missed)"), and system edits touching no gold edit in a "(no gold edit)" row.

Intervals are percentile bootstrap intervals over sentences (one seeded set of resamples for
every system and measure); the paired tests (:mod:`.paired`) use the same resamples (bootstrap)
or a seeded approximate randomisation, Holm-corrected over the system pairs, or over the systems
compared with a baseline.

What is looked at (:mod:`.select`): ``subset`` restricts every number to some sentences;
``types`` restricts the per-type rows, charts and tests (corpus scores, macro F and the
sentence-level measures keep every type).

:func:`build_report` runs one step per part of the report: the type index, every system's
per-sentence counts, their bootstrap sums, then the corpus, per-type and sentence-level rows of
each system, the paired tests, the notes and the browser's sentences.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError
from ..m2 import M2Block
from ..parse.blas import BlasThreads, default_threads
from ..score.common import signature
from ..score.edits.errant import coder_edits, errant_score
from ..score.registry import ScoreInput, get_metric
from . import stats as st
from .inputs import ReportInput
from .paired import baseline_tests, compare_pairs
from .select import parse_subset, select_types, subset_input

SKIP_TYPES = frozenset({"noop", "UNK"})


@dataclass
class ReportOptions:
    """Settings of the statistics (all part of the report's signature)."""

    beta: float = 0.5
    bootstrap: int = 1000
    trials: int = 1000
    seed: int = 0
    level: float = 0.95
    gleu: bool = True
    maxmatch: bool = True
    #: the system every other is tested against (None: every pair is tested)
    baseline: str | None = None
    #: error-type selectors (:mod:`.select`; empty: every type)
    types: tuple[str, ...] = ()
    #: sentence subsets (:mod:`.select`; empty: every sentence)
    subset: tuple[str, ...] = ()
    #: edit attributions of the per-type tables: ``METRIC[:METHOD]`` (:mod:`.attribution`)
    attribution: tuple[str, ...] = ()

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"beta": self.beta, "bootstrap": self.bootstrap,
                               "ar_trials": self.trials, "seed": self.seed,
                               "ci": f"percentile-{self.level:g}", "resample": "sentences",
                               "holm": "pairs"}
        if self.baseline is not None:
            out["holm"] = "systems-vs-baseline"
            out["baseline"] = self.baseline
        if self.types:
            out["types"] = ",".join(self.types)
        if self.subset:
            out["subset"] = ",".join(self.subset)
        if self.attribution:
            out["attribution"] = ",".join(self.attribution)
        return out


def est(value: float, lo: float, hi: float) -> dict[str, float]:
    """A point estimate with its interval."""
    return {"v": float(value), "lo": float(lo), "hi": float(hi)}


@dataclass
class Report:
    """The report's data (plain dictionaries; rendered by :mod:`.html` and :mod:`.tables`)."""

    systems: list[str]
    types: list[str]
    gold_freq: dict[str, int]
    n_sentences: int
    corpus: dict[str, dict[str, Any]]
    per_type: dict[str, dict[str, dict[str, Any]]]
    geclens: dict[str, dict[str, Any]]
    comparisons: list[dict[str, Any]]
    type_comparisons: dict[str, list[dict[str, Any]]]
    sentences: list[dict[str, Any]]
    #: per system: edits per (gold type, system type) cell (:func:`confusion`)
    confusion: dict[str, dict[tuple[str, str], int]]
    signatures: dict[str, str]
    options: ReportOptions
    gold_name: str = ""
    lang: str = "en"
    origins: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: tests against the baseline: ``{"overall": rows, "types": rows}`` (empty without one)
    baseline: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: sentences of the whole input (``n_sentences`` is the subset's)
    n_total: int = 0
    #: per system: edit attribution label -> type -> ``n``, ``sum``, ``mean`` (:mod:`.attribution`)
    attribution: dict[str, dict[str, dict[str, dict[str, float]]]] = field(default_factory=dict)


# --------------------------------------------------------------------------- per-system counts


@dataclass
class _SystemCounts:
    errant: Any
    per_type: np.ndarray  # [n, T, 3] TP/FP/FN
    type_only: np.ndarray  # [n, T, 3]
    det: np.ndarray  # [n, T + 1, 3] sentence-level detection (last column: any type)
    success: np.ndarray  # [n, T + 1, 2] (success, eligible)
    rates: np.ndarray  # [n, 4]: (overcorrected, clean, changed, 1)
    maxmatch: Any = None
    mm_counts: np.ndarray | None = None
    gleu: Any = None
    edits: list[list[list[Any]]] = field(default_factory=list)
    #: [n, T_all, 3] per-type counts of every row type (macro F) when --types selects fewer
    macro_counts: np.ndarray | None = None


def _chosen(block: M2Block, coder: int) -> dict[Any, list[str]]:
    return coder_edits(block.edits, "cs").get(coder, {})


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Spans ``[start, end)`` sharing a token; an insertion point touches a span it lies in
    or at either end of."""
    if a[0] == a[1] or b[0] == b[1]:
        return b[0] <= a[0] <= b[1] if a[0] == a[1] else a[0] <= b[0] <= a[1]
    return a[0] < b[1] and b[0] < a[1]


def _partner(key: tuple[Any, ...], other: dict[Any, list[str]]) -> str | None:
    """The type of the edit of ``other`` at the same span, else of the first overlapping one."""
    hits = [(k[:2] != key[:2], k[0], k[1], v[0]) for k, v in other.items()
            if v[0] != "noop" and _overlap(key[:2], k[:2])]
    return min(hits)[3] if hits else None


def _sentence_edits(hd: dict[Any, list[str]], rd: dict[Any, list[str]]) -> list[list[Any]]:
    """``[start, end, cor, type, status, n, partner]`` per edit key (n = counts, as errant
    scores). TP: the gold type and the system's type; FN: the gold type and the type of the
    system edit at or overlapping its span (None: missed); FP: the system type and the gold
    type at or overlapping its span (None: no gold edit there)."""
    out: list[list[Any]] = []
    for key, types in hd.items():
        if types[0] == "noop":
            continue
        rtypes = rd.get(key)
        if rtypes is not None:
            out.append([key[0], key[1], key[2], rtypes[0], "TP", len(rtypes), types[0]])
        else:
            out.append([key[0], key[1], key[2], types[0], "FP", len(types), _partner(key, rd)])
    for key, types in rd.items():
        if types[0] != "noop" and key not in hd:
            out.append([key[0], key[1], key[2], types[0], "FN", len(types), _partner(key, hd)])
    out.sort(key=lambda e: (e[0], e[1], e[4]))
    return out


MISSED, NO_GOLD = "(missed)", "(no gold edit)"


def confusion_cell(edit: Sequence[Any]) -> tuple[str, str] | None:
    """The (gold type, system type) cell of a sentence edit: every gold edit in its own type's
    row (column: the system's type there, or MISSED), and a system edit with no gold edit at
    its span in the NO_GOLD row; a system edit overlapping a gold edit is counted in that gold
    edit's row only."""
    status, partner = edit[4], edit[6]
    if status == "TP":
        return edit[3], partner
    if status == "FN":
        return edit[3], partner if partner is not None else MISSED
    return (NO_GOLD, edit[3]) if partner is None else None


def confusion(sentences: Sequence[Sequence[Sequence[Any]]]) -> dict[tuple[str, str], int]:
    """Edits per (gold type, system type) cell over sentences of edits (``n`` each)."""
    out: Counter[tuple[str, str]] = Counter()
    for edits in sentences:
        for e in edits:
            cell = confusion_cell(e)
            if cell is not None:
                out[cell] += e[5]
    return dict(out)


def _system_counts(gold: list[M2Block], blocks: list[M2Block], hyps: Sequence[str],
                   index: dict[str, int], all_types: Sequence[str], beta: float,
                   macro_index: dict[str, int] | None = None) -> _SystemCounts:
    """Per-sentence counts of the types of ``index``; ``macro_index``: every row type, when
    ``index`` is a selection of them (their per-type counts make the macro F)."""
    n, T = len(gold), len(index)
    res = errant_score(blocks, gold, mode="cs", beta=beta)
    per_type = np.zeros((n, T, 3))
    macro = np.zeros((n, len(macro_index), 3)) if macro_index is not None else None
    det = np.zeros((n, T + 1, 3))
    success = np.zeros((n, T + 1, 2))
    rates = np.zeros((n, 4))
    edits = []
    for i, s in enumerate(res.sentences):
        for t, c in s["types"].items():
            if t in index:
                per_type[i, index[t]] = c
            if macro is not None and macro_index is not None and t in macro_index:
                macro[i, macro_index[t]] = c
        hd = _chosen(blocks[i], s["hyp_coder"])
        rd = _chosen(gold[i], s["ref_coder"])
        edits.append(_sentence_edits(hd, rd))
        htypes = {ts[0] for ts in hd.values() if ts[0] != "noop"}
        rtypes = {ts[0] for ts in rd.values() if ts[0] != "noop"}
        for t in htypes | rtypes:
            if t in index:
                det[i, index[t]] = (t in htypes and t in rtypes, t in htypes and t not in rtypes,
                                    t in rtypes and t not in htypes)
        det[i, T] = (bool(htypes) and bool(rtypes), bool(htypes) and not rtypes,
                     bool(rtypes) and not htypes)
        for t in rtypes:
            if t in index:
                success[i, index[t]] = (per_type[i, index[t], 2] == 0, 1)
        if rtypes:
            success[i, T] = (s["fp"] == 0 and s["fn"] == 0, 1)
        clean = not any(not e.is_noop for e in gold[i].edits)
        changed = hyps[i].split() != gold[i].tokens
        rates[i] = (clean and changed, clean, changed, 1)
    # type-only: a sentence without the type on either side scores 0/0/0 whichever coders are
    # chosen, so only the sentences with the type are rescored (same numbers, less work)
    type_only = np.zeros((n, T, 3))
    where: dict[str, list[int]] = {}
    for i, (hb, gb) in enumerate(zip(blocks, gold, strict=True)):
        for t in {e.type for e in hb.edits} | {e.type for e in gb.edits}:
            where.setdefault(t, []).append(i)
    for t, j in index.items():
        rows = where.get(t, [])
        if not rows:
            continue
        other = [x for x in all_types if x != t]
        r = errant_score([blocks[i] for i in rows], [gold[i] for i in rows], mode="cs",
                         beta=beta, filt=other)
        type_only[rows, j] = [(s["tp"], s["fp"], s["fn"]) for s in r.sentences]
    return _SystemCounts(res, per_type, type_only, det, success, rates, edits=edits,
                         macro_counts=macro)


# --------------------------------------------------------------------------- GLEU statistics


def gleu_array(sums: np.ndarray, order: int = 4) -> np.ndarray:
    """Corpus GLEU of summed statistics ``[..., 2 + 2 * order]`` (0 when any sum is 0)."""
    c, r = sums[..., 0], sums[..., 1]
    ok = (sums != 0).all(axis=-1)
    safe = np.where(sums == 0, 1.0, sums)
    logp = np.log(safe[..., 2::2] / safe[..., 3::2]).sum(axis=-1) / order
    val = np.exp(np.minimum(0.0, 1 - r / np.where(c == 0, 1, c)) + logp)
    return np.where(ok, val, 0.0)


def _gleu_ci(stats: np.ndarray, weights: np.ndarray, seed: int, level: float, order: int
             ) -> tuple[float, float]:
    """Bootstrap interval of GLEU: each resample also draws one reference per sentence."""
    n, k, _ = stats.shape
    rng = np.random.default_rng(seed + 7919)
    vals = np.empty(weights.shape[0])
    rows = np.arange(n)
    for b in range(weights.shape[0]):
        pick = rng.integers(0, k, n) if k > 1 else np.zeros(n, dtype=int)
        vals[b] = gleu_array(weights[b] @ stats[rows, pick], order)
    lo, hi = st.percentile_ci(vals, level)
    return float(lo), float(hi)


# --------------------------------------------------------------------------- the report


def defined(prf: dict[str, Any], counts: np.ndarray) -> dict[str, Any]:
    """P/R/F estimates with the undefined ones set to None: P without proposals (TP + FP = 0),
    R without gold edits (TP + FN = 0), F with neither (the scorers' convention would read
    1.0)."""
    tp, fp, fn = (float(x) for x in counts)
    return {"p": prf["p"] if tp + fp else None, "r": prf["r"] if tp + fn else None,
            "f": prf["f"] if tp + fp + fn else None}


def _prf_est(full: np.ndarray, boot: np.ndarray, beta: float, level: float) -> Any:
    """P/R/F estimates of summed counts ``full [..., 3]`` with bootstrap sums ``[B, ..., 3]``."""
    fv = st.prf_array(full[..., 0], full[..., 1], full[..., 2], beta)
    bv = st.prf_array(boot[..., 0], boot[..., 1], boot[..., 2], beta)
    out = {}
    for name, v, b in zip("prf", fv, bv, strict=True):
        lo, hi = st.percentile_ci(b, level)
        out[name] = (v, lo, hi)
    if full.ndim == 1:
        return {k: est(*v) for k, v in out.items()}
    return [{k: est(v[0][j], v[1][j], v[2][j]) for k, v in out.items()}
            for j in range(full.shape[0])]


def _ratio_est(full: np.ndarray, boot: np.ndarray, level: float) -> Any:
    v, b = st.ratio_stat(full), st.ratio_stat(boot)
    lo, hi = st.percentile_ci(b, level)
    if full.ndim == 1:
        return est(v, lo, hi)
    return [est(v[j], lo[j], hi[j]) for j in range(full.shape[0])]


# ------------------------------------------------------------------ the report, step by step


@dataclass
class _TypeIndex:
    """The report's error types: gold frequencies, the row order (gold types by frequency,
    then system-only types; ``--types`` keeps a selection) and every type seen (the filters of
    the type-only scores)."""

    freq: Counter[str]
    rows: list[str]
    every: list[str]
    system_types: set[str]
    #: every row type, when ``rows`` are a selection of them
    unselected: list[str] | None = None

    @property
    def index(self) -> dict[str, int]:
        return {t: j for j, t in enumerate(self.rows)}


def _type_index(gold: Sequence[M2Block], systems: Sequence[Any], selectors: Sequence[str]
                ) -> _TypeIndex:
    freq = Counter(e.type for b in gold for e in b.edits if e.type not in SKIP_TYPES)
    system_types = {e.type for s in systems for b in s.blocks for e in b.edits}
    every = sorted(set(freq) | system_types | {e.type for b in gold for e in b.edits})
    rows = sorted(freq, key=lambda t: (-freq[t], t))
    rows += sorted(t for t in system_types if t not in freq and t not in SKIP_TYPES)
    chosen = select_types(rows, selectors)
    return _TypeIndex(freq, chosen, every, system_types, rows if chosen != rows else None)


def _count_systems(inp: ReportInput, types: _TypeIndex, o: ReportOptions
                   ) -> tuple[dict[str, _SystemCounts], dict[str, str]]:
    """Every system's per-sentence counts (ERRANT, per type, GECLens measures, MaxMatch,
    GLEU statistics) and the signatures of the metrics behind them."""
    gold, n = inp.gold, len(inp.gold)
    counts: dict[str, _SystemCounts] = {}
    signatures: dict[str, str] = {}
    # one metric object for every system: the sentences two systems wrote alike are scored once
    maxmatch = get_metric("maxmatch", beta=o.beta)
    refs, gleu, memo = None, None, {}  # memo: each source and reference counted once
    if o.gleu:
        from ..score.extract import gold_references

        refs = gold_references(gold)
        gleu = get_metric("gleu").scorer()
    for s in inp.systems:
        macro = ({t: j for j, t in enumerate(types.unselected)} if types.unselected is not None
                 else None)
        c = _system_counts(gold, s.blocks, s.hypotheses, types.index, types.every, o.beta,
                           macro)
        signatures["errant"] = c.errant.signature
        data = ScoreInput(gold, s.hypotheses, s.blocks, name=s.name)
        if o.maxmatch:
            c.maxmatch = maxmatch.score(data)
            c.mm_counts = np.array([(x["tp"], x["fp"], x["fn"]) for x in c.maxmatch.sentences],
                                   dtype=float).reshape(n, 3)
            signatures["maxmatch"] = c.maxmatch.signature
        if gleu is not None:
            # the per-sentence statistics the score sums are those the intervals resample
            table = gleu.statistics(inp.sources, refs, s.hypotheses, memo)
            c.gleu = (gleu.score(inp.sources, refs, s.hypotheses, table),
                      np.array(table, dtype=float).reshape(n, len(refs), 2 + 2 * gleu.order))
            signatures["gleu"] = c.gleu[0].signature
        counts[s.name] = c
    return counts, signatures


@dataclass
class _Resampled:
    """One system's counts summed over the corpus (``*_full``) and over each bootstrap
    resample (``[B, ...]``): the inputs of its intervals and of the paired tests."""

    total: np.ndarray  # ERRANT TP/FP/FN per sentence [n, 3]
    total_full: np.ndarray
    total_boot: np.ndarray
    types_full: np.ndarray  # [T, 3]
    types_boot: np.ndarray
    type_only_full: np.ndarray
    type_only_boot: np.ndarray
    det_full: np.ndarray  # [T + 1, 3]
    det_boot: np.ndarray
    success_full: np.ndarray  # [T + 1, 2]
    success_boot: np.ndarray
    rates_full: np.ndarray  # [4]
    rates_boot: np.ndarray
    mm_boot: np.ndarray | None
    macro_full: np.ndarray  # per-type counts of every row type (the macro F's) [T_all, 3]
    macro_boot: np.ndarray


def _resample(c: _SystemCounts, weights: np.ndarray, n: int) -> _Resampled:
    total = np.array([(x["tp"], x["fp"], x["fn"]) for x in c.errant.sentences],
                     dtype=float).reshape(n, 3)
    types_boot = st.resampled_sums(weights, c.per_type)
    macro = c.macro_counts
    return _Resampled(
        total=total,
        total_full=np.array([c.errant.counts["tp"], c.errant.counts["fp"],
                             c.errant.counts["fn"]], dtype=float),
        total_boot=st.resampled_sums(weights, total),
        types_full=c.per_type.sum(axis=0), types_boot=types_boot,
        type_only_full=c.type_only.sum(axis=0),
        type_only_boot=st.resampled_sums(weights, c.type_only),
        det_full=c.det.sum(axis=0), det_boot=st.resampled_sums(weights, c.det),
        success_full=c.success.sum(axis=0), success_boot=st.resampled_sums(weights, c.success),
        rates_full=c.rates.sum(axis=0), rates_boot=st.resampled_sums(weights, c.rates),
        mm_boot=(st.resampled_sums(weights, c.mm_counts) if c.mm_counts is not None
                 else None),
        macro_full=c.per_type.sum(axis=0) if macro is None else macro.sum(axis=0),
        macro_boot=types_boot if macro is None else st.resampled_sums(weights, macro))


def _macro_f(rs: _Resampled, beta: float, level: float) -> dict[str, float]:
    """Mean per-type F over the types with gold edits (as
    :func:`errtype.score.common.macro_f`), with its bootstrap interval: each resample averages
    over its own types with gold edits (a type absent from a resample has P = R = F = 1 by the
    scorers' convention and must not count). Every row type counts, selected or not."""
    full, boot = rs.macro_full, rs.macro_boot
    if not len(full):
        return est(0.0, 0.0, 0.0)
    f_full = st.prf_array(full[:, 0], full[:, 1], full[:, 2], beta)[2]
    f_boot = st.prf_array(boot[..., 0], boot[..., 1], boot[..., 2], beta)[2]
    mask = (full[:, 0] + full[:, 2]) > 0
    value = float(f_full[mask].mean()) if mask.any() else 0.0
    bmask = (boot[..., 0] + boot[..., 2]) > 0
    nb = bmask.sum(axis=1)
    means = np.where(nb > 0, (f_boot * bmask).sum(axis=1) / np.maximum(nb, 1), 0.0)
    lo, hi = st.percentile_ci(means, level)
    return est(value, lo, hi)


def _corpus_row(c: _SystemCounts, rs: _Resampled, weights: np.ndarray, o: ReportOptions
                ) -> dict[str, Any]:
    """Corpus scores: ERRANT P/R/F (with errant_compare's printed numbers), macro F, MaxMatch,
    GLEU, each with its interval."""
    total = rs.total_full
    row: dict[str, Any] = {"errant": _prf_est(total, rs.total_boot, o.beta, o.level),
                           "counts": {"tp": int(total[0]), "fp": int(total[1]),
                                      "fn": int(total[2])},
                           # the printed errant_compare numbers (rounded to 4) beside them
                           "errant_compare": dict(c.errant.corpus)}
    row["macro_f"] = _macro_f(rs, o.beta, o.level)
    if c.mm_counts is not None and rs.mm_boot is not None:
        row["maxmatch"] = _prf_est(c.mm_counts.sum(axis=0), rs.mm_boot, o.beta, o.level)
        row["maxmatch_scorer"] = dict(c.maxmatch.corpus)
    if c.gleu is not None:
        result, stats = c.gleu
        lo, hi = _gleu_ci(stats, weights, o.seed, o.level, 4)
        row["gleu"] = est(result.corpus["gleu"], lo, hi)
    return row


def _type_rows(c: _SystemCounts, rs: _Resampled, types: _TypeIndex, o: ReportOptions
               ) -> tuple[dict[str, dict[str, Any]], Any, Any]:
    """Per-type rows (counts, P/R/F, type-only, detection, success; undefined values None)
    and the detection and success estimates of every column (the last: any type)."""
    T = len(types.rows)
    f = _prf_est(rs.types_full, rs.types_boot, o.beta, o.level) if T else []
    only = _prf_est(rs.type_only_full, rs.type_only_boot, o.beta, o.level) if T else []
    det = _prf_est(rs.det_full, rs.det_boot, 1.0, o.level)
    success = _ratio_est(rs.success_full, rs.success_boot, o.level)
    rows: dict[str, dict[str, Any]] = {}
    for j, t in enumerate(types.rows):
        counts = rs.types_full[j]
        n_success = int(c.success[:, j, 1].sum())
        rows[t] = {"gold": types.freq.get(t, 0), "tp": int(counts[0]), "fp": int(counts[1]),
                   "fn": int(counts[2]), **defined(f[j], counts),
                   "type_only": defined(only[j], rs.type_only_full[j]),
                   "det": defined(det[j], rs.det_full[j]),
                   "success": success[j] if n_success else None, "success_n": n_success}
    return rows, det, success


def _sentence_measures(c: _SystemCounts, rs: _Resampled, det: Any, success: Any, T: int,
                       level: float) -> dict[str, Any]:
    """The GECLens sentence-level measures: detection and success over any type,
    over-correction and change rate."""
    rates, boot = rs.rates_full, rs.rates_boot
    return {
        "det": det[T], "success": success[T], "success_n": int(c.success[:, T, 1].sum()),
        "overcorrection": _ratio_est(rates[:2], boot[:, :2], level),
        "clean": int(rates[1]), "overcorrected": int(rates[0]),
        "change_rate": _ratio_est(rates[2:], boot[:, 2:], level),
        "changed": int(rates[2]),
    }


def _notes(inp: ReportInput, types: _TypeIndex, o: ReportOptions, n_all: int) -> list[str]:
    notes = list(inp.notes)
    if types.freq and types.system_types and not (set(types.freq) & types.system_types):
        notes.append("the gold and the systems use disjoint type sets (e.g. NUCLE vs ERRANT "
                     "types): per-type TP/FN follow the gold types, FP the system types; "
                     "re-type the gold with the annotator to compare per type")
    if o.subset:
        notes.append(f"subset {' '.join(o.subset)}: {len(inp.gold)} of {n_all} sentences; "
                     f"every number is computed on these sentences")
    if o.types:
        notes.append(f"types {' '.join(o.types)}: {len(types.rows)} error types in the "
                     f"per-type tables, charts and tests; corpus scores and sentence-level "
                     f"measures count every edit")
    return notes


def _browser_sentences(inp: ReportInput, counts: dict[str, _SystemCounts],
                       numbers: Sequence[int]) -> list[dict[str, Any]]:
    """Per sentence: its number in the whole input (1-based), source tokens, every system's
    edits and hypothesis."""
    return [{"id": numbers[i] + 1, "src": b.tokens,
             "sys": {name: c.edits[i] for name, c in counts.items()},
             "hyp": {s.name: s.hypotheses[i] for s in inp.systems}}
            for i, b in enumerate(inp.gold)]


def _selected_confusion(cells: dict[tuple[str, str], int], types: _TypeIndex, o: ReportOptions
                        ) -> dict[tuple[str, str], int]:
    """The confusion cells of the selected types (all without ``--types``): gold edits of a
    selected type, and system edits of a selected type touching no gold edit."""
    if not o.types:
        return cells
    keep = set(types.rows)
    return {(g, h): k for (g, h), k in cells.items()
            if g in keep or (g == NO_GOLD and h in keep)}


def build_report(inp: ReportInput, options: ReportOptions | None = None) -> Report:
    """Compute every table, interval and test of the report for the input's systems: the
    sentences of ``options.subset``, the error types of ``options.types``, the paired tests
    against ``options.baseline`` (all pairs without one)."""
    o = options or ReportOptions()
    names = [s.name for s in inp.systems]
    if o.baseline is not None and o.baseline not in names:
        raise InputError(f"--baseline {o.baseline!r} is not one of the systems "
                         f"({', '.join(names)})")
    n_all = len(inp.gold)
    numbers = list(range(n_all))
    if o.subset:
        inp, numbers = subset_input(inp, [parse_subset(spec) for spec in o.subset])
    n = len(inp.gold)
    types = _type_index(inp.gold, inp.systems, o.types)
    counts, signatures = _count_systems(inp, types, o)
    # the resampling's matrix products are small: one BLAS thread, as for every parse
    # (errtype.parse.blas; more threads only spin on a busy machine, at the same result)
    with BlasThreads(default_threads()):
        weights = st.bootstrap_weights(n, o.bootstrap, o.seed)
        resampled = {name: _resample(c, weights, n) for name, c in counts.items()}
        corpus, per_type, geclens = {}, {}, {}
        for name, c in counts.items():
            rs = resampled[name]
            corpus[name] = _corpus_row(c, rs, weights, o)
            per_type[name], det, success = _type_rows(c, rs, types, o)
            geclens[name] = _sentence_measures(c, rs, det, success, len(types.rows), o.level)
        comparisons, type_comparisons = compare_pairs(counts, resampled, types.rows, o)
        baseline = (baseline_tests(counts, resampled, types.rows, o)
                    if o.baseline is not None and len(names) > 1 else {})
    attribution: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    if o.attribution:
        from .attribution import report_attribution

        attribution, sigs = report_attribution(inp, o.attribution, o.seed, o.beta)
        signatures.update(sigs)
    signatures["report"] = signature("report", {**o.settings(), "lang": inp.lang,
                                                "systems": len(inp.systems)})
    return Report(
        systems=names, types=types.rows, gold_freq=dict(types.freq), n_sentences=n,
        corpus=corpus, per_type=per_type, geclens=geclens, comparisons=comparisons,
        type_comparisons=type_comparisons, sentences=_browser_sentences(inp, counts, numbers),
        confusion={name: _selected_confusion(confusion(c.edits), types, o)
                   for name, c in counts.items()},
        signatures=signatures, options=o, gold_name=inp.gold_name, lang=inp.lang,
        origins={s.name: s.origin for s in inp.systems}, notes=_notes(inp, types, o, n_all),
        baseline=baseline, n_total=n_all, attribution=attribution)
