"""A profile's learned span step (issue 35, errtype.profile.spanmodel/spanfit): the corpus's own
cuts and joins learned from gold spans, stored as JSON numbers, applied after the merge
switches, and errtype's default left unchanged.

Unit tests write their own tiny gold; the slow test fits on one half of the Czech GECCC gold
(../shared) and scores the other half.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errtype.align import AlignOp
from errtype.merge import MergeSettings
from errtype.profile import Profile, ProfileError, load_profile
from errtype.profile.spanmodel import Linear, SpanModel, cut_points, join_spans, split_spans
from errtype.profile.spans import GoldEdit, GoldSentence, read_gold
from errtype.tokens import Sentence, Token

from .conftest import peer

SKLEARN = "scikit-learn missing: pip install 'errtype[profile]' (or pip install scikit-learn)"


def sent(spec: str) -> Sentence:
    """``word/POS`` items separated by spaces."""
    out = []
    for item in spec.split():
        text, pos = item.split("/")
        out.append(Token(text, lemma=text.lower(), pos=pos))
    return Sentence(out)


def _parsed(i: int, kind: str) -> object:
    """A sentence of two touching substitutions: ``noun`` + ``verb`` (the corpus annotates them
    as one edit) or ``noun`` + ``adj`` (two edits); errtype's rule spans keep them apart, except
    in sentences ``i % 3 == 0``, where the rules made them one edit (the split must cut the
    ``adj`` ones)."""
    from errtype.profile.fit import Parsed

    second = "VERB" if kind == "verb" else "ADJ"
    orig = sent(f"we/PRON dogg/NOUN runn{i}/{second} here/ADV")
    cor = sent(f"we/PRON dog/NOUN run{i}/{second} here/ADV")
    seq = [AlignOp("M", 0, 1, 0, 1), AlignOp("S", 1, 2, 1, 2), AlignOp("S", 2, 3, 2, 3),
           AlignOp("M", 3, 4, 3, 4)]
    rules = [(1, 3, 1, 3)] if i % 3 == 0 else [(1, 2, 1, 2), (2, 3, 2, 3)]
    if kind == "verb":
        gold = (GoldEdit(1, 3, f"dog run{i}", "X", 1, 3),)
    else:
        gold = (GoldEdit(1, 2, "dog", "X", 1, 2), GoldEdit(2, 3, f"run{i}", "X", 2, 3))
    g = GoldSentence(i, f"d{i // 4}", tuple(t.text for t in orig), tuple(t.text for t in cor),
                     gold)
    return Parsed(g, orig, cor, rules, [("R:OTHER", ["bias"])] * len(gold), seq=seq)


def toy_corpus(n: int = 96) -> list:
    return [_parsed(i, "verb" if i % 2 else "adj") for i in range(n)]


def test_learns_a_corpus_join_and_split() -> None:
    peer("sklearn", SKLEARN)
    from errtype.profile.fit import fit
    from errtype.profile.spanfit import choose_span_model

    corpus = toy_corpus()
    model, info = choose_span_model(corpus, MergeSettings())
    assert model is not None and info["span_learned"]
    assert info["span_cv_f1_learned"] > info["span_cv_f1_switches"]
    new = _parsed(999, "verb"), _parsed(1000, "adj"), _parsed(1002, "adj")
    # noun + verb joined, noun + adj kept apart (and cut where the rules joined them)
    assert new[0].edit_spans(MergeSettings(), model) == [(1, 3, 1, 3)]
    assert new[1].edit_spans(MergeSettings(), model) == [(1, 2, 1, 2), (2, 3, 2, 3)]
    assert new[2].rule_spans == [(1, 3, 1, 3)]
    assert new[2].edit_spans(MergeSettings(), model) == [(1, 2, 1, 2), (2, 3, 2, 3)]
    # errtype's default is what it was
    assert new[0].edit_spans(MergeSettings()) == new[0].rule_spans
    profile = fit(corpus, "xx", c=1.0)
    assert profile.spans is not None and profile.meta["span_learned"] is True


def test_nothing_to_learn_keeps_no_span_step() -> None:
    peer("sklearn", SKLEARN)
    from errtype.profile.spanfit import choose_span_model

    # the gold is errtype's spans already: the learned step cannot win under cross-validation
    corpus = []
    for p in toy_corpus():
        gold = tuple(GoldEdit(s[0], s[1], " ".join(t.text for t in p.cor[s[2]:s[3]]), "X",
                              s[2], s[3]) for s in p.rule_spans)
        p.gold = GoldSentence(p.gold.index, p.gold.doc, p.gold.tokens, p.gold.cor_tokens, gold)
        corpus.append(p)
    model, info = choose_span_model(corpus, MergeSettings())
    assert model is None and info["span_learned"] is False


def test_cut_points_follow_the_alignment() -> None:
    # a transposition up to diacritics in the same order is two changes; a real swap is one
    orig, cor = sent("hodne/ADV svatku/NOUN"), sent("hodně/ADV svátků/NOUN")
    assert [(k, a, b) for k, a, b in cut_points((0, 2, 0, 2), [AlignOp("T2", 0, 2, 0, 2)],
                                                orig, cor)] == [(1, (0, 1, 0, 1), (1, 2, 1, 2))]
    swap_o, swap_c = sent("vsude/ADV jsem/AUX"), sent("jsem/AUX všude/ADV")
    assert cut_points((0, 2, 0, 2), [AlignOp("T2", 0, 2, 0, 2)], swap_o, swap_c) == []
    # unchanged tokens inside an edit are left out of both parts
    o, c = sent("a/X b/X c/X"), sent("A/X b/X C/X")
    seq = [AlignOp("S", 0, 1, 0, 1), AlignOp("M", 1, 2, 1, 2), AlignOp("S", 2, 3, 2, 3)]
    assert cut_points((0, 3, 0, 3), seq, o, c) == [(1, (0, 1, 0, 1), (2, 3, 2, 3))]
    always = Linear(["bias"], [1.0], 0.0)
    never = Linear(["bias"], [-1.0], 0.0)
    assert split_spans([(0, 3, 0, 3)], seq, o, c, always) == [(0, 1, 0, 1), (2, 3, 2, 3)]
    assert split_spans([(0, 3, 0, 3)], seq, o, c, never) == [(0, 3, 0, 3)]
    # joins: at most max_gap unchanged tokens between, the tokens between included
    assert join_spans([(0, 1, 0, 1), (2, 3, 2, 3)], o, c, always) == [(0, 3, 0, 3)]
    assert join_spans([(0, 1, 0, 1), (2, 3, 2, 3)], o, c, always, max_gap=0) == [
        (0, 1, 0, 1), (2, 3, 2, 3)]


def _profile(spans: SpanModel | None) -> Profile:
    return Profile("uk", MergeSettings(), ["A", "B"], ["op=M"], [[1.0], [-1.0]], [0.0, 0.0],
                   spans=spans)


def test_profile_json_round_trip_with_spans(tmp_path: Path) -> None:
    model = SpanModel(Linear(["bias", "gap=0"], [0.5, -1.25], 0.25), None, 1)
    path = tmp_path / "p.json"
    _profile(model).save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["spans"]["split"]["coef"] == [0.5, -1.25] and data["spans"]["join"] is None
    back = load_profile(path, "uk")
    assert back.spans is not None and back.spans.to_json() == model.to_json()
    assert back.to_json() == data
    _profile(None).save(path)
    assert load_profile(path).spans is None
    # damaged span model, and a profile of the feature set before the span step
    data["spans"] = {"split": {"vocabulary": ["a", "b"], "coef": [1.0], "intercept": 0}}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProfileError, match="damaged"):
        load_profile(path)
    data["spans"], data["features_version"] = None, 1
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProfileError, match="features version 1.*fit the profile again"):
        load_profile(path)


def test_span_model_executes_no_code() -> None:
    root = Path(__file__).resolve().parent.parent
    text = (root / "errtype" / "profile" / "spanmodel.py").read_text(encoding="utf-8")
    for call in ("import pickle", "pickle.load", "eval(", "exec(", "joblib", "marshal", "sklearn"):
        assert call not in text, call


def test_language_applies_the_span_step_after_the_switches(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    from errtype.lang import get_language
    from errtype.profile.apply import profiled

    uk = get_language("uk")
    assert uk.span_model is None                     # errtype's default: no span step
    orig, cor = sent("a/X b/X c/X"), sent("A/X b/X C/X")
    seq = [AlignOp("S", 0, 1, 0, 1), AlignOp("M", 1, 2, 1, 2), AlignOp("S", 2, 3, 2, 3)]
    rules = [(0, 1, 0, 1), (2, 3, 2, 3)]

    def fixed(language: object) -> object:  # uk is the shared instance: patched for this test
        monkeypatch.setattr(language, "rule_spans", lambda *_: list(rules))
        return language

    assert fixed(uk).merge_rules(seq, orig, cor) == rules
    joined = profiled(uk, _profile(SpanModel(None, Linear(["bias"], [1.0], 0.0))))
    assert fixed(joined).merge_rules(seq, orig, cor) == [(0, 3, 0, 3)]
    assert profiled(uk, _profile(None)).span_model is None


# --- fit on the shared gold (slow) ---------------------------------------------------------------

@pytest.mark.slow
def test_learned_spans_on_held_out_half(shared: type) -> None:
    peer("sklearn", SKLEARN)
    peer("ufal", "ufal.udpipe missing: pip install 'errtype[cs]'")
    from errtype.annotator import Annotator
    from errtype.lang.ud import UDLanguage
    from errtype.profile.fit import evaluate, fit, parse_gold
    from errtype.profile.spans import halves

    model = shared.path("..", "models", "cs.udpipe")
    gold = read_gold(shared.path("geccc", "sentence.m2"))[:2000]
    first, second = halves(gold)
    ann = Annotator(UDLanguage("cs"), udpipe_model=str(model))   # the generic UD classifier
    train, test = parse_gold(ann, first), parse_gold(ann, second)
    profile = fit(train, "cs", c=1.0, balance=1.0)
    ev = evaluate(profile, test)
    # regression pin (docs/profiles.md, cs GECCC, generic UD classifier, first 2,000 blocks):
    # span F1 87.0 at errtype's default, 90.0 with the learned span step (86.99 -> 89.99); asserted
    # with 0.5 points of slack
    assert profile.meta["span_learned"] is True
    assert ev.span_default.f1 == pytest.approx(87.0, abs=0.3)
    assert ev.span_profile.f1 >= ev.span_default.f1 + 2.5
