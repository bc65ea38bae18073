"""The dynamic-programming aligner: Damerau-Levenshtein with linguistic costs, or Levenshtein.

The substitution cost and the transposition test come from the Language; everything else follows
ERRANT exactly: match only on identical text, candidates [transposition, substitution, insertion,
deletion] with the first minimum winning (T > S > I > D), and a single back-trace.

The table is compact (a float64 array and an op-code byte string per row); the public
``cost_matrix`` / ``op_matrix`` lists are built only when asked for.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from itertools import accumulate
from math import inf
from typing import TYPE_CHECKING, NamedTuple

from .tokens import Sentence

if TYPE_CHECKING:
    from .lang.base import Language

# op codes of the compact table (the bytes of "OMSIDT")
_O, _M, _S, _I, _D, _T = b"OMSIDT"


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

    __slots__ = ("orig", "cor", "align_seq", "cost", "_lang", "_lev", "_table", "_cost_matrix",
                 "_op_matrix")

    def __init__(self, orig: Sentence, cor: Sentence, align_seq: list[AlignOp], cost: float,
                 lang: Language, lev: bool, table: _Table | None) -> None:
        self.orig, self.cor = orig, cor
        #: the operations, left to right
        self.align_seq = align_seq
        #: total cost of the alignment (bottom-right cell)
        self.cost = cost
        self._lang, self._lev, self._table = lang, lev, table
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
            self._cost_matrix = [r.tolist() for r in self._full()[0]]
        return self._cost_matrix

    @property
    def op_matrix(self) -> list[list[str]]:
        """The (n+1) x (m+1) operation matrix ("O", "M", "S", "I", "D" or "T<k>")."""
        if self._op_matrix is None:
            _, ops, t_sizes = self._full()
            rows = [list(r.decode("ascii")) for r in ops]
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


def align(orig: Sentence, cor: Sentence, lang: Language, lev: bool = False) -> Alignment:
    """Align ``orig`` with ``cor`` using the costs of ``lang`` (or unit costs when ``lev``).

    Only the DP of the two sentences without their common suffix is computed: that is exactly
    the top-left part of the full table (a cell reads only cells above and to its left), and the
    back-trace crosses the suffix's match cells diagonally, so ``align_seq`` and ``cost`` are
    ERRANT's; the full matrices are computed if asked for.
    """
    n, m = len(orig), len(cor)
    o_texts, c_texts = orig.texts, cor.texts
    s = 0
    while s < n and s < m and o_texts[n - 1 - s] == c_texts[m - 1 - s]:
        s += 1
    head = (orig, cor) if not s else (Sentence(orig.tokens[:n - s]), Sentence(cor.tokens[:m - s]))
    table = _fill(*head, lang, lev)
    seq = _backtrace(table, n - s, m - s)
    n, m = n - s, m - s
    seq += [AlignOp("M", n + t, n + t + 1, m + t, m + t + 1) for t in range(s)]
    return Alignment(orig, cor, seq, table[0][-1][-1], lang, lev, None if s else table)


#: costs (one float64 array per row), op codes (one byte string per row), {cell: T size}
_Table = tuple[list[array], list[bytes], dict[tuple[int, int], int]]


def _first_row(m: int) -> tuple[list[float], array, bytes]:
    row = [float(j) for j in range(m + 1)]
    return row, array("d", row), bytes([_O]) + bytes([_I]) * m


def _fill_lev(orig: Sentence, cor: Sentence) -> _Table:
    """Levenshtein: unit substitutions, no transpositions."""
    m = len(cor)
    c_texts = cor.texts
    prev, first, ops0 = _first_row(m)
    costs, ops = [first], [ops0]
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
        costs.append(array("d", row))
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


def _fill(orig: Sentence, cor: Sentence, lang: Language, lev: bool) -> _Table:
    """ERRANT's DP table (Levenshtein or linguistic)."""
    return _fill_lev(orig, cor) if lev else _fill_linguistic(orig, cor, lang)


def _fill_linguistic(orig: Sentence, cor: Sentence, lang: Language) -> _Table:
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
    prev, first, ops0 = _first_row(m)
    costs, ops = [first], [ops0]
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
        costs.append(array("d", row))
        ops.append(bytes(op_row))
        prev = row
    return costs, ops, t_sizes


def _backtrace(table: _Table, i: int, j: int) -> list[AlignOp]:
    _, ops, t_sizes = table
    seq: list[AlignOp] = []
    while i + j:
        op = ops[i][j]
        if op == _M or op == _S:
            seq.append(AlignOp("M" if op == _M else "S", i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
        elif op == _D:
            seq.append(AlignOp("D", i - 1, i, j, j))
            i -= 1
        elif op == _I:
            seq.append(AlignOp("I", i, i, j - 1, j))
            j -= 1
        else:
            k = t_sizes[i, j]
            seq.append(AlignOp(f"T{k}", i - k, i, j - k, j))
            i, j = i - k, j - k
    seq.reverse()
    return seq
