"""Alignment core: errtype vs ERRANT 3.0.2 (``errant.alignment.Alignment``), in one run.

1. Real pairs (jfleg dev x 4 references + CoNLL-2014 system outputs, parsed once with the same
   spaCy pipeline): CPU time per pair of each aligner, the ratio, and whether every cost matrix,
   operation matrix and alignment sequence is identical.
2. Long pairs, each in a fresh subprocess: time and peak RSS (VmHWM / ``getrusage``) of aligning
   an unrelated n x n pair: ``disjoint`` (no token in common) and ``text`` (two unrelated stretches
   of real learner text, tagged by spaCy). ERRANT is run at the small size only: its diagonal walk
   makes unrelated pairs cubic and its list matrices take GBs at 2,000.

    python bench/bench_align.py [--pairs N] [--long 2000] [--small 100] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _rss_mb() -> float:
    """Peak RSS of this process. Linux: VmHWM (``ru_maxrss`` of a forked-then-exec'd child also
    counts the parent's pages at the fork); elsewhere ``resource.getrusage``."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(tool: str, pair_file: str) -> None:
    """Align the pickled pair once; print seconds and peak RSS as JSON."""
    with open(pair_file, "rb") as fh:
        kind, words, tags = pickle.load(fh)
    if tool == "errant":
        import spacy
        from errant.alignment import Alignment
        from spacy.tokens import Doc

        nlp = spacy.blank("en")
        docs = []
        for side, side_tags in zip(words, tags, strict=True):
            doc = Doc(nlp.vocab, words=side)
            for tok, (lemma, pos) in zip(doc, side_tags, strict=True):
                tok.lemma_, tok.pos_ = lemma, pos
            docs.append(doc)
        base = _rss_mb()
        t0 = time.process_time()
        cost = Alignment(docs[0], docs[1]).cost_matrix[-1][-1]
    else:
        from errtype.align import align
        from errtype.lang.en import English
        from errtype.tokens import Sentence, Token

        sents = [Sentence([Token(w, lemma, pos) for w, (lemma, pos) in zip(side, st, strict=True)])
                 for side, st in zip(words, tags, strict=True)]
        lang = English()
        warm = Sentence([Token(w, w, "NOUN") for w in "a b c d e f g h i".split()])
        align(warm, Sentence(warm[::-1]), lang)  # imports numpy, rapidfuzz
        base = _rss_mb()
        t0 = time.process_time()
        cost = align(sents[0], sents[1], lang).cost
    print(json.dumps({"seconds": time.process_time() - t0, "peak_mb": _rss_mb(),
                      "base_mb": base, "cost": cost}))


def long_pair(kind: str, n: int, nlp: object, data: Path) -> tuple[list, list]:
    """Words and (lemma, POS) of an unrelated n x n pair."""
    if kind == "disjoint":
        words = [[f"o{i % 997}" for i in range(n)], [f"c{i % 991}" for i in range(n)]]
        tags = [[(w, "NOUN") for w in words[0]], [(w, "VERB") for w in words[1]]]
        return words, tags
    words, tags = [], []
    for rel in ("jfleg/dev.src", "conll14/systems/INPUT"):
        toks: list = []
        lines = (data / rel).read_text(encoding="utf-8").splitlines()
        for doc in nlp.pipe(t.strip() for t in lines if t.strip()):  # type: ignore[attr-defined]
            toks += [(t.text, t.lemma_, t.pos_) for t in doc]
            if len(toks) >= n:
                break
        words.append([t[0] for t in toks[:n]])
        tags.append([(t[1], t[2]) for t in toks[:n]])
    return words, tags


def run_child(tool: str, kind: str, n: int, nlp: object, data: Path) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as fh:
        pickle.dump((kind, *long_pair(kind, n, nlp, data)), fh)
    try:
        out = subprocess.run([sys.executable, __file__, "--child", tool, fh.name], check=True,
                             capture_output=True, text=True, timeout=3600).stdout
    finally:
        Path(fh.name).unlink()
    return json.loads(out.strip().splitlines()[-1])


def real_pairs(nlp: object, data: Path, limit: int) -> list:
    from bench_m2 import load_pairs

    pairs = [(o, c) for o, c in load_pairs(data, 10 ** 9) if o != c][:limit]
    texts = sorted({t for pair in pairs for t in pair})
    from spacy.tokens import Doc

    parsed = dict(zip(texts, nlp.pipe(Doc(nlp.vocab, words=t.split())  # type: ignore
                                      for t in texts), strict=True))
    return [(parsed[o], parsed[c]) for o, c in pairs]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=1500)
    ap.add_argument("--long", type=int, default=2000)
    ap.add_argument("--small", type=int, default=100)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return 0
    try:
        from errant.alignment import Alignment
    except ImportError:
        print("the peer tool is not installed: pip install errant==3.0.2")
        return 1
    from errtype.align import align
    from errtype.lang.en import English
    from errtype.parse.spacy import doc_to_sentence

    data = Path(args.data)
    lang = English()
    nlp = lang.make_parser().nlp
    docs = real_pairs(nlp, data, args.pairs)
    sents = [(doc_to_sentence(o), doc_to_sentence(c)) for o, c in docs]
    t0 = time.process_time()
    theirs = [Alignment(o, c) for o, c in docs]
    t1 = time.process_time()
    ours = [align(o, c, lang) for o, c in sents]
    t2 = time.process_time()
    differ = sum(a.cost_matrix != b.cost_matrix or a.op_matrix != b.op_matrix
                 or a.align_seq != [tuple(x) for x in b.align_seq]
                 for a, b in zip(theirs, ours, strict=True))
    n = len(docs)
    print(f"{n} real pairs (original != correction), {nlp.meta['name']} tags; CPU time")
    print(f"{'aligner':<34}{'us/pair':>10}{'speed-up':>10}")
    print(f"{'ERRANT 3.0.2 Alignment':<34}{(t1 - t0) / n * 1e6:>10.0f}{1:>9.2f}x")
    print(f"{'errtype align':<34}{(t2 - t1) / n * 1e6:>10.0f}{(t1 - t0) / (t2 - t1):>9.2f}x")
    print(f"pairs whose matrices or alignment differ from ERRANT: {differ} of {n}")

    print("\nunrelated long pairs, one subprocess each (CPU s, peak RSS MB incl. imports)")
    print(f"{'pair':<26}{'tool':<9}{'seconds':>9}{'peak MB':>9}{'setup MB':>10}")
    costs: dict[tuple[str, int], list[float]] = {}
    for kind in ("disjoint", "text"):
        for size, tools in ((args.small, ("errant", "errtype")), (args.long, ("errtype",))):
            for tool in tools:
                r = run_child(tool, kind, size, nlp, data)
                costs.setdefault((kind, size), []).append(r["cost"])
                print(f"{f'{kind} {size}x{size}':<26}{tool:<9}{r['seconds']:>9.2f}"
                      f"{r['peak_mb']:>9.0f}{r['base_mb']:>10.0f}")
    same = all(len(set(v)) == 1 for v in costs.values())
    print(f"total costs identical between tools: {same}")
    return 0 if differ == 0 and same else 1


if __name__ == "__main__":
    raise SystemExit(main())
