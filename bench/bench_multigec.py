"""``errtype score --compat multigec`` against MultiGEC-2025's official scorer, side by side.

For each essay set (a folder holding ``orig.md``, ``ref1.md`` [``ref2.md`` ...] and system files,
as ``bench/essay_corpus.py`` writes them) and each system, both score the same files: TP, FP,
FN, P, R, F0.5 and GLEU, and the CPU seconds each took (user + system of the child processes:
errtype's CLI, and the official steps of ``bench/multigec_official.py``, which needs
``ERRTYPE_MULTIGEC_PYTHON`` and ``ERRTYPE_MULTIGEC_SCRIPTS``). A ``missing`` system (``partial``
without every third essay) checks the official ``!`` for essays a hypothesis lacks.

Usage: ``python bench/bench_multigec.py uk=DIR et=DIR [--systems partial merged split missing]
[--build N]`` (``--build N``: build N essays per language with ``bench/essay_corpus.py`` into a
temporary folder instead, ``uk``/``et``/``cs`` given without ``=DIR``).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from multigec_official import INSTALL, peer, run_official  # noqa: E402

SYSTEMS = ("partial", "merged", "split", "missing")
_HEADER = re.compile(r"^### essay_id = ", re.MULTILINE)


def drop_essays(src: Path, dst: Path, every: int = 3) -> None:
    """``src`` without every ``every``-th essay (the first kept)."""
    text = src.read_text(encoding="utf-8")
    starts = [m.start() for m in _HEADER.finditer(text)] + [len(text)]
    kept = [text[a:b] for k, (a, b) in enumerate(zip(starts, starts[1:], strict=False))
            if k % every != 1]
    dst.write_text("".join(kept), encoding="utf-8")


def references(folder: Path) -> list[Path]:
    """The reference files of an essay set that hold essays (ref1.md, ref2.md, ...)."""
    refs = sorted(folder.glob("ref[0-9]*.md"), key=lambda p: int(p.stem[3:]))
    return [r for r in refs if _HEADER.search(r.read_text(encoding="utf-8"))]


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_errtype(lang: str, folder: Path, system: Path) -> dict[str, Any]:
    """errtype's scores of one system (its CLI in a child process) and its CPU seconds."""
    cmd = [sys.executable, "-m", "errtype.cli.score", "-m", "errant", "gleu", "--compat",
           "multigec", "--lang", lang, "--src", str(folder / "orig.md"), "--ref",
           *map(str, references(folder)), "--hyp", f"{system.stem}={system}", "--tsv"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    cpu0 = _children_cpu()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    cpu = _children_cpu() - cpu0
    if done.returncode:
        raise RuntimeError(done.stderr)
    rows = [ln.split("\t") for ln in done.stdout.splitlines()[1:] if ln]
    head = done.stdout.splitlines()[0].split("\t")
    by = {r[1]: dict(zip(head, r, strict=True)) for r in rows}
    from errtype.score.compat.multigec import official_gleu_text

    e = by["errant"]
    return {"tp": int(e["tp"]), "fp": int(e["fp"]), "fn": int(e["fn"]), "p": float(e["p"]),
            "r": float(e["r"]), "f": float(e["f"]),
            "gleu": official_gleu_text(float(by["gleu"]["score"])), "cpu_s": round(cpu, 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="+", metavar="LANG=DIR")
    ap.add_argument("--systems", nargs="+", default=list(SYSTEMS))
    ap.add_argument("--build", type=int, default=None, metavar="N")
    args = ap.parse_args(argv)
    if peer() is None:
        print(f"skipped: {INSTALL}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-multigec-") as tmp:
        sets = []
        for spec in args.sets:
            lang, _, folder = spec.partition("=")
            if args.build:
                from essay_corpus import build  # bench/essay_corpus.py

                folder = str(Path(tmp) / lang)
                build(lang, folder, max_essays=args.build)
            sets.append((lang, Path(folder)))
        cols = ("tp", "fp", "fn", "p", "r", "f", "gleu")
        print("lang\tsystem\tessays\tside\t" + "\t".join(cols) + "\tcpu_s")
        total = {"errtype": 0.0, "official": 0.0}
        same = True
        for lang, folder in sets:
            n = len(_HEADER.findall((folder / "orig.md").read_text(encoding="utf-8")))
            for name in args.systems:
                system = folder / f"{name}.md"
                if name == "missing":
                    system = Path(tmp) / f"{lang}-missing" / "missing.md"
                    system.parent.mkdir(exist_ok=True)
                    drop_essays(folder / "partial.md", system)
                ours = run_errtype(lang, folder, system)
                theirs = run_official(lang, folder / "orig.md", references(folder), system)
                for side, res in (("errtype", ours), ("official", theirs)):
                    total[side] += res["cpu_s"]
                    print(f"{lang}\t{name}\t{n}\t{side}\t" +
                          "\t".join(str(res[c]) for c in cols) + f"\t{res['cpu_s']}")
                match = all(ours[c] == theirs[c] for c in cols)
                same &= match
                print(f"{lang}\t{name}\t{n}\tmatch\t{'identical' if match else 'DIFFERENT'}")
        ratio = total["official"] / total["errtype"] if total["errtype"] else float("inf")
        print(f"\nCPU seconds: errtype {total['errtype']:.2f}, official {total['official']:.2f}, "
              f"ratio {ratio:.1f}x; all identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
