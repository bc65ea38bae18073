"""errtype's fast spaCy paths against spaCy's own components, one component at a time.

Parses the distinct sentences of ``bench_m2.py``'s corpora with the English pipeline twice,
interleaved and best of ``--repeat``: ``SpacyParser(nlp, accelerate=False)`` (every component's
own ``pipe``) and ``SpacyParser(nlp)`` (tok2vec embedding shared per batch, greedy parser loop
out of the C loop, memoised lemmatizer; :mod:`errtype.parse`), both under the one-thread BLAS
policy. Prints each component's CPU seconds, the Doc -> Sentence conversion, the total, whether
every token annotation is the same, and whether the fast tok2vec's vectors equal spaCy's
``Tok2Vec.predict`` bit for bit (batches of 256 texts, in corpus order).

    python bench/bench_components.py [--repeat 3] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_spacy import all_sentences  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    args = ap.parse_args()
    import spacy

    from errtype.lang.en import English
    from errtype.parse.spacy import SpacyParser

    texts = all_sentences(Path(args.data))
    nlp = English().make_parser().nlp
    print(f"{len(texts)} distinct sentences, {sum(len(t.split()) for t in texts)} tokens; spaCy "
          f"{spacy.__version__}, {nlp.meta['lang']}_{nlp.meta['name']}; {nlp.pipe_names}")
    parsers = {"spaCy's components": SpacyParser(nlp, accelerate=False),
               "errtype's fast paths": SpacyParser(nlp)}
    best: dict[str, Counter[str]] = {label: Counter() for label in parsers}
    outputs = {}
    for _ in range(args.repeat):
        for label, parser in parsers.items():
            seen: Counter[str] = Counter()
            make_step = parser._step

            def timed_step(proc: object, make_step=make_step, seen=seen) -> object:
                step = make_step(proc)

                def run(docs: list) -> list:
                    c0 = time.process_time()
                    out = step(docs)
                    seen[type(proc).__name__] += time.process_time() - c0
                    return out
                return run

            parser._step = timed_step  # type: ignore[method-assign]
            c0 = time.process_time()
            outputs[label] = list(parser.parse_many(texts))
            seen["total (incl. Doc and Sentence building)"] = time.process_time() - c0
            del parser._step
            for key, value in seen.items():
                old = best[label].get(key)
                best[label][key] = value if old is None else min(old, value)
    slow, fast = parsers
    print(f"{'CPU s (best of ' + str(args.repeat) + ')':<44}{slow:>20}{fast:>22}{'ratio':>8}")
    for key in best[slow]:
        a, b = best[slow][key], best[fast][key]
        print(f"{key:<44}{a:>20.2f}{b:>22.2f}{a / b:>7.2f}x")
    same = outputs[slow] == outputs[fast]
    print(f"token annotations identical: {same}")
    floats = tok2vec_identical(nlp, texts)
    print(f"tok2vec vectors bit-identical to spaCy's on all {len(texts)} texts: {floats}")
    return 0 if same and floats else 1


def tok2vec_identical(nlp: Any, texts: list[str], batch: int = 256) -> bool:
    """Whether errtype's tok2vec gives spaCy's ``Tok2Vec.predict`` floats exactly."""
    import numpy
    from spacy.tokens import Doc

    from errtype.parse import fast_tok2vec

    component = nlp.get_pipe("tok2vec")
    for start in range(0, len(texts), batch):
        docs = [Doc(nlp.vocab, words=t.split()) for t in texts[start:start + batch]]
        ours, theirs = fast_tok2vec.predict(component, docs), component.predict(docs)
        if not all(numpy.array_equal(a, b) for a, b in zip(ours, theirs, strict=True)):
            return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
