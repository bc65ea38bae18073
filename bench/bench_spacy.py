"""spaCy settings for English parsing: components, ``nlp.pipe`` batch size and ``n_process``.

Parses the same real sentences (jfleg dev + CoNLL-2014 system outputs) with the pipeline errtype
loads (only the components English reads) and with ERRANT 3.0.2's loading (NER disabled, one
``nlp(text)`` call per sentence), and prints sentences/s for each setting, in one run.

    python bench/bench_spacy.py [--sentences N] [--repeat N] [--data ../shared/data]

``--compare attribute-ruler``: instead, spaCy's ``attribute_ruler`` vs errtype's compiled one
(:mod:`errtype.parse.fast_attribute_ruler`); ``--compare blas``: thinc's blis matrix products vs
numpy's BLAS (:func:`errtype.parse.spacy.use_numpy_blas`). Either prints the CPU seconds of
``nlp.pipe`` over the CoNLL-2014 sentences (INPUT + AMU), of the component concerned alone and of
the errtype-m2 path (``parallel_to_m2``, INPUT vs AMU), with annotations / M2 output checked
identical (``--all-texts``: nlp.pipe and the component on the 6,887 distinct sentences of
bench_m2.py's corpora instead).
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
    ap.add_argument("--compare", choices=sorted(COMPARISONS),
                    help="attribute-ruler: spaCy's vs the compiled one; blas: blis vs numpy")
    ap.add_argument("--all-texts", action="store_true",
                    help="--compare on every distinct sentence of bench_m2.py's corpora")
    args = ap.parse_args()
    if args.compare:
        return bench_variants(Path(args.data), args.repeat, args.compare, args.all_texts)
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


#: --compare NAME: (label -> English().make_parser options, the component timed alone)
COMPARISONS: dict[str, tuple[dict[str, dict[str, bool]], str]] = {
    "attribute-ruler": ({"spaCy attribute_ruler": {"fast_attribute_ruler": False},
                         "compiled attribute_ruler": {}}, "attribute_ruler"),
    "blas": ({"blis": {"numpy_blas": False}, "numpy BLAS": {}}, "tok2vec"),
}


def all_sentences(data: Path) -> list[str]:
    """The distinct sentences of bench_m2.py's corpora: JFLEG dev source and 4 references,
    CoNLL-2014 INPUT and the AMU, CAMB and CUUI outputs."""
    rels = ["jfleg/dev.src", *(f"jfleg/dev.ref{k}" for k in range(4))]
    rels += [f"conll14/systems/{s}" for s in ("INPUT", "AMU", "CAMB", "CUUI")]
    lines = (t.strip() for rel in rels
             for t in (data / rel).read_text(encoding="utf-8").splitlines())
    return list(dict.fromkeys(t for t in lines if t))


def bench_variants(data: Path, repeat: int, comparison: str, every: bool = False) -> int:
    """Two loadings of the English pipeline: nlp.pipe, one component alone and parallel_to_m2
    CPU seconds on the CoNLL-2014 sentences (``every``: on :func:`all_sentences`), annotations
    and M2 checked identical. BLAS runs on one thread throughout, as in errtype's parser."""
    import tempfile

    import spacy
    from spacy.tokens import Doc
    from threadpoolctl import threadpool_limits

    from errtype.annotator import Annotator
    from errtype.convert import parallel_to_m2
    from errtype.lang.en import English
    from errtype.parse.spacy import doc_to_sentence

    variants, component = COMPARISONS[comparison]
    orig, cor = data / "conll14" / "systems" / "INPUT", data / "conll14" / "systems" / "AMU"
    texts = [t for p in (orig, cor) for t in p.read_text(encoding="utf-8").splitlines()
             if t.split()]
    what = "CoNLL-2014 sentences (INPUT + AMU)"
    if every:
        texts, what = all_sentences(data), "distinct JFLEG dev + CoNLL-2014 sentences"
    nlps = {label: English().make_parser(**options).nlp for label, options in variants.items()}
    nlp0 = next(iter(nlps.values()))
    print(f"{len(texts)} {what}; spaCy {spacy.__version__}, "
          f"{nlp0.meta['lang']}_{nlp0.meta['name']}-{nlp0.meta['version']}")

    def docs(label: str) -> list:
        return [Doc(nlps[label].vocab, words=t.split()) for t in texts]

    def piped(label: str) -> list:
        return [doc_to_sentence(d) for d in nlps[label].pipe(docs(label), batch_size=256)]

    def alone(label: str) -> None:  # the component alone, on the Docs as they reach it
        list(nlps[label].get_pipe(component).pipe(upstream[label], batch_size=256))

    def m2(label: str) -> str:
        annotator = Annotator(English(), parser=English().make_parser(nlp=nlps[label]))
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out.m2"
            parallel_to_m2(annotator, orig, [cor], out)
            return out.read_text(encoding="utf-8")

    upstream = {}
    for label, nlp in nlps.items():
        before = nlp.pipe_names[:nlp.pipe_names.index(component)]
        with nlp.select_pipes(enable=before):
            upstream[label] = list(nlp.pipe(docs(label)))
    tasks = [("nlp.pipe, all components", piped), (f"{component} alone", alone),
             ("errtype-m2 path (parallel_to_m2)", m2)]
    best: dict[tuple[str, str], float] = {}
    outputs: dict[tuple[str, str], object] = {}
    with threadpool_limits(1, user_api="blas"):
        for _ in range(repeat):  # interleaved, best of N: the machine may be shared
            for task, run in tasks:
                for label in variants:
                    c0 = cpu_seconds()
                    outputs[task, label] = run(label)
                    cpu = cpu_seconds() - c0
                    best[task, label] = min(best.get((task, label), float("inf")), cpu)
    slow, fast = variants
    print(f"{'CPU seconds (best of ' + str(repeat) + ')':<36}{slow:>24}{fast:>26}{'ratio':>8}")
    for task, _ in tasks:
        a, b = best[task, slow], best[task, fast]
        print(f"{task:<36}{a:>24.2f}{b:>26.2f}{a / b:>7.2f}x")
    same = all(outputs[task, slow] == outputs[task, fast] for task, _ in tasks)
    print(f"annotations and M2 output identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
