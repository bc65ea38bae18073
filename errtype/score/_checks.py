"""Sanity checks on parallel inputs that are reported (in a result's notes), never fatal."""

from __future__ import annotations

from collections.abc import Sequence


def misaligned(sources: Sequence[str], hypotheses: Sequence[str], threshold: float = 0.2,
               min_tokens: int = 4) -> list[int]:
    """0-based indices of pairs that share almost no tokens (a shifted or foreign line?).

    A pair is flagged when both sides have at least ``min_tokens`` tokens and the Jaccard
    overlap of their token sets is below ``threshold``.
    """
    out = []
    for i, (s, h) in enumerate(zip(sources, hypotheses, strict=True)):
        a, b = set(s.split()), set(h.split())
        if len(a) >= min_tokens and len(b) >= min_tokens and len(a & b) < threshold * len(a | b):
            out.append(i)
    return out


def misalignment_note(flagged: Sequence[int], total: int) -> str | None:
    """A one-line report of :func:`misaligned`'s result, or None.

    It starts with ``warning:`` when at least 3 lines and 2% of them are flagged (a shifted or
    foreign file), otherwise with ``note:`` (a heavy rewrite is also flagged now and then).
    """
    if not flagged:
        return None
    first = ", ".join(str(i + 1) for i in flagged[:5])
    more = ", ..." if len(flagged) > 5 else ""
    level = "warning" if len(flagged) >= max(3, 0.02 * total) else "note"
    return (f"{level}: {len(flagged)} of {total} hypotheses share almost no tokens with their "
            f"source (lines {first}{more}): is the file aligned with the source?")
