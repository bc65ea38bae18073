"""errtype: grammatical error correction toolkit (edit extraction, typing, M2, scoring).

Public API: :func:`annotate`, :func:`load`, :class:`Annotator`, :class:`Annotation`,
:class:`Edit`, :class:`Token`, :class:`Sentence`, the M2 model :class:`M2Block`, :class:`M2Edit`,
:func:`read_m2`, :func:`write_m2`, :func:`to_frame`, and the exceptions :class:`ErrtypeError`,
:class:`InputError` (and subclasses), :class:`OutputError`, :class:`ResourceError`
(docs/api.md).
"""

from __future__ import annotations

from typing import Any

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
from .version import __version__

__all__ = [
    "Annotation", "Annotator", "Edit", "EncodingError", "ErrtypeError", "InputError",
    "LineCountError", "M2Block", "M2Edit", "M2FormatError", "OutputError", "ResourceError",
    "Sentence", "Token", "UnknownLanguageError", "annotate", "load", "read_m2", "to_frame",
    "write_m2", "__version__",
]

_DEFAULT: dict[str, Annotator] = {}


def load(lang: str = "en", **backend_options: Any) -> Annotator:
    """An Annotator for ``lang`` with its default parser configured by ``backend_options``.

    Every language: ``nlp=`` (a loaded spaCy pipeline) or ``spacy_model=``; every language but
    English: ``udpipe_model=`` (path of a .udpipe file). Languages typed by the generic UD
    classifier also take ``feats=True`` (inflection types name the differing UD features).
    Chinese (``"zh"``) takes ``granularity="char"|"word"``, ``scheme=`` and ``simplified=``
    (docs/chinese.md). ``profile=`` (a corpus profile's JSON path, ``errtype fit``) gives a
    generic-UD language that corpus's span granularity and categories (docs/profiles.md).
    """
    return Annotator(lang, **backend_options)


def annotate(orig: str, cor: str, lang: str = "en", merge: str = "rules",
             lev: bool = False) -> list[Edit]:
    """Typed edits turning ``orig`` into ``cor`` (whitespace-tokenised strings)."""
    ann = _DEFAULT.get(lang)
    if ann is None:
        ann = _DEFAULT[lang] = load(lang)
    return ann.annotate(orig, cor, lev=lev, merging=merge)


def to_frame(source: Any, encoding_errors: str = "strict") -> Any:
    """The edits of an M2 file (a path), or of M2 blocks or annotations, as a pandas DataFrame:
    one row per edit line, noops included (columns: :data:`errtype.convert.table.COLUMNS`)."""
    from .convert.table import to_frame as frame

    return frame(source, encoding_errors)
