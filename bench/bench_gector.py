"""GECToR's ``utils/preprocess_data.py`` and ``errtype convert parallel-to-gector`` side by side:
the same pairs, the same verb-form vocabulary; both times and whether the outputs are identical.

GECToR (grammarly/gector, Apache-2.0) is read from a checkout named by ``--gector DIR`` or
``$ERRTYPE_GECTOR`` (``git clone https://github.com/grammarly/gector``; ``bench/peer_repos.py``)
and its ``utils/`` copied to a temporary folder at run time, never into errtype. Its script
imports numpy, Levenshtein and tqdm; a missing Levenshtein is stood in for by rapidfuzz's (the
same distance) and a missing tqdm by a pass-through, and the output says so. The vocabulary
(``--vocab``, default errtype's) is written where GECToR's helpers read it,
``data/verb-form-vocab.txt``.

The corpora come from ``../shared/data`` (there is no BEA-2019 or FCE data there): CoNLL-2014
test (official M2: sources and both annotators' corrections), the CoNLL-2014 submissions AMU,
CAMB, CUUI against their input, JFLEG dev (four references) and GECCC dev (Czech, sentences and
paragraphs up to ~350 tokens: long rewrites stress GECToR's alignment). Each corpus runs as one
command of each tool, start-up included; ``--all N`` also runs every pair concatenated, N times.
Times are wall and CPU seconds of the child process (``resource.RUSAGE_CHILDREN``); on a shared
machine compare the CPU seconds. Every line ends with the round trip: errtype's
``gector-to-text`` of the tags against the corrections of the pairs kept.

    python bench/bench_gector.py [--gector PATH] [--vocab FILE] [--jobs 2] [--all N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"

SHIMS = {
    "Levenshtein": "from rapidfuzz.distance.Levenshtein import distance  # errtype stand-in\n",
    "tqdm": "def tqdm(iterable=None, *args, **kwargs):  # errtype stand-in\n"
            "    return iterable\n",
}


def extract_gector(checkout: Path, dest: Path, vocab: Path) -> tuple[Path, list[str]]:
    """GECToR's ``utils/`` under ``dest`` with ``vocab`` as its verb-form vocabulary; returns the
    script and the stand-ins used (modules it imports that are not installed)."""
    shutil.copytree(checkout / "utils", dest / "utils")
    (dest / "data").mkdir(exist_ok=True)
    shutil.copyfile(vocab, dest / "data" / "verb-form-vocab.txt")
    stood_in = []
    shims = dest / "shims"
    shims.mkdir(exist_ok=True)
    for module, code in SHIMS.items():
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            (shims / f"{module}.py").write_text(code, encoding="utf-8")
            stood_in.append(module)
    return dest / "utils" / "preprocess_data.py", stood_in


def _timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds of a child process, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[:3]} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout + proc.stderr


def run_gector(script: Path, src: Path, tgt: Path, out: Path) -> tuple[float, float, str]:
    """Run GECToR's script (``out`` is removed first: the script appends)."""
    out.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(script.parents[1] / "shims"))
    return _timed([sys.executable, str(script), "-s", str(src), "-t", str(tgt), "-o", str(out)],
                  env)


def run_errtype(src: Path, tgt: Path, out: Path, vocab: Path, jobs: int = 1
                ) -> tuple[float, float, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return _timed([sys.executable, "-m", "errtype.cli.main", "convert", "parallel-to-gector",
                   "-orig", str(src), "-cor", str(tgt), "-o", str(out), "--verb-vocab",
                   str(vocab), "-j", str(jobs)], env)


def corpora(tmp: Path) -> list[tuple[str, Path, Path]]:
    """(name, source, target) of every pair set in ../shared/data."""
    from errtype.convert import m2_to_text

    found: list[tuple[str, Path, Path]] = []
    m2 = SHARED / "conll14" / "official-2014.combined.m2"
    if m2.is_file():
        m2_to_text(m2, tmp / "conll14")
        found += [(f"CoNLL-2014 ann. {a}", tmp / "conll14.orig", tmp / f"conll14.cor.{a}")
                  for a in (0, 1)]
    systems = SHARED / "conll14" / "systems"
    found += [(f"CoNLL-2014 {s}", systems / "INPUT", systems / s) for s in ("AMU", "CAMB", "CUUI")
              if (systems / s).is_file()]
    found += [(f"JFLEG dev ref{r}", SHARED / "jfleg" / "dev.src", SHARED / "jfleg" / f"dev.ref{r}")
              for r in range(4) if (SHARED / "jfleg" / f"dev.ref{r}").is_file()]
    found += [(f"GECCC {k}s", SHARED / "geccc" / f"{k}.input", SHARED / "geccc" / f"{k}.gold")
              for k in ("sentence", "paragraph") if (SHARED / "geccc" / f"{k}.gold").is_file()]
    return found


def round_trip(src: Path, tgt: Path, tags: Path, vocab: Path) -> tuple[int, int, int]:
    """(tag lines, equal token for token, equal but for whitespace): errtype's ``gector-to-text``
    of the tags against the corrections of the pairs GECToR keeps."""
    from errtype.convert.gector import Tagger, VerbForms
    from errtype.convert.gector_files import gector_to_text, tag_pair

    tagger = Tagger(VerbForms.read(vocab))
    text = tags.with_suffix(".txt")
    gector_to_text(tags, text, verbs=tagger.verbs)
    kept = [t for s, t in zip(src.read_text(encoding="utf-8").split("\n"),
                              tgt.read_text(encoding="utf-8").split("\n"), strict=False)
            if tag_pair(tagger, s, t)[0] is not None]
    read = text.read_text(encoding="utf-8").splitlines()
    if len(read) != len(kept):
        raise RuntimeError(f"{len(read)} tag lines for {len(kept)} pairs kept")
    exact = sum(r.split() == k.split() for r, k in zip(read, kept, strict=True))
    spaces = sum(r.split() != k.split() and "".join(r.split()) == "".join(k.split())
                 for r, k in zip(read, kept, strict=True))
    return len(read), exact, spaces


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gector", help="a checkout of grammarly/gector (default: $ERRTYPE_GECTOR)")
    p.add_argument("--vocab", type=Path, default=ROOT / "resources" / "verb-form-vocab.txt",
                   help="verb-form vocabulary for both tools (default: errtype's)")
    p.add_argument("--jobs", type=int, default=2, help="also time errtype with -j N (default 2)")
    p.add_argument("--all", type=int, default=1, metavar="N",
                   help="also run all pairs concatenated N times (default 1; 0 = skip)")
    args = p.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from peer_repos import bench_checkout

    checkout = bench_checkout("gector", args.gector)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        script, stood_in = extract_gector(checkout, tmp / "gector", args.vocab)
        print(f"GECToR: {checkout}" + (f" (stand-ins: {', '.join(stood_in)})" if stood_in else ""))
        print(f"vocabulary: {args.vocab}; CPU: {_cpu_model()}; Python {sys.version.split()[0]}")
        sets = corpora(tmp)
        if args.all:
            both = [tmp / "all.src", tmp / "all.tgt"]
            for path, part in zip(both, (1, 2), strict=True):
                with path.open("wb") as fh:
                    for _ in range(args.all):
                        for s in sets:
                            fh.write(_text(s[part]))
            sets.append((f"all pairs x{args.all}", *both))
        head = (f"{'corpus':<24} {'pairs':>6} {'kept':>6} {'GECToR wall/CPU s':>18} "
                f"{'errtype -j1':>13} {'-j' + str(args.jobs):>13} {'CPU ratio':>9} "
                f"{'identical':>9}  round trip")
        print(head)
        total = [0.0, 0.0]
        for label, src, tgt in sets:
            peer_out, ours_out, par_out = (tmp / f"{x}.tags" for x in ("peer", "ours", "par"))
            gw, gc, _ = run_gector(script, src, tgt, peer_out)
            ow, oc, _ = run_errtype(src, tgt, ours_out, args.vocab)
            pw, pc, _ = run_errtype(src, tgt, par_out, args.vocab, args.jobs)
            same = peer_out.read_bytes() == ours_out.read_bytes() == par_out.read_bytes()
            kept, exact, spaces = round_trip(src, tgt, ours_out, args.vocab)
            pairs = _text(src).count(b"\n")
            if label.startswith("all"):
                print("-" * len(head))
            else:
                total[0] += gc
                total[1] += oc
            print(f"{label:<24} {pairs:>6} {kept:>6} {gw:>8.2f} / {gc:>7.2f} "
                  f"{ow:>5.2f}/{oc:>6.2f} {pw:>5.2f}/{pc:>6.2f} {gc / oc:>8.2f}x "
                  f"{'yes' if same else 'NO':>9}  {exact}/{kept} exact, {spaces} spacing")
        print(f"sum over the corpora: GECToR {total[0]:.2f} CPU s, errtype {total[1]:.2f} CPU s "
              f"({total[0] / total[1]:.2f}x)")
    return 0


def _text(path: Path) -> bytes:
    data = path.read_bytes()
    return data if data.endswith(b"\n") or not data else data + b"\n"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
