"""Resumable output: a long conversion that dies continues where its last checkpoint was.

``OUT`` is written as ``OUT.partial``; every ``step`` items (at most once a second) the file is
flushed to disk and ``OUT.partial.json`` records how many items it holds complete, its size in
bytes, the report so far and the job's identity (input files by size and SHA-256, options,
model, errtype version). A run with the same identity truncates ``OUT.partial`` to the recorded
size and continues after the recorded item; at the end ``OUT.partial`` is renamed to ``OUT`` and
the checkpoint removed. A checkpoint of a different job is refused, never silently continued.

The step is the batch size, so a resumed run annotates exactly the batches the uninterrupted run
would have, and its output is byte-identical.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import InputError

__all__ = ["PARTIAL", "Resumable", "file_identity", "kept_items"]

PARTIAL = ".partial"
_CHECKPOINT = ".json"
#: what a resumable run writes beside its output OUT: OUT.partial and its checkpoint
SUFFIXES = (PARTIAL, f"{PARTIAL}{_CHECKPOINT}")
_MIN_INTERVAL = 1.0  # seconds between two checkpoints (each costs an fsync)


def file_identity(paths: Sequence[str | os.PathLike[str]]) -> list[list[Any]]:
    """``[path, size, sha256]`` of each input file (what a checkpoint must match)."""
    out: list[list[Any]] = []
    for p in paths:
        h = hashlib.sha256()
        try:
            with open(p, "rb") as fh:
                while chunk := fh.read(1 << 20):
                    h.update(chunk)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", path=str(p)) from None
        out.append([os.path.abspath(p), os.path.getsize(p), h.hexdigest()])
    return out


def _paths(out: str | os.PathLike[str]) -> tuple[Path, Path]:
    partial = Path(f"{os.fspath(out)}{PARTIAL}")
    return partial, Path(f"{partial}{_CHECKPOINT}")


def kept_items(out: str | os.PathLike[str]) -> int | None:
    """How many items the checkpoint of ``out`` records as complete (None: no checkpoint)."""
    _, ckpt = _paths(out)
    try:
        return int(json.loads(ckpt.read_text(encoding="utf-8"))["items"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


class Resumable:
    """``OUT.partial`` with its checkpoint (see the module docstring); a context manager.

    ``identity``: a JSON-serialisable description of the job. After entering, ``done`` items
    (and ``state``, the report saved with them) are already in the file; call :meth:`write` with
    each further item's text and :meth:`item_done` after it.
    """

    def __init__(self, out: str | os.PathLike[str], identity: dict[str, Any], step: int) -> None:
        if str(out) == "-":
            raise InputError("--resume needs an output file, not standard output")
        self.target = Path(out)
        self.partial, self.checkpoint = _paths(out)
        self.identity = json.loads(json.dumps(identity))  # as it reads back
        self.step = max(1, step)
        self.done = 0
        self.state: dict[str, Any] = {}
        self._fh: IO[str] | None = None
        self._last = 0.0

    def __enter__(self) -> Resumable:
        saved = self._load()
        if saved is not None:
            if saved.get("identity") != self.identity:
                raise InputError(
                    f"{self.partial} was written by another job (different input files, options "
                    "or model): rerun that job, or delete it and its .json checkpoint to start "
                    "over", path=str(self.checkpoint))
            size = int(saved["bytes"])
            if not self.partial.is_file() or self.partial.stat().st_size < size:
                raise InputError(f"{self.partial} is shorter than its checkpoint records; "
                                 "delete it and the checkpoint to start over",
                                 path=str(self.checkpoint))
            os.truncate(self.partial, size)
            self.done = int(saved["items"])
            self.state = saved.get("state", {})
            self._fh = open(self.partial, "a", encoding="utf-8", newline="\n")
        else:
            self._fh = open(self.partial, "w", encoding="utf-8", newline="\n")
            self.commit({})
        return self

    def _load(self) -> dict[str, Any] | None:
        try:
            text = self.checkpoint.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            saved = json.loads(text)
            int(saved["items"]), int(saved["bytes"])
        except (ValueError, KeyError, TypeError):
            raise InputError("unreadable checkpoint; delete it and the .partial file to start "
                             "over", path=str(self.checkpoint)) from None
        return saved  # type: ignore[no-any-return]

    def write(self, text: str) -> None:
        self._fh.write(text)  # type: ignore[union-attr]

    def item_done(self, items: int, state: dict[str, Any]) -> None:
        """``items`` items are now written: checkpoint at a step boundary (throttled)."""
        if items % self.step == 0 and time.monotonic() - self._last >= _MIN_INTERVAL:
            self.commit(state, items)

    def items_done(self, items: int, state: dict[str, Any]) -> None:
        """``items`` items are now written, at any item boundary: checkpoint (throttled)."""
        if time.monotonic() - self._last >= _MIN_INTERVAL:
            self.commit(state, items)

    def commit(self, state: dict[str, Any], items: int = 0) -> None:
        """Make the file durable and record that its first ``items`` items are complete."""
        from ..textio import atomic_output

        fh = self._fh
        assert fh is not None
        fh.flush()
        os.fsync(fh.fileno())
        record = {"items": items, "bytes": os.fstat(fh.fileno()).st_size,
                  "identity": self.identity, "state": state}
        with atomic_output(self.checkpoint) as out:
            json.dump(record, out, ensure_ascii=False)
        self._last = time.monotonic()

    def __exit__(self, exc_type: type | None, *_: object) -> None:
        fh = self._fh
        assert fh is not None
        if exc_type is not None:  # the checkpoint stays as last committed
            with contextlib.suppress(OSError):
                fh.close()
            return
        fh.flush()
        os.fsync(fh.fileno())
        fh.close()
        os.replace(self.partial, self.target)
        self.checkpoint.unlink(missing_ok=True)
