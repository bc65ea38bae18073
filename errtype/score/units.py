"""Scoring units: whitespace tokens (every metric's default) or characters (Chinese, Japanese).

Chinese GEC reports MaxMatch, GLEU and ChERRANT on characters (MuCGEC, the CGEC shared tasks):
every character is a token, whatever the text's own spacing. :func:`char_text` segments a text so;
:func:`char_block` re-expresses an M2 block segmented in words (NLPCC-2018's PKUNLP M2,
ChERRANT's word-level M2) in characters, its offsets and corrections moved with it, so that word
and character M2 files score alike at character level. A block segmented in characters already
keeps its offsets.

Characters are :class:`errtype.parse.segment.CharSegmenter`'s, as ChERRANT's char mode segments:
whitespace dropped, every other character a token, except MuCGEC's placeholder ``[缺失成分]`` (a
missing constituent), which stays one token. A language's texts are scored in characters by
default when its pack says it is written without spaces (a word ``segmenter``: Chinese).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import InputError
from ..lang.packs import get_pack
from ..m2 import ALT, NONE, M2Block, M2Edit, M2Target
from ..parse.segment import CharSegmenter

__all__ = ["PLACEHOLDERS", "UNITS", "char_block", "char_text", "char_tokens",
           "is_char_segmented", "resolve_unit", "unspaced_language"]

UNITS = ("token", "char")
_CHARS = CharSegmenter()
#: multi-character tokens kept whole by character segmentation
PLACEHOLDERS = _CHARS.keep


def unspaced_language(lang: str) -> bool:
    """Whether ``lang`` is written without spaces (its pack names a word segmenter)."""
    pack = get_pack(lang)
    return pack is not None and pack.segmenter is not None


def char_tokens(text: str) -> list[str]:
    """The characters of ``text`` without its whitespace, :data:`PLACEHOLDERS` kept whole."""
    return _CHARS.split(text)


def char_text(text: str) -> str:
    """``text`` segmented in characters, joined by single spaces."""
    return " ".join(char_tokens(text))


def _char_cor(cor: str) -> str:
    return ALT.join(a if a.strip() == NONE else char_text(a) for a in cor.split(ALT))


def char_block(block: M2Block) -> M2Block:
    """The block in characters: source, edit offsets, corrections and ChERRANT ``T`` lines
    (noop, ``NA`` and other ``-1 -1`` lines keep their span)."""
    starts = [0]
    for tok in block.tokens:
        starts.append(starts[-1] + len(char_tokens(tok)))
    edits = [e if e.start == -1 else
             M2Edit(starts[e.start], starts[e.end], e.type, _char_cor(e.cor), e.annotator,
                    e.required, e.comment)
             for e in block.edits]
    targets = [M2Target(t.annotator, t.alternative,
                        t.text if t.alternative is None else char_text(t.text), t.size)
               for t in block.targets]
    return M2Block(char_text(block.source), edits, block.line, targets=targets)


def is_char_segmented(blocks: Iterable[M2Block]) -> bool:
    """Whether every source token of the blocks is one character (or a placeholder)."""
    return all(len(t) == 1 or t in PLACEHOLDERS for b in blocks for t in b.tokens)


def resolve_unit(unit: str | None, lang: str, m2_inputs: Sequence[tuple[str, list[M2Block]]],
                 has_text: bool) -> str:
    """The unit a scoring run uses.

    ``unit`` given: it. Not given: ``token``, except for a language written without spaces
    (:func:`unspaced_language`), whose texts are scored in characters when the M2 inputs
    (``(name, blocks)`` pairs) are segmented in characters too; when one is segmented in words and
    texts are given, the choice is the user's (NLPCC-2018's word-level M2 or character level),
    so an :class:`InputError` asks for it.
    """
    if unit is not None:
        if unit not in UNITS:
            raise InputError(f"unknown unit {unit!r} (choose from {', '.join(UNITS)})")
        return unit
    if not unspaced_language(lang):
        return "token"
    words = [name for name, blocks in m2_inputs if not is_char_segmented(blocks)]
    if not words:
        return "char"
    if has_text:
        raise InputError(f"{words[0]} is segmented in words but {lang} texts are scored in "
                         f"characters: give --unit token (texts segmented as the M2, as "
                         f"NLPCC-2018's official word-level M2) or --unit char (the M2 "
                         f"re-expressed in characters)")
    return "token"
