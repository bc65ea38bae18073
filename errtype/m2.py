"""Streaming M2 reader and writer.

A block is an ``S`` line, zero or more ``A`` lines and a blank line. The reader accepts every valid
M2 file, including a final block without its blank line and runs of blank lines, and raises
:class:`M2FormatError` naming the file and line for anything malformed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .edit import NOOP, Edit, noop_m2
from .errors import M2FormatError
from .textio import read_text_lines

SEP = "|||"


class M2Edit(NamedTuple):
    """One ``A`` line. ``start == end == -1`` is a noop; ``cor`` is kept verbatim."""

    start: int
    end: int
    type: str
    cor: str
    annotator: int = 0
    required: str = "REQUIRED"
    comment: str = "-NONE-"

    @property
    def is_noop(self) -> bool:
        return self.type == NOOP or self.start == -1

    def to_m2(self) -> str:
        return (f"A {self.start} {self.end}{SEP}{self.type}{SEP}{self.cor}{SEP}{self.required}"
                f"{SEP}{self.comment}{SEP}{self.annotator}")


@dataclass(slots=True)
class M2Block:
    """One sentence: the ``S`` text, its edits in file order, and where it started."""

    source: str
    edits: list[M2Edit] = field(default_factory=list)
    line: int = 0

    @property
    def tokens(self) -> list[str]:
        return self.source.split()

    def annotators(self) -> list[int]:
        """Annotator ids in order of first appearance."""
        seen: dict[int, None] = {}
        for e in self.edits:
            seen.setdefault(e.annotator, None)
        return list(seen)

    def edits_by_annotator(self) -> dict[int, list[M2Edit]]:
        out: dict[int, list[M2Edit]] = {}
        for e in self.edits:
            out.setdefault(e.annotator, []).append(e)
        return out

    def to_m2(self) -> str:
        return format_block(self.source, [e.to_m2() for e in self.edits])


def _parse_a_line(text: str, n_tokens: int, name: str, number: int) -> M2Edit:
    body = text[2:]
    # anchored at both ends: only the correction may begin or end with '|' (a '|' token)
    head = body.split(SEP, 2)
    fields = head[:2] + head[2].rsplit(SEP, 3) if len(head) == 3 else head
    if len(fields) != 6 or SEP in fields[2]:
        raise M2FormatError(
            f"an edit line needs 6 fields separated by '|||', found {len(body.split(SEP))}: "
            f"{text!r}", path=name, line=number)
    span, etype, cor, required, comment, annotator = fields
    parts = span.split()
    if len(parts) != 2:
        raise M2FormatError(f"edit span must be two integers, got {span!r}", path=name, line=number)
    try:
        start, end = int(parts[0]), int(parts[1])
    except ValueError:
        raise M2FormatError(f"edit offsets must be integers, got {span!r}",
                            path=name, line=number) from None
    try:
        ann = int(annotator.strip())
    except ValueError:
        raise M2FormatError(f"annotator id must be an integer, got {annotator!r}",
                            path=name, line=number) from None
    if (start, end) != (-1, -1) and not 0 <= start <= end <= n_tokens:
        raise M2FormatError(
            f"edit span {start} {end} is outside the sentence of {n_tokens} tokens",
            path=name, line=number)
    return M2Edit(start, end, etype, cor, ann, required, comment)


def read_m2(source: str | os.PathLike[str] | Iterable[str], name: str | None = None,
            errors: str = "strict") -> Iterator[M2Block]:
    """Stream the blocks of an M2 file (a path, ``-``, or an iterable of lines).

    ``errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising EncodingError.
    """
    label = name or (str(source) if isinstance(source, (str, os.PathLike)) else "<m2>")
    block: M2Block | None = None
    n_tokens = 0
    for number, text, _ in read_text_lines(source, label, errors):
        stripped = text.rstrip()
        if not stripped:
            if block is not None:
                yield block
                block = None
            continue
        if text.startswith("S ") or stripped == "S":
            if block is not None:
                yield block
            # trailing whitespace of any kind is not part of the sentence (and would not survive
            # a round trip: a final '\r' is a line terminator)
            block = M2Block(text[2:].rstrip(), [], number)
            n_tokens = len(block.tokens)
        elif text.startswith("A "):
            if block is None:
                raise M2FormatError("edit line before any 'S' line", path=label, line=number)
            block.edits.append(_parse_a_line(stripped, n_tokens, label, number))
        else:
            raise M2FormatError(f"expected a line starting with 'S ' or 'A ', got {text[:40]!r}",
                                path=label, line=number)
    if block is not None:
        yield block


def format_block(source: str, a_lines: Sequence[str]) -> str:
    """An M2 block: ``S`` line, edit lines, blank line."""
    return "".join([f"S {source}\n", *(f"{a}\n" for a in a_lines), "\n"])


def edits_to_m2_lines(edits: Sequence[Edit], annotator: int | str = 0) -> list[str]:
    """``A`` lines of one annotator's edits, or one noop line when there are none."""
    if not edits:
        return [noop_m2(annotator)]
    return [e.to_m2(annotator) for e in edits]


def write_m2(blocks: Iterable[M2Block], out: os.PathLike[str] | str) -> int:
    """Write blocks atomically to ``out`` (``-`` = stdout); returns the number written."""
    from .textio import atomic_output

    n = 0
    with atomic_output(out) as fh:
        for b in blocks:
            fh.write(b.to_m2())
            n += 1
    return n
