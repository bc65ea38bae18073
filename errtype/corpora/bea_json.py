"""BEA-2019's JSON release of W&I+LOCNESS and FCE (v2.1) -> M2.

One JSON object per line: ``id``, ``text`` (the whole essay, paragraphs separated by newlines),
optional metadata (``cefr``, ``userid``, ``l1``, ...) and ``edits``: a list of
``[annotator_id, [[start, end, correction], ...]]`` with character offsets into ``text`` (FCE adds
a fourth field, the edit's CLC error code: ``RV``, ``MD``, ...); a
correction of ``null`` marks an error the annotator did not correct (FCE), written as a
detection edit (type ``UNK``, the original words as its pseudo correction) as ERRANT's
``json_to_m2.py`` does, and left out where it contains a correction of the same annotator. The
test releases have no ``edits``: every sentence is a noop.

The character spans are mapped to tokens (:mod:`.spans`) and the edits typed by errtype's
classifier, keeping the human spans (``gold``, minimised unless asked otherwise) or re-extracting
edits from the corrected sentence (``auto``), exactly as ``errtype-m2 -gold``/``-auto`` re-type an
M2 file (:func:`errtype.convert.reannotate_block`); ``keep_codes`` keeps FCE's CLC codes as the
types instead (``NA`` for an edit without one), as ``-gold -old_cats`` keeps an M2's types.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..annotator import Annotator
from ..errors import InputError
from ..m2 import unwritable
from ..textio import atomic_output, read_lines
from .spans import CharEdit, parser_tokenizer, place_edits

PathLike = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class Essay:
    """One JSON record: its id, text, annotator ids (in file order) and character edits."""

    id: str
    text: str
    annotators: list[int]
    edits: list[CharEdit]
    line: int


def _fail(message: str, path: str, line: int) -> InputError:
    return InputError(f"BEA-2019 JSON: {message}", path=path, line=line)


def _int(value: Any, what: str, path: str, line: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{what} must be an integer, not {value!r}", path, line)
    return value


def parse_record(record: Any, path: str, line: int) -> Essay:
    """The :class:`Essay` of one decoded JSON line; :class:`InputError` naming the file and line
    for anything not in the format."""
    if not isinstance(record, dict):
        raise _fail("each line is one JSON object", path, line)
    text = record.get("text")
    if not isinstance(text, str):
        raise _fail("a record needs a string field 'text'", path, line)
    raw = record.get("edits", [])
    if not isinstance(raw, list):
        raise _fail("'edits' must be a list of [annotator_id, [[start, end, correction], ...]]",
                    path, line)
    annotators: list[int] = []
    edits: list[CharEdit] = []
    for entry in raw:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)):
            raise _fail("an 'edits' entry must be [annotator_id, [[start, end, correction], "
                        f"...]], not {json.dumps(entry)[:80]}", path, line)
        ann = _int(entry[0], "an annotator id", path, line)
        if ann not in annotators:
            annotators.append(ann)
        for e in entry[1]:
            if not (isinstance(e, list) and len(e) >= 3):
                raise _fail(f"an edit must be [start, end, correction], not {json.dumps(e)[:80]}",
                            path, line)
            start, end = (_int(x, "an edit offset", path, line) for x in e[:2])
            cor = e[2]
            if cor is not None and not isinstance(cor, str):
                raise _fail(f"a correction must be a string or null, not {cor!r}", path, line)
            if cor is not None and cor.strip() and (why := unwritable(cor)) is not None:
                raise _fail(f"the correction {cor!r} {why}", path, line)
            if not 0 <= start <= end <= len(text):
                raise _fail(f"edit [{start}, {end}] outside the text of {len(text)} characters",
                            path, line)
            code = e[3] if len(e) > 3 and isinstance(e[3], str) and e[3] else "NA"
            edits.append(CharEdit(start, end, cor, code, ann))
    return Essay(str(record.get("id", "")), text, annotators or [0], _drop_covering(edits), line)


def _drop_covering(edits: list[CharEdit]) -> list[CharEdit]:
    """Detection edits (no correction) that contain a correction of the same annotator left
    out: FCE marks a wider error around the corrected one."""
    fixes = [(e.annotator, e.start, e.end) for e in edits if e.cor is not None]

    def covers(d: CharEdit) -> bool:
        return any(a == d.annotator and d.start <= s and t <= d.end
                   and (s < t or d.start < s < d.end) for a, s, t in fixes)

    return [e for e in edits if e.cor is not None or not covers(e)]


def read_bea_json(path: PathLike, encoding_errors: str = "strict") -> Iterator[Essay]:
    """The essays of a BEA-2019 JSON file, in file order (blank lines skipped)."""
    name = str(path)
    for number, text, _ in read_lines(path, errors=encoding_errors):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _fail(f"not JSON ({exc.msg}, column {exc.colno})", name, number) from None
        yield parse_record(record, name, number)


@dataclass(slots=True)
class JsonReport:
    """What :func:`bea_json_to_m2` did."""

    essays: int = 0
    blocks: int = 0
    dropped: int = 0  # edits crossing a paragraph boundary


def bea_json_to_m2(annotator: Annotator, path: PathLike, out: PathLike, mode: str = "gold",
                   minimise: bool = True, keep_codes: bool = False,
                   encoding_errors: str = "strict",
                   progress: Callable[[int], None] | None = None) -> JsonReport:
    """Convert a BEA-2019 JSON file to M2 (atomically), one block per sentence of each essay;
    ``mode``: ``gold`` (the human spans, re-typed, or with ``keep_codes`` typed by their CLC
    codes) or ``auto`` (edits re-extracted)."""
    from ..convert.reannotate import reannotate_block

    if mode not in ("gold", "auto"):
        raise ValueError(f"mode must be 'gold' or 'auto', not {mode!r}")
    if keep_codes and mode != "gold":
        raise ValueError("keep_codes keeps the types of the gold spans (mode 'gold')")
    tokenize = parser_tokenizer(lambda t: annotator.parse(t, True).texts)
    report = JsonReport()
    with atomic_output(out) as fh:
        for essay in read_bea_json(path, encoding_errors):
            try:
                placed = place_edits(essay.text, essay.edits, essay.annotators, tokenize)
            except ValueError as exc:
                raise _fail(f"essay {essay.id!r}: {exc}", str(path), essay.line) from None
            report.dropped += len(placed.dropped)
            for block in placed.blocks:
                for e in block.edits:
                    if not e.is_noop and (why := unwritable(e.cor)) is not None:
                        raise _fail(f"essay {essay.id!r}: the correction {e.cor!r} {why}",
                                    str(path), essay.line)
                try:
                    fh.write(reannotate_block(annotator, block, mode, minimise=minimise,
                                              old_cats=keep_codes))
                except InputError as exc:
                    raise _fail(f"essay {essay.id!r}: {exc.reason}", str(path),
                                essay.line) from None
                report.blocks += 1
            report.essays += 1
            if progress:
                progress(1)
    return report
