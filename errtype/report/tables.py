"""The report's tables as data (header + rows of strings) and as CSV, Markdown and LaTeX."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .measures import MISSED, NO_GOLD, Report


@dataclass
class Table:
    """A titled table of strings; ``key`` names it in files and HTML ids."""

    key: str
    title: str
    header: list[str]
    rows: list[list[str]]


MISSING = "\u2014"  # an undefined value (an em dash; an empty cell in CSV)


def pct(e: dict[str, float] | float | None) -> str:
    """A value (or estimate) as a percentage with two decimals; None is MISSING."""
    if e is None:
        return MISSING
    return f"{100 * (e['v'] if isinstance(e, dict) else e):.2f}"


def ci(e: dict[str, float] | None) -> str:
    return MISSING if e is None else f"[{100 * e['lo']:.2f}, {100 * e['hi']:.2f}]"


def pval(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def corpus_table(r: Report) -> Table:
    fb = f"F{r.options.beta:g}"
    header = ["System", "ERRANT P", "ERRANT R", f"ERRANT {fb}", f"{fb} CI",
              f"macro {fb}", "macro CI"]
    mm = any("maxmatch" in r.corpus[s] for s in r.systems)
    gl = any("gleu" in r.corpus[s] for s in r.systems)
    if mm:
        header += ["M2 P", "M2 R", f"M2 {fb}", f"M2 {fb} CI"]
    if gl:
        header += ["GLEU", "GLEU CI"]
    rows = []
    for s in r.systems:
        c = r.corpus[s]
        e = c["errant"]
        row = [s, pct(e["p"]), pct(e["r"]), pct(e["f"]), ci(e["f"]), pct(c["macro_f"]),
               ci(c["macro_f"])]
        if mm:
            m = c.get("maxmatch")
            row += [pct(m["p"]), pct(m["r"]), pct(m["f"]), ci(m["f"])] if m else ["-"] * 4
        if gl:
            g = c.get("gleu")
            row += [pct(g), ci(g)] if g else ["-", "-"]
        rows.append(row)
    return Table("corpus", "Corpus scores (95% bootstrap intervals)", header, rows)


def type_table(r: Report, system: str) -> Table:
    fb = f"F{r.options.beta:g}"
    header = ["Type", "Gold", "TP", "FP", "FN", "P", "R", fb, f"{fb} CI", f"type-only {fb}",
              "type-only CI", "Det P", "Det R", "Det F1", "Success", "Success n"]
    for label in r.attribution.get(system, {}):
        header += [f"{label} sum", f"{label} per edit"]
    rows = []
    for t in r.types:
        x = r.per_type[system][t]
        only, det = x["type_only"], x["det"]
        rows.append([t, str(x["gold"]), str(x["tp"]), str(x["fp"]), str(x["fn"]), pct(x["p"]),
                     pct(x["r"]), pct(x["f"]), ci(x["f"]), pct(only["f"]), ci(only["f"]),
                     pct(det["p"]), pct(det["r"]), pct(det["f"]), pct(x["success"]),
                     str(x["success_n"]), *_attribution_cells(r, system, t)])
    return Table(f"types-{system}", f"Per-type scores: {system}", header, rows)


def _attribution_cells(r: Report, system: str, t: str) -> list[str]:
    """Per attribution of the system: the type's summed and mean edit attribution (MISSING
    when the system has no edit of the type)."""
    cells = []
    for per in r.attribution.get(system, {}).values():
        x = per.get(t)
        cells += [MISSING, MISSING] if x is None else [f"{x['sum']:.4f}", f"{x['mean']:.4f}"]
    return cells


def confusion_table(r: Report, system: str) -> Table:
    """Gold type (rows, by gold frequency) x system type (columns: MISSED, then the row types
    in row order, so the diagonal shows, then the other system types by frequency), in gold
    edits, with a NO_GOLD row (see :func:`errtype.report.measures.confusion`)."""
    cells = r.confusion[system]
    golds = [t for t in r.types if any(g == t for g, _ in cells)]
    golds += sorted({g for g, _ in cells} - {*golds, NO_GOLD})
    col_n: dict[str, int] = {}
    for (_, h), n in cells.items():
        if h != MISSED:
            col_n[h] = col_n.get(h, 0) + n
    cols = [MISSED, *(g for g in golds if g in col_n)]
    cols += sorted(set(col_n) - set(cols), key=lambda h: (-col_n[h], h))
    rows = []
    for g in [*golds, NO_GOLD]:
        row = [cells.get((g, h), 0) for h in cols]
        if any(row):
            rows.append([g, str(sum(row)), *(str(n) if n else "" for n in row)])
    return Table(f"confusion-{system}", f"Gold type x system type: {system}",
                 ["Gold type", "Edits", *cols], rows)


def geclens_table(r: Report) -> Table:
    header = ["System", "Det P", "Det R", "Det F1", "Det F1 CI", "Success", "Success CI",
              "Over-correction", "Over-corr. CI", "Clean sentences", "Change rate",
              "Change CI"]
    rows = []
    for s in r.systems:
        g = r.geclens[s]
        rows.append([s, pct(g["det"]["p"]), pct(g["det"]["r"]), pct(g["det"]["f"]),
                     ci(g["det"]["f"]), pct(g["success"]), ci(g["success"]),
                     pct(g["overcorrection"]), ci(g["overcorrection"]), str(g["clean"]),
                     pct(g["change_rate"]), ci(g["change_rate"])])
    return Table("sentences", "Sentence-level measures (95% bootstrap intervals)", header, rows)


def comparison_table(r: Report) -> Table:
    fb = f"F{r.options.beta:g}"
    header = ["Metric", "A", "B", f"{fb} A", f"{fb} B", "Delta", "p (bootstrap)",
              "p (bootstrap, Holm)", "p (AR)", "p (AR, Holm)"]
    rows = [[c["metric"], c["a"], c["b"], pct(c["fa"]), pct(c["fb"]), pct(c["delta"]),
             pval(c["p_boot"]), pval(c["p_boot_holm"]), pval(c["p_ar"]), pval(c["p_ar_holm"])]
            for c in r.comparisons]
    return Table("pairs", "Pairwise comparisons (paired tests, Holm over pairs)", header, rows)


def type_comparison_table(r: Report) -> Table:
    fb = f"F{r.options.beta:g}"
    header = ["Type", "A", "B", f"{fb} A", f"{fb} B", "Delta", "p (bootstrap)",
              "p (Holm)"]
    rows = [[t, c["a"], c["b"], pct(c["fa"]), pct(c["fb"]), pct(c["delta"]), pval(c["p_boot"]),
             pval(c["p_boot_holm"])]
            for t in r.types for c in r.type_comparisons.get(t, [])]
    return Table("type-pairs", "Pairwise comparisons per type (paired bootstrap)", header, rows)


def significance(row: dict[str, Any], alpha: float = 0.05) -> str:
    """"better"/"worse" when the system differs from the baseline by both tests (paired
    bootstrap and approximate randomisation, each Holm-corrected p < ``alpha``; for
    over-correction lower is better), else ""."""
    if max(row["p_boot_holm"], row["p_ar_holm"]) >= alpha or row["delta"] == 0:
        return ""
    return "better" if (row["delta"] > 0) != row["lower_is_better"] else "worse"


BASELINE_HEADER = ["System", "Baseline", "Value", "Baseline value", "Delta", "p (bootstrap)",
                   "p (bootstrap, Holm)", "p (AR)", "p (AR, Holm)", "vs baseline"]


def _baseline_cells(row: dict[str, Any]) -> list[str]:
    return [row["system"], row["baseline"], pct(row["value"]), pct(row["base_value"]),
            pct(row["delta"]), pval(row["p_boot"]), pval(row["p_boot_holm"]),
            pval(row["p_ar"]), pval(row["p_ar_holm"]), significance(row)]


def baseline_table(r: Report) -> Table:
    """Every system against the baseline on the overall measures."""
    rows = [[row["label"], *_baseline_cells(row)] for row in r.baseline.get("overall", [])]
    return Table("baseline", f"Against the baseline {r.options.baseline} (paired tests, Holm "
                 "over the systems)", ["Measure", *BASELINE_HEADER], rows)


def baseline_type_table(r: Report) -> Table:
    """Every system against the baseline per error type: F, type-only F, detection F1."""
    rows = [[row["type"], row["label"], *_baseline_cells(row)]
            for row in r.baseline.get("types", [])]
    return Table("baseline-types", f"Against the baseline {r.options.baseline} per error type "
                 "(paired tests, Holm over the systems)", ["Type", "Measure", *BASELINE_HEADER],
                 rows)


def signature_table(r: Report) -> Table:
    return Table("signatures", "Signatures", ["Metric", "Signature"],
                 [[k, v] for k, v in r.signatures.items()])


def all_tables(r: Report) -> list[Table]:
    """Every table of the report (the signatures close the text formats separately)."""
    out = [corpus_table(r), geclens_table(r)]
    out += [type_table(r, s) for s in r.systems]
    out += [confusion_table(r, s) for s in r.systems]
    if r.baseline:
        out += [baseline_table(r), baseline_type_table(r)]
    elif len(r.systems) > 1:
        out += [comparison_table(r), type_comparison_table(r)]
    return out


# --------------------------------------------------------------------------- writers


#: what a spreadsheet reads as the start of a formula (OWASP, "CSV injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: a plain number, which a spreadsheet reads as that number whatever its sign
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?%?")


def spreadsheet_cell(x: str) -> str:
    """``x`` as a CSV cell a spreadsheet shows as written, never runs: text starting with
    :data:`FORMULA_START` (a system named ``=HYPERLINK(...)``) gets a leading ``'``; a number
    (``-1.25``) is kept. The HTML page's CSV buttons do the same (``csvCell``)."""
    return "'" + x if x.startswith(FORMULA_START) and not _NUMBER.fullmatch(x) else x


def to_csv(t: Table) -> str:
    """The table as CSV for spreadsheets: MISSING as an empty cell, formulas neutralised
    (:func:`spreadsheet_cell`)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([spreadsheet_cell(c) for c in t.header])
    w.writerows([["" if c == MISSING else spreadsheet_cell(c) for c in row] for row in t.rows])
    return buf.getvalue()


def _md_cell(x: str) -> str:
    return x.replace("|", "\\|")


def to_markdown(t: Table) -> str:
    lines = [f"### {t.title}", "", "| " + " | ".join(map(_md_cell, t.header)) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(t.header))) + "|"]
    lines += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in t.rows]
    return "\n".join(lines) + "\n"


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
        "<": r"\textless{}", ">": r"\textgreater{}"}


def tex_escape(x: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in x)


def to_latex(t: Table) -> str:
    cols = "l" + "r" * (len(t.header) - 1)
    lines = [f"% {t.title}", f"\\begin{{tabular}}{{{cols}}}", r"\hline",
             " & ".join(tex_escape(h) for h in t.header) + r" \\", r"\hline"]
    lines += [" & ".join(tex_escape(c) for c in row) + r" \\" for row in t.rows]
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


WRITERS: dict[str, Callable[[Table], str]] = {"csv": to_csv, "md": to_markdown, "tex": to_latex}


def render_tables(r: Report, fmt: str) -> str:
    """Every table in one text: CSV tables separated by ``# title`` lines, Markdown sections,
    or LaTeX tabulars; the signatures close the text."""
    if fmt not in WRITERS:
        raise ValueError(f"unknown table format {fmt!r} (choose from {', '.join(WRITERS)})")
    parts = []
    for t in all_tables(r):
        body = WRITERS[fmt](t)
        parts.append(f"# {t.title}\n{body}" if fmt == "csv" else body)
    sigs = "\n".join(r.signatures.values())
    comment = {"csv": "# ", "md": "", "tex": "% "}[fmt]
    parts.append("\n".join(comment + s for s in sigs.splitlines()) + "\n")
    return "\n".join(parts)


def tables_dict(r: Report) -> dict[str, Any]:
    """``{key: {"title", "header", "rows"}}`` (for JSON and tests)."""
    return {t.key: {"title": t.title, "header": t.header, "rows": t.rows} for t in all_tables(r)}
