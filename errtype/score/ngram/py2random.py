"""The integer draws of Python 2's ``random`` module, reproduced on Python 3.

Seeding an integer and ``random()`` give the same Mersenne Twister stream in Python 2.7 and 3,
but ``randint``/``randrange``/``choice`` changed in Python 3.2 (they now use ``getrandbits``).
Python 2.7 computed ``randrange(start, stop)`` as ``start + int(random() * (stop - start))`` for
widths below 2**53, which is what the official GLEU relied on. Checked against CPython 2.7.18.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import repeat, starmap
from typing import TypeVar

T = TypeVar("T")

_MAXWIDTH = 1 << 53


class Py2Random(random.Random):
    """``random.Random`` whose integer draws follow Python 2.7 (seed with an ``int`` only)."""

    def seed(self, a: int | None = None, version: int = 2) -> None:  # type: ignore[override]
        if a is not None and (isinstance(a, bool) or not isinstance(a, int)):
            raise TypeError("Py2Random is only exact for integer seeds")
        super().seed(a)

    def randrange(self, start: int, stop: int | None = None,  # type: ignore[override]
                  step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step != 1:
            raise ValueError("Py2Random.randrange supports step 1 only")
        width = stop - start
        if width <= 0:
            raise ValueError(f"empty range for randrange ({start}, {stop})")
        if width >= _MAXWIDTH:
            raise ValueError("Py2Random.randrange: width of 2**53 or more is not emulated")
        return start + int(self.random() * width)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        return seq[int(self.random() * len(seq))]


def py2_randints(seed: int, k: int, count: int) -> list[int]:
    """``count`` draws of Python 2's ``randint(0, k - 1)`` after ``seed(seed)``."""
    rnd = random.Random(seed).random
    return list(map(int, map(float(k).__mul__, starmap(rnd, repeat((), count)))))


def py3_randints(seed: int, k: int, count: int) -> list[int]:
    """The same draws as Python 3's ``randint(0, k - 1)`` makes them (``getrandbits`` of
    ``k.bit_length()`` bits, redrawn while out of range), without its per-call overhead."""
    if k == 1:
        rng = random.Random(seed)
        return [rng.randint(0, 0) for _ in range(count)]
    grb = random.Random(seed).getrandbits
    bits = k.bit_length()
    out = []
    for _ in range(count):
        r = grb(bits)
        while r >= k:
            r = grb(bits)
        out.append(r)
    return out
