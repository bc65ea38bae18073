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


# ---------------------------------------------------------------- shared by the encoders

SRCS = ["this sentences contain gramamtical error .", "this is a sentence .",
        "this is no change ."]
HYPS = ["this sentence contains a grammatical error .",
        "the sentence was corrected into completely different one .", "this is no change ."]


def encode(path: Any, texts: Sequence[str], pairs: Sequence[str] | None = None,
           auto: str = "AutoModel") -> tuple[Any, Any]:
    """(model output, encoding) of the saved model at ``path`` for the texts, one at a time
    (no padding at all): the hand computation the metrics are checked against."""
    torch, transformers = tiny_hf.hf()
    model = getattr(transformers, auto).from_pretrained(path).eval()
    tok = transformers.AutoTokenizer.from_pretrained(path)
    outs = []
    for k, t in enumerate(texts):
        enc = tok(t, pairs[k] if pairs is not None else None, return_tensors="pt")
        with torch.no_grad():
            outs.append((model(**enc, output_hidden_states=auto == "AutoModel"), enc))
    return outs, tok


def data(hyps: Sequence[str], srcs: Sequence[str] = SRCS,
         refs: Sequence[Sequence[str]] | None = None) -> Any:
    from errtype.score.registry import ScoreInput

    return ScoreInput([], list(hyps), sources=list(srcs), references=refs)


# ---------------------------------------------------------------- IMPARA

def test_impara_gate_and_quality(tmp_path) -> None:
    from errtype.score import get_metric

    torch, _ = tiny_hf.hf()
    qe = tiny_hf.bert_regressor(tmp_path / "qe", seed=1)
    se = tiny_hf.bert_encoder(tmp_path / "se", seed=2)
    # by hand: sigmoid of the regressor's logit; cosine of mean-pooled last hidden states
    want_qe = [float(torch.sigmoid(o.logits[0, 0])) for o, _ in
               encode(qe, HYPS, auto="AutoModelForSequenceClassification")[0]]
    pooled = [o.last_hidden_state[0].mean(dim=0) for o, _ in encode(se, SRCS + HYPS)[0]]
    want_sim = [float(torch.nn.functional.cosine_similarity(pooled[i], pooled[3 + i], dim=0))
                for i in range(3)]
    assert want_sim[2] == pytest.approx(1.0, abs=1e-6)  # unchanged: always passes the gate
    low = min(want_sim[:2])
    for threshold, passing in [(low - 1e-4, [1, 1, 1]), (low + 1e-4, [
            int(s >= low + 1e-4) for s in want_sim]), (1.01, [0, 0, 0])]:
        m = get_metric("impara", model=str(qe), similarity_model=str(se), threshold=threshold,
                       local_files_only=True, batch_size=2, device="cpu")
        res = m.score(data(HYPS))
        for row, q, s, ok in zip(res.sentences, want_qe, want_sim, passing, strict=True):
            assert row["qe"] == pytest.approx(q, abs=1e-6)
            assert row["similarity"] == pytest.approx(s, abs=1e-5)
            assert row["score"] == (pytest.approx(q, abs=1e-6) if ok else 0.0)
        assert res.corpus["score"] == pytest.approx(
            sum(q * ok for q, ok in zip(want_qe, passing, strict=True)) / 3, abs=1e-6)
    assert sum(passing) == 0 and res.corpus["gated"] == 3
    assert res.signature.startswith(f"impara|qe:{qe}|se:{se}|threshold:1.01|max_length:128|")


def test_impara_constant_quality_and_cache(tmp_path) -> None:
    """A regressor with zero weights and bias b gives sigmoid(b) for every hypothesis; the
    second system scored by the same object reuses the sources' embeddings."""
    from errtype.score import get_metric

    qe = tiny_hf.bert_regressor(tmp_path / "qe", bias=0.5)
    se = tiny_hf.bert_encoder(tmp_path / "se")
    m = get_metric("impara", model=str(qe), similarity_model=str(se), threshold=-1.0,
                   local_files_only=True, device="cpu")
    res = m.score(data(HYPS))
    assert [r["score"] for r in res.sentences] == pytest.approx([1 / (1 + math.exp(-0.5))] * 3)
    cached = len(m._pooled)
    m.score(data(SRCS))  # the sources as a system: nothing new to encode
    assert len(m._pooled) == cached == 5  # 3 sources, 2 changed hypotheses


# ---------------------------------------------------------------- SOME

def test_some_weighted_sum_of_normalised_heads(tmp_path) -> None:
    from errtype.score import get_metric

    root = tmp_path / "gfm-models"
    for head, bias in (("grammer", 2.5), ("fluency", 4.0), ("meaning", 1.0)):
        tiny_hf.bert_regressor(root / head, bias=bias)
    m = get_metric("some", model=str(root), local_files_only=True, device="cpu")
    res = m.score(data(HYPS))
    # (2.5-1)/3 = 0.5, (4-1)/3 = 1, (1-1)/3 = 0: 0.55*0.5 + 0.43*1 + 0.02*0
    assert [r["score"] for r in res.sentences] == pytest.approx([0.705] * 3)
    assert res.corpus == pytest.approx({"score": 0.705, "grammaticality": 0.5, "fluency": 1.0,
                                        "meaning": 0.0})
    other = get_metric("some", model=str(root), weight_g=0.0, weight_f=1.0, weight_m=0.0,
                       local_files_only=True, device="cpu")
    assert other.score(data(HYPS)).corpus["score"] == pytest.approx(1.0)
    assert "weights:0,1,0" in other.score(data(HYPS)).signature


def test_some_heads_by_hand(tmp_path) -> None:
    """Random heads: g and f read the hypothesis, m the (source, hypothesis) pair."""
    from errtype.score import get_metric

    paths = {k: tiny_hf.bert_regressor(tmp_path / k, seed=s) for k, s in
             (("g", 3), ("f", 4), ("m", 5))}
    auto = "AutoModelForSequenceClassification"
    g = [float(o.logits[0, 0]) for o, _ in encode(paths["g"], HYPS, auto=auto)[0]]
    f = [float(o.logits[0, 0]) for o, _ in encode(paths["f"], HYPS, auto=auto)[0]]
    outs, tok = encode(paths["m"], SRCS, HYPS, auto=auto)
    m_ = [float(o.logits[0, 0]) for o, _ in outs]
    enc = outs[1][1]
    assert enc["token_type_ids"][0].tolist().count(1) == len(HYPS[1].split()) + 1  # 2nd segment
    metric = get_metric("some", model_g=str(paths["g"]), model_f=str(paths["f"]),
                        model_m=str(paths["m"]), local_files_only=True, device="cpu",
                        batch_size=2)
    res = metric.score(data(HYPS))
    for row, a, b, c in zip(res.sentences, g, f, m_, strict=True):
        want = 0.55 * (a - 1) / 3 + 0.43 * (b - 1) / 3 + 0.02 * (c - 1) / 3
        assert row["score"] == pytest.approx(want, abs=1e-6)
        assert row["meaning"] == pytest.approx((c - 1) / 3, abs=1e-6)


# ---------------------------------------------------------------- BERTScore

def test_greedy_match_by_hand() -> None:
    """Known unit embeddings: hypothesis tokens [CLS] a b [SEP], reference [CLS] a c [SEP]."""
    torch, _ = tiny_hf.hf()
    from errtype.score.lm.bertscore import greedy_match

    s = math.sqrt(0.5)
    cls, sep = [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]
    hyp = torch.tensor([cls, [0.0, 1.0, 0.0], [s, s, 0.0], sep])
    ref = torch.tensor([cls, [0.0, 1.0, 0.0], [0.0, s, s], sep])
    w = torch.tensor([0.0, 1.0, 1.0, 0.0])
    p, r, f = greedy_match(hyp, w, ref, w)
    # precision: a -> a (1); b=(s,s,0) -> max(cls s, a s, c 0.5, sep 0) = s (the [CLS] counts)
    assert p == pytest.approx((1 + s) / 2)
    # recall: a -> 1; c=(0,s,s) -> max(cls 0, a s, b 0.5, sep s) = s
    assert r == pytest.approx((1 + s) / 2)
    assert f == pytest.approx((1 + s) / 2)
    empty = torch.tensor([cls, sep])
    assert greedy_match(empty, torch.tensor([0.0, 0.0]), ref, w) == (0.0, 0.0, 0.0)


def test_bertscore_against_hand_computation(tmp_path) -> None:
    from errtype.score import get_metric
    from errtype.score.lm.bertscore import read_baseline

    torch, _ = tiny_hf.hf()
    enc = tiny_hf.bert_encoder(tmp_path / "enc", seed=7)
    refs = [["this sentence contains a gramamtical error .", "dummy sentence .",
             "this is no change ."],
            ["these sentences contain grammatical errors .", "another dummy sentence .",
             "this is no change ."]]
    texts = HYPS + refs[0] + refs[1]
    outs, tok = encode(enc, texts)
    special = {tok.cls_token_id, tok.sep_token_id}

    def prf(h: int, r: int, layer: int) -> tuple[float, float, float]:
        (oh, eh), (orr, er) = outs[h], outs[r]
        a = oh.hidden_states[layer][0]
        b = orr.hidden_states[layer][0]
        a, b = a / a.norm(dim=-1, keepdim=True), b / b.norm(dim=-1, keepdim=True)
        wa = torch.tensor([t not in special for t in eh["input_ids"][0].tolist()]).float()
        wb = torch.tensor([t not in special for t in er["input_ids"][0].tolist()]).float()
        sim = a @ b.T
        p = float((sim.max(1).values * wa).sum() / wa.sum())
        r_ = float((sim.max(0).values * wb).sum() / wb.sum())
        return p, r_, 2 * p * r_ / (p + r_)

    base = tmp_path / "base.tsv"
    base.write_text("LAYER,P,R,F\n0,0.1,0.1,0.1\n1,0.3,0.4,0.5\n2,0.2,0.2,0.2\n")
    assert read_baseline(base, 1) == (0.3, 0.4, 0.5)
    for layer in (1, 2):
        for baseline in ("none", str(base)):
            m = get_metric("bertscore", model=str(enc), layer=layer, baseline=baseline,
                           local_files_only=True, device="cpu", batch_size=4)
            res = m.score(data(HYPS, refs=refs))
            b = read_baseline(base, layer) if baseline != "none" else (0.0, 0.0, 0.0)
            for i, row in enumerate(res.sentences):
                each = [prf(i, 3 + i, layer), prf(i, 6 + i, layer)]
                want = [(max(e[c] for e in each) - b[c]) / (1 - b[c]) for c in range(3)]
                assert [row["P"], row["R"], row["F"]] == pytest.approx(want, abs=1e-5)
                assert row["score"] == row["F"]
            assert res.sentences[2]["F"] == pytest.approx((1 - b[2]) / (1 - b[2]), abs=1e-6)
    # the source-aware variant: the hypothesis against the source, no references needed
    m = get_metric("bertscore", model=str(enc), layer=2, baseline="none", against="source",
                   score_type="r", local_files_only=True, device="cpu")
    assert m.uses == ()
    src_outs, _ = encode(enc, SRCS)
    outs = outs[:3] + src_outs
    res = m.score(data(HYPS))
    assert [row["score"] for row in res.sentences] == pytest.approx(
        [prf(i, 3 + i, 2)[1] for i in range(3)], abs=1e-5)
    assert "against:source" in res.signature and "baseline:none" in res.signature


def test_bertscore_settings(tmp_path) -> None:
    from errtype.score.lm.bertscore import LAYERS, BertScore

    get_metric = BertScore  # its settings without the registry (which needs the lm extra)

    m = get_metric("bertscore")
    assert m.num_layer() == LAYERS["bert-base-uncased"] == 9
    assert m.baseline_values() == ("en-bert-base-uncased:L9",
                                   (0.35375935, 0.3537393, 0.35219112))  # bert_score's file
    roberta = get_metric("bertscore", model="FacebookAI/roberta-large")
    assert roberta.baseline_values()[1] == (0.83150584, 0.8314941, 0.83122575)
    assert get_metric("bertscore", model="x/y", layer=3).baseline_values() == ("none", None)
    with pytest.raises(InputError, match="no tuned layer known for 'x/y'"):
        get_metric("bertscore", model="x/y").settings()
    with pytest.raises(InputError, match="score_type"):
        get_metric("bertscore", score_type="g")
    with pytest.raises(InputError, match="no such BERTScore baseline file"):
        get_metric("bertscore", baseline=str(tmp_path / "nope.tsv")).baseline_values()


# ---------------------------------------------------------------- command line, extras

def test_errtype_score_runs_the_neural_metrics(tmp_path, capsys) -> None:
    from errtype.cli.score import main

    qe = tiny_hf.bert_regressor(tmp_path / "qe", bias=0.0)
    enc = tiny_hf.bert_encoder(tmp_path / "enc")
    src, ref, hyp = tmp_path / "src.txt", tmp_path / "ref.txt", tmp_path / "hyp.txt"
    src.write_text("\n".join(SRCS) + "\n")
    ref.write_text("\n".join(HYPS) + "\n")
    hyp.write_text("\n".join(HYPS) + "\n")
    assert main(["-m", "impara", "bertscore", "--src", str(src), "--ref", str(ref),
                 "--hyp", f"SYS={hyp}", f"SRC={src}", "--tsv", "--device", "cpu",
                 "--dtype", "float32", "-O", f"impara.model={qe}",
                 "-O", f"impara.similarity_model={enc}", "-O", "impara.threshold=-1",
                 "-O", f"bertscore.model={enc}", "-O", "bertscore.layer=1",
                 "-O", "impara.local_files_only=True", "-O", "bertscore.local_files_only=True"]
                ) == 0
    rows = [ln.split("\t") for ln in capsys.readouterr().out.splitlines()[1:5]]
    got = {(r[0], r[1]): float(r[2]) for r in rows}
    assert got[("SYS", "impara")] == pytest.approx(0.5) == got[("SRC", "impara")]  # sigmoid(0)
    assert got[("SYS", "bertscore")] == pytest.approx(1.0, abs=1e-6)  # the reference itself
    assert got[("SRC", "bertscore")] < 1.0


def test_without_torch_a_clear_error(monkeypatch) -> None:
    """No peer needed: with torch unimportable every torch metric says which extra to
    install."""
    import sys

    from errtype.errors import ResourceError
    from errtype.score import get_metric

    monkeypatch.setitem(sys.modules, "torch", None)
    for name, extra in (("impara", {}), ("some", {}), ("bertscore", {"layer": 1})):
        with pytest.raises(ResourceError, match=r"needs torch.*\(pip install 'errtype\[lm\]'\)"):
            get_metric(name, device="cpu", **extra)  # refused before any input is read
