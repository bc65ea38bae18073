"""Edit: one span-level difference between an original and a corrected sentence."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .m2 import LITERAL, NOOP, M2Edit, edit_line, noop_m2
from .m2 import apply_edits as _apply
from .tokens import Sentence

__all__ = ["NOOP", "Edit", "apply_edits", "minimise", "noop_m2"]


@dataclass(frozen=True, slots=True)
class Edit:
    """A typed edit. Offsets are 0-based token indices, end exclusive."""

    o_start: int
    o_end: int
    c_start: int
    c_end: int
    o_str: str = ""
    c_str: str = ""
    type: str = "NA"

    @classmethod
    def from_spans(
        cls, orig: Sentence, cor: Sentence, o_start: int, o_end: int, c_start: int, c_end: int,
        type: str = "NA",
    ) -> Edit:
        return cls(o_start, o_end, c_start, c_end, orig.span_text(o_start, o_end),
                   cor.span_text(c_start, c_end), type)

    def with_type(self, type: str) -> Edit:
        return replace(self, type=type)

    @property
    def span(self) -> tuple[int, int, int, int]:
        return (self.o_start, self.o_end, self.c_start, self.c_end)

    def to_m2(self, annotator: int | str = 0) -> str:
        """The M2 ``A`` line (without newline)."""
        return edit_line(self.o_start, self.o_end, self.type, self.c_str, annotator)

    def __str__(self) -> str:
        return (f"Orig: {[self.o_start, self.o_end, self.o_str]}, "
                f"Cor: {[self.c_start, self.c_end, self.c_str]}, Type: {self.type!r}")


def minimise(edit: Edit, orig: Sentence, cor: Sentence) -> Edit:
    """Drop identical leading, then trailing, tokens shared by both sides (ERRANT's minimise)."""
    o_s, o_e, c_s, c_e = edit.span
    while o_s < o_e and c_s < c_e and orig[o_s].text == cor[c_s].text:
        o_s += 1
        c_s += 1
    while o_s < o_e and c_s < c_e and orig[o_e - 1].text == cor[c_e - 1].text:
        o_e -= 1
        c_e -= 1
    if (o_s, o_e, c_s, c_e) == edit.span:
        return edit
    return Edit.from_spans(orig, cor, o_s, o_e, c_s, c_e, edit.type)


def apply_edits(orig: Sequence[str], edits: Iterable[Edit]) -> list[str]:
    """Apply extracted edits (``c_str`` = the corrected tokens) to ``orig``: a view of
    :func:`errtype.m2.apply_edits` with the literal :data:`errtype.m2.LITERAL` rules."""
    m2 = [M2Edit(e.o_start, e.o_end, e.type, e.c_str) for e in edits if e.o_start >= 0]
    return _apply(orig, m2, LITERAL).tokens
