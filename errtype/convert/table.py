"""Edits as a table: one row per M2 edit line, as JSON lines, TSV, Parquet or a pandas DataFrame.

A row is one ``A`` line of a block: ``sentence`` (the block's 0-based position in the input: the
input line minus one in parallel mode), ``annotator``, ``start``/``end`` (token offsets into the
``S`` line, end exclusive; -1 for a noop), ``orig`` (the original tokens of the span, joined by
spaces), ``cor`` (the correction field as written, except that a deletion's is empty however the
M2 writes it, ``-NONE-`` included; ``-NONE-`` for a noop, ``a||b`` alternatives kept), ``type``,
and the type's parts: ``op`` (``M``, ``R`` or ``U``; empty for ``noop``, ``UNK`` and foreign
schemes), ``category`` (the rest, ``NOUN:NUM``) and ``feats`` (the UD features an inflection type
names, ``Case+Number``; empty otherwise). Noops are rows of their own, so an annotator who changed
nothing is counted. The rows of a block follow its ``A`` lines in order, so the table holds
everything the M2 says about its edits.

The columns mean the same in ChERRANT's dialect (``errtype-m2 --lang zh``), whose types name
ChERRANT's operations (``M`` missing, ``R`` redundant, ``S`` substitution, ``W`` word order) or
errtype's, with a class after a colon at word level: ``op`` is errtype's operation of the edit's
span (``M`` insertion, ``U`` deletion, ``R`` otherwise: ChERRANT's ``R`` is ``U``, ``S`` and
``W`` are ``R``), ``category`` the class (``NOUN`` of ``R:NOUN``, ``SPELL`` of ``S:SPELL``,
``WO`` for ``W``; empty for a character-level ``M``/``R``/``S``).

TSV has a header line and is quoted as the ``csv`` module's tab dialect does (read it with
``pandas.read_csv(path, sep="\\t", keep_default_na=False)``); Parquet needs pyarrow (``pip install
errtype[table]``), :func:`to_frame` pandas.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from .. import m2
from ..errors import ResourceError
from ..m2 import M2Block, read_m2
from ..textio import atomic_output
from .output import PathLike

COLUMNS = ("sentence", "annotator", "start", "end", "orig", "cor", "type", "op", "category",
           "feats")
INTEGERS = frozenset({"sentence", "annotator", "start", "end"})
FORMATS = ("m2", "jsonl", "tsv", "parquet")
Row = tuple[int, int, int, int, str, str, str, str, str, str]
ROW_GROUP = 100_000  # rows per Parquet row group


def type_parts(type: str) -> tuple[str, str, str]:
    """(op, category, feats) of an error type: ``R:NOUN:INFL:Case+Number`` -> ``("R",
    "NOUN:INFL", "Case+Number")``; a type without an ``M:``/``R:``/``U:`` prefix is all
    category."""
    if len(type) < 3 or type[1] != ":" or type[0] not in "MRU":
        return "", type, ""
    rest = type[2:]
    category, infl, feats = rest.partition(":INFL:")
    return type[0], (category + ":INFL" if infl else rest), feats


def cherrant_parts(edit: m2.M2Edit) -> tuple[str, str, str]:
    """(op, category, feats) of an edit of ChERRANT's dialect (see the module docstring): the
    operation from its span, the class from its type, whichever scheme typed it."""
    if edit.is_noop:
        return type_parts(edit.type)
    op = "M" if edit.start == edit.end else "R" if m2.none_as_empty(edit.cor).strip() else "U"
    letter, colon, rest = edit.type.partition(":")
    if len(letter) != 1 or letter not in "MRSUW":
        return "", edit.type, ""
    if not colon:
        return op, "WO" if letter == "W" else "", ""
    return (op, *type_parts(f"R:{rest}")[1:])


def block_rows(block: M2Block, sentence: int) -> Iterator[Row]:
    """The rows of one block (see the module docstring)."""
    tokens = block.tokens
    parts = cherrant_parts if block.targets else (lambda e: type_parts(e.type))
    for e in block.edits:
        op, category, feats = parts(e)
        noop = e.is_noop
        yield (sentence, e.annotator, -1 if noop else e.start, -1 if noop else e.end,
               "" if noop else " ".join(tokens[e.start:e.end]),
               e.cor if noop else m2.none_as_empty(e.cor), e.type, op, category, feats)


def rows(source: PathLike | Iterable[Any], encoding_errors: str = "strict") -> Iterator[Row]:
    """The rows of an M2 file (a path), or of an iterable of :class:`~errtype.m2.M2Block` or
    :class:`~errtype.annotator.Annotation` (every correction an annotator, corrections written
    as the text had them, as ``errtype-m2`` writes them)."""
    if isinstance(source, (str, os.PathLike)):
        source = read_m2(source, errors=encoding_errors)
    for n, item in enumerate(source):
        block = item if isinstance(item, M2Block) else m2.annotation_block(item, source_text=True)
        yield from block_rows(block, n)


def write_table(table: Iterable[Row], out: PathLike, fmt: str) -> int:
    """Write rows to ``out`` atomically as ``jsonl``, ``tsv`` or ``parquet``; the row count."""
    if fmt == "parquet":
        return _write_parquet(table, out)
    if fmt not in ("jsonl", "tsv"):
        raise ValueError(f"format must be one of jsonl, tsv, parquet, not {fmt!r}")
    n = 0
    with atomic_output(out) as fh:
        if fmt == "jsonl":
            import json

            for row in table:
                fh.write(json.dumps(dict(zip(COLUMNS, row, strict=True)), ensure_ascii=False)
                         + "\n")
                n += 1
        else:
            import csv

            writer = csv.writer(fh, dialect="excel-tab", lineterminator="\n")
            writer.writerow(COLUMNS)
            for row in table:
                writer.writerow(row)
                n += 1
    return n


def _arrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ImportError("Parquet output needs pyarrow: pip install 'errtype[table]'") from None
    return pyarrow


def check_format(fmt: str) -> None:
    """Raise :class:`ResourceError` when writing ``fmt`` needs a package that is not installed
    (Parquet: pyarrow), so that a command stops before any work."""
    if fmt == "parquet":
        try:
            _arrow()
        except ImportError as exc:
            raise ResourceError(f"--format parquet: {exc}") from None


def schema() -> Any:
    """The Arrow schema of the table (int64 offsets and ids, strings)."""
    pa = _arrow()
    return pa.schema([(c, pa.int64() if c in INTEGERS else pa.string()) for c in COLUMNS])


def _write_parquet(table: Iterable[Row], out: PathLike) -> int:
    pa = _arrow()
    kind = schema()
    n = 0
    with atomic_output(out, binary=True) as fh:
        writer = pa.parquet.ParquetWriter(fh, kind)
        try:
            chunk: list[Row] = []
            for row in table:
                chunk.append(row)
                if len(chunk) == ROW_GROUP:
                    writer.write_table(_arrow_table(chunk, kind))
                    n += len(chunk)
                    chunk = []
            writer.write_table(_arrow_table(chunk, kind))  # also the schema of an empty table
            n += len(chunk)
        finally:
            writer.close()
    return n


def _arrow_table(chunk: list[Row], kind: Any) -> Any:
    columns = list(zip(*chunk, strict=True)) if chunk else [()] * len(COLUMNS)
    return _arrow().Table.from_arrays([_arrow().array(c, type=f.type)
                                       for c, f in zip(columns, kind, strict=True)], schema=kind)


def m2_to_table(m2_path: PathLike, out: PathLike, fmt: str, *,
                encoding_errors: str = "strict") -> int:
    """Write the rows of an M2 file to ``out`` (``jsonl``, ``tsv`` or ``parquet``); the row
    count."""
    return write_table(rows(m2_path, encoding_errors), out, fmt)


def to_frame(source: PathLike | Iterable[Any], encoding_errors: str = "strict") -> Any:
    """The edits of an M2 file (a path), or of M2 blocks or annotations, as a pandas DataFrame
    with the columns of :data:`COLUMNS` (see the module docstring). A corpus's error profile is
    then one ``groupby`` away: ``to_frame("x.m2").query("type != 'noop'").type.value_counts()``.
    """
    import pandas as pd

    data = list(rows(source, encoding_errors))
    frame = pd.DataFrame.from_records(data, columns=list(COLUMNS))
    return frame.astype({c: "int64" for c in INTEGERS})


__all__ = ["COLUMNS", "FORMATS", "block_rows", "cherrant_parts", "m2_to_table", "rows", "schema",
           "to_frame", "type_parts", "write_table"]
