"""The torch metrics on tiny random models built here (no download): the GPU-ready causal LM
scorer against the previous implementation, IMPARA, SOME and BERTScore against their formulas.

Every test needs torch and transformers (``peer``: skipped without them, failing in CI's LM step,
which runs this file with ``ERRTYPE_CI_LM=1``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from errtype.errors import InputError
from errtype.score.lm.models import HFCausalLM, load_lm

from . import tiny_hf

SENTS = ["we can not let it go .", "we cannot let it go .", "the cat", "a", "",
         "this sentence contains a grammatical error .", "it", "the cat is no cat",
         "these sentences contain grammatical errors . we can not let it go", "unknownword ."]


def reference_log_probs(model: Any, tokenizer: Any, sentences: Sequence[str],
                        batch_size: int) -> list[tuple[float, int]]:
    """The implementation before the GPU work, kept as the reference: batches cut in input
    order, rows copied one by one, an attention mask, the BOS prepended."""
    torch, _ = tiny_hf.hf()
    out: list[tuple[float, int]] = []
    bos, pad = tokenizer.bos_token_id, tokenizer.pad_token_id
    for b in range(0, len(sentences), batch_size):
        encoded = [[bos, *tokenizer(s, add_special_tokens=False)["input_ids"]]
                   for s in sentences[b:b + batch_size]]
        results = [(0.0, 0)] * len(encoded)
        todo = [i for i in range(len(encoded)) if len(encoded[i]) >= 2]
        if todo:
            width = max(len(encoded[i]) for i in todo)
            ids = torch.full((len(todo), width), pad, dtype=torch.long)
            mask = torch.zeros((len(todo), width), dtype=torch.long)
            for row, i in enumerate(todo):
                ids[row, :len(encoded[i])] = torch.tensor(encoded[i], dtype=torch.long)
                mask[row, :len(encoded[i])] = 1
            with torch.no_grad():
                logits = model(input_ids=ids, attention_mask=mask).logits.float()[:, :-1, :]
            picked = logits.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
            token_lp = (picked - torch.logsumexp(logits, dim=-1)) * mask[:, 1:]
            for row, i in enumerate(todo):
                results[i] = (float(token_lp[row].sum()), int(mask[row, 1:].sum()))
        out.extend(results)
    return out


# ---------------------------------------------------------------- causal LM scoring

@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_causal_lm_equals_reference(batch_size: int) -> None:
    model, tokenizer = tiny_hf.gpt2()
    lm = HFCausalLM(model, tokenizer, batch_size=batch_size)
    got = lm.log_probs(SENTS)
    want = reference_log_probs(model, tokenizer, SENTS, batch_size)
    assert [n for _, n in got] == [n for _, n in want] == [7, 6, 2, 1, 0, 7, 1, 5, 12, 2]
    for (a, _), (b, _) in zip(got, want, strict=True):
        assert a == pytest.approx(b, rel=1e-6, abs=1e-6)
    assert got[4] == (0.0, 0) and math.isinf(lm.perplexities([""])[0])


def test_causal_lm_by_hand_and_order_restored() -> None:
    torch, _ = tiny_hf.hf()
    model, tokenizer = tiny_hf.gpt2()
    lm = HFCausalLM(model, tokenizer, batch_size=2)
    ids = [1] + tokenizer("the cat", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logp = torch.log_softmax(model(torch.tensor([ids])).logits[0], -1)
    manual = float(logp[0, ids[1]] + logp[1, ids[2]])
    # longest first in the input: sorting must not move the results
    sents = ["these sentences contain grammatical errors .", "the cat", "a cat", "the cat"]
    got = lm.log_probs(sents)
    assert got[1][0] == pytest.approx(manual, abs=1e-5) and got[1] == got[3]
    single = [lm.log_probs([s])[0] for s in sents]
    for (a, na), (b, nb) in zip(got, single, strict=True):
        assert na == nb and a == pytest.approx(b, abs=1e-5)
    assert lm.log_probs(list(reversed(sents))) == list(reversed(got))


def test_causal_lm_padding_invariance() -> None:
    """A sentence scores the same alone, beside a short one, and padded to a long one."""
    model, tokenizer = tiny_hf.gpt2()
    lm = HFCausalLM(model, tokenizer, batch_size=8)
    s = "we can not let it go ."
    alone = lm.log_probs([s])[0][0]
    long = "these sentences contain grammatical errors . we can not let it go . the cat"
    for company in (["a"], [long], [long, long + " it", "the"]):
        assert lm.log_probs([s, *company])[0][0] == pytest.approx(alone, abs=1e-5)


def test_causal_lm_dtypes_and_settings(tmp_path) -> None:
    model, tokenizer = tiny_hf.gpt2()
    base = HFCausalLM(model, tokenizer).log_probs(SENTS)
    for dtype in ("bfloat16", "float16"):
        m, t = tiny_hf.gpt2()
        lm = HFCausalLM(m, t, dtype=dtype)
        assert lm.name.endswith(f"({dtype})") and next(lm.model.parameters()).dtype == getattr(
            tiny_hf.hf()[0], dtype)
        got = lm.log_probs(SENTS)
        assert [n for _, n in got] == [n for _, n in base]
        for (a, _), (b, _) in zip(got, base, strict=True):
            assert a == pytest.approx(b, rel=0.05, abs=0.05)  # low precision, same scale
    with pytest.raises(InputError, match="unknown dtype 'int8'"):
        HFCausalLM(model, tokenizer, dtype="int8")
    auto = HFCausalLM(model, tokenizer, device="auto")
    assert auto.device in ("cpu", "cuda")
    tiny_hf.save(model, tokenizer, tmp_path / "tiny")
    loaded = load_lm(f"hf:{tmp_path / 'tiny'}", local_files_only=True, dtype="float32")
    assert loaded.name == f"hf:{tmp_path / 'tiny'}"
    assert [lp for lp, _ in loaded.log_probs(SENTS)] == pytest.approx([lp for lp, _ in base])
