"""Side-by-side: errtype vs ERRANT 3.0.2 edit extraction on real parallel text, in one process.

Both use the same spaCy pipeline object. Parsing (spaCy) and annotation (align + merge + classify)
are timed separately; the edit lists of both tools are compared pair by pair.

    python bench/bench_m2.py [--pairs N] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def load_pairs(data: Path, limit: int) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    jfleg = data / "jfleg"
    src = (jfleg / "dev.src").read_text(encoding="utf-8").splitlines()
    for ref in ("dev.ref0", "dev.ref1", "dev.ref2", "dev.ref3"):
        cor = (jfleg / ref).read_text(encoding="utf-8").splitlines()
        pairs += [(o.strip(), c.strip()) for o, c in zip(src, cor, strict=True)]
    conll = data / "conll14"
    if (conll / "systems" / "CAMB").exists():
        inp = (conll / "systems" / "INPUT").read_text(encoding="utf-8").splitlines()
        for system in ("AMU", "CAMB", "CUUI"):
            out = (conll / "systems" / system).read_text(encoding="utf-8").splitlines()
            pairs += [(o.strip(), c.strip()) for o, c in zip(inp, out, strict=True)]
    return [(o, c) for o, c in pairs if o and c][:limit]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    try:
        import errant
    except ImportError:
        print("the peer tool is not installed: pip install errant==3.0.2")
        return 1
    import spacy

    import errtype
    from errtype.lang.en import DEFAULT_MODELS
    from errtype.parse.spacy import load_pipeline

    pairs = load_pairs(Path(args.data), args.pairs)
    nlp = load_pipeline(DEFAULT_MODELS)
    print(f"{len(pairs)} sentence pairs; spaCy {spacy.__version__}, "
          f"{nlp.meta['name']} {nlp.meta['version']}")
    peer = errant.load("en", nlp=nlp)
    ours = errtype.load("en", nlp=nlp)

    t0 = time.perf_counter()
    peer_docs = [(peer.parse(o), peer.parse(c)) for o, c in pairs]
    t1 = time.perf_counter()
    peer_edits = [peer.annotate(o, c) for o, c in peer_docs]
    t2 = time.perf_counter()
    texts = [t for pair in pairs for t in pair]
    sents = list(ours.parser.parse_many(texts))
    t3 = time.perf_counter()
    our_edits = [ours.annotate(sents[k], sents[k + 1]) for k in range(0, len(sents), 2)]
    t4 = time.perf_counter()

    mismatches = 0
    for n, (pe, oe) in enumerate(zip(peer_edits, our_edits, strict=True)):
        a = [(e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.c_str) for e in pe]
        b = [(e.o_start, e.o_end, e.c_start, e.c_end, e.type, e.c_str) for e in oe]
        if a != b:
            mismatches += 1
            if mismatches <= 5:
                print(f"  mismatch {n}: {pairs[n]}\n    errant : {a}\n    errtype: {b}")
    n_edits = sum(len(e) for e in our_edits)
    rows = [("parse (spaCy)", t1 - t0, t3 - t2), ("annotate", t2 - t1, t4 - t3),
            ("total", t2 - t0, t4 - t2)]
    print(f"{'stage':<16}{'ERRANT s':>10}{'errtype s':>11}{'speed-up':>10}")
    for name, a, b in rows:
        print(f"{name:<16}{a:>10.2f}{b:>11.2f}{a / b:>9.2f}x")
    print(f"edits: {n_edits}; pairs whose edits differ from ERRANT: {mismatches} of {len(pairs)}")
    return 0 if mismatches == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
