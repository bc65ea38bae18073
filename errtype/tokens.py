"""Token and Sentence: the only view of linguistic annotation the engine sees."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload


@dataclass(frozen=True, slots=True)
class Token:
    """One token with the annotation the aligner, merger and classifiers read.

    ``head`` is the absolute index of the syntactic head within the sentence (a root points to
    itself); ``ws`` is the whitespace that followed the token in the source text.
    """

    text: str
    lemma: str = ""
    pos: str = ""
    tag: str = ""
    dep: str = ""
    head: int = -1
    feats: str = ""
    ws: str = " "
    lower: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.lower:
            object.__setattr__(self, "lower", self.text.lower())


def tokens_from_columns(texts: list[str], lemmas: list[str], pos: list[str], tags: list[str],
                        deps: list[str], heads: list[int], feats: list[str], ws: list[str],
                        lowers: list[str]) -> tuple[Token, ...]:
    """Tokens from one list per field (``lowers`` given, not derived): what ``Token(...)``
    builds, at about half its cost (the slots are filled directly, not through the frozen
    dataclass's ``__init__``). For parsers converting whole batches."""
    new, token = object.__new__, Token
    set_text, set_lemma, set_pos, set_tag, set_dep, set_head, set_feats, set_ws, set_lower = (
        _SLOT_SETTERS)
    out = []
    append = out.append
    for row in zip(texts, lemmas, pos, tags, deps, heads, feats, ws, lowers, strict=True):
        t = new(token)
        set_text(t, row[0])
        set_lemma(t, row[1])
        set_pos(t, row[2])
        set_tag(t, row[3])
        set_dep(t, row[4])
        set_head(t, row[5])
        set_feats(t, row[6])
        set_ws(t, row[7])
        set_lower(t, row[8])
        append(t)
    return tuple(out)


#: the slot descriptors' setters of Token's fields, in field order
_SLOT_SETTERS = tuple(Token.__dict__[name].__set__ for name in
                      ("text", "lemma", "pos", "tag", "dep", "head", "feats", "ws", "lower"))


class Sentence(Sequence[Token]):
    """An immutable sequence of tokens plus derived views (children, text of spans)."""

    __slots__ = ("tokens", "_children", "_lowers", "_texts")

    def __init__(self, tokens: Sequence[Token] = ()) -> None:
        self.tokens: tuple[Token, ...] = tuple(tokens)
        self._children: tuple[tuple[int, ...], ...] | None = None
        self._texts: tuple[str, ...] | None = None
        self._lowers: tuple[str, ...] | None = None

    @classmethod
    def from_words(cls, words: Sequence[str]) -> Sentence:
        """A sentence of bare words (no linguistic annotation)."""
        return cls([Token(w) for w in words])

    def __len__(self) -> int:
        return len(self.tokens)

    @overload
    def __getitem__(self, i: int) -> Token: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Token, ...]: ...
    def __getitem__(self, i: int | slice) -> Token | tuple[Token, ...]:
        return self.tokens[i]

    def __iter__(self) -> Iterator[Token]:
        return iter(self.tokens)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sentence) and self.tokens == other.tokens

    def __hash__(self) -> int:
        return hash(self.tokens)

    def __repr__(self) -> str:
        return f"Sentence({self.text!r})"

    @property
    def texts(self) -> tuple[str, ...]:
        if self._texts is None:
            self._texts = tuple(t.text for t in self.tokens)
        return self._texts

    @property
    def lowers(self) -> tuple[str, ...]:
        if self._lowers is None:
            self._lowers = tuple(t.lower for t in self.tokens)
        return self._lowers

    @property
    def text(self) -> str:
        """Tokens joined by single spaces (the M2 ``S`` line)."""
        return " ".join(self.texts)

    def span_text(self, start: int, end: int) -> str:
        """Text of ``tokens[start:end]`` as the source rendered it (inner whitespace kept)."""
        toks = self.tokens[start:end]
        if not toks:
            return ""
        return "".join(t.text + t.ws for t in toks[:-1]) + toks[-1].text

    def children(self, i: int) -> tuple[int, ...]:
        """Indices of the syntactic children of token ``i`` in sentence order."""
        if self._children is None:
            kids: list[list[int]] = [[] for _ in self.tokens]
            for j, tok in enumerate(self.tokens):
                if 0 <= tok.head < len(kids) and tok.head != j:
                    kids[tok.head].append(j)
            self._children = tuple(tuple(k) for k in kids)
        return self._children[i]


def join_sentences(sentences: Sequence[Sentence]) -> Sentence:
    """One Sentence of ``sentences`` in order, heads re-based to the joined token indices (a
    head outside its own sentence points to the token itself); a sentence's last token keeps
    the whitespace that followed it, or gets one space before the next sentence if it had none
    (a tokenizer leaves none at the end of its input)."""
    if len(sentences) == 1:
        return sentences[0]
    tokens: list[Token] = []
    for k, sent in enumerate(sentences):
        at = len(tokens)
        n = len(sent)
        last = k == len(sentences) - 1
        for i, t in enumerate(sent.tokens):
            head = at + t.head if 0 <= t.head < n else (at + i if t.head >= 0 else t.head)
            ws = t.ws if (t.ws or last or i < n - 1) else " "
            if head != t.head or ws != t.ws:
                t = Token(t.text, t.lemma, t.pos, t.tag, t.dep, head, t.feats, ws, t.lower)
            tokens.append(t)
    return Sentence(tokens)


def split_sentence(sentence: Sentence, starts: Sequence[int]) -> list[Sentence]:
    """``sentence`` cut before each token index of ``starts`` (ascending, 0 and the length
    ignored), heads re-based to each part (a head outside its part points to the token
    itself): the inverse of :func:`join_sentences`."""
    bounds = [0, *(s for s in starts if 0 < s < len(sentence)), len(sentence)]
    out = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        if a == b:
            continue
        part = []
        for i, t in enumerate(sentence.tokens[a:b]):
            head = t.head - a if a <= t.head < b else (i if t.head >= 0 else t.head)
            if head != t.head:
                t = Token(t.text, t.lemma, t.pos, t.tag, t.dep, head, t.feats, t.ws, t.lower)
            part.append(t)
        out.append(Sentence(part))
    return out
