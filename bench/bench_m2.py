"""Side-by-side: ``errtype-m2`` vs ERRANT 3.0.2 ``errant_parallel`` on real parallel text, one run.

Inputs (from ../shared/data): jfleg dev (source + 4 references) and CoNLL-2014 (official source +
the AMU, CAMB and CUUI system outputs), lines with an empty source left out (ERRANT writes no
block for them). Both tools load the same spaCy pipeline by name (ERRANT: ``spacy.load(name,
disable=["ner"])``, errtype: its English loader); ERRANT runs its own ``errant_parallel`` command
code in-process, errtype runs :func:`errtype.convert.parallel_to_m2` (what ``errtype-m2`` calls).

1. Single process, both pinned to one CPU (``os.sched_setaffinity``): pairs/s and ratio.
2. errtype ``-j N`` (all CPUs) vs the same ERRANT run.

``--repeat R`` runs the three ``R`` times, interleaved (ERRANT, errtype, errtype -j N, ERRANT,
...), and reports the best wall and the best CPU seconds of each: on a shared machine other
processes only ever add time, so the minimum is the least disturbed measurement. CPU seconds
(``getrusage``: this process and its finished workers) are printed beside wall time.

Output identity: errtype's default M2 equals ERRANT's after removing noop lines (the documented
noop difference); with ``--errant-noop`` (``errant_noop=True``) it is byte-identical; SHA-256 of
each is printed.

    python bench/bench_m2.py [--jobs 2] [--cpu 0] [--repeat 1] [--data ../shared/data]
                             [--limit LINES]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: (source file, correction files) under the data directory
GROUPS = [("jfleg/dev.src", ["jfleg/dev.ref0", "jfleg/dev.ref1", "jfleg/dev.ref2",
                              "jfleg/dev.ref3"]),
          ("conll14/systems/INPUT", ["conll14/systems/AMU", "conll14/systems/CAMB",
                                     "conll14/systems/CUUI"])]


def read_groups(data: Path, limit: int | None = None) -> list[tuple[list[str], list[list[str]]]]:
    """Per group: source lines and correction lines (empty sources dropped)."""
    out = []
    for src, cors in GROUPS:
        if not (data / src).exists():
            continue
        o = (data / src).read_text(encoding="utf-8").splitlines()
        cs = [(data / c).read_text(encoding="utf-8").splitlines() for c in cors]
        keep = [k for k, line in enumerate(o) if line.strip()][:limit]
        out.append(([o[k] for k in keep], [[c[k] for k in keep] for c in cs]))
    return out


def load_pairs(data: Path, limit: int) -> list[tuple[str, str]]:
    """(source, correction) pairs of every group, stripped, non-empty."""
    pairs = [(o.strip(), c[k].strip()) for src, cors in read_groups(data) for c in cors
             for k, o in enumerate(src)]
    return [(o, c) for o, c in pairs if o and c][:limit]


def peer_errant() -> ModuleType | None:
    """ERRANT 3.0.2 (the peer tool), or None after saying how to install it."""
    try:
        import errant
    except ImportError:
        print("the peer tool is not installed: pip install errant==3.0.2")
        return None
    return errant


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def without_noops(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if "|||noop|||" not in line)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the first)")
    ap.add_argument("--limit", type=int, default=None, help="source lines per group")
    ap.add_argument("--repeat", type=int, default=1,
                    help="interleaved repetitions; the best wall and CPU of each are reported")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    errant = peer_errant()
    if errant is None:
        return 1
    import errant.commands.parallel_to_m2 as errant_cmd
    import spacy

    import errtype
    from errtype.convert import parallel_to_m2

    all_cpus = sorted(os.sched_getaffinity(0))
    pin = {args.cpu if args.cpu is not None else all_cpus[0]}
    ours = errtype.load("en")
    name = f"{ours.parser.nlp.meta['lang']}_{ours.parser.nlp.meta['name']}"
    peer = errant.load("en", nlp=spacy.load(name, disable=["ner"]))
    tmp = Path(tempfile.mkdtemp(prefix="bench_m2_"))
    inputs = []
    n_pairs = 0
    for g, (src, cors) in enumerate(read_groups(Path(args.data), args.limit)):
        paths = [tmp / f"g{g}.orig"] + [tmp / f"g{g}.cor{k}" for k in range(len(cors))]
        for path, lines in zip(paths, [src, *cors], strict=True):
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        inputs.append(paths)
        n_pairs += len(src) * len(cors)
    print(f"{n_pairs} sentence pairs ({', '.join(s for s, _ in GROUPS)} + corrections); "
          f"spaCy {spacy.__version__}, {name}; errtype components {ours.parser.nlp.pipe_names}")

    def run_errant() -> str:
        errant.load = lambda *a, **k: peer  # the command loads its annotator this way
        texts = []
        for g, paths in enumerate(inputs):
            out = tmp / f"g{g}.errant.m2"
            sys.argv = ["errant_parallel", "-orig", str(paths[0]), "-cor",
                        *map(str, paths[1:]), "-out", str(out)]
            with contextlib.redirect_stdout(io.StringIO()):
                errant_cmd.main()
            texts.append(out.read_text(encoding="utf-8"))
        return "".join(texts)

    def run_errtype(jobs: int, errant_noop: bool = False) -> str:
        texts = []
        for g, paths in enumerate(inputs):
            out = tmp / f"g{g}.errtype.m2"
            parallel_to_m2(ours, paths[0], paths[1:], out, jobs=jobs, errant_noop=errant_noop)
            texts.append(out.read_text(encoding="utf-8"))
        return "".join(texts)

    def timed(label: str, run, *a: object) -> tuple[str, float, float, str]:
        w0, c0 = time.perf_counter(), cpu_seconds()
        text = run(*a)
        return label, time.perf_counter() - w0, cpu_seconds() - c0, text

    runs = [("ERRANT errant_parallel (1 CPU)", pin, run_errant, ()),
            ("errtype-m2 (1 CPU)", pin, run_errtype, (1,)),
            (f"errtype-m2 -j {args.jobs} ({len(all_cpus)} CPUs)", all_cpus, run_errtype,
             (args.jobs,))]
    best: dict[str, tuple[str, float, float, str]] = {}
    rounds: dict[str, list[str]] = {label: [] for label, *_ in runs}
    for _ in range(max(1, args.repeat)):
        for label, cpus, run, extra in runs:
            os.sched_setaffinity(0, cpus)
            got = timed(label, run, *extra)
            rounds[label].append(f"{got[1]:.1f}/{got[2]:.1f}")
            old = best.get(label)
            best[label] = got if old is None else (
                label, min(old[1], got[1]), min(old[2], got[2]), got[3])
            if old is not None and old[3] != got[3]:
                print(f"{label}: output differs between repetitions")
                return 1
    os.sched_setaffinity(0, all_cpus)
    rows = [best[label] for label, *_ in runs]
    byte_text = run_errtype(args.jobs, True)
    ref = rows[0][3]
    print(f"{'run':<34}{'wall s':>8}{'pairs/s':>9}{'ratio':>8}{'CPU s':>8}{'CPU ratio':>10}"
          "  M2 sha256 (noop lines removed)")
    for label, wall, cpu, text in rows:
        print(f"{label:<34}{wall:>8.1f}{n_pairs / wall:>9.0f}{rows[0][1] / wall:>7.2f}x"
              f"{cpu:>8.1f}{rows[0][2] / cpu:>9.2f}x  {sha(text)} ({sha(without_noops(text))})")
    print("ratio = ERRANT wall time / this wall time; CPU ratio = the same with CPU seconds "
          "(self + workers), robust on a shared machine"
          + (f"; best of {args.repeat} interleaved runs" if args.repeat > 1 else ""))
    if args.repeat > 1:
        for label, values in rounds.items():
            print(f"  {label}: wall/CPU s per round {'  '.join(values)}")
    same = all(without_noops(r[3]) == without_noops(ref) for r in rows)
    print(f"identical to ERRANT after removing noop lines: {same}; with errant_noop=True "
          f"byte-identical: {byte_text == ref} ({sha(byte_text)})")
    return 0 if same and byte_text == ref else 1


if __name__ == "__main__":
    raise SystemExit(main())
