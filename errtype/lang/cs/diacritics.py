"""ASCII folding for the DIACR rule, without the GPL ``unidecode`` package.

The Czech ERRANT labels an edit DIACR when ``unidecode`` maps both sides to the same string.
``ascii_fold`` reproduces that decision for the characters Czech learner text contains:
Unicode compatibility decomposition with combining marks removed (all Latin letters with
diacritics, ligatures, superscripts), plus an explicit table for letters and punctuation that do
not decompose to ASCII (quotes, dashes, ellipsis, ß, ø, ł, …). Pictographic symbols and emoji
are removed (unidecode has no transliteration for them: "radost♥" folds to "radost"). Other
characters stay unchanged, so they only compare equal to themselves.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["ascii_fold", "same_ascii", "strip_quotes"]

#: transliterations for characters that NFKD does not reduce to ASCII (or reduces differently)
FOLD_TABLE: dict[str, str] = {
    # quotation marks
    "\u201c": '"', "\u201d": '"', "\u201e": ",,", "\u201f": '"', "\u2033": "''",
    "\u2018": "'", "\u2019": "'", "\u201a": ",", "\u201b": "'", "\u2032": "'",
    "\u00ab": "<<", "\u00bb": ">>", "\u2039": "<", "\u203a": ">",
    # dashes, hyphens, spaces
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "--", "\u2015": "--",
    "\u2212": "-", "\u00ad": "-", "\u00a0": " ",
    # other punctuation and symbols
    "\u2026": "...", "\u00b7": "*", "\u2022": "*", "\u00bf": "?", "\u00a1": "!",
    "\u00b0": "deg", "\u00d7": "x", "\u00f7": "/", "\u20ac": "EUR", "\u00a3": "PS",
    "\u00a2": "C/", "\u00a7": "SS", "\u00a9": "(c)", "\u00ae": "(r)", "\u2122": "(tm)",
    "\u00bc": " 1/4", "\u00bd": " 1/2", "\u00be": " 3/4",
    # letters without a canonical decomposition
    "\u00df": "ss", "\u00e6": "ae", "\u00c6": "AE", "\u0153": "oe", "\u0152": "OE",
    "\u00f8": "o", "\u00d8": "O", "\u0142": "l", "\u0141": "L", "\u0111": "d", "\u0110": "D",
    "\u00f0": "d", "\u00d0": "D", "\u00fe": "th", "\u00de": "Th", "\u0131": "i",
}



def _pictographic(cp: int) -> bool:
    """Miscellaneous symbols, dingbats and emoji: no ASCII transliteration, so removed."""
    return 0x2600 <= cp <= 0x27BF or 0x1F000 <= cp <= 0x1FAFF


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    mapped = FOLD_TABLE.get(ch)
    if mapped is not None:
        return mapped
    if _pictographic(ord(ch)):
        return ""
    parts = [p for p in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(p)]
    folded = "".join(FOLD_TABLE.get(p, p) for p in parts)
    return folded if folded.isascii() else ch


def ascii_fold(text: str) -> str:
    """Transliterate ``text`` to ASCII where the DIACR rule needs it (case is preserved)."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() else _fold_char(c) for c in text)


def same_ascii(a: str, b: str) -> bool:
    """The DIACR test: both strings fold to the same ASCII string."""
    return ascii_fold(a) == ascii_fold(b)


_QUOTES = str.maketrans("", "", '"\u201c\u201e ')


def strip_quotes(text: str) -> str:
    """``text`` without ASCII double quotes, “ (U+201C), „ (U+201E) and spaces (QUOTATION rule)."""
    return text.translate(_QUOTES)
