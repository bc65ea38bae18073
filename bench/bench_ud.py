"""Speed of the UD path: Ukrainian and Estonian with the stand-in UDPipe models, French with its
spaCy pipeline. For each: sentences parsed per second, pairs annotated per second through
``annotate_stream``, and where the time goes (parsing, alignment + merging, classification: the
generic UD classifier's share), CPU seconds of one process.

Data: the gold M2 files of ``../shared/data/multilingual`` (UA-GEC and EstGEC dev; each
annotator's correction rebuilt from its edits), and for French the bundled ``samples/fr.*``
pairs (no French corpus is in the shared data: a small sample, repeated ``--fr-repeat`` times;
the stream parses a repeated text once per batch, the parse timing parses every copy).

    python bench/bench_ud.py [--langs uk,et,fr] [--limit N] [--models ../shared/models]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def m2_pairs(path: Path, limit: int | None) -> list[tuple[str, list[str]]]:
    """(original, [each annotator's correction]) of every block of an M2 file."""
    from errtype.m2 import apply_edits, read_m2

    items = []
    for block in read_m2(path):
        tokens = block.tokens
        cors = [apply_edits(tokens, edits).text
                for edits in block.edits_by_annotator().values()] or [block.source]
        items.append((block.source, cors))
    return items[:limit]


def sample_pairs(repeat: int) -> list[tuple[str, list[str]]]:
    orig = (ROOT / "samples" / "fr.orig.txt").read_text(encoding="utf-8").splitlines()
    cor = (ROOT / "samples" / "fr.cor.txt").read_text(encoding="utf-8").splitlines()
    return [(o, [c]) for o, c in zip(orig, cor, strict=True)] * repeat


def measure(lang: str, annotator: object, items: list[tuple[str, list[str]]]) -> dict:
    from errtype.align import align

    ann = annotator
    texts = [t for o, cs in items for t in (o, *cs)]
    ann.warm_up()  # type: ignore[attr-defined]
    c0 = time.process_time()
    parsed = list(ann.parser.parse_many(texts))  # type: ignore[attr-defined]
    parse_s = time.process_time() - c0
    sents = iter(parsed)
    pairs = [(next(sents), [next(sents) for _ in cs]) for _, cs in items]
    align_s = classify_s = 0.0
    edits = 0
    for o, cs in pairs:
        for c in cs:
            if o.texts == c.texts:
                continue
            t0 = time.process_time()
            spans = ann.merge(align(o, c, ann.language), "rules")  # type: ignore[attr-defined]
            t1 = time.process_time()
            for e in spans:
                ann.classify(e, o, c)  # type: ignore[attr-defined]
            t2 = time.process_time()
            align_s += t1 - t0
            classify_s += t2 - t1
            edits += len(spans)
    n_pairs = sum(len(cs) for _, cs in items)
    c0 = time.process_time()
    n = sum(1 for _ in ann.annotate_stream(items))  # type: ignore[attr-defined]
    stream_s = time.process_time() - c0
    assert n == len(items)
    total = parse_s + align_s + classify_s
    return {"lang": lang, "parser": ann.parser.name,  # type: ignore[attr-defined]
            "texts": len(texts), "pairs": n_pairs, "edits": edits, "parse_s": parse_s,
            "align_s": align_s, "classify_s": classify_s, "stream_s": stream_s,
            "sent_per_s": len(texts) / parse_s, "pairs_per_s": n_pairs / stream_s,
            "classify_share": classify_s / total}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--langs", default="uk,et,fr")
    ap.add_argument("--limit", type=int, default=None, help="blocks per M2 file")
    ap.add_argument("--fr-repeat", type=int, default=40)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--models", default=str(ROOT.parent / "shared" / "models"))
    args = ap.parse_args()
    import errtype

    data, models = Path(args.data), Path(args.models)
    sources = {"uk": "multilingual/uagec.dev.m2", "et": "multilingual/estgec.dev.m2"}
    rows = []
    for lang in args.langs.split(","):
        if lang == "fr":
            annotator = errtype.load("fr", backend="spacy")
            items = sample_pairs(args.fr_repeat)
        else:
            annotator = errtype.load(lang, udpipe_model=str(models / f"{lang}.udpipe"))
            items = m2_pairs(data / sources[lang], args.limit)
        rows.append(measure(lang, annotator, items))
    print(f"{'lang':<5}{'parser':<34}{'texts':>7}{'sent/s':>8}{'pairs':>7}{'pairs/s':>9}"
          f"{'parse s':>9}{'align s':>9}{'classify s':>11}{'classifier':>11}")
    for r in rows:
        print(f"{r['lang']:<5}{r['parser'][:33]:<34}{r['texts']:>7}{r['sent_per_s']:>8.0f}"
              f"{r['pairs']:>7}{r['pairs_per_s']:>9.0f}{r['parse_s']:>9.2f}{r['align_s']:>9.2f}"
              f"{r['classify_s']:>11.2f}{100 * r['classify_share']:>10.1f}%")
    print("CPU seconds of this process; sent/s: parser.parse_many over every original and "
          "correction; pairs/s: annotate_stream (parses each distinct text of a batch once); "
          "classifier: classification's share of parse + align/merge + classify")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
