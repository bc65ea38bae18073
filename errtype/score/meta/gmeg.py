"""GMEG-Data (github.com/grammarly/GMEG, Napoles et al. 2019): reader and meta-evaluation.

Layout of its ``data/`` folder: ``SPLIT/DOMAIN/{source, ref0..ref3, amu, lstm, ...}`` (one
tokenised sentence a line) and ``SPLIT/DOMAIN-segment-scores.csv`` (the mean human score of each
sentence of each system; an unjudged sentence is blank), ``SPLIT/DOMAIN-corpus-scores.csv`` (the
mean per system). The Yahoo texts are not in the repository's latest tree (only its scores): they
are in its commit 7d994c3 (``git checkout 7d994c3 -- data``), or come from Grammarly on request.

As in the paper, the six GEC systems and their hybrids are the points; Reference, Source and
Source+error are left out. References are the four reference texts, from which errtype extracts
the gold edits for the edit-based metrics (:func:`errtype.score.suite.load_suite`).
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import InputError
from .hybrid import Hybrid, human_score, super_sample
from .protocol import beta_sweep, correlate, f_measure, metric_view, points_scores
from .williams import williams_matrix

__all__ = ["DOMAINS", "EXCLUDED", "TABLE8", "GmegDomain", "Prepared", "evaluate_domain", "prepare",
           "read_gmeg"]

DOMAINS = ("fce", "wiki", "yahoo")
#: the upper and lower bounds the paper leaves out of every correlation
EXCLUDED = ("ref", "source", "source+error")
#: Napoles, Nădejde & Tetreault (2019), "Enabling Robust Grammatical Error Correction in New
#: Domains", TACL 7:551-566, Table 8 (test split; Pearson r, Spearman ρ), as printed in
#: tacl2019-enabling.pdf of github.com/grammarly/GMEG.
TABLE8: dict[str, dict[str, tuple[float, float]]] = {
    "CHRF++": {"fce": (0.639, 0.733), "wiki": (0.972, 0.943), "yahoo": (0.791, 0.687)},
    "ERRANT0.2": {"fce": (0.828, 0.779), "wiki": (0.453, 0.596), "yahoo": (0.596, 0.643)},
    "ERRANT0.5": {"fce": (0.919, 0.887), "wiki": (0.401, 0.555), "yahoo": (0.532, 0.601)},
    "GLEU": {"fce": (0.838, 0.813), "wiki": (0.426, 0.538), "yahoo": (0.740, 0.775)},
    "charGLEU": {"fce": (0.959, 0.932), "wiki": (0.644, 0.732), "yahoo": (0.846, 0.835)},
    "I-measure": {"fce": (0.819, 0.839), "wiki": (0.854, 0.875), "yahoo": (0.915, 0.900)},
    "M20.2": {"fce": (0.852, 0.846), "wiki": (0.548, 0.680), "yahoo": (0.717, 0.836)},
    "M20.5": {"fce": (0.860, 0.849), "wiki": (0.346, 0.552), "yahoo": (0.580, 0.699)},
}
YAHOO_NOTE = ("the Yahoo texts are not in GMEG's latest tree: check out its commit 7d994c3 "
              "(git -C GMEG checkout 7d994c3 -- data)")


@dataclass
class GmegDomain:
    """One split and domain: the texts' paths, the human scores per sentence (None: unjudged)
    and per system (the mean of its sentences', as for a hybrid; a differing
    ``DOMAIN-corpus-scores.csv`` value is noted), and the GEC systems (the points)."""

    domain: str
    split: str
    folder: Path
    source: Path
    references: list[Path]
    systems: dict[str, Path]
    segment: dict[str, list[float | None]]
    human: dict[str, float]
    notes: list[str] = field(default_factory=list)

    @property
    def n_sentences(self) -> int:
        return len(next(iter(self.segment.values())))


def _read_csv(path: Path) -> list[list[str]]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return list(csv.reader(fh))
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=str(path)) from None


def _number(cell: str, path: Path, line: int) -> float | None:
    if not cell.strip():
        return None
    try:
        v = float(cell)
    except ValueError:
        raise InputError(f"not a number: {cell!r}", path=str(path), line=line) from None
    if math.isnan(v):
        return None
    return v


def read_gmeg(data: str | os.PathLike[str], split: str = "test", domain: str = "fce"
              ) -> GmegDomain:
    """Read one split and domain of GMEG-Data's ``data/`` folder (checked: every text has as many
    lines as the segment scores have rows)."""
    root = Path(data)
    if (root / "data").is_dir() and not (root / split).is_dir():
        root = root / "data"
    if domain not in DOMAINS:
        raise InputError(f"unknown GMEG domain {domain!r} (choose from {', '.join(DOMAINS)})")
    base = root / split
    if not base.is_dir():
        raise InputError(f"no {split}/ folder: give GMEG's data/ folder (git clone "
                         f"https://github.com/grammarly/GMEG)", path=str(root))
    seg_path = base / f"{domain}-segment-scores.csv"
    rows = _read_csv(seg_path)
    if not rows:
        raise InputError("empty", path=str(seg_path))
    head = [h.strip() for h in rows[0]]
    segment: dict[str, list[float | None]] = {h: [] for h in head}
    for n, row in enumerate(rows[1:], 2):
        if len(row) != len(head):
            raise InputError(f"{len(row)} cells, the header has {len(head)}", path=str(seg_path),
                             line=n)
        for h, cell in zip(head, row, strict=True):
            segment[h].append(_number(cell, seg_path, n))
    cor_path = base / f"{domain}-corpus-scores.csv"
    human: dict[str, float] = {}
    for n, row in enumerate(_read_csv(cor_path)[1:], 2):
        if len(row) != 2:
            raise InputError("expected system,score", path=str(cor_path), line=n)
        v = _number(row[1], cor_path, n)
        if v is None:
            raise InputError("no score", path=str(cor_path), line=n)
        human[row[0].strip()] = v
    folder = base / domain
    if not folder.is_dir():
        hint = f"; {YAHOO_NOTE}" if domain == "yahoo" else ""
        raise InputError(f"no texts for {domain} (only its scores){hint}", path=str(folder))
    source = folder / "source"
    refs = sorted(folder.glob("ref[0-9]*"))
    systems = {s: folder / s for s in head if s not in EXCLUDED}
    n_rows = len(rows) - 1
    for p in [source, *refs, *systems.values()]:
        if not p.is_file():
            raise InputError(f"missing {p.name} of {domain}", path=str(folder))
        with open(p, encoding="utf-8") as fh:
            lines = sum(1 for _ in fh)
        if lines != n_rows:
            raise InputError(f"{lines} lines, but {seg_path.name} has {n_rows} sentences",
                             path=str(p))
    if not refs:
        raise InputError(f"no reference (ref0, ref1, ...) for {domain}", path=str(folder))
    notes = []
    for s in systems:
        mean = human_score(segment[s])
        if s in human and abs(mean - human[s]) > 1e-6:
            notes.append(f"{s}: corpus score {human[s]:.3f}, mean of its sentences {mean:.3f}")
    return GmegDomain(domain, split, folder, source, refs, systems, segment,
                      {s: human_score(segment[s]) for s in systems}, notes)


def points_human(gm: GmegDomain, hybrids: Sequence[Hybrid]) -> list[float]:
    """The human score of every point: the real systems' corpus scores, then each hybrid's mean
    over its sentences."""
    return [gm.human[s] for s in gm.systems] + [human_score(h.pick(gm.segment)) for h in hybrids]


@dataclass
class Prepared:
    """A domain's systems read and edit-extracted once (the suite), and each metric's view of
    them, so that several seeds or β values cost no new extraction."""

    gm: GmegDomain
    suite: Any
    metrics: list[tuple[str, Any, str]]
    views: dict[str, Any]
    system: str = "corpus"


def prepare(gm: GmegDomain, metrics: Sequence[tuple[str, Any]], average: str = "categories",
            annotator: Any = None, suite: Any = None, system: str = "corpus") -> Prepared:
    """Read the texts (references as text: errtype extracts the gold edits), score every
    (label, configured metric) on the real systems and keep its view. ``average``: how an
    ERRANT-typed metric (errant) is averaged, ``categories`` (the mean F over its error
    categories, as Napoles et al. define their ERRANT) or ``micro`` (errant's own corpus F);
    the other metrics are what they are. ``suite``: one this domain was read into before (by
    another :func:`prepare`), reused with its extracted edits. ``system``: a point's metric
    score, the metric's ``corpus`` score of its sentences (default, the paper's reading) or the
    ``mean`` of its sentence scores (every metric micro: a category average has no sentence
    score)."""
    from ..suite import load_suite

    suite = suite or load_suite(list(gm.systems.items()), gm.references, gm.source,
                       annotator=(lambda: annotator) if annotator is not None else None)
    rows = []
    views = {}
    for label, metric in metrics:
        avg = average if _typed(metric) and system == "corpus" else "micro"
        rows.append((label, metric, avg))
        views[label] = metric_view(metric, suite.inputs(metric), avg, system)
    return Prepared(gm, suite, rows, views, system)


def evaluate_domain(prep: Prepared, *, synthetic: int = 674, samples: int = 100, seed: int = 0,
                    sweep: bool = True) -> dict[str, Any]:
    """The protocol on one prepared domain: per metric r and ρ over the six systems and
    ``synthetic`` hybrids (674 per domain in the paper; drawn with ``seed``) with their
    bootstrap (``samples`` resamples, same seed), the Williams p-value matrix and, for
    F-measures with ``sweep``, the β sweep (the metric rebuilt at each β)."""
    from ..registry import get_metric

    gm = prep.gm
    systems = list(gm.systems)
    hybrids = super_sample(systems, gm.n_sentences, synthetic, seed)
    human = points_human(gm, hybrids)
    out: dict[str, Any] = {"domain": gm.domain, "split": gm.split, "systems": systems,
                           "synthetic": len(hybrids), "seed": seed, "points": len(human),
                           "sentences": gm.n_sentences, "metrics": {}, "notes": list(gm.notes)}
    values: dict[str, list[float]] = {}
    swept: set[str] = set()
    for label, metric, avg in prep.metrics:
        view = prep.views[label]
        vals = points_scores(view, systems, hybrids)
        values[label] = vals
        res = correlate(vals, human, samples, seed)
        res.update(kind=view.kind, signature=_signature(metric, avg, prep.system),
                   system_scores={s: vals[k] for k, s in enumerate(systems)})
        family = repr(({k: v for k, v in _init_settings(metric).items() if k != "beta"},
                       metric.name if f_measure(metric) else label, avg))
        if sweep and f_measure(metric) and family not in swept:
            swept.add(family)
            def view_at(b: float, metric: Any = metric, avg: str = avg) -> Any:
                m = get_metric(metric.name, **{**_init_settings(metric), "beta": b})
                return metric_view(m, prep.suite.inputs(m), avg, prep.system)

            res["beta_sweep"] = beta_sweep(view_at, systems, hybrids, human)
        out["metrics"][label] = res
    out["williams"] = williams_matrix(values, human) if len(values) > 1 else {}
    return out


def _typed(metric: Any) -> bool:
    return getattr(metric, "name", "") in ("errant", "pt-errant")


def _init_settings(metric: Any) -> dict[str, Any]:
    """A metric dataclass's option values (to rebuild it with another β)."""
    import dataclasses

    if dataclasses.is_dataclass(metric):
        return {f.name: getattr(metric, f.name) for f in dataclasses.fields(metric)
                if f.init and not f.name.startswith("_") and f.name != "name"}
    return {}


def _signature(metric: Any, average: str, system: str = "corpus") -> str:
    from ..registry import metric_signature

    sig = metric_signature(metric)
    if average == "categories":
        sig += "|average:categories"
    return f"{sig}|system:mean-of-sentences" if system == "mean" else sig
