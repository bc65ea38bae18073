"""ERRANT 3.0.2's public Python API, backed by errtype: ``import errtype.errant as errant``.

``errant.load(lang, nlp=None)`` returns an :class:`~errtype.errant.annotator.Annotator` whose
``parse`` gives spaCy Docs and whose ``align``/``merge``/``classify``/``annotate``/``import_edit``
give ERRANT's :class:`~errtype.errant.alignment.Alignment` and :class:`~errtype.errant.edit.Edit`
objects, with ERRANT 3.0.2's results for English. Every errtype language is accepted
(``errant.load("cs")``); ``backend_options`` go to the language's parser (e.g. ``udpipe_model=``).
"""

from __future__ import annotations

from typing import Any

from .annotator import Annotator
from .version import __version__

__all__ = ["Annotator", "install_alias", "load", "__version__"]


def load(lang: str, nlp: Any = None, **backend_options: Any) -> Annotator:
    """An ERRANT Annotator for ``lang``; ``nlp``: an already loaded spaCy pipeline to use."""
    from ..annotator import Annotator as Engine

    if nlp is not None:
        backend_options["nlp"] = nlp
    return Annotator(lang, nlp, engine=Engine(lang, **backend_options))


def install_alias() -> None:
    """Make ``import errant`` (and ``errant.*``) give these modules in this process, for code
    written against ERRANT (:func:`errtype.errant.alias.install_alias`; an installable alias
    distribution: :func:`errtype.errant.alias.build_wheel`)."""
    from .alias import install_alias as install

    install()
