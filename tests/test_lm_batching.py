"""HFCausalLM's batching (the whole input sorted by length, tensors built per batch in one call,
results in input order, a chosen dtype) scores as the previous one-batch-at-a-time path did, on a
tiny randomly initialised GPT-2 built here (no download)."""

from __future__ import annotations

import random

import pytest

from errtype.errors import InputError

from .test_scribendi import _tiny_gpt2

WORDS = "we can not cannot let it go . the a cat".split()


def _old_path(torch, model, tokenizer, sentences, batch_size):
    """The previous implementation: batches cut in input order, rows copied one by one."""
    out = []
    for k in range(0, len(sentences), batch_size):
        batch = sentences[k:k + batch_size]
        enc = [[1] + list(tokenizer(s, add_special_tokens=False)["input_ids"]) for s in batch]
        res = [(0.0, 0)] * len(enc)
        todo = [i for i in sorted(range(len(enc)), key=lambda i: len(enc[i]))
                if len(enc[i]) >= 2]
        if todo:
            width = max(len(enc[i]) for i in todo)
            ids = torch.full((len(todo), width), 0, dtype=torch.long)
            mask = torch.zeros((len(todo), width), dtype=torch.long)
            for row, i in enumerate(todo):
                ids[row, :len(enc[i])] = torch.tensor(enc[i])
                mask[row, :len(enc[i])] = 1
            with torch.no_grad():
                logits = model(input_ids=ids, attention_mask=mask).logits.float()[:, :-1]
            picked = logits.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
            lp = ((picked - torch.logsumexp(logits, -1)) * mask[:, 1:]).sum(1).tolist()
            for row, i in enumerate(todo):
                res[i] = (lp[row], int(mask[row, 1:].sum()))
        out += res
    return out


@pytest.fixture(scope="module")
def tiny():
    return _tiny_gpt2()


def _corpus(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(0, 20))) for _ in range(n)]


def test_same_log_probs_as_the_old_path_and_input_order(tiny) -> None:
    from errtype.score.lm.models import HFCausalLM

    torch, model, tokenizer = tiny
    sents = _corpus(120)
    lm = HFCausalLM(model, tokenizer, batch_size=16)
    new = lm.log_probs(sents)
    old = _old_path(torch, model, tokenizer, sents, 16)
    assert [n for _, n in new] == [n for _, n in old]
    for (a, _), (b, _) in zip(new, old, strict=True):
        assert a == pytest.approx(b, abs=1e-5)
    # every result sits at its sentence's position: each scored alone agrees
    for i in (0, 7, 55, 119):
        alone = lm.log_probs([sents[i]])[0]
        assert alone[1] == new[i][1] and alone[0] == pytest.approx(new[i][0], abs=1e-5)


def test_padding_invariance_and_batch_size_invariance(tiny) -> None:
    from errtype.score.lm.models import HFCausalLM

    _, model, tokenizer = tiny
    lm = HFCausalLM(model, tokenizer)
    short = "the cat"
    long = " ".join(["we can not let it go ."] * 3)
    alone = lm.log_probs([short])[0][0]
    padded = lm.log_probs([long, short, long], batch_size=3)[1][0]
    assert padded == pytest.approx(alone, abs=1e-5)
    sents = _corpus(40, seed=2)
    a = lm.log_probs(sents, batch_size=1)
    b = lm.log_probs(sents, batch_size=64)
    assert all(x[1] == y[1] and x[0] == pytest.approx(y[0], abs=1e-5)
               for x, y in zip(a, b, strict=True))
    assert lm.log_probs([]) == [] and lm.log_probs(["", "a"])[0] == (0.0, 0)


def test_dtype_choice(tiny) -> None:
    import copy

    from errtype.score.lm.models import HFCausalLM

    torch, model, tokenizer = tiny
    with pytest.raises(InputError):
        HFCausalLM(copy.deepcopy(model), tokenizer, dtype="int8")
    half = HFCausalLM(copy.deepcopy(model), tokenizer, dtype="bfloat16")
    assert next(half.model.parameters()).dtype == torch.bfloat16 and "bfloat16" in half.name
    full = HFCausalLM(model, tokenizer)
    sents = _corpus(10, seed=3)
    for (a, n), (b, m) in zip(half.log_probs(sents), full.log_probs(sents), strict=True):
        assert n == m and a == pytest.approx(b, rel=0.05, abs=0.5)
