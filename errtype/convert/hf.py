"""Edits as columns of a Hugging Face ``datasets.Dataset``: a batched function for ``map``.

    from errtype.convert.hf import EditColumns

    ds = ds.map(EditColumns("en", source="src", target="tgt"), batched=True, num_proc=4)

Each example gets, per column, one list over its edit lines (the lines errtype-m2 writes for it,
in the same order, noop lines included): ``edits_annotator`` (which target: 0 for a single one,
``k`` for the ``k``-th of a list of targets), ``edits_start`` / ``edits_end`` (token offsets,
-1 for a noop), ``edits_orig``, ``edits_cor`` (as in M2: ``-NONE-`` for a noop), ``edits_type``;
and ``edits_skipped``: None, or why the example was not annotated (``on_error="skip"``,
``max_tokens``). Lists of integers and strings are what Arrow stores natively.

The function object holds settings only (one :class:`~errtype.convert.options.JobOptions`; it
pickles small, and ``datasets`` fingerprints it deterministically, so its cache is reused); the
models are loaded on the first call in each process and kept for the next batches. Parses run
under errtype's BLAS policy (one thread: :mod:`errtype.parse.blas`), so ``num_proc`` processes
use ``num_proc`` cores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..merge import MAX_RULE_RUN
from .options import JobOptions

__all__ = ["EditColumns"]

#: per process: loaded annotators by settings
_ANNOTATORS: dict[tuple, Any] = {}
FIELDS = ("annotator", "start", "end", "orig", "cor", "type")


class EditColumns:
    """A batched ``Dataset.map`` function adding errtype's edits of ``source`` -> ``target``.

    ``target`` names a column of strings (one correction) or of lists of strings (several).
    ``tokenize``: the text is raw (errtype-m2 ``-tok``); by default it is tokenised, tokens
    separated by spaces. ``lev``, ``merging``, ``on_error``, ``max_tokens``, ``batch_size`` and
    ``merge_run_limit`` are :meth:`errtype.Annotator.annotate_stream`'s; other keyword arguments
    go to :func:`errtype.load` (``spacy_model``, ``udpipe_model``, ``feats``, ...). Column names
    start with ``prefix``.
    """

    def __init__(self, lang: str = "en", source: str = "source", target: str = "target", *,
                 prefix: str = "edits_", tokenize: bool = False, lev: bool = False,
                 merging: str = "rules", on_error: str = "fail", max_tokens: int | None = None,
                 batch_size: int = 256, merge_run_limit: int = MAX_RULE_RUN,
                 **backend_options: Any) -> None:
        self.lang = lang
        self.source = source
        self.target = target
        self.prefix = prefix
        self.options = JobOptions(tokenize=tokenize, lev=lev, merging=merging,
                                  on_error=on_error, max_tokens=max_tokens,
                                  batch_size=batch_size, merge_run_limit=merge_run_limit)
        self.backend_options = backend_options

    @property
    def columns(self) -> list[str]:
        """The names of the columns added."""
        return [self.prefix + f for f in (*FIELDS, "skipped")]

    def annotator(self) -> Any:
        """This process's annotator for these settings (loaded on first use)."""
        key = (self.lang, tuple(sorted(self.backend_options.items())))
        found = _ANNOTATORS.get(key)
        if found is None:
            from .. import load

            found = _ANNOTATORS[key] = load(self.lang, **self.backend_options)
        return found

    def __call__(self, batch: dict[str, Sequence[Any]]) -> dict[str, list[Any]]:
        from ..m2 import annotation_block
        from .table import block_rows

        for name in (self.source, self.target):
            if name not in batch:
                raise KeyError(f"no column {name!r} in the dataset (columns: "
                               f"{', '.join(batch)}); give source= and target=")
        items = [(s, [t] if isinstance(t, str) else list(t))
                 for s, t in zip(batch[self.source], batch[self.target], strict=True)]
        out: dict[str, list[Any]] = {c: [] for c in self.columns}
        lists = [out[self.prefix + f] for f in FIELDS]
        for ann in self.annotator().annotate_stream(items, **self.options.stream()):
            rows = list(block_rows(annotation_block(ann, source_text=True), 0))
            for k, column in enumerate(lists, 1):
                column.append([row[k] for row in rows])
            out[self.prefix + "skipped"].append(ann.error)
        return out

    def __repr__(self) -> str:
        return (f"EditColumns({self.lang!r}, source={self.source!r}, target={self.target!r}, "
                f"{self.options}, {self.backend_options})")
