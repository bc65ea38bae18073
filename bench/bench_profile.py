"""Corpus profiles (issue 35): fitted on one half of a gold corpus, scored on the other half.

For each corpus: span P/R/F1 of (start, end, correction) against annotator 0's human edits
(errtype's default granularity, the fitted profile's: merge switches and learned span step, and
the MultiGEC-2025 ERRANT baseline, English rules over bare words,
:mod:`errtype.score.compat.multigec`), and agreement of the types
with the corpus's own categories on the gold spans: the profile's, side by side with the generic
classifier read through the hand-written mapping ``shared/tools/type_agreement.py --fine``
(UA-GEC and EstGEC). Halves are disjoint: by document (UA-GEC), by block order otherwise.

    python bench/bench_profile.py [uk et cs en] [--limit N]

Data: ``$ERRTYPE_SHARED`` (default ``../shared``): ``data/multilingual/{uagec,estgec}.dev.m2``,
``data/geccc/sentence.m2`` (Czech, typed here by the generic UD classifier, not the Czech
pack), ``data/conll14/official-2014.combined.m2`` (English NUCLE categories, typed by the
generic UD classifier over spaCy's UD tags), models ``models/{uk,et,cs}.udpipe``. Needs
scikit-learn (``pip install 'errtype[profile]'``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.annotator import Annotator  # noqa: E402
from errtype.lang.ud import UDLanguage  # noqa: E402
from errtype.m2 import edit_line  # noqa: E402
from errtype.profile.fit import evaluate, fit, parse_gold  # noqa: E402
from errtype.profile.spans import halves, read_gold, span_prf  # noqa: E402

SHARED = Path(os.environ.get("ERRTYPE_SHARED", ROOT.parent / "shared"))
#: code -> (gold M2 under data/, UDPipe model or None for spaCy, type_agreement scheme)
CORPORA = {
    "uk": ("multilingual/uagec.dev.m2", "uk.udpipe", "uagec"),
    "et": ("multilingual/estgec.dev.m2", "et.udpipe", "estgec"),
    "cs": ("geccc/sentence.m2", "cs.udpipe", None),
    "en": ("conll14/official-2014.combined.m2", None, None),
}


def mapped_agreement(scheme: str, test: list, tmp: Path) -> tuple[float, float] | None:
    """(micro, macro) of the generic classifier's types through the hand-written mapping."""
    tool = SHARED / "tools" / "type_agreement.py"
    if not tool.exists():
        return None
    gold, ours = [], []
    for p in test:
        src = "S " + " ".join(p.gold.tokens)
        g = [edit_line(e.start, e.end, e.category, e.cor or "-NONE-") for e in p.gold.edits]
        o = [edit_line(e.start, e.end, t, e.cor or "-NONE-")
             for e, (t, _) in zip(p.gold.edits, p.examples, strict=True)]
        gold.append("\n".join([src, *g]))
        ours.append("\n".join([src, *o]))
    (tmp / "gold.m2").write_text("\n\n".join(gold) + "\n", encoding="utf-8")
    (tmp / "ours.m2").write_text("\n\n".join(ours) + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(tool), scheme, str(tmp / "gold.m2"),
                          str(tmp / "ours.m2"), "--fine"], capture_output=True, text=True,
                         check=True).stdout
    found = re.search(r"micro ([\d.]+)% macro ([\d.]+)%", out)
    return (float(found[1]), float(found[2])) if found else None


def baseline_spans(test: list) -> object:
    """Span P/R/F1 of the MultiGEC-2025 ERRANT baseline on the test sentences."""
    from errtype.score.compat.multigec import annotator

    ann = annotator()
    found = []
    for p in test:
        o = ann.parser.parse(" ".join(p.gold.tokens))
        c = ann.parser.parse(" ".join(p.gold.cor_tokens))
        found.append([(e.o_start, e.o_end, e.c_str) for e in ann.annotate(o, c, merge_run_limit=0)]
                     if p.gold.tokens != p.gold.cor_tokens else [])
    return span_prf([[e.key for e in p.gold.edits] for p in test], found)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="*", default=["uk", "et", "cs", "en"])
    ap.add_argument("--limit", type=int, default=3000,
                    help="at most N blocks of a corpus (default 3000)")
    args = ap.parse_args()
    rows = []
    for code in args.corpora:
        name, model, scheme = CORPORA[code]
        gold_path = SHARED / "data" / name
        if not gold_path.exists():
            print(f"{code}: {gold_path} missing, skipped")
            continue
        t0 = time.time()
        options = {"udpipe_model": str(SHARED / "models" / model)} if model else {}
        ann = Annotator(UDLanguage(code), **options)
        gold = read_gold(gold_path)[:args.limit]
        first, second = halves(gold)
        train, test = parse_gold(ann, first), parse_gold(ann, second)
        profile = fit(train, code)
        ev = evaluate(profile, test)
        base = baseline_spans(test)
        with tempfile.TemporaryDirectory() as tmp:
            mapped = mapped_agreement(scheme, test, Path(tmp)) if scheme else None
        in_map = None
        if scheme:
            cats = _scheme_categories(scheme)
            per = {k: v for k, v in ev.per_category.items() if k in cats}
            n = sum(v[1] for v in per.values())
            big = [a / m for a, m in per.values() if m >= 10]
            in_map = (100 * sum(v[0] for v in per.values()) / max(1, n),
                      100 * sum(big) / max(1, len(big)))
        rows.append((code, len(first), len(second), ev, base, mapped, in_map, profile,
                     time.time() - t0))
        print(f"{code}: done in {time.time() - t0:.0f}s", file=sys.stderr)
    print("\nSpan P/R/F1 against annotator 0 (test half); profile fitted on the other half")
    print(f"{'corpus':7} {'train/test':>11} {'MultiGEC ERRANT':>17} {'errtype default':>17} "
          f"{'profile':>17}  merge settings fitted; learner (C, class-weight balance)")
    for code, na, nb, ev, base, _, _, prof, _ in rows:
        d, p = ev.span_default, ev.span_profile
        on = ",".join(k for k, v in prof.merge.to_dict().items() if v) or "(default)"
        if prof.spans is not None:
            parts = [k for k in ("split", "join") if getattr(prof.spans, k) is not None]
            on += f" + learned {'+'.join(parts)}"
        print(f"{code:7} {na:5}/{nb:<5} {base.p:5.1f}/{base.r:4.1f}/{base.f1:4.1f}  "
              f"{d.p:5.1f}/{d.r:4.1f}/{d.f1:4.1f}  {p.p:5.1f}/{p.r:4.1f}/{p.f1:4.1f}  {on}; "
              f"C={prof.meta['c']}, balance={prof.meta['balance']}")
    print("\nAgreement with the corpus's own categories on the gold spans (test half), micro/macro")
    print(f"{'corpus':7} {'generic + mapping':>18} {'profile (mapped cats)':>22} "
          f"{'profile (all cats)':>19}")
    for code, _, _, ev, _, mapped, in_map, _, _ in rows:
        m = f"{mapped[0]:5.1f} / {mapped[1]:5.1f}" if mapped else "   n/a"
        i = f"{in_map[0]:5.1f} / {in_map[1]:5.1f}" if in_map else "   n/a"
        print(f"{code:7} {m:>18} {i:>22} {ev.micro:8.1f} / {ev.macro:5.1f}")
    for code, _, _, ev, _, _, _, _, _ in rows:
        print(f"\n{code}: per category (profile, test half)")
        for cat, (a, n) in sorted(ev.per_category.items(), key=lambda kv: -kv[1][1])[:25]:
            print(f"  {cat:28} {a:5}/{n:<5} {100 * a / n:5.1f}%")
    return 0


def _scheme_categories(scheme: str) -> set[str]:
    """The categories the hand-written mapping covers (read from the tool's source)."""
    text = (SHARED / "tools" / "type_agreement.py").read_text(encoding="utf-8")
    block = text.split(f'"{scheme}": {{', 1)[1].split("},\n", 1)[0]
    return set(re.findall(r'"([^"]+)": \(', block))


if __name__ == "__main__":
    raise SystemExit(main())
