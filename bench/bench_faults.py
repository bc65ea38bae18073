"""Cost of the fault handling: the forked-worker pool, --resume checkpoints, and how fast a
signalled run stops.

On real pairs (JFLEG dev source x 4 references = 3,016 pairs, ``--copies`` times over), each run
is ``python -m errtype.cli.m2`` in a subprocess; printed per run: wall seconds, CPU seconds of
the whole process tree (user + system, from the rusage of waited-for children) and the sha256 of
the M2 (equal for every run of one input). Runs:

  j1, j2                 -j 1 / -j 2
  j1-resume, j2-resume   the same with --resume (OUT.partial + a checkpoint every batch, at most
                         once a second, each an fsync)
  stop-int, stop-kill    -j 2, then after the first blocks are written: Ctrl-C to the process
                         group / SIGKILL of one worker; the seconds until the process has exited

``--src DIR`` runs the same commands on another source tree too (e.g. an export of ``main``:
``mkdir ../main-src && git archive main | tar -x -C ../main-src``), for a before/after
comparison of the pool.

    python bench/bench_faults.py [--copies 1] [--runs j1,j2,j1-resume,j2-resume,stop-int,stop-kill]
                                 [--src ../main-src] [--repeat 1]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared")) / "data"


def write_pairs(folder: Path, copies: int) -> tuple[Path, Path, int]:
    jfleg = DATA / "jfleg"
    src = (jfleg / "dev.src").read_text(encoding="utf-8").splitlines()
    orig: list[str] = []
    cor: list[str] = []
    for _ in range(copies):
        for k in range(4):
            orig += src
            cor += (jfleg / f"dev.ref{k}").read_text(encoding="utf-8").splitlines()
    o, c = folder / "orig.txt", folder / "cor.txt"
    o.write_text("".join(x + "\n" for x in orig), encoding="utf-8")
    c.write_text("".join(x + "\n" for x in cor), encoding="utf-8")
    return o, c, len(orig)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _env(src: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(src))


def timed(src: Path, args: list[str]) -> tuple[float, float]:
    cpu, t0 = _cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "errtype.cli.m2", *args], check=True, env=_env(src))
    return time.perf_counter() - t0, _cpu() - cpu


def stop_latency(src: Path, args: list[str], folder: Path, how: str) -> tuple[float, int]:
    """Seconds from the signal to the process's exit, and its exit status."""
    proc = subprocess.Popen([sys.executable, "-m", "errtype.cli.m2", *args], env=_env(src),
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 600
    while not any(p.stat().st_size > 0 for p in folder.glob(".out*.tmp")):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the run ended before it could be signalled")
        time.sleep(0.05)
    t0 = time.perf_counter()
    if how == "int":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
        os.kill(int(kids.stdout.split()[0]), signal.SIGKILL)
    try:
        status = proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return float("inf"), -9  # a hang
    return time.perf_counter() - t0, status


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=1, help="3,016 pairs times this (default 1)")
    ap.add_argument("--runs", default="j1,j2,j1-resume,j2-resume,stop-int,stop-kill")
    ap.add_argument("--src", action="append", default=[],
                    help="another source tree to run too (repeatable)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each timing (best is shown)")
    args = ap.parse_args()
    runs = args.runs.split(",")
    trees = [("this", ROOT)] + [(Path(s).name, Path(s)) for s in args.src]
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        o, c, n = write_pairs(folder, args.copies)
        print(f"{n} pairs")
        for name, src in trees:
            for run in runs:
                out = folder / "out.m2"
                base = ["-orig", str(o), "-cor", str(c), "-out", str(out), "-q"]
                jobs = ["-j", "2"] if "j2" in run or run.startswith("stop") else []
                if run.startswith("stop"):
                    secs, status = stop_latency(src, base + jobs, folder, run.split("-")[1])
                    print(f"{name:>10} {run:<10} stopped {secs:6.2f} s after the signal "
                          f"(exit status {status})")
                    continue
                extra = ["--resume"] if run.endswith("resume") else []
                best = None
                for _ in range(args.repeat):
                    got = timed(src, base + jobs + extra)
                    best = got if best is None or got[0] < best[0] else best
                assert best is not None
                digest = hashlib.sha256(out.read_bytes()).hexdigest()[:12]
                print(f"{name:>10} {run:<10} wall {best[0]:7.2f} s  cpu {best[1]:7.2f} s  "
                      f"{n / best[0]:6.1f} pairs/s  m2 {digest}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
