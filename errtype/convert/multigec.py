"""MultiGEC-2025 Markdown essays from essay-level M2, and essays as one line each.

:func:`m2_to_multigec`: one M2 block per essay (its ``S`` line holds the whole essay's tokens)
becomes one corrected essay, the tokens of an annotator's correction joined by spaces
(:func:`errtype.m2.apply_edits`). :func:`multigec_to_text`: one essay per line, as the official
MultiGEC-2025 evaluation (``utils_transform_markdown_to_one_essay_per_line.py``) makes its
``.tmp`` files: a newline inside an essay becomes a tab (its ``txt.replace("\\n", "\\t")``), and
the essays of a hypothesis file follow the orig file's order with ``!`` for a missing one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from .. import m2
from ..errors import InputError
from ..essay.multigec import Essay, hypothesis_text, read_multigec, read_parallel_essays
from ..essay.multigec import write_multigec as _write
from ..m2 import read_m2
from ..textio import atomic_output
from .output import PathLike

MISSING = ("skip", "first", "orig")
#: how a newline inside an essay is written on its line (``tab``: the official script's
#: ``replace("\\n", "\\t")``; ``space``: what its syntok pretokenisation, run first, leaves)
NEWLINES = {"tab": "\t", "space": " "}


def m2_to_multigec(m2_path: PathLike, out: PathLike, *, annotator: int = 0,
                   ids: Sequence[str] | None = None, missing: str = "skip",
                   rules: m2.ApplyRules = m2.M2SCORER, encoding_errors: str = "strict"
                   ) -> tuple[int, int]:
    """Write ``annotator``'s corrected essays of an essay-level M2 file as MultiGEC Markdown.

    ``ids``: the essay ids in block order (default ``1``..``n``; their number must match the
    blocks'). A block without ``annotator``: ``missing="skip"`` leaves the essay out (as a
    MultiGEC reference file lacks essays), ``"first"`` uses the block's first annotator (the
    CoNLL-2014 convention of errtype's M2 readers), ``"orig"`` writes the original tokens.
    Returns (essays written, essays left out).
    """
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    name = str(m2_path)
    blocks = [b.to_standard() for b in read_m2(m2_path, errors=encoding_errors)]
    if ids is not None and len(ids) != len(blocks):
        raise InputError(f"{len(blocks)} M2 blocks but {len(ids)} essay ids: each block of an "
                         "essay-level M2 file is one essay", path=name)
    essays, skipped = [], 0
    for k, b in enumerate(blocks):
        per = b.edits_by_annotator()
        if annotator in per:
            edits = per[annotator]
        elif missing == "skip":
            skipped += 1
            continue
        elif missing == "first" and per:
            edits = next(iter(per.values()))
        else:
            edits = []
        text = m2.apply_edits(b.tokens, edits, rules).text
        essays.append(Essay(str(k + 1) if ids is None else ids[k], text))
    _write(out, essays)
    return len(essays), skipped


def essay_line(text: str, newline: str = "tab") -> str:
    """An essay on one line: each newline written as :data:`NEWLINES` ``[newline]``."""
    return text.replace("\n", NEWLINES[newline])


def multigec_to_text(md_path: PathLike, out: PathLike, *, align: PathLike | None = None,
                     newline: str = "tab", ids_out: PathLike | None = None,
                     encoding_errors: str = "strict") -> tuple[int, int]:
    """Write the essays of a MultiGEC file one per line (:func:`essay_line`).

    ``align``: an orig file; the lines follow its essays, an essay ``md_path`` lacks written as
    the official scorer's ``!`` (:func:`errtype.essay.multigec.hypothesis_text`), an essay it has
    that ``align`` lacks is an error. ``ids_out``: also write each line's essay id. Returns (lines
    written, essays missing).
    """
    if newline not in NEWLINES:
        raise ValueError(f"newline must be one of {', '.join(NEWLINES)}, not {newline!r}")
    if align is None:
        rows = [(e.id, e.text) for e in read_multigec(md_path, encoding_errors)]
        missing = 0
    else:
        parallel = read_parallel_essays(align, [md_path], encoding_errors)
        rows = [(p.id, hypothesis_text(p.corrections[0])) for p in parallel]
        missing = sum(p.corrections[0] is None for p in parallel)
    with contextlib.ExitStack() as stack:  # both files or neither
        fh = stack.enter_context(atomic_output(out))
        fh.writelines(essay_line(text, newline) + "\n" for _, text in rows)
        if ids_out is not None:
            stack.enter_context(atomic_output(ids_out)).writelines(
                f"{essay_id}\n" for essay_id, _ in rows)
    return len(rows), missing


def read_ids(md_path: PathLike, encoding_errors: str = "strict") -> list[str]:
    """The essay ids of a MultiGEC file, in file order."""
    return [e.id for e in read_multigec(md_path, encoding_errors)]
