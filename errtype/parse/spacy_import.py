"""Importing spaCy in errtype's command-line processes without torch and cupy.

``import spacy`` imports thinc, and thinc's compatibility module (``thinc.compat``) imports torch
and cupy whenever they are installed, only to record whether they are there: 1.1-1.3 s of a
start-up with CPU torch (2.9 s for ``errtype-m2`` on one line instead of 1.5 s), about 4 s more
with CUDA torch and cupy. errtype's pipelines (thinc's own layers on numpy) use neither.

In a command-line process (:func:`enable`, called by :func:`errtype.cli.common.run` when the
process is an errtype command), :func:`import_spacy` imports ``thinc.compat`` while ``torch``
and ``cupy`` are marked unimportable, then removes the marks at once: thinc records them as
absent (``has_torch = False``), and anything imported later (transformers for the Scribendi
score, a user's own code) imports torch as usual. Nothing is hidden when:

* the process is not an errtype command (library use, tests calling ``main()``),
* thinc or torch is already imported (there is nothing left to save),
* ``$ERRTYPE_THINC_TORCH=1`` is set (the escape hatch), or
* the pipeline to be loaded (the first of the candidates found) may need torch or cupy: its
  ``config.cfg`` names an architecture outside spaCy's own (``spacy-transformers``,
  ``spacy-curated-transformers``, ...) or an architecture or layer with "torch" in its name
  (``spacy.TorchBiLSTMEncoder``, ``PyTorchWrapper``), or no candidate is found without
  importing it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["ENV", "enable", "import_spacy", "needs_torch"]

#: set to 1 to let thinc import torch and cupy in errtype's commands too
ENV = "ERRTYPE_THINC_TORCH"
#: what thinc.compat imports only to record that it is installed
HIDDEN = ("torch", "cupy", "cupyx")

_state = {"enabled": False}
#: ``@architectures = "name"`` / ``{"@layers": "name"}`` in a config: the model code it runs
_MODEL_CODE = re.compile(r'"?@(architectures|layers)"?\s*[=:]\s*"([^"]*)"')


def enable() -> None:
    """Let :func:`import_spacy` import thinc without torch in this (command-line) process."""
    _state["enabled"] = True


def _pipeline_dirs(model: str) -> list[Path] | None:
    """The folders that may hold ``model``'s config.cfg (a path or an installed package)."""
    path = Path(model)
    if path.is_dir():
        return [path, *sorted(p for p in path.iterdir() if p.is_dir())]
    if not model.isidentifier():
        return None
    try:
        spec = importlib.util.find_spec(model)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    return [root, *sorted(p for p in root.iterdir() if p.is_dir())]


def needs_torch(model: str) -> bool | None:
    """Whether the spaCy pipeline ``model`` (name or path) may need torch or cupy: False when
    every architecture its config.cfg names is one of spaCy's own (``spacy.``) and no
    architecture or layer has "torch" in its name, True otherwise, None when it is not found
    without importing it."""
    dirs = _pipeline_dirs(model)
    configs = [d / "config.cfg" for d in dirs or [] if (d / "config.cfg").is_file()]
    if not configs:
        return None
    for config in configs:
        try:
            text = config.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return True
        for kind, name in _MODEL_CODE.findall(text):
            if "torch" in name.lower() or (kind == "architectures"
                                           and not name.startswith("spacy.")):
                return True
    return False


def _torch_free(models: Sequence[str]) -> bool:
    """Whether the pipeline spaCy will load, the first of ``models`` found, needs no torch (no
    models: a blank pipeline, which needs none)."""
    for model in models:
        verdict = needs_torch(model)
        if verdict is not None:
            return not verdict
    return not models


@contextlib.contextmanager
def _unimportable(names: Sequence[str]) -> Iterator[None]:
    """``import NAME`` raises ImportError inside (Python's own ``sys.modules[NAME] = None``
    rule); the modules are importable again after."""
    marked = [n for n in names if n not in sys.modules]
    for n in marked:
        sys.modules[n] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        for n in marked:
            if sys.modules.get(n, 0) is None:
                del sys.modules[n]


def import_spacy(models: Sequence[str] = ()) -> ModuleType:
    """``import spacy``; in an errtype command about to load ``models``, with thinc seeing torch
    and cupy as absent when none of the models needs them (see the module docstring)."""
    if (_state["enabled"] and "thinc.compat" not in sys.modules
            and not any(n in sys.modules for n in HIDDEN)
            and os.environ.get(ENV, "").strip() != "1"
            and _torch_free(models)):
        with _unimportable(HIDDEN):
            import thinc.compat  # noqa: F401 - records torch and cupy as absent
    import spacy

    return spacy
