"""Where a conversion writes: the :class:`Report` of what it did, the M2 sink (atomic, or resumable
with the identity of the job, :mod:`.checkpoint`)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..textio import atomic_output

if TYPE_CHECKING:
    from ..annotator import Annotator

PathLike = str | os.PathLike[str]


@dataclass
class Report:
    """What a conversion did: blocks written, noops, and every skipped sentence with its reason
    (``resumed``: blocks an earlier, interrupted run had written)."""

    blocks: int = 0
    noops: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    resumed: int = 0

    def summary(self) -> str:
        text = f"{self.blocks} sentences written, {self.noops} noop annotations"
        if self.skipped:
            text += f", {len(self.skipped)} sentences skipped (written as noop blocks)"
        if self.resumed:
            text += f" (resumed after sentence {self.resumed})"
        return text

    def state(self) -> dict[str, Any]:
        return {"blocks": self.blocks, "noops": self.noops, "skipped": self.skipped}

    def restore(self, state: dict[str, Any]) -> None:
        self.blocks = int(state.get("blocks", 0))
        self.noops = int(state.get("noops", 0))
        self.skipped = [(int(line), str(reason)) for line, reason in state.get("skipped", [])]
        self.resumed = self.blocks


@dataclass(frozen=True)
class Formatted:
    """One item's M2 block and what the :class:`Report` counts of it (``refused``: the
    annotator whose correction M2 cannot express, when the block is a noop block for that)."""

    block: str
    noops: int = 0
    skipped: str | None = None
    refused: int | None = None


@dataclass(frozen=True)
class Joined:
    """The M2 blocks of consecutive items as one text, and what a Report counts of them."""

    first: int  # 1-based number of the first item's line
    text: str
    blocks: int
    noops: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)


class _Sink:
    """Where a conversion's blocks go: counted in the report, checkpointed when resumable."""

    def __init__(self, write: Callable[[str], Any], report: Report,
                 resumable: Any = None) -> None:
        self._write = write
        self.report = report
        self._resumable = resumable

    @property
    def done(self) -> int:
        """Items an earlier run already wrote (to be skipped)."""
        return self.report.resumed

    def put(self, line: int, result: Formatted) -> None:
        r = self.report
        r.blocks += 1
        r.noops += result.noops
        if result.skipped is not None:
            r.skipped.append((line, result.skipped))
        self._write(result.block)
        if self._resumable is not None:
            self._resumable.item_done(r.blocks, r.state())

    def put_joined(self, joined: Joined) -> None:
        """The blocks of consecutive items, formatted and counted elsewhere (a worker)."""
        r = self.report
        r.blocks += joined.blocks
        r.noops += joined.noops
        r.skipped.extend(joined.skipped)
        self._write(joined.text)
        if self._resumable is not None:
            self._resumable.items_done(r.blocks, r.state())


@contextlib.contextmanager
def m2_sink(out: PathLike, report: Report, resume: dict[str, Any] | None = None,
            step: int = 1) -> Iterator[_Sink]:
    """The output of a conversion: ``out`` written atomically, or, given the job's ``resume``
    identity, resumably (:class:`errtype.convert.checkpoint.Resumable`, checkpoints every ``step``
    items; ``report`` is restored to the state saved with the kept items)."""
    if resume is None:
        with atomic_output(out) as fh:
            yield _Sink(fh.write, report)
        return
    from .checkpoint import Resumable

    with Resumable(out, resume, step) as r:
        report.restore(r.state)
        yield _Sink(r.write, report, r)


def job_identity(annotator: Annotator, inputs: Sequence[PathLike], kind: str, **options: Any
                 ) -> dict[str, Any]:
    """What a resumed conversion must share with the run that died: the kind of job, the input
    files (size and SHA-256), the options, the language with its options and the parser,
    errtype's version."""
    from ..version import __version__
    from .checkpoint import file_identity

    parser = annotator.parser
    model: Any = getattr(parser, "path", None)
    nlp = getattr(parser, "nlp", None)
    if nlp is not None and hasattr(nlp, "meta"):
        meta = nlp.meta
        model = f"{meta.get('lang')}_{meta.get('name')}-{meta.get('version')}"
    return {"errtype": __version__, "kind": kind, "inputs": file_identity(inputs),
            "lang": annotator.lang,
            "language": annotator.language.option_values(),
            "parser": f"{type(parser).__module__}.{type(parser).__qualname__}",
            "model": None if model is None else str(model), "options": options}


