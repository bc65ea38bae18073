"""One input/output layer for every command: strict UTF-8 line reading and atomic writing.

Lines are split on ``\\n`` only (never on the other characters ``str.splitlines`` treats as line
breaks, such as U+2028 or form feed), a trailing ``\\r`` is dropped (CRLF files), a UTF-8 BOM at the
start of a file is dropped, and a missing final newline is fine. A file whose lines end in a
carriage return alone (classic Mac OS: no ``\\n`` at all) would be one line: it is refused by name
(:func:`check_line_ends`), when counted as when read. Invalid bytes raise
:class:`EncodingError` naming the file, line and byte offset, unless ``errors="replace"``; a file
in UTF-16 or UTF-32 (a byte-order mark, or lines half NUL bytes) is refused in either mode, by name,
and so is a binary file (an executable, an archive: its signature, or NUL bytes no text has).

Output is written atomically (:func:`atomic_output`): a hidden temporary file beside the target,
named with the writing process's id, is renamed over the target on success and removed on any
error or interrupt. One left by a killed process is removed by the next write to the same target.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shlex
import socket
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

from .errors import EncodingError, InputError, LineCountError, LineEndError, OutputError

PathLike = str | os.PathLike[str]


class Line(NamedTuple):
    """One line of input: 1-based number, text without terminator, byte offset of its start."""

    number: int
    text: str
    offset: int


def _open_binary(path: PathLike) -> IO[bytes]:
    if str(path) == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path=str(path)) from None
    except PermissionError:
        raise InputError("permission denied", path=str(path)) from None


_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
#: signatures of binary files that are not text in any encoding (the first bytes of the file)
_BINARY_MAGIC = ((b"\x7fELF", "an ELF executable or library"), (b"\x1f\x8b", "gzip data"),
                 (b"BZh", "bzip2 data"), (b"\xfd7zXZ\x00", "xz data"),
                 (b"\x28\xb5\x2f\xfd", "zstd data"), (b"PK\x03\x04", "a zip archive"),
                 (b"7z\xbc\xaf\x27\x1c", "a 7-zip archive"), (b"%PDF-", "a PDF document"),
                 (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
                 (b"SQLite format 3\x00", "an SQLite database"),
                 (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
                 (b"\xca\xfe\xba\xbe", "a Java class or Mach-O file"))
#: where the NUL bytes of Latin text sit in a code unit of each wide encoding (little-endian;
#: the other alignments, big-endian and lines split inside a unit, are these shifted)
_WIDE_NULS = {"UTF-32": (4, frozenset({1, 2, 3})), "UTF-16": (2, frozenset({1}))}


def _binary_kind(raw: bytes, first: bool) -> str | None:
    """What a raw line that is no text is (``"binary data"`` when no signature names it), or
    None for text: a known file signature at the start of the file, or at least a quarter NUL
    bytes that do not sit where the NULs of UTF-16 or UTF-32 text would."""
    if first:
        for magic, name in _BINARY_MAGIC:
            if raw.startswith(magic):
                return name
    nul = raw.count(0)
    if nul >= 2 and 4 * nul >= len(raw) and _wide_encoding(raw, False) is None:
        return "binary data"
    return None


def _wide_encoding(raw: bytes, first: bool) -> str | None:
    """"UTF-16"/"UTF-32" when ``raw`` (a raw line) is evidently not in a byte-oriented encoding:
    a UTF-16/32 byte-order mark at the start of the file, or at least a quarter NUL bytes that
    sit (95 % of them) where that encoding puts the zero bytes of Latin text, at one alignment
    (a line split at the newline byte of a wide newline starts inside a code unit)."""
    if first:
        for bom, name in _WIDE_BOMS:
            if raw.startswith(bom):
                return name
    nul = raw.count(0)
    if nul < 2 or 4 * nul < len(raw):
        return None
    name = "UTF-32" if 2 * nul > len(raw) else "UTF-16"
    unit, slots = _WIDE_NULS[name]
    where = [i for i, b in enumerate(raw) if b == 0]
    for shift in range(unit):
        if 20 * sum((i + shift) % unit in slots for i in where) >= 19 * len(where):
            return name
    return None


def _wide_message(wide: str, encoding: str) -> str:
    return (f"the file looks like {wide} text, not {encoding} (convert it first, e.g. "
            f"iconv -f {wide} -t UTF-8 FILE > FILE.utf8)")


def _binary_message(kind: str, encoding: str) -> str:
    return f"the file is {kind}, not {encoding} text"


def _refuse(raw: bytes, first: bool, encoding: str, name: str, line: int, offset: int) -> None:
    """Raise :class:`EncodingError` for a raw line of a wide encoding or of a binary file."""
    wide = _wide_encoding(raw, first)
    if wide:
        raise EncodingError(_wide_message(wide, encoding), path=name, line=line, offset=offset)
    kind = _binary_kind(raw, first)
    if kind:
        raise EncodingError(_binary_message(kind, encoding), path=name, line=line,
                            offset=offset)


#: a carriage return inside a line (not the CR of a CRLF line end)
_BARE_CR = re.compile(rb"\r[^\r\n]")


def check_line_ends(first: bytes, name: str) -> None:
    """Raise :class:`LineEndError` when ``first``, a file without any ``\\n``, holds several
    lines ended by a carriage return alone (classic Mac OS text). In a file of ``\\n`` lines a
    carriage return inside a line is whitespace, as any other."""
    if _BARE_CR.search(first):
        raise LineEndError("carriage return inside a line: the lines end in a carriage return "
                         "alone (classic Mac OS text), and errtype splits lines on \\n only, so "
                         "the file would read as one line; convert it first, e.g. "
                         "tr '\\r' '\\n' < FILE > FILE.txt", path=name, line=1)


def check_input(path: PathLike) -> None:
    """Raise :class:`InputError` unless ``path`` is a readable file (``-`` = standard input).

    The file is not opened: a pipe (``<(zcat x.gz)``) or FIFO keeps all its data for the reader.
    """
    if str(path) == "-":
        return
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError("no such file", path=str(path)) from None
    except OSError as exc:  # e.g. a path through a file, or a folder without permission
        raise InputError(exc.strerror.lower() if exc.strerror else str(exc),
                         path=str(path)) from None
    if stat.S_ISDIR(mode):
        raise InputError("is a directory, not a file", path=str(path))
    if not os.access(path, os.R_OK):
        raise InputError("permission denied", path=str(path))


def read_head(path: PathLike, size: int = 1 << 16) -> list[str]:
    """The complete lines among the first ``size`` bytes of a file (invalid UTF-8 replaced), to
    recognise its format. Only regular files are read: standard input, pipes and FIFOs give no
    lines, as they cannot be read twice."""
    if str(path) == "-" or not os.path.isfile(path):
        return []
    with _open_binary(path) as fh:
        head = fh.read(size)
    lines = head.decode("utf-8", "replace").split("\n")
    return lines if len(head) < size else lines[:-1]


def decode_lines(
    chunks: Iterable[bytes], name: str, encoding: str = "utf-8", errors: str = "strict",
    line_ends: bool = True
) -> Iterator[Line]:
    """Decode an iterable of raw lines (each ending in ``\\n`` except maybe the last);
    ``line_ends``: refuse a file of CR-ended lines (:func:`check_line_ends`; the M2 reader
    refuses every carriage return inside a line itself)."""
    offset = 0
    for number, raw in enumerate(chunks, 1):
        start = offset
        offset += len(raw)
        if number == 1 or 0 in raw:
            _refuse(raw, number == 1, encoding, name, number, start)
        if number == 1 and line_ends and not raw.endswith(b"\n"):
            check_line_ends(raw, name)
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        bom = encoding.lower() in {"utf-8", "utf8"} and raw.startswith(b"\xef\xbb\xbf")
        if number == 1 and bom:
            if offset == 3:  # a file holding only a BOM is empty
                return
            raw = raw[3:]
            start += 3
        try:
            text = raw.decode(encoding, errors)
        except UnicodeDecodeError as exc:
            raise EncodingError(
                f"invalid {encoding} byte {raw[exc.start:exc.start + 1]!r} "
                f"(errtype-m2 and errtype-compare: --encoding-errors replace substitutes U+FFFD)",
                path=name, line=number, offset=start + exc.start,
            ) from None
        yield Line(number, text, start)


def read_lines(path: PathLike, encoding: str = "utf-8", errors: str = "strict",
               line_ends: bool = True) -> Iterator[Line]:
    """Stream the lines of a file (``-`` = standard input); ``line_ends``: see
    :func:`decode_lines`."""
    fh = _open_binary(path)
    try:
        yield from decode_lines(fh, str(path), encoding, errors, line_ends)
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def read_text_lines(source: PathLike | Iterable[str], name: str | None = None,
                    errors: str = "strict", line_ends: bool = True) -> Iterator[Line]:
    """Lines of a path, or of an iterable of already-decoded strings (tests, in-memory data).

    An item holding several ``\\n``-separated lines (e.g. a whole file read into one string) is
    split into them, so line numbers match the file's; ``errors`` applies to paths only.
    """
    if isinstance(source, (str, os.PathLike)):
        yield from read_lines(source, errors=errors, line_ends=line_ends)
        return
    offset = 0
    number = 0
    for item in source:
        body = item[:-1] if item.endswith("\n") else item
        for text in body.split("\n"):
            number += 1
            clean = text[:-1] if text.endswith("\r") else text
            if number == 1 and clean.startswith("\ufeff"):
                clean = clean[1:]
            yield Line(number, clean, offset)
            offset += len(text.encode("utf-8", "surrogatepass")) + 1


def count_lines(path: PathLike) -> int:
    """Number of lines (a final line without newline counts; an empty file has none)."""
    n = 0
    last = b"\n"
    size = 0
    bare_cr = False
    with _open_binary(path) as fh:
        while block := fh.read(1 << 20):
            if not size:
                _refuse(block.split(b"\n", 1)[0], True, "utf-8", str(path), 1, 0)
            if not size and block == b"\xef\xbb\xbf":
                more = fh.read(1)
                if not more:
                    return 0  # only a BOM: an empty file
                block += more
            if not n:  # still in the first line (its last byte before: a CR inside it)
                bare_cr = bare_cr or bool(_BARE_CR.search(last + block.split(b"\n", 1)[0]))
            size += len(block)
            n += block.count(b"\n")
            last = block[-1:]
    if not n and bare_cr:
        check_line_ends(b"\r.", str(path))
    return n + (last != b"\n")


def check_line_counts(paths: Sequence[PathLike]) -> int:
    """The common number of lines of parallel files; :class:`LineCountError` listing every
    file's count when they differ."""
    if any(str(p) == "-" for p in paths):
        raise InputError("standard input cannot be one of several parallel files (its lines "
                         "cannot be counted before the work starts); give a file name", path="-")
    counts = [count_lines(p) for p in paths]
    if len(set(counts)) > 1:
        detail = ", ".join(f"{p}: {c}" for p, c in zip(paths, counts, strict=True))
        raise LineCountError(f"parallel files have different numbers of lines ({detail})",
                             path=str(paths[0]))
    return counts[0] if counts else 0


def read_parallel(
    paths: Sequence[PathLike], encoding: str = "utf-8", errors: str = "strict"
) -> Iterator[tuple[int, list[str]]]:
    """Iterate over parallel files in lock-step: (line number, [text of each file]).

    All line counts are checked before the first line is yielded; a mismatch raises
    :class:`LineCountError` listing every file's count.
    """
    check_line_counts(paths)
    iters = [read_lines(p, encoding, errors) for p in paths]
    for lines in zip(*iters, strict=True):
        yield lines[0].number, [ln.text for ln in lines]


def check_output(path: PathLike, kind: str = "file") -> None:
    """Raise :class:`OutputError` unless ``path`` can be written, before any work starts.

    ``kind``: ``"file"`` (a file written by :func:`atomic_output`; ``-`` = standard output),
    ``"prefix"`` (the stem of several files ``PATH.*`` in an existing folder) or ``"folder"``
    (a folder created with its parents when missing). The message says what to do.
    """
    if kind not in ("file", "prefix", "folder"):
        raise ValueError(f"kind must be 'file', 'prefix' or 'folder', not {kind!r}")
    name = str(path)
    if name == "-":
        if kind != "file":
            raise OutputError(f"standard output cannot hold several files; give a {kind} name",
                              path=name)
        return
    target = Path(path)
    if kind == "folder":
        existing = next(p for p in (target, *target.parents) if p.exists())
        if not existing.is_dir():
            what = "is a file" if existing == target else f"cannot be created: {existing} is a file"
            raise OutputError(f"{what}, not a folder; give a folder name", path=name)
        _check_writable(existing, name)
        return
    if target.is_dir() or not target.name:
        example = "PREFIX" if kind == "prefix" else "out.txt"
        raise OutputError(f"is a folder; give a file name in it, e.g. {target / example}",
                          path=name)
    folder = target.parent
    if not folder.exists():
        raise OutputError(f"the folder {folder} does not exist; create it first "
                          f"(mkdir -p {shlex.quote(str(folder))}) or choose another path",
                          path=name)
    if not folder.is_dir():
        raise OutputError(f"{folder} is a file, not a folder; choose another path", path=name)
    _check_writable(folder, name)


def _check_writable(folder: Path, name: str) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write in the folder {folder} (permission denied); choose "
                          "another path", path=name)


@contextlib.contextmanager
def atomic_output(path: PathLike, encoding: str = "utf-8", binary: bool = False
                  ) -> Iterator[IO[Any]]:
    """Write text to ``path`` atomically: a temporary file in the same folder, renamed on success.

    On any exception (including KeyboardInterrupt) the temporary file is removed and the target is
    left untouched. ``-`` writes to standard output. A path that cannot be written raises
    :class:`OutputError` before anything is written (:func:`check_output`). ``binary=True``
    yields a binary file instead (e.g. for Parquet).
    """
    if str(path) == "-":
        out = sys.stdout.buffer if binary else sys.stdout
        yield out
        out.flush()
        return
    check_output(path)
    target = Path(path)
    fd, tmp = sibling_temporary(target)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    try:
        with (open(fd, "wb") if binary else open(fd, "w", encoding=encoding, newline="\n")
              ) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _host_tag() -> str:
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def _owner_tag() -> str:
    """``PID-HOST``: which process on which machine writes a temporary file."""
    return f"{os.getpid()}-{_host_tag()}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def sibling_temporary(target: PathLike, suffix: str = ".tmp") -> tuple[int, str]:
    """A new temporary file beside ``target`` (open descriptor, path), hidden and named for this
    process (``.NAME.PID-HOST.RANDOM{suffix}``); stale ones of dead processes are removed first."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    remove_stale_temporaries(target, suffix)
    return tempfile.mkstemp(prefix=f".{target.name}.{_owner_tag()}.", suffix=suffix, dir=folder)


def remove_stale_temporaries(target: PathLike, suffix: str = ".tmp") -> list[Path]:
    """Remove the temporary files of ``target`` (:func:`sibling_temporary`) whose writing
    process, on this machine, no longer exists; the paths removed."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)-([0-9a-f]{{8}})\.[^/]*"
                         + re.escape(suffix))
    host = _host_tag()
    removed = []
    try:
        names = [n for n in os.listdir(folder) if n.startswith(f".{target.name}.")]
    except OSError:
        return removed
    for name in names:
        m = pattern.fullmatch(name)
        if m and m.group(2) == host and not _alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)
                removed.append(folder / name)
    return removed


def file_key(path: PathLike) -> tuple[str, int, int]:
    """``(resolved path, size, mtime in ns)``: what identifies a file's version for a cached
    verdict about its content (a digest, a test load) within a process."""
    p = Path(path).resolve()
    st = p.stat()
    return str(p), st.st_size, st.st_mtime_ns
