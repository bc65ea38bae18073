"""Morphology of two UD tokens: features, which of them differ, and affix relations of forms.

The UD classifier reads these to tell inflection (one lexeme, other features) from word choice
(another lexeme) and from spelling (one analysis, another string).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from ...tokens import Token

__all__ = ["LEXICAL_FEATURES", "common_prefix", "doubling", "ending_change", "feature_diff",
           "features", "inflection_diff", "lemma_of", "prefixed", "suffixed", "unlemmatised",
           "verbal"]

#: UD features that describe the word or its spelling rather than an inflected form: two forms
#: differing only in these are not an inflection error (``Orth=Alt`` is a spelling variant,
#: ``PronType``/``NumType``/``Poss``/``Reflex`` tell lexemes apart, ``Reading`` is the reading of
#: the lemma that a Japanese backend gives)
LEXICAL_FEATURES = frozenset({"Abbr", "AdpType", "ExtPos", "Foreign", "Hyph", "NameType",
                              "NumForm", "NumType", "Orth", "Poss", "PronType", "Reading",
                              "Reflex", "Style", "Typo", "Uninflect", "Variant"})
_UNSAFE = re.compile(r"[^A-Za-z0-9]+")
_EMPTY: Mapping[str, str] = MappingProxyType({})


@lru_cache(maxsize=1 << 14)
def features(feats: str) -> Mapping[str, str]:
    """The UD FEATS string ``Case=Nom|Number=Sing`` as a read-only mapping."""
    if not feats:
        return _EMPTY
    out = {}
    for item in feats.split("|"):
        name, sep, value = item.partition("=")
        if sep:
            out[name] = value
    return MappingProxyType(out)


def _safe(name: str) -> str:
    """A feature name with M2/type-unsafe characters replaced: ``Number[psor]`` -> Number-psor."""
    return _UNSAFE.sub("-", name).strip("-")


def _differing(o: Token, c: Token) -> set[str]:
    fo, fc = features(o.feats), features(c.feats)
    return {k for k in fo.keys() | fc.keys() if fo.get(k) != fc.get(k)}


def feature_diff(pairs: Sequence[tuple[Token, Token]], lexical: bool = True,
                 ignore: Iterable[str] = ()) -> list[str]:
    """Sorted M2-safe names of the UD features whose values differ within any (orig, cor) pair
    (``lexical=False``: without :data:`LEXICAL_FEATURES`; ``ignore``: without these)."""
    names: set[str] = set()
    for o, c in pairs:
        names |= _differing(o, c)
    names -= set(ignore)
    if not lexical:
        names -= LEXICAL_FEATURES
    return sorted(_safe(n) for n in names if _safe(n))


def inflection_diff(o: Token, c: Token) -> bool:
    """Some inflectional feature (not in :data:`LEXICAL_FEATURES`) differs between the forms."""
    return bool(_differing(o, c) - LEXICAL_FEATURES)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of ``a`` and ``b``."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def prefixed(a: str, b: str, longest: int = 4, base: int = 3) -> bool:
    """One word is the other with a prefix of 1..``longest`` letters before a base of at least
    ``base`` letters: the prefixation of aspect partners and derived verbs (писати/написати,
    robić/zrobić, делать/сделать, мочь/смочь)."""
    if len(a) > len(b):
        a, b = b, a
    extra = len(b) - len(a)
    return 0 < extra <= longest and len(a) >= base and b.endswith(a) and b[:extra].isalpha()


def suffixed(a: str, b: str, longest: int = 3, base: int = 3) -> bool:
    """One word is the other with a suffix of 1..``longest`` letters after a base of at least
    ``base`` letters: a reflexive verb beside its base (використовувати/використовуватися,
    делать/делаться)."""
    if len(a) > len(b):
        a, b = b, a
    extra = len(b) - len(a)
    return 0 < extra <= longest and len(a) >= base and b.startswith(a) and b[len(a):].isalpha()


def doubling(a: str, b: str) -> bool:
    """One form is the other with one letter doubled (tekivad/tekkivad, засяло/засяяло)."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) != len(a) + 1:
        return False
    k = common_prefix(a, b)
    return b[k + 1:] == a[k:] and 0 < k and b[k] == b[k - 1]


def lemma_of(t: Token) -> str:
    """The lower-cased lemma of ``t`` ("" when the tagger gave none)."""
    return t.lemma.lower() if t.lemma not in ("", "_") else ""


def verbal(t: Token) -> bool:
    """A verb, an auxiliary or any form with a VerbForm (participles, converbs)."""
    return t.pos in ("VERB", "AUX") or "VerbForm=" in t.feats


def ending_change(o: Token, c: Token) -> bool:
    """The forms differ only in their endings: all but at most one letter of the shorter form
    starts the other (Kemeris/Kemerisse, майоріє/майоріла; not tekkivad/tekivad)."""
    return min(len(o.lower), len(c.lower)) - common_prefix(o.lower, c.lower) <= 1


def unlemmatised(o: Token, c: Token) -> bool:
    """The tagger's lemmas do not tell the lexemes apart: it gave one form itself as its lemma
    while the other's lemma is another string (it did not recognise that form: sõbra/sõbra
    beside sõber/sõber), or both forms are their own lemmas and differ only in the ending
    (Бенкс/Бенксе)."""
    o_self, c_self = o.lower == lemma_of(o), c.lower == lemma_of(c)
    return o_self != c_self or (o_self and c_self and ending_change(o, c))
