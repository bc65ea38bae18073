"""MaxMatch (M2) scorer, numerically identical to the official m2scorer 3.2 and much faster.

What is computed (as m2scorer 3.2's ``levenshtein.py`` does; docs/metrics.md), per sentence,
on whitespace tokens:

* the union of the two Levenshtein lattices (substitution cost 1 and 2) with every co-optimal arc;
  insertions before the first source token are anchored at offset 0;
* transitive arcs that merge adjacent edits when the merge holds at most ``max_unchanged_words``
  unchanged tokens, then removal of the merged unchanged (noop) arcs;
* per annotator: gold-matching arcs weigh ``-|E|``, other changing arcs ``dist + 0.001`` (once per
  copy of the arc in the edge list), insertions at one offset matched in order;
* the shortest path; its changing arcs are the system edits, matched against the gold edits
  (correction among the ``||`` alternatives, ``-NONE-`` = empty);
* the annotator maximising the *cumulative* corpus F-beta (ties: more correct, then smaller
  proposed + beta² gold), and P = 1 if nothing was proposed, R = 1 without gold edits.

How it is fast without changing any number: the Levenshtein matrices are filled only inside a
diagonal band that provably contains every optimal path. The official transitive closure is a
triple loop over all vertex triples (cubic) and the path search is Bellman-Ford (V·E). Processing
the intermediate
vertices in topological order makes every arc *into* a vertex final before the vertex is used and
every arc *out of* it a lattice arc, so the closure is built by extending arcs one lattice arc at a
time (work proportional to the arcs actually created). The edge list is rebuilt in the official
order, with the official duplicates and the official removal of merged noop arcs, so ``|E|`` and
every floating-point weight are identical; the Bellman-Ford passes run over that list in the same
order but stop at the first pass that changes nothing (later passes could not change anything), so
even ties between equal-cost paths are resolved as in the official scorer. Sentences whose output
equals the source, and annotators whose gold edits match no arc, skip the search.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...errors import LineCountError
from ...m2 import M2Block, read_m2
from ...textio import read_lines
from .._checks import misaligned, misalignment_note
from ..common import ScoreResult, f_key, prf, signature
from ..options import option
from ..registry import ScoreInput, register

EPSILON = 0.001
SHIFT = 24  # arc attributes are packed as dist << SHIFT | unchanged tokens
MASK = (1 << SHIFT) - 1
PathLike = str | os.PathLike[str]

__all__ = [
    "BudgetExceeded", "GoldEdit", "GoldSentence", "MaxMatch", "MaxMatchMetric", "SentenceScore",
    "SysEdit", "gold_from_blocks", "load_gold", "maxmatch", "read_hypotheses", "sentence_edits",
]


@dataclass(frozen=True, slots=True)
class GoldEdit:
    """A gold edit as the official scorer sees it: token span, original text, alternatives."""

    start: int
    end: int
    orig: str
    cors: tuple[str, ...]
    type: str = ""


@dataclass(slots=True)
class GoldSentence:
    """One source sentence and its gold edits per annotator (ascending annotator id)."""

    source: str
    annotators: dict[int, list[GoldEdit]]
    line: int = 0

    @property
    def tokens(self) -> list[str]:
        return self.source.split()


@dataclass(frozen=True, slots=True)
class SysEdit:
    """A system edit extracted from the lattice: token span, original and corrected text."""

    start: int
    end: int
    orig: str
    cor: str


@dataclass(slots=True)
class SentenceScore:
    """Counts of the chosen annotator for one sentence, with the edits behind them."""

    annotator: int
    correct: int
    proposed: int
    gold: int
    edits: list[SysEdit] = field(default_factory=list)
    matched: list[GoldEdit] = field(default_factory=list)
    gold_edits: list[GoldEdit] = field(default_factory=list)


# --------------------------------------------------------------------------- gold and system input

def _gold_sentence(block: M2Block) -> GoldSentence:
    tokens = block.source.split()
    anns: dict[int, list[GoldEdit]] = {}
    for e in block.edits:
        edits = anns.setdefault(e.annotator, [])
        if e.type == "noop" or e.start < 0 or e.end < 0:
            continue  # an empty edit set for this annotator
        cors = tuple("" if c == "-NONE-" else c.strip() for c in e.cor.split("||"))
        edits.append(GoldEdit(e.start, e.end, " ".join(tokens[e.start:e.end]), cors, e.type))
    if not anns:
        anns[0] = []
    return GoldSentence(block.source.strip(), {a: anns[a] for a in sorted(anns)}, block.line)


def gold_from_blocks(blocks: Iterable[M2Block]) -> list[GoldSentence]:
    """Gold sentences from parsed M2 blocks (``noop`` and ``-1 -1`` edits give an empty set)."""
    return [_gold_sentence(b) for b in blocks]


def load_gold(path: PathLike | Iterable[str], name: str | None = None) -> list[GoldSentence]:
    """Read an M2 file into gold sentences (malformed lines raise ``M2FormatError``)."""
    return gold_from_blocks(read_m2(path, name))


def read_hypotheses(path: PathLike, expected: int | None = None,
                    gold_path: str | None = None) -> list[str]:
    """System output, one sentence per line (CRLF, BOM and surrounding spaces ignored).

    With ``expected`` the line count is checked first and a mismatch raises ``LineCountError``.
    """
    lines = [ln.text.strip() for ln in read_lines(path)]  # "-" (stdin) works too
    if expected is not None and len(lines) != expected:
        where = f" in {gold_path}" if gold_path else ""
        raise LineCountError(
            f"system output has {len(lines)} lines but there are {expected} source sentences"
            f"{where}", path=str(path))
    return lines


# --------------------------------------------------------------------------------- the lattice

def _distances(src: Sequence[str], hyp: Sequence[str], sub_cost: int, t: int = 0) -> list[int]:
    """Levenshtein prefix distances, computed only inside a diagonal band that provably holds
    every optimal path (Ukkonen's cut-off, widened until the distance fits); cells outside the
    band keep a huge value, which never equals an optimal distance, so the lattice is exact."""
    n, m = len(src), len(hyp)
    w = m + 1
    nv = (n + 1) * w
    big = 1 << 40
    delta = n - m
    t = max(t, abs(delta) + 2)  # a first guess at the distance; doubled until it holds
    while True:
        slack = (t - abs(delta)) // 2
        lo = min(0, delta) - slack  # band: lo <= a - b <= hi
        hi = max(0, delta) + slack
        d = [big] * nv
        for b in range(min(w, -lo + 1)):
            d[b] = b
        for a in range(1, n + 1):
            row = a * w
            prev = row - w
            b0 = max(0, a - hi)
            b1 = min(m, a - lo)
            if b0 > b1:
                continue
            if b0 == 0:
                d[row] = a
                b0 = 1
            sa = src[a - 1]
            for b in range(b0, b1 + 1):
                diag = d[prev + b - 1] + (0 if sa == hyp[b - 1] else sub_cost)
                dele = d[prev + b] + 1
                ins = d[row + b - 1] + 1
                d[row + b] = diag if diag <= dele and diag <= ins else (
                    dele if dele <= ins else ins)
        if d[nv - 1] <= t or slack >= n + m:
            return d
        t = 2 * t + 1


def _lattice_arcs(src: Sequence[str], hyp: Sequence[str], sub_cost: int,
                  d: list[int] | None = None) -> set[int]:
    """Arcs (u * NV + v) on co-optimal Levenshtein paths; vertices are a * (m + 1) + b."""
    n, m = len(src), len(hyp)
    w = m + 1
    nv = (n + 1) * w
    if d is None:
        d = _distances(src, hyp, sub_cost)
    arcs: set[int] = set()
    seen = {nv - 1}
    stack = [nv - 1]
    while stack:
        v = stack.pop()
        a, b = divmod(v, w)
        preds: list[int]
        if a == 0:
            preds = [v - 1] if b else []
        elif b == 0:
            preds = [v - w]
        else:
            diag = d[v - w - 1] + (0 if src[a - 1] == hyp[b - 1] else sub_cost)
            dele = d[v - w] + 1
            ins = d[v - 1] + 1
            best = d[v]
            preds = []
            if diag == best:
                preds.append(v - w - 1)
            if dele == best:
                preds.append(v - w)
            if ins == best:
                preds.append(v - 1)
        for u in preds:
            arcs.add(u * nv + v)
            if u not in seen:
                seen.add(u)
                stack.append(u)
    return arcs


class _Graph:
    """The merged lattice with transitive arcs, edge list and annotator-independent weights."""

    __slots__ = ("src", "hyp", "w", "nv", "packed", "edges", "tails", "heads", "base_w", "nE",
                 "mult", "weight", "_by_span", "_base_path")

    def __init__(self, src: Sequence[str], hyp: Sequence[str], max_unchanged: int,
                 max_arcs: int | None = None) -> None:
        self.src, self.hyp = src, hyp
        w = self.w = len(hyp) + 1
        nv = self.nv = (len(src) + 1) * w
        d1 = _distances(src, hyp, 1)
        a1 = _lattice_arcs(src, hyp, 1, d1)
        # the cost-2 distance is at most twice the cost-1 one (a substitution = delete + insert)
        a2 = _lattice_arcs(src, hyp, 2, _distances(src, hyp, 2, 2 * d1[-1]))
        both = a1 & a2
        base = sorted([*a1, *a2])  # the official list keeps arcs of both lattices twice
        # Arc attributes packed as dist << SHIFT | unchanged-token count; inc[v] = {u: packed}.
        succ: dict[int, list[tuple[int, int]]] = {}
        inc: dict[int, dict[int, int]] = {}
        one = 1 << SHIFT
        packed: dict[int, int] = {}
        noops: list[int] = []
        for key in a1 | a2:
            u, v = divmod(key, nv)
            noop = 1 if v - u == w + 1 and src[u // w] == hyp[u % w] else 0
            succ.setdefault(u, []).append((v, noop))
            inc.setdefault(v, {})[u] = packed[key] = one | noop
            if noop:
                noops.append(key)
        # Transitive arcs: intermediates in topological (= sorted) order, as the official triple
        # loop; arcs into k are final when k is reached and arcs out of k are lattice arcs, so
        # each arc into k is extended by each lattice arc out of k. Within one k the official
        # loop appends in (i, j) order, i.e. in sorted key order. An arc made only of unchanged
        # tokens can only come from the diagonal predecessor, which is processed first, and no
        # other path is as short, so merged noop arcs are never replaced: they are noted when
        # created.
        limit_all = min(max_unchanged, MASK)
        added: list[int] = []
        merged_noops: set[int] = set()
        improved: dict[int, int] = {}  # key -> times appended again with a smaller dist
        for k in sorted(succ):
            items = inc.get(k)
            if not items:
                continue
            new: list[int] = []
            if len(items) <= 8:  # small: a plain loop beats building dicts and sets
                for j, u_kj in succ[k]:
                    limit = limit_all - u_kj
                    step = one + u_kj
                    tgt = inc[j]
                    for i, p in items.items():
                        if p & MASK <= limit:
                            c = p + step
                            q = tgt.get(i)
                            if q is None or c >> SHIFT < q >> SHIFT:
                                key = i * nv + j
                                if q is not None:
                                    improved[key] = improved.get(key, 0) + 1
                                elif c >> SHIFT == c & MASK:
                                    merged_noops.add(key)
                                tgt[i] = packed[key] = c
                                new.append(key)
            else:
                for j, u_kj in succ[k]:
                    limit = limit_all - u_kj
                    if limit < 0:
                        continue
                    step = one + u_kj
                    cand = {i: p + step for i, p in items.items() if p & MASK <= limit}
                    tgt = inc[j]
                    fresh = cand.keys() - tgt.keys()
                    if u_kj:
                        merged_noops.update([i * nv + j for i in fresh
                                             if cand[i] >> SHIFT == cand[i] & MASK])
                    better = [i for i in cand.keys() & tgt.keys()
                              if cand[i] >> SHIFT < tgt[i] >> SHIFT]
                    if better:
                        for i in better:
                            key = i * nv + j
                            improved[key] = improved.get(key, 0) + 1
                        fresh.update(better)
                    if fresh:
                        vals = {i: cand[i] for i in fresh}
                        tgt.update(vals)
                        keys = [i * nv + j for i in vals]
                        packed.update(zip(keys, vals.values(), strict=True))
                        new += keys
            new.sort()
            added += new
            if max_arcs is not None and len(added) > max_arcs:
                raise BudgetExceeded(len(added))
        # Remove merged noop arcs (dist > 1) the way the official loop does: removing from the
        # list being iterated skips the element that follows each removed one. Lattice arcs have
        # dist 1, so only the transitive tail of the list can change.
        kept = added
        if merged_noops:
            last = -2
            cut: list[int] = []
            for pos in [p for p, key in enumerate(added) if key in merged_noops]:
                if pos == last + 1:
                    noops.append(added[pos])  # skipped by the official loop: it stays
                else:
                    cut.append(pos)
                    last = pos
            kept = []
            prev = 0
            for pos in cut:
                kept += added[prev:pos]
                del packed[added[pos]]
                prev = pos + 1
            kept += added[prev:]
        edges = base + kept
        self.packed, self.edges = packed, edges
        self.nE = len(edges)
        self.tails = [key // nv for key in edges]
        self.heads = [key % nv for key in edges]
        # Annotator-independent weights: +epsilon per copy of a changing arc in the list,
        # added one at a time as the official code does (the float sums must be identical).
        weight = {key: (p >> SHIFT) + EPSILON for key, p in packed.items()}
        mult = dict.fromkeys(both, 2)
        for key, c in improved.items():
            mult[key] = mult.get(key, 1) + c
        for key, c in mult.items():
            val = packed[key] >> SHIFT
            for _ in range(c):
                val += EPSILON
            weight[key] = val
        for key in noops:
            weight[key] = packed[key] >> SHIFT  # unchanged tokens: no epsilon
        self.mult, self.weight = mult, weight
        self.base_w = [weight[key] for key in edges]
        self._by_span: dict[tuple[int, int], list[int]] | None = None
        self._base_path: list[int] | None = None

    @property
    def by_span(self) -> dict[tuple[int, int], list[int]]:
        """Distinct arcs grouped by their edit span (start row, end row)."""
        if self._by_span is None:
            nv, w = self.nv, self.w
            spans: dict[tuple[int, int], list[int]] = {}
            for key in self.packed:
                spans.setdefault((key // nv // w, key % nv // w), []).append(key)
            self._by_span = spans
        return self._by_span

    # -- arc properties
    def is_noop(self, key: int) -> bool:
        p = self.packed[key]
        return p >> SHIFT == p & MASK

    def cor(self, u: int, v: int) -> str:
        return " ".join(self.hyp[u % self.w:v % self.w])

    def edit(self, u: int, v: int) -> SysEdit:
        w = self.w
        s, e = u // w, v // w
        return SysEdit(s, e, " ".join(self.src[s:e]), " ".join(self.hyp[u % w:v % w]))

    # -- weights for one annotator
    def overrides(self, gold: Sequence[GoldEdit]) -> dict[int, float]:
        """Weights that differ from the annotator-independent ones (empty: no arc matches)."""
        groups: dict[tuple[int, int], list[GoldEdit]] = {}
        for g in gold:
            groups.setdefault((g.start, g.end), []).append(g)
        nv = self.nv
        out: dict[int, float] = {}
        for span, golds in groups.items():
            keys = self.by_span.get(span)
            if not keys:
                continue
            if span[0] != span[1]:
                alts = {c for g in golds for c in g.cors}
                for key in keys:
                    if self.cor(*divmod(key, nv)) in alts:
                        out[key] = -self.nE
            else:
                self._insertions(keys, golds, out)
        return out

    def _insertions(self, keys: list[int], golds: list[GoldEdit], out: dict[int, float]) -> None:
        """The official two-pointer matching of insertions at one offset (order matters)."""
        nv = self.nv
        occ = sorted(k for k in keys for _ in range(self.mult.get(k, 1)))
        ret: dict[int, float] = {k: self.packed[k] >> SHIFT for k in keys}
        corr = {k: self.cor(*divmod(k, nv)) for k in keys}
        lptr, rptr, cur = 0, len(occ) - 1, 0
        g_l, g_r = 0, len(golds) - 1
        any_match = False
        while lptr <= rptr:
            key = occ[cur]
            left = cur == lptr
            order = range(g_l, g_r + 1) if left else range(g_r, g_l - 1, -1)
            hit = False
            for gi in order:
                g = golds[gi]
                if corr[key] in g.cors:
                    hit = any_match = True
                    ret[key] = -self.nE
                    if left:
                        g_l = gi + 1
                    else:
                        g_r = gi - 1
                    break
            if not hit:
                ret[key] += EPSILON  # insertion arcs are never noop
                if left:
                    lptr += 1
                    cur = rptr
                else:
                    rptr -= 1
                    cur = lptr
            elif left:
                lptr += 1
                end = occ[cur] % nv
                while lptr < len(occ) and occ[lptr] // nv != end:
                    ret[occ[lptr]] += EPSILON
                    lptr += 1
                cur = lptr
            else:
                rptr -= 1
                start = occ[cur] // nv
                while rptr >= 0 and occ[rptr] % nv != start:
                    ret[occ[rptr]] += EPSILON
                    rptr -= 1
                cur = rptr
        if any_match:
            base = self.weight
            for k, val in ret.items():
                if val != base[k]:
                    out[k] = val

    # -- shortest path
    def best_path(self, overrides: dict[int, float]) -> list[int]:
        """Predecessor chain from the end vertex: Bellman-Ford over the official edge list."""
        if overrides:
            get = overrides.get
            wl = [get(key, base) for key, base in zip(self.edges, self.base_w, strict=True)]
        elif self._base_path is not None:
            return self._base_path
        else:
            wl = self.base_w
        inf = float("inf")
        dist: list[float] = [inf] * self.nv
        dist[0] = 0
        pred = [-1] * self.nv
        us, vs = self.tails, self.heads
        for _ in range(len(us) + 1):
            changed = False
            for u, v, wt in zip(us, vs, wl, strict=True):
                nd = dist[u] + wt
                if nd < dist[v]:
                    dist[v] = nd
                    pred[v] = u
                    changed = True
            if not changed:
                break
        chain = []
        v = self.nv - 1
        while pred[v] >= 0:
            u = pred[v]
            chain.append(u * self.nv + v)
            v = u
        if not overrides:
            self._base_path = chain
        return chain

    def edit_seq(self, overrides: dict[int, float]) -> list[SysEdit]:
        """System edits of the best path, left to right."""
        nv = self.nv
        seq = [self.edit(*divmod(key, nv)) for key in reversed(self.best_path(overrides))
               if not self.is_noop(key)]
        return seq


def _ignorable(e: SysEdit) -> bool:
    return e.orig.replace(" ", "").lower() == e.cor.replace(" ", "").lower()


def _match_seq(seq: Sequence[SysEdit], gold: Sequence[GoldEdit]) -> list[GoldEdit]:
    """Gold edits matched by the system edits, in order (the official ``matchSeq``)."""
    matched: list[GoldEdit] = []
    last = 0
    for e in seq:
        for i in range(last, len(gold)):
            g = gold[i]
            if e.start == g.start and e.end == g.end and e.orig == g.orig and e.cor in g.cors:
                matched.append(g)
                last = i + 1
    return matched


class BudgetExceeded(Exception):
    """A sentence's lattice grew past ``max_arcs`` transitive arcs (only with a budget set)."""


#: annotator -> (system edits chosen against that annotator, gold edits they match)
AnnotatorEdits = dict[int, tuple[list[SysEdit], list[GoldEdit]]]


def sentence_edits(source: str, hypothesis: str, golds: dict[int, list[GoldEdit]],
                   max_unchanged_words: int = 2, ignore_whitespace_casing: bool = False,
                   max_arcs: int | None = None) -> AnnotatorEdits:
    """Per annotator: the system edits chosen against that annotator and the gold edits matched.

    ``max_arcs`` (default: no limit) raises :class:`BudgetExceeded` when the transitive arcs of
    the sentence exceed it.
    """
    src, hyp = source.split(), hypothesis.split()
    out: AnnotatorEdits = {}
    if src == hyp:
        return {a: ([], []) for a in golds}
    graph = _Graph(src, hyp, max_unchanged_words, max_arcs)
    cache: dict[frozenset[tuple[int, float]], list[SysEdit]] = {}
    for ann, gold in golds.items():
        ov = graph.overrides(gold)
        sig = frozenset(ov.items())
        seq = cache.get(sig)
        if seq is None:
            seq = cache[sig] = graph.edit_seq(ov)
        if ignore_whitespace_casing:
            seq = [e for e in seq if not _ignorable(e)]
        out[ann] = (seq, _match_seq(seq, gold))
    return out


def _f_local(c: float, e: float, g: float, beta: float) -> float:
    try:
        return (1 + beta * beta) * c / (beta * beta * g + e)
    except ZeroDivisionError:
        return 1.0 if c == 0.0 else 0.0


def final_prf(correct: float, proposed: float, gold: float, beta: float
              ) -> tuple[float, float, float]:
    """Corpus P, R, F exactly as m2scorer computes them (the shared rule, :func:`prf`)."""
    return prf(correct, proposed - correct, gold - correct, beta)


def _fp_types(s: SentenceScore) -> list[str]:
    """Types for the system edits that matched no gold edit (see the per-type note)."""
    hits = [(g.start, g.end, g.orig) for g in s.matched]
    out = []
    for e in s.edits:
        key = (e.start, e.end, e.orig)
        if key in hits and any(e.cor in g.cors for g in s.matched if g.start == e.start
                               and g.end == e.end):
            hits.remove(key)
            continue
        same = [g for g in s.gold_edits if (g.start, g.end) == (e.start, e.end)]
        near = same or [g for g in s.gold_edits if g.start < e.end and e.start < g.end
                        or (g.start == g.end == e.start == e.end)]
        out.append(near[0].type if near else "UNTYPED")
    return out[:max(s.proposed - s.correct, 0)]


# --------------------------------------------------------------------------------- the metric

@dataclass
class MaxMatch:
    """The MaxMatch scorer with its settings; call :meth:`score` on parsed inputs."""

    beta: float = 0.5
    max_unchanged_words: int = 2
    ignore_whitespace_casing: bool = False
    #: optional time budget: a sentence whose lattice exceeds this many transitive arcs is scored
    #: as if the system had left it unchanged, and listed in the result (never silently)
    max_arcs: int | None = None
    #: 0-based sentences that hit the budget in the last run
    budget_hits: list[int] = field(default_factory=list, init=False, repr=False, compare=False)

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "beta": self.beta, "max_unchanged_words": self.max_unchanged_words,
            "ignore_whitespace_casing": self.ignore_whitespace_casing,
            "annotators": "best-cumulative", "compat": "m2scorer-3.2"}
        if self.max_arcs is not None:
            out["max_arcs"] = self.max_arcs
        return out

    def _sentence(self, idx: int, hyp: str, sent: GoldSentence) -> AnnotatorEdits:
        try:
            return sentence_edits(sent.source, hyp, sent.annotators, self.max_unchanged_words,
                                  self.ignore_whitespace_casing, self.max_arcs)
        except BudgetExceeded:
            self.budget_hits.append(idx)
            return {a: ([], []) for a in sent.annotators}

    def edits(self, hypotheses: Sequence[str], gold: Sequence[GoldSentence],
              memo: dict[tuple[int, str], tuple[AnnotatorEdits, bool]] | None = None
              ) -> list[AnnotatorEdits]:
        """Per sentence and annotator: the system edits chosen against that annotator and the
        gold edits they match (what the corpus and the sentence-level scores are made of).

        ``memo``: a dict kept across systems scored with these settings against the same
        ``gold``: a hypothesis another system wrote for the same sentence is not computed again.
        """
        if len(hypotheses) != len(gold):
            raise LineCountError(f"{len(hypotheses)} hypotheses for {len(gold)} gold sentences")
        self.budget_hits = []
        if memo is None:
            return [self._sentence(idx, hyp, sent)
                    for idx, (hyp, sent) in enumerate(zip(hypotheses, gold, strict=True))]
        out = []
        for idx, (hyp, sent) in enumerate(zip(hypotheses, gold, strict=True)):
            got = memo.get((idx, hyp))
            if got is None:
                hits = len(self.budget_hits)
                got = memo[(idx, hyp)] = (self._sentence(idx, hyp, sent),
                                          len(self.budget_hits) > hits)
            elif got[1]:
                self.budget_hits.append(idx)
            out.append(got[0])
        return out

    def iter_sentences(self, hypotheses: Sequence[str], gold: Sequence[GoldSentence],
                       edits: Sequence[AnnotatorEdits] | None = None
                       ) -> Iterator[SentenceScore]:
        """Per-sentence counts of the greedily chosen annotator (the running totals matter).

        ``edits`` are :meth:`edits` computed before (else each sentence is computed in turn).
        """
        if len(hypotheses) != len(gold):
            raise LineCountError(f"{len(hypotheses)} hypotheses for {len(gold)} gold sentences")
        beta = self.beta
        b2 = beta * beta
        tc = tp_ = tg = 0.0
        if edits is None:
            self.budget_hits = []
        for idx, (hyp, sent) in enumerate(zip(hypotheses, gold, strict=True)):
            per = edits[idx] if edits is not None else self._sentence(idx, hyp, sent)
            best: SentenceScore | None = None
            f_max, max_c = -1.0, -1.0
            min_p = min_g = float("inf")
            for ann, gedits in sent.annotators.items():
                seq, matched = per[ann]
                c, p, g = tc + len(matched), tp_ + len(seq), tg + len(gedits)
                f = _f_local(c, p, g, beta)
                if (f_max < f or (f_max == f and max_c < c)
                        or (f_max == f and max_c == c and min_p + b2 * min_g > p + b2 * g)):
                    f_max, max_c, min_p, min_g = f, c, p, g
                    best = SentenceScore(ann, len(matched), len(seq), len(gedits), seq, matched,
                                         gedits)
            assert best is not None
            tc += best.correct
            tp_ += best.proposed
            tg += best.gold
            yield best

    def score(self, hypotheses: Sequence[str], gold: Sequence[GoldSentence],
              edits: Sequence[AnnotatorEdits] | None = None) -> ScoreResult:
        """Corpus and per-sentence scores, per-type recall counts and the signature
        (``edits``: :meth:`edits` computed before, with :attr:`budget_hits` as they left it)."""
        t0 = time.perf_counter()
        sentences: list[dict[str, Any]] = []
        per_type: dict[str, dict[str, float]] = {}
        tc = tp_ = tg = 0
        for idx, s in enumerate(self.iter_sentences(hypotheses, gold, edits)):
            tc += s.correct
            tp_ += s.proposed
            tg += s.gold
            p, r, f = final_prf(s.correct, s.proposed, s.gold, self.beta)
            sentences.append({"id": idx, "annotator": s.annotator, "correct": s.correct,
                              "proposed": s.proposed, "gold": s.gold, "p": p, "r": r, "f": f})
            left = list(s.gold_edits)
            for g in s.matched:
                left.remove(g)
                per_type.setdefault(g.type, {"tp": 0, "fp": 0, "fn": 0})["tp"] += 1
            for g in left:
                per_type.setdefault(g.type, {"tp": 0, "fp": 0, "fn": 0})["fn"] += 1
            for t in _fp_types(s):
                per_type.setdefault(t, {"tp": 0, "fp": 0, "fn": 0})["fp"] += 1
        p, r, f = final_prf(float(tc), float(tp_), float(tg), self.beta)
        fkey = f_key(self.beta)
        notes = ["per-type: tp/fn by gold type; a system edit matching no gold edit is a fp "
                 "of the type of the chosen annotator's gold edit on the same span, else of an "
                 "overlapping one, else of UNTYPED (system edits carry no type)"]
        warn = misalignment_note(misaligned([g.source for g in gold], hypotheses), len(gold))
        if warn:
            notes.insert(0, warn)
        if self.budget_hits:
            lines = ", ".join(str(i + 1) for i in self.budget_hits[:10])
            notes.insert(0, f"warning: budget: {len(self.budget_hits)} sentences exceeded "
                            f"max_arcs={self.max_arcs} and were scored as unchanged output "
                            f"(lines {lines}{', ...' if len(self.budget_hits) > 10 else ''}); "
                            f"the scores are not m2scorer's")
        return ScoreResult(
            metric="maxmatch",
            corpus={"p": p, "r": r, fkey: f},
            signature=signature("maxmatch", self.settings()),
            counts={"correct": tc, "proposed": tp_, "gold": tg, "sentences": len(sentences),
                    "budget_hits": len(self.budget_hits),
                    "seconds": round(time.perf_counter() - t0, 3)},
            sentences=sentences,
            per_type=per_type,
            notes=notes,
        )

    def score_files(self, system: PathLike, gold_m2: PathLike) -> ScoreResult:
        """Score a system output file against an M2 file (line counts are checked first)."""
        gold = load_gold(gold_m2)
        hyps = read_hypotheses(system, len(gold), str(gold_m2))
        return self.score(hyps, gold)


def maxmatch(hypotheses: Sequence[str], gold: Sequence[GoldSentence] | PathLike, *,
             beta: float = 0.5, max_unchanged_words: int = 2,
             ignore_whitespace_casing: bool = False, max_arcs: int | None = None
             ) -> ScoreResult:
    """Score hypotheses (one string per sentence) against gold sentences or an M2 path."""
    if isinstance(gold, (str, os.PathLike)):
        gold = load_gold(gold)
    if len(hypotheses) != len(gold):
        raise LineCountError(f"{len(hypotheses)} hypotheses for {len(gold)} gold sentences")
    return MaxMatch(beta, max_unchanged_words, ignore_whitespace_casing, max_arcs).score(
        hypotheses, gold)


@register("maxmatch")
@dataclass
class MaxMatchMetric:
    """m2scorer 3.2; every sentence also gets ``tp = correct``, ``fp = proposed - correct``,
    ``fn = gold - correct`` of its chosen annotator."""

    level: ClassVar[str] = "sentence"  # essays: scored on the realigned units
    beta: float = option(0.5, ge=0)
    max_unchanged_words: int = option(2, ge=0)
    ignore_whitespace_casing: bool = False
    max_arcs: int | None = option(None, ge=1)
    name: str = "maxmatch"

    @property
    def main(self) -> str:
        return f_key(self.beta)

    def scorer(self) -> MaxMatch:
        """The configured :class:`MaxMatch`."""
        return MaxMatch(self.beta, self.max_unchanged_words, self.ignore_whitespace_casing,
                        self.max_arcs)

    def settings(self) -> dict[str, Any]:
        return self.scorer().settings()

    #: (the gold blocks, the edit-path settings, the gold sentences, the sentences' edits per
    #: hypothesis) kept across the systems one metric object scores against the same gold
    #: blocks (a report's systems)
    _memo: tuple[Any, tuple[Any, ...], list[GoldSentence], dict[Any, Any]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def score(self, data: ScoreInput) -> ScoreResult:
        scorer = self.scorer()
        path = (self.max_unchanged_words, self.ignore_whitespace_casing, self.max_arcs)
        if self._memo is None or self._memo[0] is not data.gold or self._memo[1] != path:
            self._memo = (data.gold, path, gold_from_blocks(data.gold), {})
        gold, memo = self._memo[2], self._memo[3]
        res = scorer.score(list(data.hypotheses), gold, shared_edits(scorer, data, gold, memo))
        for s in res.sentences:
            s["tp"], s["fp"], s["fn"] = (s["correct"], s["proposed"] - s["correct"],
                                         s["gold"] - s["correct"])
        return res


def shared_edits(scorer: MaxMatch, data: ScoreInput, gold: Sequence[GoldSentence],
                 memo: dict[Any, Any] | None = None) -> list[AnnotatorEdits]:
    """:meth:`MaxMatch.edits` of the system, computed once per edit-path setting and shared by
    MaxMatch and SentM2 through ``data.shared`` (the scorer's budget hits are restored);
    ``memo``: see :meth:`MaxMatch.edits`."""
    key = ("maxmatch-edits", scorer.max_unchanged_words, scorer.ignore_whitespace_casing,
           scorer.max_arcs)
    hit = data.shared.get(key)
    if hit is None:
        hit = data.shared[key] = (scorer.edits(list(data.hypotheses), gold, memo),
                                  list(scorer.budget_hits))
    scorer.budget_hits = list(hit[1])
    return hit[0]
