"""MultiGEC-format essay sets built from the shared sentence-level M2 data, for tests and benches.

``build(lang, out_dir, seed=0, max_essays=None)`` writes, for ``lang`` in :data:`SOURCES`:

* ``orig.md``, ``ref1.md`` (annotator 0), ``ref2.md`` (annotator 1; an essay is left out unless
  annotator 1 annotated every one of its sentences, so ref2 lacks essays as MultiGEC's second
  references do), ``metadata.yaml`` (language; both references ``minimal``);
* pseudo-systems ``partial.md`` (a seeded ~60 % of annotator 0's edits per sentence plus a few
  wrong edits: a word doubled or dropped), ``merged.md`` (the partial system where, in a seeded
  ~30 % of essays, every sentence boundary inside a paragraph is joined by a comma: the final
  ``.``/``!``/``?`` becomes ``,`` or a ``,`` is appended, the next sentence's first letter is
  lower-cased) and ``split.md`` (the partial system with a seeded half of the long sentences
  split at their middle comma: ``,`` becomes ``.``, the next word capitalised);
* the same text sentence by sentence in ``sentences/``: ``orig.txt``, ``ref1.txt``, ``ref2.txt``,
  ``partial.txt``, ``merged.txt``, ``split.txt`` (one sentence per line, line-aligned: a merged
  sentence ends in its joining comma, a split one holds two sentences), ``essays.txt`` (the essay
  id of each line), ``paragraphs.txt`` (the paragraph number of each line inside its essay) and
  ``gold.m2`` (the sentences' M2 blocks, annotators 0 and 1). ``ref2.txt`` has every line: a
  sentence annotator 1 did not annotate has annotator 0's correction there, as errtype reads an
  M2 block lacking an annotator (``missing="first"``), so a sentence-level run sees the same
  best-reference choice as the essay-level one;
* ``essays.m2``: essay-level M2, one block per essay (:func:`essay_blocks`: the essay's tokens on
  one ``S`` line, its sentences' edits shifted; annotator 1 only in the essays of ref2).

Essay text: a sentence is its M2 tokens joined by spaces, sentences are joined by one space, and
paragraphs (where the data marks them) by a newline; so every essay is its sentence lines joined
(:func:`join_essay`; a sentence a correction deletes entirely leaves no gap).

Essays: Ukrainian (``multilingual/uagec.dev.m2``) is split at its ``S # NNNN`` document-marker
blocks (the id is NNNN; the marker blocks are no sentences); no paragraphs. Czech
(``geccc/sentence.m2``): the documents of ``sentence.meta`` (consecutive lines with one id; the id
of a document seen again gets ``-2``, ``-3``), paragraphs recovered by matching the sentences'
characters with ``paragraph.m2`` (a document where they do not line up is one paragraph).
Estonian (``multilingual/estgec.dev.m2``, no document ids): consecutive groups of
:data:`ET_GROUP` sentences, ids ``et-1``, ``et-2``, ...

Edits are applied with errtype's own :func:`errtype.m2.apply_edits` (M2SCORER rules: first
``||`` alternative, ``-NONE-`` deletes). Everything is deterministic for a given seed.

Usage: ``python bench/essay_corpus.py uk OUT_DIR [--seed 0] [--max-essays N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from errtype import m2  # noqa: E402
from errtype.essay import Essay, write_multigec  # noqa: E402
from errtype.m2 import M2Block, M2Edit, read_m2  # noqa: E402
from errtype.textio import atomic_output  # noqa: E402

SHARED = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared")) / "data"
SOURCES = {"uk": ("multilingual", "uagec.dev.m2"), "cs": ("geccc", "sentence.m2"),
           "et": ("multilingual", "estgec.dev.m2")}
CORPUS_NAMES = {"uk": "uagec", "cs": "geccc", "et": "estgec"}
#: sentences per pseudo-essay of Estonian (EstGEC-L2's M2 has no document ids)
ET_GROUP = 8
KEEP_EDIT = 0.6      # partial system: share of annotator 0's edits applied
WRONG_EDIT = 0.1     # partial system: chance of a wrong edit in a sentence
MERGE_ESSAYS = 0.3   # merged system: share of essays whose sentence boundaries are joined
SPLIT_LONG = 0.5     # split system: share of long sentences split
LONG = 20            # split system: a long sentence has at least this many tokens
FINAL = (".", "!", "?", "…")
SYSTEMS = ("partial", "merged", "split")


@dataclass
class Sentence:
    """One sentence: its M2 block, essay id and paragraph number inside the essay."""

    block: M2Block
    essay: str
    paragraph: int


@dataclass
class EssaySet:
    """The files :func:`build` wrote (see the module docstring) and what they hold."""

    lang: str
    out_dir: Path
    orig: Path
    refs: list[Path]
    systems: dict[str, Path]
    metadata: Path
    sentence_orig: Path
    sentence_refs: list[Path]
    sentence_systems: dict[str, Path]
    sentence_essays: Path
    sentence_paragraphs: Path
    gold_m2: Path
    essay_m2: Path
    essay_ids: list[str] = field(default_factory=list)
    ref2_ids: list[str] = field(default_factory=list)
    merged_ids: list[str] = field(default_factory=list)


def source_path(lang: str) -> Path:
    """The shared M2 file of ``lang`` (it may be absent: callers skip)."""
    if lang not in SOURCES:
        raise ValueError(f"no essay source for {lang!r} (choose {', '.join(SOURCES)})")
    return SHARED.joinpath(*SOURCES[lang])


# --------------------------------------------------------------------------- essays from M2


def _uk_sentences(path: Path) -> list[Sentence]:
    out, essay = [], None
    for b in read_m2(path):
        if b.document is not None:
            essay = b.document
            continue
        if essay is None:
            raise ValueError(f"{path}: a sentence before the first document marker")
        out.append(Sentence(b, essay, 0))
    return out


def _et_sentences(path: Path) -> list[Sentence]:
    return [Sentence(b, f"et-{i // ET_GROUP + 1}", 0) for i, b in enumerate(read_m2(path))]


def _cs_sentences(path: Path) -> list[Sentence]:
    blocks = list(read_m2(path))
    meta = path.with_suffix(".meta").read_text(encoding="utf-8").split("\n")[:len(blocks)]
    if len(meta) != len(blocks):
        raise ValueError(f"{path.with_suffix('.meta')}: {len(meta)} lines for {len(blocks)} "
                         "blocks")
    ids = _runs(meta)
    paragraphs = _cs_paragraphs(path.with_name("paragraph.m2"), blocks, ids)
    return [Sentence(b, i, p) for b, i, p in zip(blocks, ids, paragraphs, strict=True)]


def _squash(tokens: Sequence[str]) -> str:
    return "".join(tokens).replace("\u0fc4", "")  # ࿄: GECCC's newline mark inside a paragraph


def _runs(ids: Sequence[str]) -> list[str]:
    """Document ids of consecutive lines, made unique: a document seen again gets ``-2``..."""
    out, seen, prev = [], {}, None
    for raw in ids:
        doc = raw.strip()
        if doc != prev:
            seen[doc] = seen.get(doc, 0) + 1
            prev = doc
        out.append(doc if seen[doc] == 1 else f"{doc}-{seen[doc]}")
    return out


def _cs_paragraphs(para_m2: Path, blocks: list[M2Block], ids: list[str]) -> list[int]:
    """Paragraph number (within its document) of every sentence, from ``paragraph.m2`` and
    ``paragraph.meta``: a paragraph ends after a sentence where the document's characters so
    far make up whole paragraphs. A document whose sentences and paragraphs differ in their
    characters (GECCC's two levels do not always hold the same text), or where a sentence
    straddles two paragraphs, gets no paragraph break there (one paragraph when they differ)."""
    meta = para_m2.with_suffix(".meta")
    if not (para_m2.is_file() and meta.is_file()):
        return [0] * len(blocks)
    pblocks = list(read_m2(para_m2))
    pids = _runs(meta.read_text(encoding="utf-8").split("\n")[:len(pblocks)])
    paras: dict[str, list[str]] = {}
    for b, d in zip(pblocks, pids, strict=False):
        if _squash(b.tokens):
            paras.setdefault(d, []).append(_squash(b.tokens))
    sents: dict[str, list[str]] = {}
    for b, d in zip(blocks, ids, strict=True):
        sents.setdefault(d, []).append(_squash(b.tokens))
    numbers: dict[str, list[int]] = {}
    for d, ss in sents.items():
        ps = paras.get(d, [])
        if "".join(ss) != "".join(ps):
            numbers[d] = [0] * len(ss)
            continue
        ends, pos = set(), 0
        for p in ps:
            pos += len(p)
            ends.add(pos)
        out, pos, number = [], 0, 0
        for s in ss:
            out.append(number)
            pos += len(s)
            number += pos in ends
        numbers[d] = out
    index: dict[str, int] = {}
    result = []
    for d in ids:
        k = index.get(d, 0)
        result.append(numbers[d][k])
        index[d] = k + 1
    return result


def read_sentences(lang: str) -> list[Sentence]:
    """Every sentence of ``lang``'s shared M2 with its essay id and paragraph number."""
    path = source_path(lang)
    return {"uk": _uk_sentences, "cs": _cs_sentences, "et": _et_sentences}[lang](path)


# --------------------------------------------------------------------------- pseudo-systems


def correction(block: M2Block, annotator: int, missing: int | None = 0) -> list[str] | None:
    """Tokens of ``annotator``'s correction of ``block`` (errtype's apply_edits); an absent
    annotator gives ``missing``'s correction (None: gives None)."""
    per = block.edits_by_annotator()
    if annotator not in per:
        if missing is None or missing not in per:
            return None if missing is None else list(block.tokens)
        annotator = missing
    return m2.apply_edits(block.tokens, per[annotator], m2.M2SCORER).tokens


def partial_tokens(block: M2Block, rng: random.Random) -> list[str]:
    """A seeded ~60 % of annotator 0's edits, and sometimes a wrong edit (a word doubled or
    dropped; never the last token)."""
    tokens = block.tokens
    edits = [e for e in block.edits_by_annotator().get(0, []) if not e.is_noop]
    kept = [e for e in edits if rng.random() < KEEP_EDIT]
    if len(tokens) > 2 and rng.random() < WRONG_EDIT:
        i = rng.randrange(len(tokens) - 1)
        cor = f"{tokens[i]} {tokens[i]}" if rng.random() < 0.5 else ""
        wrong = M2Edit(i, i + 1, "WRONG", cor, 0)
        if not any(m2.overlaps(wrong, e) or e.start == i for e in kept):
            kept.append(wrong)
    return m2.apply_edits(tokens, kept, m2.M2SCORER).tokens


def _cap(token: str, upper: bool) -> str:
    return (token[:1].upper() if upper else token[:1].lower()) + token[1:]


def join_boundary(first: list[str], second: list[str]) -> tuple[list[str], list[str]]:
    """Join two sentences with a comma: the first's final punctuation becomes ``,`` (or a
    ``,`` is appended), the second's first letter is lower-cased."""
    a = [*first[:-1], ","] if first and first[-1] in FINAL else [*first, ","]
    b = [_cap(second[0], False), *second[1:]] if second else second
    return a, b


def split_long(tokens: list[str]) -> list[str] | None:
    """A long sentence split at the comma nearest its middle (``.`` and a capital), or None."""
    if len(tokens) < LONG:
        return None
    commas = [i for i, t in enumerate(tokens) if t == "," and 3 <= i < len(tokens) - 4]
    if not commas:
        return None
    i = min(commas, key=lambda k: abs(k - len(tokens) / 2))
    return [*tokens[:i], ".", _cap(tokens[i + 1], True), *tokens[i + 2:]]


# --------------------------------------------------------------------------- building


def join_essay(paragraphs: Sequence[Sequence[str]]) -> str:
    """An essay's text from its paragraphs' sentence lines: non-empty sentences joined by a
    space, non-empty paragraphs by a newline (a sentence an annotator deleted leaves no gap)."""
    paras = [" ".join(s for s in p if s) for p in paragraphs]
    return "\n".join(p for p in paras if p)


def _essay_texts(sents: list[Sentence], lines: list[str | None]) -> list[Essay]:
    """Essays from sentence lines (None: the essay is left out)."""
    out: list[Essay] = []
    i = 0
    while i < len(sents):
        j = i
        while j < len(sents) and sents[j].essay == sents[i].essay:
            j += 1
        if all(line is not None for line in lines[i:j]):
            paras: list[list[str]] = []
            for k in range(i, j):
                if k == i or sents[k].paragraph != sents[k - 1].paragraph:
                    paras.append([])
                paras[-1].append(lines[k])  # type: ignore[arg-type]
            out.append(Essay(sents[i].essay, join_essay(paras)))
        i = j
    return out


def essay_blocks(sents: list[Sentence], second: set[str]) -> list[M2Block]:
    """Essay-level M2: one block per essay, its sentences' tokens and edits (offsets shifted);
    annotator 1 only in the essays of ``second`` (a noop line where an annotator has no edit)."""
    out: list[M2Block] = []
    groups: dict[str, list[M2Block]] = {}
    for s in sents:
        groups.setdefault(s.essay, []).append(s.block)
    for essay, blocks in groups.items():
        tokens: list[str] = []
        edits: dict[int, list[M2Edit]] = {0: [], 1: []}
        for b in blocks:
            for e in b.edits:
                if e.annotator in edits and not e.is_noop:
                    edits[e.annotator].append(e._replace(start=e.start + len(tokens),
                                                         end=e.end + len(tokens)))
            tokens += b.tokens
        lines = []
        for a in (0, 1) if essay in second else (0,):
            lines += edits[a] or [M2Edit.noop(a)]
        out.append(M2Block(" ".join(tokens), lines))
    return out


def _write_lines(path: Path, lines: Sequence[str]) -> None:
    with atomic_output(path) as fh:
        fh.writelines(f"{line}\n" for line in lines)


def build(lang: str, out_dir: str | os.PathLike[str], seed: int = 0,
          max_essays: int | None = None) -> EssaySet:
    """Write ``lang``'s essay set into ``out_dir`` (see the module docstring)."""
    sents = read_sentences(lang)
    if max_essays is not None:
        keep, order = set(), []
        for s in sents:
            if s.essay not in keep and len(keep) < max_essays:
                keep.add(s.essay)
                order.append(s.essay)
        sents = [s for s in sents if s.essay in keep]
    out = Path(out_dir)
    (out / "sentences").mkdir(parents=True, exist_ok=True)
    essay_ids = list(dict.fromkeys(s.essay for s in sents))

    orig = [" ".join(s.block.tokens) for s in sents]
    ref1 = [" ".join(correction(s.block, 0) or []) for s in sents]
    ref2_raw = [correction(s.block, 1, None) for s in sents]
    ref2_ids = [e for e in essay_ids
                if all(r is not None for s, r in zip(sents, ref2_raw, strict=True)
                       if s.essay == e)]
    ref2_essay = [None if r is None else " ".join(r) for r in ref2_raw]
    ref2_line = [a if b is None else b for a, b in zip(ref1, ref2_essay, strict=True)]

    rng = random.Random(f"{seed}-{lang}-partial")
    partial_tok = [partial_tokens(s.block, rng) for s in sents]
    partial = [" ".join(t) for t in partial_tok]

    rng = random.Random(f"{seed}-{lang}-merged")
    merged_ids = [e for e in essay_ids if rng.random() < MERGE_ESSAYS]
    chosen = set(merged_ids)
    merged_tok = [list(t) for t in partial_tok]
    for k in range(len(sents) - 1):
        a, b = sents[k], sents[k + 1]
        if (a.essay in chosen and a.essay == b.essay and a.paragraph == b.paragraph
                and merged_tok[k] and merged_tok[k + 1]):
            merged_tok[k], merged_tok[k + 1] = join_boundary(merged_tok[k], merged_tok[k + 1])
    merged = [" ".join(t) for t in merged_tok]

    rng = random.Random(f"{seed}-{lang}-split")
    split = []
    for t in partial_tok:
        cut = split_long(t)
        split.append(" ".join(cut if cut is not None and rng.random() < SPLIT_LONG else t))

    corpus = CORPUS_NAMES[lang]
    paths = EssaySet(
        lang=lang, out_dir=out, orig=out / "orig.md", refs=[out / "ref1.md", out / "ref2.md"],
        systems={n: out / f"{n}.md" for n in SYSTEMS}, metadata=out / "metadata.yaml",
        sentence_orig=out / "sentences" / "orig.txt",
        sentence_refs=[out / "sentences" / "ref1.txt", out / "sentences" / "ref2.txt"],
        sentence_systems={n: out / "sentences" / f"{n}.txt" for n in SYSTEMS},
        sentence_essays=out / "sentences" / "essays.txt",
        sentence_paragraphs=out / "sentences" / "paragraphs.txt",
        gold_m2=out / "sentences" / "gold.m2", essay_m2=out / "essays.m2", essay_ids=essay_ids,
        ref2_ids=ref2_ids, merged_ids=merged_ids)
    write_multigec(paths.orig, _essay_texts(sents, orig))
    write_multigec(paths.refs[0], _essay_texts(sents, ref1))
    write_multigec(paths.refs[1], _essay_texts(sents, ref2_essay))
    for name, lines in zip(SYSTEMS, (partial, merged, split), strict=True):
        write_multigec(paths.systems[name], _essay_texts(sents, lines))
        _write_lines(paths.sentence_systems[name], lines)
    _write_lines(paths.sentence_orig, orig)
    _write_lines(paths.sentence_refs[0], ref1)
    _write_lines(paths.sentence_refs[1], ref2_line)
    _write_lines(paths.sentence_essays, [s.essay for s in sents])
    _write_lines(paths.sentence_paragraphs, [str(s.paragraph) for s in sents])
    m2.write_m2([M2Block(s.block.source, [e for e in s.block.edits if e.annotator in (0, 1)])
                 for s in sents], paths.gold_m2)
    m2.write_m2(essay_blocks(sents, set(ref2_ids)), paths.essay_m2)
    with atomic_output(paths.metadata) as fh:
        fh.write(f"target_language: {lang}\nsource_corpus: {corpus} (errtype pseudo-essays)\n"
                 "sentence_aligned: true\n"
                 f"original_essays:\n  n_essays:\n    dev: {len(essay_ids)}\n"
                 f"reference_essays_1:\n  correction_style: minimal\n  n_essays:\n"
                 f"    dev: {len(essay_ids)}\n"
                 f"reference_essays_2:\n  correction_style: minimal\n  n_essays:\n"
                 f"    dev: {len(ref2_ids)}\n")
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lang", choices=sorted(SOURCES))
    ap.add_argument("out_dir")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-essays", type=int)
    a = ap.parse_args(argv)
    s = build(a.lang, a.out_dir, a.seed, a.max_essays)
    print(f"{s.lang}: {len(s.essay_ids)} essays ({len(s.ref2_ids)} with ref2, "
          f"{len(s.merged_ids)} merged) in {s.out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
