"""errtype's ``cherrant`` metric beside ChERRANT's own scorer, in one process: the same printed
text for every flag combination on every file pair, and the CPU seconds of each.

ChERRANT's ``compare_m2_for_evaluation.py`` (HillZhang1999/MuCGEC, ``scorers/ChERRANT``,
Apache-2.0) is pure Python: it is read from a checkout of that repository named by ``--cherrant
DIR`` or ``$ERRTYPE_CHERRANT`` (``git clone https://github.com/HillZhang1999/MuCGEC``; see
``bench/peer_repos.py``), copied to a temporary folder and imported from there; it is never part
of errtype.

File pairs: the hand-built files ``tests/data/cherrant/{hyp,ref}.m2`` (every flag's case), the
demo pairs ChERRANT ships (``samples/demo.{hyp,ref}.m2.{char,word}``), and for speed the NLPCC-2018
test reference (2,000 sentences, ``samples/nlpcc2018_official.ref.m2.char``) against a hypothesis
derived from it (:func:`derived_hypothesis`).

    python bench/cherrant_scorer.py [--cherrant DIR] [--repeat R] [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import itertools
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_scorers import timed  # noqa: E402
from peer_repos import bench_checkout  # noqa: E402

from errtype.errors import InputError  # noqa: E402
from errtype.m2 import M2Block, M2Edit, read_m2, write_m2  # noqa: E402
from errtype.score.edits.cherrant import cherrant_score  # noqa: E402

SCRIPT = "scorers/ChERRANT/compare_m2_for_evaluation.py"
SAMPLES = "scorers/ChERRANT/samples"
HAND = ROOT / "tests" / "data" / "cherrant"

#: flag sets run on every pair (ChERRANT's spelling); the hand-built pair gets the full grid
BASIC: list[list[str]] = [[], ["-cat", "1"], ["-cat", "2"], ["-cat", "3"], ["-ds", "-cat", "3"],
                          ["-dt", "-cat", "3"], ["-cse", "-cat", "2"]]


def flag_grid() -> list[list[str]]:
    """Every mode x -cat level x single/multi x max_answer_num x reference_num, plus beta,
    -filt and --start/--end cases."""
    modes = [[], ["-cs"], ["-cse"], ["-ds"], ["-dt"]]
    cats: list[list[str]] = [[], ["-cat", "1"], ["-cat", "2"], ["-cat", "3"]]
    spans: list[list[str]] = [[], ["-single"], ["-multi"]]
    answers: list[list[str]] = [[], ["--max_answer_num", "1"], ["--max_answer_num", "2"],
                                ["--max_answer_num", "3"]]
    refs: list[list[str]] = [[], ["--reference_num", "1"], ["--reference_num", "2"]]
    grid = [sum(c, []) for c in itertools.product(modes, cats, spans, answers, refs)]
    grid += [["-b", "1.0"], ["-b", "2", "-cat", "3"], ["-b", "0.25", "-ds"],
             ["-filt", "S:SPELL", "UNK", "-cat", "3"], ["-filt", "noop"], ["-filt", "NA"],
             ["-dt", "-filt", "NA"], ["--start", "2", "--end", "7", "-cat", "3"],
             ["--start", "0", "--end", "1"], ["--start", "3", "--end", "100"],
             ["--start", "-4", "--end", "-1"], ["-single", "-multi"]]
    return grid


# ------------------------------------------------------------------------------- the peer


def load_peer(folder: Path, checkout: Path) -> ModuleType:
    """ChERRANT's scorer of the MuCGEC ``checkout`` copied into ``folder`` and imported."""
    path = folder / "compare_m2_for_evaluation.py"
    path.write_bytes((checkout / SCRIPT).read_bytes())
    spec = importlib.util.spec_from_file_location("cherrant_compare_m2", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_peer(peer: ModuleType, hyp: Path, ref: Path, flags: Sequence[str]) -> str:
    """What ``compare_m2_for_evaluation.py -hyp HYP -ref REF FLAGS`` prints (in this process)."""
    argv = sys.argv
    buf = io.StringIO()
    try:
        sys.argv = ["compare_m2_for_evaluation.py", "-hyp", str(hyp), "-ref", str(ref), *flags]
        with contextlib.redirect_stdout(buf):
            peer.main()
    finally:
        sys.argv = argv
    return buf.getvalue()


# ------------------------------------------------------------------------------- errtype


def options(flags: Sequence[str]) -> dict[str, Any]:
    """ChERRANT's command-line flags as :func:`cherrant_score` keyword arguments."""
    out: dict[str, Any] = {}
    it = iter(flags)
    for flag in it:
        if flag in ("-cs", "-cse", "-ds", "-dt"):
            out["mode"] = flag[1:]
        elif flag in ("-single", "-multi"):
            out[flag[1:]] = True
        elif flag in ("-b", "--beta"):
            out["beta"] = float(next(it))
        elif flag == "-filt":
            rest = list(it)
            out["filt"] = tuple(itertools.takewhile(lambda f: not f.startswith("-"), rest))
            return {**out, **options(rest[len(out["filt"]):])}
        else:
            key = {"-cat": "cat", "--max_answer_num": "max_answer_num",
                   "--reference_num": "reference_num", "--start": "start",
                   "--end": "end"}[flag]
            value = int(next(it))
            out[key] = value
    if ("start" in out) != ("end" in out):
        raise ValueError("ChERRANT slices only with both --start and --end")
    return out


def run_errtype(hyp: Path | list[M2Block], ref: Path | list[M2Block], flags: Sequence[str]
                ) -> str:
    """errtype's ChERRANT text for the same flags."""
    return cherrant_score(hyp, ref, **options(flags)).errant_text()


#: the counts and scores ChERRANT prints when its selection leaves no sentence to score
EMPTY_SELECTION = "\n0\t0\t0\t1.0\t1.0\t1.0\n"


def same_as_peer(peer: Any, hyp: Path, ref: Path, flags: Sequence[str],
                 blocks: tuple[list[M2Block], list[M2Block]] | None = None) -> bool | None:
    """Whether errtype prints ChERRANT's text for these flags; None where errtype refuses a
    selection that leaves no sentence to score and ChERRANT prints P = R = F = 1.0 for it (the
    one deliberate difference); ``blocks``: the files already read."""
    theirs = run_peer(peer, hyp, ref, flags)
    try:
        ours = run_errtype(*(blocks or (hyp, ref)), flags)
    except InputError as exc:
        if "no sentence to score" in str(exc) and EMPTY_SELECTION in theirs:
            return None
        raise
    return ours == theirs


# ------------------------------------------------------------------------------- speed input


def derived_hypothesis(blocks: Sequence[M2Block]) -> Iterator[M2Block]:
    """A system-like hypothesis from a reference: annotator 1's first edit sequence where there
    is one, else annotator 0's with every other edit left out; corrections kept as written."""
    for b in blocks:
        std = b.to_standard()
        by = std.edits_by_annotator()
        if 1 in by:
            edits = [e._replace(annotator=0) for e in by[1]]
        else:
            own = [e for e in by.get(0, []) if not e.is_noop]
            edits = own[::2] or [M2Edit.noop(0)]
        yield M2Block(b.source, edits)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cherrant", type=Path, help="a checkout of HillZhang1999/MuCGEC "
                                                  "(default: $ERRTYPE_CHERRANT)")
    ap.add_argument("--repeat", type=int, default=5, help="timing runs, best kept (default 5)")
    ap.add_argument("--quick", action="store_true", help="the basic flag sets only")
    args = ap.parse_args(argv)
    checkout = bench_checkout("cherrant", args.cherrant)
    samples = checkout / SAMPLES
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        peer = load_peer(folder, checkout)
        pairs: list[tuple[str, Path, Path, list[list[str]]]] = [
            ("hand-built", HAND / "hyp.m2", HAND / "ref.m2",
             BASIC if args.quick else flag_grid())]
        for g in ("char", "word"):
            pairs.append((f"demo {g}", samples / f"demo.hyp.m2.{g}",
                          samples / f"demo.ref.m2.{g}", BASIC))
        nlpcc = samples / "nlpcc2018_official.ref.m2.char"
        derived = folder / "nlpcc2018.derived.hyp.m2.char"
        write_m2(derived_hypothesis(list(read_m2(nlpcc))), derived)
        pairs.append(("NLPCC-2018 char (derived hyp)", derived, nlpcc, BASIC))
        print("== identical output (ChERRANT's printed text, byte for byte) ==")
        print("pair\tflag sets\tidentical\tfirst difference")
        failures = 0
        for name, hyp, ref, grid in pairs:
            same, refused, first = 0, 0, ""
            for flags in grid:
                verdict = same_as_peer(peer, hyp, ref, flags)
                if verdict is None:
                    refused += 1
                elif verdict:
                    same += 1
                elif not first:
                    first = " ".join(flags) or "(defaults)"
            failures += len(grid) - same - refused
            print(f"{name}\t{len(grid)}\t{same} (+{refused} empty selections refused)\t"
                  f"{first or '-'}")
        print(f"\n== CPU seconds, best of {args.repeat} (files: reading and scoring; blocks: "
              f"scoring M2 already read, as errtype score does once for every metric) ==")
        print("pair\tflags\tChERRANT s (files)\terrtype s (files)\tratio\t"
              "errtype s (blocks)\tratio")
        for name, hyp, ref, _ in pairs[1:]:
            hb, rb = list(read_m2(hyp)), list(read_m2(ref))
            for flags in ([], ["-cat", "3"], ["-dt"]):
                tp, _ = timed(lambda h=hyp, r=ref, f=flags: run_peer(peer, h, r, f), args.repeat)
                te, _ = timed(lambda h=hyp, r=ref, f=flags: run_errtype(h, r, f), args.repeat)
                tb, _ = timed(lambda h=hb, r=rb, f=flags: run_errtype(h, r, f), args.repeat)
                print(f"{name}\t{' '.join(flags) or '-'}\t{tp:.4f}\t{te:.4f}\t{tp / te:.2f}x\t"
                      f"{tb:.4f}\t{tp / tb:.2f}x")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
