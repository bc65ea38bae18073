"""Script-independent string tests of the UD classifier (PUNCT, DIACR, QUOTATION, ORTH, WO)."""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

import regex
from rapidfuzz.distance import Indel

T = TypeVar("T")

__all__ = ["HYPHENS", "elided", "fold_marks", "hyphen_inversion", "is_punct_char", "lower",
           "moving_assignment", "punct_and_words", "quote_key", "reordered", "similar_words",
           "strip_punct", "transposition_compatible", "unapostrophe", "unhyphen"]

#: quotation marks of any script (ASCII, typographic, low-9, guillemets, CJK corner brackets)
QUOTES = frozenset("\"'\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a"
                   "\u300c\u300d\u300e\u300f\u2032\u2033")


@lru_cache(maxsize=4096)
def is_punct_char(ch: str) -> bool:
    """Unicode punctuation (categories P*) or an ASCII punctuation/symbol character."""
    return ch in string.punctuation or unicodedata.category(ch).startswith("P")


def strip_punct(text: str) -> str:
    """``text`` without punctuation characters and whitespace."""
    return "".join(ch for ch in text if not ch.isspace() and not is_punct_char(ch))


#: the characters of :func:`is_punct_char`
_PUNCT = regex.compile(r"[\p{P}" + regex.escape(string.punctuation) + "]")
_PUNCT_OR_SPACE = regex.compile(r"[\s\p{P}" + regex.escape(string.punctuation) + "]+")
_INTERNAL = regex.compile(r"(?<=\w)['\u2019\u02bc\-\u2010\u2011](?=\w)")
#: word-internal apostrophes and hyphens -> private-use stand-ins (neither punctuation nor space)
_PROTECT = str.maketrans("'\u2019\u02bc-\u2010\u2011", "\ue000\ue001\ue002\ue003\ue004\ue005")


@lru_cache(maxsize=1 << 16)
def punct_and_words(text: str) -> tuple[str, str]:
    """(the punctuation characters of ``text``, the rest without whitespace), word-internal
    apostrophes and hyphens counting as letters (they are spelling: здоров'я, будь-яка)."""
    text = _INTERNAL.sub(lambda m: m.group(0).translate(_PROTECT), text)
    return "".join(_PUNCT.findall(text)), _PUNCT_OR_SPACE.sub("", text)


_APOSTROPHE = regex.compile(r"(?<=\w)['\u2019\u02bc](?=\w)")
_QUOTE_KEY = str.maketrans({q: '"' for q in QUOTES})
_SPACE = regex.compile(r"\s+")


@lru_cache(maxsize=1 << 16)
def quote_key(text: str) -> str:
    """``text`` without spaces and with every quotation mark replaced by one symbol."""
    return _SPACE.sub("", text).translate(_QUOTE_KEY)


#: letters whose diacritic is no combining mark (stroke, dotless i): folded to the base letter
_UNMARK = str.maketrans("ıłŁøØđĐħĦŧŦ", "ilLoOdDhHtT")


#: the voicing marks of kana (で = て + U+3099): part of the letter, another sound, not a
#: diacritic to drop
_KANA_VOICING = frozenset("\u3099\u309a")


@lru_cache(maxsize=1 << 16)
def fold_marks(text: str) -> str:
    """Canonical decomposition with the combining marks removed: diacritics of any script
    (Latin á → a, Cyrillic й → и, ї → і, Greek ά → α), and the letters whose diacritic is part
    of the letter mapped to their base (Turkish ı → i, Polish ł → l, ø → o, đ → d); the voicing
    marks of kana are kept (で is not て)."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text.translate(_UNMARK))
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)
                       or ch in _KANA_VOICING))


def lower(text: str) -> str:
    """``text`` lower-cased, the Turkish dotted capital İ becoming i (not i + a combining dot)."""
    return text.lower().replace("i\u0307", "i")


def unapostrophe(text: str) -> str:
    """``text`` without word-internal apostrophes (``Almanya'ya`` -> ``Almanyaya``)."""
    return _APOSTROPHE.sub("", text)


@lru_cache(maxsize=1 << 16)
def similar_words(a: str, b: str) -> bool:
    """Two word forms are spelling variants of each other: the Indel similarity of their
    lower-cased, mark-folded forms is at least 0.75 (ERRANT 3's split threshold)."""
    a, b = fold_marks(a.lower()), fold_marks(b.lower())
    return a == b or 1 - Indel.normalized_distance(a, b) >= 0.75


def transposition_compatible(src: Sequence[T], tgt: Sequence[T],
                             similar: Callable[[T, T], bool]) -> bool:
    """``tgt`` reorders ``src`` up to ``similar`` pairs: equal length 2..8 and a permutation
    that moves the first and the last item with every pair ``similar``."""
    n = len(src)
    if n != len(tgt) or not 2 <= n <= 8:
        return False
    ok = [[similar(s, t) for t in tgt] for s in src]
    if not any(ok[0][1:]) or not any(ok[-1][:-1]):
        return False
    return moving_assignment(ok)


def moving_assignment(ok: list[list[bool]]) -> bool:
    """Whether a permutation p exists with ``ok[i][p[i]]`` for every i, p[0] != 0 and
    p[-1] != n - 1 (the first and the last item both move)."""
    n = len(ok)
    used = [False] * n

    def search(i: int) -> bool:
        if i == n:
            return True
        for j in range(n):
            if used[j] or not ok[i][j] or (i == 0 and j == 0) or (i == n - 1 and j == n - 1):
                continue
            used[j] = True
            if search(i + 1):
                return True
            used[j] = False
        return False

    return search(0)


#: hyphen characters (hyphen-minus, hyphen, non-breaking hyphen)
HYPHENS = frozenset("-\u2010\u2011")


def reordered(src: Sequence[T], tgt: Sequence[T], recurs: Callable[[T, T], bool]) -> bool:
    """At least two items of ``src`` recur in ``tgt`` (``recurs``, each matched once, greedily
    left to right) and their order there differs: a reordering among other changes."""
    used: set[int] = set()
    order: list[int] = []
    for s in src:
        for j, t in enumerate(tgt):
            if j not in used and recurs(s, t):
                used.add(j)
                order.append(j)
                break
    return len(order) >= 2 and order != sorted(order)


_HYPHEN_SPLIT = regex.compile("[" + "".join(regex.escape(h) for h in sorted(HYPHENS)) + "]")
_UNHYPHEN = str.maketrans("", "", "".join(sorted(HYPHENS)))


def unhyphen(text: str) -> str:
    """``text`` without hyphens."""
    return text.translate(_UNHYPHEN)


def hyphen_inversion(o_texts: Sequence[str], c_texts: Sequence[str]) -> bool:
    """The words are reordered across a hyphen (``Tu as`` -> ``As-tu``)."""
    if not any(h in t for t in (*o_texts, *c_texts) for h in HYPHENS):
        return False

    def parts(texts: Sequence[str]) -> list[str]:
        return [p for t in texts for p in _HYPHEN_SPLIT.split(t.lower()) if p]
    po, pc = parts(o_texts), parts(c_texts)
    return len(po) > 1 and po != pc and sorted(po) == sorted(pc)


#: apostrophes that mark an elided vowel
_ELISION_MARKS = frozenset("'\u2019\u02bc")
#: vowels (after :func:`fold_marks`) an apostrophe may stand for: Latin and Greek
_VOWELS = frozenset("aeiouyαεηιουω")


def elided(full: Sequence[str], short: Sequence[str]) -> list[str] | None:
    """The words of ``full`` written elided in ``short`` (lower-cased), or None: the two hold the
    same letters, spaces aside and case ignored, but for apostrophes in ``short`` each standing
    where ``full`` has the final vowel of one of its words (``que`` -> ``qu'``, ``que il`` ->
    ``qu'il``, ``lo amico`` -> ``l'amico``, ``από αυτό`` -> ``απ' αυτό``)."""
    a, b = lower("".join(full)), lower("".join(short))
    if len(a) != len(b) or a == b:
        return None
    ends: dict[int, str] = {}
    at = 0
    for word in full:
        at += len(word)
        ends[at - 1] = lower(word)
    words = []
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        if x == y:
            continue
        if y not in _ELISION_MARKS or fold_marks(x) not in _VOWELS or k not in ends:
            return None
        words.append(ends[k])
    return words
