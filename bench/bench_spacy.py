"""spaCy settings for English parsing: components, ``nlp.pipe`` batch size and ``n_process``.

Parses the same real sentences (jfleg dev + CoNLL-2014 system outputs) with the pipeline errtype
loads (only the components English reads) and with ERRANT 3.0.2's loading (NER disabled, one
``nlp(text)`` call per sentence), and prints sentences/s for each setting, in one run.

    python bench/bench_spacy.py [--sentences N] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def load_sentences(data: Path, limit: int) -> list[str]:
    texts: list[str] = []
    for rel in ("jfleg/dev.src", "jfleg/dev.ref0", "conll14/systems/INPUT",
                "conll14/systems/CAMB"):
        path = data / rel
        if path.exists():
            texts += [t.strip() for t in path.read_text(encoding="utf-8").splitlines()]
    return [t for t in texts if t][:limit]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sentences", type=int, default=2000)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    import spacy
    from spacy.tokens import Doc

    from errtype.lang.en import English
    from errtype.parse.spacy import doc_to_sentence

    texts = load_sentences(Path(args.data), args.sentences)
    parser = English().make_parser()
    nlp = parser.nlp
    name = f"{nlp.meta['lang']}_{nlp.meta['name']}"
    errant_nlp = spacy.load(name, disable=["ner"])
    n_tok = sum(len(t.split()) for t in texts)
    print(f"{len(texts)} sentences, {n_tok} tokens; spaCy {spacy.__version__}, {name}; "
          f"{os.cpu_count()} CPUs")
    print(f"errtype components: {nlp.pipe_names}; ERRANT's: {errant_nlp.pipe_names}")

    def docs(model: object) -> list:
        return [Doc(model.vocab, words=t.split()) for t in texts]  # type: ignore[attr-defined]

    rows: list[tuple[str, float]] = []
    t0 = time.perf_counter()
    ref = [doc_to_sentence(errant_nlp(d)) for d in docs(errant_nlp)]
    rows.append(("ERRANT loading, nlp(doc) per sentence", time.perf_counter() - t0))
    t0 = time.perf_counter()
    got = [doc_to_sentence(nlp(d)) for d in docs(nlp)]
    rows.append(("errtype components, nlp(doc) per sentence", time.perf_counter() - t0))
    same = got == ref
    for n_process in (1, 2):
        for batch in (32, 128, 256, 1000):
            t0 = time.perf_counter()
            got = [doc_to_sentence(d)
                   for d in nlp.pipe(docs(nlp), batch_size=batch, n_process=n_process)]
            rows.append((f"errtype components, pipe batch {batch}, n_process {n_process}",
                         time.perf_counter() - t0))
            same = same and got == ref
    base = rows[0][1]
    print(f"{'setting':<58}{'sent/s':>9}{'vs ERRANT':>11}")
    for label, seconds in rows:
        print(f"{label:<58}{len(texts) / seconds:>9.0f}{base / seconds:>10.2f}x")
    print(f"annotations identical to ERRANT's loading in every setting: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
