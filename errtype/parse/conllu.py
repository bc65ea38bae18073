"""Pre-parsed input: CoNLL-U files (Stanza, UDPipe 1/2, Trankit output) -> Sentences.

Each sentence (lines up to a blank line) becomes one :class:`~errtype.tokens.Sentence` of its
syntactic words, read exactly as the UDPipe backend builds them: FORM, LEMMA, UPOS, XPOS (tag),
FEATS, HEAD (1-based, 0 = root; made a 0-based absolute index, a root pointing to itself, and so
does a word without HEAD, ``_``, as from a model without a parser), DEPREL
(``root`` -> ``ROOT``), and ``SpaceAfter=No`` in MISC (of the word, or of the multi-word token it
ends) for the whitespace after a word. Multi-word token lines (``1-2``) and empty nodes (``1.1``)
are skipped; comments are ignored. Malformed lines raise :class:`InputError` naming file and line.
Parallel files (an original and its corrections, e.g. the two halves of an L1-L2 treebank) pair
sentences by position, checked by their ``# sent_id`` where both carry one
(:func:`check_sentence_counts`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from itertools import zip_longest

from ..errors import InputError, LineCountError, ResourceError
from ..textio import read_lines
from ..tokens import Sentence, Token

__all__ = ["PreParsed", "check_sentence_counts", "count_sentences", "read_conllu", "sentence_ids"]

PathLike = str | os.PathLike[str]


def _field(value: str) -> str:
    return "" if value == "_" else value


def _int(value: str, what: str, path: str, line: int) -> int:
    try:
        return int(value)
    except ValueError:
        raise InputError(f"CoNLL-U {what} must be an integer, not {value!r}",
                         path=path, line=line) from None


class _Builder:
    """Words of the sentence being read, with the multi-word token ranges seen so far."""

    def __init__(self, path: str, line: int) -> None:
        self.path, self.line = path, line
        self.words: list[tuple[int, list[str]]] = []  # (line number, 10 fields)
        self.mwt_end: dict[int, bool] = {}  # last word id of a range -> its SpaceAfter
        self.inside: set[int] = set()  # word ids inside a range, not last

    def add(self, number: int, cols: list[str]) -> None:
        wid = cols[0]
        if "-" in wid:
            first, last = (_int(x, "token range", self.path, number) for x in wid.split("-", 1))
            if not 1 <= first <= last:
                raise InputError(f"CoNLL-U token range {wid!r} is empty", path=self.path,
                                 line=number)
            self.mwt_end[last] = "SpaceAfter=No" not in cols[9].split("|")
            self.inside.update(range(first, last))
            return
        if "." in wid:  # an empty node of enhanced UD: not a word
            return
        expected = len(self.words) + 1
        if _int(wid, "word id", self.path, number) != expected:
            raise InputError(f"CoNLL-U word id {wid} out of sequence (expected {expected})",
                             path=self.path, line=number)
        self.words.append((number, cols))

    def sentence(self) -> Sentence:
        n = len(self.words)
        tokens = []
        for k, (number, cols) in enumerate(self.words):
            wid = k + 1
            head = k  # no HEAD ("_", a model without a parser): as the UDPipe backend
            if cols[6] != "_":
                h = _int(cols[6], "HEAD", self.path, number)
                if not 0 <= h <= n:
                    raise InputError(f"CoNLL-U HEAD {h} outside the sentence of {n} words",
                                     path=self.path, line=number)
                head = h - 1 if h > 0 else k
            deprel = _field(cols[7])
            if wid in self.inside:
                space = True
            elif wid in self.mwt_end:
                space = self.mwt_end[wid]
            else:
                space = "SpaceAfter=No" not in cols[9].split("|")
            form = cols[1]
            lemma = cols[2] if form == "_" else _field(cols[2])
            tokens.append(Token(form, lemma, _field(cols[3]), _field(cols[4]),
                                "ROOT" if deprel == "root" else deprel, head,
                                _field(cols[5]), " " if space and wid < n else ""))
        return Sentence(tokens)


def read_conllu(path: PathLike, encoding_errors: str = "strict"
                ) -> Iterator[tuple[int, Sentence]]:
    """``(line of the sentence's first line, Sentence)`` for each sentence of a CoNLL-U file."""
    name = str(path)
    current: _Builder | None = None
    for number, text, _ in read_lines(path, errors=encoding_errors):
        if not text.strip():
            if current is not None:
                yield current.line, _finish(current)
                current = None
            continue
        if current is None:
            current = _Builder(name, number)
        if text.startswith("#"):
            continue
        cols = text.split("\t")
        if len(cols) != 10:
            raise InputError(f"a CoNLL-U word line has 10 tab-separated fields, this one has "
                             f"{len(cols)}", path=name, line=number)
        current.add(number, cols)
    if current is not None:
        yield current.line, _finish(current)


def _finish(builder: _Builder) -> Sentence:
    if not builder.words:
        raise InputError("CoNLL-U sentence without words", path=builder.path, line=builder.line)
    return builder.sentence()


def count_sentences(path: PathLike) -> int:
    """Number of sentences (blank-line separated blocks) of a CoNLL-U file, without parsing."""
    n, inside = 0, False
    for _, text, _ in read_lines(path, errors="replace"):
        blank = not text.strip()
        n += inside and blank
        inside = not blank
    return n + inside


def sentence_ids(path: PathLike) -> Iterator[tuple[int, str | None]]:
    """``(first line, sent_id or None)`` of each sentence of a CoNLL-U file, without parsing."""
    first: int | None = None
    sid: str | None = None
    for number, text, _ in read_lines(path, errors="replace"):
        if not text.strip():
            if first is not None:
                yield first, sid
            first = sid = None
            continue
        if first is None:
            first = number
        if text.startswith("#") and sid is None:
            key, eq, value = text[1:].partition("=")
            if eq and key.strip() == "sent_id":
                sid = value.strip()
    if first is not None:
        yield first, sid


def check_sentence_counts(paths: Sequence[PathLike]) -> int:
    """The common sentence count of parallel CoNLL-U files; :class:`LineCountError` if not.
    Files that carry ``# sent_id`` (L1-L2 treebanks: learner text and its correction) must pair
    the same ids: :class:`InputError` naming the first sentence of a later file whose id differs
    from that of the first file's sentence at the same position (a sentence without an id in
    either file is not checked). One streaming pass over the files."""
    if not paths:
        return 0
    n = 0
    for n, row in enumerate(zip_longest(*(sentence_ids(p) for p in paths)), 1):
        if any(r is None for r in row):
            counts = [count_sentences(p) for p in paths]
            detail = ", ".join(f"{p}: {c}" for p, c in zip(paths, counts, strict=True))
            raise LineCountError(f"parallel CoNLL-U files have different numbers of sentences "
                                 f"({detail})")
        (first_line, want), *others = row
        for path, (line, got) in zip(paths[1:], others, strict=True):
            if want is not None and got is not None and want != got:
                raise InputError(f"sentence {n} has sent_id {got!r}, but sentence {n} of "
                                 f"{paths[0]} (line {first_line}) has {want!r}: parallel files "
                                 "pair sentences by position; sort both by the same order",
                                 path=str(path), line=line)
    return n


class PreParsed:
    """The parser of an Annotator fed only pre-parsed Sentences: it refuses to parse text."""

    name = "pre-parsed"

    def parse(self, text: str, tokenize: bool = False) -> Sentence:
        raise ResourceError("this annotator reads pre-parsed sentences (CoNLL-U) and has no "
                            "parser for raw text")

    def parse_many(self, texts: Iterator[str] | Sequence[str], tokenize: bool = False
                   ) -> Iterator[Sentence]:
        for text in texts:
            yield self.parse(text, tokenize)
