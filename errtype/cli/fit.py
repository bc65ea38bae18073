"""errtype fit: learn a corpus profile from a gold-typed M2 in the corpus's own categories.

The profile holds the merge settings that best reproduce the gold's spans (span F1 over every
combination of errtype.merge.MergeSettings) and a logistic regression from errtype's edit
features to the corpus's categories, as plain JSON. Apply it with errtype-m2 --profile or
errtype.load(lang, profile=...). Generic UD languages only; needs scikit-learn (extra profile).
--cv K prints K-fold cross-validated agreement (micro, and macro over categories with >= 10
edits) and span F1, with a per-category table. docs/profiles.md.
"""

from __future__ import annotations

import argparse
import sys

from .common import (
    SPELLINGS,
    add_backend_options,
    backend_options,
    describe,
    details,
    new_parser,
    run,
)
from .files import OUTPUT, m2_input

PROG = "errtype fit"


def build_parser() -> argparse.ArgumentParser:
    p = new_parser(PROG, describe(__doc__), epilog=details(__doc__),
                   formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", type=m2_input("the gold must be M2 with the corpus's categories"),
                   help="gold M2 typed in the corpus's own categories")
    p.add_argument(*SPELLINGS["out"], dest="out", type=OUTPUT, default=None,
                   metavar="PROFILE.json", help="write the profile (JSON) here, atomically")
    p.add_argument("--annotator", type=int, default=0,
                   help="the gold annotator whose edits are learnt (default 0)")
    p.add_argument("--cv", type=int, default=0, metavar="K",
                   help="print K-fold cross-validated agreement and span F1 (folds by document)")
    add_backend_options(p)
    return p


def report(evaluation: object, out: object = sys.stdout) -> None:
    """The per-category table and the averages of an :class:`errtype.profile.fit.Evaluation`."""
    from ..profile.fit import MACRO_MIN

    ev = evaluation
    print(f"{'category':28} {'agree':>7} {'edits':>6} {'%':>6}", file=out)
    for cat, (a, n) in sorted(ev.per_category.items(), key=lambda kv: -kv[1][1]):  # type: ignore[attr-defined]
        print(f"{cat:28} {a:7} {n:6} {100 * a / n:6.1f}", file=out)
    print(f"micro {ev.micro:.1f}%  macro {ev.macro:.1f}% (categories with >= {MACRO_MIN} "  # type: ignore[attr-defined]
          f"edits)", file=out)
    d, p = ev.span_default, ev.span_profile  # type: ignore[attr-defined]
    print(f"span P/R/F1 default {d.p:.1f}/{d.r:.1f}/{d.f1:.1f}  profile "
          f"{p.p:.1f}/{p.r:.1f}/{p.f1:.1f}", file=out)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        import errtype

        from ..errors import InputError
        from ..profile.fit import cross_validate, fit, parse_gold
        from ..profile.spans import read_gold

        if not args.out and not args.cv:
            raise InputError("nothing to do: give -o PROFILE.json, --cv K or both")
        annotator = errtype.load(args.lang, **backend_options(args))
        sents = read_gold(args.gold, args.annotator)
        parsed = parse_gold(annotator, sents)
        if args.cv:
            if args.cv < 2:
                raise InputError("--cv needs at least 2 folds")
            print(f"{args.cv}-fold cross-validation on {args.gold}:")
            report(cross_validate(parsed, args.lang, args.cv))
        if args.out:
            profile = fit(parsed, args.lang, meta={"gold": str(args.gold).rsplit("/", 1)[-1]})
            profile.save(args.out)
            meta = profile.meta
            learned = "kept" if meta.get("span_learned") else "not kept"
            print(f"profile: {len(profile.classes)} categories, merge {profile.merge.to_dict()}, "
                  f"span F1 on the gold {meta['span_f1_default']} -> {meta['span_f1_fitted']}; "
                  f"learned spans {learned} (cross-validated span F1 "
                  f"{meta.get('span_cv_f1_switches')} -> {meta.get('span_cv_f1_learned')}); "
                  f"written to {args.out}", file=sys.stderr)
        return 0

    return run(PROG, body, args=args)


if __name__ == "__main__":
    raise SystemExit(main())
