"""Batched, ordered annotation of item streams: parse only what can yield an edit, isolate
failures, and optionally fan batches out to forked worker processes.

Used by :meth:`errtype.Annotator.annotate_stream`, and so by every annotation job
(:mod:`errtype.convert.jobs`); it imports no job module (the layer below them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from .errors import AnnotationError, ResourceError
from .merge import MAX_RULE_RUN
from .parse.blas import BlasThreads
from .records import Annotation, Item, Text, too_long
from .tokens import Sentence

if TYPE_CHECKING:
    from .annotator import Annotator

Batch = list[tuple[Text, list[Text]]]


@dataclass(frozen=True)
class StreamOptions:
    """How items are annotated (the keyword arguments of ``annotate_stream``)."""

    lev: bool = False
    merging: str = "rules"
    tokenize: bool = False
    on_error: str = "fail"
    max_tokens: int | None = None
    parse_noops: bool = False
    merge_run_limit: int = MAX_RULE_RUN
    #: ``realign(annotator, orig, cor, starts, lev=, merging=, merge_run_limit=)``: the edits of
    #: a pair whose original holds more than one sentence (``starts``: its sentence starts),
    #: e.g. :func:`errtype.essay.pairs.realigned_edits`; None: aligned as one sentence
    realign: Callable[..., list[Any]] | None = None


def normalise(item: Item) -> tuple[Text, list[Text]]:
    """``(orig, cor)`` or ``(orig, [cor, ...])`` -> ``(orig, [cor, ...])``."""
    orig, cors = item
    if isinstance(cors, (str, Sentence)):
        return orig, [cors]
    return orig, list(cors)


def batches(items: Iterable[Item], size: int) -> Iterator[Batch]:
    if size < 1:
        raise ValueError(f"batch_size must be at least 1, not {size}")
    it = (normalise(x) for x in items)
    while batch := list(islice(it, size)):
        yield batch


Transform = Callable[[Annotation, tuple[Text, list[Text]]], Any]

#: the most items a forked worker gets at a time: small enough that the workers finish a run
#: together (a 256-item task left one of two workers idle for up to a quarter of a
#: ``bench/bench_m2.py`` group), large enough that an item's original and corrections still
#: share one parse batch
WORKER_TASK = 64


def annotate_batches(annotator: Annotator, items: Iterable[Item], options: StreamOptions,
                     batch_size: int, jobs: int = 1, transform: Transform | None = None
                     ) -> Iterator[Any]:
    """Annotations of ``items`` in order, or ``transform(annotation, item)`` of each (see
    ``Annotator.annotate_stream``)."""
    if jobs > 1:
        yield from _in_workers(annotator, batches(items, min(batch_size, WORKER_TASK)), options,
                               jobs, transform)
        return
    start = 0
    for batch in batches(items, batch_size):
        yield from _run(annotator, batch, options, start, transform)
        start += len(batch)


def _run(annotator: Annotator, batch: Batch, options: StreamOptions, start: int,
         transform: Transform | None) -> list[Any]:
    with collector_paused():
        results = annotate_batch(annotator, batch, options, start)
    if transform is None:
        return results
    return [transform(r, item) for r, item in zip(results, batch, strict=True)]


# --- one batch ----------------------------------------------------------------------------------

@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while one batch is annotated, on again after (if
    it was on). A batch allocates tens of thousands of short-lived objects without cycles, and
    every few thousand allocations the collector would scan them and, now and then, every
    object of the process (the loaded models, the caller's data): 5-8 % of the batch path's
    CPU time on ``bench/bench_m2.py``. Memory is freed by reference counting as before;
    cyclic garbage of a batch, if any, waits for the batch's end."""
    import gc

    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _words(x: Text) -> Sentence:
    return x if isinstance(x, Sentence) else Sentence.from_words(x.split())


def _length(x: Text) -> int:
    return len(x) if isinstance(x, Sentence) else len(x.split())


def skipped(orig: Text, cors: Sequence[Text], reason: str) -> Annotation:
    """The result of an item that was not annotated: bare tokens (the parsed ones where the
    item was parsed), no edits, the reason."""
    return Annotation(_words(orig), [_words(c) for c in cors], [[] for _ in cors],
                      [False] * len(cors), reason)


def _same(orig: Text, cor: Text) -> bool:
    """Whether the correction is known token-identical to the original without parsing."""
    if isinstance(orig, Sentence) and isinstance(cor, Sentence):
        return orig.texts == cor.texts
    return isinstance(orig, str) and orig == cor


def _parse_unique(annotator: Annotator, texts: list[str], tokenize: bool
                  ) -> dict[str, Sentence | Exception]:
    """Each distinct text parsed once; if the batch fails, each text alone (errors kept)."""
    try:
        return dict(zip(texts, annotator.parser.parse_many(texts, tokenize), strict=True))
    except Exception:  # isolate the failing text
        out: dict[str, Sentence | Exception] = {}
        for t in texts:
            try:
                out[t] = annotator.parse(t, tokenize)
            except Exception as exc:  # noqa: BLE001 - reported per item
                out[t] = exc
        return out


def annotate_batch(annotator: Annotator, batch: Batch, options: StreamOptions,
                   start: int = 0) -> list[Annotation]:
    """Annotations of one batch of normalised items (``start``: index of the first item)."""
    from .lang.base import Language

    tokenize = options.tokenize
    segment = None if options.parse_noops else getattr(annotator.parser, "segment", None)
    lang = annotator.language
    prepare = None if type(lang).correction_text is Language.correction_text \
        else lang.correction_text
    alternatives = lang.equal_cost_alternatives
    if prepare is not None:
        batch = [(orig, [prepare(c) if isinstance(c, str) else c for c in cors])
                 for orig, cors in batch]
    results: list[Annotation | None] = []
    plans: list[list[bool]] = []  # per item to annotate: which corrections equal the original
    todo: dict[str, None] = {}  # distinct texts to parse, in order
    limit = options.max_tokens
    # the limit counts the tokens the language aligns: words split at spaces before parsing
    # (a lower bound of the parsed tokens), every parsed sentence again after; a language
    # written without spaces is counted once parsed (segmentation is linear, alignment is not)
    precount = lang.spaced
    for orig, cors in batch:
        plans.append([])
        if limit is not None and max((_length(x) for x in (orig, *cors)
                                      if precount or isinstance(x, Sentence)), default=0) > limit:
            results.append(skipped(orig, cors, too_long(limit)))
            continue
        same = [_same(orig, c) for c in cors]
        if segment is not None and isinstance(orig, str):
            known = _segmented(segment, orig, cors, same, tokenize)
            if known is not None:
                too = limit is not None and len(known) > limit
                results.append(Annotation(known, [known] * len(cors), [[] for _ in cors],
                                          [not too] * len(cors), too_long(limit) if too else None))
                continue
        results.append(None)
        plans[-1] = same
        needed = (orig, *(c for c, s in zip(cors, same, strict=True) if not s))
        todo.update((t, None) for t in needed if isinstance(t, str))
    parsed = _parse_unique(annotator, list(todo), tokenize) if todo else {}
    for k, ((orig, cors), same) in enumerate(zip(batch, plans, strict=True)):
        if results[k] is not None:
            continue
        try:
            o = _resolved(orig, parsed)
            cs = [o if s else _resolved(c, parsed) for c, s in zip(cors, same, strict=True)]
            if limit is not None and max(map(len, (o, *cs))) > limit:
                results[k] = Annotation(o, cs, [[] for _ in cs], [False] * len(cs),
                                        too_long(limit))
                continue
            ann = Annotation(o, cs)
            starts = _sentence_starts(o, options)
            for c in cs:
                is_noop = o.texts == c.texts
                ann.noop.append(is_noop)
                if not alternatives:
                    ann.edits.append([] if is_noop else _edits(annotator, o, c, options, starts))
                    continue
                seqs = [[]] if is_noop else annotator.annotate_alternatives(
                    o, c, options.lev, options.merging, options.merge_run_limit)
                ann.edits.append(seqs[0])
                ann.alternatives.append(seqs)
        except ResourceError:  # a missing resource fails every item: never skipped
            raise
        except Exception as exc:  # noqa: BLE001 - raised with the item's index, or skipped
            reason = f"{type(exc).__name__}: {exc}"
            if options.on_error != "skip":
                raise AnnotationError(reason, index=start + k) from exc
            ann = skipped(orig, cors, reason)
        results[k] = ann
    return results  # type: ignore[return-value]


def _sentence_starts(o: Sentence, options: StreamOptions) -> list[int] | None:
    """The sentence starts of an original that ``options.realign`` realigns (more than one
    sentence: :func:`errtype.document.sentence_starts` on its tokens), else None; once per
    item, for all its corrections."""
    if options.realign is None or len(o) < 2:
        return None
    from .document import sentence_starts

    starts = sentence_starts(o.texts)
    return starts if len(starts) > 1 else None


def _edits(annotator: Annotator, o: Sentence, c: Sentence, options: StreamOptions,
           starts: list[int] | None) -> list[Any]:
    """The edits of one pair: :meth:`Annotator.annotate`, or, for an original of more than one
    sentence (``starts``: :func:`_sentence_starts`), ``options.realign``'s, at offsets over the
    whole pair. (The realigner is passed in: this module is below :mod:`errtype.essay`, which
    imports the annotator.)"""
    if starts is not None and options.realign is not None:
        return options.realign(annotator, o, c, starts, lev=options.lev,
                               merging=options.merging, merge_run_limit=options.merge_run_limit)
    return annotator.annotate(o, c, options.lev, options.merging, options.merge_run_limit)


def _resolved(x: Text, parsed: dict[str, Sentence | Exception]) -> Sentence:
    if isinstance(x, Sentence):
        return x
    s = parsed[x]
    if isinstance(s, Exception):
        raise s
    return s


def _segmented(segment: object, orig: str, cors: list[Text], same: list[bool], tokenize: bool
               ) -> Sentence | None:
    """The original's tokens when every correction is token-identical to it, else None.

    ``same`` is updated in place for corrections found token-identical. A correction whose
    whitespace-split words differ is not segmented (a cheap filter; it is then parsed).
    """
    words: list[str] | None = None
    seg: Sentence | None = None
    for i, c in enumerate(cors):
        if same[i] or not isinstance(c, str):
            continue
        if words is None:
            words = orig.split()
        if c.split() != words:
            continue
        if seg is None:
            seg = segment(orig, tokenize)  # type: ignore[operator]
        same[i] = segment(c, tokenize).texts == seg.texts  # type: ignore[operator]
    if not all(same):
        return None
    return seg if seg is not None else segment(orig, tokenize)  # type: ignore[operator]


# --- forked workers -----------------------------------------------------------------------------

def _in_workers(annotator: Annotator, batches: Iterable[Batch], options: StreamOptions,
                jobs: int, transform: Transform | None = None) -> Iterator[Any]:
    """Batches annotated by ``jobs`` forked processes (:func:`worker_map`); results in input
    order, at most ``2 * jobs`` batches in flight."""
    def work(start: int, batch: Batch) -> list[Any]:
        return _run(annotator, batch, options, start, transform)

    def numbered() -> Iterator[tuple[int, Batch]]:
        start = 0
        for batch in batches:
            yield start, batch
            start += len(batch)

    def describe(task: tuple[int, Batch]) -> str:
        start, batch = task
        return f"items {start + 1}-{start + len(batch)}"

    for results in worker_map(annotator, work, numbered(), jobs, describe):
        yield from results


def worker_map(annotator: Annotator, fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]],
               jobs: int, describe: Callable[[tuple[Any, ...]], str]) -> Iterator[Any]:
    """``fn(*task)`` of each task, in task order, computed by ``jobs`` processes forked from this
    one (:func:`errtype.workers.ordered_map`: they share the loaded models and get ``fn`` by
    inheritance, so it need not be picklable).

    What the annotator loads lazily is loaded first, so that it is loaded once, before the
    fork, and the objects of this process are moved out of the garbage collector's sight while
    the workers run (``gc.freeze``): a worker's collections then never touch, and so never copy,
    the pages of the models it shares (11 % fewer page faults in the workers). The parser's
    BLAS thread policy (:mod:`errtype.parse.blas`) is held in this process while the workers
    run, so they are forked with it and never change the BLAS setting: OpenBLAS's threads do
    not survive a fork, and setting the thread count again in a worker would start a new one
    that busy-waits ~0.1 s (60-70 ms of CPU per worker on ``bench/bench_m2.py``)."""
    import gc

    from .workers import ordered_map

    annotator.warm_up()
    policy = getattr(annotator.parser, "blas", None)
    gc.freeze()  # the objects loaded so far are never scanned, so never copied, by a worker
    try:
        with policy if isinstance(policy, BlasThreads) else nullcontext():
            yield from ordered_map(fn, tasks, jobs, describe)
    finally:
        gc.unfreeze()
