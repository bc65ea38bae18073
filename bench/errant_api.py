"""Side-by-side: ERRANT 3.0.2's Python API vs errtype.errant (the drop-in), in one process.

Both run on the same parsed spaCy Docs (parsed once by the shim); ``annotate`` (align + merge +
classify) is timed for each, and every edit (spans, strings, type, M2 line) is compared.

    python bench/errant_api.py [--pairs N] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_m2 import load_pairs, peer_errant  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    errant = peer_errant()
    if errant is None:
        return 1
    import errtype.errant as shim

    pairs = load_pairs(Path(args.data), args.pairs)
    ours = shim.load("en")
    peer = errant.load("en", ours.nlp)
    t0 = time.perf_counter()
    docs = [(ours.parse(o), ours.parse(c)) for o, c in pairs]
    t_parse = time.perf_counter() - t0

    def run(annotator: object) -> tuple[float, list[list[str]]]:
        start = time.perf_counter()
        ann = annotator.annotate  # type: ignore[attr-defined]
        out = [[e.to_m2() + " " + e.o_str for e in ann(o, c)]
               for o, c in docs]
        return time.perf_counter() - start, out

    t_peer, want = run(peer)
    t_ours, got = run(ours)
    differ = sum(g != w for g, w in zip(got, want, strict=True))
    print(f"{len(pairs)} pairs, {sum(map(len, want))} edits; parsing (shared) {t_parse:.1f} s")
    print(f"annotate: errant 3.0.2 {t_peer:.2f} s, errtype.errant {t_ours:.2f} s "
          f"({t_peer / t_ours:.1f}x); pairs with different edits: {differ}")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
