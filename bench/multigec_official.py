"""Peer runner: MultiGEC-2025's official GLEU + ERRANT scoring of Markdown essays, step by step.

Runs, in a separate Python environment holding the official tools, what the official
``gleu_errant_evaluation.py`` runs for one corpus and one hypothesis file:

1. the official ``utils_transform_markdown_to_one_essay_per_line.process_corpus_files`` (syntok
   pre-tokenisation, one essay per line, ``!`` for a missing essay) on the hypothesis, and on the
   references with ``copy_sub1=True`` (the reference ``.tmp`` files are stored with the official
   data; that is how its docstring says references are made); the orig ``.tmp`` from its
   ``md_to_dict``;
2. ``errant_parallel -orig ORIG.tmp -cor REF1.tmp ... -lang L`` and ``errant_parallel -orig
   ORIG.tmp -cor HYP.tmp -lang L`` of the fork cainesap/errant;
3. ``errant_compare -hyp HYP.m2 -ref REF.m2`` and ``gleu -s ORIG.tmp -r REF... -o HYP.tmp -d 4
   -f -n 4 -t word``.

The CPU seconds are those of the child processes (user + system). Set up the peer with::

    python3 -m venv multigec && multigec/bin/pip install spacy-udpipe syntok spacy-conll regex \\
        pandas gleu==1.1.0
    git clone https://github.com/cainesap/errant && multigec/bin/pip install -e errant
    git clone https://github.com/spraakbanken/multigec-2025
    export ERRTYPE_MULTIGEC_PYTHON=$PWD/multigec/bin/python
    export ERRTYPE_MULTIGEC_SCRIPTS=$PWD/multigec-2025/scripts/local_eval/gleu_errant

(the fork's German word list is not needed: its English classifier types every language).
The fork loads ``spacy_udpipe_models`` from the working directory, as the official README's
setup leaves it (an empty folder); ``model=`` puts a UDPipe 1 model file there instead, which the
fork loads but, replacing spacy-udpipe's tokenizer before every parse, never runs.

Usage: ``python bench/multigec_official.py LANG ORIG.md HYP.md REF1.md [REF2.md ...]
[--model M.udpipe] [--workdir DIR]`` prints the result as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PYTHON_ENV = "ERRTYPE_MULTIGEC_PYTHON"
SCRIPTS_ENV = "ERRTYPE_MULTIGEC_SCRIPTS"
#: how to set the peer up (the skip reason of the tests that need it)
INSTALL = (f"set {PYTHON_ENV} to the python of a venv with the official tools (python3 -m venv "
           "multigec && multigec/bin/pip install spacy-udpipe syntok spacy-conll regex pandas "
           "gleu==1.1.0 && git clone https://github.com/cainesap/errant && multigec/bin/pip "
           f"install -e errant) and {SCRIPTS_ENV} to scripts/local_eval/gleu_errant of git clone "
           "https://github.com/spraakbanken/multigec-2025")
CORPUS = "xx-bench"  # the official file names: {corpus}-orig-dev.md, {corpus}-hypo1-dev.tmp

_CONVERT = """
import sys
sys.path.insert(0, sys.argv[1])
import utils_transform_markdown_to_one_essay_per_line as u
ref, res, refsrc, corpus = sys.argv[2:6]
with open(f"{ref}/{corpus}-orig-dev.md") as fh:
    essays = u.md_to_dict(fh.read())
with open(f"{ref}/{corpus}-orig-dev.tmp", "w") as out:
    for txt in essays.values():
        out.write(txt.replace("\\n", "\\t") + "\\n")
u.process_corpus_files(ref, res, corpus, "dev")
u.process_corpus_files(ref, refsrc, corpus, "dev", copy_sub1=True)
"""

_TABLE = re.compile(r"TP\tFP\tFN\tPrec\tRec\tF[\d.]+\n(\d+)\t(\d+)\t(\d+)\t(\S+)\t(\S+)\t(\S+)")


def peer() -> tuple[str, str] | None:
    """(python, scripts folder) of the peer, or None when the environment does not name them."""
    py, scripts = os.environ.get(PYTHON_ENV), os.environ.get(SCRIPTS_ENV)
    if not py or not scripts or not Path(py).exists() or not Path(scripts).is_dir():
        return None
    return py, scripts


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _run(cmd: Sequence[str], cwd: Path) -> str:
    done = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout


def run_official(lang: str, orig: str | Path, refs: Sequence[str | Path], hyp: str | Path,
                 workdir: str | Path | None = None, model: str | Path | None = None
                 ) -> dict[str, Any]:
    """The official scores of ``hyp`` (TP, FP, FN, P, R, F0.5 as errant_compare prints them,
    GLEU as ``gleu -d 4`` prints it) and the CPU seconds of the official steps."""
    found = peer()
    if found is None:
        raise RuntimeError(INSTALL)
    py, scripts = found
    bindir = Path(py).parent
    tmp = None
    if workdir is None:
        tmp = tempfile.mkdtemp(prefix="multigec-official-")
        workdir = tmp
    work = Path(workdir)
    try:
        ref_dir, res_dir, refsrc = work / "ref", work / "res", work / "refsrc"
        for d in (ref_dir, res_dir, refsrc):
            d.mkdir(parents=True, exist_ok=True)
        models = work / "spacy_udpipe_models"
        if model is None:
            models.mkdir(exist_ok=True)
        elif not models.exists():
            models.symlink_to(Path(model).resolve())
        shutil.copyfile(orig, ref_dir / f"{CORPUS}-orig-dev.md")
        shutil.copyfile(hyp, res_dir / f"{CORPUS}-hypo1-dev.md")
        for k, r in enumerate(refs, 1):
            shutil.copyfile(r, refsrc / f"{CORPUS}-ref{k}-dev.md")
        cpu0, t0 = _children_cpu(), time.perf_counter()
        _run([py, "-c", _CONVERT, scripts, str(ref_dir), str(res_dir), str(refsrc), CORPUS], work)
        orig_tmp = ref_dir / f"{CORPUS}-orig-dev.tmp"
        hyp_tmp = res_dir / f"{CORPUS}-hypo1-dev.tmp"
        ref_tmps = [str(refsrc / f"{CORPUS}-hypo{k}-dev.tmp") for k in range(1, len(refs) + 1)]
        gleu_out = _run([str(bindir / "gleu"), "-s", str(orig_tmp), "-r", *ref_tmps, "-o",
                         str(hyp_tmp), "-d", "4", "-f", "-n", "4", "-t", "word"], work)
        parallel = str(bindir / "errant_parallel")
        _run([parallel, "-orig", str(orig_tmp), "-cor", *ref_tmps, "-out", "ref.m2", "-lang",
              lang], work)
        _run([parallel, "-orig", str(orig_tmp), "-cor", str(hyp_tmp), "-out", "hyp.m2",
              "-lang", lang], work)
        compare = _run([str(bindir / "errant_compare"), "-hyp", "hyp.m2", "-ref", "ref.m2"],
                       work)
        cpu, wall = _children_cpu() - cpu0, time.perf_counter() - t0
        m = _TABLE.search(compare)
        if m is None:
            raise RuntimeError(f"no score table in errant_compare's output:\n{compare}")
        tp, fp, fn = (int(x) for x in m.groups()[:3])
        p, r, f = (float(x) for x in m.groups()[3:])
        return {"tp": tp, "fp": fp, "fn": fn, "p": p, "r": r, "f": f,
                "gleu": gleu_out.split()[1], "cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lang")
    ap.add_argument("orig")
    ap.add_argument("hyp")
    ap.add_argument("refs", nargs="+")
    ap.add_argument("--model", help="UDPipe 1 model file put where the fork loads it from")
    ap.add_argument("--workdir", help="keep the official intermediate files here")
    args = ap.parse_args(argv)
    print(json.dumps(run_official(args.lang, args.orig, args.refs, args.hyp, args.workdir,
                                  args.model), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
