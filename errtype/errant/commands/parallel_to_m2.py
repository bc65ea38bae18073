"""ERRANT 3.0.2's ``errant.commands.parallel_to_m2``: ``noop_edit`` and ``main`` (``errtype-m2
--no-realign``: a line of several sentences is aligned as one sequence, as ERRANT does)."""

from __future__ import annotations

from ...cli.m2 import errant_main as main
from ...edit import noop_m2

__all__ = ["main", "noop_edit"]


def noop_edit(id: int | str = 0) -> str:
    """The M2 line of an annotator who made no change."""
    return noop_m2(id)


