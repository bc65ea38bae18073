"""Human-relative ratio scoring (Bryant & Ng 2015)."""

from __future__ import annotations

from collections.abc import Sequence

from ..m2 import M2Edit


def apply_edits(tokens: Sequence[str], edits: Sequence[M2Edit]) -> str:
    """The corrected sentence of one annotator: apply non-noop edits (first alternative).

    ``-NONE-`` means the empty string. Edits are applied right to left in span order, so
    offsets always refer to the original tokens; overlapping edits keep the first one.
    """
    out = list(tokens)
    last_start = len(tokens) + 1
    real = [(e.start, e.end, i, e) for i, e in enumerate(edits) if not e.is_noop]
    for *_, e in sorted(real, key=lambda t: t[:3], reverse=True):
        if e.end > last_start:
            continue
        cor = e.cor.split("||")[0]
        repl = [] if cor in ("-NONE-", "") else cor.split()
        out[e.start:e.end] = repl
        last_start = e.start
    return " ".join(out)
