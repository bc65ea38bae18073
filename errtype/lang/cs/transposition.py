"""The Czech transposition-compatibility test (ERRANT_BEHAVIOUR §7.6)."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache

from ..ud.text import moving_assignment
from .charcost import weighted_char_cost

__all__ = ["is_transposition_compatible"]

_THRESHOLD = 0.25
_F32 = struct.Struct("f")


def _float32(x: float) -> float:
    """Round a double to the nearest float32 (the fork stores the cost matrix as float32)."""
    return _F32.unpack(_F32.pack(x))[0]


def _similar(a: str, b: str) -> bool:
    """weighted_char_cost(a, b) < 0.25 as stored in float32, with an exact length pre-check.

    The weighted distance is at least the length difference (every surplus char costs one
    insertion), so 2 * |len(a) - len(b)| / (len(a) + len(b)) >= 0.25 already rules a pair out.
    """
    la, lb = len(a), len(b)
    if la + lb and 2 * abs(la - lb) / (la + lb) >= _THRESHOLD:
        return False
    return _float32(weighted_char_cost(a, b)) < _THRESHOLD


@lru_cache(maxsize=1 << 16)
def _compatible(src: tuple[str, ...], tgt: tuple[str, ...]) -> bool:
    n = len(src)
    if n != len(tgt):
        return False
    if n > 5:
        return sorted(s.lower() for s in src) == sorted(t.lower() for t in tgt)
    if n < 2:
        return False
    # the first token must move, and so must the last: cheap necessary conditions first
    first = [j > 0 and _similar(src[0], tgt[j]) for j in range(n)]
    if not any(first):
        return False
    last = [j < n - 1 and _similar(src[-1], tgt[j]) for j in range(n)]
    if not any(last):
        return False
    ok = [first] + [[_similar(s, t) for t in tgt] for s in src[1:-1]] + [last]
    return moving_assignment(ok)


def is_transposition_compatible(src: Sequence[str], tgt: Sequence[str]) -> bool:
    """True if ``tgt`` is a reordering of ``src`` up to small spelling changes.

    Equal lengths are required. Windows longer than 5 tokens must be exact case-insensitive
    reorderings; shorter ones need a permutation moving the first token away from the front and
    the last away from the back with every pair's weighted char cost below 0.25.
    """
    return _compatible(tuple(src), tuple(tgt))
