"""Parsing backends: anything that turns strings into :class:`~errtype.tokens.Sentence` objects.

A backend implements the :class:`Parser` protocol; the engine (aligner, merger, classifiers) only
ever sees the Sentences it produces.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from ..tokens import Sentence

__all__ = ["Parser"]


class Parser(Protocol):
    """A backend that turns strings into Sentences.

    Optional: ``parse_text(text, tag=True) -> list[Sentence] | None``, raw text (an essay) cut
    into its sentences by the backend's own segmenter, tokenised and (with ``tag``) tagged; a
    line break always ends a sentence; None where the backend cannot split. ``parse_texts`` is
    the same for many texts in batches. Without them, :mod:`errtype.essay.segment` cuts each
    tokenised line with :func:`errtype.document.sentence_starts`.
    """

    def parse(self, text: str, tokenize: bool = False) -> Sentence: ...

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]: ...
