"""Time errtype-compare against errant_compare 3.0.2 in one process, on the same M2 files.

Both sides run their whole command in-process (read both M2 files, score, format the output;
standard output captured in memory), ``--repeat`` times each, alternating; the best and median
wall times are reported with the ratio peer/ours. The outputs are also checked to be identical.
errtype's library call alone (:func:`errant_score`) is timed as well.

    python bench/bench_compare.py                       # CoNLL-2014 official-2014.0 vs .1
    python bench/bench_compare.py --hyp H.m2 --ref R.m2 --options "-cat 3"
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.cli.compare import main as ours_main  # noqa: E402
from errtype.m2 import read_m2  # noqa: E402
from errtype.score.edits.errant import errant_score  # noqa: E402

CONLL = ROOT.parent / "shared" / "data" / "conll14"


def _timed(fn: Callable[[], object]) -> tuple[float, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
    return dt, buf.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hyp", default=str(CONLL / "official-2014.0.m2"))
    ap.add_argument("--ref", default=str(CONLL / "official-2014.1.m2"))
    ap.add_argument("--options", action="append",
                    help="option string(s) to time, e.g. '-cat 3' (repeatable; default: "
                         "'', '-dt -cat 3', '-cse -cat 3', '-v')")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    option_sets = args.options or ["", "-dt -cat 3", "-cse -cat 3", "-v"]

    t = time.perf_counter()
    from errant.commands import compare_m2 as peer  # imports spaCy (not timed below)

    print(f"(peer import: {time.perf_counter() - t:.2f} s, not counted)")
    print(f"hyp {args.hyp}\nref {args.ref}\nbest/median of {args.repeat} runs, seconds")
    hyp_blocks, ref_blocks = list(read_m2(args.hyp)), list(read_m2(args.ref))
    print(f"{'options':<14}{'errant_compare':>16}{'errtype-compare':>17}{'ratio':>8}"
          f"{'lib':>8}{'lib parsed':>12}  same output")
    for opts in option_sets:
        argv = ["-hyp", args.hyp, "-ref", args.ref, *shlex.split(opts)]

        def run_peer(argv: list[str] = argv) -> None:
            sys.argv = ["errant_compare", *argv]
            peer.main()

        def run_ours(argv: list[str] = argv) -> None:
            ours_main(argv)

        o = shlex.split(opts)
        mode = next((m[1:] for m in o if m in ("-dt", "-ds", "-cse")), "cs")

        def run_lib(mode: str = mode, trace: bool = "-v" in o) -> None:
            errant_score(args.hyp, args.ref, mode=mode, trace=trace)

        def run_parsed(mode: str = mode, trace: bool = "-v" in o) -> None:
            errant_score(hyp_blocks, ref_blocks, mode=mode, trace=trace)

        peer_t, ours_t, lib_t, parsed_t = [], [], [], []
        same = True
        for _ in range(args.repeat):
            dt, out_p = _timed(run_peer)
            peer_t.append(dt)
            dt, out_o = _timed(run_ours)
            ours_t.append(dt)
            lib_t.append(_timed(run_lib)[0])
            parsed_t.append(_timed(run_parsed)[0])
            same &= out_p == out_o
        bp, bo = min(peer_t), min(ours_t)
        print(f"{opts or '(default)':<14}"
              f"{f'{bp:.3f}/{statistics.median(peer_t):.3f}':>16}"
              f"{f'{bo:.3f}/{statistics.median(ours_t):.3f}':>17}"
              f"{bp / bo:>7.2f}x"
              f"{min(lib_t):>8.3f}{min(parsed_t):>12.3f}  {'yes' if same else 'NO'}")
    print("lib = errant_score() on the two paths; lib parsed = on already-read M2 blocks")
    print("\nwhole commands as subprocesses (interpreter start and imports included), default "
          "options, best of 3:")
    argv = ["-hyp", args.hyp, "-ref", args.ref]
    cmds = {"errant_compare": [str(Path(sys.executable).with_name("errant_compare")), *argv],
            "errtype-compare": [sys.executable, "-m", "errtype.cli.compare", *argv]}
    walls = {}
    for name, cmd in cmds.items():
        runs = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
            runs.append(time.perf_counter() - t)
        walls[name] = min(runs)
        print(f"  {name:<16}{walls[name]:.3f} s")
    print(f"  ratio {walls['errant_compare'] / walls['errtype-compare']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
