"""Re-typing a gold M2 with the annotator (``errtype-m2 -gold``), cached on disk.

The re-typed gold is cached under a key: the SHA-256 of the gold file and the annotator's
signature (language, ``feats``, parser and model, errtype version, re-typing settings). The
cache file is in the user's cache folder (``$ERRTYPE_CACHE_DIR``, else
``$XDG_CACHE_HOME/errtype``, else ``~/.cache/errtype``; subfolder ``retyped``, file
``NAME.KEY.m2``), never beside the gold: the user's data folder is left as it was. Where the
cache folder cannot be written the gold is re-typed without caching. Sentences are parsed in
batches (:class:`BatchParsed`). Files are written atomically; an entry that does not read back
as one block per gold block with the same sentences is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from .errors import ErrtypeError, InputError
from .m2 import M2Block, read_m2

PathLike = str | os.PathLike[str]
#: what ``errtype-m2 -gold`` is run with (part of the key)
SETTINGS = "mode:gold|minimise:1|old_cats:0|lev:0|merging:rules|compat:0"


@dataclass
class Retyped:
    """Re-typed gold blocks and where they came from (``cached``: read from ``path``)."""

    blocks: list[M2Block]
    path: Path | None
    cached: bool


def annotator_signature(annotator: Any) -> str:
    """What the re-typed types depend on: language, features, parser and model, version."""
    parser = getattr(annotator, "parser", None)
    name = getattr(parser, "name", None) or type(parser).__name__
    feats = int(bool(getattr(annotator.language, "feats", False)))
    return (f"retype|lang:{annotator.lang}|feats:{feats}|parser:{name}|errtype:{__version__}|"
            f"{SETTINGS}")


def cache_key(gold: PathLike, annotator: Any) -> str:
    from .download import sha256_file

    text = f"{sha256_file(gold)}\n{annotator_signature(annotator)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _writable(folder: Path) -> bool:
    """A folder we may write to: permitted, and with some write bit set (a folder whose mode
    forbids writing is left alone even by root)."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return False
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)) and os.access(
        folder, os.W_OK | os.X_OK)


def cache_paths(gold: PathLike, key: str) -> list[Path]:
    """Where the cache entry may be: the user cache (:func:`errtype.download.cache_dir`)."""
    from .download import cache_dir

    return [cache_dir() / "retyped" / f"{Path(gold).name}.{key}.m2"]


def _read_entry(path: Path, gold: Sequence[M2Block]) -> list[M2Block] | None:
    """The cached blocks (with the gold's line numbers), or None when missing or corrupt."""
    if not path.is_file():
        return None
    try:
        blocks = list(read_m2(path))
    except (ErrtypeError, OSError, UnicodeError, ValueError):
        return None
    if len(blocks) != len(gold) or any(b.source != g.source or b.problems
                                       for b, g in zip(blocks, gold, strict=True)):
        return None
    return [M2Block(g.source, b.edits, g.line) for b, g in zip(blocks, gold, strict=True)]


class BatchParsed:
    """The annotator with ``parse`` answered from batches: on the first request of a gold
    sentence, it and the sentences of the next ``window`` gold blocks, with their annotators'
    corrections as :func:`errtype.convert.reannotate_block` builds them, are parsed together by
    the parser's ``parse_many`` (one batch costs little more than one sentence parsed alone);
    any other text is parsed alone. A parse is the same either way."""

    def __init__(self, annotator: Any, blocks: Sequence[M2Block], window: int = 512) -> None:
        self._annotator = annotator
        self._blocks = blocks
        self._window = window
        self._at: dict[str, list[int]] = {}
        for i, b in enumerate(blocks):
            self._at.setdefault(b.source, []).append(i)
        self._cursor = 0
        self._table: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._annotator, name)

    def parse(self, text: str, tokenize: bool = False) -> Any:
        if not tokenize:
            if text not in self._table and text in self._at:
                starts = self._at[text]
                self._fill(next((i for i in starts if i >= self._cursor), starts[0]))
            if text in self._table:
                return self._table[text]
        return self._annotator.parse(text, tokenize)

    def _fill(self, start: int) -> None:
        from . import m2

        texts = []
        for b in self._blocks[start:start + self._window]:
            texts.append(b.source)
            for edits in b.edits_by_annotator().values():
                real = [e for e in edits if not e.is_noop]
                try:
                    texts.append(m2.apply_edits(b.tokens, real, m2.GOLD).text)
                except (ErrtypeError, IndexError, ValueError):
                    continue  # reannotate_block reports the block's problem
        unique = list(dict.fromkeys(texts))
        self._table = dict(zip(unique, self._annotator.parser.parse_many(unique), strict=True))
        self._cursor = start


def _write_entry(annotator: Any, gold_path: PathLike, target: Path,
                 gold: Sequence[M2Block]) -> None:
    from .convert import m2_to_m2

    if hasattr(getattr(annotator, "parser", None), "parse_many"):
        annotator = BatchParsed(annotator, gold)
    try:
        m2_to_m2(annotator, gold_path, target, mode="gold")
    except InputError as exc:  # name the gold file and line, without m2_to_m2's CLI hint
        reason = exc.reason.split(" (use --on-error skip")[0]
        raise InputError(f"cannot re-type the gold: {reason} (scoring the gold's own edits "
                         f"and types needs no re-typing)", path=str(gold_path),
                         line=exc.line) from exc


def retype_gold(gold_path: PathLike, gold: Sequence[M2Block], annotator: Any,
                cache: bool = True) -> Retyped:
    """The gold blocks (read from ``gold_path``) with every edit re-typed by ``annotator``,
    from the cache when a valid entry exists, else computed and cached."""
    import tempfile

    if cache:
        paths = cache_paths(gold_path, cache_key(gold_path, annotator))
        for p in paths:
            found = _read_entry(p, gold)
            if found is not None:
                return Retyped(found, p, True)
        for p in paths:
            folder = p.parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
                if not _writable(folder):
                    continue
                _write_entry(annotator, gold_path, p, gold)
            except OSError:
                continue
            found = _read_entry(p, gold)
            if found is not None:
                return Retyped(found, p, False)
    with tempfile.TemporaryDirectory(prefix="errtype-retype-") as tmp:
        target = Path(tmp) / "gold.m2"
        _write_entry(annotator, gold_path, target, gold)
        found = _read_entry(target, gold)
    if found is None:
        raise InputError("the re-typed gold does not match the gold's sentences",
                         path=str(gold_path))
    return Retyped(found, None, False)
