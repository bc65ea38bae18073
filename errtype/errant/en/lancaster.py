"""ERRANT's ``errant.en.lancaster.LancasterStemmer`` (the Paice/Husk stemmer of its classifier)."""

from __future__ import annotations

from typing import Any

from ...lang.en.lancaster import stem

__all__ = ["LancasterStemmer"]


class LancasterStemmer:
    """The Lancaster stemmer with its default rules (what ERRANT's classifier uses).

    Custom ``rule_tuple`` and ``strip_prefix_flag`` are not supported: errtype implements only the
    default configuration (checked against NLTK on 170,565 words).
    """

    def __init__(self, rule_tuple: Any = None, strip_prefix_flag: bool = False) -> None:
        if rule_tuple is not None or strip_prefix_flag:
            raise ValueError("errtype.errant's LancasterStemmer supports only the default rules "
                             "without prefix stripping")

    def stem(self, word: str) -> str:
        """The stem of ``word`` (lower-cased first)."""
        return stem(word)

    def __repr__(self) -> str:
        return "<LancasterStemmer>"
