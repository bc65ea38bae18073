"""ERRANT 3.0.2's ``errant.commands.compare_m2`` functions, backed by errtype's ERRANT scorer.

Metric bundles import these to score in memory: ``simplify_edits`` -> ``process_edits`` ->
``evaluate_edits`` per sentence, ``merge_dict`` over sentences, ``computeFScore``,
``processCategories``, ``print_results``. ``args`` is any object with ERRANT's option attributes
(``dt, ds, cs, cse, single, multi, filt, beta, verbose, cat``); missing ones count as unset.
``evaluate_edits`` (with ``args.verbose``), ``print_results`` and ``print_table`` print to
standard output as ERRANT's do; everything else only computes.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ...cli.compare import main as _main
from ...m2 import M2Edit, read_m2
from ...score.edits.errant import (
    MODES,
    aggregate_types,
    coder_edits,
    compare_edits,
    errant_prf,
    format_cat_table,
    format_main_table,
    format_verbose,
)

__all__ = ["compareEdits", "computeFScore", "evaluate_edits", "main", "merge_dict",
           "print_results", "print_table", "processCategories", "process_edits",
           "simplify_edits"]

#: ``errant_compare``'s command line (errtype's drop-in ``errtype-compare``)
main = _main

SimpleEdit = list[Any]  # [start, end, cat, cor, coder]
CoderDict = dict[Any, dict[tuple[Any, ...], list[str]]]


def _opt(args: Any, name: str, default: Any = False) -> Any:
    return getattr(args, name, default)


def _mode(args: Any) -> str:
    for mode in ("dt", "ds", "cse"):
        if _opt(args, mode):
            return mode
    return "cs"


def simplify_edits(sent: str) -> list[SimpleEdit]:
    """The edits of one M2 block (``S`` line first) as ``[start, end, cat, cor, coder]`` lists."""
    edits: list[SimpleEdit] = []
    for block in read_m2(sent.split("\n"), name="<m2 block>"):
        edits += [[e.start, e.end, e.type, e.cor, e.annotator] for e in block.edits]
    return edits


def process_edits(edits: Sequence[SimpleEdit], args: Any) -> CoderDict:
    """``{coder: {key: [cats]}}`` for the scoring mode and filters in ``args`` (a ``-NONE-``
    correction is the literal token, as in ERRANT's function)."""
    m2 = [M2Edit(e[0], e[1], e[2], e[3], e[4]) for e in edits]
    return coder_edits(m2, _mode(args), bool(_opt(args, "single")), bool(_opt(args, "multi")),
                       _opt(args, "filt", None) or (), literal_none=True)


def compareEdits(hyp_edits: Mapping[Any, list[str]], ref_edits: Mapping[Any, list[str]]
                 ) -> tuple[int, int, int, dict[str, list[int]]]:
    """TP, FP, FN and ``{cat: [tp, fp, fn]}`` of one hypothesis coder against one reference."""
    return compare_edits(dict(hyp_edits), dict(ref_edits))


def computeFScore(tp: int, fp: int, fn: int, beta: float) -> tuple[float, float, float]:
    """P, R and F-beta, rounded to 4 decimals (1.0 for empty denominators)."""
    return errant_prf(tp, fp, fn, beta)


def evaluate_edits(hyp_dict: CoderDict, ref_dict: CoderDict, best: Mapping[str, int],
                   sent_id: int, original_sentence: str, args: Any
                   ) -> tuple[dict[str, int], dict[str, list[int]]]:
    """The hypothesis/reference coder pair maximising the running corpus F (ties: more TP,
    fewer FP, fewer FN, then the first pair): its ``{"tp", "fp", "fn"}`` and category counts."""
    beta = _opt(args, "beta", 0.5)
    verbose = bool(_opt(args, "verbose"))
    g_tp, g_fp, g_fn = best["tp"], best["fp"], best["fn"]
    top: tuple[int, int, int, Any, Any, dict[str, list[int]]] = (0, 0, 0, 0, 0, {})
    top_f = -1.0
    pairs = []
    for h, hd in hyp_dict.items():
        for r, rd in ref_dict.items():
            tp, fp, fn, cats = compare_edits(hd, rd)
            f = errant_prf(tp + g_tp, fp + g_fp, fn + g_fn, beta)[2]
            if (f > top_f or (f == top_f and (tp > top[0] or (tp == top[0] and (
                    fp < top[1] or (fp == top[1] and fn < top[2])))))):
                top, top_f = (tp, fp, fn, h, r, cats), f
            if verbose:
                pairs.append({"hyp": h, "ref": r, "hyp_edits": _keys(hd), "ref_edits": _keys(rd),
                              "tp": tp, "fp": fp, "fn": fn, "global_tp": tp + g_tp,
                              "global_fp": fp + g_fp, "global_fn": fn + g_fn})
    tp, fp, fn, h, r, cats = top
    if verbose:
        sys.stdout.write(format_verbose([{"index": sent_id, "source": original_sentence,
                                          "pairs": pairs, "hyp_coder": h, "ref_coder": r,
                                          "types": cats}], beta))
    return {"tp": tp, "fp": fp, "fn": fn}, cats


def _keys(d: Mapping[tuple[Any, ...], list[str]]) -> list[tuple[Any, ...]]:
    keys = sorted(d)
    if not keys or keys[0][0] == -1:
        return []
    return [k + (d[k][0],) for k in keys]


def merge_dict(dict1: dict[str, list[int]], dict2: Mapping[str, list[int]]
               ) -> dict[str, list[int]]:
    """Add the ``[tp, fp, fn]`` counts of ``dict2`` into ``dict1`` (in place); returns dict1."""
    for cat, stats in dict2.items():
        old = dict1.get(cat)
        dict1[cat] = list(stats) if old is None else [x + y for x, y in zip(old, stats,
                                                                            strict=True)]
    return dict1


def processCategories(cat_dict: dict[str, list[int]], setting: int) -> dict[str, list[int]]:
    """Category counts at level 1 (M/R/U), 2 (type without operation) or 3 (unchanged)."""
    if setting not in (1, 2):
        return cat_dict
    return aggregate_types(cat_dict, setting)


def print_results(best: Mapping[str, int], best_cats: dict[str, list[int]], args: Any) -> None:
    """Print ``errant_compare``'s result tables to standard output."""
    title = MODES[_mode(args)]
    beta = _opt(args, "beta", 0.5)
    cat = _opt(args, "cat", None)
    if cat:
        sys.stdout.write(format_cat_table(processCategories(best_cats, cat), title, beta))
    sys.stdout.write(format_main_table(best["tp"], best["fp"], best["fn"], title, beta))


def print_table(table: Sequence[Sequence[Any]]) -> None:
    """Print rows right-aligned in columns 3 wider than their longest cell."""
    widths = [max(len(str(row[i])) for row in table) + 3 for i in range(len(table[0]))]
    for row in table:
        print("".join(str(cell).rjust(w) for cell, w in zip(row, widths, strict=True)))
