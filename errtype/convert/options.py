"""The options of an annotation job: one frozen :class:`JobOptions`, built once (``errtype-m2``:
:func:`errtype.cli.m2.job_options`) and handed to every producer (:mod:`.annotate`,
:mod:`.reannotate`, :mod:`.dask`), which read it and never rebuild it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..merge import MAX_RULE_RUN

__all__ = ["IDENTITY_EXCLUDED", "JobOptions", "resolve"]

#: options that change how a job runs, not what it writes: left out of a resumable job's identity
IDENTITY_EXCLUDED = frozenset({"jobs", "resume"})


@dataclass(frozen=True)
class JobOptions:
    """How a job annotates and writes (each field: its ``errtype-m2`` option)."""

    lev: bool = False  #: -lev: plain Levenshtein alignment
    merging: str = "rules"  #: -merge
    tokenize: bool = False  #: -tok: tokenise text with the parser
    on_error: str = "fail"  #: --on-error: "fail" or "skip" (a noop block, reported)
    max_tokens: int | None = None  #: --max-tokens: skip (and report) longer sentences
    merge_run_limit: int = MAX_RULE_RUN  #: --merge-run-limit
    parse_noops: bool = False  #: parse items without edits too (output unchanged)
    batch_size: int = 256  #: --batch-size: sentences parsed per batch (the checkpoint step)
    errant_noop: bool = False  #: --errant-noop (and --errant-compat): ERRANT's noop rule
    errant_compat: bool = False  #: --errant-compat: ERRANT 3.0.2's M2 application rules
    encoding_errors: str = "strict"  #: --encoding-errors: "strict" or "replace"
    jobs: int = 1  #: --jobs: forked worker processes (same output)
    resume: bool = False  #: --resume: write resumably, continue an interrupted run
    mode: str = "gold"  #: M2 input: -gold (re-type the edits) or -auto (re-extract them)
    minimise: bool = True  #: M2 input, -gold: minimise the edits (-no_min: False)
    old_cats: bool = False  #: M2 input, -gold: keep the old types (-old_cats)
    #: --no-realign: False (an essay, or a line of several sentences, aligned as one sentence;
    #: also under --errant-compat)
    realign: bool = True
    unit: str = "essay"  #: --unit: essays as one block each, or one per sentence unit

    def stream(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`errtype.Annotator.annotate_stream` (``jobs`` is the
        producer's to pass: ranges of files take the place of a stream's workers)."""
        return {"lev": self.lev, "merging": self.merging, "tokenize": self.tokenize,
                "on_error": self.on_error, "max_tokens": self.max_tokens,
                "parse_noops": self.parse_noops, "merge_run_limit": self.merge_run_limit,
                "batch_size": self.batch_size,
                "realign": self.realigner()}

    def realigner(self) -> Any:
        """The realigner of multi-sentence pairs (``realign`` and not ``errant_compat``:
        :func:`errtype.essay.pairs.realigned_edits`), or None."""
        if not self.realign or self.errant_compat:
            return None
        from ..essay.pairs import realigned_edits

        return realigned_edits

    def identity(self) -> dict[str, Any]:
        """What a resumed job must share with the run that died: every option that changes the
        output (not :data:`IDENTITY_EXCLUDED`)."""
        return {k: v for k, v in asdict(self).items() if k not in IDENTITY_EXCLUDED}


_NAMES = frozenset(f.name for f in fields(JobOptions))


def resolve(options: JobOptions | None, overrides: dict[str, Any]) -> JobOptions:
    """``options`` (default: :class:`JobOptions`'s defaults) with the fields named in
    ``overrides`` replaced: how a producer takes keyword arguments from Python callers."""
    unknown = set(overrides) - _NAMES
    if unknown:
        raise TypeError(f"unknown job option(s): {', '.join(sorted(unknown))} "
                        f"(JobOptions has {', '.join(sorted(_NAMES))})")
    base = options if options is not None else JobOptions()
    return replace(base, **overrides) if overrides else base
