"""The dynamic-programming aligner: Damerau-Levenshtein with linguistic costs, or Levenshtein.

The substitution cost and the transposition test come from the Language; everything else follows
ERRANT exactly: match only on identical text, candidates [transposition, substitution, insertion,
deletion] with the first minimum winning (T > S > I > D), and a single back-trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import inf

from .lang.base import AlignOp, Language
from .tokens import Sentence


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
    subcost = lang.substitution_cost
    transposable = lang.transposable
    strict = lang.strict_walk
    for i in range(n):
        o_tok = orig[i]
        o_text = o_texts[i]
        prev_row, row, op_row = cost[i], cost[i + 1], ops[i + 1]
        for j in range(m):
            if o_text == c_texts[j]:
                row[j + 1] = prev_row[j]
                op_row[j + 1] = "M"
                continue
            del_cost = prev_row[j + 1] + 1
            ins_cost = row[j] + 1
            trans_cost = inf
            t_size = 0
            if lev:
                sub_cost = prev_row[j] + 1
            else:
                sub_cost = prev_row[j] + subcost(o_tok, cor[j])
                k = 1
                while i - k >= 0 and j - k >= 0:
                    later, earlier = cost[i - k + 1][j - k + 1], cost[i - k][j - k]
                    if (later - earlier <= 0) if strict else (later == earlier):
                        break
                    if transposable(orig[i - k:i + 1], cor[j - k:j + 1]):
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
