"""Swedish meta-evaluation: every registry metric against the human ratings of gec-evaluation.

Data (never copied into errtype): a clone of harisont/text-level-gec-evaluation, named by
``$ERRTYPE_TEXTLEVEL_EVAL`` or ``--data``::

    git clone https://github.com/harisont/text-level-gec-evaluation

It is a fork of robertostling/gec-evaluation (GPL-3.0 licence file; the Swedish learner texts in
it come from SweLL-gold, which Språkbanken distributes only on application, under CLARIN
ID/PRIV/NORED/BY terms). Two rating sets are in it:

1. **Text level** (``annotations/sv-test.json`` at the fork's head): 50 SweLL-gold essays of
   the MultiGEC-2025 Swedish test split, corrected by one system (UAM-CSI), with the SweLL
   reference. Its ratings are a pilot: one essay rated, by one rater. It is read and scored
   (each essay as one line), but with one system and one rated text no correlation exists.
2. **Sentence level** (the paper set: Östling, Gillholm, Kurfalı, Mattson, Wirén 2024,
   *Evaluation of really good grammatical error correction*): 192 SweLL-gold sentences
   (Nyberg's CEFR-balanced test split, 64 each of A, B, C), five corrections each (Granska, an
   MT system, GPT-3, two human rewrites), rated 1-4 for grammaticality, fluency and meaning
   preservation by a native speaker (Katarina; Robert rated 55 outputs of level A). The fork
   removed these files in commit df7a069; they are read from the commit before it (or from a
   clone of robertostling/gec-evaluation, where they are in the work tree). The paper's
   Table 4 (system means) is recomputed from them and compared.

Metrics: all of the registry (``errtype score --list``). Reference-based metrics score against
the SweLL minimal correction. Metrics that extract edits need a Swedish parser
(``--udpipe-model``; ``errtype download sv`` fetches UDPipe's Talbanken model, or train one from
UD_Swedish-Talbanken with bench/train_standin.py); the LM metrics need ``errtype[lm]`` and
their default models are English; the LLM judges need an API. A metric that cannot run is
printed with the reason.

    python bench/bench_swedish_meta.py [--data CLONE] [--udpipe-model sv.udpipe]
                                       [--metrics all] [--rater katarina] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from peer_repos import PEERS, bench_checkout  # noqa: E402

from errtype.errors import ErrtypeError  # noqa: E402
from errtype.score.meta import textlevel as tl  # noqa: E402
from errtype.score.registry import available_metrics, get_metric  # noqa: E402

ENV = "ERRTYPE_TEXTLEVEL_EVAL"
CLONE = "git clone https://github.com/harisont/text-level-gec-evaluation"
#: the last commit of the fork that still holds the paper's rating files
PAPER_COMMIT = "3d7108bab98d555b7be00df42302168faea4069e"
PAPER_SETS = ("balanced_A", "balanced_B", "balanced_C")
TEXT_SET = "annotations/sv-test.json"
#: Östling et al. (2024), Table 4 (also in evaluation/correlation_analysis.py of the repo):
#: system means over all levels, Katarina's ratings; tool system names mapped as its
#: annotator/analyze_annotations.py maps them (s2 = GPT-3, mm = human fluent, mw = human free)
PAPER_TABLE4 = {
    "Grammaticality": {"granska": 3.0, "mt": 3.3, "s2": 3.7, "mm": 3.9, "mw": 3.9},
    "Fluency": {"granska": 2.8, "mt": 3.1, "s2": 3.6, "mm": 3.8, "mw": 3.8},
    "Meaning Preservation": {"granska": 3.5, "mt": 3.4, "s2": 3.4, "mm": 3.9, "mw": 3.8},
    "NLD": {"granska": 0.126, "mt": 0.113, "s2": 0.076, "mm": 0.034, "mw": 0.029},
}
SOURCE = ("harisont/text-level-gec-evaluation (fork of robertostling/gec-evaluation; repository "
          "licence GPL-3.0); texts from SweLL-gold (Språkbanken Text; access on application, "
          "CLARIN ID/PRIV/NORED/BY)")


def paper_folders(root: Path, tmp: Path) -> list[Path]:
    """The paper's rating folders: in the work tree, or written from the fork's history."""
    here = [root / "annotations" / s for s in PAPER_SETS]
    if all(p.is_dir() for p in here):
        return here
    out = []
    for s in PAPER_SETS:
        folder = tmp / s
        folder.mkdir()
        for rater in ("katarina", "robert"):
            blob = subprocess.run(["git", "-C", str(root), "show",
                                   f"{PAPER_COMMIT}:annotations/{s}/{rater}.json"],
                                  capture_output=True, check=False)
            if blob.returncode:
                raise SystemExit(f"{root}: no commit {PAPER_COMMIT[:7]} with the paper's ratings "
                                 f"(a full clone is needed: {CLONE})")
            (folder / f"{rater}.json").write_bytes(blob.stdout)
        out.append(folder)
    return out


def fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.3f}"


def run_set(label: str, js: tl.JudgmentSet, names: list[str], raters: list[str] | None,
            annotator: object, out: dict) -> None:
    print(f"\n## {label}")
    print(f"{len(js.items)} items, systems: {', '.join(js.systems())}; raters: "
          f"{', '.join(js.raters()) or 'none'}")
    items = js.rated_items(raters)
    rated = sum(1 for it in js.items for by in it.ratings.values() if by)
    print(f"{rated} rated outputs; {len(items)} items rated for every system"
          + (f" by {', '.join(raters)}" if raters else ""))
    metrics, failed = [], {}
    for n in names:
        try:
            metrics.append((n, get_metric(n)))
        except ErrtypeError as exc:
            failed[n] = str(exc)
    if not items:
        print("no correlation: no item is rated for every system")
        out[label] = {"items": 0, "rated_outputs": rated}
        return
    scores, not_run = tl.score_metrics(js, metrics, items, "sv", annotator)  # type: ignore[arg-type]
    failed.update(not_run)
    table = tl.human_table(js, items, raters)
    print("\nsystem\t" + "\t".join(tl.HUMAN))
    for s in js.systems():
        print(s + "\t" + "\t".join(fmt(table[h][s]) for h in tl.HUMAN))
    if label.startswith("sentence"):
        worst = max(abs(round(table[h][s], 3 if h == "NLD" else 1) - v)
                    for h, row in PAPER_TABLE4.items() for s, v in row.items())
        print(f"Table 4 of the paper (rounded as printed): largest difference {worst:.3f}")
    rows = tl.correlate(js, scores, items, raters)
    order = {n: i for i, n in enumerate(names)}
    rows.sort(key=lambda r: (order[r["metric"]], tl.HUMAN.index(r["human"])))
    print(f"\nsystem level over {len(js.systems())} system(s), item level over the rated outputs")
    print("metric\thuman\tsys_pearson\tsys_spearman\titem_pearson\titem_spearman\titems\tnote")
    for r in rows:
        note = tl.ENGLISH_MODELS.get(r["metric"], "")
        print(f"{r['metric']}\t{r['human']}\t{fmt(r['system_pearson'])}\t"
              f"{fmt(r['system_spearman'])}\t{fmt(r['item_pearson'])}\t"
              f"{fmt(r['item_spearman'])}\t{r['items']}\t{note}")
    if failed:
        print("\nnot run:")
        for n, why in failed.items():
            print(f"  {n}: {' '.join(why.split())}")
    print("\nsystem scores:")
    for m in scores:
        print(f"  {m.name}: " + ", ".join(f"{s} {v:.4f}" for s, v in m.system.items()))
    out[label] = {"items": len(items), "human": table, "correlations": rows,
                  "not_run": failed, "scores": {m.name: m.system for m in scores}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get(ENV),
                    help=f"clone of harisont/text-level-gec-evaluation (default ${ENV})")
    ap.add_argument("--udpipe-model", help="Swedish UDPipe 1 model (edit-based metrics)")
    ap.add_argument("--metrics", nargs="+", default=["all"])
    ap.add_argument("--rater", nargs="+", default=["katarina"],
                    help="raters of the paper set (default katarina, as the paper)")
    ap.add_argument("--json", help="write every number as JSON")
    args = ap.parse_args()
    repo = PEERS["textlevel_eval"]
    if not args.data:
        print(f"skip: set ${ENV} to a clone of the ratings ({repo.clone()})")
        return 0
    root = bench_checkout("textlevel_eval", args.data)
    names = available_metrics() if args.metrics == ["all"] else args.metrics
    state: dict[str, object] = {}

    def annotator() -> object:
        if "ann" not in state:
            from errtype import load

            opts = {"udpipe_model": args.udpipe_model} if args.udpipe_model else {}
            state["ann"] = load("sv", **opts)
        return state["ann"]

    print(f"# Swedish meta-evaluation\ndata: {SOURCE}\nclone: {root}")
    if args.udpipe_model:
        print(f"Swedish parser: UDPipe model {Path(args.udpipe_model).name}")
    out: dict = {"source": SOURCE}
    with tempfile.TemporaryDirectory(prefix="errtype-sv-meta-") as tmp:
        js = tl.read_judgment_set(paper_folders(root, Path(tmp)))
        run_set("sentence level (Östling et al. 2024)", js, names, args.rater, annotator, out)
    text = root / TEXT_SET
    if text.is_file():
        js = tl.read_judgment_set([text])
        run_set("text level (sv-test.json, MultiGEC-2025 Swedish test essays)", js, names,
                None, annotator, out)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, default=str) + "\n",
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
