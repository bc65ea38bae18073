"""``errtype-m2 -j N``: parallel efficiency, the parent's and the workers' CPU, and start-up.

1. The machine: CPU model and flags (``/proc/cpuinfo``), numpy's BLAS (library, kernel chosen
   for this CPU, ``OPENBLAS_CORETYPE``), blis's version.
2. ``-j N`` for each N of ``--jobs`` (default 1, 2, ... up to the CPUs this process may use),
   interleaved, best of ``--repeat``: :func:`errtype.convert.parallel_to_m2` on one file pair,
   the 6,952 (source, correction) pairs of ``bench/bench_m2.py``'s corpora (``--scale K``: K
   copies). Printed per N: wall, the parent's CPU seconds (``RUSAGE_SELF``: reading, cutting
   the files, forking, joining), the workers' (``RUSAGE_CHILDREN``: they are reaped before the
   call returns), the parent's share of all CPU, speed-up over N = 1, parallel efficiency
   (speed-up / N) and CPU efficiency (CPU s at N = 1 / CPU s at N). The output's SHA-256 must
   be the same for every N.
3. Start-up: ``python -m errtype.cli.m2`` on a one-line file pair, a new process each time,
   wall and CPU seconds (best of ``--repeat``), and whether that process imported torch
   (``-X importtime`` lists ``torch._C``); beside it ERRANT 3.0.2 in a new process
   (``import errant``, its spaCy pipeline loaded as ``bench_m2.py`` loads it, one pair
   annotated).

    python bench/bench_workers.py [--jobs 1,2] [--repeat 3] [--scale 1] [--data D]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_m2 import load_pairs  # noqa: E402


def cpu_model() -> str:
    """The CPU's model name, count and vector extensions, from /proc/cpuinfo."""
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "unknown CPU (no /proc/cpuinfo)"
    names = [ln.split(":", 1)[1].strip() for ln in info.splitlines()
             if ln.startswith("model name")]
    flags = next((ln.split(":", 1)[1].split() for ln in info.splitlines()
                  if ln.startswith("flags")), [])
    vector = [f for f in ("avx2", "fma", "avx512f", "avx512_bf16", "amx_tile") if f in flags]
    return f"{names[0] if names else '?'} x {len(names)} ({', '.join(vector) or 'no AVX2'})"


def blas_kernels() -> str:
    """numpy's BLAS library and the kernel it chose, and blis's version."""
    from importlib.metadata import version

    from threadpoolctl import threadpool_info

    libs = [f"{i['internal_api']} {i.get('version')} kernel {i.get('architecture')}"
            for i in threadpool_info() if i["user_api"] == "blas"]
    core = os.environ.get("OPENBLAS_CORETYPE")
    return (f"numpy BLAS: {'; '.join(libs) or 'none found'}"
            f"{f' (OPENBLAS_CORETYPE={core})' if core else ''}; blis {version('blis')}")


def cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def startup(argv: list[str], repeat: int, env: dict[str, str]) -> tuple[float, float]:
    """Best wall and best CPU seconds of a new process running ``argv``."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        c0 = cpu()[1]
        w0 = time.perf_counter()
        subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL)
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, cpu()[1] - c0)
    return best_wall, best_cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--jobs", default=None, help="comma-separated N (default 1..CPUs)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale", type=int, default=1, help="copies of the corpus")
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    cpus = len(os.sched_getaffinity(0))
    jobs = [int(x) for x in args.jobs.split(",")] if args.jobs else list(range(1, cpus + 1))

    import errtype
    from errtype.convert import parallel_to_m2

    print(f"CPU: {cpu_model()}; {cpus} usable; load average {os.getloadavg()[0]:.1f}")
    ours = errtype.load("en")
    print(blas_kernels())
    pairs = load_pairs(Path(args.data), 10**9) * args.scale
    tmp = Path(tempfile.mkdtemp(prefix="bench_workers_"))
    orig, cor = tmp / "orig.txt", tmp / "cor.txt"
    orig.write_text("".join(o + "\n" for o, _ in pairs), encoding="utf-8")
    cor.write_text("".join(c + "\n" for _, c in pairs), encoding="utf-8")

    best: dict[int, list[float]] = {}
    digests: set[str] = set()
    for _ in range(max(1, args.repeat)):
        for n in jobs:
            out = tmp / f"j{n}.m2"
            (w0, (s0, k0)) = time.perf_counter(), cpu()
            parallel_to_m2(ours, orig, [cor], out, jobs=n, errant_noop=True)
            wall, (s1, k1) = time.perf_counter() - w0, cpu()
            digests.add(hashlib.sha256(out.read_bytes()).hexdigest()[:16])
            got = [wall, s1 - s0, k1 - k0]
            old = best.get(n)
            best[n] = got if old is None else [min(a, b) for a, b in zip(old, got, strict=True)]
    print(f"\n{len(pairs)} pairs, one file pair; best of {args.repeat} interleaved rounds "
          f"(each column's minimum); outputs identical: {len(digests) == 1} ({', '.join(digests)})")
    print(f"{'-j':>4}{'wall s':>8}{'parent CPU s':>14}{'workers CPU s':>15}{'parent share':>14}"
          f"{'speed-up':>10}{'efficiency':>12}{'CPU eff.':>10}")
    one = best.get(1)
    for n in jobs:
        wall, own, kids = best[n]
        total = own + kids
        speed = one[0] / wall if one else float("nan")
        cpu_eff = (one[1] + one[2]) / total if one else float("nan")
        print(f"{n:>4}{wall:>8.2f}{own:>14.2f}{kids:>15.2f}{100 * own / total:>13.1f}%"
              f"{speed:>9.2f}x{speed / n:>12.2f}{cpu_eff:>10.2f}")

    one_o, one_c = tmp / "one.orig", tmp / "one.cor"
    one_o.write_text("He go to scool .\n", encoding="utf-8")
    one_c.write_text("He goes to school .\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH",
                                                                                 "")]))
    command = [sys.executable, "-m", "errtype.cli.m2", "-orig", str(one_o), "-cor", str(one_c),
               "-o", str(tmp / "one.m2"), "-q"]
    trace = subprocess.run([sys.executable, "-X", "importtime", *command[1:]], env=env,
                           capture_output=True, text=True, check=True).stderr
    # torch's compiled core: a refused "import torch" is listed too, but loads nothing under it
    imported = any(ln.split("|")[-1].strip() == "torch._C" for ln in trace.splitlines())
    installed = importlib.util.find_spec("torch") is not None
    print(f"\nstart-up, one line, a new process each time (best of {args.repeat}); torch "
          f"installed: {installed}, imported by the command: {imported}")
    rows = [("errtype-m2 (python -m errtype.cli.m2)", command)]
    name = f"{ours.parser.nlp.meta['lang']}_{ours.parser.nlp.meta['name']}"
    if importlib.util.find_spec("errant") is not None:
        peer = ("import errant, spacy\n"
                f"a = errant.load('en', nlp=spacy.load('{name}', disable=['ner']))\n"
                "print([e.type for e in a.annotate(a.parse('He go to scool .'), "
                "a.parse('He goes to school .'))])\n")
        rows.append(("ERRANT 3.0.2 (import, load, one pair)", [sys.executable, "-c", peer]))
    for label, argv in rows:
        wall, used = startup(argv, max(1, args.repeat), env)
        print(f"  {label:<40}{wall:>7.2f} s wall{used:>7.2f} s CPU")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
