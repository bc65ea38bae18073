"""Tagger-independent fidelity: recorded spaCy tokens in, ERRANT 3.0.2 alignments and edits out."""

from __future__ import annotations

import functools
import json

import pytest

from errtype.align import align
from errtype.edit import Edit
from errtype.lang import get_language
from errtype.merge import STRATEGIES, merge
from errtype.tokens import Sentence, Token

from .conftest import shared_path

EN = get_language("en")


def to_sentence(toks: list[dict]) -> Sentence:
    return Sentence([Token(t["text"], t["lemma"], t["pos"], t["tag"], t["dep"], t["head"],
                           t.get("morph", ""), " ", t["lower"]) for t in toks])


def load_oracle(*parts: str) -> list[dict]:
    with open(shared_path(*parts), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def typed_edits(orig: Sentence, cor: Sentence, lev: bool, strategy: str) -> list[list]:
    al = align(orig, cor, EN, lev)
    out = []
    for span in merge(al.align_seq, orig, cor, EN, strategy):
        e = Edit.from_spans(orig, cor, *span)
        out.append([*span, EN.classify(e, orig, cor), e.c_str])
    return out


@functools.cache
def english_parser():
    return EN.make_parser()


ORACLES = [("oracles", "en_oracles", "token_level_oracle.jsonl"),
           ("oracles", "en_demo", "token_level_oracle_cor1.jsonl"),
           ("oracles", "en_demo", "token_level_oracle_cor2.jsonl")]


@pytest.mark.parametrize("oracle", ORACLES, ids=lambda p: p[-1])
@pytest.mark.parametrize("lev", [False, True], ids=["dl", "lev"])
def test_alignment_and_edits_match_oracle(oracle: tuple[str, ...], lev: bool) -> None:
    records = load_oracle(*oracle)
    assert records
    mode = "lev" if lev else "dl"
    failures = []
    for n, rec in enumerate(records):
        orig, cor = to_sentence(rec["orig_tokens"]), to_sentence(rec["cor_tokens"])
        al = align(orig, cor, EN, lev)
        seq = [list(a) for a in al.align_seq]
        if seq != rec[f"align_seq_{mode}"]:
            failures.append((n, "align", rec["orig"], seq, rec[f"align_seq_{mode}"]))
        if al.cost != rec[f"total_cost_{mode}"]:
            failures.append((n, "cost", rec["orig"], al.cost, rec[f"total_cost_{mode}"]))
        for strategy in STRATEGIES:
            got = typed_edits(orig, cor, lev, strategy)
            want = rec[f"edits_{mode}_{strategy}"]
            if got != want:
                failures.append((n, strategy, rec["orig"], rec["cor"], got, want))
    assert not failures, "\n".join(map(str, failures))


def test_alignment_matrices_cell_for_cell() -> None:
    with open(shared_path("oracles", "en_oracles", "alignment_matrices_oracle.json"),
              encoding="utf-8") as fh:
        cases = json.load(fh)
    tokens = {(r["orig"], r["cor"]): r for r in load_oracle(*ORACLES[0])}
    checked = 0
    for case in cases:
        rec = tokens.get((case["orig"], case["cor"]))
        if rec is not None:
            orig, cor = to_sentence(rec["orig_tokens"]), to_sentence(rec["cor_tokens"])
        else:  # no recorded tokens: parse with the same spaCy model as the oracle
            orig, cor = english_parser().parse(case["orig"]), english_parser().parse(case["cor"])
        al = align(orig, cor, EN, case["lev"])
        assert al.cost_matrix == case["cost_matrix"], case["orig"]
        assert al.op_matrix == case["op_matrix"], case["orig"]
        assert [list(a) for a in al.align_seq] == case["align_seq"]
        if not case["lev"]:
            edits = [EN.classify(e := Edit.from_spans(orig, cor, *s), orig, cor)
                     for s in merge(al.align_seq, orig, cor, EN)]
            rendered = [str(Edit.from_spans(orig, cor, *s, type=t)) for s, t in
                        zip(merge(al.align_seq, orig, cor, EN), edits, strict=True)]
            assert rendered == case["rule_edits"]
            del e
        checked += 1
    assert checked == len(cases) == 12
