"""SEEDA's published per-system scores against ``errtype score``, side by side, and the time of one
``errtype score`` call for all six metrics next to the separate commands.

SEEDA (Kobayashi, Mita, Komachi, TACL 2024; github.com/tmu-nlp/SEEDA, no licence file, so it is
read from a local checkout and never copied) prints in its README M2, SentM2, ERRANT,
SentERRANT, GoToScorer and GLEU for 15 systems on the whole CoNLL-2014 test set
(``outputs/all``). This script scores those outputs with the conventions those columns imply
(see docs/metrics.md, "SEEDA's columns"):

* gold: the official two-annotator ``official-2014.combined.m2``;
* M2, SentM2: the M2 gold as it is; GLEU: one reference per annotator, an annotator missing from
  a block correcting as the first one;
* ERRANT, SentERRANT, GoToScorer: gold edits re-extracted by ERRANT from each annotator's
  corrected text (``--edit-gold auto``), system edits by errtype's English ERRANT;
* GoToScorer: chunk weights from all 15 systems, gold annotator 0.

    python bench/seeda_scores.py --seeda PATH [--gold GOLD.m2] [--separate] [--json OUT]

PATH is a SEEDA checkout (a working tree, or a bare git directory such as a mirror). With
``--separate`` the same numbers are also computed by separate commands (one ``errtype score``
per metric, and the per-metric commands ``errtype m2score`` and ``errtype compare`` per system
and one ``errtype gleu``) and the times are printed side by side: wall and CPU seconds of the
child processes (``resource.RUSAGE_CHILDREN``). On a shared machine compare the CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GOLD = ROOT.parent / "shared" / "data" / "conll14" / "official-2014.combined.m2"

#: SEEDA README columns -> errtype score metric names
COLUMNS = {"M<sup>2</sup>": "m2", "SentM<sup>2</sup>": "sentm2", "ERRANT": "errant",
           "SentERRANT": "senterrant", "GoToScorer": "goto", "GLEU": "gleu"}
METRICS = ["m2", "sentm2", "errant", "senterrant", "gleu", "goto"]


def seeda_files(path: Path, out: Path) -> tuple[str, Path]:
    """The README text and a folder holding ``outputs/all`` (extracted when ``path`` is a bare
    git directory)."""
    if (path / "README.md").is_file():
        return (path / "README.md").read_text(encoding="utf-8"), path / "outputs" / "all"
    git = ["git", "--git-dir", str(path)]
    readme = subprocess.run([*git, "show", "HEAD:README.md"], check=True, capture_output=True,
                            text=True).stdout
    archive = subprocess.run([*git, "archive", "HEAD", "outputs/all"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "x", "-C", str(out)], input=archive, check=True)
    return readme, out / "outputs" / "all"


def published(readme: str) -> dict[str, dict[str, str]]:
    """{system: {metric: printed value}} from the README table."""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| |"):
            header = cells
        elif header and len(cells) == len(header) and cells[1][:1].isdigit():
            rows[cells[0]] = {COLUMNS[h]: v for h, v in zip(header, cells, strict=True)
                              if h in COLUMNS}
    return rows


def run(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, child CPU seconds and standard output of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def errtype(*args: str) -> list[str]:
    return [sys.executable, "-m", "errtype.cli.main", *args]


def matches(ours: float, theirs: str) -> bool:
    """Equal at the printed precision: SEEDA prints round(x, 2) (``50.3`` is 50.30)."""
    return round(ours, 2) == float(theirs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeda", required=True, type=Path, help="SEEDA checkout or git directory")
    ap.add_argument("--gold", type=Path, default=DEFAULT_GOLD, help="official-2014.combined.m2")
    ap.add_argument("--separate", action="store_true",
                    help="also time the separate commands (slow: 15 spaCy loads)")
    ap.add_argument("--json", type=Path, help="write every number and time as JSON")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        readme, outputs = seeda_files(args.seeda, tmp)
        pub = published(readme)
        systems = sorted(p.stem for p in outputs.glob("*.txt"))
        hyps = [f"{s}={outputs / (s + '.txt')}" for s in systems]
        result = tmp / "all.json"
        wall, cpu, _ = run(errtype("score", "-m", *METRICS, "--ref", str(args.gold),
                                   "--hyp", *hyps, "--edit-gold", "auto", "--json",
                                   "-o", str(result)))
        data = json.loads(result.read_text(encoding="utf-8"))
        ours = {(r["system"], r["metric"]): 100 * r["score"] for r in data["results"]}
        print(f"errtype score, {len(METRICS)} metrics x {len(systems)} systems: "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU (per metric, wall: "
              + ", ".join(f"{k} {v:.1f}" for k, v in data["seconds"].items()) + ")\n")
        width = max(map(len, systems))
        print("system".ljust(width) + "".join(f"  {m + ' ours/SEEDA':>24}" for m in METRICS))
        exact = dict.fromkeys(METRICS, 0)
        worst = dict.fromkeys(METRICS, 0.0)
        for s in systems:
            cells = []
            for m in METRICS:
                theirs = pub.get(s, {}).get(m)
                v = ours[(s, m)]
                if theirs is None:
                    cells.append(f"{v:.2f}/-".rjust(24))
                    continue
                ok = matches(v, theirs)
                exact[m] += ok
                worst[m] = max(worst[m], abs(v - float(theirs)))
                cells.append(f"{v:.2f}/{theirs}{'' if ok else ' *'}".rjust(24))
            print(s.ljust(width) + "".join(f"  {c}" for c in cells))
        print("\nequal at the printed precision (* = not):")
        for m in METRICS:
            print(f"  {m:<11} {exact[m]:>2} of {len(systems)}   largest |difference| "
                  f"{worst[m]:.3f}")
        times = {"one_call": {"wall": wall, "cpu": cpu}}
        if args.separate:
            times["separate"] = separate(args.gold, systems, outputs, tmp, hyps)
        if args.json:
            args.json.write_text(json.dumps({"ours": {f"{s}\t{m}": v for (s, m), v in
                                                      ours.items()},
                                             "published": pub, "times": times}, indent=1))
    return 0


def separate(gold: Path, systems: list[str], outputs: Path, tmp: Path, hyps: list[str]
             ) -> dict[str, dict[str, float]]:
    """Time the same scores computed by separate commands."""
    times: dict[str, dict[str, float]] = {}

    def add(key: str, wall: float, cpu: float) -> None:
        t = times.setdefault(key, {"wall": 0.0, "cpu": 0.0})
        t["wall"] += wall
        t["cpu"] += cpu

    for m in METRICS:  # one errtype score call per metric (edits extracted again each time)
        wall, cpu, _ = run(errtype("score", "-m", m, "--ref", str(gold), "--hyp", *hyps,
                                   "--edit-gold", "auto", "--tsv"))
        add("errtype score, one call per metric", wall, cpu)
    # the per-metric commands: errtype m2score and errtype compare (text mode, references =
    # the annotators' corrected texts) per system, errtype gleu once
    src, refs = tmp / "src.txt", [tmp / "ref0.txt", tmp / "ref1.txt"]
    sys.path.insert(0, str(ROOT))
    from errtype.m2 import read_m2
    from errtype.score.extract import gold_references

    blocks = list(read_m2(gold))
    src.write_text("".join(b.source + "\n" for b in blocks), encoding="utf-8")
    for path, texts in zip(refs, gold_references(blocks), strict=True):
        path.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    for s in systems:
        hyp = str(outputs / f"{s}.txt")
        add("per-metric commands", *run(errtype("m2score", hyp, str(gold)))[:2])
        add("per-metric commands", *run(errtype("compare", "-orig", str(src), "-hyp_text", hyp,
                                                "-ref_text", *map(str, refs)))[:2])
    add("per-metric commands", *run(errtype("gleu", "-s", str(src), "-r", str(gold), "-o",
                                            *(str(outputs / f"{s}.txt") for s in systems)))[:2])
    print("\nseparate commands (m2score, compare and gleu cover m2, errant and gleu only):")
    for key, t in times.items():
        print(f"  {key}: {t['wall']:.1f} s wall, {t['cpu']:.1f} s CPU")
    return times


if __name__ == "__main__":
    sys.exit(main())
