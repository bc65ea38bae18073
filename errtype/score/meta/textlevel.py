"""Human ratings of corrected texts in the JSON of the gec-evaluation annotation tool.

The tool of Östling et al. (2024, *Evaluation of really good grammatical error correction*;
github.com/robertostling/gec-evaluation, and its text-level fork
github.com/harisont/text-level-gec-evaluation) writes one JSON file per rater::

    {"data": [{"original": ..., "reference": ...,
               "systems": {NAME: {"output": ...,
                                  "annotators": {RATER: {"Grammaticality": 4, "Fluency": 3,
                                                         "Meaning Preservation": 4,
                                                         "corrected": ...}}}}}], ...}

An item is a sentence (the paper's Swedish sets) or a whole text (the fork's MultiGEC essays,
where ``\u2424`` marks a line break). Ratings are 1-4 (4 best); 0 is the tool's "Other" and is
left out of every mean, as the paper's analysis script does. A rater's ``corrected`` text gives
the paper's fourth human measure, NLD: the character Levenshtein distance between the output
and the rater's correction over the longer of the two (lower is better).

A folder holds the files of several raters of the same items (merged item by item; the items
must match); several folders or files are concatenated. Metrics score each item as one line
(a text's line breaks become spaces): corpus metrics then see a text as one segment.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz.distance import Levenshtein

from ...errors import InputError
from ..common import sentence_value
from .correlation import pearson, spearman

__all__ = ["ASPECTS", "ENGLISH_MODELS", "HUMAN", "Item", "JudgmentSet", "MetricScores",
           "as_line", "correlate", "human_table", "rated_items_or_error", "read_judgment_set",
           "read_rater_file", "score_metrics"]

#: the rated aspects, as the tool names them
ASPECTS = ("Grammaticality", "Fluency", "Meaning Preservation")
#: every human measure: the aspects (higher is better) and NLD (lower is better)
HUMAN = (*ASPECTS, "NLD")
#: the tool's "Other" rating, left out of every mean
OTHER = 0
#: metrics whose default model is English-only: they run on another language, but their
#: scores say little about it (the reason is printed with their correlations)
ENGLISH_MODELS = {
    "scribendi": "its default LM is pocketsphinx's English trigram model (en-us.lm.bin)",
    "impara": "its default models are English (gotutiyan/IMPARA-QE, bert-base-cased)",
    "some": "its default models are trained on English ratings (TMU-GFM)",
    "bertscore": "its default encoder is English (bert-base-uncased)",
}
LINE_BREAK = "\u2424"  # ␤, how the text-level fork writes a text's line breaks


@dataclass
class Item:
    """One rated item: the original, the reference, each system's output and its ratings
    (``ratings[system][rater]`` = the rater's record, aspects and ``corrected``)."""

    original: str
    reference: str
    outputs: dict[str, str]
    ratings: dict[str, dict[str, dict[str, Any]]]
    where: str = ""


def _nld(a: str, b: str) -> float:
    longest = max(len(a), len(b))
    return Levenshtein.distance(a, b) / longest if longest else 0.0


@dataclass
class JudgmentSet:
    """The items of one or more rater files (see the module docstring)."""

    items: list[Item]
    files: list[str] = field(default_factory=list)

    def systems(self) -> list[str]:
        """The systems with an output in every item (first item's order)."""
        if not self.items:
            return []
        return [s for s in self.items[0].outputs if all(s in it.outputs for it in self.items)]

    def raters(self) -> list[str]:
        return sorted({r for it in self.items for by in it.ratings.values() for r in by})

    def value(self, item: Item, system: str, measure: str,
              raters: Sequence[str] | None = None) -> float:
        """The mean over ``raters`` (default all) of ``measure`` for one output; NaN when none
        rated it (an "Other" rating counts as none)."""
        vals = []
        for rater, rec in item.ratings.get(system, {}).items():
            if raters is not None and rater not in raters:
                continue
            if measure == "NLD":
                if isinstance(rec.get("corrected"), str):
                    vals.append(_nld(item.outputs[system], rec["corrected"]))
            elif isinstance(rec.get(measure), (int, float)) and rec[measure] != OTHER:
                vals.append(float(rec[measure]))
        return sum(vals) / len(vals) if vals else math.nan

    def rated_items(self, raters: Sequence[str] | None = None) -> list[int]:
        """Positions of the items in which every system has a rating by ``raters``."""
        systems = self.systems()
        return [k for k, it in enumerate(self.items)
                if systems and all(any(raters is None or r in raters
                                       for r in it.ratings.get(s, {})) for s in systems)]

    def human_scores(self, measure: str, raters: Sequence[str] | None = None,
                     items: Sequence[int] | None = None) -> dict[str, float]:
        """Each system's mean of ``measure`` over every rating of the items (default: the
        rated items), "Other" left out, as the paper's Table 4."""
        ks = self.rated_items(raters) if items is None else items
        out = {}
        for s in self.systems():
            vals = []
            for k in ks:
                for rater in self.items[k].ratings.get(s, {}):
                    if raters is None or rater in raters:
                        v = self.value(self.items[k], s, measure, [rater])
                        if not math.isnan(v):
                            vals.append(v)
            out[s] = sum(vals) / len(vals) if vals else math.nan
        return out


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", path=str(path)) from None


def read_rater_file(path: str | os.PathLike[str]) -> list[Item]:
    """The items of one rater file; errors name the file and the item."""
    p = Path(path)
    data = _read_json(p)
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise InputError("not a gec-evaluation annotation file (no \"data\" list)", path=str(p))
    out = []
    for k, raw in enumerate(items, 1):
        where = f"{p}, item {k}"
        if not isinstance(raw, dict) or not all(isinstance(raw.get(f), str)
                                                for f in ("original", "reference")):
            raise InputError(f"item {k}: needs \"original\" and \"reference\" texts", path=str(p))
        systems = raw.get("systems")
        if not isinstance(systems, dict) or not systems:
            raise InputError(f"item {k}: no \"systems\"", path=str(p))
        outputs, ratings = {}, {}
        for name, rec in systems.items():
            if not isinstance(rec, dict) or not isinstance(rec.get("output"), str):
                raise InputError(f"item {k}: system {name!r} has no \"output\" text", path=str(p))
            outputs[name] = rec["output"]
            ann = rec.get("annotators") or {}
            if not isinstance(ann, dict):
                raise InputError(f"item {k}: system {name!r}: \"annotators\" is not an object",
                                 path=str(p))
            for rater, r in ann.items():
                bad = [a for a in ASPECTS if isinstance(r, dict) and a in r and not (
                    isinstance(r[a], int) and not isinstance(r[a], bool) and 0 <= r[a] <= 4)]
                if not isinstance(r, dict) or bad:
                    raise InputError(f"item {k}: system {name!r}, rater {rater!r}: ratings must "
                                     f"be integers 0-4 ({', '.join(bad) or 'not an object'})",
                                     path=str(p))
            ratings[name] = {r: dict(v) for r, v in ann.items()}
        out.append(Item(raw["original"], raw["reference"], outputs, ratings, where))
    return out


def _merge(base: list[Item], other: list[Item], path: Path) -> None:
    if len(base) != len(other):
        raise InputError(f"{len(other)} items, but the other rater files of its folder have "
                         f"{len(base)}", path=str(path))
    for k, (a, b) in enumerate(zip(base, other, strict=True), 1):
        if (a.original, a.reference) != (b.original, b.reference) or a.outputs != b.outputs:
            raise InputError(f"item {k} differs from {a.where} (rater files of one folder must "
                             f"hold the same items)", path=str(path))
        for s, by in b.ratings.items():
            for rater, rec in by.items():
                if rater in a.ratings.setdefault(s, {}):
                    raise InputError(f"item {k}: rater {rater!r} of system {s!r} is also in "
                                     f"{a.where}", path=str(path))
                a.ratings[s][rater] = rec


def read_judgment_set(paths: Sequence[str | os.PathLike[str]]) -> JudgmentSet:
    """Rater files (a path is a JSON file, or a folder of the JSON files of several raters of
    the same items), concatenated in the order given."""
    items: list[Item] = []
    files: list[str] = []
    for path in paths:
        p = Path(path)
        group = sorted(p.glob("*.json")) if p.is_dir() else [p]
        if not group:
            raise InputError("no *.json rater file in the folder", path=str(p))
        merged = read_rater_file(group[0])
        for f in group[1:]:
            _merge(merged, read_rater_file(f), f)
        items += merged
        files += [str(f) for f in group]
    js = JudgmentSet(items, files)
    if items and not js.systems():
        raise InputError("no system has an output in every item", path=str(paths[0]))
    return js


def as_line(text: str) -> str:
    """An item as one line: line breaks (and the fork's ␤) become spaces, runs of whitespace
    one space."""
    return " ".join(text.replace(LINE_BREAK, " ").split())


@dataclass
class MetricScores:
    """One metric's system scores and item scores (``items[system][j]``, j-th scored item)."""

    name: str
    signature: str
    system: dict[str, float]
    items: dict[str, list[float]]


def score_metrics(js: JudgmentSet, metrics: Sequence[tuple[str, Any]], items: Sequence[int],
                  lang: str = "sv", annotator: Callable[[], Any] | None = None
                  ) -> tuple[list[MetricScores], dict[str, str]]:
    """Run registry metrics (``(label, metric)`` pairs) on the items at positions ``items``:
    each system's outputs against the one reference, each item as one line (:func:`as_line`).
    ``annotator`` makes the annotator of metrics that need edits (default ``errtype.load``).
    A metric that cannot run (no model for the language, a missing package or API key) is
    returned in the second value with the reason instead of stopping the others."""
    from ...errors import ErrtypeError
    from ..suite import check_ready, load_suite, score_systems

    if not items:
        raise InputError("no item to score (none rated for every system)")
    systems = js.systems()
    out: dict[str, MetricScores] = {}
    failed: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="errtype-textlevel-") as tmp:
        def write(name: str, texts: list[str]) -> str:
            path = Path(tmp) / name
            path.write_text("".join(as_line(t) + "\n" for t in texts), encoding="utf-8")
            return str(path)

        picked = [js.items[k] for k in items]
        src = write("source.txt", [it.original for it in picked])
        ref = write("reference.txt", [it.reference for it in picked])
        hyps = [(s, write(f"system{i}.txt", [it.outputs[s] for it in picked]))
                for i, s in enumerate(systems)]
        suite = load_suite(hyps, [ref], src, lang=lang, annotator=annotator)
        for label, metric in metrics:
            try:
                check_ready([(label, metric)])
                rows = score_systems([(label, metric)], suite)
            except (ErrtypeError, ImportError, OSError) as exc:
                failed[label] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                continue
            for r in rows:
                m = out.setdefault(r.metric, MetricScores(r.metric, r.result.signature, {}, {}))
                m.system[r.system] = r.value
                m.items[r.system] = [sentence_value(e) for e in r.result.sentences]
    return list(out.values()), failed


def _pairs(x: Sequence[float], y: Sequence[float]) -> tuple[list[float], list[float]]:
    keep = [(a, b) for a, b in zip(x, y, strict=True)
            if not (math.isnan(a) or math.isnan(b))]
    return [a for a, _ in keep], [b for _, b in keep]


def correlate(js: JudgmentSet, scores: Sequence[MetricScores], items: Sequence[int],
              raters: Sequence[str] | None = None, measures: Sequence[str] = HUMAN
              ) -> list[dict[str, Any]]:
    """Every metric against every human measure: system level (Pearson/Spearman of the
    metric's corpus scores and the systems' mean ratings over ``items``) and item level (of
    the metric's item scores and the mean rating of each rated output, pooled over systems).
    NaN where fewer than 2 points or a side is constant; ``n`` gives the points."""
    systems = js.systems()
    rows = []
    for measure in measures:
        human = js.human_scores(measure, raters, items)
        seg = {s: [js.value(js.items[k], s, measure, raters) for k in items] for s in systems}
        for m in scores:
            sx, sy = _pairs([m.system[s] for s in systems], [human[s] for s in systems])
            ix, iy = _pairs([v for s in systems for v in m.items[s]],
                            [v for s in systems for v in seg[s]])
            rows.append({"metric": m.name, "human": measure,
                         "system_pearson": pearson(sx, sy), "system_spearman": spearman(sx, sy),
                         "systems": len(sx),
                         "item_pearson": pearson(ix, iy), "item_spearman": spearman(ix, iy),
                         "items": len(ix), "signature": m.signature})
    return rows


def rated_items_or_error(js: JudgmentSet, raters: Sequence[str] | None = None) -> list[int]:
    """:meth:`JudgmentSet.rated_items`, or an InputError saying how little is rated."""
    items = js.rated_items(raters)
    if not items:
        rated = sum(1 for it in js.items for by in it.ratings.values() if by)
        raise InputError(f"no item is rated for every system ({rated} rated outputs in "
                         f"{len(js.items)} items)", path=js.files[0] if js.files else None)
    return items


def human_table(js: JudgmentSet, items: Sequence[int], raters: Sequence[str] | None = None
                ) -> dict[str, Mapping[str, float]]:
    """``{measure: {system: mean}}`` over ``items`` (the paper's Table 4 layout)."""
    return {h: js.human_scores(h, raters, items) for h in HUMAN}
