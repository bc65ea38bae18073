"""Sentences per second of the Hugging Face causal-LM scorer (``HFCausalLM``) by batch size and
dtype, beside the previous implementation (batches cut in input order, rows copied one by one,
an attention mask), on CUDA when a GPU is visible, else on the CPU.

The models are randomly initialised (no download) over a word-level vocabulary built from the
sentences: ``--model small`` is GPT-2 small's shape (12 layers, 768 wide; ~88M parameters with
the CoNLL-2014 vocabulary), ``--model tiny`` one layer 64 wide (a CPU smoke run). The sentences
are the CoNLL-2014 test source and three system outputs from ../shared (5,248 sentences), else
generated ones. Every row also prints the largest difference of its log-probabilities from the
float32 run of the new code, and the float32 run from the previous implementation.

    .venv/bin/python bench/lm_speed.py --model tiny
    .venv/bin/python bench/lm_speed.py --model small --batch-sizes 64 256 1024 \
        --dtypes float32 bfloat16
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from errtype.score.lm.models import HFCausalLM  # noqa: E402

CONLL = ROOT.parent / "shared" / "data" / "conll14" / "systems"


def sentences(limit: int) -> tuple[list[str], str]:
    if CONLL.is_dir():
        out = []
        for name in ("INPUT", "AMU", "CAMB", "CUUI"):
            out += [ln.strip() for ln in (CONLL / name).read_text().splitlines()]
        where = "CoNLL-2014 INPUT+AMU+CAMB+CUUI"
    else:
        rng = random.Random(0)
        words = "the a cat dog we can not cannot let it go . , is was were have has".split()
        out = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 60)))
               for _ in range(4000)]
        where = "generated (no ../shared)"
    return out[:limit or None], where


def word_tokenizer(sents: Sequence[str]) -> Any:
    """A whitespace word-level tokenizer over the words of ``sents`` (no download)."""
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"<|endoftext|>": 0, "<unk>": 1}
    for s in sents:
        for w in s.split():
            vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>",
        unk_token="<unk>")


def build(sents: Sequence[str], size: str) -> tuple[Any, Any]:
    import torch
    import transformers

    tokenizer = word_tokenizer(sents)
    vocab = tokenizer.get_vocab()
    shape = ({"n_embd": 768, "n_layer": 12, "n_head": 12} if size == "small"
             else {"n_embd": 64, "n_layer": 1, "n_head": 2})
    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=len(vocab), n_positions=1024, **shape)
    return transformers.GPT2LMHeadModel(config).eval(), tokenizer


def previous(lm: HFCausalLM, sents: Sequence[str], batch_size: int) -> list[float]:
    """The implementation before this bench: batches in input order, one row at a time."""
    torch = lm._torch
    out: list[float] = []
    for b in range(0, len(sents), batch_size):
        enc = [[lm.bos_id, *lm.tokenizer(s, add_special_tokens=False)["input_ids"]]
               for s in sents[b:b + batch_size]]
        width = max(len(e) for e in enc)
        ids = torch.full((len(enc), width), lm.pad_id, dtype=torch.long)
        mask = torch.zeros((len(enc), width), dtype=torch.long)
        for row, e in enumerate(enc):
            ids[row, :len(e)] = torch.tensor(e, dtype=torch.long)
            mask[row, :len(e)] = 1
        ids, mask = ids.to(lm.device), mask.to(lm.device)
        with torch.no_grad():
            logits = lm.model(input_ids=ids, attention_mask=mask).logits.float()[:, :-1, :]
        picked = logits.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        out += ((picked - torch.logsumexp(logits, dim=-1)) * mask[:, 1:]).sum(1).tolist()
    return out


def timed(fn: Any, device: str) -> tuple[Any, float, float]:
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=["tiny", "small"], default="tiny")
    ap.add_argument("--device", default="auto", help="auto (cuda when visible), cpu, cuda:N")
    ap.add_argument("--batch-sizes", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--dtypes", nargs="+", default=["float32", "bfloat16"],
                    choices=["float32", "bfloat16", "float16"])
    ap.add_argument("--limit", type=int, default=0, help="only the first N sentences")
    ap.add_argument("--no-previous", action="store_true",
                    help="skip the previous implementation (slow on a CPU)")
    args = ap.parse_args()
    sents, where = sentences(args.limit)
    model, tokenizer = build(sents, args.model)
    params = sum(p.numel() for p in model.parameters())
    device = "cuda" if args.device == "auto" and torch.cuda.is_available() else (
        "cpu" if args.device == "auto" else args.device)
    gpu = torch.cuda.get_device_name(device) if device.startswith("cuda") else "-"
    print(f"{len(sents)} sentences ({where}); GPT-2 {args.model}, {params / 1e6:.1f}M "
          f"parameters, word-level; device {device} ({gpu}); torch {torch.__version__}, "
          f"{torch.get_num_threads()} CPU threads")
    print("impl\tdtype\tbatch\tsent/s\twall_s\tcpu_s\tmax|diff| vs new float32\tspeed-up")
    ref: list[float] | None = None
    for dtype in sorted(args.dtypes, key=lambda d: d != "float32"):  # float32 first
        # a copy per dtype: HFCausalLM converts the module it is given in place
        lm = HFCausalLM(copy.deepcopy(model), tokenizer, device=device, dtype=dtype)
        for bs in args.batch_sizes:
            lm.log_probs(sents[:bs], bs)  # warm-up (kernels, allocator)
            res, wall, cpu = timed(lambda lm=lm, bs=bs: lm.log_probs(sents, bs), device)
            lp = [v for v, _ in res]
            if ref is None:
                ref = lp
            diff = max(abs(a - b) for a, b in zip(lp, ref, strict=True))
            row = f"new\t{dtype}\t{bs}\t{len(sents) / wall:.0f}\t{wall:.2f}\t{cpu:.2f}\t{diff:.2e}"
            if dtype == "float32" and not args.no_previous:
                old, owall, ocpu = timed(lambda lm=lm, bs=bs: previous(lm, sents, bs), device)
                odiff = max(abs(a - b) for a, b in zip(old, ref, strict=True))
                print(f"{row}\t{owall / wall:.2f}x")
                print(f"previous\t{dtype}\t{bs}\t{len(sents) / owall:.0f}\t{owall:.2f}\t"
                      f"{ocpu:.2f}\t{odiff:.2e}\t1.00x")
            else:
                print(f"{row}\t-")
        del lm


if __name__ == "__main__":
    main()
