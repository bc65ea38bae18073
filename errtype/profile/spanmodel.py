"""A profile's learned span conventions: where a corpus cuts errtype's edits and which
neighbouring edits it annotates as one (docs/profiles.md, "Learned spans").

Both decisions look at two neighbouring changes, a left part and a right part with unchanged
tokens (the gap) between them, and are read by a binary linear model over generic features
(:func:`pair_features`: UD POS at the boundary, punctuation, operations, lengths, lemma
equality, shared changed UD features, letter similarity; never a word or a corpus). Applying
them is a dot product with numpy; the models are plain JSON numbers (:mod:`.profile`).

Order (:meth:`SpanModel.apply`): after the rules and the merge switches, first **split**: an
edit covering several alignment operations is cut between two of them where the split model
says so (unchanged tokens at the new edges left out); then **join**: each pair of neighbouring
edits at most :data:`MAX_GAP` unchanged tokens apart is made one edit (with the tokens between)
where the join model says so, each pair decided on its own and chains joined whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rapidfuzz.distance import Indel

from ..align import AlignOp
from ..lang.ud.morph import features
from ..lang.ud.text import fold_marks
from ..merge import is_punct
from ..tokens import Sentence, Token

Span = tuple[int, int, int, int]
#: a word test: is this a word of the language (the classifier's ``is_valid_word``)
Lexicon = Callable[[str], bool]
#: the most unchanged tokens between two edits the join model is asked about
MAX_GAP = 2


@dataclass
class Linear:
    """A binary logistic model: ``score = intercept + sum(coef[f] for f in features)``; the
    decision is ``score > 0``."""

    vocabulary: list[str]
    coef: list[float]
    intercept: float

    def __post_init__(self) -> None:
        if len(self.coef) != len(self.vocabulary):
            raise ValueError("model shapes do not match")
        self._index = {f: i for i, f in enumerate(self.vocabulary)}
        self._coef = np.asarray(self.coef, dtype=float)

    def score(self, features: Sequence[str]) -> float:
        cols = [self._index[f] for f in set(features) if f in self._index]
        return float(self.intercept + self._coef[cols].sum())

    def to_json(self) -> dict[str, Any]:
        return {"vocabulary": self.vocabulary,
                "coef": [round(float(x), 6) for x in self.coef],
                "intercept": round(float(self.intercept), 6)}

    @classmethod
    def from_json(cls, data: Any) -> Linear:
        return cls([str(f) for f in data["vocabulary"]], [float(x) for x in data["coef"]],
                   float(data["intercept"]))


@dataclass
class SpanModel:
    """The learned split and join decisions (either may be None: not learned)."""

    split: Linear | None = None
    join: Linear | None = None
    max_gap: int = MAX_GAP

    def apply(self, spans: Sequence[Sequence[int]], seq: Sequence[AlignOp], orig: Sentence,
              cor: Sentence, lexicon: Lexicon | None = None) -> list[Span]:
        """``spans`` (in order) cut and joined as the corpus does (``lexicon``: the
        language's word test, as when the model was fitted)."""
        out: list[Span] = [(s[0], s[1], s[2], s[3]) for s in spans]
        if self.split is not None:
            out = split_spans(out, seq, orig, cor, self.split, lexicon)
        if self.join is not None:
            out = join_spans(out, orig, cor, self.join, self.max_gap, lexicon)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"max_gap": self.max_gap,
                "split": self.split.to_json() if self.split else None,
                "join": self.join.to_json() if self.join else None}

    @classmethod
    def from_json(cls, data: Any) -> SpanModel:
        return cls(Linear.from_json(data["split"]) if data.get("split") else None,
                   Linear.from_json(data["join"]) if data.get("join") else None,
                   int(data.get("max_gap", MAX_GAP)))


# --- candidates ----------------------------------------------------------------------------------

def _expand(op: AlignOp, orig: Sentence, cor: Sentence) -> list[AlignOp]:
    """A transposition as the shorter ones (or substitutions, or matches) it is made of:
    ``hodne svatků -> hodně svátků``, a transposition up to diacritics, is two changes."""
    if not op.op.startswith("T") or op.o_end - op.o_start != op.c_end - op.c_start:
        return [op]
    out: list[AlignOp] = []
    left: Counter[str] = Counter()
    last = 0
    for j in range(op.o_end - op.o_start):
        left[fold_marks(orig[op.o_start + j].lower)] += 1
        left[fold_marks(cor[op.c_start + j].lower)] -= 1
        if any(left.values()):
            continue
        os_, cs_, n = op.o_start + last, op.c_start + last, j + 1 - last
        if n > 1:
            kind = f"T{n}"
        else:
            kind = "M" if orig[os_].text == cor[cs_].text else "S"
        out.append(AlignOp(kind, os_, os_ + n, cs_, cs_ + n))
        last = j + 1
    return out


def _ops_in(span: Span, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence
            ) -> list[AlignOp]:
    """The alignment operations inside ``span`` (on both sides), transpositions expanded."""
    return [x for a in seq if span[0] <= a.o_start and a.o_end <= span[1]
            and span[2] <= a.c_start and a.c_end <= span[3]
            and (a.o_start, a.c_start) != (a.o_end, a.c_end)
            for x in _expand(a, orig, cor)]


def _cover(ops: Sequence[AlignOp]) -> Span | None:
    """The span of ``ops`` without unchanged operations at its edges (None: all unchanged)."""
    changed = [i for i, a in enumerate(ops) if a.op != "M"]
    if not changed:
        return None
    a, b = ops[changed[0]], ops[changed[-1]]
    return (a.o_start, b.o_end, a.c_start, b.c_end)


def _tiling(span: Span, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence
            ) -> list[AlignOp]:
    """The alignment operations that tile ``span`` exactly, or [] when they do not."""
    ops = _ops_in(span, seq, orig, cor)
    if len(ops) < 2 or (ops[0].o_start, ops[0].c_start) != (span[0], span[2]) \
            or (ops[-1].o_end, ops[-1].c_end) != (span[1], span[3]):
        return []
    if any((x.o_end, x.c_end) != (y.o_start, y.c_start)
           for x, y in zip(ops, ops[1:], strict=False)):
        return []
    return ops


def cut_points(span: Span, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence
               ) -> list[tuple[int, Span, Span]]:
    """Each place ``span`` can be cut between two of its alignment operations so that both
    sides hold a change: (index of the first operation after the cut, left part, right part),
    unchanged edges left out. Only spans whose operations tile them exactly are cut."""
    ops = _tiling(span, seq, orig, cor)
    out = []
    for k in range(1, len(ops)):
        left, right = _cover(ops[:k]), _cover(ops[k:])
        if left is not None and right is not None and ops[k - 1].op != "M":
            out.append((k, left, right))
    return out


def split_at(span: Span, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
             cuts: Sequence[int]) -> list[Span]:
    """``span`` cut before the operations ``cuts`` (indexes of :func:`cut_points`)."""
    if not cuts:
        return [span]
    ops = _tiling(span, seq, orig, cor)
    bounds = [0, *sorted(cuts), len(ops)]
    pieces = [_cover(ops[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    return [p for p in pieces if p is not None]


def split_spans(spans: Sequence[Span], seq: Sequence[AlignOp], orig: Sentence, cor: Sentence,
                model: Linear, lexicon: Lexicon | None = None) -> list[Span]:
    """Each span cut where ``model`` scores its cut point above 0."""
    out: list[Span] = []
    for span in spans:
        cuts = [k for k, left, right in cut_points(span, seq, orig, cor)
                if model.score(pair_features(left, right, orig, cor, lexicon)) > 0]
        out.extend(split_at(span, seq, orig, cor, cuts))
    return out


def join_pairs(spans: Sequence[Span], max_gap: int) -> list[int]:
    """Indexes ``i`` whose spans ``i`` and ``i + 1`` are candidates for a join."""
    return [i for i in range(len(spans) - 1)
            if 0 <= spans[i + 1][0] - spans[i][1] <= max_gap
            and spans[i + 1][0] - spans[i][1] == spans[i + 1][2] - spans[i][3]]


def join_spans(spans: Sequence[Span], orig: Sentence, cor: Sentence, model: Linear,
               max_gap: int = MAX_GAP, lexicon: Lexicon | None = None) -> list[Span]:
    """Neighbouring spans joined where ``model`` scores the pair above 0."""
    joined = {i for i in join_pairs(spans, max_gap)
              if model.score(pair_features(spans[i], spans[i + 1], orig, cor, lexicon)) > 0}
    out: list[Span] = []
    for i, span in enumerate(spans):
        if i - 1 in joined:
            prev = out[-1]
            out[-1] = (prev[0], span[1], prev[2], span[3])
        else:
            out.append(span)
    return out


# --- features ------------------------------------------------------------------------------------

def _op(o: Sequence[Token], c: Sequence[Token]) -> str:
    return "M" if not o else "U" if not c else "R"


def _text(toks: Sequence[Token]) -> str:
    return " ".join(t.lower for t in toks)


def _sim(a: str, b: str) -> int:
    """Letter similarity of two texts in tenths (0-10); -1 when either is empty."""
    if not a or not b:
        return -1
    return int(10 * (1 - Indel.normalized_distance(a, b)))


def _changed(o: Sequence[Token], c: Sequence[Token]) -> set[str]:
    """UD features that differ between aligned words of a one-for-one change."""
    if len(o) != len(c):
        return set()
    out: set[str] = set()
    for a, b in zip(o, c, strict=True):
        fa, fb = features(a.feats), features(b.feats)
        out |= {f for f in set(fa) | set(fb) if fa.get(f) != fb.get(f)}
    return out


def _part(name: str, o: Sequence[Token], c: Sequence[Token], out: list[str],
          lexicon: Lexicon | None) -> str:
    """Append the features of one part; return its short description (operation,
    punctuation, case-only or letter similarity) for the features of the pair."""
    op = _op(o, c)
    out.append(f"{name}op={op}")
    out.append(f"{name}len={min(len(o), 3)}>{min(len(c), 3)}")
    toks = [*o, *c]
    out.append(f"{name}punct={all(is_punct(t) for t in toks)}")
    out.append(f"{name}anypunct={any(is_punct(t) for t in toks)}")
    if o and c:
        out.append(f"{name}lemma_eq={o[-1].lemma.lower() == c[-1].lemma.lower()}")
        out.append(f"{name}case_only={_text(o) == _text(c)}")
        out.append(f"{name}sim={min(_sim(_text(o), _text(c)) // 2, 4)}")
        out.append(f"{name}nspace={_text(o).replace(' ', '') == _text(c).replace(' ', '')}")
        out.append(f"{name}pos2={o[-1].pos}>{c[-1].pos}")
    for t in o:
        out.append(f"{name}opos={t.pos}")
    for t in c:
        out.append(f"{name}cpos={t.pos}")
    words = [t.text for t in o if not is_punct(t)]
    if words:
        out.append(f"{name}upper={all(w.isupper() for w in words)}")
    if lexicon is not None:     # a misspelt word corrected, or a word replaced
        for side, toks in (("o", o), ("c", c)):
            found = [t.text for t in toks if not is_punct(t)]
            if found:
                out.append(f"{name}{side}lex={all(lexicon(w) for w in found)}")
    if all(is_punct(t) for t in toks):
        return f"{op}p"
    if o and c and _text(o) == _text(c):
        return f"{op}c"
    if o and c:
        return f"{op}{min(_sim(_text(o), _text(c)) // 3, 3)}"
    return op


def pair_features(left: Span, right: Span, orig: Sentence, cor: Sentence,
                  lexicon: Lexicon | None = None) -> list[str]:
    """Feature names of two neighbouring changes ``left`` and ``right`` (spans, ``left``
    first) and the unchanged tokens between them (``lexicon``: whether a word is one of the
    language, the classifier's Hunspell test)."""
    lo, lc = orig[left[0]:left[1]], cor[left[2]:left[3]]
    ro, rc = orig[right[0]:right[1]], cor[right[2]:right[3]]
    gap = orig[left[1]:right[0]]
    out = ["bias", f"gap={min(len(gap), 3)}"]
    kinds = f"{_part('l', lo, lc, out, lexicon)}|{_part('r', ro, rc, out, lexicon)}"
    out.append(f"ops={_op(lo, lc)}{_op(ro, rc)}")
    out.append(f"kinds={kinds}")
    out.append(f"kinds_gap={kinds}|{min(len(gap), 3)}")
    out.extend(f"gpos={t.pos}" for t in gap)
    if any(is_punct(t) for t in gap):
        out.append("gpunct")
    # the tokens at the boundary, on each side
    lb = [t.pos for t in (lo[-1:] or lc[-1:])]
    rb = [t.pos for t in (ro[:1] or rc[:1])]
    if lb and rb:
        out.append(f"bpos={lb[0]}|{rb[0]}")
        out.append(f"bpos_kinds={lb[0]}|{rb[0]}|{kinds}")
    out.append(f"bpunct={bool(lo[-1:] or lc[-1:]) and is_punct((lo or lc)[-1])}"
               f"|{bool(ro or rc) and is_punct((ro or rc)[0])}")
    # the same feature changed on both sides (agreement), the same lemma changed twice
    shared = _changed(lo, lc) & _changed(ro, rc)
    out.append(f"shared_feat={bool(shared)}")
    out.extend(f"shared={f}" for f in shared)
    # a move: what one side drops the other adds
    move = max(_sim(_text(lo), _text(rc)), _sim(_text(ro), _text(lc)))
    out.append(f"move={max(move, 0) // 2}")
    lem_l = {t.lemma.lower() for t in [*lo, *lc] if not is_punct(t)}
    lem_r = {t.lemma.lower() for t in [*ro, *rc] if not is_punct(t)}
    out.append(f"lemma_shared={bool(lem_l & lem_r)}")
    # a syntactic link between the parts (one's head in the other), on each side
    for side, sent, a, b in (("o", orig, left[:2], right[:2]), ("c", cor, left[2:], right[2:])):
        if a[0] < a[1] and b[0] < b[1]:
            linked = any(b[0] <= sent[i].head < b[1] for i in range(*a)) or \
                any(a[0] <= sent[i].head < a[1] for i in range(*b))
            out.append(f"{side}link={linked}")
            out.append(f"{side}dep={sent[a[1] - 1].dep.split(':')[0]}|"
                       f"{sent[b[0]].dep.split(':')[0]}")
    total = len(lo) + len(lc) + len(ro) + len(rc)
    out.append(f"size={min(total, 8)}")
    return out
