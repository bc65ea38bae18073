"""Load modules of gec-metrics (PyPI ``gec-metrics``, MIT) without its package ``__init__``.

``import gec_metrics`` imports every metric it ships, and with them torch, transformers,
bert-score, openai and outlines. The comparisons here need only the light modules (GREEN, the
metric base with ``rank_systems``), whose own imports are numpy, trueskill and gecommon; so the
installed package is registered as a namespace and the one module is executed.
A minimal install for them: ``pip install --no-deps gec-metrics==0.1.1 gecommon`` plus
``pip install trueskill``.

The edit attributors (``gec_metrics.analysis.attributor``) are newer than the 0.1.1 release:
install gec-metrics from its repository at the commit :data:`ATTRIBUTOR_COMMIT`
(:data:`ATTRIBUTOR_INSTALL`); they import ``errant`` (errtype's ``test`` extra has it).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: the gec-metrics commit whose attributors (add, sub, shapley) errtype is compared with
ATTRIBUTOR_COMMIT = "320c8307b733ba1db6efb3e05c1c14464a2a5f11"
ATTRIBUTOR_INSTALL = ("pip install --no-deps gecommon trueskill "
                      f"git+https://github.com/gotutiyan/gec-metrics@{ATTRIBUTOR_COMMIT}")


def load(module: str) -> types.ModuleType:
    """``gec_metrics.<module>`` (e.g. ``metrics.green``); ImportError when it is not installed."""
    registered = sys.modules.get("gec_metrics")
    if registered is not None and getattr(registered, "__path__", None):
        root = Path(next(iter(registered.__path__)))  # loaded before (no __spec__ then)
    else:
        spec = importlib.util.find_spec("gec_metrics")
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("gec-metrics is not installed")
        root = Path(next(iter(spec.submodule_search_locations)))
    parts = ["gec_metrics", *module.split(".")[:-1]]
    for i in range(len(parts)):
        name = ".".join(parts[:i + 1])
        if name not in sys.modules:
            pkg = types.ModuleType(name)
            pkg.__path__ = [str(root.joinpath(*parts[1:i + 1]))]
            sys.modules[name] = pkg
    return importlib.import_module(f"gec_metrics.{module}")


def version() -> str:
    from importlib.metadata import version as v

    return v("gec-metrics")


def attributor(name: str) -> Any:
    """gec-metrics' attributor class ``name`` (``add``, ``sub``, ``shapley``); its module imports
    ``gec_metrics.metrics.MetricBase``, given here from the light ``metrics.base`` module."""
    base = load("metrics.base")
    sys.modules["gec_metrics.metrics"].MetricBase = base.MetricBase  # type: ignore[attr-defined]
    module = load(f"analysis.attributor.{name}")
    return getattr(module, f"Attributor{name.capitalize()}")


def bound_green(references: Sequence[str], **config: Any) -> Any:
    """gec-metrics' GREEN with one sentence's ``references`` bound, so that its
    ``score_sentence(sources, hypotheses)`` is what the attributors call (they pass no
    references: as written they serve reference-free metrics)."""
    green = load("metrics.green").GREEN

    class BoundGreen(green):  # type: ignore[misc, valid-type]
        def score_sentence(self, sources: list[str], hypotheses: list[str],
                           refs: list[list[str]] | None = None) -> list[float]:
            refs = refs or [[r] * len(hypotheses) for r in references]
            return super().score_sentence(sources, hypotheses, refs)

    return BoundGreen(green.Config(**config))


def peer_edits(edits: Sequence[Any]) -> list[Any]:
    """errtype edits (``start``, ``end``, ``cor``, ``type``) as ERRANT ``Edit`` objects with the
    fields gec-metrics' ``apply_edits`` reads (offsets into the source's tokens, correction)."""
    import errant.edit

    out = []
    for e in edits:
        pe = errant.edit.Edit.__new__(errant.edit.Edit)
        pe.o_start, pe.o_end, pe.c_str, pe.type = e.start, e.end, e.cor, e.type
        out.append(pe)
    return out


def attribute(name: str, metric: Any, source: str, edits: Sequence[Any],
              max_num_edits: float = float("inf")) -> list[float]:
    """gec-metrics' attribution scores of ``edits`` (errtype edits) of one sentence, computed by
    its attributor ``name`` with ``metric`` (a gec-metrics metric); ERRANT is not loaded, the
    edits are given (``inputs_edits``)."""
    cls = attributor(name)
    att = cls.__new__(cls)  # its __init__ loads spaCy for ERRANT, which given edits do not need
    att.config = cls.Config(metric=metric, max_num_edits=max_num_edits)
    att.metric, att.errant_annotator = metric, None
    return list(att.attribute(src=source, inputs_edits=peer_edits(edits)).attribution_scores)
