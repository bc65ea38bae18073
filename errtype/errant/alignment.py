"""ERRANT 3.0.2's ``errant.alignment.Alignment``, computed by errtype's aligner."""

from __future__ import annotations

from typing import Any

from ..align import Alignment as _Alignment
from ..align import AlignOp, align
from ..lang import Language
from ..merge import merge
from ..tokens import Sentence
from ._bridge import language_of, sentence_of
from .edit import Edit

__all__ = ["Alignment"]

AlignTuple = tuple[str, int, int, int, int]


class _CustomCost:
    """A language whose substitution cost is a subclass's ``get_sub_cost`` on spaCy tokens."""

    def __init__(self, language: Language, alignment: Alignment) -> None:
        self._language, self._alignment = language, alignment

    def __getattr__(self, name: str) -> Any:
        return getattr(self._language, name)

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> list[list[float]]:
        # the aligner may pass prefixes of the Docs' sentences (it skips a common suffix)
        a = self._alignment
        return [[a.get_sub_cost(a.orig[i], a.cor[j]) for j in range(len(cor))]
                for i in range(len(orig))]


class Alignment:
    """The alignment of two spaCy Docs: ``cost_matrix``, ``op_matrix`` and ``align_seq`` (a list
    of ``(op, o_start, o_end, c_start, c_end)`` tuples), as ERRANT 3.0.2 computes them.

    ``language`` (errtype extension, keyword only): an errtype language or code; by default the
    Docs' spaCy language (English when errtype has no such language). A subclass overriding
    :meth:`get_sub_cost` gets its own cost used by the aligner.
    """

    def __init__(self, orig: Any, cor: Any, lev: bool = False, *,
                 language: Language | str | None = None) -> None:
        self.orig = orig
        self.cor = cor
        self.lev = lev
        self.language = language_of(orig, language)
        self._seq: list[AlignOp] = []
        self._result: _Alignment | None = None
        self._cost_matrix: list[list[float]] | None = None
        self._op_matrix: list[list[str]] | None = None
        if type(self).align is Alignment.align:
            # the matrices are computed when read (annotate never reads them)
            self._result = self._aligned(lev)
        else:  # a subclass's own align
            self.cost_matrix, self.op_matrix = self.align(lev)
        self.align_seq = self.get_cheapest_align_seq()

    @property
    def cost_matrix(self) -> list[list[float]]:
        """ERRANT's (n+1) x (m+1) cost matrix."""
        if self._cost_matrix is None and self._result is not None:
            self._cost_matrix = self._result.cost_matrix
        return self._cost_matrix  # type: ignore[return-value]

    @cost_matrix.setter
    def cost_matrix(self, value: list[list[float]]) -> None:
        self._cost_matrix = value

    @property
    def op_matrix(self) -> list[list[str]]:
        """ERRANT's (n+1) x (m+1) operation matrix."""
        if self._op_matrix is None and self._result is not None:
            self._op_matrix = self._result.op_matrix
        return self._op_matrix  # type: ignore[return-value]

    @op_matrix.setter
    def op_matrix(self, value: list[list[str]]) -> None:
        self._op_matrix = value

    def _aligned(self, lev: bool) -> _Alignment:
        """errtype's alignment of the two Docs (the cheapest sequence kept for
        :meth:`get_cheapest_align_seq`)."""
        lang: Any = self.language
        if type(self).get_sub_cost is not Alignment.get_sub_cost and not lev:
            lang = _CustomCost(self.language, self)
        # ERRANT's DP at every length (no anchored blocks), so its matrices exist
        result = align(sentence_of(self.orig), sentence_of(self.cor), lang, lev,
                       max_full_cells=None)
        self._seq = result.align_seq
        return result

    def align(self, lev: bool) -> tuple[list[list[float]], list[list[str]]]:
        """The cost and operation matrices (and the cheapest sequence, kept for
        :meth:`get_cheapest_align_seq`)."""
        result = self._aligned(lev)
        return result.cost_matrix, result.op_matrix

    def get_sub_cost(self, o: Any, c: Any) -> float:
        """The linguistic substitution cost of spaCy tokens ``o`` and ``c``."""
        return self.language.substitution_cost(sentence_of(o.doc)[o.i], sentence_of(c.doc)[c.i])

    def get_cheapest_align_seq(self) -> list[AlignTuple]:
        """The first cheapest operation sequence, left to right."""
        return [tuple(a) for a in self._seq]  # type: ignore[misc]

    def _spans(self, strategy: str) -> list[Edit]:
        seq = [AlignOp(*a) for a in self.align_seq]
        spans = merge(seq, sentence_of(self.orig), sentence_of(self.cor), self.language,
                      strategy)
        return [Edit(self.orig, self.cor, s) for s in spans]

    def get_all_split_edits(self) -> list[Edit]:
        """all-split: one edit per non-match operation."""
        return self._spans("all-split")

    def get_all_merge_edits(self) -> list[Edit]:
        """all-merge: adjacent non-match operations merged."""
        return self._spans("all-merge")

    def get_all_equal_edits(self) -> list[Edit]:
        """all-equal: adjacent operations of the same kind merged."""
        return self._spans("all-equal")

    def get_rule_edits(self) -> list[Edit]:
        """rules: the language's linguistic merging (errtype extension; ERRANT keeps it in
        ``errant.en.merger.get_rule_edits``)."""
        return self._spans("rules")

    @staticmethod
    def merge_edits(seq: list[AlignTuple]) -> list[AlignTuple]:
        """A run of operations as one ``("X", o_start, o_end, c_start, c_end)`` span."""
        return [("X", seq[0][1], seq[-1][2], seq[0][3], seq[-1][4])] if seq else seq

    def __str__(self) -> str:
        return "\n".join([
            " ".join(["Orig:"] + [t.text for t in self.orig]),
            " ".join(["Cor:"] + [t.text for t in self.cor]),
            "\n".join(["Cost Matrix:"] + [str(r) for r in self.cost_matrix]),
            "\n".join(["Operation Matrix:"] + [str(r) for r in self.op_matrix]),
            "Best alignment: " + str([a[0] for a in self.align_seq]),
        ])


