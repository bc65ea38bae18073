"""MultiGEC Markdown essays -> M2: the ``essay`` job kind of :func:`errtype.convert.jobs.run_job`.

:func:`essays_to_m2` reads an orig file and correction files in MultiGEC's Markdown
(:func:`errtype.essay.multigec.read_parallel_essays`: essays matched by id, in the orig file's
order) and annotates each essay with sentence realignment (:mod:`errtype.essay.realign`), as
raw text tokenised by the language's parser. ``unit="essay"`` writes one M2 block per essay (its
``S`` line every token of the essay, edits at essay token offsets); ``unit="sentence"`` one block
per sentence-level unit (:meth:`~errtype.essay.realign.EssayAnnotation.units`).

Annotator ``k`` of every block is correction file ``k``. A correction file that lacks an essay
gives that annotator **no line** in the essay's block(s): the essay has fewer references, as
MultiGEC reads a reference file lacking an essay, and ``errtype convert m2-to-multigec`` (default
``--missing skip``) leaves the essay out again. ``errtype lint`` reports such a block as
``annotator-missing``, which here is intended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .. import m2
from ..essay.multigec import read_multigec, read_parallel_essays
from ..m2 import M2Block
from .jobs import Job, run_job
from .options import JobOptions, resolve
from .output import Formatted, PathLike, Report

if TYPE_CHECKING:
    from ..annotator import Annotator
    from ..essay.realign import EssayAnnotation

__all__ = ["UNITS", "essay_formatted", "essays_to_m2"]

UNITS = ("essay", "sentence")
#: essays per worker task (``jobs > 1``)
WORKER_ESSAYS = 8

Progress = Callable[[int], None] | None


def essay_formatted(ea: EssayAnnotation, unit: str = "essay") -> Formatted:
    """The M2 block(s) of one annotated essay: annotator ``k`` is correction ``k`` (a missing
    correction has no line). ``refused``: a correction M2 cannot express (its index)."""
    present = ea.present
    if unit == "essay":
        anns = [ea.annotation()]
    else:
        anns = [u.annotation for u in ea.units()] or [ea.annotation()]
    texts, noops = [], 0
    for ann in anns:
        block = m2.annotation_block(ann, source_text=True)
        edits = [e._replace(annotator=present[e.annotator]) for e in block.edits]
        for e in edits:
            why = None if e.is_noop else m2.unwritable(e.cor)
            if why is not None:
                return Formatted(_noop_blocks(anns, present), 0, f"the correction {why}, which "
                                 "cannot be written in an edit line", e.annotator)
        noops += sum(e.is_noop for e in edits)
        texts.append(M2Block(block.source, edits).to_m2())
    return Formatted("".join(texts), noops, ea.error)


def _noop_blocks(anns: Sequence[Any], present: Sequence[int]) -> str:
    return "".join(M2Block(" ".join(a.orig.texts), [m2.M2Edit.noop(k) for k in present]).to_m2()
                   for a in anns)


def _annotate(annotator: Annotator, options: JobOptions,
              items: Iterable[tuple[str, list[str | None]]]) -> Iterator[Formatted]:
    from ..essay.realign import annotate_essays

    for ea in annotate_essays(annotator, items, options.realign, lev=options.lev,
                              merging=options.merging, merge_run_limit=options.merge_run_limit,
                              batch_size=max(1, min(options.batch_size, 64))):
        yield essay_formatted(ea, options.unit)


def essay_annotate(annotator: Annotator, options: JobOptions
                   ) -> Callable[[Iterable[Any]], Iterator[Formatted]]:
    """The ``annotate`` step of the essay job: items ``(orig, [cor or None, ...])`` -> their
    :class:`Formatted` blocks in order (``jobs > 1``: essays in forked workers)."""
    def annotate(items: Iterable[Any]) -> Iterator[Formatted]:
        if options.jobs <= 1:
            yield from _annotate(annotator, options, items)
            return
        from ..stream import worker_map

        def tasks() -> Iterator[tuple[int, list[Any]]]:
            chunk: list[Any] = []
            start = 0
            for item in items:
                chunk.append(item)
                if len(chunk) == WORKER_ESSAYS:
                    yield start, chunk
                    start += len(chunk)
                    chunk = []
            if chunk:
                yield start, chunk

        def work(start: int, chunk: list[Any]) -> list[Formatted]:
            return list(_annotate(annotator, options, chunk))

        def describe(task: tuple[Any, ...]) -> str:
            return f"essays {task[0] + 1}-{task[0] + len(task[1])}"

        for results in worker_map(annotator, work, tasks(), options.jobs, describe):
            yield from results
    return annotate


def essays_to_m2(annotator: Annotator, orig: PathLike, cors: Sequence[PathLike], out: PathLike,
                 options: JobOptions | None = None, *, progress: Progress = None,
                 **overrides: Any) -> Report:
    """Annotate MultiGEC Markdown essays (module docstring) and write M2 to ``out``: one block
    per essay in the orig file's order (``unit="sentence"``: one per unit), atomically or, with
    ``resume``, resumably (an essay is one item). ``realign=False`` aligns each essay as one
    sentence (quadratic in its length). Essays are tokenised by the parser whatever
    ``tokenize`` says. Errors name the orig file and the essay's header line.
    ``progress(n)``: ``n`` more essays read."""
    options = resolve(options, overrides)
    if options.unit not in UNITS:
        raise ValueError(f"unit must be one of {', '.join(UNITS)}, not {options.unit!r}")
    essays = read_parallel_essays(orig, cors, options.encoding_errors)
    lines = {e.id: e.line for e in read_multigec(orig, options.encoding_errors)}

    def read(skip: int) -> Iterator[tuple[int, tuple[str, list[str | None]]]]:
        for e in essays[skip:]:
            yield lines.get(e.id, 0), (e.orig, list(e.corrections))

    job = Job("essay", [orig, *cors], read, cor_paths=list(cors), path=orig,
              annotate=essay_annotate(annotator, options))
    return run_job(annotator, job, out, options, progress)
