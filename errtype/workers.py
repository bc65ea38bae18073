"""Forked worker processes that live and die with their parent: an ordered, bounded map.

:func:`ordered_map` runs ``fn(*task)`` for each task in ``jobs`` processes forked from the caller
(they share its loaded models, and ``fn`` need not be picklable; results must be). A worker
ignores SIGINT and takes SIGTERM's default action, so only the parent decides when work stops
(Ctrl-C reaches the whole process group); it is killed when the parent dies (Linux:
``prctl(PR_SET_PDEATHSIG, SIGKILL)``; elsewhere a thread polls the parent's pid). A worker that
dies raises :class:`~errtype.errors.WorkerError` naming it and its task, at once. However the map
ends (exhausted, an error, Ctrl-C, the consumer stopping early), every worker is stopped and
reaped before control returns.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import WorkerError

__all__ = ["ordered_map"]

_STOP_GRACE = 5.0  # seconds an idle worker gets to exit after the stop message
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> bool:
    """Make this (forked) process die when ``parent`` does; False if it already has."""
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                threading.Event().wait(1.0)
            os.kill(os.getpid(), signal.SIGKILL)

        threading.Thread(target=watch, daemon=True).start()
    return os.getppid() == parent  # else it died before the death signal was armed


def _serve(conn: Any, fn: Callable[..., Any], parent: int) -> None:
    """A worker's life: tasks in, ``(seq, error, result)`` out, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if not _die_with_parent(parent):
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent closed the pipe
            return
        if message is None:
            return
        seq, args = message
        try:
            reply = (seq, None, fn(*args))
        except Exception as exc:  # noqa: BLE001 - re-raised in the parent
            reply = (seq, exc, None)
        try:
            conn.send(reply)
        except Exception as exc:  # noqa: BLE001 - an unpicklable result or error
            conn.send((seq, RuntimeError(f"worker result could not be sent: {exc!r}"), None))


class _Worker:
    """One forked process and the parent's end of its pipe."""

    def __init__(self, ctx: Any, fn: Callable[..., Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, fn, os.getpid()), daemon=True,
                                   name="errtype-worker")
        # signals stay blocked across the fork until the child has installed its own handlers,
        # so a Ctrl-C at that moment never runs the parent's handler in the child
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            self.process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
            child.close()
        self.task: int | None = None  # seq of the task it is working on

    def death(self, what: str) -> WorkerError:
        """The error reporting this worker's death (waits briefly for its exit status)."""
        self.process.join(1.0)
        code = self.process.exitcode
        if code is None:
            how = "stopped answering"
        elif code < 0:
            try:
                how = f"was killed by signal {-code} ({signal.Signals(-code).name})"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        return WorkerError(f"worker process {self.process.pid} {how} while annotating {what}",
                           pid=self.process.pid, exitcode=code)

    def stop(self, graceful: bool) -> None:
        if graceful and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(_STOP_GRACE)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()
        self.process.close()


def ordered_map(fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], jobs: int,
                describe: Callable[[tuple[Any, ...]], str] = lambda task: "a task",
                window: int | None = None) -> Iterator[Any]:
    """``fn(*task)`` of each task, computed by ``jobs`` forked workers, yielded in task order.

    At most ``window`` (default ``2 * jobs``) tasks are read ahead of the one yielded next, so
    memory stays bounded. An exception raised by ``fn`` is re-raised here in its task's turn,
    after the results of the tasks before it (so the first failing task in input order is the
    one reported, as in one process); a worker that dies raises
    :class:`~errtype.errors.WorkerError` at once (``describe(task)`` names its task).
    """
    import multiprocessing
    from multiprocessing.connection import wait

    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError as exc:  # pragma: no cover - platforms without fork
        raise ValueError("jobs > 1 needs the 'fork' start method (Linux/macOS)") from exc
    window = window or 2 * jobs
    source = iter(tasks)
    held: dict[int, tuple[Any, ...]] = {}  # seq -> task, read and not yet yielded
    waiting: deque[int] = deque()  # read, not yet sent to a worker
    results: dict[int, Any] = {}
    read = yielded = 0
    exhausted = False
    workers: list[_Worker] = []
    finished = False
    try:
        workers = [_Worker(ctx, fn) for _ in range(jobs)]
        while True:
            while not exhausted and len(held) < window:
                task = next(source, None)
                if task is None:
                    exhausted = True
                    break
                held[read] = task
                waiting.append(read)
                read += 1
            for w in workers:
                if w.task is None and waiting:
                    seq = waiting.popleft()
                    try:
                        w.conn.send((seq, held[seq]))
                    except OSError:
                        raise w.death(describe(held[seq])) from None
                    w.task = seq
            if yielded in results:
                held.pop(yielded)
                error, result = results.pop(yielded)
                yielded += 1
                if error is not None:
                    raise error
                yield result
                continue
            if exhausted and not held:
                finished = True
                return
            busy = [w for w in workers if w.task is not None]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for w in busy:
                if w.conn in ready:
                    try:
                        seq, error, result = w.conn.recv()
                    except (EOFError, OSError):
                        raise w.death(describe(held[w.task])) from None  # type: ignore[index]
                    w.task = None
                    results[seq] = (error, result)
                elif w.process.sentinel in ready:
                    raise w.death(describe(held[w.task]))  # type: ignore[index]
    finally:
        for w in workers:
            w.stop(graceful=finished)
