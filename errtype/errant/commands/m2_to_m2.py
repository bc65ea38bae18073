"""ERRANT 3.0.2's ``errant.commands.m2_to_m2`` (the ``errant_m2`` command): ``main``,
``parse_args``, ``simplify_edits``, ``get_cor_and_edits`` and ``noop_edit``.

``main`` is ``errtype-m2 --no-realign`` (``m2_file -out OUT (-gold | -auto) [-no_min]
[-old_cats] [-lev] [-merge ...]``, errtype's defaults, a block of several sentences aligned as one
sequence as ERRANT does; ``--errant-compat`` for ERRANT's M2 handling). The helpers
take and return what ERRANT's do: ``simplify_edits`` groups an M2 block's edit lines by
annotator id as ``[start, end, type, correction]``; ``get_cor_and_edits`` applies them with
ERRANT's rules (:data:`errtype.m2.ERRANT`: sorted by span, corrections literal, detection edits
keep the original words) and returns the corrected text and
``[o_start, o_end, c_start, c_end, type, correction]`` in span order.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ...cli.m2 import build_parser
from ...cli.m2 import errant_main as main
from ...edit import noop_m2
from ...m2 import ERRANT, M2Edit, _parse_a_line, apply_edits

__all__ = ["get_cor_and_edits", "main", "noop_edit", "parse_args", "simplify_edits"]

#: token count that lets any span through the line parser (ERRANT does not check spans here)
_ANY_LENGTH = 1 << 62


def parse_args() -> argparse.Namespace:
    """The command-line arguments of ``errant_m2`` (those of ``errtype-m2``)."""
    return build_parser().parse_args()


def simplify_edits(edits: Sequence[str]) -> dict[str, list[list[Any]]]:
    """``{annotator id: [[start, end, type, correction], ...]}`` from M2 edit lines, ids and
    edits in file order; a malformed line raises :class:`errtype.errors.M2FormatError`."""
    out: dict[str, list[list[Any]]] = {}
    for number, line in enumerate(edits, 1):
        e = _parse_a_line(line.rstrip("\n"), _ANY_LENGTH, "<edit lines>", number)
        out.setdefault(str(e.annotator), []).append([e.start, e.end, e.type, e.cor])
    return out


def get_cor_and_edits(orig: str, edits: Sequence[Sequence[Any]]
                      ) -> tuple[str, list[list[Any]]]:
    """The corrected text of ``edits`` (``[o_start, o_end, type, correction]``) applied to the
    tokenised ``orig``, and each edit as ``[o_start, o_end, c_start, c_end, type, correction]``
    (correction whitespace-normalised), sorted by original span."""
    m2 = [M2Edit(int(e[0]), int(e[1]), e[2], e[3]) for e in edits]
    result = apply_edits(orig.split(), m2, ERRANT)
    placed = sorted(result.placed, key=lambda p: (p.edit.start, p.edit.end))
    return result.text, [[p.edit.start, p.edit.end, p.c_start, p.c_end, p.edit.type,
                          " ".join(p.edit.cor.split())] for p in placed]


def noop_edit(id: int | str = 0) -> str:
    """The M2 line of an annotator who made no change."""
    return noop_m2(id)
