"""MultiGEC-2025's Markdown essay files: reading, writing, detection, parallel files, metadata.

The format (MultiGEC-2025 ``data_format.md``)::

    ### essay_id = 1
    Full text of the first essay.

    ### essay_id = 2
    ...

An essay is the header line ``### essay_id = ID`` (the id is the rest of the line, as the official
scripts take it) and every line up to the next header; the newlines around it are not part of
the text (the official ``md_to_dict`` strips them: ``text.strip("\\n")``), any other whitespace
and newline inside it is. :func:`write_multigec` writes ``### essay_id = ID\\nTEXT\\n\\n`` per
essay, as the official ``dict_to_md`` does, so reading a written file gives the same essays back
and writing read essays reproduces a file written that way byte for byte. Lines are read as
everywhere in errtype (:mod:`errtype.textio`): CRLF line ends read as ``\\n``, a UTF-8 BOM is
dropped.

Reading is strict where the official scripts would silently lose or merge text: text before the
first header, a duplicate id, an empty id, a file without essays, a header line that is almost
right (``###essay_id=1``) and ``### essay_id = `` inside a line (the official scripts split on
that string anywhere) raise :class:`~errtype.errors.InputError` naming the file and line.

Files are named ``langcode-corpus-orig|refN|hypoN-train|dev|test.md`` (:func:`parse_name`); the
reference files of a corpus may lack essays, so parallel files are matched by id
(:func:`read_parallel_essays`). A subcorpus folder holds ``metadata.yaml`` (the name the official
``validate.py`` reads) with the language and each reference's correction style
(:func:`read_metadata`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple

from ..errors import InputError, ResourceError
from ..textio import atomic_output, read_head, read_lines

PathLike = str | os.PathLike[str]

#: the header that starts every essay (followed by the id)
HEADER = "### essay_id = "
_HEADER_RE = re.compile(r"### essay_id = \S")
#: a line that looks like a header but is not one (spacing, case): refused rather than read as text
_NEAR_HEADER = re.compile(r"\s*#+\s*essay_id\s*=", re.IGNORECASE)

#: what the official MultiGEC-2025 scorer puts in place of an essay a hypothesis file lacks
#: (``utils_transform_markdown_to_one_essay_per_line.py``): the essay counts as corrected to "!"
OFFICIAL_MISSING_HYPOTHESIS = "!"


@dataclass(frozen=True, slots=True)
class Essay:
    """One essay: its id (the rest of the header line), its text and, when read from a file,
    the line of its header (0 otherwise; not part of equality)."""

    id: str
    text: str
    line: int = field(default=0, compare=False)


class ParallelEssay(NamedTuple):
    """One essay of an orig file and its text in each correction file (None: the file lacks it).

    How a consumer treats None: for reference files, the essay has fewer references
    (:meth:`references`); for a hypothesis file, the official scorer's choice, the text
    :data:`OFFICIAL_MISSING_HYPOTHESIS` (:func:`hypothesis_text`).
    """

    id: str
    orig: str
    corrections: list[str | None]

    def references(self) -> list[str]:
        """The corrections present: this essay's references when the files are references."""
        return [c for c in self.corrections if c is not None]


def hypothesis_text(text: str | None) -> str:
    """A hypothesis essay as the official scorer reads it: a missing one is
    :data:`OFFICIAL_MISSING_HYPOTHESIS`."""
    return OFFICIAL_MISSING_HYPOTHESIS if text is None else text


# --------------------------------------------------------------------------- reading


def read_multigec(path: PathLike, encoding_errors: str = "strict") -> list[Essay]:
    """The essays of a MultiGEC Markdown file in file order (see the module docstring).

    ``encoding_errors="replace"`` substitutes U+FFFD for invalid UTF-8 instead of raising.
    """
    name = str(path)
    essays: list[Essay] = []
    where: dict[str, int] = {}
    current: tuple[str, int] | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            essays.append(Essay(current[0], "\n".join(body).strip("\n"), current[1]))

    for number, text, _ in read_lines(path, errors=encoding_errors):
        if text.startswith(HEADER):
            essay_id = text[len(HEADER):]
            if not essay_id.strip():
                raise InputError("essay header without an id", path=name, line=number)
            if HEADER in essay_id:
                raise InputError(f"a second {HEADER.strip()!r} in the header line",
                                 path=name, line=number)
            if essay_id in where:
                raise InputError(f"duplicate essay id {essay_id!r} (first at line "
                                 f"{where[essay_id]})", path=name, line=number)
            close()
            where[essay_id] = number
            current, body = (essay_id, number), []
            continue
        if HEADER in text:
            raise InputError(f"{HEADER.strip()!r} inside a line: the official MultiGEC scripts "
                             "split essays there; put the header at the start of its own line",
                             path=name, line=number)
        if _NEAR_HEADER.match(text):
            raise InputError(f"malformed essay header {text[:60]!r} (expected "
                             f"'{HEADER}ID' exactly)", path=name, line=number)
        if current is None:
            if text.strip():
                raise InputError(f"text before the first essay header (expected a line "
                                 f"'{HEADER}ID')", path=name, line=number)
            continue
        body.append(text)
    close()
    if not essays:
        raise InputError(f"no essays: a MultiGEC file has lines '{HEADER}ID' followed by the "
                         "essay text", path=name)
    return essays


def is_multigec(path: PathLike) -> bool:
    """Whether a file is in MultiGEC's Markdown format, by content whatever its name: its first
    non-blank line is an essay header. Reads only the start of the file (standard input and
    pipes, which cannot be read twice, are not recognised)."""
    for line in read_head(path, 1 << 14):
        line = line.lstrip("\ufeff").rstrip("\r")
        if line.strip():
            return _HEADER_RE.match(line) is not None
    return False


# --------------------------------------------------------------------------- writing


def check_essay(essay: Essay) -> None:
    """Raise ValueError unless ``essay`` survives a write and read unchanged."""
    if not essay.id.strip() or "\n" in essay.id or "\r" in essay.id:
        raise ValueError(f"essay id {essay.id!r}: empty or holding a line break")
    if HEADER in essay.id:
        raise ValueError(f"essay id {essay.id!r} holds {HEADER.strip()!r}")
    if HEADER in essay.text:
        raise ValueError(f"essay {essay.id!r}: its text holds {HEADER.strip()!r}, which starts "
                         "a new essay")
    if essay.text != essay.text.strip("\n"):
        raise ValueError(f"essay {essay.id!r}: the format drops newlines at the start and end "
                         "of an essay's text")
    if "\r" in essay.text:
        raise ValueError(f"essay {essay.id!r}: a carriage return in its text (lines are read "
                         "with CRLF as a line end)")
    if any(_NEAR_HEADER.match(line) for line in essay.text.split("\n")):
        raise ValueError(f"essay {essay.id!r}: a line of its text looks like an essay header")


def format_multigec(essays: Iterable[Essay]) -> str:
    """The Markdown of ``essays`` (as the official ``dict_to_md``): a header, the text and a
    blank line per essay. Raises ValueError for duplicate ids or text that would not read back."""
    out, seen = [], set()
    for e in essays:
        check_essay(e)
        if e.id in seen:
            raise ValueError(f"duplicate essay id {e.id!r}")
        seen.add(e.id)
        out.append(f"{HEADER}{e.id}\n{e.text}\n\n")
    return "".join(out)


def write_multigec(out: PathLike | IO[str], essays: Iterable[Essay]) -> int:
    """Write ``essays`` to a path (atomically; ``-`` = standard output) or an open text stream.
    Returns the number of essays. Everything is checked before anything is written."""
    items = list(essays)
    text = format_multigec(items)
    if isinstance(out, (str, os.PathLike)):
        with atomic_output(out) as fh:
            fh.write(text)
    else:
        out.write(text)
    return len(items)


# --------------------------------------------------------------------------- parallel files


def read_parallel_essays(orig_path: PathLike, cor_paths: Sequence[PathLike],
                         encoding_errors: str = "strict") -> list[ParallelEssay]:
    """Each essay of ``orig_path`` (in its order) with its text in every correction file,
    matched by id; a correction file lacking an essay gives None (see :class:`ParallelEssay`).
    An id of a correction file that the orig file lacks raises InputError naming file and line.
    """
    orig = read_multigec(orig_path, encoding_errors)
    ids = {e.id for e in orig}
    columns: list[dict[str, str]] = []
    for path in cor_paths:
        essays = read_multigec(path, encoding_errors)
        extra = [e for e in essays if e.id not in ids]
        if extra:
            raise InputError(f"essay id {extra[0].id!r} is not in {orig_path}"
                             + (f" ({len(extra) - 1} more)" if len(extra) > 1 else ""),
                             path=str(path), line=extra[0].line)
        columns.append({e.id: e.text for e in essays})
    return [ParallelEssay(e.id, e.text, [c.get(e.id) for c in columns]) for e in orig]


# --------------------------------------------------------------------------- names, metadata

_NAME = re.compile(r"(?P<lang>[a-z]{2,3})-(?P<corpus>.+)-(?P<role>orig|ref\d+|hypo\d+)"
                   r"-(?P<split>[A-Za-z0-9_]+)\.md")


class FileName(NamedTuple):
    """The parts of a MultiGEC file name ``langcode-corpus-role-split.md``."""

    lang: str
    corpus: str
    role: str  # orig, refN or hypoN
    split: str

    @property
    def number(self) -> int | None:
        """N of ``refN``/``hypoN`` (None for ``orig``)."""
        m = re.fullmatch(r"(?:ref|hypo)(\d+)", self.role)
        return int(m[1]) if m else None


def parse_name(path: PathLike) -> FileName | None:
    """The parts of a MultiGEC file name, or None when the name does not follow the convention."""
    m = _NAME.fullmatch(Path(path).name)
    return FileName(m["lang"], m["corpus"], m["role"], m["split"]) if m else None


#: the metadata file of a subcorpus folder (the name the official ``scripts/validate.py`` reads)
METADATA_NAMES = ("metadata.yaml", "metadata.yml")
CORRECTION_STYLES = ("minimal", "fluency")


@dataclass(slots=True)
class Metadata:
    """A subcorpus's metadata: ``language`` (``target_language``), ``styles`` (reference number
    → ``minimal``/``fluency``, from ``reference_essays_N.correction_style``), the file and
    every field read (``raw``)."""

    path: Path
    language: str | None
    styles: dict[int, str] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)

    def style_of(self, path: PathLike) -> str | None:
        """The correction style of a ``refN`` file (None when unknown)."""
        parts = parse_name(path)
        return self.styles.get(parts.number) if parts and parts.number else None


def read_metadata(md_path: PathLike) -> Metadata | None:
    """The metadata of the subcorpus a MultiGEC file belongs to: ``metadata.yaml`` beside it,
    or None when there is none (read with PyYAML's safe loader: errtype[multigec])."""
    folder = Path(md_path).parent
    for name in METADATA_NAMES:
        path = folder / name
        if path.is_file():
            break
    else:
        return None
    data = _load_yaml(path)
    lang = data.get("target_language")
    styles: dict[int, str] = {}
    for key, value in data.items():
        m = re.fullmatch(r"reference_essays_(\d+)", key)
        if m and isinstance(value, dict) and value.get("correction_style") is not None:
            style = str(value["correction_style"]).strip().lower()
            if style not in CORRECTION_STYLES:
                raise InputError(f"{key}.correction_style is {style!r}, not one of "
                                 f"{', '.join(CORRECTION_STYLES)}", path=str(path))
            styles[int(m[1])] = style
    return Metadata(path, None if lang is None else str(lang), styles, data)


def metadata_notes(orig: PathLike, refs: Sequence[PathLike], lang: str) -> list[str]:
    """What the corpus's ``metadata.yaml`` (:func:`read_metadata`) says of a run on ``orig``
    and ``refs``: each reference's correction style, and a warning when its language is not
    ``lang``. Empty when there is no metadata."""
    meta = read_metadata(orig)
    if meta is None:
        return []
    notes = []
    if meta.language and meta.language.lower() != lang.lower():
        notes.append(f"warning: {meta.path} gives target_language {meta.language!r}, but the "
                     f"texts are annotated as {lang!r} (--lang)")
    styles = [f"{Path(r).name}: {meta.style_of(r)}" for r in refs if meta.style_of(r)]
    if styles:
        notes.append(f"correction style ({meta.path.name}): {', '.join(styles)}")
    return notes


def _load_yaml(path: Path) -> dict[str, Any]:
    """The metadata file as a mapping, read with PyYAML's safe loader (errtype[multigec])."""
    try:
        import yaml
    except ImportError as exc:
        raise ResourceError(f"reading {path} needs PyYAML: pip install 'errtype[multigec]'"
                            ) from exc
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"not valid YAML: {getattr(exc, 'problem', exc)}", path=str(path),
                         line=None if mark is None else mark.line + 1) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8: {exc.reason}", path=str(path)) from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError("the metadata file is not a mapping", path=str(path), line=1)
    return data
