"""Sentences of a tokenised paragraph or document, and the sentences an edit falls in.

M2 keeps tokens, not the layout of the text, so sentences are found by a rule on the tokens: a
sentence ends after a token made only of ``.``, ``!``, ``?`` and ``…`` or the full stops of
Chinese and Japanese (``。！？``; and the closing quotes, brackets and such tokens right after
it) unless the next token starts with a lower-case letter
("2 . května"), and always after :data:`NEWLINE`, the token GECCC's paragraph files use for a
line break.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

#: the token GECCC writes for a newline inside a paragraph (annotators could join or split them)
NEWLINE = "\u0fc4"
_TERMINAL = frozenset(".!?…。！？")
_CLOSING = frozenset({'"', "'", "”", "’", "“", "»", ")", "]", "}", "」", "』", "）", "】",
                      NEWLINE})


def sentence_starts(tokens: Sequence[str]) -> list[int]:
    """The token index at which each sentence starts: ``[0, ...]`` (one empty sentence for no
    tokens)."""
    starts = [0]
    n, t = len(tokens), 0
    while t < n:
        tok = tokens[t]
        end = t + 1
        if tok == NEWLINE or (tok and set(tok) <= _TERMINAL):
            hard = tok == NEWLINE
            while end < n and (tokens[end] in _CLOSING or set(tokens[end]) <= _TERMINAL):
                hard |= tokens[end] == NEWLINE
                end += 1
            if end < n and (hard or not tokens[end][:1].islower()):
                starts.append(end)
        t = end
    return starts


def sentences_of(starts: Sequence[int], start: int, end: int) -> tuple[int, int]:
    """Indices of the first and last sentence that the token span ``[start, end)`` covers; an
    insertion (``start == end``) belongs to the sentence of the token it precedes (the last
    sentence at the end of the text)."""
    first = max(bisect_right(starts, start) - 1, 0)
    last = max(bisect_right(starts, end - 1) - 1, first) if end > start else first
    return first, last
