"""The neural plug-ins (BERTScore, IMPARA, SOME) on tiny randomly initialised BERT models built
here (no download; checked against the same arithmetic done by hand with torch), and the LLM
judges with a fake judge and with a loopback server speaking the OpenAI chat API."""

from __future__ import annotations

import http.server
import json
import math
import threading
from pathlib import Path

import pytest

from errtype.errors import InputError
from errtype.score.registry import ScoreInput, get_metric
from errtype.score.suite import aggregate_rows, load_suite, score_systems

from .conftest import peer

WORDS = "[PAD] [CLS] [SEP] [UNK] he go goes went home to school the a cat .".split()


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    torch = peer("torch", "the 'lm' extra; .ci/run installs it for its second step")
    transformers = peer("transformers", "the 'lm' extra")
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]",
        unk_token="[UNK]")
    config = transformers.BertConfig(vocab_size=len(WORDS), hidden_size=16, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=32,
                                     max_position_embeddings=64, num_labels=1)
    root = tmp_path_factory.mktemp("tiny-bert")
    out = {}
    for name, cls, seed in (("enc", transformers.BertModel, 0),
                            ("qe", transformers.BertForSequenceClassification, 1),
                            ("g", transformers.BertForSequenceClassification, 2),
                            ("f", transformers.BertForSequenceClassification, 3),
                            ("m", transformers.BertForSequenceClassification, 4)):
        torch.manual_seed(seed)
        model = cls(config).eval()
        model.save_pretrained(root / name)
        tokenizer.save_pretrained(root / name)
        out[name] = str(root / name)
    return torch, transformers, tokenizer, out


def _embed(torch, transformers, path, text, layer):
    model = transformers.BertModel.from_pretrained(path).eval()
    tok = transformers.PreTrainedTokenizerFast.from_pretrained(path)
    enc = tok([text], return_tensors="pt")
    with torch.no_grad():
        h = model(**enc, output_hidden_states=True).hidden_states[layer][0, 1:-1]
    return h / h.norm(dim=-1, keepdim=True)


def test_bertscore_by_hand_and_best_reference(tiny_bert) -> None:
    torch, transformers, _, paths = tiny_bert
    metric = get_metric("bertscore", model=paths["enc"], local_files_only=True)
    cand, ref = "he goes home .", "he went to school ."
    got = metric.scorer().pairs([cand, cand], [ref, cand])
    a = _embed(torch, transformers, paths["enc"], cand, 2)
    b = _embed(torch, transformers, paths["enc"], ref, 2)
    sim = a @ b.T
    p, r = float(sim.max(1).values.mean()), float(sim.max(0).values.mean())
    assert got["p"][0] == pytest.approx(p, abs=1e-5) and got["r"][0] == pytest.approx(r, abs=1e-5)
    assert got["f"][0] == pytest.approx(2 * p * r / (p + r), abs=1e-5)
    assert got["f"][1] == pytest.approx(1.0, abs=1e-5)
    res = metric.score(ScoreInput([], [cand], sources=["he go home ."],
                                  references=[[ref], [cand]]))
    assert res.sentences[0]["reference"] == 1
    assert res.corpus["bertscore"] == pytest.approx(1.0, abs=1e-5)
    # layer choice changes the embeddings used
    other = get_metric("bertscore", model=paths["enc"], layer=1).scorer().pairs([cand], [ref])
    assert other["f"][0] != pytest.approx(got["f"][0], abs=1e-9)


def test_impara_by_hand(tiny_bert) -> None:
    torch, transformers, _, paths = tiny_bert
    src = ["he go home .", "the cat go to school ."]
    hyp = ["he goes home .", "the cat go to school ."]
    m = get_metric("impara", qe_model=paths["qe"], se_model=paths["enc"], threshold=-1.0)
    res = m.score(ScoreInput([], hyp, sources=src))
    qe = transformers.BertForSequenceClassification.from_pretrained(paths["qe"]).eval()
    tok = transformers.PreTrainedTokenizerFast.from_pretrained(paths["qe"])
    for i, h in enumerate(hyp):
        with torch.no_grad():
            q = torch.sigmoid(qe(**tok([h], return_tensors="pt")).logits)[0, 0].item()
        assert res.sentences[i]["quality"] == pytest.approx(q, abs=1e-5)
        assert res.sentences[i]["score"] == pytest.approx(q, abs=1e-5)
    assert res.sentences[1]["similarity"] == pytest.approx(1.0, abs=1e-5)  # unchanged
    strict = get_metric("impara", qe_model=paths["qe"], se_model=paths["enc"], threshold=1.5)
    assert strict.score(ScoreInput([], hyp, sources=src)).corpus["impara"] == 0.0


def test_some_by_hand(tiny_bert) -> None:
    torch, transformers, _, paths = tiny_bert
    m = get_metric("some", model_g=paths["g"], model_f=paths["f"], model_m=paths["m"])
    src, hyp = ["he go home ."], ["he goes home ."]
    res = m.score(ScoreInput([], hyp, sources=src))
    tok = transformers.PreTrainedTokenizerFast.from_pretrained(paths["f"])

    def rating(path, *texts):
        model = transformers.BertForSequenceClassification.from_pretrained(path).eval()
        with torch.no_grad():
            return (model(**tok(*texts, return_tensors="pt")).logits[0, 0].item() - 1) / 3

    g, f, mm = rating(paths["g"], hyp), rating(paths["f"], hyp), rating(paths["m"], src, hyp)
    assert res.sentences[0]["score"] == pytest.approx(0.55 * g + 0.43 * f + 0.02 * mm, abs=1e-5)


# ------------------------------------------------------------------ LLM judges


def _judge_by_length(prompt: str) -> str:
    """Scores each target by its number of words (more words, higher), as a judge would reply."""
    targets = [ln.split(": ", 1)[1] for ln in prompt.splitlines() if ln.startswith("target")
               and ": " in ln]
    body = {f"target_score{i + 1}": min(5, len(t.split())) for i, t in enumerate(targets)}
    return "```json\n" + json.dumps(body) + "\n```"


def _systems(tmp_path: Path) -> tuple[Path, list[tuple[str, str]]]:
    src = tmp_path / "src.txt"
    src.write_text("he go\nthe cat\n")
    outs = {"a": "he goes home\nthe cat\n", "b": "he go\nthe cat sat\n",
            "c": "he goes\nthe cat\n", "d": "he went\nthe cat sat\n",
            "e": "he went home now\nthe\n", "f": "he x\nthe cat\n", "g": "he y\nthe cat\n"}
    systems = []
    for k, v in outs.items():
        (tmp_path / f"{k}.txt").write_text(v)
        systems.append((k, str(tmp_path / f"{k}.txt")))
    return src, systems


def test_llm_s_with_a_fake_judge_and_trueskill(tmp_path: Path) -> None:
    prompts = []

    def judge(prompt: str) -> str:
        prompts.append(prompt)
        return _judge_by_length(prompt)

    src, systems = _systems(tmp_path)
    suite = load_suite(systems, [], src)
    metric = get_metric("llm-s", judge=judge, cache=str(tmp_path / "cache.jsonl"))
    rows = score_systems([("llm-s", metric)], suite)
    by = {r.system: r.result for r in rows}
    # sentence 1: 7 distinct hypotheses; the five most frequent (all once: the first five
    # seen) are judged, f and g are not
    assert len(prompts) == 2 and "he x" not in prompts[0] and "he go" in prompts[0]
    assert by["f"].sentences[0]["score"] is None and by["a"].sentences[0]["score"] == 3
    assert by["e"].sentences[0]["score"] == 4 and by["e"].corpus["judged"] == 2
    ranked = {r.system: r.value for r in aggregate_rows(rows, "trueskill")}
    assert len(ranked) == 7 and all(math.isfinite(v) for v in ranked.values())
    # b ties c on sentence 1 (2 words each) and beats it on sentence 2 (3 words against 2)
    ew = {r.system: r.value for r in aggregate_rows(rows, "expected_wins")}
    assert ew["b"] > ew["c"] and ranked["b"] > ranked["c"]
    # the cache answers a rerun without asking the judge
    again = get_metric("llm-s", judge=lambda p: pytest.fail("asked again"),
                       cache=str(tmp_path / "cache.jsonl"))
    rows2 = score_systems([("llm-s", again)], load_suite(systems, [], src))
    assert [r.value for r in rows2] == [r.value for r in rows]


def test_llm_e_shows_edits() -> None:
    from errtype.m2 import M2Block, M2Edit
    from errtype.score.lm.llm_judge import edit_form

    block = M2Block("he go home", [M2Edit(1, 2, "R:VERB", "goes", 0),
                                   M2Edit(3, 3, "M:PUNCT", ".", 0), M2Edit(0, 1, "U", "-NONE-", 0)])
    assert edit_form(block) == "[he→] [go→goes] [→.]"


def test_judge_reply_parsing_and_errors() -> None:
    from errtype.score.lm.llm_judge import parse_scores

    assert parse_scores('Sure! {"target1_score": 2, "target_score2": 5}', 2) == [2.0, 5.0]
    with pytest.raises(InputError):
        parse_scores("no json here", 1)
    with pytest.raises(InputError):
        parse_scores('{"target_score1": 3}', 2)
    with pytest.raises(InputError):
        get_metric("llm-s").score(ScoreInput([], ["a"], sources=["a"]))  # no judge
    with pytest.raises(InputError):
        get_metric("llm-s", judge=_judge_by_length, template="no placeholders").score(
            ScoreInput([], ["a"], sources=["a"]))


def test_openai_compatible_loopback_server(tmp_path: Path, monkeypatch) -> None:
    seen = []

    class Chat(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server API
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append((self.path, self.headers.get("Authorization"), body))
            reply = _judge_by_length(body["messages"][-1]["content"])
            data = json.dumps({"choices": [{"message": {"role": "assistant",
                                                        "content": reply}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Chat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("TEST_JUDGE_KEY", "sk-test")
        metric = get_metric("llm-s", model="tiny-judge", api_key_env="TEST_JUDGE_KEY",
                            base_url=f"http://127.0.0.1:{server.server_address[1]}/v1")
        res = metric.score(ScoreInput([], ["he goes home ."], sources=["he go home ."]))
        assert res.sentences[0]["score"] == 4
        path, auth, body = seen[0]
        assert path == "/v1/chat/completions" and auth == "Bearer sk-test"
        assert body["model"] == "tiny-judge" and body["temperature"] == 0
        assert "tiny-judge" in res.signature
    finally:
        server.shutdown()
        server.server_close()


def test_unscored_sentences_take_no_part_in_comparisons() -> None:
    from errtype.score.meta.aggregation import aggregate, pairwise_games

    scores = {"a": [1.0, math.nan], "b": [0.0, 1.0]}
    assert pairwise_games(scores) == [("a", "b", False)]
    assert aggregate(scores, "expected_wins") == {"a": 1.0, "b": 0.0}
