"""GoToScorer (Gotou, Nagata, Mita, Hanawa, COLING 2020): precision, recall and F-beta in which
each gold chunk weighs by how hard it is to correct, judged by a set of systems.

Definitions, as the authors' scorer (gotutiyan/GTS ``gotoscorer.py``) computes them:

* **Chunks.** A sentence of one gold annotator is cut into chunks: each gold edit (``noop``,
  ``UNK`` and ``Um`` edits are left out), each token no edit covers, and an empty insertion
  chunk at every boundary that does not already hold an insertion edit (before each chunk and at
  the end). A system's edits are cut the same way.
* **Judging.** A system *corrects* a gold chunk when it has a chunk with the same span and the
  same text (an untouched token, an empty insertion slot, or the very edit). Otherwise its chunks
  with the same span but another text, or overlapping a non-empty gold chunk, make it *change*
  the chunk when one of them is an edit; with no such chunk it left the chunk alone, which is
  right for a token and wrong for a gold edit.
* **Weights.** With N systems of which n_c corrected chunk c, ``w_c = a - (n_c + b) / (N + c)``
  (defaults a = 1, b = c = 0: the share of systems that fail the chunk). Chunks every system
  gets right weigh 0.
* **Scores** of a system, summed over chunks: changed and correct -> TP += w; changed and wrong
  -> FP += w, and FN += w if the chunk is a gold edit; unchanged and correct -> TN += w;
  unchanged and wrong -> FN += w. P = TP / (TP + FP), R = TP / (TP + FN) and F-beta are 0 when
  their denominator is 0 (unlike M2 and ERRANT: a system that changes nothing scores 0);
  accuracy = (TP + TN) / Σ w.

The weights depend on the set of systems: :meth:`GoToMetric.prepare` takes the systems scored
together (``errtype score`` passes every ``--hyp``), or ``weights=FILE`` reads a weight file in
the authors' format (first line N, then per sentence the n_c of its chunks; written by
:func:`write_weights`). Only one gold annotator is used (``coder``, default 0; the command line's
``-O goto.annotator=N`` of earlier versions means the same), as in the original.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import InputError
from ...m2 import M2Block, M2Edit, none_as_empty
from ...textio import atomic_output, read_lines
from ..common import ScoreResult, f_key, signature
from ..options import option
from ..registry import ScoreInput, register
from .base import EditMetric

__all__ = ["Chunk", "GoToMetric", "chunks", "judge", "read_weights", "write_weights"]

SKIPPED_TYPES = frozenset({"noop", "UNK", "Um"})


@dataclass(frozen=True, slots=True)
class Chunk:
    """A span of the source and the text it becomes; ``edited`` for an edit's chunk."""

    start: int
    end: int
    text: str
    edited: bool = False
    type: str = ""

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end


def chunks(tokens: Sequence[str], edits: Sequence[M2Edit]) -> list[Chunk]:
    """The chunks of one annotator's edits (in file order) over the source tokens."""
    marked = [Chunk(e.start, e.end, none_as_empty(e.cor), True, e.type) for e in edits
              if e.type not in SKIPPED_TYPES and not e.is_noop]
    basic: list[Chunk] = []
    pos = 0
    for c in marked:
        basic += [Chunk(i, i + 1, tokens[i]) for i in range(pos, c.start)]
        basic.append(c)
        pos = c.end
    basic += [Chunk(i, i + 1, tokens[i]) for i in range(pos, len(tokens))]
    out: list[Chunk] = []
    for i, c in enumerate(basic):
        if not c.is_insertion and not (i and basic[i - 1].is_insertion):
            out.append(Chunk(c.start, c.start, ""))
        out.append(c)
    if not basic or not basic[-1].is_insertion:
        out.append(Chunk(len(tokens), len(tokens), ""))
    return out


def judge(gold: Chunk, system: Sequence[Chunk]) -> tuple[bool, bool]:
    """(changed, correct) of a system's chunks on one gold chunk."""
    found: bool | None = None  # changed, once a clashing chunk is seen
    for s in system:
        if s.start == gold.start and s.end == gold.end:
            if s.text == gold.text:
                return s.edited, True
        elif gold.is_insertion or not (gold.start <= s.start < gold.end
                                       or s.start <= gold.start < s.end):
            continue
        found = s.edited if found is None else found or s.edited
    if found is None:
        return False, not gold.edited
    return found, False


def _coder_edits(block: M2Block, coder: int) -> list[M2Edit]:
    return [e for e in block.edits if e.annotator == coder]


def read_weights(path: str | os.PathLike[str]) -> tuple[int, list[list[int]]]:
    """A weight file: the number of systems and, per sentence, how many corrected each chunk."""
    lines = [ln for ln in read_lines(path)]
    if not lines:
        raise InputError("empty weight file", path=str(path))
    try:
        n = int(lines[0].text.strip())
        rows = [[int(x) for x in ln.text.split()] for ln in lines[1:]]
    except ValueError as exc:
        raise InputError(f"not a GoToScorer weight file: {exc}", path=str(path)) from None
    while rows and not rows[-1]:
        rows.pop()
    return n, rows


def write_weights(path: str | os.PathLike[str], systems: int, n_correct: Sequence[Sequence[int]]
                  ) -> None:
    """Write a weight file in the authors' format (readable by their ``-w_file``)."""
    with atomic_output(path) as fh:
        fh.write(f"{systems}\n")
        for row in n_correct:
            fh.write(" ".join(map(str, row)) + "\n")


@register("goto")
@dataclass(kw_only=True)
class GoToMetric(EditMetric):
    """GoToScorer against the gold coder ``coder`` (one annotator's edits in the gold M2);
    system edits are the systems' ERRANT edits (``lang``'s annotator) unless given. ``a``,
    ``b``, ``c``: the weight function."""

    coder: int = option(0, ge=0)
    a: float = option(1.0)
    b: float = option(0.0)
    c: float = option(0.0)
    weights: str | None = None
    name: str = "goto"
    #: systems in the weights, and per sentence and gold chunk how many corrected it
    systems: int = field(default=0, init=False, repr=False, compare=False)
    n_correct: list[list[int]] = field(default_factory=list, init=False, repr=False,
                                       compare=False)
    weight_source: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.weights is not None:
            self.systems, self.n_correct = read_weights(self.weights)
            self.weight_source = f"file:{os.path.basename(self.weights)}"

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"beta": float(self.beta), "ref": self.coder}
        if (self.a, self.b, self.c) != (1.0, 0.0, 0.0):
            out["weight"] = f"{self.a:g}-(n+{self.b:g})/(N+{self.c:g})"
        out["weights"] = self.weight_source or "unset"
        if self.systems:
            out["systems"] = self.systems
        out.update(self.edit_settings())
        out["compat"] = "gotoscorer-1.1"
        return out

    def _gold_chunks(self, gold: Sequence[M2Block]) -> list[list[Chunk]]:
        return [chunks(b.tokens, _coder_edits(b, self.coder)) for b in gold]

    def _judge(self, data: ScoreInput, gold_chunks: Sequence[Sequence[Chunk]]
               ) -> list[list[tuple[bool, bool]]]:
        key = ("goto-verdicts", self.coder, self.lang)
        hit = data.shared.get(key)
        if hit is None:
            hyp = self.hyp_blocks(data)
            hit = data.shared[key] = [
                [judge(g, sys) for g in gcs]
                for gcs, sys in zip(gold_chunks, (chunks(b.tokens, _coder_edits(b, 0))
                                                  for b in hyp), strict=True)]
        return hit

    def prepare(self, systems: Sequence[ScoreInput]) -> None:
        """Count, for every gold chunk, how many of ``systems`` correct it (the weights)."""
        if not systems:
            raise InputError("GoToScorer needs at least one system to weigh the gold chunks")
        gold_chunks = self._gold_chunks(systems[0].gold)
        counts = [[0] * len(cs) for cs in gold_chunks]
        for data in systems:
            for row, verdicts in zip(counts, self._judge(data, gold_chunks), strict=True):
                for j, (_, correct) in enumerate(verdicts):
                    row[j] += correct
        self.systems, self.n_correct = len(systems), counts
        self.weight_source = f"{len(systems)}-systems"

    def weight_file(self, path: str | os.PathLike[str]) -> None:
        """Write the prepared weights (the authors' ``-gen_w_file``)."""
        if not self.systems:
            raise InputError("no weights to write: prepare() the metric with the systems first")
        write_weights(path, self.systems, self.n_correct)

    def score(self, data: ScoreInput) -> ScoreResult:
        if not self.systems:
            raise InputError("GoToScorer needs weights: prepare() it with the systems scored "
                             "together, or give weights=FILE")
        gold_chunks = self._gold_chunks(data.gold)
        if [len(cs) for cs in gold_chunks] != [len(r) for r in self.n_correct]:
            raise InputError(f"the weights ({self.weight_source}) do not fit the gold chunks "
                             f"of gold coder {self.coder}")
        N = self.systems + self.c
        totals = {"tp": 0.0, "fp": 0.0, "fn": 0.0, "tn": 0.0, "weight": 0.0}
        rows = []
        for i, (gcs, verdicts, ncs) in enumerate(zip(gold_chunks, self._judge(data, gold_chunks),
                                                     self.n_correct, strict=True)):
            s = {"tp": 0.0, "fp": 0.0, "fn": 0.0, "tn": 0.0, "weight": 0.0}
            for g, (changed, correct), n in zip(gcs, verdicts, ncs, strict=True):
                w = self.a - (n + self.b) / N
                kinds = ["weight"]
                if changed and correct:
                    kinds.append("tp")
                elif changed:
                    kinds += ["fp", "fn"] if g.edited else ["fp"]
                else:
                    kinds.append("tn" if correct else "fn")
                for k in kinds:  # the corpus sums add chunk by chunk, as the original
                    s[k] += w
                    totals[k] += w
            sp, sr, sf, _ = _scores(s, self.beta)
            rows.append({"id": i, **s, "p": sp, "r": sr, "f": sf})
        p, r, f, acc = _scores(totals, self.beta)
        return ScoreResult(
            metric=self.name,
            corpus={"p": p, "r": r, f_key(self.beta): f, "accuracy": acc},
            signature=signature(self.name, self.settings()),
            counts={**totals, "sentences": len(rows)},
            sentences=rows,
            notes=[f"chunk weights from {self.weight_source}"],
        )


def _scores(t: dict[str, float], beta: float) -> tuple[float, float, float, float]:
    """P, R, F-beta and accuracy, 0 where a denominator is 0 (the original's convention)."""
    tp, fp, fn = t["tp"], t["fp"], t["fn"]
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    b2 = beta * beta
    f = (1 + b2) * p * r / (b2 * p + r) if b2 * p + r else 0.0
    acc = (tp + t["tn"]) / t["weight"] if t["weight"] else 0.0
    return p, r, f, acc
