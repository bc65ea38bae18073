"""Essays and rewrites: align sentences, then extract edits sentence group by sentence group.

Aligning a whole essay as one sentence is quadratic in its length, and a correction that merges
or splits sentences moves every later sentence out of line. Instead:

1. The original and each correction are segmented into sentences by the language's own
   segmenter (:mod:`errtype.essay.segment`); the original once, shared by every correction.
2. The sentences are aligned (:func:`align_sentences`) into monotone *groups*: 1-1, 1-n and n-1
   (a correction splitting or merging sentences), 1-0 and 0-1 (a sentence deleted or added).
   A group's cost is the sum of

   * the token-overlap cost: the tokens (lower-cased) that the two sides do not share, as
     multisets (``|O| + |C| - 2|O ∩ C|``, Indel distance of bags of tokens);
   * for a group with both sides, a Gale–Church length cost: ``δ² / 2`` with
     ``δ = (l_c - l_o) / sqrt(s² (l_o + l_c) / 2)`` over the characters of the two sides
     and Gale and Church's variance ``s² = 6.8``
     (Gale & Church 1993, "A program for aligning sentences in bilingual corpora"), i.e. minus
     the log-likelihood of the length difference up to a constant;
   * a penalty of :data:`GROUP_PENALTY` per sentence beyond a 1-1 pair (a 2-1 group pays one,
     a 1-0 group one), Gale and Church's prior against rarer groupings.

   The cheapest path is found by dynamic programming restricted to a band around the diagonal
   *in token space*: sentence boundary ``i`` (at original token ``p``) may meet correction
   boundary ``j`` (at token ``q``) only if ``|p · N_c / N_o - q|`` is at most
   :data:`BAND_TOKENS` tokens; where the best path comes within half of that of the band's
   edge, or finds no way through, the band is doubled and the alignment run again. A group's merged
   sentences total at most :data:`MAX_GROUP_RATIO` times the other side's tokens (plus
   :data:`GROUP_SLACK`), a group grows by no sentence less than half of whose tokens the other
   side has, and a sentence identical to the one it meets is paired with it at no cost without
   trying other groups. So the number of states and the work per state do not grow with the
   essay: alignment is linear in its length, yet a correction may merge every sentence of an
   essay into one.

   Finally a boundary between two groups is kept only if it is *anchored*: the tokens just
   before it, or those just after it, are the same word on both sides (lower-cased), and
   cutting the :data:`BOUNDARY_WINDOW` tokens on either side of it there loses no token of
   their longest common subsequence (no common token is matched across it); otherwise the two
   groups are joined. Segmenters may put boundaries in different places on the two sides
   (``3 :`` | ``Dělat`` against ``3`` | ``. Dělat``), and sentences may be rewritten across
   them; a boundary that cut such a stretch would cut an edit in two.
3. Each group is annotated as one sentence pair by the annotator's own align/merge/classify
   (:meth:`errtype.annotator.Annotator.annotate`) on the already parsed tokens, and its edits are
   shifted to essay offsets. A merge or split thus becomes an edit at the boundary (``. The``
   -> ``, the``) and nothing else moves.

:class:`EssayAnnotation` gives the essay-level :class:`~errtype.records.Annotation` (token
offsets over the essay), and the sentence-level units (:meth:`EssayAnnotation.units`): the
coarsest segmentation of the original's sentences that every correction's groups respect.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rapidfuzz.distance import LCSseq

from ..annotator import _check_merging
from ..edit import Edit
from ..m2 import M2Block, annotation_block
from ..merge import MAX_RULE_RUN
from ..records import Annotation
from ..tokens import Sentence, join_sentences
from .segment import parse_texts, tag_sentences

__all__ = ["Aligner", "EssayAnnotation", "Group", "Unit", "align_sentences", "annotate_essay",
           "annotate_essays", "annotate_groups", "boundary_edit", "joint_units", "pair_by_index"]

#: the band of the sentence alignment, in tokens (see the module docstring)
BAND_TOKENS = 60
#: Gale and Church's variance of the length difference per character
GC_VARIANCE = 6.8
#: cost of each sentence beyond a 1-1 pair in a group
GROUP_PENALTY = 1.0
#: the sentences merged into a group total at most this many times the other side's tokens
#: plus :data:`GROUP_SLACK`
MAX_GROUP_RATIO = 1.5
GROUP_SLACK = 10
#: tokens on each side of a group boundary that :func:`_crossed` aligns
BOUNDARY_WINDOW = 40


class Group(NamedTuple):
    """Aligned sentences: original sentences ``o_start:o_end``, corrected ``c_start:c_end``."""

    o_start: int
    o_end: int
    c_start: int
    c_end: int


_PUNCT = re.compile(r"[^\w\s]+")
_FINAL = frozenset(".!?…。！？")

#: an essay's corrections: one text, or a list of texts where None is a missing one
Corrections = Sequence[str | None] | str | None
#: ``aligner(orig_sentences, cor_sentences)`` -> groups covering both in order
Aligner = Callable[[Sequence[Sentence], Sequence[Sentence]], list[Group]]


def _chars(sent: Sentence) -> int:
    return sum(len(t) for t in sent.texts) + max(len(sent) - 1, 0)


def _gale_church(lo: int, lc: int) -> float:
    if lo + lc == 0:
        return 0.0
    delta = (lc - lo) / math.sqrt(GC_VARIANCE * (lo + lc) / 2)
    return delta * delta / 2


def align_sentences(orig: Sequence[Sentence], cor: Sequence[Sentence]) -> list[Group]:
    """The monotone alignment of two sentence lists into groups 1-1, 1-n, n-1, 1-0 and 0-1
    (method: module docstring); the groups cover both lists in order."""
    n, m = len(orig), len(cor)
    if n == 0 or m == 0:
        return [Group(0, n, 0, m)] if n or m else []
    o_txt = [s.texts for s in orig]
    c_txt = [s.texts for s in cor]
    o_keys = [Counter(s.lowers) for s in orig]
    c_keys = [Counter(s.lowers) for s in cor]
    o_len = [len(s) for s in orig]
    c_len = [len(s) for s in cor]
    o_chr = [_chars(s) for s in orig]
    c_chr = [_chars(s) for s in cor]
    po = [0]
    for x in o_len:
        po.append(po[-1] + x)
    pc = [0]
    for x in c_len:
        pc.append(pc[-1] + x)
    scale = pc[-1] / po[-1] if po[-1] else 1.0
    band = BAND_TOKENS
    while True:
        found = _banded(band, n, m, po, pc, scale, o_txt, c_txt, o_keys, c_keys, o_len, c_len,
                        o_chr, c_chr)
        widest = band >= po[-1] + pc[-1]
        if found is not None and (widest or max(abs(po[g.o_start] * scale - pc[g.c_start])
                                                for g in found) <= band - BAND_TOKENS / 2):
            break
        if widest:  # no path: the groups' size limits exclude every one
            return [Group(0, n, 0, m)]
        band *= 2  # the path came near the band's edge: widen it and align again
    return _clean_boundaries(found, orig, cor, po, pc)


def _banded(band: float, n: int, m: int, po: list[int], pc: list[int], scale: float,
            o_txt: list[tuple[str, ...]], c_txt: list[tuple[str, ...]],
            o_keys: list[Counter[str]], c_keys: list[Counter[str]], o_len: list[int],
            c_len: list[int], o_chr: list[int], c_chr: list[int]) -> list[Group] | None:
    """The cheapest path of groups within ``band`` tokens of the diagonal (None: none)."""

    def in_band(i: int, j: int) -> bool:
        return abs(po[i] * scale - pc[j]) <= band or (i, j) == (n, m)

    best: dict[tuple[int, int], tuple[float, tuple[int, int]]] = {(0, 0): (0.0, (0, 0))}

    def relax(i: int, j: int, a: int, b: int, cost: float) -> None:
        key = (i + a, j + b)
        if not in_band(*key):
            return
        old = best.get(key)
        if old is None or cost < old[0]:
            best[key] = (cost, (i, j))

    j_lo = 0
    for i in range(n + 1):
        while j_lo < m and pc[j_lo] < po[i] * scale - band:
            j_lo += 1
        j = j_lo
        while j <= m and (pc[j] <= po[i] * scale + band or (i, j) == (n, m)):
            here = best.get((i, j))
            if here is None:
                j += 1
                continue
            base = here[0]
            if i < n and j < m and o_txt[i] == c_txt[j]:  # identical sentences: 1-1, cost 0
                relax(i, j, 1, 1, base)
                j += 1
                continue
            if i < n:  # 1-0
                relax(i, j, 1, 0, base + o_len[i] + GROUP_PENALTY)
            if j < m:  # 0-1
                relax(i, j, 0, 1, base + c_len[j] + GROUP_PENALTY)
            if i < n and j < m:
                # 1-1, then n-1: original sentences i.. merged into correction sentence j
                _extend(orig_side=True, i=i, j=j, keys=o_keys, lens=o_len, chars=o_chr,
                        one=c_keys[j], one_len=c_len[j], one_chr=c_chr[j], limit=n,
                        relax=relax, base=base)
                # 1-n: original sentence i split into correction sentences j..
                _extend(orig_side=False, i=i, j=j, keys=c_keys, lens=c_len, chars=c_chr,
                        one=o_keys[i], one_len=o_len[i], one_chr=o_chr[i], limit=m,
                        relax=relax, base=base)
            j += 1
    if (n, m) not in best:
        return None
    groups = []
    at = (n, m)
    while at != (0, 0):
        prev = best[at][1]
        groups.append(Group(prev[0], at[0], prev[1], at[1]))
        at = prev
    return groups[::-1]


def _clean_boundaries(groups: list[Group], orig: Sequence[Sentence], cor: Sequence[Sentence],
                      po: list[int], pc: list[int]) -> list[Group]:
    """``groups`` with every boundary that is not clean removed (the groups on either side
    joined; see the module docstring)."""
    if len(groups) < 2:
        return groups
    o_low = [t for s in orig for t in s.lowers]
    c_low = [t for s in cor for t in s.lowers]
    out = [groups[0]]
    for g in groups[1:]:
        if not _anchored(o_low, c_low, po[g.o_start], pc[g.c_start]):
            h = out[-1]
            out[-1] = Group(h.o_start, g.o_end, h.c_start, g.c_end)
        else:
            out.append(g)
    return out


def _anchored(o: list[str], c: list[str], p: int, q: int) -> bool:
    """Whether the boundary before original token ``p`` and correction token ``q`` is anchored
    (module docstring): the tokens just before it, or just after it, are the same on both
    sides, and cutting the :data:`BOUNDARY_WINDOW` tokens around it there loses no token of
    their longest common subsequence."""
    if not ((p > 0 and q > 0 and o[p - 1] == c[q - 1])
            or (p < len(o) and q < len(c) and o[p] == c[q])):
        return False
    w = BOUNDARY_WINDOW
    o_left, o_right = o[max(p - w, 0):p], o[p:p + w]
    c_left, c_right = c[max(q - w, 0):q], c[q:q + w]
    whole = LCSseq.similarity(o_left + o_right, c_left + c_right)
    return whole == LCSseq.similarity(o_left, c_left) + LCSseq.similarity(o_right, c_right)


def _extend(*, orig_side: bool, i: int, j: int, keys: list[Counter[str]], lens: list[int],
            chars: list[int], one: Counter[str], one_len: int, one_chr: int, limit: int,
            relax: Any, base: float) -> None:
    """Relax the groups of one sentence (``one``) against 1, 2, ... sentences of the other side
    starting at ``i`` (``orig_side``) or ``j``; 1-1 only once (from the original side)."""
    start = i if orig_side else j
    shared = 0
    total = 0
    chr_total = 0
    bag: Counter[str] = Counter()
    cap = MAX_GROUP_RATIO * one_len + GROUP_SLACK
    for k in range(start, limit):
        before = shared
        for key, count in keys[k].items():
            have = bag[key]
            avail = one.get(key, 0)
            if have < avail:
                shared += min(count, avail - have)
            bag[key] = have + count
        joins = 2 * (shared - before) >= lens[k]
        total += lens[k]
        chr_total += chars[k] + (1 if k > start else 0)
        size = k - start + 1
        if size > 1 or orig_side:
            cost = (base + total + one_len - 2 * shared + _gale_church(chr_total, one_chr)
                    + GROUP_PENALTY * (size - 1))
            if orig_side:
                relax(i, j, size, 1, cost)
            else:
                relax(i, j, 1, size, cost)
        if total > cap or not joins:
            break


@dataclass
class Unit:
    """A sentence-level unit: original sentences ``o_start:o_end`` and, per correction, its
    sentences ``cors[k]`` (a range, or None for a missing correction); with the unit's
    annotation (offsets within the unit)."""

    o_start: int
    o_end: int
    cors: list[tuple[int, int] | None]
    annotation: Annotation


@dataclass
class EssayAnnotation:
    """One essay: its original's sentences, each correction's sentences (None: missing), the
    sentence groups of each correction and the edits of each group (offsets within the
    group)."""

    orig: list[Sentence]
    cors: list[list[Sentence] | None]
    groups: list[list[Group] | None]
    group_edits: list[list[list[Edit]] | None]
    error: str | None = None
    _joined: dict[Any, Sentence] = field(default_factory=dict, repr=False)

    @property
    def present(self) -> list[int]:
        """The indices of the corrections that are not missing."""
        return [k for k, c in enumerate(self.cors) if c is not None]

    def _join(self, k: int | None, start: int, end: int) -> Sentence:
        key = (k, start, end)
        found = self._joined.get(key)
        if found is None:
            sents = self.orig if k is None else self.cors[k]
            assert sents is not None
            found = self._joined[key] = join_sentences(sents[start:end]) if end > start \
                else Sentence()
        return found

    def _blocks(self, k: int, boundary_edits: bool = True) -> list[tuple[Group, list[Edit]]]:
        """Correction ``k``'s groups, a group of added sentences (0-n) joined to the group before
        it (the first group: after it), each with its edits at offsets within it (without
        ``boundary_edits``: less those of :func:`boundary_edit`)."""
        groups, per_group, cors = self.groups[k], self.group_edits[k], self.cors[k]
        assert groups is not None and per_group is not None and cors is not None
        c_len = [len(s) for s in cors]
        out: list[tuple[Group, list[Edit]]] = []
        pending: list[tuple[Group, list[Edit]]] = []  # added groups before any other
        for g, edits in zip(groups, per_group, strict=True):
            if self.error is not None:
                edits = []
            elif not boundary_edits:
                edits = [e for e in edits if not boundary_edit(e)]
            if g.o_start == g.o_end and out:
                h, done = out[-1]
                dc = sum(c_len[h.c_start:h.c_end])
                out[-1] = (Group(h.o_start, h.o_end, h.c_start, g.c_end),
                           done + [_shift(e, 0, dc) for e in edits])
                continue
            if g.o_start == g.o_end:
                pending.append((g, edits))
                continue
            if pending:
                dc = 0
                joined: list[Edit] = []
                for h, done in pending:
                    joined.extend(_shift(e, 0, dc) for e in done)
                    dc += sum(c_len[h.c_start:h.c_end])
                joined.extend(_shift(e, 0, dc) for e in edits)
                g = Group(g.o_start, g.o_end, pending[0][0].c_start, g.c_end)
                edits = joined
                pending = []
            out.append((g, edits))
        if pending:  # an empty original
            dc = 0
            joined = []
            for h, done in pending:
                joined.extend(_shift(e, 0, dc) for e in done)
                dc += sum(c_len[h.c_start:h.c_end])
            out.append((Group(0, 0, 0, len(cors)), joined))
        return out

    def _unit(self, a: int, b: int, inside: dict[int, list[tuple[Group, list[Edit]]]]) -> Unit:
        """The unit of original sentences ``a:b``, of each correction's blocks ``inside[k]``
        (which cover it)."""
        ranges: list[tuple[int, int] | None] = [None] * len(self.cors)
        edits = []
        for k, bs in inside.items():
            cors = self.cors[k]
            assert cors is not None
            ranges[k] = (bs[0][0].c_start, bs[-1][0].c_end) if bs else (0, 0)
            found: list[Edit] = []
            do = dc = 0
            for g, es in bs:
                found.extend(_shift(e, do, dc) for e in es)
                do += sum(len(s) for s in self.orig[g.o_start:g.o_end])
                dc += sum(len(s) for s in cors[g.c_start:g.c_end])
            edits.append(found)
        orig = self._join(None, a, b)
        cs = [self._join(k, *ranges[k]) for k in inside]  # type: ignore[misc]
        ann = Annotation(orig, cs, edits, [c.texts == orig.texts for c in cs], self.error)
        return Unit(a, b, ranges, ann)

    def annotation(self, boundary_edits: bool | Sequence[bool] = True) -> Annotation:
        """The essay as one :class:`~errtype.records.Annotation` over the present corrections
        (:attr:`present`): the original's tokens, each correction's tokens, edits at essay
        token offsets. ``boundary_edits=False`` (or False for a present correction) leaves out
        the edits that only join or split sentences (:func:`boundary_edit`)."""
        keep = self._keep(boundary_edits)
        return self._unit(0, len(self.orig), {k: self._blocks(k, keep[k])
                                              for k in self.present}).annotation

    def _keep(self, boundary_edits: bool | Sequence[bool]) -> dict[int, bool]:
        if isinstance(boundary_edits, bool):
            return dict.fromkeys(self.present, boundary_edits)
        return dict(zip(self.present, boundary_edits, strict=True))

    def m2_block(self, boundary_edits: bool | Sequence[bool] = True) -> M2Block:
        """The essay-level M2 block (the present corrections are annotators 0, 1, ...)."""
        return annotation_block(self.annotation(boundary_edits))

    def units(self, boundary_edits: bool | Sequence[bool] = True) -> list[Unit]:
        """The sentence-level units: the coarsest segmentation of the original's sentences that
        every present correction's groups respect (a group of added sentences belongs to the
        group before it, or the first group), each with its annotation over the
        :attr:`present` corrections (``boundary_edits``: as in :meth:`annotation`). An essay
        without sentences has no unit."""
        n = len(self.orig)
        keep = self._keep(boundary_edits)
        blocks = {k: self._blocks(k, keep[k]) for k in self.present}
        if n == 0:
            if not any(self.cors[k] for k in blocks):
                return []
            return [self._unit(0, 0, blocks)]
        cuts = set(range(1, n))
        for bs in blocks.values():
            cuts &= {g.o_end for g, _ in bs}
        bounds = [0, *sorted(cuts), n]
        at = dict.fromkeys(blocks, 0)  # per correction: its next block
        out = []
        for a, b in zip(bounds, bounds[1:], strict=False):
            inside = {}
            for k, bs in blocks.items():
                start = at[k]
                while at[k] < len(bs) and bs[at[k]][0].o_end <= b:
                    at[k] += 1
                inside[k] = bs[start:at[k]]
            out.append(self._unit(a, b, inside))
        return out

    def m2_blocks(self, boundary_edits: bool | Sequence[bool] = True) -> list[M2Block]:
        """The sentence-level M2 blocks (``--unit sentence``), one per unit (:meth:`units`)."""
        return [annotation_block(u.annotation) for u in self.units(boundary_edits)]


def boundary_edit(edit: Edit) -> bool:
    """Whether ``edit`` only joins or splits sentences: it changes nothing but punctuation and
    letter case, and one side has more sentence-final punctuation tokens (``. ! ? …``,
    ``。！？``) than the other (``. Then`` -> ``, then``; ``, then`` -> ``. Then``; not
    ``.`` -> ``!``)."""
    if _words(edit.o_str) != _words(edit.c_str):
        return False
    return _finals(edit.o_str) != _finals(edit.c_str)


def _finals(text: str) -> int:
    return sum(1 for t in text.split() if set(t) <= _FINAL)


def _words(text: str) -> list[str]:
    """The words of ``text`` lower-cased, punctuation left out."""
    return [w for w in (_PUNCT.sub("", t).lower() for t in text.split()) if w]


def _shift(e: Edit, do: int, dc: int) -> Edit:
    if e.o_start < 0 or (do == 0 and dc == 0):
        return e
    return Edit(e.o_start + do, e.o_end + do, e.c_start + dc, e.c_end + dc, e.o_str, e.c_str,
                e.type)


def joint_units(essay: EssayAnnotation) -> list[tuple[str, list[str | None]]]:
    """The sentence-level units of ``essay`` (:meth:`EssayAnnotation.units`) as texts: the
    original's tokens joined by spaces and each correction's (None where it is missing)."""
    out = []
    for u in essay.units():
        texts: list[str | None] = []
        cors = iter(u.annotation.cors)
        for r in u.cors:
            texts.append(None if r is None else next(cors).text)
        out.append((u.annotation.orig.text, texts))
    return out


def pair_by_index(orig: Sequence[Sentence], cor: Sequence[Sentence]) -> list[Group]:
    """Sentence ``i`` with sentence ``i`` (the rest of the longer side 1-0 or 0-1): no
    realignment, a baseline for measuring it."""
    k = min(len(orig), len(cor))
    return ([Group(i, i + 1, i, i + 1) for i in range(k)]
            + [Group(i, i + 1, k, k) for i in range(k, len(orig))]
            + [Group(k, k, j, j + 1) for j in range(k, len(cor))])


def annotate_essay(annotator: Any, orig: str, cors: Corrections,
                   realign: bool = True, *, lev: bool = False, merging: str = "rules",
                   merge_run_limit: int = MAX_RULE_RUN, aligner: Aligner | None = None
                   ) -> EssayAnnotation:
    """Annotate one essay (raw text; line breaks end sentences) against its corrections (a
    string, or a list whose missing entries are None): see the module docstring.
    ``realign=False``: each correction is aligned with the whole original as one sentence
    (quadratic in the essay's length; what annotating an essay as a line does). ``aligner``:
    how sentences are grouped instead of :func:`align_sentences` (e.g. :func:`pair_by_index`).
    ``lev``, ``merging``, ``merge_run_limit``: as in :meth:`errtype.Annotator.annotate`."""
    return next(iter(annotate_essays(annotator, [(orig, cors)], realign, lev=lev,
                                     merging=merging, merge_run_limit=merge_run_limit,
                                     aligner=aligner)))


def annotate_essays(annotator: Any, items: Iterable[tuple[str, Corrections]],
                    realign: bool = True, *, lev: bool = False, merging: str = "rules",
                    merge_run_limit: int = MAX_RULE_RUN, batch_size: int = 64,
                    aligner: Aligner | None = None) -> Iterator[EssayAnnotation]:
    """:func:`annotate_essay` of each ``(orig, cors)`` item, lazily, the texts of
    ``batch_size`` essays parsed together."""
    _check_merging(merging, merge_run_limit)
    group = (aligner or align_sentences) if realign else _whole
    batch: list[tuple[str, list[str | None]]] = []
    for orig, cors in items:
        if cors is None or isinstance(cors, str):
            cors = [cors]
        batch.append((orig, list(cors)))
        if len(batch) >= batch_size:
            yield from _annotate_batch(annotator, batch, group, lev, merging, merge_run_limit)
            batch = []
    if batch:
        yield from _annotate_batch(annotator, batch, group, lev, merging, merge_run_limit)


def _whole(orig: Sequence[Sentence], cor: Sequence[Sentence]) -> list[Group]:
    """Every sentence in one group (no realignment)."""
    return [Group(0, len(orig), 0, len(cor))] if orig or cor else []


def _annotate_batch(annotator: Any, batch: list[tuple[str, list[str | None]]], aligner: Aligner,
                    lev: bool, merging: str, run_limit: int) -> list[EssayAnnotation]:
    """Segment every text of the batch (tokens only where the parser can), align, tag only the
    sentences of groups that differ (in one batch), then annotate those groups."""
    origs = parse_texts(annotator, [o for o, _ in batch], tag=False)
    parsed = iter(parse_texts(annotator, [c for _, cs in batch for c in cs if c is not None],
                              corrections=True, tag=False))
    essays = []
    wanted: dict[tuple[int, int, int], None] = {}  # (essay, side: 0 orig / k + 1, sentence)
    for e, ((_, cs), orig) in enumerate(zip(batch, origs, strict=True)):
        cors = [None if c is None else next(parsed) for c in cs]
        groups: list[list[Group] | None] = []
        for k, cor in enumerate(cors):
            if cor is None:
                groups.append(None)
                continue
            gs = aligner(orig, cor)
            groups.append(gs)
            for g in gs:
                if not _same(orig[g.o_start:g.o_end], cor[g.c_start:g.c_end]):
                    wanted.update(((e, 0, i), None) for i in range(g.o_start, g.o_end))
                    wanted.update(((e, k + 1, j), None) for j in range(g.c_start, g.c_end))
        essays.append(EssayAnnotation(orig, cors, groups, []))
    keys = list(wanted)

    def sents(e: int, side: int) -> list[Sentence]:
        found = essays[e].orig if side == 0 else essays[e].cors[side - 1]
        assert found is not None
        return found

    done = tag_sentences(annotator, [sents(e, side)[i] for e, side, i in keys])
    for (e, side, i), s in zip(keys, done, strict=True):
        sents(e, side)[i] = s
    for ea in essays:
        for cor, gs in zip(ea.cors, ea.groups, strict=True):
            if cor is None or gs is None:
                ea.group_edits.append(None)
                continue
            ea.group_edits.append(annotate_groups(annotator, ea.orig, cor, gs, lev=lev,
                                                  merging=merging, merge_run_limit=run_limit))
    return essays


def annotate_groups(annotator: Any, orig: Sequence[Sentence], cor: Sequence[Sentence],
                    groups: Sequence[Group], *, lev: bool = False, merging: str = "rules",
                    merge_run_limit: int = MAX_RULE_RUN) -> list[list[Edit]]:
    """Each group's edits by the annotator's own align/merge/classify, at offsets within the
    group (its sentences joined); none for a group whose two sides have the same tokens."""
    out: list[list[Edit]] = []
    for g in groups:
        o, c = orig[g.o_start:g.o_end], cor[g.c_start:g.c_end]
        out.append([] if _same(o, c) else annotator.annotate(
            join_sentences(o), join_sentences(c), lev=lev, merging=merging,
            merge_run_limit=merge_run_limit))
    return out


def _same(a: Sequence[Sentence], b: Sequence[Sentence]) -> bool:
    """The two runs of sentences have the same tokens."""
    return [t for s in a for t in s.texts] == [t for s in b for t in s.texts]
