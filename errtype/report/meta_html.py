"""The meta-evaluation page of ``errtype-meta gmeg --html``: per domain, each metric's r and ρ
with their bootstrap intervals, the Williams test's p-value matrix (table and SVG) and the β
sweep (SVG), in one self-contained HTML file (no scripts, nothing fetched), styled like the
report."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from .. import __version__
from .html import CSS

__all__ = ["render_gmeg_html"]


def _num(x: Any) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _table(table_id: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return (f'<div class="scroll"><table id="{escape(table_id)}"><thead><tr>{head}</tr>'
            f"</thead><tbody>{body}</tbody></table></div>")


def _domain(res: Mapping[str, Any], charts: Mapping[str, str]) -> str:
    d = str(res["domain"])
    rows = []
    for m, c in res["metrics"].items():
        p, s = c["pearson"], c["spearman"]
        rows.append([m, _num(p["value"]), f"{_num(p['ci'][0])}–{_num(p['ci'][1])}",
                     _num(s["value"]), f"{_num(s['ci'][0])}–{_num(s['ci'][1])}", c["kind"]])
    parts = [f'<section id="domain-{escape(d)}"><h2>{escape(d)} ({escape(res["split"])})</h2>',
             f'<p class="note">{len(res["systems"])} systems + {res["synthetic"]} hybrids, '
             f'{res["sentences"]} sentences, seed {res["seed"]}; 95 % bootstrap intervals.</p>',
             _table(f"correlations-{d}", ["metric", "r", "r interval", "ρ", "ρ interval",
                                          "hybrids scored by"], rows)]
    w = res.get("williams") or {}
    if w:
        names = list(w)
        parts.append("<h3>Williams test</h3><p class=\"note\">One-sided p that the row metric "
                     "correlates (r) better with the human scores than the column metric.</p>")
        parts.append(_table(f"williams-table-{d}", ["metric", *names],
                            [[a, *("–" if a == b else f"{w[a][b]:.3g}" for b in names)]
                             for a in names]))
        if f"williams-{d}" in charts:
            parts.append(f'<figure id="figure-williams-{escape(d)}">{charts[f"williams-{d}"]}'
                         "</figure>")
    if f"beta-{d}" in charts:
        parts.append("<h3>β sweep</h3><p class=\"note\">Each F-measure's r and ρ at β = 0 … 2 "
                     "over the same points.</p>")
        parts.append(f'<figure id="figure-beta-{escape(d)}">{charts[f"beta-{d}"]}</figure>')
    parts.extend(f'<p class="note">note: {escape(n)}</p>' for n in res.get("notes", []))
    parts.append("</section>")
    return "".join(parts)


def render_gmeg_html(results: Sequence[Mapping[str, Any]], charts: Mapping[str, str],
                     signature: str, title: str = "errtype meta-evaluation: GMEG-Data") -> str:
    """The page for ``results`` (:func:`errtype.score.meta.gmeg.evaluate_domain`, one per
    domain) with ``charts`` (SVG by name: ``williams-DOMAIN``, ``beta-DOMAIN``)."""
    nav = "".join(f'<a href="#domain-{escape(str(r["domain"]))}">{escape(str(r["domain"]))}</a>'
                  for r in results)
    body = "".join(_domain(r, charts) for r in results)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<header><h1>{escape(title)}</h1><p>errtype {escape(__version__)}</p></header>"
            f"<nav>{nav}</nav><main>{body}<section id=\"signature\"><h2>Signature</h2>"
            f'<p class="sig">{escape(signature)}</p></section></main></body></html>\n')
