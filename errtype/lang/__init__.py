"""Language registry: maps a code ("en", "cs", "uk", ...) to a Language.

Resolution order: languages registered with :func:`register`, the built-in English, Czech and
Chinese,
third-party packages (entry point group ``errtype.languages``: name = language code, value = a
Language subclass or factory), then every language of the pack table (:mod:`.packs`) through the
generic UD language. Any other code also resolves to the generic UD language, which then needs an
explicit parser (``udpipe_model=`` or ``nlp=``).

Each language declares its options as data (:attr:`Language.options`, :mod:`.options`); the
registry lists those of the built-in languages (:func:`declared_options`), from which the
commands build their language options and :class:`errtype.Annotator` tells them from backend
options.

The registry also builds the default components of a language that does not override the hooks
(a third-party ``Language`` subclass): the pack's parser factory, ERRANT 2.0.0's merge rules and
the generic UD classifier (:func:`with_defaults`); :mod:`.base` knows none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from .base import AlignOp, Language, Parser
from .options import LanguageOption
from .packs import PACKS

__all__ = ["AlignOp", "Language", "LanguageOption", "Parser", "available", "declared_options",
           "get_language", "option_names", "register", "with_defaults"]

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


def with_defaults(lang: Language) -> Language:
    """``lang`` with the default components it lacks: the pack's parser factory
    (:func:`errtype.lang.ud.backend.default_parser`), ERRANT 2.0.0's merge rules
    (:func:`errtype.merge.errant2_rules`) and the generic UD classifier
    (:func:`errtype.lang.ud.make_classifier`). Languages that override the hooks never read
    them."""
    if lang.parser_factory is None:
        from .ud.backend import default_parser
        lang.parser_factory = default_parser
    if lang.merger is None:
        from ..merge import errant2_rules
        lang.merger = errant2_rules()
    if lang.classifier_factory is None:
        from .ud import make_classifier
        lang.classifier_factory = make_classifier
    return lang


def get_language(code: str, **options: Any) -> Language:
    """The (cached) Language object for ``code``, with the default components it lacks
    (:func:`with_defaults`); ``options`` (``feats=True``) give a configured copy."""
    lang = _CACHE.get(code)
    if lang is None:
        lang = _CACHE[code] = with_defaults(_factory(code)())
    return lang.with_options(**options) if options else lang


#: the built-in languages that declare options of their own (the others take the base
#: language's): only these are imported to list them, so that a command starts without importing
#: every language (tests/test_job_design.py checks this against the classes)
_DECLARING = ("zh",)


def declared_options() -> list[tuple[str | None, LanguageOption, tuple[str, ...]]]:
    """``(title, option, codes)`` of each option the base language and the built-in languages
    declare, in declaration order: the command line's heading of the option (None: with the
    backend options) and the built-in codes that declare it (none for the base language's,
    which every language takes unless it declares its own)."""
    found: dict[LanguageOption, tuple[str | None, list[str]]] = {
        o: (Language.options_title, []) for o in Language.options}
    for code in _DECLARING:
        cls = _load_target(_BUILTIN[code])
        for o in cls.options:
            found.setdefault(o, (cls.options_title, []))[1].append(code)
    return [(title, o, tuple(codes)) for o, (title, codes) in found.items()]


def option_names(code: str) -> frozenset[str]:
    """The names of the options language ``code`` takes (a built-in language's from its class,
    without building it)."""
    if code in _BUILTIN and code not in _FACTORIES:
        cls: Any = _load_target(_BUILTIN[code])
    else:
        cls = type(get_language(code))
    return frozenset(o.name for o in cls.options)
