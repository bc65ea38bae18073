"""Load modules of gec-metrics (PyPI ``gec-metrics``, MIT) without its package ``__init__``.

``import gec_metrics`` imports every metric it ships, and with them torch, transformers,
bert-score, openai and outlines. The comparisons here need only the light modules (GREEN, the
metric base with ``rank_systems``), whose own imports are numpy, trueskill and gecommon; so the
installed package is registered as a namespace and the one module is executed.
A minimal install for them: ``pip install --no-deps gec-metrics==0.1.1 gecommon`` plus
``pip install trueskill``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path


def load(module: str) -> types.ModuleType:
    """``gec_metrics.<module>`` (e.g. ``metrics.green``); ImportError when it is not installed."""
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
