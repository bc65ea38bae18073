"""Shared fixtures. Fidelity tests read ../shared (beside the project root) and skip without it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from errtype.m2 import LITERAL, M2Edit, apply_edits

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """Path under ../shared/data, skipping the calling test when it is absent."""
    p = SHARED.joinpath("data", *parts)
    if not p.exists():
        pytest.skip(f"shared data not available: {p} (set ERRTYPE_SHARED to the shared/ folder)")
    return p


@pytest.fixture
def shared() -> type:
    """Access to ../shared/data: ``shared.path("oracles", "en_demo", "orig.txt")``."""

    class _Shared:
        root = SHARED
        path = staticmethod(shared_path)

    return _Shared


def apply_m2(tokens: Sequence[str], edits: Sequence[M2Edit]) -> list[str]:
    """The correction an M2 annotator's edits describe, corrections taken literally as errtype
    writes them (the library's :func:`errtype.m2.apply_edits`, literal rules; noops ignored)."""
    return apply_edits(tokens, edits, LITERAL).tokens
