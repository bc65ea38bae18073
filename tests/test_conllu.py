"""CoNLL-U input: the reader (fields, multi-word tokens, empty nodes, SpaceAfter, errors), its
identity with the in-process UDPipe backend, and errtype-m2 --conllu-orig/--conllu-cor."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli import m2 as cli
from errtype.errors import InputError, LineCountError
from errtype.m2 import read_m2
from errtype.parse.conllu import count_sentences, read_conllu
from errtype.tokens import Sentence, Token

from .conftest import SHARED, apply_m2, peer, shared_path

HAND = """\
# newdoc id = d1
# sent_id = 1
# text = Nechci do školy.
1\tNechci\tchtít\tVERB\tVB-S---1P-NA---\tMood=Ind|Number=Sing\t0\troot\t_\t_
2-3\tdoškoly\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
2\tdo\tdo\tADP\tRR--2----------\tCase=Gen\t3\tcase\t_\t_
3\tškoly\tškola\tNOUN\tNNFS2-----A----\tCase=Gen|Gender=Fem\t1\tobl\t_\tSpaceAfter=No|X=1
3.1\tjít\tjít\tVERB\t_\t_\t_\t_\t1:xcomp\t_
4\t.\t.\tPUNCT\tZ:-------------\t_\t1\tpunct\t_\t_

# sent_id = 2
1-2\tvámos\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No
1\tvá\tir\tVERB\t_\t_\t0\troot\t_\t_
2\tmos\tnosotros\tPRON\t_\t_\t1\tobj\t_\t_
3\t!\t!\tPUNCT\t_\t_\t1\tpunct\t_\t_
4\t_\t_\tSYM\t_\t_\t_\t_\t_\t_
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_hand_written_file(tmp_path: Path) -> None:
    path = write(tmp_path, "hand.conllu", HAND)
    (line1, s1), (line2, s2) = read_conllu(path)
    assert (line1, line2) == (1, 11) and count_sentences(path) == 2
    assert s1 == Sentence([
        Token("Nechci", "chtít", "VERB", "VB-S---1P-NA---", "ROOT", 0, "Mood=Ind|Number=Sing"),
        Token("do", "do", "ADP", "RR--2----------", "case", 2, "Case=Gen"),
        Token("školy", "škola", "NOUN", "NNFS2-----A----", "obl", 0, "Case=Gen|Gender=Fem", ""),
        Token(".", ".", "PUNCT", "Z:-------------", "punct", 0, "", ""),
    ])
    assert s1.span_text(0, 4) == "Nechci do školy."  # the "# text" line
    assert s1.children(0) == (2, 3) and s1.children(2) == (1,)
    # a multi-word token: a space inside it, its SpaceAfter=No after its last word; "_" is a
    # form (and then its lemma) but an empty annotation elsewhere; no HEAD points to itself
    assert s2.texts == ("vá", "mos", "!", "_")
    assert [t.ws for t in s2] == [" ", "", " ", ""]
    assert s2[3] == Token("_", "_", "SYM", "", "", 3, "", "")
    assert s2[0].head == 0 and s2[1].head == 0 and s2[1].lemma == "nosotros"


@pytest.mark.parametrize(("body", "message"), [
    ("1\ta\ta\tX\t_\t_\t0\troot\t_\n", r"x\.conllu, line 2: a CoNLL-U word line has 10 "
                                      r"tab-separated fields, this one has 9"),
    ("2\ta\ta\tX\t_\t_\t0\troot\t_\t_\n", r"line 2: CoNLL-U word id 2 out of sequence"),
    ("one\ta\ta\tX\t_\t_\t0\troot\t_\t_\n", r"line 2: CoNLL-U word id must be an integer"),
    ("1\ta\ta\tX\t_\t_\t2\troot\t_\t_\n", r"line 2: CoNLL-U HEAD 2 outside the sentence of 1"),
    ("1\ta\ta\tX\t_\t_\tx\troot\t_\t_\n", r"line 2: CoNLL-U HEAD must be an integer"),
    ("3-2\ta\t_\t_\t_\t_\t_\t_\t_\t_\n", r"line 2: CoNLL-U token range '3-2' is empty"),
])
def test_malformed_lines_name_file_and_line(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path, "x.conllu", "# comment\n" + body)
    with pytest.raises(InputError, match=message):
        list(read_conllu(path))


def test_comment_only_sentence_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "c.conllu", "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n# only\n")
    with pytest.raises(InputError, match=r"c\.conllu, line 3: CoNLL-U sentence without words"):
        list(read_conllu(path))
    with pytest.raises(InputError, match="no such file"):
        list(read_conllu(tmp_path / "nope.conllu"))


# --- produced by UDPipe ------------------------------------------------------------------------

def need_udpipe() -> None:
    """Skip without ufal.udpipe, except in CI, which installs the [cs] extra."""
    peer("ufal.udpipe", "pip install 'errtype[cs]'")


def udpipe_model(name: str) -> Path:
    p = SHARED / "models" / name
    if not p.exists():
        pytest.skip(f"stand-in UDPipe model not available: {p}")
    return p


def udpipe_conllu(model_path: Path, text: str, tokenize: bool) -> str:
    import ufal.udpipe as udpipe

    model = udpipe.Model.load(str(model_path))
    # the stand-in models have a tokenizer and a tagger, no parser
    pipeline = udpipe.Pipeline(model, "tokenize" if tokenize else "horizontal",
                               udpipe.Pipeline.DEFAULT, udpipe.Pipeline.NONE, "conllu")
    error = udpipe.ProcessingError()
    out = pipeline.process(text, error)
    assert not error.occurred(), error.message
    return out


def uk_sentences(n: int) -> list[str]:
    blocks = read_m2(shared_path("multilingual", "uagec.dev.m2"))
    out = []
    for b in blocks:
        if b.tokens and not b.source.startswith("#"):
            out.append(b.source)
        if len(out) == n:
            break
    return out


def test_udpipe_output_reads_as_the_udpipe_backend_parses(tmp_path: Path) -> None:
    need_udpipe()
    from errtype.parse.udpipe import UDPipeParser

    model = udpipe_model("uk.udpipe")
    lines = uk_sentences(150)
    path = write(tmp_path, "uk.conllu", udpipe_conllu(model, "\n".join(lines) + "\n", False))
    read = [s for _, s in read_conllu(path)]
    parser = UDPipeParser(model)
    assert read == [parser.parse(line) for line in lines]
    assert any(t.feats for s in read for t in s) and any(t.lemma != t.text for s in read for t in s)


def test_udpipe_tokenizer_output_keeps_the_text(tmp_path: Path) -> None:
    need_udpipe()
    model = udpipe_model("uk.udpipe")
    raw = [" ".join(s.split()).replace(" ,", ",").replace(" .", ".") for s in uk_sentences(80)]
    text = udpipe_conllu(model, "\n\n".join(raw) + "\n", True)
    path = write(tmp_path, "tok.conllu", text)
    texts = [ln[len("# text = "):] for ln in text.splitlines() if ln.startswith("# text = ")]
    read = [s for _, s in read_conllu(path)]
    assert len(read) == len(texts) >= 80
    assert [s.span_text(0, len(s)) for s in read] == texts  # SpaceAfter=No honoured
    assert sum(t.ws == "" for s in read for t in s) > 50


def test_cli_conllu_equals_the_udpipe_path(tmp_path: Path, capsys: pytest.CaptureFixture
                                           ) -> None:
    """GECCC (Czech, real learner text): M2 from CoNLL-U made by cs.udpipe is byte-identical to
    errtype-m2 parsing the same text with --udpipe-model cs.udpipe."""
    need_udpipe()
    model = udpipe_model("cs.udpipe")
    origs, cors = [], []
    for block in read_m2(shared_path("geccc", "sentence.m2")):
        cor = apply_m2(block.tokens, [e for e in block.edits if e.annotator == 0])
        if block.tokens and cor:
            origs.append(" ".join(block.tokens))
            cors.append(" ".join(cor))
        if len(origs) == 150:
            break
    paths = {}
    for name, lines in (("orig", origs), ("cor", cors)):
        text = "\n".join(lines) + "\n"
        paths[name] = write(tmp_path, f"{name}.txt", text)
        paths[name + "_u"] = write(tmp_path, f"{name}.conllu", udpipe_conllu(model, text, False))
    via_text, via_conllu = tmp_path / "text.m2", tmp_path / "conllu.m2"
    assert cli.main(["-orig", str(paths["orig"]), "-cor", str(paths["cor"]), "-out",
                     str(via_text), "--lang", "cs", "--udpipe-model", str(model), "-q"]) == 0
    assert cli.main(["--conllu-orig", str(paths["orig_u"]), "--conllu-cor", str(paths["cor_u"]),
                     "-out", str(via_conllu), "--lang", "cs", "-q", "-j", "2",
                     "--batch-size", "32"]) == 0
    assert via_conllu.read_bytes() == via_text.read_bytes()
    assert via_text.read_text(encoding="utf-8").count("|||R:") > 50

    short = write(tmp_path, "short.conllu", "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n")
    out = tmp_path / "bad.m2"
    assert cli.main(["--conllu-orig", str(paths["orig_u"]), "--conllu-cor", str(short),
                     "-out", str(out), "--lang", "cs", "-q"]) == 2
    err = capsys.readouterr().err
    assert "different numbers of sentences" in err and "short.conllu: 1" in err
    assert not out.exists()


def test_cli_conllu_modes_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = write(tmp_path, "hand.conllu", HAND)
    cor = write(tmp_path, "cor.conllu", HAND.replace("\tškoly\t", "\tškola\t", 1))
    out = tmp_path / "out.m2"
    assert cli.main(["--conllu-orig", str(path), "--conllu-cor", str(cor), str(path),
                     "-out", str(out), "-q"]) == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")[:-1]
    assert blocks[0].startswith("S Nechci do školy .\nA 2 3|||")
    assert blocks[0].endswith("noop|||-NONE-|||REQUIRED|||-NONE-|||1")
    assert blocks[1] == ("S vá mos ! _\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                         "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1")
    with pytest.raises(SystemExit):
        cli.main(["--conllu-orig", str(path), "--conllu-cor", str(cor), "-tok", "-out", "x"])
    with pytest.raises(SystemExit):
        cli.main(["--conllu-orig", str(path), "-out", "x"])
    with pytest.raises(SystemExit):
        cli.main(["--conllu-orig", str(path), "--conllu-cor", str(cor), "-orig", "a",
                  "-cor", "b", "-out", "x"])
    bad = write(tmp_path, "bad.conllu", HAND.replace("4\t.\t.", "5\t.\t."))
    assert cli.main(["--conllu-orig", str(path), "--conllu-cor", str(bad), "-out",
                     str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert "bad.conllu, line 9: CoNLL-U word id 5 out of sequence (expected 4)" in err
    with pytest.raises(LineCountError):
        from errtype.parse.conllu import check_sentence_counts

        check_sentence_counts([path, write(tmp_path, "one.conllu", HAND.split("\n\n")[0])])
