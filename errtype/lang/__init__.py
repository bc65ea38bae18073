"""Language registry: maps a code ("en", "cs", "uk", ...) to a Language.

Resolution order: languages registered with :func:`register`, the built-in English, Czech and
Chinese,
third-party packages (entry point group ``errtype.languages``: name = language code, value = a
Language subclass or factory), then every language of the pack table (:mod:`.packs`) through the
generic UD language. Any other code also resolves to the generic UD language, which then needs an
explicit parser (``udpipe_model=`` or ``nlp=``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from .base import AlignOp, Language, Parser
from .packs import PACKS

__all__ = ["AlignOp", "Language", "Parser", "available", "get_language", "register"]

_BUILTIN = {"en": "errtype.lang.en:English", "cs": "errtype.lang.cs:Czech",
            "zh": "errtype.lang.zh:Chinese"}
_FACTORIES: dict[str, Callable[[], Language]] = {}
_CACHE: dict[str, Language] = {}


def register(code: str, factory: Callable[[], Language]) -> None:
    """Register (or replace) a language under ``code``."""
    _FACTORIES[code] = factory
    _CACHE.pop(code, None)


def _load_target(target: str) -> Callable[[], Language]:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def available() -> list[str]:
    """Codes of all known languages (built-in, packs, registered and installed plug-ins)."""
    codes = set(_BUILTIN) | set(_FACTORIES) | set(PACKS)
    codes |= {ep.name for ep in entry_points(group="errtype.languages")}
    return sorted(codes)


def _factory(code: str) -> Callable[[], Language]:
    factory = _FACTORIES.get(code)
    if factory is None and code in _BUILTIN:
        factory = _load_target(_BUILTIN[code])
    if factory is None:
        for ep in entry_points(group="errtype.languages"):
            if ep.name == code:
                return ep.load()
    if factory is None:
        from .ud import UDLanguage
        return lambda: UDLanguage(code)
    return factory


def get_language(code: str, **options: Any) -> Language:
    """The (cached) Language object for ``code``; ``options`` (``feats=True``) give a
    configured copy."""
    lang = _CACHE.get(code)
    if lang is None:
        lang = _CACHE[code] = _factory(code)()
    return lang.with_options(**options) if options else lang
