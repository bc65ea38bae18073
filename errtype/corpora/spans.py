"""Character-offset edits of a text -> token-level M2 blocks, one per sentence.

Corpora that ship the learner's text with edits as character offsets (BEA-2019's JSON, UA-GEC's
inline annotations) are turned into M2 here, one way for all of them:

1. the text is split into paragraphs at newlines; each paragraph is tokenised by a
   :data:`Tokenizer` (tokens with their character spans; whitespace-only tokens are dropped);
2. an edit's span is trimmed of surrounding whitespace and widened to whole tokens: the part of
   a token outside the span joins the correction (``wor[ld]`` -> ``d`` corrected to ``wor`` +
   ``d``); an insertion inside a token corrects that token; an annotator's edits that widen
   onto a common token become one edit (the type of the first correction); the correction is
   tokenised by the same tokenizer, and one that tokenises to the original words (a change of
   whitespace only) is no edit;
3. the paragraph's tokens are split into sentences by :func:`errtype.document.sentence_starts`;
   sentences an edit spans are joined into one block (no edit is lost at a boundary); an
   insertion at a sentence start whose correction ends in punctuation belongs to the sentence
   before it (``sentence[ ,] next`` -> ``sentence. Next``);
4. every annotator of the text gets its edits of each block, or a noop line.

An edit that crosses a paragraph boundary cannot be placed in one block: it is counted in
:attr:`Placement.dropped` and left out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..document import sentence_starts, sentences_of
from ..m2 import M2Block, M2Edit

#: tokenised text: ``(start, end)`` character spans of its tokens, in order
Tokenizer = Callable[[str], list[tuple[int, int]]]

#: a token of :func:`simple_tokenize`: a word (letters, digits, marks, joined by one apostrophe or
#: hyphen), or one other non-space character
_SIMPLE = re.compile(r"[^\W_]+(?:['’\-ʼ][^\W_]+)*|\S", re.UNICODE)


def simple_tokenize(text: str) -> list[tuple[int, int]]:
    """Words and single punctuation characters, for corpora whose types are kept as written
    (no parser needed)."""
    return [m.span() for m in _SIMPLE.finditer(text)]


def parser_tokenizer(parse: Callable[[str], Sequence[str]]) -> Tokenizer:
    """A :data:`Tokenizer` from a function returning token texts (e.g. an annotator's
    ``parse(text, True).texts``): each token is found in the text after the previous one;
    whitespace-only tokens are dropped. A token not found verbatim (a parser that rewrites
    text) raises ``ValueError``."""

    def tokenize(text: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        at = 0
        for tok in parse(text):
            if not tok.strip():
                continue
            start = text.find(tok, at)
            if start < 0:
                raise ValueError(f"the tokenizer's token {tok!r} is not in the text")
            spans.append((start, start + len(tok)))
            at = start + len(tok)
        return spans

    return tokenize


@dataclass(frozen=True, slots=True)
class CharEdit:
    """One annotator's edit of a text: characters ``[start, end)`` become ``cor`` (``None``: an
    error marked without a correction, written as a detection edit of type ``UNK``)."""

    start: int
    end: int
    cor: str | None
    type: str = "NA"
    annotator: int = 0


@dataclass(slots=True)
class Placement:
    """The blocks of one text and what could not be placed."""

    blocks: list[M2Block] = field(default_factory=list)
    #: edits crossing a paragraph boundary (left out)
    dropped: list[CharEdit] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _TokEdit:
    start: int
    end: int
    cor: str
    type: str
    annotator: int
    before: bool  # an insertion at a sentence start that belongs to the sentence before


def _paragraphs(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"[^\n]+", text)]


def _token_span(spans: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int, int,
                                                                                int]:
    """``(first token, end token, character start, character end)`` of an edit's span widened
    to whole tokens; an insertion between tokens has ``first == end``."""
    if start == end or not any(s < end and e > start for s, e in spans):
        for k, (s, e) in enumerate(spans):
            if s < start < e:  # inside a token: that token is corrected
                return k, k + 1, s, e
            if s >= start:
                return k, k, start, start
        return len(spans), len(spans), start, start
    first = next(k for k, (s, e) in enumerate(spans) if e > start)
    last = max(k for k, (s, e) in enumerate(spans) if s < end)
    return first, last + 1, min(start, spans[first][0]), max(end, spans[last][1])


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def place_edits(text: str, edits: Iterable[CharEdit], annotators: Sequence[int],
                tokenize: Tokenizer) -> Placement:
    """The M2 blocks of ``text`` with ``edits`` (see the module docstring); ``annotators``: every
    annotator of the text, in output order (each gets a noop line in a block without its edits).
    An edit outside the text raises ``ValueError``."""
    out = Placement()
    paras = _paragraphs(text)
    by_para: list[list[CharEdit]] = [[] for _ in paras]
    for e in edits:
        if not 0 <= e.start <= e.end <= len(text):
            raise ValueError(f"edit [{e.start}, {e.end}) outside the text of {len(text)} "
                             "characters")
        start, end = _trim(text, e.start, e.end) if e.start < e.end else (e.start, e.end)
        home = next((k for k, (ps, pe) in enumerate(paras) if ps <= start and end <= pe), None)
        if home is None and start == end and paras:  # an insertion between paragraphs (or
            # a replaced run of blank lines): the paragraph before it
            home = max((k for k, (ps, _) in enumerate(paras) if ps <= start), default=0)
        if home is None:
            out.dropped.append(e)
            continue
        by_para[home].append(CharEdit(start, end, e.cor, e.type, e.annotator))
    for (ps, pe), para_edits in zip(paras, by_para, strict=True):
        out.blocks.extend(_paragraph_blocks(text[ps:pe], ps, para_edits, annotators, tokenize))
    return out


def _paragraph_blocks(para: str, offset: int, edits: list[CharEdit], annotators: Sequence[int],
                      tokenize: Tokenizer) -> list[M2Block]:
    spans = tokenize(para)
    if not spans:
        return []
    words = [para[s:e] for s, e in spans]
    tok_edits: list[_TokEdit] = []
    for group in _clusters(para, offset, edits, spans):
        first, stop = min(g[0] for g in group), max(g[1] for g in group)
        cs, ce = min(g[2] for g in group), max(g[3] for g in group)
        marks = [g[4] for g in group]
        if len(marks) == 1 and marks[0].cor is None:  # marked, not corrected: the original words
            if first == stop:                         # as a pseudo correction
                continue  # nothing marked
            cor, etype = " ".join(words[first:stop]), "UNK"
        else:
            cor = _corrected(para, offset, marks, cs, ce, tokenize)
            etype = next((e.type for e in marks if e.cor is not None), marks[0].type)
            if cor == " ".join(words[first:stop]):
                continue  # a change of whitespace only, which tokens do not show
        before = first == stop and bool(cor) and _is_punct(cor[-1])
        tok_edits.append(_TokEdit(first, stop, cor, etype, marks[0].annotator, before))
    starts = sentence_starts(words)
    joined = [False] * len(starts)  # sentence k is joined to sentence k - 1 (an edit spans both)
    for te in tok_edits:
        lo, hi = _sentences(starts, te)
        for k in range(lo + 1, hi + 1):
            joined[k] = True
    bounds: list[list[int]] = []  # [first token, end token] per block
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(words)
        if joined[k]:
            bounds[-1][1] = end
        else:
            bounds.append([s, end])
    blocks = []
    block_starts = [b[0] for b in bounds]
    for b, (bs, be) in enumerate(bounds):
        m2_edits: list[M2Edit] = []
        for ann in annotators:
            mine = sorted((te for te in tok_edits if te.annotator == ann
                           and _sentences(block_starts, te)[0] == b),
                          key=lambda te: (te.start, te.end))
            if not mine:
                m2_edits.append(M2Edit.noop(ann))
            m2_edits.extend(M2Edit(te.start - bs, te.end - bs, te.type, te.cor, ann)
                            for te in mine)
        blocks.append(M2Block(" ".join(words[bs:be]), m2_edits))
    return blocks


def _corrected(para: str, offset: int, marks: Sequence[CharEdit], cs: int, ce: int,
               tokenize: Tokenizer) -> str:
    """The tokens of ``para[cs:ce]`` with the edits applied (one overlapping the characters of
    an edit before it is left out), joined by spaces."""
    parts, at = [], cs
    for e in sorted(marks, key=lambda e: (e.start, e.end)):
        start, end = e.start - offset, min(e.end - offset, len(para))
        if start < at:
            continue
        parts += [para[at:start], para[start:end] if e.cor is None else e.cor]
        at = end
    text = "".join([*parts, para[at:ce]])
    return " ".join(text[s:t] for s, t in tokenize(text))


def _clusters(para: str, offset: int, edits: list[CharEdit], spans: Sequence[tuple[int, int]]
              ) -> list[list[tuple[int, int, int, int, CharEdit]]]:
    """Each annotator's edits as ``(first token, end token, char start, char end, edit)``,
    grouped where their token spans overlap (two corrections inside one token make one edit)."""
    placed = []
    for e in edits:
        first, stop, cs, ce = _token_span(spans, e.start - offset, min(e.end - offset, len(para)))
        placed.append((first, stop, cs, ce, e))
    placed.sort(key=lambda p: (p[4].annotator, p[0], p[1], p[4].start))
    groups: list[list[tuple[int, int, int, int, CharEdit]]] = []
    for p in placed:
        if groups:
            last = groups[-1]
            stop = max(g[1] for g in last)
            if last[0][4].annotator == p[4].annotator and (
                    p[0] < stop and (p[0] < p[1] or last[0][0] < p[0])):
                last.append(p)
                continue
        groups.append([p])
    return groups


def _sentences(starts: Sequence[int], te: _TokEdit) -> tuple[int, int]:
    """The first and last sentence (or block) of ``starts`` an edit covers; an insertion
    marked ``before`` a start belongs to the one before it."""
    lo, hi = sentences_of(starts, te.start, te.end)
    if te.before and te.start in starts[1:]:
        lo = hi = lo - 1
    return lo, hi
