"""errtype: grammatical error correction toolkit (edit extraction, typing, M2, scoring)."""

from __future__ import annotations

__version__ = "0.1.0"
