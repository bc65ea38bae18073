"""The BLAS thread policy of every parse: one thread, decided when a parser is built.

spaCy's thinc layers run on numpy's BLAS in errtype (:func:`errtype.parse.spacy.use_numpy_blas`),
and OpenBLAS starts one busy-waiting thread per core by default. A parse is one thread's work
(``-j`` and Dask add processes), so extra BLAS threads only compete for the same cores; on a
loaded machine they multiply the CPU time of every parse. Every spaCy parse errtype runs (batch,
single sentence, the ERRANT shim's ``parse``; English, Czech and UD pipelines) therefore runs
inside :class:`BlasThreads`, which sets the BLAS libraries loaded at that point to one thread and
restores their previous setting afterwards, so code outside the parse keeps its own setting.
UDPipe runs its own single-threaded C++ code and uses no BLAS.

The libraries are looked up once (``threadpoolctl``), when the first parser is built; entering
and leaving the limit then costs a few microseconds. The escape hatch: ``blas_threads=None``
(:class:`~errtype.parse.spacy.SpacyParser`; for English also ``errtype.load("en",
blas_threads=None)``) leaves BLAS alone, an integer sets another limit, and the environment
variable ``ERRTYPE_BLAS_THREADS`` (a number, or ``none``) sets the default of every parser
built after it is read.
"""

from __future__ import annotations

import os
import sys
import threading
from types import TracebackType
from typing import Any

__all__ = ["ENV", "BlasThreads", "default_threads"]

#: environment variable with the default policy: a number of threads, or "none"
ENV = "ERRTYPE_BLAS_THREADS"

_lock = threading.Lock()
#: per process: the BLAS library controllers, with the number of imported modules when they were
#: looked up -- after a fork the child looks them up again, since a limit entered by another
#: thread of the parent does not exist there, and so does a process that imported modules since
#: (an import can load another BLAS: scikit-learn brings SciPy's OpenBLAS)
_libs: dict[int, tuple[int, list[Any]]] = {}
#: per process: how many parses are inside the limit, the libraries limited and the thread
#: counts to restore
_state: dict[int, tuple[int, list[Any], list[int]]] = {}


def default_threads() -> int | None:
    """The default thread limit: ``$ERRTYPE_BLAS_THREADS`` if set (``none``: no limit), else 1."""
    value = os.environ.get(ENV, "").strip().lower()
    if not value:
        return 1
    if value == "none":
        return None
    try:
        threads = int(value)
    except ValueError:
        raise ValueError(f"${ENV} must be a number of threads or 'none', not {value!r}") from None
    if threads < 1:
        raise ValueError(f"${ENV} must be at least 1 or 'none', not {threads}")
    return threads


def blas_libraries() -> list[Any]:
    """threadpoolctl's controllers of the BLAS libraries loaded in this process (cached until a
    module is imported)."""
    pid = os.getpid()
    modules = len(sys.modules)
    cached = _libs.get(pid)
    if cached is None or cached[0] != modules:
        from threadpoolctl import ThreadpoolController

        libs = list(ThreadpoolController().select(user_api="blas").lib_controllers)
        cached = _libs[pid] = (len(sys.modules), libs)
    return cached[1]


class BlasThreads:
    """Context manager: BLAS limited to ``threads`` threads inside, restored on exit.

    Re-entrant and safe across threads: the previous setting is saved by the first parse that
    enters and restored by the last one that leaves.
    """

    __slots__ = ("threads",)

    def __init__(self, threads: int | None = 1) -> None:
        if threads is not None and threads < 1:
            raise ValueError(f"blas_threads must be at least 1 or None, not {threads}")
        self.threads = threads
        if threads is not None:
            blas_libraries()  # looked up now, at load time, not during the first parse

    def __enter__(self) -> BlasThreads:
        if self.threads is None:
            return self
        pid = os.getpid()
        with _lock:
            depth, libs, saved = _state.get(pid, (0, [], []))
            if depth == 0:
                libs = blas_libraries()
                saved = [lib.num_threads for lib in libs]
                for lib, n in zip(libs, saved, strict=True):
                    if n != self.threads:
                        lib.set_num_threads(self.threads)
            _state[pid] = (depth + 1, libs, saved)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.threads is None:
            return
        pid = os.getpid()
        with _lock:
            depth, libs, saved = _state[pid]
            if depth == 1:
                for lib, n in zip(libs, saved, strict=True):
                    if n != self.threads:
                        lib.set_num_threads(n)
                del _state[pid]
            else:
                _state[pid] = (depth - 1, libs, saved)
