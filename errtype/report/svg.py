"""Standalone SVG charts (no scripts, no external fonts or styles): usable inline in the HTML
report and as files for papers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from .measures import Report

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#2ca02c", "#d62728"]


@dataclass
class Series:
    """One system's values (and optional interval) per category; None = undefined."""

    name: str
    values: Sequence[float | None]
    lo: Sequence[float | None] | None = None
    hi: Sequence[float | None] | None = None


def nice_ticks(peak: float, target: int = 5) -> list[float]:
    """Evenly spaced ticks from 0 past ``peak``: a step of 1, 2, 2.5 or 5 times a power of ten,
    about ``target`` intervals."""
    if peak <= 0:
        return [0.0, 1.0]
    raw = peak / target
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * 0.999)
    n = math.ceil(peak / step - 1e-9)
    return [round(k * step, 12) for k in range(n + 1)]


def _label(v: float, step: float, percent: bool) -> str:
    """A tick label with as many decimals as the step needs."""
    x, st = (100 * v, 100 * step) if percent else (v, step)
    d = 0
    while d < 6 and abs(st * 10 ** d - round(st * 10 ** d)) > 1e-6:
        d += 1
    return f"{x:.{d}f}"


def bar_chart(title: str, categories: Sequence[str], series: Sequence[Series], *,
              xmax: float | None = None, percent: bool = True, chart_id: str = "chart",
              panel_width: int | None = None, label_width: int = 190, row: int = 17) -> str:
    """Small multiples of horizontal bars: one row per category, one panel per series, all on
    one scale with even ticks labelled above and below. An interval is a whisker under its
    bar, a zero is a visible stub labelled 0, an undefined value is a dash."""
    bar, gap = row - 8, 30
    panel_w = panel_width or max(150, (820 - label_width) // max(1, len(series)) - gap)
    width = label_width + len(series) * (panel_w + gap)
    top = 66
    plot_h = row * len(categories)
    height = top + plot_h + 24
    peak = max([*(v for s in series for v in s.values if v is not None),
                *(v for s in series for v in (s.hi or []) if v is not None)], default=0.0)
    ticks = nice_ticks(xmax if xmax else peak)
    scale = ticks[-1]
    step = ticks[1] - ticks[0]
    out = _head(title, width, height, chart_id)
    for i in range(0, len(categories), 2):  # stripes guide the eye along a row
        out.append(f'<rect x="0" y="{top + i * row}" width="{width}" height="{row}" '
                   f'fill="#f4f6f9"/>')
    for i, cat in enumerate(categories):
        out.append(f'<text x="{label_width - 8}" y="{top + i * row + row / 2 + 4:.1f}" '
                   f'text-anchor="end" class="cat">{escape(cat)}</text>')
    for k, s in enumerate(series):
        x0 = label_width + k * (panel_w + gap)
        colour = PALETTE[k % len(PALETTE)]

        def x(v: float, x0: int = x0) -> float:
            return x0 + panel_w * max(0.0, min(v, scale)) / scale

        out.append(f'<text x="{x0 + panel_w / 2:.0f}" y="38" text-anchor="middle" '
                   f'font-weight="bold" fill="{colour}" class="series">{escape(s.name)}</text>')
        for t in ticks:
            lab = _label(t, step, percent)
            out.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" y2="{top + plot_h}" '
                       f'stroke="#d5d9e0"/>'
                       f'<text x="{x(t):.1f}" y="{top - 6}" text-anchor="middle" '
                       f'fill="#555555" class="tick">{lab}</text>'
                       f'<text x="{x(t):.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
                       f'fill="#555555" class="tick">{lab}</text>')
        for i, cat in enumerate(categories):
            v = s.values[i]
            by = top + i * row + 2
            shown = "\u2014" if v is None else f"{100 * v if percent else v:.2f}"
            tip = f"<title>{escape(s.name)} {escape(cat)}: {shown}</title>"
            data = (f'class="bar" data-series="{escape(s.name)}" data-category="{escape(cat)}" '
                    f'data-value="{"" if v is None else f"{v:.6f}"}"')
            if v is None:
                out.append(f'<rect {data} x="{x0}" y="{by}" width="0" height="{bar}"/>'
                           f'<text x="{x0 + 3}" y="{by + bar - 1}" fill="#888888">\u2014{tip}'
                           f"</text>")
                continue
            out.append(f'<rect {data} x="{x0}" y="{by}" width="{x(v) - x0:.1f}" '
                       f'height="{bar}" fill="{colour}">{tip}</rect>')
            if v <= 0:  # a zero is a value, not a missing bar
                out.append(f'<rect class="zero" x="{x0}" y="{by - 1}" width="2" '
                           f'height="{bar + 2}" fill="{colour}"/><text x="{x0 + 5}" '
                           f'y="{by + bar - 1}" fill="#444444" font-size="10">0</text>')
            lo = s.lo[i] if s.lo is not None else None
            hi = s.hi[i] if s.hi is not None else None
            if lo is not None and hi is not None:
                wy = by + bar + 2.5
                out.append(f'<path class="ci" d="M{x(lo):.1f} {wy - 2}v4M{x(lo):.1f} {wy}'
                           f'H{x(hi):.1f}M{x(hi):.1f} {wy - 2}v4" stroke="#222222" '
                           f'fill="none" stroke-width="1"/>')
    out.append("</svg>")
    return "\n".join(out)


def type_chart(r: Report, max_types: int = 30) -> str:
    """Per-type ERRANT F-beta of every system (the most frequent gold types), with intervals;
    undefined values (a system with no TP, FP or FN of the type) are dashes."""
    gold = [t for t in r.types if r.gold_freq.get(t, 0) > 0]
    types = gold[:max_types]
    labels = [f"{t} ({r.gold_freq[t]})" for t in types]

    def col(s: str, k: str) -> list[float | None]:
        fs = [r.per_type[s][t]["f"] for t in types]
        return [None if f is None else f[k] for f in fs]

    series = [Series(s, col(s, "v"), col(s, "lo"), col(s, "hi")) for s in r.systems]
    note = f", top {len(types)} of {len(gold)} types" if len(gold) > len(types) else ""
    return bar_chart(f"F{r.options.beta:g} per error type (gold edits in brackets{note})",
                     labels, series, xmax=1.0, chart_id="type-chart")


def frequency_chart(r: Report, max_types: int = 30) -> str:
    """Gold edits per type (all annotators), like GECCC's Figure 1."""
    types = [t for t in r.types if r.gold_freq.get(t, 0) > 0][:max_types]
    total = sum(r.gold_freq.values()) or 1
    series = [Series("share of gold edits (%)", [r.gold_freq[t] / total for t in types])]
    return bar_chart("Gold error types (share of all annotators' edits)", types, series,
                     chart_id="freq-chart", panel_width=600)


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
                     chart_id="corpus-chart", row=22)


def all_charts(r: Report) -> dict[str, str]:
    """``{file stem: svg}`` of every chart."""
    return {"corpus": corpus_chart(r), "types": type_chart(r), "frequency": frequency_chart(r),
            "heatmap": heatmap(r)}


#: the heatmap's colour scale (ColorBrewer "Blues", light to dark): value 0 to 1
BLUES = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5",
         "#08519c", "#08306b"]
HEATMAP_MEASURES = {"f": "F{beta}", "type_only": "type-only F{beta}", "det": "detection F1"}


def _blend(value: float) -> str:
    """The colour of a value in [0, 1] on :data:`BLUES` (linear between its stops)."""
    x = max(0.0, min(1.0, value)) * (len(BLUES) - 1)
    i = min(int(x), len(BLUES) - 2)
    a, b = BLUES[i], BLUES[i + 1]
    mix = [round(int(a[k:k + 2], 16) + (x - i) * (int(b[k:k + 2], 16) - int(a[k:k + 2], 16)))
           for k in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def heatmap_marks(r: Report, measure: str = "f", alpha: float = 0.05
                  ) -> dict[tuple[str, str], str]:
    """(system, type) -> "up"/"down": the system is better/worse than the baseline on the
    type's ``measure`` by both paired tests (:func:`errtype.report.tables.significance`)."""
    from .tables import significance

    key = {"f": "type", "type_only": "type_only", "det": "type_det"}[measure]
    out = {}
    for row in r.baseline.get("types", []):
        verdict = significance(row, alpha) if row["measure"] == key else ""
        if verdict:
            out[(row["system"], row["type"])] = "up" if verdict == "better" else "down"
    return out


def heatmap_value(r: Report, system: str, etype: str, measure: str = "f") -> float | None:
    """A heatmap cell's value: the system's per-type ``measure`` (None: undefined)."""
    x = r.per_type[system][etype]
    value = x["f"] if measure == "f" else x[measure]["f"]
    return None if value is None else float(value["v"])


def heatmap(r: Report, measure: str = "f", max_types: int = 30, cell: int = 34,
            row: int = 26) -> str:
    """Systems (rows) x error types (columns, by gold frequency) coloured by a per-type
    measure: F-beta (``"f"``), type-only F-beta or detection F1; each cell prints the value
    (percent; a dash where it is undefined) and links to the system's sentences with the type
    in the report's browser. With a baseline, a triangle marks a type on which a system is
    significantly better (up) or worse (down) than it (both paired tests, Holm, p < 0.05)."""
    if measure not in HEATMAP_MEASURES:
        raise ValueError(f"measure must be one of {', '.join(HEATMAP_MEASURES)}")
    from urllib.parse import quote, urlencode

    label = HEATMAP_MEASURES[measure].format(beta=f"{r.options.beta:g}")
    types = [t for t in r.types if r.gold_freq.get(t, 0) > 0][:max_types]
    marks = heatmap_marks(r, measure)
    base = r.options.baseline
    names = [f"{s} (baseline)" if s == base else s for s in r.systems]
    left = 16 + 7 * max([len(n) for n in names] + [6])
    longest = 6.2 * max([len(t) for t in types] + [4])  # a label's length in pixels
    top = 40 + int(longest * 0.82)  # the labels are rotated by 55 degrees
    width = max(left + cell * len(types) + int(longest * 0.58) + 12, 420)
    height = top + row * len(r.systems) + 64
    title = f"{label} per system and error type"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="heatmap-{measure}" class="chart '
           f'heatmap" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'font-family="Helvetica, Arial, sans-serif" font-size="11">',
           f"<title>{escape(title)}</title>",
           '<defs><linearGradient id="heatmap-scale-' + measure + '" x1="0" x2="1" y1="0" '
           'y2="0">' + "".join(f'<stop offset="{k / (len(BLUES) - 1):.3f}" stop-color="{c}"/>'
                               for k, c in enumerate(BLUES)) + "</linearGradient></defs>",
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{width / 2:.0f}" y="18" text-anchor="middle" font-size="14" '
           f'font-weight="bold">{escape(title)}</text>']
    for j, t in enumerate(types):
        x = left + j * cell + cell / 2
        out.append(f'<text class="col" transform="translate({x + 4:.1f} {top - 6}) '
                   f'rotate(-55)" text-anchor="start">{escape(t)}'
                   f"<title>{escape(t)}: {r.gold_freq[t]} gold edits</title></text>")
    for i, (s, shown) in enumerate(zip(r.systems, names, strict=True)):
        y = top + i * row
        weight = ' font-weight="bold"' if s == base else ""
        out.append(f'<text class="row" x="{left - 8}" y="{y + row / 2 + 4:.1f}" '
                   f'text-anchor="end"{weight}>{escape(shown)}</text>')
        for j, t in enumerate(types):
            x = left + j * cell
            value = heatmap_value(r, s, t, measure)
            mark = marks.get((s, t), "")
            text = "\u2014" if value is None else f"{100 * value:.0f}"
            arrow = {"up": "\u25b2", "down": "\u25bc"}.get(mark, "")
            fill = "#eeeeee" if value is None else _blend(value)
            ink = "#ffffff" if value is not None and value > 0.55 else "#222222"
            frag = urlencode({"sys": s, "type": t}, quote_via=quote)
            shown_v = "undefined" if value is None else f"{100 * value:.2f}"
            sig = {"up": ", better than the baseline", "down": ", worse than the baseline"}
            tip = f"{s}, {t}: {label} {shown_v}{sig.get(mark, '')}"
            data = (f'data-system="{escape(s)}" data-type="{escape(t)}" '
                    f'data-value="{"" if value is None else f"{value:.6f}"}" '
                    f'data-mark="{mark}"')
            edge = ' stroke="#111111" stroke-width="2"' if mark else ""
            out.append(f'<a class="cell" href="#{escape(frag)}" {data}>'
                       f'<rect x="{x}" y="{y}" width="{cell - 1}" height="{row - 1}" '
                       f'fill="{fill}"{edge}/><text x="{x + (cell - 1) / 2:.1f}" '
                       f'y="{y + row / 2 + 4:.1f}" text-anchor="middle" fill="{ink}" '
                       f'font-size="10">{text}{arrow}</text>'
                       f"<title>{escape(tip)}</title></a>")
    ly = top + row * len(r.systems) + 22
    lw = min(240, width - left - 20)
    out.append(f'<rect x="{left}" y="{ly}" width="{lw}" height="10" '
               f'fill="url(#heatmap-scale-{measure})" stroke="#999999" stroke-width="0.5"/>')
    for k in range(5):
        out.append(f'<text x="{left + lw * k / 4:.1f}" y="{ly + 24}" text-anchor="middle" '
                   f'fill="#555555" class="scale">{25 * k}</text>')
    note = "\u2014 undefined" + (", \u25b2/\u25bc better/worse than the baseline (both "
                                 "paired tests, Holm, p < 0.05)" if base else "")
    out.append(f'<text x="{left + lw + 12}" y="{ly + 9}" fill="#555555">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out)



def _head(title: str, width: int, height: int, chart_id: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(chart_id)}" class="chart" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'font-family="Helvetica, Arial, sans-serif" font-size="11">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
            f'<text x="{width / 2:.0f}" y="18" text-anchor="middle" font-size="14" '
            f'font-weight="bold">{escape(title)}</text>']


def line_chart(title: str, x_labels: Sequence[str], series: Sequence[Series], *,
               ymin: float = -1.0, ymax: float = 1.0, x_title: str = "",
               chart_id: str = "line-chart", width: int = 640, height: int = 320) -> str:
    """Lines over categories (an undefined value breaks its line), one colour per series with
    a legend; values clipped to [ymin, ymax]. The window analysis plots correlations so."""
    left, right, top, bottom = 48, 150, 34, 44
    pw, ph = width - left - right, height - top - bottom
    n = max(1, len(x_labels) - 1)

    def x(i: int) -> float:
        return left + pw * i / n if len(x_labels) > 1 else left + pw / 2

    def y(v: float) -> float:
        return top + ph * (ymax - max(ymin, min(v, ymax))) / (ymax - ymin)

    out = _head(title, width, height, chart_id)
    steps = 4
    for k in range(steps + 1):
        v = ymin + (ymax - ymin) * k / steps
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" '
                   f'stroke="{"#999999" if abs(v) < 1e-12 else "#d5d9e0"}"/>'
                   f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#555555" '
                   f'class="tick">{v:g}</text>')
    for i, lab in enumerate(x_labels):
        out.append(f'<text x="{x(i):.1f}" y="{top + ph + 16}" text-anchor="middle" '
                   f'fill="#555555" class="xtick">{escape(lab)}</text>')
    if x_title:
        out.append(f'<text x="{left + pw / 2:.0f}" y="{height - 6}" text-anchor="middle" '
                   f'fill="#333333">{escape(x_title)}</text>')
    for k, s in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        dash = ' stroke-dasharray="5 3"' if k % 2 else ""
        path, pen = [], "M"
        for i, v in enumerate(s.values):
            if v is None or v != v:
                pen = "M"
                continue
            path.append(f"{pen}{x(i):.1f} {y(v):.1f}")
            pen = "L"
            out.append(f'<circle class="point" data-series="{escape(s.name)}" '
                       f'data-category="{escape(x_labels[i])}" data-value="{v:.6f}" '
                       f'cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"><title>'
                       f'{escape(s.name)} {escape(x_labels[i])}: {v:.3f}</title></circle>')
        if path:
            out.append(f'<path d="{"".join(path)}" fill="none" stroke="{colour}" '
                       f'stroke-width="1.8"{dash}/>')
        ly = top + 14 * k + 8
        out.append(f'<line x1="{left + pw + 12}" y1="{ly}" x2="{left + pw + 32}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"{dash}/><text x="{left + pw + 36}" '
                   f'y="{ly + 4}" class="legend">{escape(s.name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _diverging(v: float, centre: float, span: float) -> str:
    """Blue above ``centre``, red below, white at it."""
    t = max(-1.0, min(1.0, (v - centre) / span)) if span else 0.0
    far = (59, 76, 192) if t > 0 else (180, 4, 38)
    rgb = [round(255 + (c - 255) * abs(t)) for c in far]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def grid_heatmap(title: str, rows: Sequence[str], cols: Sequence[str],
            values: Sequence[Sequence[float | None]], *, centre: float = 0.5,
            span: float = 0.5, row_title: str = "", col_title: str = "",
            notes: Sequence[Sequence[str]] | None = None, chart_id: str = "heatmap",
            cell: int = 44) -> str:
    """A grid of annotated cells coloured around ``centre`` (blue above, red below); an
    undefined cell is left blank. The pairwise analysis plots accuracy per pair of ranks so."""
    left, top = 70, 60
    width = max(left + cell * len(cols) + 20, round(20 + 7.5 * len(title)))
    height = top + cell * len(rows) + 30
    out = _head(title, width, height, chart_id)
    if col_title:
        out.append(f'<text x="{left + cell * len(cols) / 2:.0f}" y="36" text-anchor="middle" '
                   f'fill="#333333">{escape(col_title)}</text>')
    if row_title:
        out.append(f'<text x="14" y="{top + cell * len(rows) / 2:.0f}" text-anchor="middle" '
                   f'fill="#333333" transform="rotate(-90 14 '
                   f'{top + cell * len(rows) / 2:.0f})">{escape(row_title)}</text>')
    for j, c in enumerate(cols):
        out.append(f'<text x="{left + cell * j + cell / 2:.0f}" y="{top - 6}" '
                   f'text-anchor="middle" class="col">{escape(c)}</text>')
    for i, r in enumerate(rows):
        out.append(f'<text x="{left - 6}" y="{top + cell * i + cell / 2 + 4:.0f}" '
                   f'text-anchor="end" class="row">{escape(r)}</text>')
        for j, c in enumerate(cols):
            v = values[i][j]
            x0, y0 = left + cell * j, top + cell * i
            if v is None or v != v:
                out.append(f'<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" '
                           f'fill="#ffffff" stroke="#eeeeee"/>')
                continue
            note = f" ({notes[i][j]})" if notes else ""
            out.append(f'<rect class="cell" data-row="{escape(r)}" data-col="{escape(c)}" '
                       f'data-value="{v:.6f}" x="{x0}" y="{y0}" width="{cell}" '
                       f'height="{cell}" fill="{_diverging(v, centre, span)}" stroke="#ffffff">'
                       f'<title>{escape(r)} / {escape(c)}: {v:.3f}{escape(note)}</title></rect>'
                       f'<text x="{x0 + cell / 2:.0f}" y="{y0 + cell / 2 + 4:.0f}" '
                       f'text-anchor="middle" font-size="10">{v:.2f}</text>')
    out.append("</svg>")
    return "\n".join(out)


def window_chart(windows: dict[str, Sequence[dict]], human: str = "") -> str:
    """The window analysis: per metric its Pearson (solid) and Spearman (dashed) correlation in
    each window of systems ranked by the human score (``windows[metric]`` as
    :func:`errtype.score.meta.seeda.window_analysis` returns them)."""
    first = next(iter(windows.values()), [])
    labels = [f"{w['from']}-{w['to']}" for w in first]
    series = []
    for m, ws in windows.items():
        series.append(Series(f"{m} r", [w["pearson"] for w in ws]))
        series.append(Series(f"{m} \u03c1", [w["spearman"] for w in ws]))
    title = "Window analysis" + (f" against {human}" if human else "")
    return line_chart(title, labels, series, x_title="systems by human rank (window)",
                      chart_id="window-chart")


def pairwise_chart(cells: dict[str, dict], metric: str = "", judgments: str = "") -> str:
    """The pairwise analysis: the metric's sentence-level accuracy for each pair of human ranks
    (``cells["1-3"]`` as :func:`errtype.score.meta.seeda.pairwise_analysis` gives them, keyed
    ``"better-worse"``)."""
    pairs = {tuple(int(x) for x in k.split("-")): v for k, v in cells.items()}
    better = sorted({a for a, _ in pairs})
    worse = sorted({b for _, b in pairs})
    values = [[pairs[(a, b)]["accuracy"] if (a, b) in pairs else None for b in worse]
              for a in better]
    notes = [[f"{int(pairs[(a, b)]['pairs'])} pairs" if (a, b) in pairs else "" for b in worse]
             for a in better]
    title = "Pairwise analysis" + (f": {metric}" if metric else "") + (
        f" ({judgments})" if judgments else "")
    return grid_heatmap(title, [str(a) for a in better], [str(b) for b in worse], values,
                   row_title="better human rank", col_title="worse human rank", notes=notes,
                   chart_id="pairwise-chart")
