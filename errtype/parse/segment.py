"""Segmentation: parsers for scripts written without spaces between words.

Two granularities, as in ChERRANT (HillZhang1999/MuCGEC, scorers/ChERRANT/modules/tokenizer.py):

* :class:`CharSegmenter`: every character is a token (Latin letters and digits too: ``10`` is
  ``1`` ``0``); whitespace is removed first, and a marker such as ChERRANT's ``[缺失成分]``
  (missing constituent) stays one token. Tokens carry no tag; a punctuation character gets the
  UPOS ``PUNCT``, any other ``X``.
* :class:`WordSegmenter`: words and tags from ``jieba.posseg`` (offline, a dictionary and an HMM
  for unknown words, no torch), whitespace removed first; each tag mapped to UPOS by the
  language pack's ``tag_map``.

Whitespace is never a token: raw text loses it before segmenting, as in ChERRANT. Segmented
text (``tokenize=False``: an M2 ``S`` line) keeps its words at word granularity, which are then
only tagged.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Sequence

from ..errors import ResourceError
from ..tokens import Sentence, Token


def unspaced(text: str) -> str:
    """The text without any whitespace (Python's ``str.split`` notion of it), as ChERRANT
    reads its input."""
    return "".join(text.split())


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


class CharSegmenter:
    """One token per character (see the module docstring); ``keep`` lists the multi-character
    markers that stay whole."""

    def __init__(self, keep: Sequence[str] = ("[缺失成分]",)) -> None:
        self.keep = tuple(keep)

    def split(self, text: str) -> list[str]:
        """The character tokens of ``text``."""
        chars = list(unspaced(text))
        if not self.keep or "[" not in text:
            return chars
        out: list[str] = []
        i = 0
        joined = "".join(chars)
        while i < len(joined):
            for marker in self.keep:
                if joined.startswith(marker, i):
                    out.append(marker)
                    i += len(marker)
                    break
            else:
                out.append(joined[i])
                i += 1
        return out

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        return Sentence([Token(t, t, "PUNCT" if len(t) == 1 and _is_punct(t) else "X")
                         for t in self.split(text)])

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        for t in texts:
            yield self.parse(t, tokenize)


class WordSegmenter:
    """Words and part-of-speech tags from ``jieba.posseg`` (extra ``zh``), tags mapped to UPOS
    by ``tag_map`` (a tag not in it falls back to its first letter's entry, then ``X``)."""

    def __init__(self, tag_map: dict[str, str]) -> None:
        try:
            import jieba
            import jieba.posseg
        except ImportError as exc:
            raise ResourceError("word segmentation needs jieba: pip install 'errtype[zh]'"
                                ) from exc
        jieba.setLogLevel(60)  # no "Building prefix dict" lines on standard error
        self._cut = jieba.posseg.cut
        #: jieba's dictionary: word -> tag
        self._tags: dict[str, str] = jieba.posseg.dt.word_tag_tab
        self.tag_map = dict(tag_map)

    def upos(self, tag: str, word: str) -> str:
        found = self.tag_map.get(tag) or self.tag_map.get(tag[:1])
        if found:
            return found
        return "PUNCT" if all(_is_punct(ch) for ch in word) else "X"

    def _token(self, word: str, tag: str) -> Token:
        upos = "PUNCT" if tag == "x" and all(_is_punct(ch) for ch in word) else \
            self.upos(tag, word)
        return Token(word, word, upos, tag)

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        """Segment and tag raw text (``tokenize=True``, what annotating Chinese text does), or
        keep the space-separated words of segmented text (an M2 ``S`` line) and tag them: a word
        jieba also finds in the joined text takes the tag jieba gave it there, any other the
        tag of jieba's dictionary, else the tag of jieba's reading of the word alone."""
        if tokenize:
            return Sentence([self._token(p.word, p.flag)
                             for p in self._cut(unspaced(text), HMM=True)])
        words = text.split()
        found: dict[tuple[int, int], str] = {}
        at = 0
        for p in self._cut("".join(words), HMM=True):
            found[(at, at + len(p.word))] = p.flag
            at += len(p.word)
        tokens = []
        at = 0
        for w in words:
            tag = found.get((at, at + len(w)))
            if tag is None or tag == "x":
                tag = self._tags.get(w) or next(iter(self._cut(w, HMM=True))).flag
            tokens.append(self._token(w, tag))
            at += len(w)
        return Sentence(tokens)

    def parse_many(self, texts: Iterable[str], tokenize: bool = False) -> Iterator[Sentence]:
        for t in texts:
            yield self.parse(t, tokenize)
