"""Exporters of M2: parallel text per annotator, JSON lines with character offsets."""

from __future__ import annotations

from collections.abc import Sequence

from .. import m2
from ..m2 import M2Block, M2Edit, read_m2
from ..textio import atomic_output
from .output import PathLike


def _annotator_edits(block: M2Block, annotators: Sequence[int], missing: str
                     ) -> dict[int, list[M2Edit]]:
    """Each annotator's edits in a block; an absent annotator copies the block's first one
    (``missing="first"``, as :meth:`errtype.score.meta.ratio.Annotations.from_blocks`) or has
    none."""
    per = {a: [e for e in es if not e.is_noop] for a, es in block.edits_by_annotator().items()}
    first = next(iter(per.values()), [])
    return {a: per.get(a, first if missing == "first" else []) for a in annotators}


def _read_all(m2_path: PathLike, encoding_errors: str) -> tuple[list[M2Block], list[int]]:
    """The blocks in standard M2 (a ChERRANT block's first edit sequence of each reference) and
    every annotator id."""
    blocks = [b.to_standard() for b in read_m2(m2_path, errors=encoding_errors)]
    return blocks, sorted({e.annotator for b in blocks for e in b.edits}) or [0]


def m2_to_text(m2_path: PathLike, prefix: PathLike, *, missing: str = "first",
               rules: m2.ApplyRules = m2.M2SCORER, encoding_errors: str = "strict"
               ) -> dict[str, int]:
    """Write ``PREFIX.orig`` (the ``S`` lines) and ``PREFIX.cor.<id>`` (annotator ``id``'s
    correction, :func:`errtype.m2.apply_edits` with ``rules``), one line per block, every file
    atomically (all or none). Returns {file name: lines written}."""
    from contextlib import ExitStack

    if missing not in ("first", "empty"):
        raise ValueError(f"missing must be 'first' or 'empty', not {missing!r}")
    blocks, annotators = _read_all(m2_path, encoding_errors)
    names = [f"{prefix}.orig", *(f"{prefix}.cor.{a}" for a in annotators)]
    with ExitStack() as stack:
        handles = [stack.enter_context(atomic_output(n)) for n in names]
        for b in blocks:
            handles[0].write(b.source + "\n")
            edits = _annotator_edits(b, annotators, missing)
            for fh, a in zip(handles[1:], annotators, strict=True):
                fh.write(m2.apply_edits(b.tokens, edits[a], rules).text + "\n")
    return dict.fromkeys(names, len(blocks))


def _char_offsets(tokens: Sequence[str]) -> list[int]:
    """Start of every token in ``" ".join(tokens)``, plus the text length at the end."""
    starts, pos = [], 0
    for t in tokens:
        starts.append(pos)
        pos += len(t) + 1
    return [*starts, max(pos - 1, 0)]


def _char_span(starts: list[int], tokens: Sequence[str], s: int, e: int) -> tuple[int, int]:
    if e > s:
        return starts[s], starts[e - 1] + len(tokens[e - 1])
    return starts[s], starts[s]


def block_to_json(block: M2Block, annotators: Sequence[int], missing: str = "first",
                  rules: m2.ApplyRules = m2.M2SCORER) -> dict:
    """One block as a JSON-ready dict with character offsets (see :func:`m2_to_jsonl`)."""
    from itertools import pairwise

    from ..document import sentence_starts, sentences_of

    tokens = block.tokens
    starts = _char_offsets(tokens)
    sents = sentence_starts(tokens)
    bounds = [*sents, len(tokens)]
    out: dict = {"line": block.line, "source": block.source,
                 "sentences": [[s, e, *_char_span(starts, tokens, s, e)]
                               for s, e in pairwise(bounds)], "annotators": {}}
    line_of = {id(e): block.edit_line_number(i) for i, e in enumerate(block.edits)}
    for a, edits in _annotator_edits(block, annotators, missing).items():
        cor = m2.apply_edits(tokens, edits, rules)
        cstarts = _char_offsets(cor.tokens)
        items = []
        for p in cor.placed:
            e = p.edit
            o_s, o_e = _char_span(starts, tokens, e.start, e.end)
            item = {"line": line_of.get(id(e)), "start": o_s, "end": o_e, "token_start": e.start,
                    "token_end": e.end, "type": e.type,
                    "correction": " ".join(rules.correction_tokens(e, tokens)),
                    "field": e.cor, "applied": p.applied, "cor_start": None, "cor_end": None}
            item["sentence"], item["sentence_last"] = sentences_of(sents, e.start, e.end)
            if p.applied:
                item["cor_start"], item["cor_end"] = _char_span(cstarts, cor.tokens, p.c_start,
                                                                p.c_end)
            items.append(item)
        out["annotators"][str(a)] = {"correction": cor.text, "edits": items}
    return out


def m2_to_jsonl(m2_path: PathLike, out: PathLike, *, missing: str = "first",
                rules: m2.ApplyRules = m2.M2SCORER, encoding_errors: str = "strict") -> int:
    """Write one JSON object per block, atomically; returns the number of blocks.

    The sentence is the ``S`` line's tokens joined by single spaces (M2 stores tokens, not the
    original spacing). ``start``/``end`` are character offsets into it (end exclusive; an
    insertion has ``start == end`` at the start of the token it precedes, or at the text length);
    ``cor_start``/``cor_end`` are offsets into the annotator's ``correction`` (``null`` for an
    edit left out of it because it overlaps a longer one). ``field`` is the correction field
    verbatim, ``correction`` the text the rules make of it; ``line`` is the edit's file line.
    For paragraphs and documents, ``sentences`` lists the source's sentences as ``[token_start,
    token_end, start, end]`` (:func:`errtype.document.sentence_starts`) and ``sentence`` /
    ``sentence_last`` give the first and last sentence each edit covers.
    """
    import json

    blocks, annotators = _read_all(m2_path, encoding_errors)
    with atomic_output(out) as fh:
        for b in blocks:
            fh.write(json.dumps(block_to_json(b, annotators, missing, rules), ensure_ascii=False)
                     + "\n")
    return len(blocks)


def m2_to_dialect(m2_path: PathLike, out: PathLike, dialect: str, *, alternatives: str = "first",
                  encoding_errors: str = "strict") -> int:
    """Rewrite an M2 file (either dialect, detected per block) in ``dialect``: ``"standard"``
    (:meth:`errtype.m2.M2Block.to_standard` with ``alternatives``) or ``"cherrant"``
    (:func:`errtype.m2.to_cherrant`), atomically; returns the number of blocks."""
    if dialect not in ("standard", "cherrant"):
        raise ValueError(f"dialect must be 'standard' or 'cherrant', not {dialect!r}")
    blocks = read_m2(m2_path, errors=encoding_errors)
    if dialect == "standard":
        return m2.write_m2((b.to_standard(alternatives) for b in blocks), out)
    return m2.write_m2((m2.to_cherrant(b) for b in blocks), out)
