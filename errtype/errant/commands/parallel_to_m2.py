"""ERRANT 3.0.2's ``errant.commands.parallel_to_m2``: ``noop_edit`` and ``main``."""

from __future__ import annotations

from ...cli.m2 import main
from ...edit import noop_m2

__all__ = ["main", "noop_edit"]


def noop_edit(id: int | str = 0) -> str:
    """The M2 line of an annotator who made no change."""
    return noop_m2(id)


