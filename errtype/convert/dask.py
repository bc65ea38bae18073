"""Annotate sentence pairs on a Dask cluster (``pip install 'errtype[dask]'``).

Each worker process builds one Annotator per (language, backend options), the first time a
partition needs it, and keeps it; partitions are annotated with
:meth:`errtype.Annotator.annotate_stream` and come back as M2 blocks in input order, identical to
a single-process run::

    import dask.bag as db
    from errtype.dask import annotate_bag, write_m2   # = errtype.convert.dask

    pairs = db.from_sequence([("He go home .", ["He goes home ."]), ...], npartitions=8)
    write_m2(annotate_bag(pairs, lang="en"), "out.m2")   # one file, atomically, in order

:func:`annotate_dataframe` takes a dask DataFrame with an original and correction columns;
:func:`write_partitions` writes one M2 file per partition instead. ``errtype-m2 --dask`` uses
:func:`parallel_to_m2_dask`, whose workers read their line ranges of the input files themselves
(the files must be readable at the same path on every worker).

Dask is imported only when these functions run; ``import errtype`` never imports it.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..annotator import Annotator
from ..errors import InputError, ResourceError, WorkerError
from ..textio import atomic_output
from .jobs import formatter
from .options import JobOptions, resolve
from .output import Formatted, Joined, Report, m2_sink
from .ranges import LineRange, annotate_range, line_ranges

PathLike = str | os.PathLike[str]

__all__ = ["Settings", "annotate_bag", "annotate_dataframe", "connect", "parallel_to_m2_dask",
           "write_m2", "write_partitions"]


def _dask() -> Any:
    try:
        import dask
        import dask.bag
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ResourceError("errtype.dask needs Dask: pip install 'errtype[dask]'") from exc
    return dask


@dataclass(frozen=True)
class Settings:
    """Everything a worker needs: the annotator to build and how to annotate (picklable)."""

    lang: str = "en"
    #: backend options of :func:`errtype.load` as sorted (name, value) pairs, e.g.
    #: ``(("spacy_model", "en_core_web_sm"),)`` or ``(("udpipe_model", "/models/cs.udpipe"),)``
    backend: tuple[tuple[str, Any], ...] = ()
    #: how to annotate and format (the job's one options object)
    options: JobOptions = field(default_factory=JobOptions)

    @classmethod
    def make(cls, lang: str = "en", backend: dict[str, Any] | None = None,
             options: JobOptions | None = None, **overrides: Any) -> Settings:
        """``options`` (default :class:`~errtype.convert.options.JobOptions`'s), its fields
        replaced by ``overrides`` (``lev``, ``merging``, ``tokenize``, ``on_error``,
        ``max_tokens``, ``parse_noops``, ``merge_run_limit``, ``errant_noop``,
        ``batch_size``)."""
        return cls(lang, tuple(sorted((backend or {}).items())), resolve(options, overrides))


# --- on the workers -----------------------------------------------------------------------------

_ANNOTATORS: dict[tuple[str, tuple[tuple[str, Any], ...]], Annotator] = {}
_LOCK = threading.Lock()  # one annotation at a time per worker process (spaCy is not reentrant)


def worker_annotator(lang: str, backend: tuple[tuple[str, Any], ...] = ()) -> Annotator:
    """This process's Annotator for (lang, backend options), loaded at its first use only."""
    key = (lang, backend)
    annotator = _ANNOTATORS.get(key)
    if annotator is None:
        from .. import load

        annotator = _ANNOTATORS[key] = load(lang, **dict(backend))
    return annotator


def _formatted(items: Iterable[Any], settings: Settings) -> list[Formatted]:
    """One partition of items ``(orig, cor | [cor, ...])`` -> their Formatted M2 blocks."""
    with _LOCK:
        annotator = worker_annotator(settings.lang, settings.backend)
        return list(annotator.annotate_stream(
            items, transform=formatter(annotator, settings.options), **settings.options.stream()))


def _blocks(items: Iterable[Any], settings: Settings) -> list[str]:
    return [f.block for f in _formatted(items, settings)]


def _range_partition(ranges: Sequence[LineRange], settings: Settings) -> list[Joined]:
    """Read, annotate and format the line ranges of one partition: their M2 text."""
    with _LOCK:
        annotator = worker_annotator(settings.lang, settings.backend)
        return [annotate_range(annotator, r, settings.options) for r in ranges]


# --- on the client ------------------------------------------------------------------------------

def annotate_bag(bag: Any, lang: str = "en", *, backend: dict[str, Any] | None = None,
                 **options: Any) -> Any:
    """A bag of M2 blocks (strings), one per item of ``bag``, partition by partition in order.

    Items are ``(orig, cor)`` or ``(orig, [cor, ...])`` strings; ``options`` are those of
    :meth:`Settings.make` (a :class:`~errtype.convert.options.JobOptions` as ``options=``, or
    its fields: ``lev``, ``merging``, ``tokenize``, ``on_error``, ``max_tokens``,
    ``parse_noops``, ``merge_run_limit``, ``errant_noop``, ``batch_size``). With
    ``on_error="skip"`` a failed item is a noop block.
    """
    _dask()
    return bag.map_partitions(_blocks, Settings.make(lang, backend, **options))


def _row_item(row: Sequence[Any]) -> tuple[str, list[str]]:
    bad = [v for v in row if not isinstance(v, str)]
    if bad:
        raise InputError(f"every original and correction must be a string, not {bad[0]!r}")
    return row[0], list(row[1:])


def annotate_dataframe(df: Any, lang: str = "en", orig: str = "orig",
                       cors: str | Sequence[str] = "cor", **options: Any) -> Any:
    """A bag of M2 blocks, one per row of the dask DataFrame ``df`` (column ``orig`` and the
    correction column(s) ``cors``), in row order; options as :func:`annotate_bag`."""
    columns = [orig, *([cors] if isinstance(cors, str) else cors)]
    rows = df[columns].to_bag(index=False).map(_row_item)
    return annotate_bag(rows, lang, **options)


def _window() -> int:
    try:
        from distributed import get_client

        return max(2, 2 * len(get_client().nthreads()))
    except (ImportError, ValueError):
        return max(2, 2 * (os.cpu_count() or 1))


def ordered_partitions(bag: Any, window: int | None = None) -> Iterator[list[Any]]:
    """The computed partitions of ``bag`` in order, at most ``window`` computing at once."""
    dask = _dask()
    window = window or _window()
    parts = iter(bag.to_delayed())
    try:
        from distributed import get_client

        client = get_client()
    except (ImportError, ValueError):
        client = None
    if client is None:  # the local scheduler: compute windows of partitions
        while chunk := [p for _, p in zip(range(window), parts, strict=False)]:
            yield from dask.compute(*chunk)
        return
    pending: deque[Any] = deque()
    try:
        while True:
            while len(pending) < window and (part := next(parts, None)) is not None:
                pending.append(client.compute(part))
            if not pending:
                break
            yield pending.popleft().result()
    finally:
        for fut in pending:
            fut.cancel()


def write_m2(blocks: Any, out: PathLike, window: int | None = None) -> int:
    """Write a bag of M2 blocks to one file atomically, in order; the number of blocks."""
    n = 0
    with atomic_output(out) as fh:
        for part in ordered_partitions(blocks, window):
            fh.writelines(part)
            n += len(part)
    return n


def _write_part(part: list[str], path: str) -> int:
    with atomic_output(path) as fh:
        fh.writelines(part)
    return len(part)


def write_partitions(blocks: Any, folder: PathLike, name: str = "part-{:05d}.m2") -> list[str]:
    """Write each partition of a bag of M2 blocks to its own file in ``folder`` (atomically,
    by the workers); the paths in partition order (their concatenation is the whole M2)."""
    dask = _dask()
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.join(folder, name.format(i)) for i in range(blocks.npartitions)]
    tasks = [dask.delayed(_write_part)(p, path)
             for p, path in zip(blocks.to_delayed(), paths, strict=True)]
    dask.compute(*tasks)
    return paths


#: Dask settings of the LocalCluster that ``local:N`` starts (bench/bench_scale.py measures them):
#: no statistical profiler (it samples the annotating thread every 10 ms, costing CPU and a
#: growing profile), and glibc's default malloc trimming instead of Dask's 64 KiB threshold,
#: which makes spaCy's large temporaries an mmap and munmap per batch (~18 % more CPU per pair).
#: A cluster errtype connects to (``tcp://``) keeps its own configuration.
LOCAL_CLUSTER_CONFIG: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}


_QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"


class _RequesterGone(logging.Filter):
    """Drops a worker's "failed during get data" traceback: the process that asked for a result
    (errtype's client) went away in the middle of the transfer, e.g. killed; a requester that is
    still alive sees the failure itself and reports it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("failed during get data")


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in each worker process ``local:N`` starts (and restarts): a
    Ctrl-C reaches the whole process group, but only the client decides when work stops (it
    closes the cluster), so the workers ignore SIGINT instead of printing tracebacks; nor do
    they print a traceback for a result the killed client no longer reads
    (:class:`_RequesterGone`)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.getLogger("distributed.worker").addFilter(_RequesterGone())


def connect(address: str) -> tuple[Any, Any]:
    """``local:N`` (a LocalCluster of N single-threaded worker processes on 127.0.0.1) or a
    scheduler address (``tcp://HOST:PORT``) -> (client, cluster or None); close both after."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ResourceError("--dask needs Dask: pip install 'errtype[dask]'") from exc
    if address.startswith("local:"):
        try:
            n = int(address.split(":", 1)[1])
        except ValueError:
            n = 0
        if n < 1:
            raise InputError(f"--dask local:N needs a number of workers >= 1, not {address!r}")
        # multiprocessing's resource tracker outlives a SIGKILLed client and would then warn
        # about "leaked semaphore objects"; it takes its warning filters from this process's -W
        # options, read when it starts
        if _QUIET_TRACKER not in sys.warnoptions:
            sys.warnoptions.append(_QUIET_TRACKER)
        # everything on the loopback interface; the HTTP endpoint on a free port
        with _dask().config.set(LOCAL_CLUSTER_CONFIG):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                   silence_logs=logging.ERROR, preload=[__name__])
        return Client(cluster), cluster
    return Client(address), None


def _lost(exc: Any, ranges: Sequence[LineRange]) -> WorkerError:
    """Dask's KilledWorker (a partition's worker died on every attempt) as a WorkerError."""
    key = getattr(exc, "task", None)
    what = "a partition"
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], int) \
            and 0 <= key[1] < len(ranges):
        r = ranges[key[1]]
        what = f"lines {r.first}-{r.first + r.count - 1}"
    return WorkerError(f"Dask workers died on every attempt to annotate {what} (the worker "
                       f"logs say why, e.g. memory): {exc}")


def _close(client: Any, cluster: Any) -> None:
    client.close()
    if cluster is not None:
        cluster.close()


def parallel_to_m2_dask(client_address: str, orig: PathLike, cors: Sequence[PathLike],
                        out: PathLike, settings: Settings, *, partition_size: int = 2000,
                        progress: Callable[[int], None] | None = None) -> Report:
    """``errtype-m2 --dask``: parallel files -> M2 (atomically, in order) on a Dask cluster.

    The files are cut into ranges of ``partition_size`` lines that the workers read and
    annotate as ``settings.options`` say; the output is identical to
    :func:`errtype.convert.parallel_to_m2`. ``settings.options.resume`` writes resumably,
    checkpointing after each partition (:mod:`errtype.convert.checkpoint`).
    """
    _dask()
    import dask.bag as db

    paths = [orig, *cors]
    for p in paths:
        if str(p) == "-":
            raise InputError("--dask reads files, not standard input")
    identity = None
    if settings.options.resume:
        from ..version import __version__
        from .checkpoint import file_identity

        identity = {"errtype": __version__, "inputs": file_identity(paths), "kind": "dask",
                    "lang": settings.lang, "backend": [list(b) for b in settings.backend],
                    "options": settings.options.identity(), "partition_size": partition_size}
    report = Report()
    with m2_sink(out, report, identity, partition_size) as sink:
        ranges = line_ranges(paths, partition_size, sink.done)
        if progress and sink.done:
            progress(sink.done)
        if not ranges:  # nothing (left) to annotate
            return report
        client, cluster = connect(client_address)
        try:
            bag = db.from_sequence(ranges, npartitions=len(ranges)).map_partitions(
                _range_partition, settings)
            try:
                for part in ordered_partitions(bag):
                    for joined in part:
                        sink.put_joined(joined)
                        if progress:
                            progress(joined.blocks)
            except Exception as exc:
                if type(exc).__name__ != "KilledWorker":
                    raise
                raise _lost(exc, ranges) from None
        finally:
            _close(client, cluster)
    return report

