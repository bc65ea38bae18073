"""ERRANT's ``errant.en.classifier``: ``classify(edit)`` with ERRANT 3.0.2's English types."""

from __future__ import annotations

from typing import Any

from ...lang import get_language
from ..annotator import LanguageClassifier
from ..edit import Edit

__all__ = ["classify", "nlp"]

#: ERRANT sets this module attribute to the annotator's pipeline; errtype does not need it
nlp: Any = None


def classify(edit: Edit) -> Edit:
    """Set ``edit.type`` to its ERRANT 3.0.2 type; returns the same edit."""
    return LanguageClassifier(get_language("en")).classify(edit)
