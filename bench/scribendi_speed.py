"""Speed of the Scribendi LM backends on JFLEG dev (source + 4 references = 3,770 sentences).

The GPT-2 timing uses a *randomly initialised* GPT-2 small (124M parameters, the paper's
architecture) with a whitespace word-level tokenizer, so no weights are downloaded; real BPE
gives ~1.3x more tokens. Usage: python bench/scribendi_speed.py [--gpt2] [--batch-size 32]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from errtype.score.lm.models import HFCausalLM, LanguageModel, load_lm

JFLEG = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "jfleg"


def sentences() -> list[str]:
    out = []
    for name in ["dev.src", *(f"dev.ref{i}" for i in range(4))]:
        out += [ln.strip() for ln in (JFLEG / name).read_text().splitlines()]
    return out


def random_gpt2(sents: list[str]) -> LanguageModel:
    import torch
    import transformers
    from lm_speed import word_tokenizer

    tokenizer = word_tokenizer(sents)
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=50257))
    return HFCausalLM(model, tokenizer)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpt2", action="store_true")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--limit", type=int, default=0, help="score only the first N sentences")
    args = ap.parse_args()
    sents = sentences()[:args.limit or None]
    backends = [("default", lambda: load_lm("default"))]
    if args.gpt2:
        backends.append(("gpt2-124M-random", lambda: random_gpt2(sents)))
    for name, make in backends:
        t0 = time.perf_counter()
        lm = make()
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        lm.perplexities(sents, args.batch_size)
        dt = time.perf_counter() - t0
        print(f"{name}\tsentences={len(sents)}\tload={load:.2f}s\tscore={dt:.2f}s"
              f"\t{len(sents) / dt:.0f} sent/s\tbatch={args.batch_size}")


if __name__ == "__main__":
    main()
