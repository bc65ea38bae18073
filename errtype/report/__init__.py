"""Reports: per-type tables, bootstrap intervals, paired tests, GECLens measures, a
self-contained HTML report, CSV/Markdown/LaTeX tables and standalone SVG charts.

    >>> from errtype.report import load_input, build_report, render_html
    >>> inp = load_input(["gold.m2"], [("AMU", "AMU.txt")], lang="en")   # doctest: +SKIP
    >>> html = render_html(build_report(inp))                            # doctest: +SKIP

A gold M2 whose types are not the annotator's type set (CoNLL-2014's NUCLE types) is re-typed
by the annotator and cached (``load_input(..., edit_gold="detect")``, the default, as in
``errtype score``; see :mod:`errtype.retype` and :mod:`errtype.lang.typesets`). Options select
error types and sentences (:mod:`.select`) and test every system against a baseline
(:mod:`.paired`); :func:`errtype.report.svg.heatmap` draws systems x types.
"""

from __future__ import annotations

from .html import render_html
from .inputs import ReportInput, System, load_input
from .measures import Report, ReportOptions, build_report
from .svg import all_charts
from .tables import Table, all_tables, render_tables, tables_dict

__all__ = [
    "Report", "ReportInput", "ReportOptions", "System", "Table", "all_charts", "all_tables",
    "build_report", "load_input", "render_html", "render_tables", "tables_dict",
]
