"""Sentences per second of HFCausalLM (the Scribendi score's Hugging Face backend), the current
batching beside the previous one, on a GPU when there is one.

The model is a randomly initialised GPT-2 built here with a word-level tokenizer over the corpus
(no download): ``--size small`` is GPT-2 small's shape (12 layers, 768 wide, about 88M
parameters with this vocabulary), ``--size tiny`` a 2-layer one for CPUs. The corpus is
CoNLL-2014's test sources (``../shared/data/conll14``) or any text file (``--text``), repeated
``--repeat`` times. For every batch size and dtype both paths score the same sentences; the
previous path (batches cut in input order, each padded to its longest sentence, each row copied
from a Python list) is reproduced here. The largest |difference| of the log-probabilities
between the two paths (fp32) and the speed ratio are printed.

    .venv/bin/python bench/lm_speed.py [--size small|tiny] [--device cuda] [--batch 64 256 1024]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_TEXT = ROOT.parent / "shared" / "data" / "conll14" / "official-2014.combined.m2"


def corpus(path: Path, repeat: int) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".m2":
        lines = [ln[2:] for ln in lines if ln.startswith("S ")]
    return [ln.strip() for ln in lines if ln.strip()] * repeat


def build(sentences: list[str], size: str):
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = ["<pad>", "<s>", "</s>", "<unk>"]
    vocab += sorted({w for s in sentences for w in s.split()})
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
        pad_token="<pad>")
    torch.manual_seed(0)
    shape = {"small": {"n_embd": 768, "n_layer": 12, "n_head": 12},
             "tiny": {"n_embd": 64, "n_layer": 2, "n_head": 2}}[size]
    config = transformers.GPT2Config(vocab_size=len(vocab), n_positions=1024, bos_token_id=1,
                                     eos_token_id=2, **shape)
    return transformers.GPT2LMHeadModel(config), tokenizer


def old_path(lm, sentences: list[str], batch_size: int) -> list[tuple[float, int]]:
    """The previous HFCausalLM: batches in input order, tensors filled row by row."""
    torch = lm._torch
    out = []
    for k in range(0, len(sentences), batch_size):
        enc = [[lm.bos_id, *lm.tokenizer(s, add_special_tokens=False)["input_ids"]]
               for s in sentences[k:k + batch_size]]
        res = [(0.0, 0)] * len(enc)
        todo = [i for i in sorted(range(len(enc)), key=lambda i: len(enc[i]))
                if len(enc[i]) >= 2]
        if todo:
            width = max(len(enc[i]) for i in todo)
            ids = torch.full((len(todo), width), lm.pad_id, dtype=torch.long)
            mask = torch.zeros((len(todo), width), dtype=torch.long)
            for row, i in enumerate(todo):
                ids[row, :len(enc[i])] = torch.tensor(enc[i], dtype=torch.long)
                mask[row, :len(enc[i])] = 1
            ids, mask = ids.to(lm.device), mask.to(lm.device)
            with torch.no_grad():
                logits = lm.model(input_ids=ids, attention_mask=mask).logits.float()[:, :-1]
            picked = logits.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
            lp = ((picked - torch.logsumexp(logits, -1)) * mask[:, 1:]).sum(1).tolist()
            counts = mask[:, 1:].sum(1).tolist()
            for row, i in enumerate(todo):
                res[i] = (float(lp[row]), int(counts[row]))
        out += res
    return out


def timed(fn, device: str):
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()
    t0, c0 = time.perf_counter(), time.process_time()
    res = fn()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    return res, time.perf_counter() - t0, time.process_time() - c0


def main() -> int:
    import torch

    from errtype.score.lm.models import HFCausalLM

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", choices=["small", "tiny"], default=None,
                    help="model shape (default: small on a GPU, tiny on a CPU)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--batch", type=int, nargs="+", default=[64, 256, 1024])
    ap.add_argument("--dtype", nargs="+", default=None,
                    help="dtypes to time (default: float32, and bfloat16 on a GPU)")
    ap.add_argument("--text", type=Path, default=DEFAULT_TEXT)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-old", action="store_true", help="time the current path only")
    args = ap.parse_args()
    gpu = args.device.startswith("cuda")
    size = args.size or ("small" if gpu else "tiny")
    dtypes = args.dtype or (["float32", "bfloat16"] if gpu else ["float32"])
    sents = corpus(args.text, args.repeat)
    model, tokenizer = build(sents, size)
    params = sum(p.numel() for p in model.parameters()) / 1e6
    name = torch.cuda.get_device_name() if gpu else f"CPU, {torch.get_num_threads()} threads"
    print(f"{len(sents)} sentences, GPT-2 {size} ({params:.1f}M parameters), {name}, "
          f"torch {torch.__version__}")
    print(f"{'dtype':9} {'batch':>6} {'new sent/s':>11} {'old sent/s':>11} {'ratio':>6} "
          f"{'new CPU s':>9} {'old CPU s':>9} {'max |dlp|':>10}")
    reference = None
    for dtype in dtypes:
        lm = HFCausalLM(model, tokenizer, device=args.device, dtype=dtype)
        lm.log_probs(sents[:64], batch_size=64)  # warm-up
        for b in args.batch:
            new, wall, cpu = timed(lambda b=b, lm=lm: lm.log_probs(sents, batch_size=b),
                                   args.device)
            if dtype == "float32" and reference is None:
                reference = new
            diff = max(abs(x[0] - y[0]) for x, y in zip(new, reference, strict=True))
            old_cells = f"{'-':>11} {'-':>6} {'':>9} {'-':>9}"
            if not args.no_old:
                old, owall, ocpu = timed(lambda b=b, lm=lm: old_path(lm, sents, b), args.device)
                if dtype == "float32":
                    diff = max(diff, max(abs(x[0] - y[0]) for x, y in
                                         zip(new, old, strict=True)))
                    assert [x[1] for x in new] == [y[1] for y in old]
                old_cells = (f"{len(sents) / owall:11.0f} {owall / wall:5.1f}x {cpu:9.1f} "
                             f"{ocpu:9.1f}")
            print(f"{dtype:9} {b:6d} {len(sents) / wall:11.0f} {old_cells} {diff:10.1e}")
        model = lm.model.float()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
