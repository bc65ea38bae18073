"""Standalone SVG charts (no scripts, no external fonts or styles): usable inline in the HTML
report and as files for papers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from .measures import Report

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#2ca02c", "#d62728"]


@dataclass
class Series:
    """One system's values (and optional interval) per category."""

    name: str
    values: Sequence[float]
    lo: Sequence[float] | None = None
    hi: Sequence[float] | None = None


def bar_chart(title: str, categories: Sequence[str], series: Sequence[Series], *,
              xmax: float | None = None, percent: bool = True, chart_id: str = "chart",
              width: int = 820, bar: int = 9, label_width: int = 190) -> str:
    """Grouped horizontal bars: one group per category, one bar per series, CI whiskers."""
    top, legend_h = 34, 18 * ((len(series) + 3) // 4)
    group = bar * len(series) + 8
    plot_w = width - label_width - 70
    height = top + legend_h + group * len(categories) + 30
    peak = max([*(v for s in series for v in s.values),
                *(v for s in series for v in (s.hi or []))], default=0.0)
    xmax = xmax or (peak * 1.05 if peak > 0 else 1.0)

    def x(v: float) -> float:
        return label_width + plot_w * max(0.0, min(v, xmax)) / xmax

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(chart_id)}" class="chart" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'font-family="Helvetica, Arial, sans-serif" font-size="11">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{width / 2:.0f}" y="18" text-anchor="middle" font-size="14" '
           f'font-weight="bold">{escape(title)}</text>']
    for k, s in enumerate(series):
        lx, ly = label_width + (k % 4) * 150, top + 18 * (k // 4)
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" '
                   f'fill="{PALETTE[k % len(PALETTE)]}"/>'
                   f'<text x="{lx + 14}" y="{ly}">{escape(s.name)}</text>')
    y0 = top + legend_h
    for g in range(5):  # grid
        v = xmax * g / 4
        gx = x(v)
        lab = f"{100 * v:.0f}" if percent else f"{v:g}"
        out.append(f'<line x1="{gx:.1f}" y1="{y0}" x2="{gx:.1f}" '
                   f'y2="{y0 + group * len(categories)}" stroke="#dddddd"/>'
                   f'<text x="{gx:.1f}" y="{y0 + group * len(categories) + 14}" '
                   f'text-anchor="middle" fill="#555555">{lab}</text>')
    for i, cat in enumerate(categories):
        gy = y0 + i * group
        out.append(f'<text x="{label_width - 6}" y="{gy + group / 2 + 3:.1f}" '
                   f'text-anchor="end" class="cat">{escape(cat)}</text>')
        for k, s in enumerate(series):
            v = s.values[i]
            by = gy + 4 + k * bar
            colour = PALETTE[k % len(PALETTE)]
            out.append(f'<rect class="bar" data-series="{escape(s.name)}" '
                       f'data-category="{escape(cat)}" data-value="{v:.6f}" '
                       f'x="{label_width}" y="{by}" width="{x(v) - label_width:.1f}" '
                       f'height="{bar - 1}" fill="{colour}"><title>{escape(s.name)} '
                       f'{escape(cat)}: {100 * v if percent else v:.2f}</title></rect>')
            if s.lo is not None and s.hi is not None:
                cy = by + (bar - 1) / 2
                out.append(f'<line x1="{x(s.lo[i]):.1f}" y1="{cy:.1f}" x2="{x(s.hi[i]):.1f}" '
                           f'y2="{cy:.1f}" stroke="#222222" stroke-width="1"/>')
    out.append("</svg>")
    return "\n".join(out)


def type_chart(r: Report, max_types: int = 40) -> str:
    """Per-type ERRANT F-beta of every system (types by gold frequency), with intervals."""
    types = [t for t in r.types if r.gold_freq.get(t, 0) > 0][:max_types]
    labels = [f"{t} ({r.gold_freq[t]})" for t in types]
    series = [Series(s, [r.per_type[s][t]["f"]["v"] for t in types],
                     [r.per_type[s][t]["f"]["lo"] for t in types],
                     [r.per_type[s][t]["f"]["hi"] for t in types]) for s in r.systems]
    more = len([t for t in r.types if r.gold_freq.get(t, 0) > 0]) - len(types)
    note = f", top {len(types)} of {len(types) + more} types" if more > 0 else ""
    return bar_chart(f"F{r.options.beta:g} per error type (gold edits in brackets{note})",
                     labels, series, xmax=1.0, chart_id="type-chart")


def frequency_chart(r: Report, max_types: int = 40) -> str:
    """Gold edits per type (all annotators), like GECCC's Figure 1."""
    types = [t for t in r.types if r.gold_freq.get(t, 0) > 0][:max_types]
    total = sum(r.gold_freq.values()) or 1
    series = [Series("share of gold edits", [r.gold_freq[t] / total for t in types])]
    return bar_chart("Gold error types (share of all annotators' edits)", types, series,
                     chart_id="freq-chart")


def corpus_chart(r: Report) -> str:
    """Corpus F-beta (ERRANT, MaxMatch) and GLEU per system, with intervals."""
    cats, series = [], []
    metrics = [("errant", "ERRANT F"), ("maxmatch", "M2 F"), ("gleu", "GLEU")]
    metrics = [(m, lab) for m, lab in metrics if all(m in r.corpus[s] for s in r.systems)]
    cats = [lab for _, lab in metrics]
    for s in r.systems:
        vals = [r.corpus[s][m]["f"] if m != "gleu" else r.corpus[s][m] for m, _ in metrics]
        series.append(Series(s, [v["v"] for v in vals], [v["lo"] for v in vals],
                             [v["hi"] for v in vals]))
    return bar_chart("Corpus scores (95% bootstrap intervals)", cats, series, xmax=1.0,
                     chart_id="corpus-chart", bar=12)


def all_charts(r: Report) -> dict[str, str]:
    """``{file stem: svg}`` of every chart."""
    return {"corpus": corpus_chart(r), "types": type_chart(r), "frequency": frequency_chart(r)}
