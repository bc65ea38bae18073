"""The one M2 model: streaming reader and writer, noop and edit lines, annotation -> block, and
the one function that applies an annotator's edits to make its corrected sentence.

A block is an ``S`` line, zero or more ``A`` lines and a blank line. The reader accepts every valid
M2 file, including a final block without its blank line and runs of blank lines, and raises
:class:`M2FormatError` naming the file and line for anything malformed (``lenient=True`` keeps
edits whose span lies outside the sentence, for ``errtype lint``): offsets and annotator ids are
ASCII digits only (``int()`` would also take ``٢`` or ``1_0``), and a carriage return inside a
line (a file with CR-only line endings reads as one line) is refused.

**ChERRANT's dialect** (Chinese GEC, HillZhang1999/MuCGEC ``scorers/ChERRANT``) is read and
written by the same model: after the ``S`` line, each reference ``i`` has one ``T{i}-A{j} text``
line per equal-cost edit sequence ``j`` (the corrected tokens), each followed by its ``A``
lines (annotator id ``i``); a reference that changes nothing is ``T{i} 没有错误`` with a noop
line, one marked unannotatable ``T{i} 无法标注`` with an ``NA`` line. The reader detects it per
block and keeps the ``T`` lines in :attr:`M2Block.targets`; :meth:`M2Block.to_standard` and
:func:`to_cherrant` convert between the dialects.

No M2 field can be escaped, so the writer refuses what would read back as something else
(:func:`unwritable`): a correction containing ``|||`` (the field separator) or ``||`` (the
separator of alternatives), or consisting of ``-NONE-`` (a deletion).

Edit application (:func:`apply_edits`) follows named :class:`ApplyRules`:

* :data:`M2SCORER` (default): ``-NONE-`` is an empty correction, ``a||b`` uses the first
  alternative, an edit overlapping one already applied is not applied (longer spans first, then
  file order), detection edits (``Um``/``UNK``) are applied as written;
* :data:`LITERAL`: :data:`M2SCORER` with corrections taken exactly as written;
* :data:`GOLD`: :data:`M2SCORER`, but detection edits keep the original words (``-gold``/``-auto``);
* :data:`ERRANT`: ERRANT 3.0.2's ``get_cor_and_edits``: corrections taken literally (``-NONE-`` is
  a token, ``a||b`` one token), edits sorted by span and applied in sequence with no overlap
  check, detection edits keep the original words.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import M2FormatError
from .textio import read_text_lines

if TYPE_CHECKING:
    from .edit import Edit

SEP = "|||"
NOOP = "noop"
NONE = "-NONE-"
ALT = "||"
#: detection-only edit types: their correction field is a pseudo correction
DETECTION_TYPES = frozenset({"Um", "UNK"})


_INT = re.compile(r"-?[0-9]+")


def unwritable(cor: str) -> str | None:
    """Why the correction field ``cor`` cannot be written in M2 and read back as itself, or None.

    M2 has no escapes: ``|||`` ends the field, ``||`` separates alternative corrections, and a
    field that is ``-NONE-`` is a deletion to every M2 reader.
    """
    if SEP in cor:
        return f"contains the M2 field separator '{SEP}'"
    if ALT in cor:
        return f"contains '{ALT}', which M2 readers take for a separator of alternative corrections"
    if cor.strip() == NONE:
        return f"is '{NONE}', which M2 readers take for a deletion"
    return None


def none_as_empty(cor: str) -> str:
    """``cor`` as scorers compare it: ``-NONE-`` (m2scorer's spelling of a deletion) is the empty
    correction that ERRANT and errtype write for one."""
    return "" if cor.strip() == NONE else cor


def edit_line(start: int, end: int, type: str, cor: str, annotator: int | str = 0,
              required: str = "REQUIRED", comment: str = NONE) -> str:
    """One M2 ``A`` line (without newline)."""
    return f"A {start} {end}{SEP}{type}{SEP}{cor}{SEP}{required}{SEP}{comment}{SEP}{annotator}"


def noop_m2(annotator: int | str = 0) -> str:
    """The M2 line of an annotator who made no change."""
    return edit_line(-1, -1, NOOP, NONE, annotator)


class M2Edit(NamedTuple):
    """One ``A`` line. ``start == end == -1`` is a noop; ``cor`` is kept verbatim."""

    start: int
    end: int
    type: str
    cor: str
    annotator: int = 0
    required: str = "REQUIRED"
    comment: str = "-NONE-"

    @property
    def is_noop(self) -> bool:
        return self.type == NOOP or self.start == -1

    @property
    def alternatives(self) -> list[str]:
        """The ``||``-separated corrections (one item when there is no alternative)."""
        return self.cor.split(ALT)

    def to_m2(self) -> str:
        return edit_line(self.start, self.end, self.type, self.cor, self.annotator,
                         self.required, self.comment)

    @classmethod
    def noop(cls, annotator: int = 0) -> M2Edit:
        return cls(-1, -1, NOOP, NONE, annotator)


#: the ``T`` line of a ChERRANT reference that changes nothing / that could not be annotated
CHERRANT_NOOP = "没有错误"
CHERRANT_NA = "无法标注"
_TARGET = re.compile(r"T([0-9]+)(?:-A([0-9]+))?(?: (.*))?")


@dataclass(slots=True)
class M2Target:
    """One ``T`` line of ChERRANT's dialect: reference ``annotator``, equal-cost edit sequence
    ``alternative`` (``None`` for the ``T{i} 没有错误``/``无法标注`` form), the corrected tokens
    ``text`` as written, and ``size``, the number of ``A`` lines that follow it."""

    annotator: int
    alternative: int | None
    text: str
    size: int = 0

    @property
    def label(self) -> str:
        alt = "" if self.alternative is None else f"-A{self.alternative}"
        return f"T{self.annotator}{alt}"

    def to_m2(self) -> str:
        return f"{self.label} {self.text}"


#: the source of a document-marker block (:attr:`M2Block.document`)
DOCUMENT_MARKER = re.compile(r"# (\d+)")


@dataclass(slots=True)
class M2Block:
    """One sentence: the ``S`` text, its edits in file order, and where it started."""

    source: str
    edits: list[M2Edit] = field(default_factory=list)
    line: int = 0
    #: lenient reading only: (line, message) of every edit line whose span is outside the sentence
    problems: list[tuple[int, str]] = field(default_factory=list, compare=False)
    #: the block follows the previous one without a blank line
    unseparated: bool = field(default=False, compare=False)
    #: ChERRANT's dialect: the ``T`` lines, each owning the next ``size`` edits (empty: standard)
    targets: list[M2Target] = field(default_factory=list)

    @property
    def is_cherrant(self) -> bool:
        """Whether the block is in ChERRANT's dialect (has ``T`` lines)."""
        return bool(self.targets)

    @property
    def document(self) -> str | None:
        """The document id when the block is a document marker (``S # 0042``, as UA-GEC's M2
        files start each document), else None: ``S # Логічно ?`` is a sentence."""
        found = DOCUMENT_MARKER.fullmatch(self.source)
        return found[1] if found else None

    def target_edits(self) -> list[tuple[M2Target, list[M2Edit]]]:
        """Each ``T`` line with the edits under it (ChERRANT's dialect only)."""
        out, i = [], 0
        for t in self.targets:
            out.append((t, self.edits[i:i + t.size]))
            i += t.size
        return out

    def to_standard(self, alternatives: str = "first") -> M2Block:
        """The block in standard M2 (itself when it is standard already).

        ``alternatives="first"`` keeps each reference's first edit sequence, with the reference
        index as annotator id (ChERRANT's ``-s first``); ``"split"`` makes every ``T`` line an
        annotator of its own, numbered 0, 1, ... in file order. A sequence without edits becomes
        a noop line; an ``NA`` line is kept as it is.
        """
        if not self.targets:
            return self
        if alternatives not in ("first", "split"):
            raise ValueError(f"alternatives must be 'first' or 'split', not {alternatives!r}")
        edits: list[M2Edit] = []
        seen: set[int] = set()
        for t, group in self.target_edits():
            if alternatives == "first":
                if t.annotator in seen:
                    continue
                seen.add(t.annotator)
                coder = t.annotator
            else:
                coder = len(seen)
                seen.add(coder)
            edits.extend(e._replace(annotator=coder) for e in group)
            if not group:
                edits.append(M2Edit.noop(coder))
        return M2Block(self.source, edits, self.line)

    @property
    def tokens(self) -> list[str]:
        return self.source.split()

    def annotators(self) -> list[int]:
        """Annotator ids in order of first appearance."""
        seen: dict[int, None] = {}
        for e in self.edits:
            seen.setdefault(e.annotator, None)
        return list(seen)

    def edits_by_annotator(self) -> dict[int, list[M2Edit]]:
        out: dict[int, list[M2Edit]] = {}
        for e in self.edits:
            out.setdefault(e.annotator, []).append(e)
        return out

    def edit_target(self, index: int) -> int | None:
        """The index in :attr:`targets` of the ``T`` line ``edits[index]`` belongs to (None
        in standard M2)."""
        if not self.targets:
            return None
        seen = 0
        for k, t in enumerate(self.targets):
            seen += t.size
            if index < seen:
                return k
        return len(self.targets) - 1

    def edit_line_number(self, index: int) -> int:
        """File line of ``edits[index]`` (edit lines follow the ``S`` line without gaps, or,
        in ChERRANT's dialect, each group follows its ``T`` line)."""
        target = self.edit_target(index)
        return self.line + 1 + index + (0 if target is None else target + 1)

    def to_m2(self) -> str:
        if not self.targets:
            return format_block(self.source, [e.to_m2() for e in self.edits])
        if sum(t.size for t in self.targets) != len(self.edits):
            raise ValueError(f"the T lines of the block at line {self.line} own "
                             f"{sum(t.size for t in self.targets)} edits, it has "
                             f"{len(self.edits)}")
        lines = []
        for t, group in self.target_edits():
            lines.append(t.to_m2())
            lines.extend(e.to_m2() for e in group)
        return format_block(self.source, lines)


def to_cherrant(block: M2Block) -> M2Block:
    """A standard block in ChERRANT's dialect (a ChERRANT block is returned as it is).

    Each annotator, in order of first appearance, becomes one reference with annotator id kept:
    ``T{i}-A0`` with its corrected tokens (:func:`apply_edits`, m2scorer rules) and its edits, or
    ``T{i} 没有错误`` with a noop line when it has only noop lines. A block without edit lines
    stays without ``T`` lines.
    """
    if block.targets:
        return block
    targets: list[M2Target] = []
    edits: list[M2Edit] = []
    tokens = block.tokens
    for coder, group in block.edits_by_annotator().items():
        real = [e for e in group if not e.is_noop]
        if not real:
            na = [e for e in group if e.type == "NA"]
            targets.append(M2Target(coder, None, CHERRANT_NA if na else CHERRANT_NOOP, 1))
            edits.append(na[0] if na else M2Edit.noop(coder))
            continue
        text = " ".join(apply_edits(tokens, real).tokens)
        targets.append(M2Target(coder, 0, text, len(real)))
        edits.extend(real)
    return M2Block(block.source, edits, block.line, targets=targets)


def _parse_a_line(text: str, n_tokens: int, name: str, number: int,
                  problems: list[tuple[int, str]] | None = None) -> M2Edit:
    body = text[2:]
    # anchored at both ends: only the correction may begin or end with '|' (a '|' token)
    head = body.split(SEP, 2)
    fields = head[:2] + head[2].rsplit(SEP, 3) if len(head) == 3 else head
    if len(fields) != 6 or SEP in fields[2]:
        raise M2FormatError(
            f"an edit line needs 6 fields separated by '|||', found {len(body.split(SEP))}: "
            f"{text!r}", path=name, line=number)
    span, etype, cor, required, comment, annotator = fields
    parts = span.split()
    if len(parts) != 2:
        raise M2FormatError(f"edit span must be two integers, got {span!r}", path=name, line=number)
    if not (_INT.fullmatch(parts[0]) and _INT.fullmatch(parts[1])):
        raise M2FormatError(f"edit offsets must be integers, got {span!r}",
                            path=name, line=number)
    start, end = int(parts[0]), int(parts[1])
    if not _INT.fullmatch(annotator.strip()):
        raise M2FormatError(f"annotator id must be an integer, got {annotator!r}",
                            path=name, line=number)
    ann = int(annotator.strip())
    if (start, end) != (-1, -1) and not 0 <= start <= end <= n_tokens:
        message = f"edit span {start} {end} is outside the sentence of {n_tokens} tokens"
        if problems is None:
            raise M2FormatError(message, path=name, line=number)
        problems.append((number, message))
    return M2Edit(start, end, etype, cor, ann, required, comment)


def read_m2(source: str | os.PathLike[str] | Iterable[str], name: str | None = None,
            errors: str = "strict", lenient: bool = False) -> Iterator[M2Block]:
    """Stream the blocks of an M2 file (a path, ``-``, or an iterable of lines).

    ``errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising EncodingError.
    ``lenient=True`` keeps an edit whose span lies outside the sentence and records it in
    :attr:`M2Block.problems` instead of raising (any other malformed line still raises).
    """
    label = name or (str(source) if isinstance(source, (str, os.PathLike)) else "<m2>")
    block: M2Block | None = None
    n_tokens = 0
    for number, text, _ in read_text_lines(source, label, errors, line_ends=False):
        stripped = text.rstrip()  # a CR inside any line is refused here, with M2's message
        if "\r" in stripped:
            raise M2FormatError(
                "carriage return inside a line: the file has CR-only (classic Mac) line endings "
                "or a stray CR; convert it to LF or CRLF line endings", path=label, line=number)
        if not stripped:
            if block is not None:
                yield block
                block = None
            continue
        if text.startswith("S ") or stripped == "S":
            unseparated = block is not None
            if block is not None:
                yield block
            # trailing whitespace of any kind is not part of the sentence (and would not survive
            # a round trip: a final '\r' is a line terminator)
            block = M2Block(text[2:].rstrip(), [], number, unseparated=unseparated)
            n_tokens = len(block.tokens)
        elif text.startswith("A "):
            if block is None:
                raise M2FormatError("edit line before any 'S' line", path=label, line=number)
            edit = _parse_a_line(stripped, n_tokens, label, number,
                                 block.problems if lenient else None)
            if block.targets:
                target = block.targets[-1]
                if edit.annotator != target.annotator:
                    raise M2FormatError(
                        f"edit line of annotator {edit.annotator} under the ChERRANT line "
                        f"{target.label}", path=label, line=number)
                target.size += 1
            block.edits.append(edit)
        elif block is not None and (match := _TARGET.fullmatch(text)):
            if block.edits and not block.targets:
                raise M2FormatError(
                    f"ChERRANT target line {text[:40]!r} after standard edit lines",
                    path=label, line=number)
            alt = match.group(2)
            block.targets.append(M2Target(int(match.group(1)), None if alt is None else int(alt),
                                          match.group(3) or ""))
        else:
            extra = " (or, in ChERRANT's M2, 'T{i}-A{j}')" \
                if block is not None and text.startswith("T") else ""
            raise M2FormatError(f"expected a line starting with 'S ' or 'A ', got "
                                f"{text[:40]!r}{extra}", path=label, line=number)
    if block is not None:
        yield block


def is_m2(path: str | os.PathLike[str]) -> bool:
    """Whether an input file is M2: an ``.m2`` name, or first lines that :func:`sniff_m2` reads
    as M2 (``-`` and pipes, which cannot be read twice, count as text unless named ``.m2``)."""
    from .textio import read_head

    return str(path).endswith(".m2") or sniff_m2(read_head(path)) is True


def sniff_m2(lines: Iterable[str]) -> bool | None:
    """Whether the first lines of a file are M2, to tell a user who swapped text and M2 inputs.

    True: an ``S`` line first, then a well-formed edit line or a second ``S`` line after a blank
    line. False: the first non-blank line is not an ``S`` line (plain text). None: cannot tell
    (empty, or text whose first words happen to be ``S``/``A``, e.g. Czech).
    """
    blocks = 0
    after_blank = True
    for number, line in enumerate(lines, 1):
        text = line.rstrip("\r\n").removeprefix("\ufeff" if number == 1 else "")
        if not text.strip():
            after_blank = True
            continue
        is_s = text.startswith("S ") or text.rstrip() == "S"
        if not blocks and not is_s:
            return False
        if text.startswith("A "):
            try:
                _parse_a_line(text.rstrip(), len(text), "", number)
            except M2FormatError:
                return None
            return True
        if blocks and not after_blank and _TARGET.fullmatch(text):
            return True  # ChERRANT's dialect
        if not (is_s and after_blank):
            return None
        blocks += 1
        after_blank = False
        if blocks == 2:
            return True
    return None


def format_block(source: str, a_lines: Sequence[str]) -> str:
    """An M2 block: ``S`` line, edit lines, blank line."""
    return "".join([f"S {source}\n", *(f"{a}\n" for a in a_lines), "\n"])


def edits_to_m2_lines(edits: Sequence[Edit], annotator: int | str = 0) -> list[str]:
    """``A`` lines of one annotator's edits, or one noop line when there are none."""
    if not edits:
        return [noop_m2(annotator)]
    return [e.to_m2(annotator) for e in edits]


def annotation_block(annotation: Any, picks: Iterable[int] | None = None, *,
                     source_text: bool = False,
                     errant_noop: Sequence[str] | None = None) -> M2Block:
    """The M2 block of an :class:`errtype.annotator.Annotation` (the one renderer of M2).

    Correction ``picks[i]`` becomes annotator ``i`` (all corrections by default); a correction
    without edits, and every correction of a skipped annotation, is a noop line. A correction
    field is the corrected tokens joined by single spaces, or with ``source_text`` the tokens as
    the text had them (:attr:`errtype.edit.Edit.c_str`: ``don't`` for ``do`` + ``n't`` under
    ``-tok``), which is how ERRANT writes M2. ``errant_noop`` (the raw correction strings) is
    ERRANT's noop rule: a noop line only for a correction equal to the original's text, and no
    line for one whose difference yields no edit.
    """
    chosen = range(len(annotation.cors)) if picks is None else picks
    skipped = annotation.error is not None
    raw_orig = annotation.orig.span_text(0, len(annotation.orig)).strip() \
        if errant_noop is not None and not skipped else None
    edits: list[M2Edit] = []
    for coder, k in enumerate(chosen):
        found = [] if skipped else annotation.edits[k]
        if raw_orig is not None:
            if raw_orig == errant_noop[k]:  # type: ignore[index]
                edits.append(M2Edit.noop(coder))
                continue
        elif not found:
            edits.append(M2Edit.noop(coder))
        if source_text:
            edits.extend(M2Edit(e.o_start, e.o_end, e.type, e.c_str, coder) for e in found)
        else:
            texts = annotation.cors[k].texts
            edits.extend(M2Edit(e.o_start, e.o_end, e.type, " ".join(texts[e.c_start:e.c_end]),
                                coder) for e in found)
    return M2Block(annotation.orig.text, edits)


def cherrant_block(annotation: Any) -> M2Block:
    """The block of an :class:`errtype.annotator.Annotation` in ChERRANT's dialect, as its
    ``parallel_to_m2.py`` writes it: reference ``i`` is ``T{i} 没有错误`` and a noop line when it
    reads as the original (token texts joined) or is literally 没有错误, ``T{i} 无法标注`` and an
    ``NA`` line when it is literally 无法标注, else one ``T{i}-A{j}`` line (the corrected tokens)
    per distinct equal-cost edit sequence ``j`` (``annotation.alternatives``, or its one
    sequence), each followed by its edits; a deletion's correction is ``-NONE-``. A skipped
    annotation gives noop references.
    """
    src = "".join(annotation.orig.texts)
    targets: list[M2Target] = []
    edits: list[M2Edit] = []
    for i, cor in enumerate(annotation.cors):
        tgt = "".join(cor.texts)
        if annotation.error is not None or tgt == src or tgt == CHERRANT_NOOP:
            targets.append(M2Target(i, None, CHERRANT_NOOP, 1))
            edits.append(M2Edit.noop(i))
            continue
        if tgt == CHERRANT_NA:
            targets.append(M2Target(i, None, CHERRANT_NA, 1))
            edits.append(M2Edit(-1, -1, "NA", NONE, i))
            continue
        texts = cor.texts
        seqs = annotation.alternatives[i] if annotation.alternatives else [annotation.edits[i]]
        for j, seq in enumerate(seqs):
            targets.append(M2Target(i, j, " ".join(texts), len(seq)))
            edits.extend(M2Edit(e.o_start, e.o_end, e.type,
                                NONE if e.c_start == e.c_end and e.o_start != e.o_end
                                else " ".join(texts[e.c_start:e.c_end]), i) for e in seq)
    return M2Block(" ".join(annotation.orig.texts), edits, targets=targets)


def write_m2(blocks: Iterable[M2Block], out: os.PathLike[str] | str) -> int:
    """Write blocks atomically to ``out`` (``-`` = stdout); returns the number written."""
    from .textio import atomic_output

    n = 0
    with atomic_output(out) as fh:
        for b in blocks:
            fh.write(b.to_m2())
            n += 1
    return n


# --------------------------------------------------------------------------- edit application


@dataclass(frozen=True, slots=True)
class ApplyRules:
    """How an annotator's M2 edits make its corrected sentence (see the module docstring).

    ``none_is_empty``: a ``-NONE-`` correction deletes. ``alternative``: which ``||``
    alternative is used (clipped to the last one), or ``None`` for the field taken literally.
    ``overlaps``: ``"outer"`` applies longer spans first, then file order, and leaves out an edit
    overlapping one already applied; ``"errant"`` sorts by span and applies every edit in sequence.
    ``keep_detection``: detection edits (``Um``/``UNK``) leave the original words in place.
    """

    none_is_empty: bool = True
    alternative: int | None = 0
    overlaps: str = "outer"
    keep_detection: bool = False

    def correction_tokens(self, edit: M2Edit, tokens: Sequence[str]) -> list[str]:
        """The tokens ``edit`` writes in place of ``tokens[edit.start:edit.end]``."""
        if self.keep_detection and edit.type in DETECTION_TYPES:
            return list(tokens[edit.start:edit.end])
        cor = edit.cor
        if self.alternative is not None:
            alts = cor.split(ALT)
            cor = alts[min(self.alternative, len(alts) - 1)]
        return (none_as_empty(cor) if self.none_is_empty else cor).split()


M2SCORER = ApplyRules()
#: corrections exactly as written, overlaps resolved as in M2SCORER (what errtype's writers mean)
LITERAL = ApplyRules(none_is_empty=False, alternative=None)
GOLD = ApplyRules(keep_detection=True)
ERRANT = ApplyRules(none_is_empty=False, alternative=None, overlaps="errant", keep_detection=True)


class Placed(NamedTuple):
    """An edit and where its correction sits in the corrected tokens (``None``: not applied)."""

    edit: M2Edit
    c_start: int | None
    c_end: int | None

    @property
    def applied(self) -> bool:
        return self.c_start is not None


@dataclass(slots=True)
class Correction:
    """The corrected tokens and every edit applied or left out, in input order, with its
    placement."""

    tokens: list[str]
    placed: list[Placed]

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    @property
    def left_out(self) -> list[M2Edit]:
        """Edits not applied because they overlap an applied one."""
        return [p.edit for p in self.placed if not p.applied]


def overlaps(a: M2Edit, b: M2Edit) -> bool:
    """Whether two edits share original tokens, or one inserts strictly inside the other's span
    (insertions at a span's boundary, and insertions at the same offset, do not overlap)."""
    return a.start < b.end and b.start < a.end


def apply_edits(tokens: Sequence[str], edits: Iterable[M2Edit], rules: ApplyRules = M2SCORER
                ) -> Correction:
    """Apply one annotator's edits to the original ``tokens``.

    Offsets refer to the original tokens. Applied edits are placed in (start, end, file) order, so
    insertions at the same offset keep their file order. With ``rules.overlaps == "outer"`` an
    edit overlapping an already accepted one (longer spans are accepted first, then file order) is
    left out; a word-order edit whose correction already includes the corrections inside it thus
    wins over them; noop lines are ignored. ``"errant"`` applies every line given in span order
    as ERRANT 3.0.2 does, so overlapping edits may give a garbled correction and placements
    outside it, and a noop line inserts ``-NONE-`` before the last token (pass only real edits
    unless that is what you want to reproduce).
    """
    if rules.overlaps == "errant":
        real = list(edits)
        order = sorted(range(len(real)), key=lambda i: (real[i].start, real[i].end))
    elif rules.overlaps == "outer":
        real = [e for e in edits if not e.is_noop]
        accepted: list[int] = []
        for i in sorted(range(len(real)), key=lambda i: (real[i].start - real[i].end, i)):
            if not any(overlaps(real[i], real[k]) for k in accepted):
                accepted.append(i)
        order = sorted(accepted, key=lambda i: (real[i].start, real[i].end, i))
    else:
        raise ValueError(f"unknown overlap rule {rules.overlaps!r} (choose outer or errant)")
    out = list(tokens)
    where: dict[int, tuple[int, int]] = {}
    shift = 0
    for i in order:
        e = real[i]
        new = rules.correction_tokens(e, tokens)
        out[e.start + shift:e.end + shift] = new
        where[i] = (e.start + shift, e.start + shift + len(new))
        shift += len(new) - (e.end - e.start)
    placed = [Placed(e, *where.get(i, (None, None))) for i, e in enumerate(real)]
    return Correction(out, placed)
