"""The dynamic-programming aligner: Damerau-Levenshtein with linguistic costs, or Levenshtein.

The substitution cost and the transposition test come from the Language; everything else follows
ERRANT exactly: match only on identical text, candidates [transposition, substitution, insertion,
deletion] with the first minimum winning (T > S > I > D), and a single back-trace.

The table is compact (a float64 array and an op-code byte string per row, a transposition's
size in its op byte); the public ``cost_matrix`` / ``op_matrix`` lists are built only when asked
for.

Long pairs (more than ``LONG_PAIR_CELLS`` DP cells once the common suffix is set aside) are
aligned block by block between anchors, identical token runs (:mod:`errtype.anchors`), in memory
linear in the length: see :func:`align` and docs/documents.md.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from itertools import accumulate
from math import inf
from typing import TYPE_CHECKING, Any, NamedTuple

from .anchors import Anchor, plan
from .tokens import Sentence

if TYPE_CHECKING:
    from .lang.base import Language

# op codes of the compact table (the bytes of "OMSIDT"); a transposition of k < 128 tokens is
# the byte _TK + k, a longer one _T with its size in the table's dict
_O, _M, _S, _I, _D, _T = b"OMSIDT"
_TK = 128

#: pairs with at most this many DP cells (after the common suffix) get ERRANT's full DP
LONG_PAIR_CELLS = 250_000
#: the most cells of one DP block in the anchored path of a long pair
BLOCK_CELLS = 1_000_000
#: tokens at the end of an anchor that a block starting there includes (its path must enter them)
MARGIN = 8
#: anchors of the path so far that the block of the next stop reaches back over
LOOKBACK = 2
#: how many more anchors back a block may start when its path avoids its first anchor
RETRIES = 2


class AlignOp(NamedTuple):
    """One alignment step: op is M, S, I, D or T<k>; spans are end-exclusive token offsets."""

    op: str
    o_start: int
    o_end: int
    c_start: int
    c_end: int


class Alignment:
    """An alignment of two sentences: the chosen operation sequence and the DP matrices.

    ``cost_matrix`` and ``op_matrix`` are ERRANT's (n+1) x (m+1) lists, built from the compact
    table on first access (the table itself is completed then if the aligner skipped the common
    suffix).
    """

    __slots__ = ("orig", "cor", "align_seq", "cost", "blocks", "_lang", "_lev", "_table",
                 "_head", "_cost_matrix", "_op_matrix")

    def __init__(self, orig: Sentence, cor: Sentence, align_seq: list[AlignOp], cost: float,
                 lang: Language, lev: bool, table: _Table | None, blocks: int = 1,
                 head: _Table | None = None) -> None:
        self.orig, self.cor = orig, cor
        #: the operations, left to right
        self.align_seq = align_seq
        #: total cost of the alignment (bottom-right cell)
        self.cost = cost
        #: number of DP blocks: 1 for ERRANT's full DP, more for a long pair's anchored path
        self.blocks = blocks
        self._lang, self._lev, self._table = lang, lev, table
        #: the DP table of the pair without its common suffix (None: anchored blocks)
        self._head = head
        self._cost_matrix: list[list[float]] | None = None
        self._op_matrix: list[list[str]] | None = None

    def _full(self) -> _Table:
        if self._table is None:
            self._table = _fill(self.orig, self.cor, self._lang, self._lev)
        return self._table

    @property
    def cost_matrix(self) -> list[list[float]]:
        """The (n+1) x (m+1) cost matrix."""
        if self._cost_matrix is None:
            self._cost_matrix = [list(r) for r in self._full()[0]]
        return self._cost_matrix

    @property
    def op_matrix(self) -> list[list[str]]:
        """The (n+1) x (m+1) operation matrix ("O", "M", "S", "I", "D" or "T<k>")."""
        if self._op_matrix is None:
            _, ops, t_sizes = self._full()
            names = {code: chr(code) for code in b"OMSID"}
            names.update((_TK + k, f"T{k}") for k in range(1, 256 - _TK))
            rows = [[names[b] for b in r] for r in ops]
            for (i, j), size in t_sizes.items():
                rows[i][j] = f"T{size}"
            self._op_matrix = rows
        return self._op_matrix

    def __str__(self) -> str:
        rows = ["Orig: " + str(list(self.orig.texts)), "Cor: " + str(list(self.cor.texts)),
                "Cost Matrix:"]
        rows += [str(r) for r in self.cost_matrix]
        rows.append("Operation Matrix:")
        rows += [str(r) for r in self.op_matrix]
        rows.append("Best alignment: " + str([a.op for a in self.align_seq]))
        return "\n".join(rows)


def align(orig: Sentence, cor: Sentence, lang: Language, lev: bool = False, *,
          max_full_cells: int | None = LONG_PAIR_CELLS) -> Alignment:
    """Align ``orig`` with ``cor`` using the costs of ``lang`` (or unit costs when ``lev``).

    Only the DP of the two sentences without their common suffix is computed: that is exactly
    the top-left part of the full table (a cell reads only cells above and to its left), and the
    back-trace crosses the suffix's match cells diagonally, so ``align_seq`` and ``cost`` are
    ERRANT's; the full matrices are computed if asked for.

    When that DP has more than ``max_full_cells`` cells (None: never) the pair is aligned block
    by block between anchors (:func:`_anchored`): memory linear in the length, time linear for
    related texts; ``blocks`` of the result counts the blocks.
    """
    n, m = len(orig), len(cor)
    s = _common_suffix(orig, cor)
    head = (orig, cor) if not s else (Sentence(orig.tokens[:n - s]), Sentence(cor.tokens[:m - s]))
    n, m = n - s, m - s
    table: _Table | None = None
    blocks = 1
    if max_full_cells is None or n * m <= max_full_cells:
        table = _fill(*head, lang, lev)
        seq = _backtrace(table, n, m)
        cost = table[0][-1][-1]
    else:
        seq, cost, blocks = _anchored(*head, lang, lev)
    seq += [AlignOp("M", n + t, n + t + 1, m + t, m + t + 1) for t in range(s)]
    return Alignment(orig, cor, seq, cost, lang, lev, None if s else table, blocks, table)


def _common_suffix(orig: Sentence, cor: Sentence) -> int:
    n, m = len(orig), len(cor)
    o_texts, c_texts = orig.texts, cor.texts
    s = 0
    while s < n and s < m and o_texts[n - 1 - s] == c_texts[m - 1 - s]:
        s += 1
    return s


def cheapest_paths(alignment: Alignment, first_only: bool = False,
                   max_paths: int | None = None) -> list[list[AlignOp]]:
    """Every back-trace of minimal cost of ``alignment``'s DP (linguistic costs), in depth-first
    order from the bottom-right cell, the operations tied at a cell tried in the order
    transposition, substitution, insertion, deletion; the first is ``alignment.align_seq``.

    A cell's tied operations are those whose candidate cost, computed as the DP computes it,
    equals the cell's cost (a match cell has only its match). ``first_only`` follows only the
    first tied operation of each cell; ``max_paths`` stops after that many paths. This is how
    ChERRANT lists a reference's equal-cost edit sequences; the table is the engine's own.
    """
    if alignment._lev:
        return [alignment.align_seq]
    orig, cor, lang = alignment.orig, alignment.cor, alignment._lang
    s = _common_suffix(orig, cor)
    n, m = len(orig) - s, len(cor) - s
    table = alignment._head
    if table is None:  # an anchored long pair: the full DP of its head
        table = _fill(Sentence(orig.tokens[:n]), Sentence(cor.tokens[:m]), lang, False)
    costs = table[0]
    o_toks, c_toks = orig.tokens, cor.tokens
    strict = lang.strict_walk
    subcost, transposable = lang.substitution_cost, lang.transposable
    tied: dict[tuple[int, int], list[tuple[str, int, int]]] = {}

    def ops_at(x: int, y: int) -> list[tuple[str, int, int]]:
        """(operation, tokens of orig, tokens of cor) tied at cell (x, y)."""
        if not x:
            return [("I", 0, 1)]
        if not y:
            return [("D", 1, 0)]
        if o_toks[x - 1].text == c_toks[y - 1].text:
            return [("M", 1, 1)]
        best = costs[x][y]
        out = []
        i, j, k = x - 1, y - 1, 1
        while i - k >= 0 and j - k >= 0:  # the DP's transposition walk
            later, earlier = costs[i - k + 1][j - k + 1], costs[i - k][j - k]
            if (later - earlier <= 0) if strict else (later == earlier):
                break
            if transposable(o_toks[i - k:i + 1], c_toks[j - k:j + 1]):
                if costs[i - k][j - k] + k == best:
                    out.append((f"T{k + 1}", k + 1, k + 1))
                break
            k += 1
        if costs[i][j] + subcost(o_toks[i], c_toks[j]) == best:
            out.append(("S", 1, 1))
        if costs[x][j] + 1 == best:
            out.append(("I", 0, 1))
        if costs[i][y] + 1 == best:
            out.append(("D", 1, 0))
        return out[:1] if first_only else out

    def choices(x: int, y: int) -> list[tuple[str, int, int]]:
        found = tied.get((x, y))
        if found is None:
            found = tied[x, y] = ops_at(x, y)
        return found

    suffix = [AlignOp("M", n + t, n + t + 1, m + t, m + t + 1) for t in range(s)]
    if not n + m:
        return [suffix]
    paths: list[list[AlignOp]] = []
    path: list[AlignOp] = []  # from the bottom-right cell backwards
    stack: list[list[Any]] = [[n, m, choices(n, m), 0]]
    while stack:
        frame = stack[-1]
        x, y, options, k = frame
        if k == len(options):
            stack.pop()
            if stack:
                path.pop()
            continue
        frame[3] = k + 1
        op, dx, dy = options[k]
        path.append(AlignOp(op, x - dx, x, y - dy, y))
        if x - dx + y - dy:
            stack.append([x - dx, y - dy, choices(x - dx, y - dy), 0])
            continue
        paths.append(path[::-1] + suffix)
        path.pop()
        if max_paths is not None and len(paths) >= max_paths:
            break
    return paths


def _anchored(orig: Sentence, cor: Sentence, lang: Language, lev: bool,
              block_cells: int = BLOCK_CELLS, margin: int = MARGIN, lookback: int = LOOKBACK,
              **plan_options: Any) -> tuple[list[AlignOp], float, int]:
    """The alignment of a long pair, block by block: (operations, cost, blocks).

    The pair is cut at anchors, identical token runs, and forced cuts
    (:func:`errtype.anchors.plan`). Every cell of an anchor's diagonal holds the cost of its
    start (a match copies its diagonal neighbour), and ERRANT's back-trace, once on a match cell,
    follows the diagonal: a path that touches an anchor goes through all of it.

    The chain holds the anchors the path goes through so far. The block of the next stop starts
    ``margin`` tokens before the end of the anchor ``lookback`` places back in the chain (so it
    contains the last ``lookback`` anchors and the gaps around them), its first row and column
    continuing the cost reached there, and runs the same DP. Its back-trace replaces the path
    after that point; the chain keeps the anchors the new path touches. A back-trace that does
    not enter the block's first anchor moves the block's start one anchor further back (up to
    :data:`RETRIES` times, while it fits in ``block_cells``).
    """
    o_toks, c_toks = orig.tokens, cor.tokens
    stops = [*plan(orig.texts, cor.texts, block_cells, margin, **plan_options),
             (len(orig), len(cor), 0)]
    # anchor, cost at its start, operations from its start to the next entry's start
    chain: list[tuple[Anchor, float, list[AlignOp]]] = [((0, 0, 0), 0.0, [])]
    blocks = 0

    def origin(r: int) -> tuple[int, int, int]:
        p, q, length = chain[r][0]
        w = min(length, margin)
        return p + length - w, q + length - w, w

    def fits(r: int, stop: Anchor) -> bool:
        x0, y0, _ = origin(r)
        return (stop[0] - x0) * (stop[1] - y0) <= block_cells

    for stop in stops:
        r = max(len(chain) - 1 - lookback, 0)
        while r < len(chain) - 1 and not fits(r, stop):
            r += 1
        first = r
        while True:
            x0, y0, w = origin(r)
            table = _fill(Sentence(o_toks[x0:stop[0]]), Sentence(c_toks[y0:stop[1]]), lang, lev,
                          chain[r][1])
            blocks += 1
            seq = _backtrace(table, stop[0] - x0, stop[1] - y0, x0, y0)
            # a path avoiding chain[r]: start one anchor further back, at most ``lookback`` times
            if w and r and seq[0].op != "M" and r > first - RETRIES and fits(r - 1, stop):
                r -= 1
                continue
            break
        p, q, length = chain[r][0]
        ops = [AlignOp("M", p + t, p + t + 1, q + t, q + t + 1) for t in range(length - w)]
        ops += seq
        visited = {(a.o_end, a.c_end) for a in seq}
        # the path touches a run at its first match cell, a cut (no cell of its own) at its point
        kept = [a for a, _, _ in chain[r + 1:]
                if ((a[0] + 1, a[1] + 1) if a[2] else (a[0], a[1])) in visited]
        del chain[r + 1:]
        cut = 0
        for a in kept:  # split the path at the start of every anchor it keeps
            at = next(i for i in range(cut, len(ops)) if ops[i].o_start == a[0]
                      and ops[i].c_start == a[1])
            chain[-1] = (*chain[-1][:2], ops[cut:at])
            chain.append((a, table[0][a[0] - x0][a[1] - y0], []))
            cut = at
        chain[-1] = (*chain[-1][:2], ops[cut:])
        chain.append((stop, table[0][-1][-1], []))
    return [a for _, _, ops in chain for a in ops], chain[-1][1], blocks


#: costs (one row per orig token: a list, or a float64 array when the table is large, see
#: :data:`_COMPACT_CELLS`), op codes (one byte string per row), {cell: T size}
_Table = tuple[list[Sequence[float]], list[bytes], dict[tuple[int, int], int]]
#: tables with more cells keep their cost rows as float64 arrays (8 bytes a cell instead of a
#: list's pointer and float object); smaller ones keep the lists the DP built
_COMPACT_CELLS = 1 << 16


def _first_row(m: int, start: float) -> tuple[list[float], array, bytes]:
    """Row 0: ``start`` then one insertion after another (the additions the DP would make)."""
    row = [start]
    for _ in range(m):
        row.append(row[-1] + 1)
    return row, array("d", row), bytes([_O]) + bytes([_I]) * m


def _fill_lev(orig: Sentence, cor: Sentence, start: float = 0.0) -> _Table:
    """Levenshtein: unit substitutions, no transpositions."""
    m = len(cor)
    c_texts = cor.texts
    prev, first, ops0 = _first_row(m, start)
    costs: list[Sequence[float]] = [first]
    ops = [ops0]
    compact = len(orig) * m > _COMPACT_CELLS
    for o_text in orig.texts:
        left = prev[0] + 1
        row = [left]
        op_row = bytearray(m + 1)
        op_row[0] = _D
        for j, c_text in enumerate(c_texts, 1):
            diag = prev[j - 1]
            if o_text == c_text:
                left = diag
                op_row[j] = _M
            else:
                left, op = diag + 1, _S
                if (ins := row[-1] + 1) < left:
                    left, op = ins, _I
                if (dl := prev[j] + 1) < left:
                    left, op = dl, _D
                op_row[j] = op
            row.append(left)
        costs.append(array("d", row) if compact else row)
        ops.append(bytes(op_row))
        prev = row
    return costs, ops, {}


#: fingerprint weights (any values are correct: a collision is verified and costs only a walk)
_RNG = random.Random(0x5EED)


class _Keys:
    """Transposition index for key-based tests (multisets of per-token keys).

    Window orig[a:i+1] / cor[b:j+1] (a - b == i - j) is a permutation iff the prefix-count
    difference vectors at points (a, b) and (i+1, j+1) are equal; a random-weight prefix sum
    H(x, y) = Ro[x] - Rc[y] fingerprints them, combined with the diagonal into one integer key
    ``ro[x] - rc[y]``. ``seen`` maps a key to the latest window start inserted; every hit is
    verified exactly.

    A window holds each of its tokens on both sides, so only some cells need the index: a start
    (a, b) needs ``o[a]`` somewhere in ``c[b:]`` and ``c[b]`` in ``o[a:]``; an end (i, j) needs
    ``o[i]`` in ``c[:j+1]`` and ``c[j]`` in ``o[:i+1]``. First and last occurrences of each key
    in the other sentence turn both into comparisons.
    """

    def __init__(self, o_keys: Sequence[object], c_keys: Sequence[object]) -> None:
        n, m = len(o_keys), len(c_keys)
        span = n + m + 1
        # weights small enough for keys below 2**60 (fast ints); collisions only cost a walk
        bits = max(24, 60 - 2 * span.bit_length())
        weight = dict.fromkeys([*o_keys, *c_keys], 0)
        draw = _RNG.getrandbits
        for key in weight:
            weight[key] = draw(bits)
        # ro[x] - rc[y] = H(x, y) * span + (x - y + m): the fingerprint and the diagonal
        self.ro = [0] + [h * span + x for x, h in
                         enumerate(accumulate(map(weight.__getitem__, o_keys)), 1)]
        self.rc = [-m] + [h * span + y - m for y, h in
                          enumerate(accumulate(map(weight.__getitem__, c_keys)), 1)]
        o_last = dict(zip(o_keys, range(n), strict=True))
        c_last = dict(zip(c_keys, range(m), strict=True))
        o_first = dict(zip(reversed(o_keys), range(n - 1, -1, -1), strict=True))
        c_first = dict(zip(reversed(c_keys), range(m - 1, -1, -1), strict=True))
        never = span
        #: per orig token: last / first position of its key in cor (-1 / never when absent)
        self.o_last_in_c = [c_last.get(k, -1) for k in o_keys]
        self.o_first_in_c = [c_first.get(k, never) for k in o_keys]
        #: per cor token: last / first position of its key in orig
        self.c_last_in_o = [o_last.get(k, -1) for k in c_keys]
        self.c_first_in_o = [o_first.get(k, never) for k in c_keys]
        self.o_keys, self.c_keys = o_keys, c_keys

    def verify(self, a: int, i: int, j: int) -> bool:
        """Whether the windows ending at (i, j) and starting at orig index ``a`` permute."""
        return sorted(self.o_keys[a:i + 1]) == sorted(self.c_keys[j - i + a:j + 1])  # type: ignore


def _fill(orig: Sentence, cor: Sentence, lang: Language, lev: bool, start: float = 0.0
          ) -> _Table:
    """ERRANT's DP table (Levenshtein or linguistic), the top-left cell holding ``start``."""
    return _fill_lev(orig, cor, start) if lev else _fill_linguistic(orig, cor, lang, start)


def _fill_linguistic(orig: Sentence, cor: Sentence, lang: Language, start: float = 0.0
                     ) -> _Table:
    """The linguistic DP (ERRANT's loop), with the index answering long transposition windows."""
    n, m = len(orig), len(cor)
    o_toks, c_toks = orig.tokens, cor.tokens
    sub_matrix = lang.substitution_matrix(orig, cor)
    subcost = lang.substitution_cost
    strict = lang.strict_walk
    transposable = lang.transposable
    o_keys = lang.transposition_keys(orig)
    c_keys = None if o_keys is None else lang.transposition_keys(cor)
    keys = _Keys(o_keys, c_keys) if o_keys is not None and c_keys is not None else None
    # short windows (k < key_k) are walked and tested with ``transposable``; the index answers
    # for longer ones (the walk reaches them only through costly steps)
    key_k = max(lang.transposition_key_window - 1, 1)
    if keys is not None:
        ro, rc = keys.ro, keys.rc
        rc1 = rc[1:]  # cell (i+1, j+1) looks up ro[i+1] - rc[j+1]
        o_last_in_c, o_first_in_c = keys.o_last_in_c, keys.o_first_in_c
        c_last_in_o, c_first_in_o = keys.c_last_in_o, keys.c_first_in_o
    seen: dict[int, int] = {}  # index key -> latest window start (orig index)
    dead = -1  # window starts at or before an unshared orig token are useless
    prev, first, ops0 = _first_row(m, start)
    costs: list[Sequence[float]] = [first]
    ops = [ops0]
    compact = n * m > _COMPACT_CELLS
    t_sizes: dict[tuple[int, int], int] = {}

    def free(x: int, y: int) -> bool:
        """Whether the diagonal step into cell (x, y) stops ERRANT's walk."""
        later, earlier = costs[x][y], costs[x - 1][y - 1]
        return (later - earlier <= 0) if strict else (later == earlier)

    def walk(i: int, j: int, k: int, stop: int) -> tuple[float, int]:
        """ERRANT's diagonal walk from window ``k`` up to (excluding) ``stop``: (cost, size)."""
        while k < stop and i - k >= 0 and j - k >= 0:
            if free(i - k + 1, j - k + 1):
                return inf, -1
            if transposable(o_toks[i - k:i + 1], c_toks[j - k:j + 1]):
                return costs[i - k][j - k] + k, k + 1
            k += 1
        return inf, 0

    big = n + m + 2
    walking = keys is None or key_k > 1  # per cell, before the index (or instead of it)
    stop = big if keys is None else key_k
    o_texts, c_texts = orig.texts, cor.texts
    nones = [None] * m
    for i in range(n):
        o_text = o_texts[i]
        hits: list[int | None] = nones  # per column: latest index start for this cell, if any
        if keys is not None:
            if o_last_in_c[i] < 0:  # no window spans this token
                seen.clear()
                dead = i
            a = i - key_k
            if a > dead and (limit := o_last_in_c[a]) >= 0:  # row a's window starts, now needed
                base = ro[a]
                seen.update(dict.fromkeys(
                    [base - rc[b] for b in range(limit + 1) if c_last_in_o[b] >= a], a))
            if seen and (start := o_first_in_c[i]) < m:
                hits = nones.copy()
                ro_next, get = ro[i + 1], seen.get
                for j in range(start, m):
                    if c_first_in_o[j] <= i:
                        hits[j] = get(ro_next - rc1[j])
        sub_row = sub_matrix[i] if sub_matrix is not None else None
        if sub_row is None:
            o_tok = o_toks[i]
            sub_row = [0.0 if o_text == c.text else subcost(o_tok, c) for c in c_toks]
        elif not isinstance(sub_row, list):
            sub_row = sub_row.tolist()
        i1 = i + 1
        left = prev[0] + 1
        row = [left]
        append = row.append
        op_row = bytearray((_D,))
        op_append = op_row.append
        cells = zip(range(m), c_texts, prev[:m], prev[1:], sub_row, hits, strict=True)
        for j, c_text, diag, up, s, a in cells:
            if o_text == c_text:
                op_append(_M)
                append(diag)
                left = diag
                continue
            sub = diag + s
            if walking or a is not None:  # a transposition is possible
                trans, size = walk(i, j, 1, stop) if walking else (inf, 0)
                # the index's window start a counts if the walk gets there: no free step between
                if size == 0 and a is not None and not any(
                        free(x, x - i + j) for x in range(i, a, -1)):
                    if keys.verify(a, i, j):  # type: ignore[union-attr]
                        trans, size = costs[a][j - i + a] + (i - a), i - a + 1
                    else:  # a fingerprint collision: walk the long windows
                        trans, size = walk(i, j, key_k, big)
                best, op = (trans, _T) if trans <= sub else (sub, _S)
                if (ins := left + 1) < best:
                    best, op = ins, _I
                if (dl := up + 1) < best:
                    best, op = dl, _D
                if op == _T:
                    if size < 256 - _TK:
                        op = _TK + size
                    else:
                        t_sizes[i1, j + 1] = size
            else:
                best, op = sub, _S
                if (ins := left + 1) < best:
                    best, op = ins, _I
                if (dl := up + 1) < best:
                    best, op = dl, _D
            op_append(op)
            append(best)
            left = best
        costs.append(array("d", row) if compact else row)
        ops.append(bytes(op_row))
        prev = row
    return costs, ops, t_sizes


def _backtrace(table: _Table, i: int, j: int, x0: int = 0, y0: int = 0) -> list[AlignOp]:
    """The operations from the top-left cell to cell (i, j), offsets shifted by (x0, y0)."""
    _, ops, t_sizes = table
    seq: list[AlignOp] = []
    while i + j:
        op = ops[i][j]
        if op == _M or op == _S:
            seq.append(AlignOp("M" if op == _M else "S", x0 + i - 1, x0 + i, y0 + j - 1, y0 + j))
            i, j = i - 1, j - 1
        elif op == _D:
            seq.append(AlignOp("D", x0 + i - 1, x0 + i, y0 + j, y0 + j))
            i -= 1
        elif op == _I:
            seq.append(AlignOp("I", x0 + i, x0 + i, y0 + j - 1, y0 + j))
            j -= 1
        else:
            k = op - _TK if op > _TK else t_sizes[i, j]
            seq.append(AlignOp(f"T{k}", x0 + i - k, x0 + i, y0 + j - k, y0 + j))
            i, j = i - k, j - k
    seq.reverse()
    return seq
