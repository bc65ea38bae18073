"""The dynamic-programming aligner: Damerau-Levenshtein with linguistic costs, or Levenshtein.

The substitution cost and the transposition test come from the Language; everything else follows
ERRANT exactly: match only on identical text, candidates [transposition, substitution, insertion,
deletion] with the first minimum winning (T > S > I > D), and a single back-trace.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import inf
from typing import TYPE_CHECKING, NamedTuple

from .tokens import Sentence

if TYPE_CHECKING:
    from .lang.base import Language


class AlignOp(NamedTuple):
    """One alignment step: op is M, S, I, D or T<k>; spans are end-exclusive token offsets."""

    op: str
    o_start: int
    o_end: int
    c_start: int
    c_end: int


@dataclass
class Alignment:
    """An alignment of two sentences: full matrices and the chosen operation sequence."""

    orig: Sentence
    cor: Sentence
    cost_matrix: list[list[float]]
    op_matrix: list[list[str]]
    align_seq: list[AlignOp] = field(default_factory=list)

    @property
    def cost(self) -> float:
        """Total cost of the alignment (bottom-right cell)."""
        return self.cost_matrix[-1][-1]

    def __str__(self) -> str:
        rows = ["Orig: " + str(list(self.orig.texts)), "Cor: " + str(list(self.cor.texts)),
                "Cost Matrix:"]
        rows += [str(r) for r in self.cost_matrix]
        rows.append("Operation Matrix:")
        rows += [str(r) for r in self.op_matrix]
        rows.append("Best alignment: " + str([a.op for a in self.align_seq]))
        return "\n".join(rows)


class _DiagonalIndex:
    """Fast transposition search for key-based tests (multisets of per-token keys).

    Window orig[a:i+1] / cor[b:j+1] (a - b == i - j) is a permutation iff the prefix-count
    difference vectors at points (a, b) and (i+1, j+1) are equal; a random-weight prefix sum
    H(x, y) = Ro[x] - Rc[y] fingerprints them, and every hit is verified exactly. Per diagonal we
    keep the points of each fingerprint (ascending) and the latest "free" step (where the walk
    stops).
    """

    def __init__(self, o_keys: Sequence[object], c_keys: Sequence[object]) -> None:
        import random

        rnd = random.Random(0x5EED)
        weight: dict[object, int] = {}
        self.ro = [0]
        for key in o_keys:
            self.ro.append(self.ro[-1] + weight.setdefault(key, rnd.getrandbits(62)))
        self.rc = [0]
        for key in c_keys:
            self.rc.append(self.rc[-1] + weight.setdefault(key, rnd.getrandbits(62)))
        self.o_keys, self.c_keys = o_keys, c_keys
        self.seen: dict[int, dict[int, list[int]]] = {}
        self.free: dict[int, int] = {}

    def add_point(self, a: int, b: int) -> None:
        """Make point (a, b) available as a window start."""
        self.seen.setdefault(a - b, {}).setdefault(self.ro[a] - self.rc[b], []).append(a)

    def mark_free(self, a: int, b: int) -> None:
        """The diagonal step into (a, b) costs nothing: walks from later cells stop there."""
        self.free[a - b] = a

    def find(self, i: int, j: int, min_k: int = 1) -> int:
        """Smallest walkable k >= min_k with a permutation window for cell (i+1, j+1), or 0."""
        d = i - j
        points = self.seen.get(d, {}).get(self.ro[i + 1] - self.rc[j + 1])
        if not points:
            return 0
        pos = bisect_right(points, i - min_k) - 1
        if pos < 0 or points[pos] < self.free.get(d, -1):
            return 0
        a = points[pos]
        k = i - a
        if sorted(self.o_keys[a:i + 1]) != sorted(self.c_keys[j - k:j + 1]):  # type: ignore[type-var]
            return -1  # fingerprint collision: let the caller walk
        return k


def align(orig: Sentence, cor: Sentence, lang: Language, lev: bool = False) -> Alignment:
    """Align ``orig`` with ``cor`` using the costs of ``lang`` (or unit costs when ``lev``)."""
    n, m = len(orig), len(cor)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops = [["O"] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = cost[i - 1][0] + 1
        ops[i][0] = "D"
    for j in range(1, m + 1):
        cost[0][j] = cost[0][j - 1] + 1
        ops[0][j] = "I"
    o_texts, c_texts = orig.texts, cor.texts
    o_toks, c_toks = orig.tokens, cor.tokens
    sub_matrix = None if lev else lang.substitution_matrix(orig, cor)
    subcost = lang.substitution_cost
    strict = lang.strict_walk
    o_keys = None if lev else lang.transposition_keys(orig)
    c_keys = None if (lev or o_keys is None) else lang.transposition_keys(cor)
    index = _DiagonalIndex(o_keys, c_keys) if o_keys is not None and c_keys is not None else None
    key_k = max(lang.transposition_key_window - 1, 1)  # first k the index answers
    transposable = lang.transposable

    def window_test(i: int, j: int, k: int) -> bool:
        return transposable(o_toks[i - k:i + 1], c_toks[j - k:j + 1])

    for i in range(n):
        o_tok = o_toks[i]
        o_text = o_texts[i]
        sub_row = sub_matrix[i] if sub_matrix is not None else None
        prev_row, row, op_row = cost[i], cost[i + 1], ops[i + 1]
        for j in range(m):
            if index is not None and i >= 1 and j >= 1:
                index.add_point(i - 1, j - 1)
            if o_text == c_texts[j]:
                row[j + 1] = prev_row[j]
                op_row[j + 1] = "M"
                if index is not None:
                    index.mark_free(i + 1, j + 1)
                continue
            del_cost = prev_row[j + 1] + 1
            ins_cost = row[j] + 1
            trans_cost = inf
            t_size = 0
            if lev:
                sub_cost = prev_row[j] + 1
            else:
                sub_cost = prev_row[j] + (sub_row[j] if sub_row is not None
                                          else subcost(o_tok, c_toks[j]))
                k = 1
                if index is not None:
                    # short windows (k < key_k) are walked and tested as usual; the index answers
                    # for longer ones, which the walk would reach only through costly steps
                    while k < key_k and i - k >= 0 and j - k >= 0:
                        later, earlier = cost[i - k + 1][j - k + 1], cost[i - k][j - k]
                        if (later - earlier <= 0) if strict else (later == earlier):
                            k = i + j + 2
                            break
                        if window_test(i, j, k):
                            trans_cost = earlier + k
                            t_size = k + 1
                            k = i + j + 2
                            break
                        k += 1
                    if k == key_k:
                        found = index.find(i, j, key_k)
                        if found > 0:
                            trans_cost = cost[i - found][j - found] + found
                            t_size = found + 1
                        # on a fingerprint collision (-1), walk on from key_k
                        k = key_k if found < 0 else i + j + 2
                while i - k >= 0 and j - k >= 0:
                    later, earlier = cost[i - k + 1][j - k + 1], cost[i - k][j - k]
                    if (later - earlier <= 0) if strict else (later == earlier):
                        break
                    if window_test(i, j, k):
                        trans_cost = earlier + k
                        t_size = k + 1
                        break
                    k += 1
            best = trans_cost
            op = "T"
            if sub_cost < best:
                best, op = sub_cost, "S"
            if ins_cost < best:
                best, op = ins_cost, "I"
            if del_cost < best:
                best, op = del_cost, "D"
            row[j + 1] = best
            op_row[j + 1] = f"T{t_size}" if op == "T" else op
            if index is not None and ((best <= prev_row[j]) if strict else (best == prev_row[j])):
                index.mark_free(i + 1, j + 1)
    return Alignment(orig, cor, cost, ops, _backtrace(ops, n, m))


def _backtrace(ops: list[list[str]], i: int, j: int) -> list[AlignOp]:
    seq: list[AlignOp] = []
    while i + j:
        op = ops[i][j]
        if op in ("M", "S"):
            seq.append(AlignOp(op, i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
        elif op == "D":
            seq.append(AlignOp(op, i - 1, i, j, j))
            i -= 1
        elif op == "I":
            seq.append(AlignOp(op, i, i, j - 1, j))
            j -= 1
        else:
            k = int(op[1:])
            seq.append(AlignOp(op, i - k, i, j - k, j))
            i, j = i - k, j - k
    seq.reverse()
    return seq
