"""Edit spans the generic UD language joins after the merge rules: pieces of one error that the
alignment split (a clause link: punctuation beside the conjunction that replaces it).

Each join is a test on the span two touching edits would make together; English and Czech never
come here (their languages keep their own merge rules).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...tokens import Sentence, Token

__all__ = ["Span", "join_touching"]

Span = tuple[int, int, int, int]


def join_touching(spans: list[Span], orig: Sentence, cor: Sentence,
                  joins: Callable[[Sequence[Token], Sequence[Token]], bool]) -> list[Span]:
    """``spans`` with each run of touching spans (one ends where the next starts on both sides)
    joined, left to right, while ``joins(orig_tokens, cor_tokens)`` accepts the joined span."""
    out: list[Span] = []
    for span in spans:
        if out:
            prev = out[-1]
            if prev[1] == span[0] and prev[3] == span[2]:
                joined = (prev[0], span[1], prev[2], span[3])
                if joins(orig[joined[0]:joined[1]], cor[joined[2]:joined[3]]):
                    out[-1] = joined
                    continue
        out.append(span)
    return out
