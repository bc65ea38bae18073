"""errtype-m2 on MultiGEC Markdown essays, at the command line (issue 34): time and edit agreement.

On the essay sets of ``bench/essay_corpus.py`` (shared data: Ukrainian UA-GEC with the stand-in
``models/uk.udpipe``, Czech GECCC with spaCy's ``cs_core_news_sm``), one system's essays (the
``partial`` pseudo-system) and reference 1, each run a separate ``errtype-m2`` process (CPU:
user + system of the child, model loading included):

* ``sentences``: ``errtype-m2 -tok -orig sentences/orig.txt -cor sentences/X.txt`` (line-aligned
  sentences: what an essay-level run should reproduce);
* ``essays``: ``errtype-m2 -orig orig.md -cor X.md`` (essay-level M2, realigned);
* ``no-realign``: the same with ``--no-realign`` (each essay aligned as one sentence);
* ``official``: MultiGEC-2025's official pipeline on the system's essays
  (``bench/multigec_official.py``: syntok, ``errant_parallel`` of the references and of the
  hypothesis, ``errant_compare``, GLEU) when ``ERRTYPE_MULTIGEC_PYTHON`` and
  ``ERRTYPE_MULTIGEC_SCRIPTS`` name it; against it, errtype's ``essays`` run of the same files
  (references and hypothesis: ``-cor ref1.md ref2.md`` plus ``-cor partial.md``).

Agreement: the share of the sentence run's edits, as a multiset of (original words, corrected
words) of annotator 0, that the essay-level run also has.

``--paragraphs``: instead, GECCC dev's paragraphs (``geccc/paragraph.input`` and the first
correction of ``paragraph.gold``, one multi-sentence paragraph per line, raw text: ``-tok``,
spaCy's ``cs_core_news_sm``) through line-aligned ``errtype-m2``, realigned (the default) and with
``--no-realign``: the time of each and how many blocks differ.

Usage: ``python bench/bench_essays.py [--langs uk cs] [--max-essays N] [--no-official]
[--paragraphs [--lines N]]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
for p in (ROOT, BENCH):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import essay_corpus  # noqa: E402
import multigec_official  # noqa: E402

from errtype.m2 import read_m2  # noqa: E402

SHARED = essay_corpus.SHARED


def backend(lang: str) -> list[str]:
    """The parser options of ``lang``'s runs (as ``bench/bench_realign.py``)."""
    if lang == "uk":
        return ["--udpipe-model", str(SHARED.parent / "models" / "uk.udpipe")]
    return ["--spacy-model", "cs_core_news_sm"]


def cli(args: list[str]) -> dict[str, float]:
    """Run ``errtype-m2 ARGS`` as a child process: its CPU and wall seconds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "errtype.cli.m2", "-q", *args], env=env, check=True)
    wall = time.perf_counter() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru.ru_utime + ru.ru_stime - ru0.ru_utime - ru0.ru_stime
    return {"cpu_s": round(cpu, 2), "wall_s": round(wall, 2)}


def pairs(path: Path) -> Counter[tuple[str, str]]:
    """(original words, corrected words) of annotator 0's edits."""
    found: Counter[tuple[str, str]] = Counter()
    for b in read_m2(path):
        for e in b.edits:
            if e.annotator == 0 and not e.is_noop:
                found[(" ".join(b.tokens[e.start:e.end]), e.cor)] += 1
    return found


def agreement(sent: Path, essay: Path) -> float:
    ref, got = pairs(sent), pairs(essay)
    return round(100 * sum((ref & got).values()) / max(1, sum(ref.values())), 2)


def bench(lang: str, max_essays: int | None, official: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"essays-{lang}-") as tmp:
        d = Path(tmp)
        essay_corpus.build(lang, d, max_essays=max_essays)
        s = d / "sentences"
        opts = ["--lang", lang, *backend(lang)]
        out: dict[str, Any] = {"lang": lang, "essays": sum(
            1 for line in (d / "orig.md").open(encoding="utf-8")
            if line.startswith("### essay_id = ")),
            "sentences": sum(1 for _ in (s / "orig.txt").open(encoding="utf-8"))}
        for name in ("ref1", "partial"):
            row: dict[str, Any] = {}
            row["sentences"] = cli([*opts, "-tok", "-orig", str(s / "orig.txt"), "-cor",
                                    str(s / f"{name}.txt"), "-o", str(d / f"{name}.sent.m2")])
            row["essays"] = cli([*opts, "-orig", str(d / "orig.md"), "-cor",
                                 str(d / f"{name}.md"), "-o", str(d / f"{name}.essay.m2")])
            row["no-realign"] = cli([*opts, "--no-realign", "-orig", str(d / "orig.md"),
                                     "-cor", str(d / f"{name}.md"),
                                     "-o", str(d / f"{name}.whole.m2")])
            row["essays/sentences cpu"] = round(
                row["essays"]["cpu_s"] / row["sentences"]["cpu_s"], 2)
            row["agreement %"] = agreement(d / f"{name}.sent.m2", d / f"{name}.essay.m2")
            row["agreement % no-realign"] = agreement(d / f"{name}.sent.m2",
                                                      d / f"{name}.whole.m2")
            out[name] = row
        if official and multigec_official.peer() is not None:
            model = SHARED.parent / "models" / f"{lang}.udpipe"
            off = multigec_official.run_official(
                lang, d / "orig.md", [d / "ref1.md", d / "ref2.md"], d / "partial.md",
                model=model if model.exists() else None)
            refs = cli([*opts, "-orig", str(d / "orig.md"), "-cor", str(d / "ref1.md"),
                        str(d / "ref2.md"), "-o", str(d / "refs.essay.m2")])
            mine = out["partial"]["essays"]["cpu_s"] + refs["cpu_s"]
            out["official"] = {"cpu_s": off["cpu_s"], "wall_s": off["wall_s"],
                               "errtype essays refs+hyp cpu_s": round(mine, 2),
                               "official/errtype cpu": round(off["cpu_s"] / mine, 1),
                               "official/errtype hyp-only cpu": round(
                                   off["cpu_s"] / out["partial"]["essays"]["cpu_s"], 1)}
        return out


def paragraphs(lines: int | None) -> dict[str, Any]:
    """GECCC dev paragraphs, line-aligned, with and without realignment (module docstring)."""
    src = SHARED / "geccc"
    orig = (src / "paragraph.input").read_text(encoding="utf-8").splitlines()
    gold = [x.split("\t")[0] for x in
            (src / "paragraph.gold").read_text(encoding="utf-8").splitlines()]
    if lines is not None:
        orig, gold = orig[:lines], gold[:lines]
    with tempfile.TemporaryDirectory(prefix="paragraphs-") as tmp:
        d = Path(tmp)
        (d / "o.txt").write_text("\n".join(orig) + "\n", encoding="utf-8")
        (d / "c.txt").write_text("\n".join(gold) + "\n", encoding="utf-8")
        opts = ["--lang", "cs", *backend("cs"), "-tok", "-orig", str(d / "o.txt"), "-cor",
                str(d / "c.txt")]
        out: dict[str, Any] = {"lines": len(orig)}
        out["realign"] = cli([*opts, "-o", str(d / "re.m2")])
        out["no-realign"] = cli([*opts, "--no-realign", "-o", str(d / "whole.m2")])
        a, b = list(read_m2(d / "re.m2")), list(read_m2(d / "whole.m2"))
        assert len(a) == len(b) == len(orig)
        out["blocks differing"] = sum((x.source, x.edits) != (y.source, y.edits)
                                     for x, y in zip(a, b, strict=True))
        out["edits realign"] = sum(not e.is_noop for x in a for e in x.edits)
        out["edits no-realign"] = sum(not e.is_noop for x in b for e in x.edits)
        return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--langs", nargs="+", default=["uk", "cs"])
    ap.add_argument("--max-essays", type=int, default=None)
    ap.add_argument("--no-official", action="store_true")
    ap.add_argument("--paragraphs", action="store_true")
    ap.add_argument("--lines", type=int, default=None)
    args = ap.parse_args(argv)
    if args.paragraphs:
        print(json.dumps(paragraphs(args.lines), indent=1))
        return 0
    for lang in args.langs:
        print(json.dumps(bench(lang, args.max_essays, not args.no_official), indent=1),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
