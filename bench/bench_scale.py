"""Scale-out: N generated pairs streamed through errtype-m2 and through Dask, with peak memory.

Pairs are sampled with replacement from the real parallel corpora in ../shared/data (JFLEG dev
source x 4 references, CoNLL-2014 input x 3 system outputs), shuffled with a seed and written to a
temporary folder. Runs, each on the same files:

  cli      ``errtype-m2 -orig -cor -out`` in a subprocess (``-j 1``; ``cli-j2``: ``-j 2``)
  dask1/2  ``errtype.dask.parallel_to_m2_dask`` on a LocalCluster of 1 / 2 worker processes

Printed per run: wall time, pairs/s, peak RSS of every process (psutil, sampled), the largest
process's peak on the first 200 pairs alone (the model loaded and warm: the baseline), its RSS after
the first 10 % of the run and its peak (flat memory: peak - baseline stays small whatever N), and
the sha256 of the M2 (all must be equal). Runs may be split over several invocations with the same
``--seed`` and ``--pairs`` (e.g. pinned to different CPUs with ``taskset``): the files are the
same. ``--skip-check`` also times the skip/dedupe change in one process on the real pairs
(``parse_noops=True`` parses every item, the default parses only what can yield an edit).

    python bench/bench_scale.py --pairs 20000 [--runs cli,cli-j2,dask1,dask2] [--skip-check]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def real_pairs(data: Path) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    jfleg = data / "jfleg"
    src = (jfleg / "dev.src").read_text(encoding="utf-8").splitlines()
    for ref in ("dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"):
        cor = (jfleg / ref).read_text(encoding="utf-8").splitlines()
        pairs += [(o.strip(), c.strip()) for o, c in zip(src, cor, strict=True)]
    systems = data / "conll14" / "systems"
    inp = (systems / "INPUT").read_text(encoding="utf-8").splitlines()
    for system in ("AMU", "CAMB", "CUUI"):
        out = (systems / system).read_text(encoding="utf-8").splitlines()
        pairs += [(o.strip(), c.strip()) for o, c in zip(inp, out, strict=True)]
    return [(o, c) for o, c in pairs if o and "|||" not in c]


def generate(pairs: list[tuple[str, str]], n: int, folder: Path, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    orig, cor = folder / "orig.txt", folder / "cor.txt"
    with open(orig, "w", encoding="utf-8") as fo, open(cor, "w", encoding="utf-8") as fc:
        for _ in range(n):
            o, c = pairs[rng.randrange(len(pairs))]
            fo.write(o + "\n")
            fc.write(c + "\n")
    return orig, cor


class RssSampler:
    """Peak RSS per process of a process tree, sampled every ``interval`` seconds."""

    def __init__(self, pid: int, interval: float = 0.25) -> None:
        import psutil

        self.root = psutil.Process(pid)
        self.interval = interval
        self.peaks: dict[int, tuple[str, int]] = {}
        self.cpu: dict[int, float] = {}  # last seen user + system CPU seconds per process
        self.timeline: list[tuple[float, int]] = []  # (time, largest RSS of a process)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RssSampler:
        self.start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        import psutil

        while not self._stop.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            largest = 0
            for p in procs:
                try:
                    rss = p.memory_info().rss
                    name = " ".join(p.cmdline()[1:4])[:60]
                    times = p.cpu_times()
                except psutil.Error:
                    continue
                self.cpu[p.pid] = times.user + times.system
                largest = max(largest, rss)
                if rss > self.peaks.get(p.pid, ("", 0))[1]:
                    self.peaks[p.pid] = (name, rss)
            self.timeline.append((time.perf_counter() - self.start, largest))
            self._stop.wait(self.interval)

    def early(self, fraction: float = 0.1) -> int:
        """Largest per-process RSS once ``fraction`` of the run has passed (model loaded)."""
        if not self.timeline:
            return 0
        end = self.timeline[-1][0]
        later = [rss for t, rss in self.timeline if t >= fraction * end]
        return later[0] if later else self.timeline[-1][1]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()[:16]


def run_cli(orig: Path, cor: Path, out: Path, jobs: int) -> tuple[float, RssSampler]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "errtype.cli.m2", "-orig", str(orig), "-cor", str(cor),
           "-out", str(out), "-q", "-j", str(jobs)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env)
    with RssSampler(proc.pid) as sampler:
        if proc.wait() != 0:
            raise SystemExit(f"errtype-m2 failed: {' '.join(cmd)}")
    return time.perf_counter() - t0, sampler


def run_dask(orig: Path, cor: Path, out: Path, workers: int, partition: int
             ) -> tuple[float, RssSampler]:
    from errtype.dask import Settings, parallel_to_m2_dask

    t0 = time.perf_counter()
    with RssSampler(os.getpid()) as sampler:
        parallel_to_m2_dask(f"local:{workers}", orig, [cor], out, Settings.make("en"),
                            partition_size=partition)
    return time.perf_counter() - t0, sampler


def skip_check(pairs: list[tuple[str, str]]) -> None:
    """Parse-everything vs parse-what-can-yield-an-edit, in one process on the real pairs."""
    import errtype

    ann = errtype.load("en")
    items = [(o, [c]) for o, c in pairs]
    skipped = sum(o.split() == c.split() for o, c in pairs)
    print(f"skip check: {len(items)} real pairs, {skipped} ({skipped / len(items):.0%}) "
          "token-identical (not parsed)")
    results = {}
    for label, parse_noops in (("parse every pair", True), ("parse what can edit", False),
                               ("parse every pair", True), ("parse what can edit", False)):
        t0, c0 = time.perf_counter(), time.process_time()
        n = sum(1 for _ in ann.annotate_stream(items, parse_noops=parse_noops))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        results.setdefault(label, []).append(cpu)
        print(f"  {label:22s} {n / wall:7.1f} pairs/s wall, {n / cpu:7.1f} pairs/s CPU")
    before, after = min(results["parse every pair"]), min(results["parse what can edit"])
    print(f"  CPU-time speed-up of the skip: {before / after:.2f}x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--runs", default="cli,dask1,dask2",
                    help="comma-separated: cli, cli-j2, dask1, dask2")
    ap.add_argument("--partition-size", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--skip-check", action="store_true")
    ap.add_argument("--keep", help="folder for the generated files and outputs (kept)")
    args = ap.parse_args()
    try:
        import psutil  # noqa: F401
    except ImportError:
        print("bench_scale needs psutil: pip install 'errtype[bench]'")
        return 1
    pairs = real_pairs(Path(args.data))
    if args.skip_check:
        skip_check(pairs)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="errtype-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    orig, cor = generate(pairs, args.pairs, folder, args.seed)
    print(f"{args.pairs} pairs sampled from {len(pairs)} real pairs (seed {args.seed}) in "
          f"{folder}; {os.cpu_count()} CPUs")
    small = folder / "small"  # the model baseline: the same run on the first 200 pairs
    small.mkdir(exist_ok=True)
    s_orig, s_cor = generate(pairs, 200, small, args.seed)

    def run(kind: str, o: Path, c: Path, out: Path) -> tuple[float, RssSampler]:
        if kind.startswith("cli"):
            return run_cli(o, c, out, 2 if kind == "cli-j2" else 1)
        if kind.startswith("dask"):
            return run_dask(o, c, out, int(kind[4:]), args.partition_size)
        raise SystemExit(f"unknown run {kind!r}")

    hashes = {}
    mb = 1024 * 1024
    for kind in [r for r in args.runs.split(",") if r]:
        _, base = run(kind, s_orig, s_cor, small / f"{kind}.m2")
        model = max(rss for _, rss in base.peaks.values())
        out = folder / f"{kind}.m2"
        wall, sampler = run(kind, orig, cor, out)
        hashes[kind] = sha256(out)
        procs = sorted(sampler.peaks.values(), key=lambda x: -x[1])
        print(f"{kind:7s} {wall:8.1f} s  {args.pairs / wall:7.1f} pairs/s  sha256 {hashes[kind]}  "
              f"largest process: {model / mb:.0f} MB on 200 pairs (the model), "
              f"{sampler.early() / mb:.0f} MB at 10 % of the run, peak {procs[0][1] / mb:.0f} MB "
              f"= model + {(procs[0][1] - model) / mb:.0f} MB")
        for pid, (name, rss) in sorted(sampler.peaks.items(), key=lambda x: -x[1][1])[:4]:
            print(f"          peak {rss / mb:6.0f} MB  CPU {sampler.cpu.get(pid, 0):7.1f} s  "
                  f"{name}")
        busiest = max(sampler.cpu.values(), default=0.0)
        print(f"          CPU total {sum(sampler.cpu.values()):.1f} s, busiest process "
              f"{busiest:.1f} s: {args.pairs / max(busiest, 1e-9):.1f} pairs/s per busiest-"
              "process CPU second (the wall rate on free cores)")
    if len(set(hashes.values())) > 1:
        print("OUTPUTS DIFFER:", hashes)
        return 1
    print(f"identical M2 across {', '.join(hashes)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
