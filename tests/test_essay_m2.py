"""errtype-m2 on MultiGEC Markdown essays (errtype.convert.essays): blocks per essay, ids, missing
essays, --unit sentence, --no-realign, -o X.md, --resume/--jobs, refused mixes; and on the shared
essay sets, the essay-level run against the sentence-by-sentence run."""

from __future__ import annotations

from pathlib import Path

import pytest

from errtype.cli import m2 as cli
from errtype.essay import read_multigec
from errtype.m2 import read_m2

from .conftest import SHARED, bench_module, peer, shared_path

ORIG = ("### essay_id = a\nThis are a test. He go home.\n\nSecond paragraf here.\n\n"
        "### essay_id = b\nI has a cat .\n\n")
REF1 = ("### essay_id = b\nI have a cat .\n\n"
        "### essay_id = a\nThis is a test, he goes home.\n\nSecond paragraph here.\n\n")
REF2 = "### essay_id = a\nThis is a test. He went home.\n\nSecond paragraph here.\n\n"


def write(tmp_path: Path, **files: str) -> dict[str, str]:
    out = {}
    for name, text in files.items():
        p = tmp_path / f"{name}.md"
        p.write_text(text, encoding="utf-8")
        out[name] = str(p)
    return out


def run(tmp_path: Path, *extra: str, out: str = "out.m2", cors: tuple[str, ...] = ("ref1", "ref2")
        ) -> str:
    f = write(tmp_path, orig=ORIG, ref1=REF1, ref2=REF2)
    path = tmp_path / out
    assert cli.main(["-orig", f["orig"], "-cor", *[f[c] for c in cors], "-o", str(path), "-q",
                     *extra]) == 0
    return path.read_text(encoding="utf-8")


def blocks(text: str) -> list[list[str]]:
    return [b.split("\n") for b in text.split("\n\n") if b.strip()]


def test_one_block_per_essay_in_orig_order_matched_by_id(tmp_path: Path) -> None:
    bs = blocks(run(tmp_path))
    assert [b[0] for b in bs] == ["S This are a test . He go home . Second paragraf here .",
                                  "S I has a cat ."]
    # ref1 lists essay b first: matched by id, not position
    assert "A 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0" in bs[1]
    assert "A 4 6|||R:PUNCT|||, he|||REQUIRED|||-NONE-|||0" in bs[0]  # a merge: one edit
    assert "A 10 11|||R:SPELL|||paragraph|||REQUIRED|||-NONE-|||1" in bs[0]  # essay offsets
    assert "A 6 7|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1" in bs[0]


def test_missing_essay_gives_the_annotator_no_line(tmp_path: Path) -> None:
    b = blocks(run(tmp_path))[1]  # ref2 lacks essay b
    assert all(line.endswith("|||0") for line in b[1:])
    # annotator ids stay the file's even when the first file lacks the essay
    b = blocks(run(tmp_path, cors=("ref2", "ref1")))[1]
    assert b[1:] == ["A 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||1"]


def test_unit_sentence(tmp_path: Path) -> None:
    bs = blocks(run(tmp_path, "--unit", "sentence"))
    # ref1 joins the first two sentences: one unit; the paragraph is another
    assert [b[0] for b in bs] == ["S This are a test . He go home .", "S Second paragraf here .",
                                  "S I has a cat ."]
    assert "A 1 2|||R:SPELL|||paragraph|||REQUIRED|||-NONE-|||1" in bs[1]


def test_no_realign_aligns_whole_essays(tmp_path: Path) -> None:
    text = run(tmp_path, "--no-realign")
    bs = blocks(text)
    assert len(bs) == 2 and bs[0][0].startswith("S This are a test")
    assert "A 10 11|||R:SPELL|||paragraph|||REQUIRED|||-NONE-|||0" in bs[0]


def test_markdown_output(tmp_path: Path) -> None:
    run(tmp_path, out="out.md")
    essays = read_multigec(tmp_path / "out.md")
    assert [(e.id, e.text) for e in essays] == [
        ("a", "This is a test , he goes home . Second paragraph here ."),
        ("b", "I have a cat .")]
    run(tmp_path, out="two.md", cors=("ref2", "ref1"))  # ref2 lacks essay b: left out again
    assert [e.id for e in read_multigec(tmp_path / "two.md")] == ["a"]
    f = write(tmp_path, orig=ORIG, ref1=REF1)
    assert cli.main(["-orig", f["orig"], "-cor", f["ref1"], "-o", str(tmp_path / "x.md"), "-q",
                     "--unit", "sentence"]) == 2
    assert not (tmp_path / "x.md").exists()


def test_resume_and_jobs_give_the_same_output(tmp_path: Path) -> None:
    plain = run(tmp_path)
    assert run(tmp_path, "--jobs", "2", out="j.m2") == plain
    assert run(tmp_path, "--resume", out="r.m2") == plain
    assert not Path(str(tmp_path / "r.m2") + ".partial").exists()


def test_id_not_in_orig_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture
                                            ) -> None:
    f = write(tmp_path, orig=ORIG, bad="### essay_id = a\nx\n\n### essay_id = zz\ny\n")
    assert cli.main(["-orig", f["orig"], "-cor", f["bad"], "-o", str(tmp_path / "o.m2")]) == 2
    err = capsys.readouterr().err
    assert f"{f['bad']}, line 4" in err and "'zz'" in err
    assert not (tmp_path / "o.m2").exists()


def test_mixed_formats_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    f = write(tmp_path, orig=ORIG, ref1=REF1)
    txt = tmp_path / "cor.txt"
    txt.write_text("I have a cat .\n", encoding="utf-8")
    for orig, cor in ((f["orig"], str(txt)), (str(txt), f["ref1"])):
        with pytest.raises(SystemExit) as exc:
            cli.main(["-orig", orig, "-cor", cor, "-o", str(tmp_path / "o.m2")])
        assert exc.value.code == 2
        assert "MultiGEC Markdown" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # --unit needs essays
        cli.main(["-orig", str(txt), "-cor", str(txt), "-o", str(tmp_path / "o.m2"),
                  "--unit", "sentence"])
    assert "--unit applies" in capsys.readouterr().err


# --------------------------------------------------------------------------- shared essay sets


def agreement(tmp_path: Path, lang: str, backend: list[str], essays: int) -> float:
    corpus = bench_module("essay_corpus")
    corpus.build(lang, tmp_path, max_essays=essays)
    s = tmp_path / "sentences"
    common = ["--lang", lang, *backend, "-q"]
    assert cli.main([*common, "-orig", str(s / "orig.txt"), "-cor", str(s / "ref1.txt"),
                     "-o", str(tmp_path / "sent.m2"), "-tok"]) == 0
    assert cli.main([*common, "-orig", str(tmp_path / "orig.md"), "-cor",
                     str(tmp_path / "ref1.md"), "-o", str(tmp_path / "essay.m2")]) == 0
    assert len(list(read_m2(tmp_path / "essay.m2"))) == len(read_multigec(tmp_path / "orig.md"))
    pairs = bench_module("bench_essays").pairs    # the bench's measure, as it prints it
    ref, got = pairs(tmp_path / "sent.m2"), pairs(tmp_path / "essay.m2")
    assert sum(ref.values()) > 200
    return sum((ref & got).values()) / sum(ref.values())


def udpipe_model(lang: str) -> str:
    peer("ufal.udpipe", "pip install 'errtype[cs]'")
    model = SHARED / "models" / f"{lang}.udpipe"
    if not model.exists():
        pytest.skip(f"stand-in UDPipe model not available: {model}")
    return str(model)


def test_ukrainian_essay_run_agrees_with_sentence_run(tmp_path: Path) -> None:
    shared_path("multilingual", "uagec.dev.m2")
    model = udpipe_model("uk")
    assert agreement(tmp_path, "uk", ["--udpipe-model", model], 20) >= 0.99


def test_czech_essay_run_agrees_with_sentence_run(tmp_path: Path) -> None:
    shared_path("geccc", "sentence.m2")
    model = udpipe_model("cs")
    assert agreement(tmp_path, "cs", ["--udpipe-model", model], 20) >= 0.99


# --------------------------------------------------------------------------- multi-sentence lines


def test_multi_sentence_lines_are_realigned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    from errtype.errant.commands import parallel_to_m2 as dropin
    from errtype.essay import pairs

    calls: list[int] = []
    real = pairs.realigned_edits

    def spy(*args: object, **kw: object) -> object:
        calls.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pairs, "realigned_edits", spy)
    o, c = tmp_path / "o.txt", tmp_path / "c.txt"
    o.write_text("This are a test . He go home .\nOne sentence here .\n", encoding="utf-8")
    c.write_text("This is a test , he goes home .\nOne sentence there .\n", encoding="utf-8")
    outs = {}
    for name, extra in (("re", []), ("whole", ["--no-realign"]), ("compat", ["--errant-compat"])):
        calls.clear()
        out = tmp_path / f"{name}.m2"
        assert cli.main(["-orig", str(o), "-cor", str(c), "-o", str(out), "-q", *extra]) == 0
        outs[name] = (len(calls), out.read_text(encoding="utf-8"))
    assert outs["re"][0] == 1  # only the line of two sentences
    assert outs["whole"][0] == outs["compat"][0] == 0
    bs = blocks(outs["re"][1])
    assert len(bs) == 2  # one block per line
    assert "A 4 6|||R:PUNCT|||, he|||REQUIRED|||-NONE-|||0" in bs[0]
    assert "A 6 7|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0" in bs[0]  # offsets over the line
    calls.clear()
    assert dropin.main(["-orig", str(o), "-cor", str(c), "-out", str(tmp_path / "d.m2"),
                        "-q"]) == 0
    assert calls == []  # the ERRANT drop-in aligns the line as one sequence
