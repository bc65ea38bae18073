"""Czech stemmer: the light and aggressive suffix-stripping algorithm used by the Czech ERRANT.

Implemented from the algorithm description (J. Savoy's Czech stemmer, as specified in
ERRANT_BEHAVIOUR §7.7). Each step applies at most one rule: the first rule whose length
condition and suffix both match.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

__all__ = ["cz_stem"]

log = logging.getLogger(__name__)
_WORD = re.compile(r"\w+")


def _pal(w: str) -> str:
    """Palatalise: undo a consonant alternation at the end of ``w`` (or drop its last char)."""
    if w[-2:] in ("ci", "ce", "či", "če"):
        return w[:-2] + "k"
    if w[-2:] in ("zi", "ze", "ži", "že"):
        return w[:-2] + "h"
    if w[-3:] in ("čtě", "čti", "čtí"):
        return w[:-3] + "ck"
    if w[-3:] in ("ště", "šti", "ští"):
        return w[:-3] + "sk"
    return w[:-1]


# A rule is (minimum length exclusive, suffixes, number of chars to drop, palatalise after drop).
_Rule = tuple[int, frozenset[str], int, bool]


def _rules(*rules: tuple[int, str, int, bool]) -> tuple[_Rule, ...]:
    return tuple((n, frozenset(s.split()), d, p) for n, s, d, p in rules)


_CASE = _rules(
    (7, "atech", 5, False),
    (6, "ětem", 3, True),
    (6, "atům", 4, False),
    (5, "ech ich ích ého ěmi emi ému ete eti iho ího ími imu", 2, True),
    (5, "ách ata aty ých ama ami ové ovi ými", 3, False),
    (4, "em", 1, True),
    (4, "es ém ím", 2, True),
    (4, "ům at ám os us ým mi ou", 2, False),
    (3, "e i í ě", 0, True),
    (3, "u y ů a o á é ý", 1, False),
)
_POSSESSIVE = _rules(
    (5, "ov ův", 2, False),
    (5, "in", 1, True),
)
_COMPARATIVE = _rules((5, "ejš ějš", 2, True))
_DIMINUTIVE = _rules(
    (7, "oušek", 5, False),
    (6, "eček éček iček íček enek ének inek ínek", 3, True),
    (6, "áček aček oček uček anek onek unek ánek", 4, True),
    (5, "ečk éčk ičk íčk enk énk ink ínk", 3, True),
    (5, "áčk ačk očk učk ank onk unk átk ánk ušk", 3, False),
    (4, "ek ék ík ik", 1, True),
    (4, "ák ak ok uk", 1, False),
    (3, "k", 1, False),
)
_AUGMENTATIVE = _rules(
    (6, "ajzn", 4, False),
    (5, "izn isk", 2, True),
    (4, "ák", 2, False),
)
_DERIVATIONAL = _rules(
    (8, "obinec", 6, False),
    (7, "ionář", 4, True),
    (7, "ovisk ovstv ovišt ovník", 5, False),
    (6, "ásek loun nost teln ovec ovík ovtv ovin štin", 4, False),
    (6, "enic inec itel", 3, True),
    (5, "árn", 3, False),
    (5, "ěnk ián ist isk išt itb írn", 2, True),
    (5, "och ost ovn oun out ouš ušk kyn čan kář néř ník ctv stv", 3, False),
    (4, "áč ač án an ář as", 2, False),
    (4, "ec en ěn éř íř ic in ín it iv", 1, True),
    (4, "ob ot ov oň ul yn čk čn dl nk tv tk vk", 2, False),
    (3, "c č k l n t", 1, False),
)


def _apply(w: str, rules: tuple[_Rule, ...]) -> str:
    n = len(w)
    for min_len, suffixes, drop, pal in rules:
        if n <= min_len:
            continue
        for suf in suffixes:
            if w.endswith(suf):
                stem = w[: len(w) - drop] if drop else w
                return _pal(stem) if pal else stem
    return w


_LIGHT = (_CASE, _POSSESSIVE)
_AGGRESSIVE = (_CASE, _POSSESSIVE, _COMPARATIVE, _DIMINUTIVE, _AUGMENTATIVE, _DERIVATIONAL)


@lru_cache(maxsize=1 << 17)
def cz_stem(word: str, aggressive: bool = True) -> str:
    """Stem a Czech word; non-word strings and mixed-case words are returned unchanged."""
    if not _WORD.fullmatch(word):
        return word
    if not (word.islower() or word.istitle() or word.isupper()):
        log.debug("skipping word with mixed case: %s", word)
        return word
    stem = word.lower()
    for rules in _AGGRESSIVE if aggressive else _LIGHT:
        stem = _apply(stem, rules)
    if word.isupper():
        return stem.upper()
    if word.istitle():
        return stem.title()
    return stem
