"""Language registry: maps a code ("en", "cs", ...) to a Language.

Built-in languages are imported lazily; third-party packages register through the entry point
group ``errtype.languages`` (name = language code, value = a Language subclass or factory).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points

from ..errors import UnknownLanguageError
from .base import AlignOp, Language, Parser

__all__ = ["AlignOp", "Language", "Parser", "available", "get_language", "register"]

_BUILTIN = {"en": "errtype.lang.en:English", "cs": "errtype.lang.cs:Czech"}
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
    """Codes of all known languages (built-in, registered and installed plug-ins)."""
    codes = set(_BUILTIN) | set(_FACTORIES)
    codes |= {ep.name for ep in entry_points(group="errtype.languages")}
    return sorted(codes)


def get_language(code: str) -> Language:
    """The (cached) Language object for ``code``."""
    if code in _CACHE:
        return _CACHE[code]
    factory = _FACTORIES.get(code)
    if factory is None and code in _BUILTIN:
        factory = _load_target(_BUILTIN[code])
    if factory is None:
        for ep in entry_points(group="errtype.languages"):
            if ep.name == code:
                factory = ep.load()
                break
    if factory is None:
        raise UnknownLanguageError(
            f"unknown language {code!r}; available: {', '.join(available())}"
        )
    lang = factory()
    _CACHE[code] = lang
    return lang
