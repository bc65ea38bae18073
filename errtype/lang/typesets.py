"""Which error types an annotator can produce: decides whether a gold M2 speaks the annotator's
type set or another scheme (NUCLE's ``Vt``/``ArtOrDet``, UA-GEC's ``G/Case``, EstGEC's ``R:LEX``).

The rule (ERRANT_BEHAVIOUR §6.5 and §7.8, the UD classifier's docstring):

* every language: ``UNK`` and ``noop`` belong to the set;
* English (ERRANT 3.0.2): ``M:``/``R:``/``U:`` + one of ERRANT's 24 main types or ``SPACE``;
* Czech (Czech ERRANT): the prefix + a UPOS other than SYM/X, ``UPOS:INFL`` for ADJ, ADV, AUX,
  NOUN, NUM, PRON, PROPN, VERB, MORPH, ORTH, ORTH:CASING, ORTH:WSPACE, SPELL, WO, WO:SPELL,
  QUOTATION, DIACR, OTHER;
* a language typed by the generic UD classifier: the prefix + a UPOS (not SYM/X), PREP, PART,
  ``UPOS:INFL``, MORPH, SPELL, ORTH(:CASING|:WSPACE), DIACR, QUOTATION, WO(:SPELL), OTHER;
* with ``feats`` (Czech and UD) an ``:INFL`` type may name UD features: ``:Case+Number``;
* a language with its own classifier whose set errtype does not know: no verdict (``None``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..m2 import M2Block

__all__ = ["ENGLISH", "foreign_types", "type_set"]

Known = Callable[[str], bool]
ALWAYS = frozenset({"UNK", "noop"})
#: ERRANT 3.0.2's main types (UNK apart) and the SPACE type spaCy's _SP tag yields
ENGLISH = frozenset({
    "ADJ", "ADJ:FORM", "ADV", "CONJ", "CONTR", "DET", "MORPH", "NOUN", "NOUN:INFL", "NOUN:NUM",
    "NOUN:POSS", "ORTH", "OTHER", "PART", "PREP", "PRON", "PUNCT", "SPELL", "VERB", "VERB:FORM",
    "VERB:INFL", "VERB:SVA", "VERB:TENSE", "WO", "SPACE"})
#: UD's universal POS tags the classifiers name (SYM and X become OTHER)
UPOS = ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON",
        "PROPN", "PUNCT", "SCONJ", "VERB")
CZECH_INFL = ("ADJ", "ADV", "AUX", "NOUN", "NUM", "PRON", "PROPN", "VERB")
COMMON = ("MORPH", "SPELL", "ORTH", "ORTH:CASING", "ORTH:WSPACE", "DIACR", "QUOTATION", "WO",
          "WO:SPELL", "OTHER")
FEATS = r"(?::[A-Za-z0-9]+(?:\+[A-Za-z0-9]+)*)?"


def _pattern(main: Iterable[str], infl: Iterable[str], feats: bool) -> Known:
    alt = "|".join(re.escape(t) for t in sorted(main, key=len, reverse=True))
    inf = "|".join(sorted(infl))
    rx = re.compile(rf"[MRU]:(?:{alt}|(?:{inf}):INFL{FEATS if feats else ''})")
    return lambda t: t in ALWAYS or rx.fullmatch(t) is not None


def type_set(language: Any) -> Known | None:
    """A test ``type -> bool`` of the types ``language`` (an errtype Language) can produce, or
    None when its classifier is not one errtype knows the set of."""
    from .base import Language
    from .cs import Czech
    from .en import English

    feats = bool(getattr(language, "feats", False))
    if isinstance(language, English):
        return _pattern(ENGLISH, (), False)
    if isinstance(language, Czech):
        return _pattern((*UPOS, *COMMON), CZECH_INFL, feats)
    if isinstance(language, Language) and type(language).classify is Language.classify:
        return _pattern((*UPOS, "PREP", "PART", *COMMON), UPOS, feats)
    return None


def foreign_types(blocks: Iterable[M2Block], known: Known) -> Counter[str]:
    """How often each edit type outside the set occurs in ``blocks``."""
    return Counter(e.type for b in blocks for e in b.edits if not known(e.type))
