"""spaCy settings for English parsing: components, ``nlp.pipe`` batch size and ``n_process``.

Parses the same real sentences (jfleg dev + CoNLL-2014 system outputs) with the pipeline errtype
loads (only the components English reads) and with ERRANT 3.0.2's loading (NER disabled, one
``nlp(text)`` call per sentence), and prints sentences/s for each setting, in one run.

    python bench/bench_spacy.py [--sentences N] [--repeat N] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


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
    ap.add_argument("--sentences", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=2)
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

    def per_sentence(model: object) -> list:
        return [doc_to_sentence(model(d)) for d in docs(model)]  # type: ignore[operator]

    def piped(batch: int, n_process: int) -> list:
        return [doc_to_sentence(d)
                for d in nlp.pipe(docs(nlp), batch_size=batch, n_process=n_process)]

    settings = [("ERRANT loading, nlp(doc) per sentence", lambda: per_sentence(errant_nlp)),
                ("errtype components, nlp(doc) per sentence", lambda: per_sentence(nlp))]
    settings += [(f"errtype components, pipe batch {b}, n_process {p}",
                  lambda b=b, p=p: piped(b, p))
                 for p in (1, 2) for b in (32, 128, 256, 1000)]
    best = {label: (float("inf"), float("inf")) for label, _ in settings}
    ref = per_sentence(errant_nlp)
    same = True
    for _ in range(args.repeat):  # interleaved, best of N: the machine may be shared
        for label, run in settings:
            w0, c0 = time.perf_counter(), cpu_seconds()
            same = same and run() == ref
            wall, cpu = time.perf_counter() - w0, cpu_seconds() - c0
            best[label] = (min(best[label][0], wall), min(best[label][1], cpu))
    base_wall, base_cpu = best[settings[0][0]]
    print(f"{'setting (best of ' + str(args.repeat) + ')':<50}{'sent/s':>8}{'ratio':>8}"
          f"{'CPU s':>8}{'CPU ratio':>10}")
    for label, (wall, cpu) in best.items():
        print(f"{label:<50}{len(texts) / wall:>8.0f}{base_wall / wall:>7.2f}x{cpu:>8.1f}"
              f"{base_cpu / cpu:>9.2f}x")
    print("ratio: wall time vs ERRANT's loading; CPU: this process + finished workers")
    print(f"annotations identical to ERRANT's loading in every setting: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
