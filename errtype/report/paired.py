"""Paired significance tests between systems, on the per-sentence counts of
:mod:`.measures`: every pair on ERRANT and MaxMatch F (and ERRANT F per type), or every system
against a baseline on more measures (:func:`baseline_tests`). Each test is two-sided: a paired
bootstrap on the report's shared resamples and a seeded approximate randomisation
(:mod:`.stats`), Holm-corrected over the pairs, or over the systems compared with the baseline
per measure (and type).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from . import stats as st

if TYPE_CHECKING:
    from .measures import ReportOptions, _Resampled, _SystemCounts

__all__ = ["baseline_tests", "compare_pairs"]


def _pairs(names: Sequence[str], baseline: str | None) -> list[tuple[str, str]]:
    """The system pairs compared: every pair, or each system with the baseline (B)."""
    if baseline is None:
        return list(combinations(names, 2))
    return [(a, baseline) for a in names if a != baseline]


def compare_pairs(counts: dict[str, _SystemCounts], boot: dict[str, _Resampled],
             types: list[str], o: ReportOptions
             ) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Pairwise tests: ERRANT and MaxMatch F overall (paired bootstrap and approximate
    randomisation, Holm over pairs) and ERRANT F per type (paired bootstrap, Holm over pairs);
    pairs: every pair, or each system against the baseline."""
    pairs = _pairs(list(counts), o.baseline)
    fstat = st.f_stat(o.beta)
    out: list[dict[str, Any]] = []
    for metric in ("errant", "maxmatch"):
        rows = []
        for a, b in pairs:
            if metric == "errant":
                xa, xb = boot[a].total, boot[b].total
                ba, bb = boot[a].total_boot, boot[b].total_boot
            else:
                mm_a, mm_b = counts[a].mm_counts, counts[b].mm_counts
                boot_a, boot_b = boot[a].mm_boot, boot[b].mm_boot
                if mm_a is None or mm_b is None or boot_a is None or boot_b is None:
                    continue
                xa, xb, ba, bb = mm_a, mm_b, boot_a, boot_b
            fa, fb = fstat(xa.sum(axis=0)), fstat(xb.sum(axis=0))
            p_boot = st.paired_bootstrap_p(fa, fb, fstat(ba), fstat(bb))
            p_ar = st.approximate_randomization(xa, xb, fstat, o.trials, o.seed)
            rows.append({"metric": metric, "a": a, "b": b, "fa": float(fa), "fb": float(fb),
                         "delta": float(fa - fb), "p_boot": float(p_boot),
                         "p_ar": float(p_ar)})
        _holm(rows, ("p_boot", "p_ar"))
        out += rows
    per_type: dict[str, list[dict[str, Any]]] = {}
    if types and pairs:
        pvals = {}
        for a, b in pairs:
            fa, fb = fstat(boot[a].types_full), fstat(boot[b].types_full)
            pvals[(a, b)] = (fa, fb, st.paired_bootstrap_p(
                fa, fb, fstat(boot[a].types_boot), fstat(boot[b].types_boot)))
        for j, t in enumerate(types):
            rows = []
            for (a, b), v in pvals.items():
                if not boot[a].types_full[j].any() or not boot[b].types_full[j].any():
                    continue  # a system without TP, FP or FN of the type has no F to compare
                rows.append({"a": a, "b": b, "fa": float(v[0][j]), "fb": float(v[1][j]),
                             "delta": float(v[0][j] - v[1][j]), "p_boot": float(v[2][j])})
            _holm(rows, ("p_boot",))
            per_type[t] = rows
    return out, per_type


def _holm(rows: list[dict[str, Any]], keys: Sequence[str]) -> None:
    """Add ``KEY_holm``: Holm's correction of each p-value column over the rows."""
    for key in keys:
        for r, adj in zip(rows, st.holm([r[key] for r in rows]), strict=True):
            r[key + "_holm"] = adj


@dataclass(frozen=True)
class _Measure:
    """A measure compared with the baseline: a statistic of summed per-sentence counts."""

    key: str
    label: str
    stat: Any  # summed counts [..., k] -> value [...]
    lower_is_better: bool = False


def _measures(beta: float) -> dict[str, _Measure]:
    fb = f"F{beta:g}"
    return {m.key: m for m in (
        _Measure("errant", f"ERRANT {fb}", st.f_stat(beta)),
        _Measure("maxmatch", f"M2 {fb}", st.f_stat(beta)),
        _Measure("det", "Detection F1", st.f_stat(1.0)),
        _Measure("success", "Success", st.ratio_stat),
        _Measure("overcorrection", "Over-correction", st.ratio_stat, lower_is_better=True),
        _Measure("type", fb, st.f_stat(beta)),
        _Measure("type_only", f"type-only {fb}", st.f_stat(beta)),
        _Measure("type_det", "Det F1", st.f_stat(1.0)),
    )}


def _overall_counts(c: _SystemCounts, rs: _Resampled, key: str
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-sentence counts and their resampled sums of an overall measure (None: absent)."""
    T = c.det.shape[1] - 1
    if key == "errant":
        return rs.total, rs.total_boot
    if key == "maxmatch":
        if c.mm_counts is None or rs.mm_boot is None:
            return None
        return c.mm_counts, rs.mm_boot
    if key == "det":
        return c.det[:, T], rs.det_boot[:, T]
    if key == "success":
        return c.success[:, T], rs.success_boot[:, T]
    return c.rates[:, :2], rs.rates_boot[:, :2]  # over-correction: (overcorrected, clean)


def _type_counts(c: _SystemCounts, rs: _Resampled, key: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-sentence counts ``[n, T, k]`` and resampled sums ``[B, T, k]`` of a per-type
    measure."""
    T = c.per_type.shape[1]
    if key == "type":
        return c.per_type, rs.types_boot
    if key == "type_only":
        return c.type_only, rs.type_only_boot
    return c.det[:, :T], rs.det_boot[:, :T]


def _defined(key: str, sa: np.ndarray, sb: np.ndarray) -> np.ndarray:
    """Where both systems' measure is defined (the page's dashes): F needs TP, FP or FN; a
    ratio a denominator."""
    if key in ("success", "overcorrection"):
        return (sa[..., 1] > 0) & (sb[..., 1] > 0)
    return sa.any(axis=-1) & sb.any(axis=-1)


def _test_rows(key: str, measure: _Measure, a: str, b: str, xa: np.ndarray, xb: np.ndarray,
               ba: np.ndarray, bb: np.ndarray, o: ReportOptions,
               types: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Paired bootstrap and approximate randomisation of one measure, system ``a`` against
    the baseline ``b`` (per type when ``types`` are given: counts ``[n, T, k]``)."""
    sa, sb = xa.sum(axis=0), xb.sum(axis=0)
    va, vb = measure.stat(sa), measure.stat(sb)
    p_boot = st.paired_bootstrap_p(va, vb, measure.stat(ba), measure.stat(bb))
    p_ar = st.approximate_randomization(xa, xb, measure.stat, o.trials, o.seed)
    cols = {"value": va, "base_value": vb, "delta": va - vb, "p_boot": p_boot, "p_ar": p_ar,
            "ok": _defined(key, sa, sb)}
    arrays = {k: np.asarray(v) for k, v in cols.items()}
    rows = []
    for j in range(len(types)) if types is not None else [None]:
        at = () if j is None else (j,)  # a scalar overall, one type's column per type
        if not bool(arrays["ok"][at]):
            continue
        rows.append({"measure": key, "label": measure.label,
                     "type": "" if types is None or j is None else types[j],
                     "system": a, "baseline": b,
                     **{k: float(arrays[k][at]) for k in cols if k != "ok"},
                     "lower_is_better": measure.lower_is_better})
    return rows


def baseline_tests(counts: dict[str, _SystemCounts], boot: dict[str, _Resampled],
                    types: list[str], o: ReportOptions) -> dict[str, list[dict[str, Any]]]:
    """Every other system against the baseline: overall ERRANT and MaxMatch F, sentence-level
    detection F1, success and over-correction; per type F, type-only F and detection F1. Each
    with a paired bootstrap (the report's resamples) and approximate randomisation; Holm's
    correction per measure (and type) over the systems compared."""
    measures = _measures(o.beta)
    base = o.baseline
    assert base is not None
    others = [a for a in counts if a != base]
    overall: list[dict[str, Any]] = []
    for key in ("errant", "maxmatch", "det", "success", "overcorrection"):
        rows = []
        for a in others:
            got_a = _overall_counts(counts[a], boot[a], key)
            got_b = _overall_counts(counts[base], boot[base], key)
            if got_a is None or got_b is None:
                continue
            rows += _test_rows(key, measures[key], a, base, got_a[0], got_b[0], got_a[1],
                               got_b[1], o)
        _holm(rows, ("p_boot", "p_ar"))
        overall += rows
    per_type: list[dict[str, Any]] = []
    if types:
        by: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for key in ("type", "type_only", "type_det"):
            for a in others:
                xa, ba = _type_counts(counts[a], boot[a], key)
                xb, bb = _type_counts(counts[base], boot[base], key)
                for r in _test_rows(key, measures[key], a, base, xa, xb, ba, bb, o, types):
                    by.setdefault((r["type"], key), []).append(r)
        for t in types:
            for key in ("type", "type_only", "type_det"):
                rows = by.get((t, key), [])
                _holm(rows, ("p_boot", "p_ar"))
                per_type += rows
    return {"overall": overall, "types": per_type}
