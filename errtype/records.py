"""The records a stream of annotations passes around: input items and their Annotations.

Kept apart from :mod:`errtype.annotator` (which annotates) and :mod:`errtype.stream` (which
batches and fans out), so that both import these from here and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .edit import Edit
from .tokens import Sentence

__all__ = ["Annotation", "Item", "Text", "too_long"]

#: an input item: (original, correction) or (original, [correction, ...]); each a string or an
#: already parsed Sentence (e.g. read from CoNLL-U)
Text = str | Sentence
Item = tuple[Text, Text | Sequence[Text]]


def too_long(limit: int) -> str:
    """Why an item with more than ``limit`` tokens was skipped (``max_tokens``, ``--max-tokens``:
    every command's wording)."""
    return f"more than {limit} tokens (the max_tokens limit)"


@dataclass
class Annotation:
    """One original sentence with its corrections and the typed edits of each correction.

    ``error`` is set (and ``edits`` are empty) for an item that was skipped: too long for
    ``max_tokens``, or failed with ``on_error="skip"``; it holds the reason.
    """

    orig: Sentence
    cors: list[Sentence] = field(default_factory=list)
    edits: list[list[Edit]] = field(default_factory=list)
    #: per correction: True when it is token-identical to the original (an M2 noop)
    noop: list[bool] = field(default_factory=list)
    error: str | None = None
    #: per correction, when the language lists them (``equal_cost_alternatives``): every
    #: distinct equal-cost edit sequence, ``edits[k]`` first; else empty
    alternatives: list[list[list[Edit]]] = field(default_factory=list)
