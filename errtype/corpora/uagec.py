"""UA-GEC's annotated text (grammarly/ua-gec, ``data/*/*/annotated/NNNN.aK.ann``) -> M2.

A document is its text with each correction written in place:
``{source=>correction:::error_type=Type}`` (more ``:::key=value`` fields may follow; ``\\n``
anywhere is a newline). The original text is the text with every annotation replaced by its
source, the edit the annotation's character span in it. Several suggestions ``a|b`` keep the first
(the corpus has none); an annotation without ``error_type`` gets the type ``NA``.

The corpus's own categories (``Spelling``, ``Punctuation``, ``G/Case``, ``F/Style``, ...) are kept
as the edits' types, unchanged. Files named ``NNNN.aK.ann`` are grouped by document ``NNNN`` and
become annotator ``K - 1`` (as in the corpus's M2: ``a1`` is 0); any other file is a document of
its own with annotator 0. The annotators of a document must share its original text, up to
whitespace (some documents' files differ in blank lines): the edits of each are moved onto the
first one's text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import InputError
from ..m2 import M2Block, unwritable
from ..textio import atomic_output, read_lines
from .spans import CharEdit, Tokenizer, place_edits, simple_tokenize

PathLike = str | os.PathLike[str]

#: one annotation: source (no ``{``), correction (shortest), optional ``:::key=value...`` fields;
#: a correction ending in ``:`` is read with the colon (``{a=>b::::error_type=X}``: ``b:``)
_ANNOTATION = re.compile(r"\{([^{]*?)=>(.*?)(?::::([^:}][^}]*))?\}", re.DOTALL)
_UNCLOSED = re.compile(r"\{[^{}]*=>")
_NAME = re.compile(r"(?P<doc>.+)\.a(?P<k>[1-9][0-9]*)\.ann")


@dataclass(frozen=True, slots=True)
class AnnotatedDoc:
    """One annotator's document: the original text and the annotations as character edits."""

    text: str
    edits: list[CharEdit]


def _unescape(s: str) -> str:
    return s.replace("\\n", "\n")


def parse_annotated(text: str, annotator: int = 0, path: str = "<text>") -> AnnotatedDoc:
    """The original text and edits of one annotated document; :class:`InputError` naming the
    file and line for an annotation that does not parse."""
    parts: list[str] = []
    edits: list[CharEdit] = []
    at = length = 0
    for m in _ANNOTATION.finditer(text):
        plain = text[at:m.start()]
        _check_plain(plain, text, at, path)
        plain = _unescape(plain)
        parts.append(plain)
        length += len(plain)
        source, cor, meta = _unescape(m.group(1)), _unescape(m.group(2)), m.group(3) or ""
        fields = dict(f.partition("=")[::2] for f in meta.split(":::") if f)
        if (why := unwritable(cor.split("|")[0])) is not None and cor.strip():
            raise InputError(f"the correction {cor.split('|')[0]!r} {why}", path=path,
                             line=text.count("\n", 0, m.start()) + 1)
        edits.append(CharEdit(length, length + len(source), cor.split("|")[0],
                              fields.get("error_type", "NA") or "NA", annotator))
        parts.append(source)
        length += len(source)
        at = m.end()
    _check_plain(text[at:], text, at, path)
    parts.append(_unescape(text[at:]))
    return AnnotatedDoc("".join(parts), edits)


def _check_plain(plain: str, text: str, at: int, path: str) -> None:
    if (bad := _UNCLOSED.search(plain)) is not None:
        line = text.count("\n", 0, at + bad.start()) + 1
        raise InputError("UA-GEC annotation '{source=>correction:::error_type=...}' not closed",
                         path=path, line=line)


def _read(path: PathLike, encoding_errors: str) -> str:
    return "\n".join(t for _, t, _ in read_lines(path, errors=encoding_errors))


def document_groups(paths: Sequence[PathLike]) -> list[tuple[str, list[tuple[int, PathLike]]]]:
    """``(document id, [(annotator, path), ...])`` in the order documents first appear."""
    groups: dict[str, list[tuple[int, PathLike]]] = {}
    for p in paths:
        name = Path(p).name
        m = _NAME.fullmatch(name)
        key, ann = ((str(Path(p).parent / m["doc"]), int(m["k"]) - 1) if m
                    else (str(p), 0))
        group = groups.setdefault(key, [])
        if any(a == ann for a, _ in group):
            raise InputError(f"annotator a{ann + 1} of this document given twice", path=str(p))
        group.append((ann, p))
    return [(k, sorted(v, key=lambda x: x[0])) for k, v in groups.items()]


def document_blocks(files: Sequence[tuple[int, PathLike]], tokenize: Tokenizer = simple_tokenize,
                    encoding_errors: str = "strict") -> list[M2Block]:
    """The M2 blocks of one document annotated by each ``(annotator, path)``."""
    docs: list[tuple[PathLike, AnnotatedDoc]] = []
    for ann, path in files:
        doc = parse_annotated(_read(path, encoding_errors), ann, str(path))
        if docs and doc.text != docs[0][1].text:
            doc = _onto(docs[0][1].text, doc, docs[0][0], path)
        docs.append((path, doc))
    text = docs[0][1].text
    edits = [e for _, d in docs for e in d.edits]
    placed = place_edits(text, edits, [a for a, _ in files], tokenize)
    if placed.dropped:
        e = placed.dropped[0]
        raise InputError("an annotation spans a line break, which no M2 sentence can hold",
                         path=str(files[0][1]), line=text.count("\n", 0, e.start) + 1)
    for block in placed.blocks:
        for e in block.edits:
            if not e.is_noop and (why := unwritable(e.cor)) is not None:
                raise InputError(f"the correction {e.cor!r} {why}", path=str(files[0][1]))
    return placed.blocks


def _onto(text: str, doc: AnnotatedDoc, first: PathLike, path: PathLike) -> AnnotatedDoc:
    """``doc``'s edits moved onto ``text``, the same document's original text as another
    annotator's file has it, which may differ in whitespace only (the corpus has such pairs)."""
    mine = [k for k, ch in enumerate(doc.text) if not ch.isspace()]
    theirs = [k for k, ch in enumerate(text) if not ch.isspace()]
    if [doc.text[k] for k in mine] != [text[k] for k in theirs]:
        pairs = enumerate(zip(mine, theirs, strict=False))
        k = next((i for i, (x, y) in pairs if doc.text[x] != text[y]), min(len(mine), len(theirs)))
        line = doc.text.count("\n", 0, mine[k] if k < len(mine) else len(doc.text)) + 1
        raise InputError(f"the original text differs from that of {first} (the same "
                         "document's other annotator) from this line on", path=str(path),
                         line=line)
    count = [0] * (len(doc.text) + 1)  # non-space characters before each offset
    for k, ch in enumerate(doc.text):
        count[k + 1] = count[k] + (not ch.isspace())

    def start(j: int) -> int:
        return theirs[count[j]] if count[j] < len(theirs) else len(text)

    def end(j: int) -> int:
        return theirs[count[j] - 1] + 1 if count[j] else 0

    edits = [replace(e, start=start(e.start),
                     end=start(e.end) if e.start == e.end else max(end(e.end), start(e.start)))
             for e in doc.edits]
    return AnnotatedDoc(text, edits)


def uagec_to_m2(paths: Sequence[PathLike], out: PathLike, tokenize: Tokenizer = simple_tokenize,
                encoding_errors: str = "strict",
                progress: Callable[[int], None] | None = None) -> tuple[int, int]:
    """Convert UA-GEC ``.ann`` files to one M2 file (atomically), documents in the order given;
    returns ``(documents, blocks)``."""
    docs = blocks = 0
    with atomic_output(out) as fh:
        for _, files in document_groups(paths):
            for block in document_blocks(files, tokenize, encoding_errors):
                fh.write(block.to_m2())
                blocks += 1
            docs += 1
            if progress:
                progress(1)
    return docs, blocks
