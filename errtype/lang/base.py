"""Language: everything language-specific the engine needs, supplied as methods.

A language plugs into the pipeline stages (alignment costs, transposition test, merge rules,
classifier, default parser) instead of forking them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ..tokens import Sentence, Token

if TYPE_CHECKING:
    from ..edit import Edit


class AlignOp(NamedTuple):
    """One alignment step: op is M, S, I, D or T<k>; spans are end-exclusive token offsets."""

    op: str
    o_start: int
    o_end: int
    c_start: int
    c_end: int


class Parser(Protocol):
    """A backend that turns strings into Sentences."""

    def parse(self, text: str, tokenize: bool = False) -> Sentence: ...

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]: ...


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

    def transposition_keys(self, sent: Sentence) -> Sequence[object] | None:
        """Optional fast path: when ``transposable`` is "the multisets of these per-token keys are
        equal", return the keys (the aligner then tests windows incrementally), else None."""
        return None

    @abstractmethod
    def merge_rules(
        self, seq: Sequence[AlignOp], orig: Sentence, cor: Sentence
    ) -> list[tuple[int, int, int, int]]:
        """Linguistic merging of a full alignment into edit spans (the ``rules`` strategy)."""

    @abstractmethod
    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        """The error type of ``edit`` (with M:/U:/R: prefix, or UNK)."""
