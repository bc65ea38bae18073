"""Language: everything language-specific the engine needs, supplied as methods.

A language plugs into the pipeline stages (alignment costs, transposition test, merge rules,
classifier, default parser) instead of forking them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..align import AlignOp
from ..parse import Parser
from ..tokens import Sentence, Token

if TYPE_CHECKING:
    from ..edit import Edit

__all__ = ["AlignOp", "Language", "Parser", "linguistic_cost", "prefixed_type"]


class Language(ABC):
    """Base class of a language plug-in."""

    code: str = ""
    name: str = ""
    #: transposition walk condition: False = neighbouring diagonal cells differ (ERRANT >= 2.1),
    #: True = the later cell is strictly larger (ERRANT 2.0.0 / Czech ERRANT).
    strict_walk: bool = False

    @abstractmethod
    def make_parser(self, **options: Any) -> Parser:
        """The default parser of this language, configured by backend options."""

    @abstractmethod
    def substitution_cost(self, o: Token, c: Token) -> float:
        """Cost of substituting ``o`` by ``c`` (texts differ); must be in (0, 2)."""

    @abstractmethod
    def transposable(self, o: Sequence[Token], c: Sequence[Token]) -> bool:
        """Whether the equal-length windows ``o`` and ``c`` count as a transposition."""

    def substitution_matrix(self, orig: Sentence, cor: Sentence) -> list[list[float]] | None:
        """Optional fast path: every ``substitution_cost(orig[i], cor[j])`` at once, or None.

        Must return exactly the values ``substitution_cost`` would (cells whose texts match are
        never read).
        """
        return None

    #: smallest window (tokens per side) from which ``transposable`` is exactly "the multisets of
    #: the ``transposition_keys`` are equal"; shorter windows are tested with ``transposable``
    transposition_key_window: int = 2

    def transposition_keys(self, sent: Sentence) -> Sequence[object] | None:
        """Optional fast path: per-token keys whose multiset equality decides ``transposable`` for
        windows of at least ``transposition_key_window`` tokens (the aligner then finds such
        windows in O(1) instead of walking), else None."""
        return None

    @abstractmethod
    def merge_rules(
        self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence
    ) -> list[tuple[int, int, int, int]]:
        """Linguistic merging of a full alignment into edit spans (the ``rules`` strategy)."""

    @abstractmethod
    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The error type of ``edit`` (with M:/U:/R: prefix, or UNK)."""


def prefixed_type(o: Sequence[Token], c: Sequence[Token], same_text: bool,
                  one_sided: Callable[[Sequence[Token]], str],
                  two_sided: Callable[[Sequence[Token], Sequence[Token]], str]) -> str:
    """ERRANT's language-independent top level of typing.

    UNK for an empty or detection-only edit; ``M:``/``U:`` + one_sided for insertions and
    deletions; when the last tokens differ only in case and a side has several tokens, the last
    token is dropped from both sides and typing starts again (so "Cat" -> "The cat" is M:DET);
    otherwise ``R:`` + two_sided.
    """
    if not o and not c:
        return "UNK"
    if same_text and o and c:
        return "UNK"
    while o and c and o[-1].lower == c[-1].lower and (len(o) > 1 or len(c) > 1):
        o, c = o[:-1], c[:-1]
    if not o:
        return "M:" + one_sided(c)
    if not c:
        return "U:" + one_sided(o)
    return "R:" + two_sided(o, c)


def linguistic_cost(o: Token, c: Token, char_cost: Callable[[str, str], float],
                    content_pos: frozenset[str]) -> float:
    """ERRANT's substitution cost: 0 for a case-only change, else lemma (0/0.499) + POS
    (0 equal / 0.25 both content / 0.5) + character cost, summed in that order."""
    if o.lower == c.lower:
        return 0.0
    lemma_cost = 0.0 if o.lemma == c.lemma else 0.499
    if o.pos == c.pos:
        pos_cost = 0.0
    elif o.pos in content_pos and c.pos in content_pos:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    return (lemma_cost + pos_cost) + char_cost(o.text, c.text)
