"""ERRANT 3.0.2's ``errant.edit.Edit``: a mutable edit holding spaCy spans of both sides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["Edit"]


def _text(toks: Any) -> str:
    return toks.text if toks else ""


class Edit:
    """An edit between two spaCy Docs, as ERRANT 3.0.2 builds it.

    ``edit`` is ``[o_start, o_end, c_start, c_end]``; ``o_toks``/``c_toks`` are the spaCy spans
    ``orig[o_start:o_end]``/``cor[c_start:c_end]`` and ``o_str``/``c_str`` their texts.
    """

    def __init__(self, orig: Any, cor: Any, edit: Sequence[int], type: str = "NA") -> None:
        self.o_start, self.o_end = edit[0], edit[1]
        self.o_toks = orig[self.o_start:self.o_end]
        self.o_str = _text(self.o_toks)
        self.c_start, self.c_end = edit[2], edit[3]
        self.c_toks = cor[self.c_start:self.c_end]
        self.c_str = _text(self.c_toks)
        self.type = type

    def minimise(self) -> Edit:
        """Drop tokens shared at the start, then at the end, of both sides; returns self."""
        while self.o_toks and self.c_toks and self.o_toks[0].text == self.c_toks[0].text:
            self.o_toks, self.c_toks = self.o_toks[1:], self.c_toks[1:]
            self.o_start += 1
            self.c_start += 1
        while self.o_toks and self.c_toks and self.o_toks[-1].text == self.c_toks[-1].text:
            self.o_toks, self.c_toks = self.o_toks[:-1], self.c_toks[:-1]
            self.o_end -= 1
            self.c_end -= 1
        self.o_str, self.c_str = _text(self.o_toks), _text(self.c_toks)
        return self

    def to_m2(self, id: int | str = 0) -> str:
        """The M2 ``A`` line of this edit for annotator ``id`` (corrected tokens space-joined)."""
        cor = " ".join(t.text for t in self.c_toks)
        return f"A {self.o_start} {self.o_end}|||{self.type}|||{cor}|||REQUIRED|||-NONE-|||{id}"

    def __str__(self) -> str:
        return (f"Orig: {[self.o_start, self.o_end, self.o_str]}, "
                f"Cor: {[self.c_start, self.c_end, self.c_str]}, Type: {self.type!r}")
