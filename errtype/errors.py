"""Typed exceptions raised by errtype's library code (never ``sys.exit`` or printing)."""

from __future__ import annotations


class ErrtypeError(Exception):
    """Base class of every error errtype raises on purpose."""


class InputError(ErrtypeError, ValueError):
    """Bad input data. Carries the file name, 1-based line number and byte offset when known."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        offset: int | None = None,
    ) -> None:
        self.reason = message
        self.path = path
        self.line = line
        self.offset = offset
        where = []
        if path is not None:
            where.append(str(path))
        if line is not None:
            where.append(f"line {line}")
        if offset is not None:
            where.append(f"byte {offset}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class EncodingError(InputError):
    """Input bytes are not valid in the declared encoding."""


class LineEndError(InputError):
    """A text file whose lines end in a carriage return alone (read as one line otherwise)."""


class LineCountError(InputError):
    """Parallel input files do not have the same number of lines."""


class M2FormatError(InputError):
    """A malformed M2 file."""


class OutputError(ErrtypeError):
    """An output location that cannot be written (missing folder, a folder given as a file, ...).

    Raised before any work starts: :func:`errtype.textio.check_output`."""

    def __init__(self, message: str, *, path: str) -> None:
        self.reason = message
        self.path = path
        super().__init__(f"{path}: {message}")


class PathClashError(OutputError):
    """An output that would overwrite an input or another output of the same command.

    Raised before any work starts: :func:`errtype.cli.files.check_clashes`. The message names
    both paths itself (no ``path:`` prefix)."""

    def __init__(self, message: str, *, path: str) -> None:
        ErrtypeError.__init__(self, message)
        self.reason = message
        self.path = path


class ResourceError(ErrtypeError):
    """A model, word list or other resource is missing or cannot be loaded."""


class ServiceError(ErrtypeError):
    """A remote service (an LLM judge's chat API) refused a request, could not be reached, or
    kept answering what cannot be used."""


class UnknownLanguageError(ErrtypeError, KeyError):
    """No language is registered under the requested code."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class AnnotationError(ErrtypeError):
    """An item of an annotation stream could not be annotated (``index``: its 0-based position)."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        self.reason = reason
        self.index = index
        where = f"item {index}: " if index is not None else ""
        super().__init__(f"{where}annotation failed: {reason}")

    def __reduce__(self) -> tuple[type, tuple[str, int | None]]:  # picklable across processes
        return (type(self), (self.reason, self.index))


class WorkerError(ErrtypeError):
    """A worker process died (killed, crashed) before finishing its share of the work."""

    def __init__(self, message: str, *, pid: int | None = None,
                 exitcode: int | None = None) -> None:
        self.pid = pid
        self.exitcode = exitcode
        super().__init__(message)
