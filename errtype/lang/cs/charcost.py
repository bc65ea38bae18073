"""Czech character-level costs: the weighted Levenshtein cost and the difflib cost.

``weighted_char_cost`` reproduces the Czech ERRANT's weighted character cost (ERRANT_BEHAVIOUR
§7.6): a Levenshtein distance with unit insertions/deletions and a substitution table that makes
case, diacritic and i/y confusions cheap, over a 128-symbol alphabet in which every non-ASCII
character other than the 30 Czech letters with diacritics collapses onto one symbol.
"""

from __future__ import annotations

import difflib
from functools import lru_cache

__all__ = ["difflib_cost", "sub_cost", "symbol", "weighted_char_cost", "weighted_levenshtein"]

CZ_LOWER = "áčďéěíňóřšťúůýž"
CZ_UPPER = "ÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ"
_STRIPPED = "acdeeinorstuuyz"
_OTHER = "\x7f"  # the symbol shared by every other character outside ASCII 0 and 31-127

#: character -> symbol of the 128-symbol alphabet (identity for ASCII 0 and 31..127)
_SYMBOL: dict[str, str] = {c: c for c in map(chr, [0, *range(31, 128)])}
_SYMBOL.update({c: c for c in CZ_LOWER + CZ_UPPER})
_STRIP: dict[str, str] = dict(zip(CZ_LOWER + CZ_UPPER, _STRIPPED + _STRIPPED.upper(), strict=True))
_IY = frozenset("iíyý")


def symbol(ch: str) -> str:
    """The alphabet symbol of one character."""
    return _SYMBOL.get(ch, _OTHER)


@lru_cache(maxsize=4096)
def sub_cost(x: str, y: str) -> float:
    """Substitution cost between two alphabet symbols (first rule that applies)."""
    if x == y:
        return 0.0
    if x.lower() == y.lower():
        return 0.1
    sx, sy = _STRIP.get(x, x), _STRIP.get(y, y)
    if sx == y or sy == x:
        return 0.2
    if x in _STRIP and y in _STRIP and sx == sy:
        return 0.3
    if x in _IY and y in _IY:
        return 0.3
    return 1.0


@lru_cache(maxsize=1 << 18)
def weighted_levenshtein(a: str, b: str) -> float:
    """Weighted Levenshtein distance over the 128-symbol alphabet (insert/delete cost 1)."""
    sa = [symbol(c) for c in a]
    sb = [symbol(c) for c in b]
    prev = [float(j) for j in range(len(sb) + 1)]
    for i, x in enumerate(sa, 1):
        cur = [float(i)]
        for j, y in enumerate(sb, 1):
            cur.append(min(prev[j] + 1.0, cur[j - 1] + 1.0, prev[j - 1] + sub_cost(x, y)))
        prev = cur
    return prev[-1]


@lru_cache(maxsize=1 << 18)
def weighted_char_cost(a: str, b: str) -> float:
    """Czech weighted character cost: 2 * weighted Levenshtein / (len(a) + len(b))."""
    if not a and not b:
        return 0.0
    return 2 * weighted_levenshtein(a, b) / (len(a) + len(b))


@lru_cache(maxsize=1 << 18)
def difflib_cost(a: str, b: str) -> float:
    """1 - difflib.SequenceMatcher ratio (the ERRANT 2.0.0 / Czech alignment char cost)."""
    if a and b and set(a).isdisjoint(b):  # no common character: ratio 0.0
        return 1.0
    return 1 - difflib.SequenceMatcher(None, a, b).ratio()
