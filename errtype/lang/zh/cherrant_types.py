"""ChERRANT's word-level error types (``--granularity word --scheme cherrant``).

The operation letter (``M`` missing, ``R`` redundant, ``S`` substitution, ``W`` word order) and,
except for ``W``, a class: ``OTHER`` for a span of several words (the correction's for ``M`` and
``S``, the original's for ``R``), ``SPELL`` for a substitution that passes ChERRANT's spelling test
(:func:`errtype.lang.zh.spelling.spelling_error`), ``MC`` for ChERRANT's missing-constituent
marker ``[缺失成分]``, else the class of the one word: the original's for ``R``, the
correction's otherwise. ChERRANT reads the class from LTP's part of speech; errtype from jieba's
(:data:`JIEBA_CLASSES`, a mapping of the two tag sets, which descend from the same Peking
University set), so a word that the taggers read differently gets another class: measured by
``bench/cherrant_word_types.py`` against ChERRANT's own output.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ...tokens import Token
from .spelling import CharTable, spelling_error

__all__ = ["CLASSES", "JIEBA_CLASSES", "MISSING_MARKER", "cherrant_type", "word_class"]

#: ChERRANT's classes
CLASSES = ("NOUN", "VERB", "ADJ", "ADV", "CONJ", "PREP", "PRON", "AUX", "NUM", "QUAN", "PUNCT",
           "OTHER")
#: ChERRANT's marker of a missing constituent
MISSING_MARKER = "[缺失成分]"


def _classes(spec: str) -> dict[str, str]:
    out = {}
    for group in spec.split(";"):
        name, tags = group.split(":")
        out.update(dict.fromkeys(tags.split(), name.strip()))
    return out


#: jieba's tags (ICTCLAS) -> ChERRANT's classes, as ChERRANT maps LTP's: nouns with proper and
#: temporal, place and direction nouns (LTP n nd nh ni nl ns nt nz); verbs with verbal nouns
#: (LTP tags them v); adjectives with distinguishing words (b) and adverbial or nominal
#: adjectives; auxiliaries = structural and aspect particles (LTP u); numerals with
#: numeral-classifier words; idioms, abbreviations, set phrases, interjections, onomatopoeia,
#: status words and foreign words are OTHER (LTP i j e o z ws)
JIEBA_CLASSES: dict[str, str] = _classes(
    "NOUN: n ng nr nrfg nrt ns nt nz t tg s f;"
    "VERB: v vd vg vi vn vq;"
    "ADJ: a ad ag an b bl;"
    "ADV: d df dg;"
    "CONJ: c cc;"
    "PREP: p;"
    "PRON: r rg rr rz;"
    "AUX: u ud ug uj ul uv uz;"
    "NUM: m mg mq;"
    "QUAN: q;"
    "PUNCT: w")


def _punct(text: str) -> bool:
    return bool(text) and all(unicodedata.category(ch)[0] in "PS" for ch in text)


def word_class(token: Token) -> str:
    """ChERRANT's class of one word from its jieba tag (punctuation and digits by their
    characters, whatever the tag)."""
    if _punct(token.text):
        return "PUNCT"
    if token.text.isdigit():
        return "NUM"
    return JIEBA_CLASSES.get(token.tag, "OTHER")


def cherrant_type(op: str, o: Sequence[Token], c: Sequence[Token], table: CharTable) -> str:
    """The type of an edit with operation ``op`` (``I`` insertion, ``D`` deletion, ``S``
    substitution, ``T`` transposition) turning words ``o`` into ``c``."""
    if op == "T":
        return "W"
    if op == "D":
        return "R:OTHER" if len(o) > 1 else "R:" + _one(o[0], c)
    if op == "I":
        return "M:OTHER" if len(c) > 1 else "M:" + _one(c[0], c)
    if spelling_error("".join(t.text for t in o), "".join(t.text for t in c), table):
        return "S:SPELL"
    return "S:OTHER" if len(c) > 1 else "S:" + _one(c[0], c)


def _one(word: Token, c: Sequence[Token]) -> str:
    """The class of the one word an edit names; ChERRANT's marker makes it MC."""
    if "".join(t.text for t in c) == MISSING_MARKER:
        return "MC"
    return word_class(word)
