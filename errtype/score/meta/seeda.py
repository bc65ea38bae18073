"""Meta-evaluation on SEEDA (Kobayashi, Mita and Komachi, TACL 2024).

SEEDA ranks the CoNLL-2014 test outputs of 15 systems (``SYSTEMS``, in its alphabetical order)
at two granularities: sentence-based (SEEDA-S) and edit-based (SEEDA-E). A checkout of its
repository holds the rankings (``data/judgments_{sent,edit}.xml``, Appraise XML), the human
system scores (``scores/human/{TS,EW}_{sent,edit}.txt``: TrueSkill and ExpectedWins, one value a
line in ``SYSTEMS`` order) and the outputs (``outputs/{all,subset}/SYSTEM.txt``; the
meta-evaluation uses ``subset``, the sentences that were judged).

The protocol, as SEEDA's scripts define it:

* **system sets** (:data:`SYSTEM_SETS`): ``base`` leaves out GPT-3.5, INPUT and REF-F;
  ``+INPUT`` adds INPUT; ``+fluent`` (SEEDA's ``+REF-F_GPT-3.5``) adds GPT-3.5 and REF-F;
  ``all`` is all 15;
* **system level**: Pearson and Spearman of the metric's system scores with the human ones;
  **window analysis**: the same within every window of ``w`` consecutive systems of the base
  set ordered by the human score, best first;
* **sentence level**: every ranking item gives a preference for each pair of systems of the set
  with different ranks (an item repeated by several annotators counts each time); the metric's
  sentence scores give one for the same pair; pairwise accuracy = agreeing / all and Kendall's
  tau = (agreeing - disagreeing) / all. A metric tie counts as a preference for the system
  later in ``SYSTEMS`` order (``ties="seeda"``, what SEEDA's script does) or as a disagreement
  (``ties="disagree"``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...textio import read_lines
from ..common import sentence_value
from .correlation import Ranking, pearson, read_judgments, spearman

__all__ = ["GRANULARITIES", "HUMAN", "SYSTEMS", "SYSTEM_SETS", "Seeda", "pairwise_analysis",
           "read_seeda", "sentence_agreement", "subset_ids", "system_correlations", "systems_of",
           "window_analysis"]

#: SEEDA's 15 systems, in the order of its score files
SYSTEMS = ("BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT", "LM-Critic",
           "PIE", "REF-F", "REF-M", "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS")
#: system set -> the systems it leaves out
SYSTEM_SETS = {"base": ("GPT-3.5", "INPUT", "REF-F"), "+INPUT": ("GPT-3.5", "REF-F"),
               "+fluent": ("INPUT",), "all": ()}
_ALIASES = {"+REF-F_GPT-3.5": "+fluent"}
GRANULARITIES = ("sent", "edit")
#: the human system scores: (rating, granularity)
HUMAN = tuple((rating, g) for rating in ("TS", "EW") for g in GRANULARITIES)


def systems_of(system_set: str) -> list[str]:
    """The systems of a set (``base``, ``+INPUT``, ``+fluent`` or ``+REF-F_GPT-3.5``, ``all``),
    in ``SYSTEMS`` order."""
    name = _ALIASES.get(system_set, system_set)
    if name not in SYSTEM_SETS:
        raise InputError(f"unknown SEEDA system set {system_set!r} (choose from "
                         f"{', '.join(SYSTEM_SETS)})")
    return [s for s in SYSTEMS if s not in SYSTEM_SETS[name]]


@dataclass
class Seeda:
    """What a SEEDA checkout holds (see the module docstring)."""

    root: Path
    human: dict[tuple[str, str], dict[str, float]]
    judgments: dict[str, list[Ranking]]
    outputs: dict[str, dict[str, list[str]]]

    def subset(self, system: str) -> list[str]:
        return self.outputs["subset"][system]


def _score_file(path: Path) -> dict[str, float]:
    values = [ln.text.strip() for ln in read_lines(path) if ln.text.strip()]
    if len(values) != len(SYSTEMS):
        raise InputError(f"{len(values)} scores, but SEEDA has {len(SYSTEMS)} systems",
                         path=str(path))
    try:
        return {s: float(v) for s, v in zip(SYSTEMS, values, strict=True)}
    except ValueError as exc:
        raise InputError(f"not a number: {exc}", path=str(path)) from None


def read_seeda(root: str | os.PathLike[str]) -> Seeda:
    """Read a SEEDA checkout (human scores, judgments, outputs); errors name the file."""
    base = Path(root)
    if not (base / "scores" / "human").is_dir():
        raise InputError("not a SEEDA checkout (no scores/human folder)", path=str(base))
    human = {(r, g): _score_file(base / "scores" / "human" / f"{r}_{g}.txt") for r, g in HUMAN}
    judgments = {g: read_judgments(base / "data" / f"judgments_{g}.xml") for g in GRANULARITIES}
    outputs: dict[str, dict[str, list[str]]] = {}
    for part in ("all", "subset"):
        outputs[part] = {s: [ln.text.rstrip("\n") for ln in
                             read_lines(base / "outputs" / part / f"{s}.txt")] for s in SYSTEMS}
        sizes = {len(v) for v in outputs[part].values()}
        if len(sizes) != 1:
            raise InputError(f"the {part} outputs differ in length ({sorted(sizes)} lines)",
                             path=str(base / "outputs" / part))
    return Seeda(base, human, judgments, outputs)


def subset_ids(subset_sources: Sequence[str], all_sources: Sequence[str]) -> list[int]:
    """0-based positions in the whole test set of the subset's sentences (matched in order)."""
    out, start = [], 0
    for s in subset_sources:
        try:
            start = all_sources.index(s, start)
        except ValueError:
            raise InputError(f"subset sentence {s[:60]!r} is not in the test set (after "
                             f"sentence {start + 1})") from None
        out.append(start)
        start += 1
    return out


def system_correlations(metric: Mapping[str, float], human: Mapping[str, float],
                        system_set: str = "base") -> dict[str, float]:
    """Pearson and Spearman of metric and human system scores over a SEEDA system set."""
    systems = systems_of(system_set)
    missing = [s for s in systems if s not in metric]
    if missing:
        raise InputError(f"no metric score for {', '.join(missing)}")
    x, y = [metric[s] for s in systems], [human[s] for s in systems]
    return {"pearson": pearson(x, y), "spearman": spearman(x, y), "n": len(systems)}


def window_analysis(metric: Mapping[str, float], human: Mapping[str, float], window: int,
                    system_set: str = "base") -> list[dict[str, Any]]:
    """Correlations within each window of ``window`` consecutive systems ordered by the human
    score, best first (ranks ``start`` to ``start + window - 1``, 1-based)."""
    systems = sorted(systems_of(system_set), key=lambda s: -human[s])
    if not 2 < window <= len(systems):
        raise InputError(f"the window must hold 3 to {len(systems)} systems, not {window}")
    out = []
    for i in range(len(systems) - window + 1):
        part = systems[i:i + window]
        x, y = [metric[s] for s in part], [human[s] for s in part]
        out.append({"from": i + 1, "to": i + window, "systems": part,
                    "pearson": pearson(x, y), "spearman": spearman(x, y)})
    return out


def _pair_judgments(rankings: Sequence[Ranking], scores: Mapping[str, Sequence[float]],
                    positions: Mapping[int, int], system_set: str, higher_is_better: bool,
                    ties: str) -> Any:
    """Every pair of differently ranked systems of a ranking item: (better rank, worse rank,
    metric agrees, or None for a tie counted as a disagreement, metric tie)."""
    if ties not in ("seeda", "disagree"):
        raise ValueError(f"ties must be 'seeda' or 'disagree', not {ties!r}")
    systems = systems_of(system_set)
    order = {s: i for i, s in enumerate(SYSTEMS)}
    for r in rankings:
        k = positions.get(r.src_id - 1)
        if k is None:
            raise InputError(f"ranking item {r.item_id}: sentence {r.src_id} is not among the "
                             f"scored sentences")
        ranked = sorted(((s, rank) for s, rank in r.ranks.items() if s in systems),
                        key=lambda item: order[item[0]])
        for (a, ra), (b, rb) in combinations(ranked, 2):
            if ra == rb:
                continue
            human_a = ra < rb  # a (earlier in SYSTEMS order after sorting) is better
            ma, mb = scores[a][k], scores[b][k]
            if ma == mb:
                if ties == "disagree":
                    yield min(ra, rb), max(ra, rb), False, True
                    continue
                metric_a = order[a] > order[b]  # SEEDA: a tie prefers the later system
                yield min(ra, rb), max(ra, rb), metric_a == human_a, True
            else:
                metric_a = (ma > mb) == higher_is_better
                yield min(ra, rb), max(ra, rb), metric_a == human_a, False


def sentence_agreement(rankings: Sequence[Ranking], scores: Mapping[str, Sequence[float]],
                       positions: Mapping[int, int], system_set: str = "base",
                       higher_is_better: bool = True, ties: str = "seeda") -> dict[str, Any]:
    """Pairwise accuracy and Kendall's tau of sentence scores (``scores[system][k]`` for the
    k-th judged sentence) against SEEDA's rankings; ``positions`` maps a ranking item's
    0-based test-set sentence (its ``src-id`` - 1) to ``k``. See the module docstring."""
    agree = disagree = metric_ties = 0
    for _, _, ok, tie in _pair_judgments(rankings, scores, positions, system_set,
                                         higher_is_better, ties):
        metric_ties += tie
        if ok:
            agree += 1
        else:
            disagree += 1
    n = agree + disagree
    return {"accuracy": agree / n if n else math.nan,
            "kendall": (agree - disagree) / n if n else math.nan,
            "pairs": n, "agree": agree, "disagree": disagree, "metric_ties": metric_ties,
            "ties": ties, "systems": systems_of(system_set)}


def pairwise_analysis(rankings: Sequence[Ranking], scores: Mapping[str, Sequence[float]],
                      positions: Mapping[int, int], system_set: str = "base",
                      higher_is_better: bool = True, ties: str = "seeda"
                      ) -> dict[tuple[int, int], dict[str, float]]:
    """The sentence-level agreement split by the two human ranks of each pair (gec-metrics'
    pairwise analysis): ``{(better rank, worse rank): {"agree", "pairs", "accuracy"}}``."""
    out: dict[tuple[int, int], dict[str, float]] = {}
    for ra, rb, ok, _ in _pair_judgments(rankings, scores, positions, system_set,
                                         higher_is_better, ties):
        cell = out.setdefault((ra, rb), {"agree": 0, "pairs": 0, "accuracy": 0.0})
        cell["agree"] += ok
        cell["pairs"] += 1
        cell["accuracy"] = cell["agree"] / cell["pairs"]
    return dict(sorted(out.items()))


@dataclass
class MetricScores:
    """One metric's system scores and sentence scores (``sentences[system][k]``, k-th judged
    sentence) on SEEDA's subset."""

    name: str
    signature: str
    system: dict[str, float]
    sentences: dict[str, list[float]]


def score_subset(seeda: Seeda, gold: str | os.PathLike[str], metrics: Sequence[tuple[str, Any]],
                 lang: str = "en", annotator: Any = None) -> list[MetricScores]:
    """Run registry metrics (``(label, metric)`` pairs) on SEEDA's subset with the gold M2 of the
    whole test set (CoNLL-2014's ``official-2014.combined.m2``), cut to the judged sentences;
    every system's output is edit-extracted once for all edit-based metrics."""
    import tempfile

    from ...m2 import read_m2, write_m2
    from ..suite import load_suite, score_systems

    blocks = list(read_m2(gold))
    sources = [b.source for b in blocks]
    ids = subset_ids([" ".join(s.split()) for s in seeda.subset("INPUT")], sources)
    with tempfile.TemporaryDirectory(prefix="errtype-seeda-") as tmp:
        cut = Path(tmp) / "gold.subset.m2"
        write_m2([blocks[i] for i in ids], cut)
        systems = [(s, seeda.root / "outputs" / "subset" / f"{s}.txt") for s in SYSTEMS]
        suite = load_suite(systems, [cut], lang=lang,
                           annotator=(lambda: annotator) if annotator is not None else None)
        rows = score_systems(metrics, suite)
    out: dict[str, MetricScores] = {}
    for r in rows:
        m = out.setdefault(r.metric, MetricScores(r.metric, r.result.signature, {}, {}))
        m.system[r.system] = r.value
        m.sentences[r.system] = [sentence_value(e) for e in r.result.sentences]
    return list(out.values())


def positions(seeda: Seeda, all_sources: Sequence[str] | None = None) -> dict[int, int]:
    """0-based test-set sentence -> position in the subset (for :func:`sentence_agreement`)."""
    whole = all_sources if all_sources is not None else [
        " ".join(s.split()) for s in seeda.outputs["all"]["INPUT"]]
    ids = subset_ids([" ".join(s.split()) for s in seeda.subset("INPUT")], whole)
    return {i: k for k, i in enumerate(ids)}


def system_scores(metric: MetricScores, system_set: str = "base",
                  aggregation: str = "default") -> dict[str, float]:
    """A metric's scores of the systems of a set: its corpus scores (``default``), or the
    systems of the set, in ``SYSTEMS`` order, ranked by ``trueskill`` or ``expected_wins`` over
    its sentence scores (:func:`errtype.score.meta.aggregation.aggregate`; gec-metrics'
    ``corr_system(metric, aggregation)``)."""
    systems = systems_of(system_set)
    if aggregation == "default":
        return {s: metric.system[s] for s in systems if s in metric.system}
    from .aggregation import aggregate

    missing = [s for s in systems if not metric.sentences.get(s)]
    if missing:
        raise InputError(f"{metric.name}: no sentence scores for {', '.join(missing)}, so no "
                         f"{aggregation} aggregation")
    return aggregate({s: metric.sentences[s] for s in systems}, aggregation)


def meta_evaluate(seeda: Seeda, scores: Sequence[MetricScores],
                  sets: Sequence[str] = ("base", "+INPUT", "+fluent", "all"),
                  window: int | None = None, ties: str = "seeda",
                  aggregation: str = "default") -> dict[str, Any]:
    """Every metric against every human score and system set: system-level Pearson/Spearman
    (of the metric's system scores by ``aggregation``, see :func:`system_scores`),
    sentence-level accuracy/Kendall (SEEDA-S and SEEDA-E judgments), and, with ``window``, the
    window analysis of the base set against each human score. ``scores`` of the result holds
    the system scores correlated, per set; ``pairwise`` the sentence-level agreement of the
    first set per pair of human ranks (``"1-3"``: rank 1 against rank 3)."""
    pos = positions(seeda)
    out: dict[str, Any] = {}
    for m in scores:
        by_set = {s: system_scores(m, s, aggregation) for s in dict.fromkeys([*sets, "base"])}
        res: dict[str, Any] = {"signature": m.signature, "aggregation": aggregation,
                               "system": {}, "sentence": {}, "window": {}, "pairwise": {},
                               "scores": {s: by_set[s] for s in sets}}
        for rating, g in HUMAN:
            human = seeda.human[(rating, g)]
            res["system"][f"{rating}_{g}"] = {s: system_correlations(by_set[s], human, s)
                                              for s in sets}
            if window:
                res["window"][f"{rating}_{g}"] = window_analysis(by_set["base"], human, window)
        for g in GRANULARITIES:
            res["sentence"][g] = {s: sentence_agreement(seeda.judgments[g], m.sentences, pos, s,
                                                        ties=ties) for s in sets}
            cells = pairwise_analysis(seeda.judgments[g], m.sentences, pos,
                                      sets[0] if sets else "base", ties=ties)
            res["pairwise"][g] = {f"{a}-{b}": c for (a, b), c in cells.items()}
        out[m.name] = res
    return out
