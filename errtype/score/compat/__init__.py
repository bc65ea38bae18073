"""Compatibility profiles: ``errtype score --compat NAME`` reproduces a named official pipeline.

* ``multigec``: MultiGEC-2025's official GLEU and ERRANT scoring of Markdown essay files
  (:mod:`errtype.score.compat.multigec`).
"""

from __future__ import annotations

__all__ = ["PROFILES"]

#: the profiles ``--compat`` accepts
PROFILES = ("multigec",)
