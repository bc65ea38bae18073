"""errtype: grammatical error correction toolkit (edit extraction, typing, M2, scoring).

Public API: :func:`annotate`, :func:`load`, :class:`Annotator`, :class:`Edit`, :class:`Token`,
:class:`Sentence`, :func:`read_m2`, :func:`write_m2`, and the exceptions :class:`ErrtypeError`,
:class:`InputError` (and subclasses), :class:`OutputError`, :class:`ResourceError`.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

from .annotator import Annotator
from .edit import Edit
from .errors import (
    EncodingError,
    ErrtypeError,
    InputError,
    LineCountError,
    M2FormatError,
    OutputError,
    ResourceError,
    UnknownLanguageError,
)
from .m2 import M2Block, M2Edit, read_m2, write_m2
from .records import Annotation
from .tokens import Sentence, Token

__all__ = [
    "Annotation", "Annotator", "Edit", "EncodingError", "ErrtypeError", "InputError",
    "LineCountError", "M2Block", "M2Edit", "M2FormatError", "OutputError", "ResourceError",
    "Sentence", "Token", "UnknownLanguageError", "annotate", "load", "read_m2", "write_m2",
    "__version__",
]

_DEFAULT: dict[str, Annotator] = {}


def load(lang: str = "en", **backend_options: Any) -> Annotator:
    """An Annotator for ``lang`` with its default parser configured by ``backend_options``.

    Every language: ``nlp=`` (a loaded spaCy pipeline) or ``spacy_model=``; every language but
    English: ``udpipe_model=`` (path of a .udpipe file). Languages typed by the generic UD
    classifier also take ``feats=True`` (inflection types name the differing UD features).
    """
    return Annotator(lang, **backend_options)


def annotate(orig: str, cor: str, lang: str = "en", merge: str = "rules",
             lev: bool = False) -> list[Edit]:
    """Typed edits turning ``orig`` into ``cor`` (whitespace-tokenised strings)."""
    ann = _DEFAULT.get(lang)
    if ann is None:
        ann = _DEFAULT[lang] = load(lang)
    return ann.annotate(orig, cor, lev=lev, merging=merge)
