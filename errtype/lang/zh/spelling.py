"""Character similarity of Chinese characters: ChERRANT's spelling test, and pinyin homophones.

ChERRANT (``modules/classifier.py``) calls a word-level substitution a spelling error
(``S:SPELL``) when the two spans have the same length and either are anagrams, or every pair of
differing characters is similar: both characters are in FASPell's character table
(``char_meta.txt``: readings in five languages and ideographic description sequences) and their
shape similarity plus pronunciation similarity reaches 0.8, or they share a toneless Mandarin
reading (``pypinyin``). :class:`CharTable` computes both similarities as FASPell defines them
(:meth:`~CharTable.shape_similarity`: 1 - the Levenshtein distance of two decompositions over
the longer one's length, best pair; :meth:`~CharTable.pronunciation_similarity`: the same over
the readings of each language both characters have, averaged over those languages).

The table is FASPell's (iqiyi/FASPell, GPL-3.0), redistributed in ChERRANT's repository; it is
not bundled with errtype: ``errtype download zh`` fetches it (pinned by its git blob SHA-1), or
``$ERRTYPE_ZH_CHAR_META`` names a copy.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from ...errors import ResourceError

__all__ = ["CHAR_META_ENV", "CharTable", "char_table", "homophones", "sound_alike",
           "spelling_error"]

CHAR_META_ENV = "ERRTYPE_ZH_CHAR_META"
#: ChERRANT's threshold on shape + pronunciation similarity
THRESHOLD = 0.8
#: FASPell's stand-ins for the ideographic description characters (a Windows console workaround;
#: it can change an edit distance where a decomposition also holds the stand-in letter)
_SAFE = str.maketrans({"\u2ff0": "A", "\u2ff1": "B", "\u2ff2": "C", "\u2ff3": "D",
                       "\u2ff4": "E", "\u2ff5": "F", "\u2ff6": "G", "\u2ff7": "H",
                       "\u2ff8": "I", "\u2ff9": "J", "\u2ffa": "L", "\u2ffb": "M"})


class CharTable:
    """FASPell's character table: per character its readings (one field per language, ``null``
    where it has none, alternatives separated by commas) and its decompositions."""

    def __init__(self, rows: Iterable[str]) -> None:
        self.readings: dict[str, list[str]] = {}
        self.shapes: dict[str, list[str]] = {}
        for line in rows:
            items = line.strip().split("\t")
            if len(items) < 3:
                continue
            char, reading = items[1], items[2]
            self.readings[char] = reading.split(";")
            self.shapes[char] = [d.translate(_SAFE) for d in items[3:]]

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CharTable:
        """Read ``char_meta.txt`` (plain or gzipped)."""
        p = Path(path)
        opener = gzip.open if p.suffix == ".gz" else open
        try:
            with opener(p, "rt", encoding="utf-8") as f:
                return cls(f)
        except OSError as exc:
            raise ResourceError(f"cannot read the Chinese character table {p}: {exc}") from exc

    def __contains__(self, char: str) -> bool:
        return char in self.readings

    def shape_similarity(self, a: str, b: str) -> float:
        best = 0.0
        for x in self.shapes[a]:
            for y in self.shapes[b]:
                longest = max(len(x), len(y))
                if longest:
                    best = max(best, 1 - Levenshtein.distance(x, y) / longest)
        return best

    def pronunciation_similarity(self, a: str, b: str) -> float:
        total, count = 0.0, 0
        for ra, rb in zip(self.readings[a], self.readings[b], strict=False):
            if ra == "null" or rb == "null":
                continue
            best = 0.0
            for x in ra.split(","):
                for y in rb.split(","):
                    longest = max(len(x), len(y))
                    if longest:
                        best = max(best, 1 - Levenshtein.distance(x, y) / longest)
            total += best
            count += 1
        return total / count if count else 0.0


def char_meta_path() -> Path:
    """Where the character table is: ``$ERRTYPE_ZH_CHAR_META``, else the file ``errtype
    download zh`` fetched; a ResourceError says how to get it (or that ``$ERRTYPE_ZH_CHAR_META``
    names no file)."""
    env = os.environ.get(CHAR_META_ENV)
    if env:
        if not Path(env).is_file():
            raise ResourceError(f"{CHAR_META_ENV}={env}: no such file (ChERRANT's character "
                                "table, char_meta.txt: run 'errtype download zh')")
        return Path(env)
    from ...download import cached_model
    found = cached_model("zh")
    if found is not None:
        return found
    raise ResourceError("ChERRANT's spelling test needs FASPell's character table "
                        "(char_meta.txt, GPL-3.0, not bundled): run 'errtype download zh', or "
                        f"set {CHAR_META_ENV} to a copy")


def char_table(path: str | os.PathLike[str] | None = None) -> CharTable:
    """The character table at ``path`` (default: :func:`char_meta_path`), loaded once per
    file."""
    return _table(str(Path(path or char_meta_path()).resolve()))


@lru_cache(maxsize=2)
def _table(path: str) -> CharTable:
    return CharTable.load(path)


@lru_cache(maxsize=1 << 14)
def _pinyin(char: str) -> frozenset[str]:
    try:
        from pypinyin import Style, pinyin
    except ImportError as exc:
        raise ResourceError("Chinese readings need pypinyin: pip install 'errtype[zh]'") from exc
    return frozenset(pinyin(char, style=Style.NORMAL, heteronym=True)[0])


def homophones(a: str, b: str) -> bool:
    """The two characters share a toneless Mandarin reading (pypinyin)."""
    return bool(_pinyin(a) & _pinyin(b))


def sound_alike(src: str, tgt: str) -> bool:
    """errtype's spelling test of a Chinese substitution (the default word-level scheme): the
    spans have the same length and are anagrams, or every pair of differing characters are Han
    characters sharing a toneless Mandarin reading (``在`` -> ``再``, ``的`` -> ``得``). It needs
    only pypinyin, not FASPell's table."""
    if len(src) != len(tgt) or src == tgt:
        return False
    if sorted(src) == sorted(tgt):
        return True
    return all(a == b or (_han(a) and _han(b) and homophones(a, b))
               for a, b in zip(src, tgt, strict=True))


def _han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def spelling_error(src: str, tgt: str, table: CharTable, threshold: float = THRESHOLD) -> bool:
    """ChERRANT's spelling test of a substitution (spaces already removed from both spans)."""
    if len(src) != len(tgt):
        return False
    if sorted(src) == sorted(tgt):
        return True
    for a, b in zip(src, tgt, strict=True):
        if a == b:
            continue
        if a not in table or b not in table:
            return False
        similar = table.shape_similarity(a, b) + table.pronunciation_similarity(a, b)
        if similar < threshold and not homophones(a, b):
            return False
    return True
