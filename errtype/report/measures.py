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
every system and measure); paired tests use the same resamples (bootstrap) or a seeded
approximate randomisation, Holm-corrected over the system pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from ..m2 import M2Block
from ..score.common import signature
from ..score.edits.errant import coder_edits, errant_score
from ..score.registry import ScoreInput, get_metric
from . import stats as st
from .inputs import ReportInput

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

    def settings(self) -> dict[str, Any]:
        return {"beta": self.beta, "bootstrap": self.bootstrap, "ar_trials": self.trials,
                "seed": self.seed, "ci": f"percentile-{self.level:g}", "resample": "sentences",
                "holm": "pairs"}


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
                   index: dict[str, int], all_types: Sequence[str], beta: float) -> _SystemCounts:
    n, T = len(gold), len(index)
    res = errant_score(blocks, gold, mode="cs", beta=beta)
    per_type = np.zeros((n, T, 3))
    det = np.zeros((n, T + 1, 3))
    success = np.zeros((n, T + 1, 2))
    rates = np.zeros((n, 4))
    edits = []
    for i, s in enumerate(res.sentences):
        for t, c in s["types"].items():
            if t in index:
                per_type[i, index[t]] = c
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
    return _SystemCounts(res, per_type, type_only, det, success, rates, edits=edits)


# --------------------------------------------------------------------------- GLEU statistics


def _gleu_stats(sources: Sequence[str], refs: Sequence[Sequence[str]], hyps: Sequence[str],
                order: int) -> np.ndarray:
    """``[n, k, 2 + 2 * order]`` per-sentence, per-reference GLEU statistics."""
    from ..score.ngram.gleu import sentence_stats, tokenize

    out = np.zeros((len(sources), len(refs), 2 + 2 * order))
    for i, (s, h) in enumerate(zip(sources, hyps, strict=True)):
        st_, ht = tokenize(s), tokenize(h)
        for k, ref in enumerate(refs):
            out[i, k] = sentence_stats(st_, tokenize(ref[i]), ht, order)
    return out


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


def build_report(inp: ReportInput, options: ReportOptions | None = None) -> Report:
    """Compute every table, interval and test of the report for the input's systems."""
    o = options or ReportOptions()
    gold, n = inp.gold, len(inp.gold)
    freq = Counter(e.type for b in gold for e in b.edits if e.type not in SKIP_TYPES)
    hyp_types = {e.type for s in inp.systems for b in s.blocks for e in b.edits}
    all_types = sorted(set(freq) | hyp_types | {e.type for b in gold for e in b.edits})
    types = sorted(freq, key=lambda t: (-freq[t], t))
    types += sorted(t for t in hyp_types if t not in freq and t not in SKIP_TYPES)
    index = {t: j for j, t in enumerate(types)}
    T = len(types)
    weights = st.bootstrap_weights(n, o.bootstrap, o.seed)
    counts: dict[str, _SystemCounts] = {}
    sigs: dict[str, str] = {}
    refs = None
    if o.gleu:
        from ..score.extract import gold_references

        refs = gold_references(gold)
    for s in inp.systems:
        c = _system_counts(gold, s.blocks, s.hypotheses, index, all_types, o.beta)
        sigs["errant"] = c.errant.signature
        data = ScoreInput(gold, s.hypotheses, s.blocks, name=s.name)
        if o.maxmatch:
            mm = get_metric("maxmatch", beta=o.beta)
            c.maxmatch = mm.score(data)
            c.mm_counts = np.array([(x["tp"], x["fp"], x["fn"]) for x in c.maxmatch.sentences],
                                   dtype=float).reshape(n, 3)
            sigs["maxmatch"] = c.maxmatch.signature
        if o.gleu and refs is not None:
            g = get_metric("gleu")
            c.gleu = (g.score(data), _gleu_stats(inp.sources, refs, s.hypotheses, 4))
            sigs["gleu"] = c.gleu[0].signature
        counts[s.name] = c

    corpus: dict[str, dict[str, Any]] = {}
    per_type: dict[str, dict[str, dict[str, Any]]] = {}
    geclens: dict[str, dict[str, Any]] = {}
    boot_cache: dict[str, dict[str, np.ndarray]] = {}
    for name, c in counts.items():
        tsum = c.per_type.sum(axis=0)
        tboot = st.resampled_sums(weights, c.per_type)
        total = np.array([c.errant.counts["tp"], c.errant.counts["fp"], c.errant.counts["fn"]],
                         dtype=float)
        tot_sent = np.array([(x["tp"], x["fp"], x["fn"]) for x in c.errant.sentences],
                            dtype=float).reshape(n, 3)
        tot_boot = st.resampled_sums(weights, tot_sent)
        row: dict[str, Any] = {"errant": _prf_est(total, tot_boot, o.beta, o.level),
                               "counts": {"tp": int(total[0]), "fp": int(total[1]),
                                          "fn": int(total[2])}}
        # the printed errant_compare numbers (rounded to 4) next to the unrounded ones
        row["errant_compare"] = dict(c.errant.corpus)
        if T:
            tf = st.prf_array(tsum[:, 0], tsum[:, 1], tsum[:, 2], o.beta)[2]
            bf = st.prf_array(tboot[..., 0], tboot[..., 1], tboot[..., 2], o.beta)[2]
            mask = (tsum[:, 0] + tsum[:, 2]) > 0  # types with gold edits (as base.macro_f)
            mv = float(tf[mask].mean()) if mask.any() else 0.0
            # each resample averages over its own types with gold edits (a type absent from a
            # resample has P = R = F = 1 by the scorers' convention and must not count)
            bmask = (tboot[..., 0] + tboot[..., 2]) > 0
            nb = bmask.sum(axis=1)
            mb = np.where(nb > 0, (bf * bmask).sum(axis=1) / np.maximum(nb, 1), 0.0)
            lo, hi = st.percentile_ci(mb, o.level)
            row["macro_f"] = est(mv, lo, hi)
        else:
            row["macro_f"] = est(0.0, 0.0, 0.0)
        mm_boot = None
        if c.mm_counts is not None:
            mm_boot = st.resampled_sums(weights, c.mm_counts)
            row["maxmatch"] = _prf_est(c.mm_counts.sum(axis=0), mm_boot, o.beta, o.level)
            row["maxmatch_scorer"] = dict(c.maxmatch.corpus)
        if c.gleu is not None:
            gres, gstats = c.gleu
            lo, hi = _gleu_ci(gstats, weights, o.seed, o.level, 4)
            row["gleu"] = est(gres.corpus["gleu"], lo, hi)
        corpus[name] = row
        boot_cache[name] = {"types": tboot, "total": tot_boot, "mm": mm_boot,
                            "total_full": total, "types_full": tsum}

        tests = _prf_est(tsum, tboot, o.beta, o.level) if T else []
        oboot = st.resampled_sums(weights, c.type_only)
        only = _prf_est(c.type_only.sum(axis=0), oboot, o.beta, o.level) if T else []
        dboot = st.resampled_sums(weights, c.det)
        det = _prf_est(c.det.sum(axis=0), dboot, 1.0, o.level)
        sboot = st.resampled_sums(weights, c.success)
        succ = _ratio_est(c.success.sum(axis=0), sboot, o.level)
        osum, dsum = c.type_only.sum(axis=0), c.det.sum(axis=0)
        rows: dict[str, dict[str, Any]] = {}
        for j, t in enumerate(types):
            n_succ = int(c.success[:, j, 1].sum())
            rows[t] = {"gold": freq.get(t, 0), "tp": int(tsum[j, 0]), "fp": int(tsum[j, 1]),
                       "fn": int(tsum[j, 2]), **defined(tests[j], tsum[j]),
                       "type_only": defined(only[j], osum[j]), "det": defined(det[j], dsum[j]),
                       "success": succ[j] if n_succ else None, "success_n": n_succ}
        per_type[name] = rows
        rsum, rboot = c.rates.sum(axis=0), st.resampled_sums(weights, c.rates)
        geclens[name] = {
            "det": det[T], "success": succ[T], "success_n": int(c.success[:, T, 1].sum()),
            "overcorrection": _ratio_est(rsum[:2], rboot[:, :2], o.level),
            "clean": int(rsum[1]), "overcorrected": int(rsum[0]),
            "change_rate": _ratio_est(rsum[2:], rboot[:, 2:], o.level),
            "changed": int(rsum[2]),
        }

    comparisons, type_comparisons = _compare(counts, boot_cache, types, o)
    notes = list(inp.notes)
    if freq and hyp_types and not (set(freq) & hyp_types):
        notes.append("the gold and the systems use disjoint type sets (e.g. NUCLE vs ERRANT "
                     "types): per-type TP/FN follow the gold types, FP the system types; "
                     "re-type the gold with the annotator (--retype-gold) to compare per type")
    sentences = []
    for i, b in enumerate(gold):
        sentences.append({"src": b.tokens,
                          "sys": {name: c.edits[i] for name, c in counts.items()},
                          "hyp": {s.name: s.hypotheses[i] for s in inp.systems}})
    sigs["report"] = signature("report", {**o.settings(), "lang": inp.lang,
                                          "systems": len(inp.systems)})
    return Report(
        systems=[s.name for s in inp.systems], types=types, gold_freq=dict(freq),
        n_sentences=n, corpus=corpus, per_type=per_type, geclens=geclens,
        comparisons=comparisons, type_comparisons=type_comparisons, sentences=sentences,
        confusion={name: confusion(c.edits) for name, c in counts.items()}, signatures=sigs,
        options=o, gold_name=inp.gold_name, lang=inp.lang,
        origins={s.name: s.origin for s in inp.systems}, notes=notes)


def _compare(counts: dict[str, _SystemCounts], boot: dict[str, dict[str, np.ndarray]],
             types: list[str], o: ReportOptions
             ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Pairwise tests: ERRANT and MaxMatch F overall (paired bootstrap and approximate
    randomisation, Holm over pairs) and ERRANT F per type (paired bootstrap, Holm over pairs)."""
    names = list(counts)
    pairs = list(combinations(names, 2))
    fstat = st.f_stat(o.beta)
    out: list[dict[str, Any]] = []
    for metric in ("errant", "maxmatch"):
        rows = []
        for a, b in pairs:
            if metric == "errant":
                xa = np.array([(x["tp"], x["fp"], x["fn"]) for x in counts[a].errant.sentences],
                              dtype=float)
                xb = np.array([(x["tp"], x["fp"], x["fn"]) for x in counts[b].errant.sentences],
                              dtype=float)
                ba, bb = boot[a]["total"], boot[b]["total"]
            else:
                if counts[a].mm_counts is None:
                    continue
                xa, xb = counts[a].mm_counts, counts[b].mm_counts
                ba, bb = boot[a]["mm"], boot[b]["mm"]
            xa, xb = xa.reshape(-1, 3), xb.reshape(-1, 3)
            fa, fb = fstat(xa.sum(axis=0)), fstat(xb.sum(axis=0))
            p_boot = st.paired_bootstrap_p(fa, fb, fstat(ba), fstat(bb))
            p_ar = st.approximate_randomization(xa, xb, fstat, o.trials, o.seed)
            rows.append({"metric": metric, "a": a, "b": b, "fa": float(fa), "fb": float(fb),
                         "delta": float(fa - fb), "p_boot": float(p_boot),
                         "p_ar": float(p_ar)})
        for key in ("p_boot", "p_ar"):
            for r, adj in zip(rows, st.holm([r[key] for r in rows]), strict=True):
                r[key + "_holm"] = adj
        out += rows
    per_type: dict[str, list[dict[str, Any]]] = {}
    if types and pairs:
        pvals = {}
        for a, b in pairs:
            fa, fb = fstat(boot[a]["types_full"]), fstat(boot[b]["types_full"])
            pvals[(a, b)] = (fa, fb, st.paired_bootstrap_p(
                fa, fb, fstat(boot[a]["types"]), fstat(boot[b]["types"])))
        for j, t in enumerate(types):
            rows = []
            for (a, b), v in pvals.items():
                if not boot[a]["types_full"][j].any() or not boot[b]["types_full"][j].any():
                    continue  # a system without TP, FP or FN of the type has no F to compare
                rows.append({"a": a, "b": b, "fa": float(v[0][j]), "fb": float(v[1][j]),
                             "delta": float(v[0][j] - v[1][j]), "p_boot": float(v[2][j])})
            for r, adj in zip(rows, st.holm([r["p_boot"] for r in rows]), strict=True):
                r["p_boot_holm"] = adj
            per_type[t] = rows
    return out, per_type

