"""Metrics behind one protocol: ``get_metric(name, **settings).score(ScoreInput(...))``.

The families live in subpackages (``edits``: ERRANT, MaxMatch; ``ngram``: GLEU; ``lm``:
Scribendi and the language models; ``meta``: correlations, human-relative ratios). Importing this
package imports none of them; the documented functions below are loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from .common import ScoreResult, prf, signature
from .registry import Metric, ScoreInput, available_metrics, get_metric, register

#: lazily exported name -> module (relative to this package) that defines it
_LAZY = {
    "errant_score": "edits.errant", "errant_score_text": "edits.errant",
    "ErrantResult": "edits.errant", "ErrantMetric": "edits.errant",
    "MaxMatch": "edits.maxmatch", "maxmatch": "edits.maxmatch",
    "MaxMatchMetric": "edits.maxmatch",
    "GLEU": "ngram.gleu", "gleu": "ngram.gleu", "gleu_human": "ngram.gleu",
    "GleuMetric": "ngram.gleu",
    "Scribendi": "lm.scribendi", "scribendi": "lm.scribendi", "load_lm": "lm.models",
    "ScribendiMetric": "lm.scribendi",
    "ratio_score": "meta.ratio", "Annotations": "meta.ratio",
    "system_correlation": "meta.correlation", "expected_wins": "meta.correlation",
}

__all__ = ["Metric", "ScoreInput", "ScoreResult", "available_metrics", "get_metric", "prf",
           "register", "signature", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
