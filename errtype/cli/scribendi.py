"""``errtype-scribendi``: the reference-free Scribendi score of one or more systems.

    errtype-scribendi SOURCE SYSTEM [SYSTEM ...] [--lm default|sphinx:P|arpa:P|kenlm:P|hf:gpt2]

Prints one row per system (sum, mean, counts of +1/0/−1) and the signature; ``--json FILE``
writes every result with per-sentence values, ``--sentences FILE`` a per-sentence TSV. Lines are
stripped of surrounding whitespace before comparison (``--keep-whitespace`` to disable).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..score.lm.scribendi import TSR_MODES
from ..score.registry import get_metric
from ..textio import atomic_output, read_parallel
from .common import add_output_option, describe, new_parser, run
from .files import OUTPUT, text_input

PROG = "errtype-scribendi"
M2_NOT_TEXT = "the Scribendi score compares plain text: SOURCE and SYSTEM outputs, one " \
              "sentence per line (errtype convert m2-to-text turns M2 into text)"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__))
    p.add_argument("source", type=text_input(M2_NOT_TEXT), help="source sentences, one per line")
    p.add_argument("systems", nargs="+", type=text_input(M2_NOT_TEXT),
                   help="system outputs, parallel to the source")
    p.add_argument("--lm", default="default",
                   help="language model: default (pocketsphinx English trigram), sphinx:PATH, "
                        "arpa:PATH, kenlm:PATH, hf:NAME_OR_DIR (default: default)")
    p.add_argument("--threshold", type=float, default=0.8,
                   help="similarity threshold on max(TSR, LDR) (default: 0.8)")
    p.add_argument("--tsr", choices=TSR_MODES, default="fuzzywuzzy",
                   help="token-sort ratio: fuzzywuzzy integer percentage (default), difflib "
                        "(fuzzywuzzy without python-Levenshtein) or float (rapidfuzz)")
    p.add_argument("--batch-size", type=int, default=None, help="LM batch size")
    p.add_argument("--lowercase", action="store_true",
                   help="lowercase text for arpa:/kenlm: models")
    p.add_argument("--local-files-only", action="store_true",
                   help="hf: never download (use the local cache or a directory)")
    p.add_argument("--device", default="cpu", help="torch device for hf: models")
    p.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], default=None,
                   help="hf: weights' type (default float32; half types on a GPU)")
    p.add_argument("--keep-whitespace", action="store_true",
                   help="compare lines exactly as read (no strip)")
    add_output_option(p, "the scores")
    p.add_argument("--json", metavar="FILE", type=OUTPUT,
                   help="write all results as JSON (- = stdout)")
    p.add_argument("--sentences", metavar="FILE", type=OUTPUT,
                   help="write per-sentence scores as TSV (- = stdout)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        rows = [texts for _, texts in read_parallel([args.source, *args.systems])]
        if not args.keep_whitespace:
            rows = [[t.strip() for t in r] for r in rows]
        scorer = get_metric("scribendi", lm=args.lm, threshold=args.threshold, tsr=args.tsr,
                            batch_size=args.batch_size, lowercase=args.lowercase,
                            local_files_only=args.local_files_only,
                            device=args.device, dtype=args.dtype).scorer()
        src = [r[0] for r in rows]
        names = _names(args.systems)
        results = {name: scorer.score(src, [r[k + 1] for r in rows])
                   for k, name in enumerate(names)}
        print("system\tscore\tmean\tn\t+1\t0\t-1")
        for name, res in results.items():
            c = res.corpus
            print(f"{name}\t{c['score']}\t{c['mean']:.4f}\t{c['n']}\t{c['plus']}\t{c['zero']}"
                  f"\t{c['minus']}")
        print(scorer.signature())
        if args.sentences:
            with atomic_output(args.sentences) as fh:
                fh.write("system\tindex\tscore\treason\tppl_src\tppl_hyp\ttsr\tldr\n")
                for name, res in results.items():
                    for i, s in enumerate(res.sentences):
                        vals = [s.get(k, "") for k in ("ppl_src", "ppl_hyp", "tsr", "ldr")]
                        fh.write(f"{name}\t{i}\t{s['score']}\t{s['reason']}\t"
                                 + "\t".join(f"{v:.4f}" if v != "" else "" for v in vals)
                                 + "\n")
        if args.json:
            with atomic_output(args.json) as fh:
                json.dump({n: r.to_dict() for n, r in results.items()}, fh, indent=1,
                          ensure_ascii=False)
                fh.write("\n")
        sys.stdout.flush()
        return 0

    return run(PROG, body, args=args, stdout_to=args.out)


def _names(paths: list[str]) -> list[str]:
    """System names: file names, or full paths when file names repeat."""
    base = [Path(p).name for p in paths]
    return base if len(set(base)) == len(base) else list(paths)


if __name__ == "__main__":
    raise SystemExit(main())
