"""The settings every metric comparing ERRANT edits shares (``errant``, ``senterrant``,
``cleme``, ``goto``, ``pt-errant``): one dataclass the five extend.

* ``beta``: the F-beta of the metric's headline score (:attr:`EditMetric.main`);
* ``lang`` and ``annotator``: the language whose annotator extracts the edits of text
  hypotheses, and that :class:`errtype.Annotator` itself (default ``errtype.load(lang)``, made
  on first use). ``annotator`` means this object in every metric; a gold *coder* (one
  annotator's edits in the gold M2) is called a coder;
* ``gold_edits``: how a scoring suite makes the gold edits from an M2 gold
  (:data:`errtype.score.suite.EDIT_GOLD`);
* ``name``: the metric's name in results and signatures.

Settings are keyword-only: ``get_metric(name, **settings)`` is the way to configure one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...m2 import M2Block
from ..common import f_key
from ..options import option
from ..registry import ScoreInput

__all__ = ["EditMetric"]


@dataclass(kw_only=True)
class EditMetric:
    """Shared settings of the ERRANT-edit metrics (see the module docstring)."""

    beta: float = option(0.5, ge=0)
    lang: str = "en"
    annotator: Any = field(default=None, repr=False, compare=False)
    gold_edits: str = "m2"
    name: str = ""
    uses: ClassVar[tuple[str, ...]] = ("gold", "hyp_edits")

    @property
    def main(self) -> str:
        """The key of the headline score in the result's corpus scores (``f0.5``)."""
        return f_key(self.beta)

    def edit_settings(self) -> dict[str, Any]:
        """The signature entries of the edits compared: who extracted the system's, and how
        the gold's were made."""
        return {"edits": f"errtype-{self.lang}", "gold": self.gold_edits}

    def hyp_blocks(self, data: ScoreInput) -> list[M2Block]:
        """The hypothesis' edits: given, or extracted with the annotator (once per system)."""
        from ..extract import hypothesis_blocks

        return hypothesis_blocks(data, self.lang, self.annotator)
