"""Edit spans the generic UD language joins after the merge rules: pieces of one error that the
alignment split (a long move: a deletion and an insertion of the same words; a clause link:
punctuation beside the conjunction that replaces it).

Each join is a test on the span two touching edits would make together; English and Czech never
come here (their languages keep their own merge rules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ...tokens import Sentence, Token

__all__ = ["MAX_MOVE", "Span", "join_moves", "join_touching"]

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


#: the longest window (tokens per side) a move may span
MAX_MOVE = 40


def join_moves(spans: list[Span], orig: Sentence, cor: Sentence,
               keys: Callable[[Sentence], Sequence[object]],
               moved: Callable[[Sequence[Token]], bool]) -> list[Span]:
    """``spans`` with each long move made one edit: the alignment splits a word, phrase or
    clause moved several positions into a deletion and an insertion (``U:`` + ``M:``), which
    ERRANT's transposition test joins only for short windows. Two edits (and any between them)
    become one span when, punctuation left out, the window from the first to the last holds the
    same tokens on both sides by ``keys`` (the language's transposition keys: case and
    diacritics ignored) and the tokens the edits remove or add include one ``moved`` accepts
    (a content word, as the tagger reads either side: two function words or commas that swap
    places are two errors). A run of
    tokens only one side has at an edge of such a window stays an edit of its own (``Ben çok
    mutlu oldum seni gördüğüm zaman`` -> ``Seni gördüğüm zaman çok mutlu oldum``: ``Ben``
    deleted, the rest one move). Windows are tried from the smallest."""
    if len(spans) < 2:
        return spans
    okeys, ckeys = keys(orig), keys(cor)
    removed = [Counter(okeys[k] for k in range(s[0], s[1]) if not _punct(orig[k])) for s in spans]
    added = [Counter(ckeys[k] for k in range(s[2], s[3]) if not _punct(cor[k])) for s in spans]
    # a move removes words another edit adds (or adds words another removes): most sentences
    # have none, and nothing more is computed for them
    own = [r & a for r, a in zip(removed, added, strict=True)]
    if not ({k for r, o in zip(removed, own, strict=True) for k in r - o}
            & {k for a, o in zip(added, own, strict=True) for k in a - o}):
        return spans
    # punctuation left out: its key is None
    okeys = [None if _punct(t) else k for t, k in zip(orig, okeys, strict=True)]
    ckeys = [None if _punct(t) else k for t, k in zip(cor, ckeys, strict=True)]
    all_removed, all_added = sum(removed, Counter()), sum(added, Counter())
    out: list[Span] = []
    i = 0
    while i < len(spans):
        # a move starting here removes words another edit adds, or adds words another removes
        found = None
        if removed[i] & (all_added - added[i]) or added[i] & (all_removed - removed[i]):
            found = _first_move(spans, i, orig, cor, okeys, ckeys, moved)
        if found:
            out.extend(found[1])
            i = found[0] + 1
        else:
            out.append(spans[i])
            i += 1
    return out


def _first_move(spans: list[Span], i: int, orig: Sentence, cor: Sentence,
                okeys: list[object], ckeys: list[object],
                moved: Callable[[Sequence[Token]], bool]) -> tuple[int, list[Span]] | None:
    """The smallest window from span ``i`` that is a pure move, else the smallest with an edge
    run split off, as (index of its last span, spans). Tokens between the edits are the same on
    both sides, so the window's token multisets agree when the edits' own do: counted
    incrementally, the full test runs only on candidates."""
    removed: Counter[object] = Counter()
    added: Counter[object] = Counter()
    edge: tuple[int, list[Span]] | None = None
    content = False
    for j in range(i, len(spans)):
        a, b = spans[i], spans[j]
        if b[1] - a[0] > MAX_MOVE or b[3] - a[2] > MAX_MOVE:
            break
        removed.update(k for k in okeys[b[0]:b[1]] if k is not None)
        added.update(k for k in ckeys[b[2]:b[3]] if k is not None)
        content = content or moved(orig[b[0]:b[1]]) or moved(cor[b[2]:b[3]])
        if j == i or not content:
            continue
        extra_o, extra_c = removed - added, added - removed
        if not extra_o and not extra_c:
            joined = _move(a[0], b[1], a[2], b[3], okeys, ckeys, False)
            if joined:
                return j, joined
        elif edge is None and not (extra_o and extra_c):
            joined = _move(a[0], b[1], a[2], b[3], okeys, ckeys, True)
            if joined:
                edge = j, joined
    return edge


def _move(os_: int, oe: int, cs_: int, ce: int, okeys: Sequence[object],
          ckeys: Sequence[object], edges: bool) -> list[Span] | None:
    """The window as one move (``edges``: with an edge run split off), or None."""
    ow = [k for k in range(os_, oe) if okeys[k] is not None]
    cw = [k for k in range(cs_, ce) if ckeys[k] is not None]
    extra_o = Counter(okeys[k] for k in ow) - Counter(ckeys[k] for k in cw)
    extra_c = Counter(ckeys[k] for k in cw) - Counter(okeys[k] for k in ow)
    if not extra_o and not extra_c:
        return [(os_, oe, cs_, ce)] if _reordered(ow, cw, okeys, ckeys) else None
    if not edges or (extra_o and extra_c):
        return None
    extra, idx, keys_ = (extra_o, ow, okeys) if extra_o else (extra_c, cw, ckeys)
    n = sum(extra.values())
    for run in (idx[:n], idx[len(idx) - n:]):
        if (Counter(keys_[k] for k in run) == extra and len(run) < len(idx)
                and run == list(range(run[0], run[-1] + 1))):
            first = run[0] == idx[0]
            left = [k for k in idx if k not in run]
            if not (_reordered(left, cw, okeys, ckeys) if extra_o
                    else _reordered(ow, left, okeys, ckeys)):
                return None
            if extra_o:
                edge = (os_, run[-1] + 1, cs_, cs_) if first else (run[0], oe, ce, ce)
                rest = (run[-1] + 1, oe, cs_, ce) if first else (os_, run[0], cs_, ce)
            else:
                edge = (os_, os_, cs_, run[-1] + 1) if first else (oe, oe, run[0], ce)
                rest = (os_, oe, run[-1] + 1, ce) if first else (os_, oe, cs_, run[0])
            return [edge, rest] if first else [rest, edge]
    return None


def _reordered(ow: list[int], cw: list[int], okeys: Sequence[object],
               ckeys: Sequence[object]) -> bool:
    """The same tokens in another order."""
    return [okeys[k] for k in ow] != [ckeys[k] for k in cw]


def _punct(t: Token) -> bool:
    return t.pos == "PUNCT" or (t.text != "" and not any(ch.isalnum() for ch in t.text))
