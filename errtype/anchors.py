"""Where to split a long pair: anchors (identical token runs) and forced cuts, in linear time.

An anchor ``(p, q, length)`` says ``orig[p:p+length] == cor[q:q+length]``. Anchors are found the
way patience diff finds them, on k-grams instead of single tokens: the k-grams that occur exactly
once in each sequence, the longest chain of them in increasing order on both sides, each grown
to its maximal identical run; a short run far off the diagonals of its neighbours is taken for a
chance match and left out. Expected time and memory are linear in the length (hashing).

:func:`plan` returns the anchors of a pair plus, in regions that stay too large for one DP block,
anchors found with other k-gram lengths and finally forced cuts ``(p, q, 0)`` that split the
region along its diagonal. The aligner (:mod:`errtype.align`) checks every anchor it uses.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from math import ceil, sqrt

Anchor = tuple[int, int, int]  # orig start, cor start, length (0: a forced cut)

#: k-gram length of the anchors of a whole pair
FIRST_K = 4
#: k-gram lengths tried in turn in a region that is still too large for one DP block
REFINE_KS = (8, 16, 32, 64)


def _unique_kgrams(seq: Sequence[str], k: int) -> dict[tuple[str, ...], int]:
    """Start of every k-gram of ``seq`` that occurs once (-1 for the repeated ones)."""
    where: dict[tuple[str, ...], int] = {}
    for x in range(len(seq) - k + 1):
        g = tuple(seq[x:x + k])
        where[g] = -1 if g in where else x
    return where


def _increasing_chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of ``pairs`` (sorted by first item, all distinct) whose second items
    increase too (patience sorting, O(u log u))."""
    tails: list[int] = []   # second item of the last pair of the best chain of each length
    tail_at: list[int] = []  # index into pairs of that pair
    back = [-1] * len(pairs)
    for i, (_, q) in enumerate(pairs):
        k = bisect_left(tails, q)
        back[i] = tail_at[k - 1] if k else -1
        if k == len(tails):
            tails.append(q)
            tail_at.append(i)
        else:
            tails[k], tail_at[k] = q, i
    chain = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        chain.append(pairs[i])
        i = back[i]
    return chain[::-1]


def anchors(o: Sequence[str], c: Sequence[str], k: int) -> list[Anchor]:
    """Maximal identical runs of ``o`` and ``c`` through k-grams unique on both sides, increasing
    and non-overlapping on both sides; short runs must be confirmed (:func:`_confirmed`)."""
    if len(o) < k or len(c) < k:
        return []
    in_c = _unique_kgrams(c, k)
    pairs = sorted((p, in_c[g]) for g, p in _unique_kgrams(o, k).items()
                   if p >= 0 and in_c.get(g, -1) >= 0)
    runs: list[list[int]] = []
    for p, q in _increasing_chain(pairs):
        last = runs[-1] if runs else None
        if last and p - q == last[0] - last[1] and p <= last[0] + last[2]:
            last[2] = p + k - last[0]  # the next k-gram of the same run
        else:
            runs.append([p, q, k])
    out: list[Anchor] = []
    end_o = end_c = 0
    for p, q, length in runs:
        shift = max(end_o - p, end_c - q, 0)  # a previous run grew into this one
        p, q, length = p + shift, q + shift, length - shift
        if length <= 0:
            continue
        while p > end_o and q > end_c and o[p - 1] == c[q - 1]:
            p, q, length = p - 1, q - 1, length + 1
        while p + length < len(o) and q + length < len(c) and o[p + length] == c[q + length]:
            length += 1
        out.append((p, q, length))
        end_o, end_c = p + length, q + length
    return _confirmed(out, 2 * k)


#: largest change of diagonal (net insertions) from an anchor to a neighbour that confirms it
NEAR = 16


def _confirmed(runs: list[Anchor], long: int) -> list[Anchor]:
    """The runs of at least ``long`` tokens, and the shorter ones whose diagonal is within
    :data:`NEAR` of a neighbour's (a lone run is kept). The chain of related texts moves by the
    net insertions of the gaps between anchors, while short chance matches between unrelated
    stretches jump far."""
    if len(runs) < 2:
        return runs
    d = [q - p for p, q, _ in runs]
    return [a for i, a in enumerate(runs)
            if a[2] >= long or (i and abs(d[i] - d[i - 1]) <= NEAR)
            or (i + 1 < len(d) and abs(d[i + 1] - d[i]) <= NEAR)]


def plan(o: Sequence[str], c: Sequence[str], block_cells: int, margin: int,
         first_k: int = FIRST_K, refine_ks: Sequence[int] = REFINE_KS) -> list[Anchor]:
    """Anchors of the whole pair (``first_k``), then, between two of them, more anchors or
    forced cuts until every region fits in ``block_cells`` DP cells.

    A region starts ``min(length, margin)`` tokens inside the anchor before it (the aligner's
    block includes them); its cells are counted that way.
    """
    out: list[Anchor] = []
    _split(o, c, (0, 0, 0), (len(o), len(c), 0), (first_k,), True, refine_ks, block_cells,
           margin, out)
    return out


def _split(o: Sequence[str], c: Sequence[str], before: Anchor, after: Anchor,
           ks: Sequence[int], search: bool, refine_ks: Sequence[int], block_cells: int,
           margin: int, out: list[Anchor]) -> None:
    """Append to ``out`` the anchors and cuts strictly between ``before`` and ``after``: search
    with ``ks`` if ``search`` or if the region is too large, recursively."""
    p0, q0 = before[0] + before[2], before[1] + before[2]
    p1, q1 = after[0], after[1]
    w = min(before[2], margin)
    too_big = (p1 - p0 + w) * (q1 - q0 + w) > block_cells
    if not (search or too_big):
        return
    found: list[Anchor] = []
    for k in ks:
        found = [(p + p0, q + q0, n) for p, q, n in anchors(o[p0:p1], c[q0:q1], k)]
        if found:
            break
    else:
        if too_big:
            out.extend(_local(o, c, _cuts(p0, q0, p1, q1, w, block_cells), before, after,
                              block_cells, margin))
        return
    prev = before
    for a in [*found, after]:
        _split(o, c, prev, a, refine_ks, False, refine_ks, block_cells, margin, out)
        if a is not after:
            out.append(a)
        prev = a


#: a cut is moved onto an identical run of at least this many tokens ...
LOCAL_K = 8
#: ... starting within this many tokens of it on either side (:func:`_local`)
LOCAL_REACH = 128


def _local(o: Sequence[str], c: Sequence[str], cuts: list[Anchor], before: Anchor,
           after: Anchor, block_cells: int, margin: int) -> list[Anchor]:
    """``cuts`` of a region without unique k-grams, each replaced by the identical run nearest
    to it (:data:`LOCAL_K` tokens or more, starting within :data:`LOCAL_REACH` tokens,
    :func:`_nearest_run`) where the blocks around it still fit ``block_cells``.

    Repetitive text (a paragraph pasted many times) has no unique k-gram at all, yet its best
    path runs through long identical runs: a cut on the straight diagonal misses them by the
    net insertions so far and forces spurious edits at every cut, while a nearby run of the
    same diagonal is on the path. Unrelated texts have no such run, and keep their cuts."""
    out: list[Anchor] = []
    prev = before
    for k, (p, q, _) in enumerate(cuts):
        nxt = cuts[k + 1] if k + 1 < len(cuts) else after
        start_o, start_c = prev[0] + prev[2], prev[1] + prev[2]
        # strictly between the stops around it: no two stops share a start or an end
        run = _nearest_run(o, c, p, q, (start_o + 1, nxt[0] - 1), (start_c + 1, nxt[1] - 1))
        if run is not None and _fits(prev, run, block_cells, margin) and \
                _fits(run, nxt, block_cells, margin):
            out.append(run)
            prev = run
        elif start_o <= p and start_c <= q and _fits(prev, (p, q, 0), block_cells, margin):
            out.append((p, q, 0))
            prev = (p, q, 0)
    return out


def _fits(a: Anchor, b: Anchor, block_cells: int, margin: int) -> bool:
    """Whether the block from anchor ``a`` (its margin included) to ``b`` fits."""
    w = min(a[2], margin)
    return (b[0] - a[0] - a[2] + w) * (b[1] - a[1] - a[2] + w) <= block_cells


def _nearest_run(o: Sequence[str], c: Sequence[str], p: int, q: int, rows: tuple[int, int],
                 cols: tuple[int, int]) -> Anchor | None:
    """The maximal identical run (within ``rows`` x ``cols``) through the :data:`LOCAL_K`-gram
    nearest to (p, q): the least distance from ``p`` plus distance from the cut's diagonal
    (a copy of the text further on lies a whole copy off the diagonal)."""
    k = LOCAL_K
    lo_o, hi_o = max(rows[0], p - LOCAL_REACH), min(rows[1], p + LOCAL_REACH)
    lo_c, hi_c = max(cols[0], q - LOCAL_REACH), min(cols[1], q + LOCAL_REACH)
    starts: dict[tuple[str, ...], list[int]] = {}
    for y in range(lo_c, hi_c - k + 1):
        starts.setdefault(tuple(c[y:y + k]), []).append(y)
    best: tuple[int, int, int] | None = None
    for x in range(lo_o, hi_o - k + 1):
        for y in starts.get(tuple(o[x:x + k]), ()):
            key = (abs(x - p) + abs((y - x) - (q - p)), x, y)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    x, y = best[1], best[2]
    while x > rows[0] and y > cols[0] and o[x - 1] == c[y - 1]:
        x, y = x - 1, y - 1
    length = k
    while x + length < rows[1] and y + length < cols[1] and o[x + length] == c[y + length]:
        length += 1
    return x, y, length


def _cuts(p0: int, q0: int, p1: int, q1: int, w: int, block_cells: int) -> list[Anchor]:
    """Cut points along the diagonal of a region so that every piece fits in ``block_cells``."""
    a, b = p1 - p0, q1 - q0
    r = ceil(sqrt((a + w) * (b + w) / block_cells))
    while 1 < r < max(a, b) and (a // r + w + 1) * (b // r + w + 1) > block_cells:
        r += 1
    return [(p0 + a * t // r, q0 + b * t // r, 0) for t in range(1, r)]
