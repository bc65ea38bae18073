"""ERRANT's ``errant.en.merger``: ``get_rule_edits(alignment)`` with ERRANT 3.0.2's rules."""

from __future__ import annotations

from ...lang import get_language
from ..alignment import Alignment
from ..annotator import LanguageMerger
from ..edit import Edit

__all__ = ["get_rule_edits"]


def get_rule_edits(alignment: Alignment) -> list[Edit]:
    """Untyped edits of an alignment merged by English linguistic rules."""
    return LanguageMerger(get_language("en")).get_rule_edits(alignment)
