"""Scribendi score: TSR/LDR, each branch, the pluggable LMs and offline runs on shared data."""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Sequence

import pytest

from errtype.cli.scribendi import main
from errtype.errors import InputError, LineCountError
from errtype.score.lm.models import ArpaLM, LanguageModel, SphinxLM, load_lm
from errtype.score.lm.scribendi import (
    Scribendi,
    levenshtein_distance_ratio,
    scribendi,
    sentence_score,
    token_sort_ratio,
)

from . import tiny_hf
from .conftest import peer, shared_path

# Table 1 of Islam & Magnani (2021)
T1_SRC = ("Once the test is done , whether the results should be open to his or her relatives "
          "has caused social extensive controversy.")
T1_HYP = ("Once the test is done , whether the results should be open to his or her relatives "
          "has caused extensive social controversy.")
T2_SRC = "We can not let it go ."
T2_HYP = "We cannot let it go ."


class FakeLM(LanguageModel):
    """Perplexities from a dict (unknown sentences: 100)."""

    name = "fake"

    def __init__(self, ppl: dict[str, float]) -> None:
        self.ppl = ppl
        self.calls: list[list[str]] = []

    def _score_batch(self, sentences: Sequence[str]) -> list[tuple[float, int]]:
        self.calls.append(list(sentences))
        return [(-math.log(self.ppl.get(s, 100.0)), 1) for s in sentences]


# ---------------------------------------------------------------- similarity ratios

def test_table1_example1() -> None:
    assert token_sort_ratio(T1_SRC, T1_HYP) == 1.0
    assert token_sort_ratio(T1_SRC, T1_HYP, "float") == 1.0
    assert 100 * levenshtein_distance_ratio(T1_SRC, T1_HYP) == pytest.approx(94.308, abs=1e-3)


def test_table1_example2() -> None:
    assert 100 * token_sort_ratio(T2_SRC, T2_HYP, "float") == pytest.approx(82.05, abs=5e-3)
    assert token_sort_ratio(T2_SRC, T2_HYP) == 0.82  # fuzzywuzzy: integer percentage
    assert token_sort_ratio(T2_SRC, T2_HYP, "difflib") == 0.82
    assert 100 * levenshtein_distance_ratio(T2_SRC, T2_HYP) == pytest.approx(97.67, abs=5e-3)


def test_rapidfuzz_without_processor_differs() -> None:
    """rapidfuzz 3 does not preprocess by default: '.' and case then count (0.8372)."""
    from rapidfuzz import fuzz

    assert fuzz.token_sort_ratio(T2_SRC, T2_HYP) / 100 == pytest.approx(0.8372, abs=1e-4)


def test_integer_rounding_near_threshold() -> None:
    a = "cannot made are it made home go they cannot"
    b = "home the are they cannot go it made they"
    assert token_sort_ratio(a, b, "float") == pytest.approx(0.79518, abs=1e-5)
    assert token_sort_ratio(a, b) == 0.80
    assert levenshtein_distance_ratio(a, b) < 0.8
    # so the fuzzywuzzy-compatible TSR passes the 0.8 threshold and the float one does not
    assert sentence_score(a, b, 50.0, 10.0).score == 1
    assert sentence_score(a, b, 50.0, 10.0, tsr="float").score == -1


def test_ratio_edge_cases() -> None:
    assert levenshtein_distance_ratio("", "") == 1.0
    assert levenshtein_distance_ratio("ab", "") == 0.0
    assert levenshtein_distance_ratio("ab", "ac") == 0.5  # substitution costs 2
    assert token_sort_ratio("B a", "a b!") == 1.0
    assert token_sort_ratio("...", "a") == 0.0
    assert token_sort_ratio("caf\u00e9 x", "caf x") == 1.0  # fuzzywuzzy drops U+0080-U+00FF
    with pytest.raises(ValueError):
        token_sort_ratio("a", "b", "nope")


# ---------------------------------------------------------------- branches

def test_branch_unchanged() -> None:
    s = sentence_score("same .", "same .", 1.0, 1.0)
    assert (s.score, s.reason) == (0, "unchanged")


@pytest.mark.parametrize("ppl_hyp", [50.0, 60.0])
def test_branch_ppl_not_lower(ppl_hyp: float) -> None:
    s = sentence_score(T2_SRC, T2_HYP, 50.0, ppl_hyp)  # equal perplexity is not a drop
    assert (s.score, s.reason) == (-1, "ppl_not_lower")


def test_branch_similar_and_dissimilar() -> None:
    s = sentence_score(T2_SRC, T2_HYP, 50.0, 40.0)
    assert (s.score, s.reason) == (1, "similar")
    s = sentence_score("We can not let it go .", "Completely different words here", 50.0, 40.0)
    assert (s.score, s.reason) == (-1, "dissimilar")
    assert max(s.tsr, s.ldr) < 0.8


def test_threshold_is_inclusive() -> None:
    a, b = "abcd", "abce"  # LDR = 1 - 2/8 = 0.75
    assert sentence_score(a, b, 2.0, 1.0, threshold=0.75).score == 1
    assert sentence_score(a, b, 2.0, 1.0, threshold=0.76).score == -1


def test_corpus_sum_mean_and_cache() -> None:
    lm = FakeLM({T1_SRC: 200.0, T1_HYP: 120.0, T2_SRC: 110.0, T2_HYP: 145.0})
    scorer = Scribendi(lm)
    res = scorer.score([T1_SRC, T2_SRC, "x ."], [T1_HYP, T2_HYP, "x ."])
    assert [s["score"] for s in res.sentences] == [1, -1, 0]
    assert res.corpus["score"] == 0 and res.corpus["mean"] == 0.0
    assert (res.corpus["plus"], res.corpus["zero"], res.corpus["minus"]) == (1, 1, 1)
    assert "x ." not in sum(lm.calls, [])  # unchanged pairs need no LM call
    scorer.score([T1_SRC], [T1_HYP])  # a second system: all perplexities cached
    assert len(sum(lm.calls, [])) == 4
    assert res.signature.startswith("scribendi|lm:fake|threshold:0.8|tsr:fuzzywuzzy|")
    assert scribendi([T1_SRC], [T1_HYP], lm).corpus["score"] == 1


def test_length_mismatch() -> None:
    with pytest.raises(LineCountError):
        Scribendi(FakeLM({})).score(["a"], ["a", "b"])


# ---------------------------------------------------------------- n-gram backends

ARPA = """\\data\\
ngram 1=5
ngram 2=3

\\1-grams:
-1.0\t<s>\t-0.5
-0.5\t</s>
-0.7\ta\t-0.3
-0.9\tb\t-0.2
-2.0\t<unk>

\\2-grams:
-0.2\t<s> a
-0.1\ta b
-0.3\tb </s>

\\end\\
"""


@pytest.fixture
def arpa_file(tmp_path):
    p = tmp_path / "tiny.arpa"
    p.write_text(ARPA)
    return p


def test_arpa_backoff_arithmetic(arpa_file, tmp_path) -> None:
    lm = ArpaLM(arpa_file)
    assert lm.order == 2
    # <s> a b </s>: all bigrams present
    assert lm.sentence_log10(["a", "b"]) == pytest.approx(-0.2 - 0.1 - 0.3)
    # <s> b a </s>: backoff(<s>) + p(b), backoff(b) + p(a), backoff(a) + p(</s>)
    assert lm.sentence_log10(["b", "a"]) == pytest.approx(
        (-0.5 - 0.9) + (-0.2 - 0.7) + (-0.3 - 0.5))
    # OOV -> <unk>, and the word after it has no usable history
    assert lm.sentence_log10(["zzz"]) == pytest.approx((-2.0) + (-0.5))
    lp, n = lm.log_probs(["a b"])[0]
    assert n == 3 and lp == pytest.approx(-0.6 * math.log(10))
    gz = tmp_path / "tiny.arpa.gz"
    gz.write_bytes(gzip.compress(ARPA.encode()))
    assert load_lm(f"arpa:{gz}").perplexities(["a b"]) == lm.perplexities(["a b"])
    assert ArpaLM(arpa_file, lowercase=True).perplexities(["A B"]) == lm.perplexities(["a b"])


def test_arpa_errors(tmp_path) -> None:
    bad = tmp_path / "bad.arpa"
    bad.write_text("hello\n")
    with pytest.raises(InputError):
        ArpaLM(bad)
    with pytest.raises(InputError):
        ArpaLM(tmp_path / "missing.arpa")
    with pytest.raises(InputError):
        load_lm("nonsense:x")


def test_kenlm_matches_arpa(arpa_file) -> None:
    peer("kenlm", "the optional kenlm extra (builds from source)")
    ken = load_lm(f"kenlm:{arpa_file}")
    ours = ArpaLM(arpa_file)
    sents = ["a b", "b a", "a a b b"]
    for (k, nk), (o, no) in zip(ken.log_probs(sents), ours.log_probs(sents), strict=True):
        assert nk == no and k == pytest.approx(o, abs=1e-4)


def test_default_lm_offline() -> None:
    lm = load_lm()
    assert isinstance(lm, SphinxLM)
    assert lm.tokenize("I do n't know , it 's JOHN 's e-mail .") == [
        "i", "don't", "know", "it's", "john's", "e-mail"]
    good, bad = lm.perplexities(["I have a pen .", "I has a pen ."])
    assert good < bad
    fixed, typo = lm.perplexities(["We saw the technologies .", "We saw the tecnologies ."])
    assert fixed < typo  # an OOV word costs more than a known one
    assert lm.log_probs([""])[0][1] == 1  # only </s>


# ---------------------------------------------------------------- transformers backend

def _tiny_gpt2():
    torch, _ = tiny_hf.hf()
    return (torch, *tiny_hf.gpt2())


def test_hf_backend_batched_equals_single(tmp_path) -> None:
    from errtype.score.lm.models import HFCausalLM

    torch, model, tokenizer = _tiny_gpt2()
    lm = HFCausalLM(model, tokenizer, batch_size=3)
    sents = ["we can not let it go .", "we cannot let it go .", "the cat", "a", ""]
    batched = lm.log_probs(sents)
    single = [lm.log_probs([s], batch_size=1)[0] for s in sents]
    for (a, na), (b, nb) in zip(batched, single, strict=True):
        assert na == nb and a == pytest.approx(b, abs=1e-4)
    assert [n for _, n in batched] == [7, 6, 2, 1, 0]
    assert math.isinf(lm.perplexities([""])[0])
    # by hand: BOS prepended, ln p of each following token
    ids = [1] + tokenizer("the cat", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logp = torch.log_softmax(model(torch.tensor([ids])).logits[0], -1)
    manual = float(logp[0, ids[1]] + logp[1, ids[2]])
    assert batched[2][0] == pytest.approx(manual, abs=1e-5)
    # saved to a directory and loaded by spec, never downloading
    model.save_pretrained(tmp_path / "tiny")
    tokenizer.save_pretrained(tmp_path / "tiny")
    loaded = load_lm(f"hf:{tmp_path / 'tiny'}", local_files_only=True)
    assert loaded.log_probs(["the cat"])[0][0] == pytest.approx(manual, abs=1e-5)
    res = Scribendi(loaded).score([T2_SRC.lower()], [T2_HYP.lower()])
    assert res.corpus["n"] == 1 and res.sentences[0]["reason"] in (
        "similar", "ppl_not_lower")


# ---------------------------------------------------------------- CLI and shared data

def test_cli_small(tmp_path, capsys) -> None:
    src = tmp_path / "src"
    hyp = tmp_path / "hyp"
    src.write_text("I has a pen . \nSame .\n")
    hyp.write_text("I have a pen .\nSame .\n")
    out_json = tmp_path / "r.json"
    sent = tmp_path / "s.tsv"
    assert main([str(src), str(hyp), "--json", str(out_json), "--sentences", str(sent)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split("\t")[:6] == ["hyp", "1", "0.5000", "2", "1", "1"]
    assert out[-1].startswith("scribendi|lm:sphinx:en-us.lm.bin|")
    data = json.loads(out_json.read_text())
    assert data["hyp"]["corpus"]["score"] == 1
    assert sent.read_text().splitlines()[1].startswith("hyp\t0\t1\tsimilar\t")
    bad = tmp_path / "bad"
    bad.write_text("one line\n")
    assert main([str(src), str(bad)]) == 2


def test_jfleg_dev_default_lm(capsys) -> None:
    d = shared_path("jfleg")
    refs = [str(d / f"dev.ref{i}") for i in range(4)]
    assert main([str(d / "dev.src"), *refs]) == 0
    rows = [ln.split("\t") for ln in capsys.readouterr().out.splitlines()[1:5]]
    # regression pins (the offline sphinx LM; no published Scribendi figures for this LM)
    assert {r[0]: int(r[1]) for r in rows} == {
        "dev.ref0": 321, "dev.ref1": 299, "dev.ref2": 327, "dev.ref3": 360}


def test_conll14_systems_default_lm(capsys) -> None:
    d = shared_path("conll14", "systems")
    names = ["AMU", "CAMB", "CUUI", "INPUT"]
    assert main([str(d / "INPUT"), *(str(d / n) for n in names)]) == 0
    rows = [ln.split("\t") for ln in capsys.readouterr().out.splitlines()[1:5]]
    got = {r[0]: (int(r[1]), int(r[4]), int(r[5]), int(r[6])) for r in rows}
    # regression pins (the offline sphinx LM), except INPUT: unchanged everywhere, score 0
    assert got == {"AMU": (534, 633, 580, 99), "CAMB": (577, 843, 203, 266),
                   "CUUI": (139, 495, 461, 356), "INPUT": (0, 0, 1312, 0)}
