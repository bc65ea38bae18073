"""Default parser of a UD language: an explicit backend, a downloaded UDPipe model, or the
first installed spaCy pipeline of its pack."""

from __future__ import annotations

from typing import Any

from ...errors import ResourceError, UnknownLanguageError
from ...parse import Parser
from ..packs import get_pack

__all__ = ["default_parser"]

BACKENDS = ("spacy", "udpipe")


def default_parser(code: str, options: dict[str, Any]) -> Parser:
    """Parser from backend options: ``nlp`` (a loaded spaCy pipeline), ``spacy_model`` (name or
    path), ``udpipe_model`` (a .udpipe file), ``backend`` ("spacy" or "udpipe"), ``numpy_blas``
    (default True: see :func:`errtype.parse.spacy.use_numpy_blas`).

    Without options: the model fetched by ``errtype download CODE``, then the first installed
    spaCy pipeline of the language's pack; otherwise a ResourceError says what to install.
    """
    from ...parse.spacy import SpacyParser, load_pipeline

    unknown = set(options) - {"nlp", "spacy_model", "udpipe_model", "backend", "numpy_blas"}
    if unknown:
        raise TypeError(f"unknown backend option(s): {', '.join(sorted(unknown))}")
    backend = options.get("backend")
    if backend not in (None, *BACKENDS):
        raise ResourceError(f"unknown backend {backend!r}; choose 'udpipe' or 'spacy'")
    pack = get_pack(code)
    blas = options.get("numpy_blas", True)
    if options.get("nlp") is not None:
        return SpacyParser(options["nlp"])
    if options.get("udpipe_model") and backend != "spacy":
        from ...parse.udpipe import UDPipeParser
        return UDPipeParser(options["udpipe_model"])
    if pack is None and not options.get("spacy_model"):
        raise UnknownLanguageError(
            f"unknown language {code!r}: no language pack; pass a parser (udpipe_model=PATH or "
            "nlp=a spaCy pipeline; CLI --udpipe-model / --spacy-model) to type it with the "
            "generic UD classifier")
    if pack.parser == "unidic" and backend is None and not options.get("spacy_model"):
        from ...parse.unidic import UniDicParser
        return UniDicParser()
    if options.get("spacy_model") or backend == "spacy":
        return SpacyParser(load_pipeline(options.get("spacy_model") or pack.spacy,
                                         numpy_blas=blas))
    from ...download import cached_model
    model = cached_model(code)  # its digest verified
    if model is not None:
        from ...parse.udpipe import UDPipeParser
        return UDPipeParser(model, trusted=True)
    hints = []
    if pack.udpipe:
        hints.append(f"run 'errtype download {code}' (UDPipe model {pack.udpipe})")
    if backend != "udpipe" and pack.spacy:
        try:
            return SpacyParser(load_pipeline(pack.spacy, numpy_blas=blas))
        except ResourceError:
            hints.append("install a spaCy pipeline (" + ", ".join(pack.spacy) + ")")
    hints.append("pass a parser: udpipe_model=PATH or nlp=a loaded spaCy pipeline (on the "
                 "command line: --udpipe-model PATH or --spacy-model NAME)")
    raise ResourceError(f"no parser for {pack.name} ({code}): " + "; or ".join(hints))
