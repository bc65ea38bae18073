"""The public API: annotate, load, Annotator methods, streaming, Edit."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import errtype
from errtype.edit import Edit, apply_edits, minimise
from errtype.tokens import Sentence


@pytest.fixture(scope="module")
def en() -> errtype.Annotator:
    return errtype.load("en")


def test_annotate_one_call() -> None:
    edits = errtype.annotate("This are gramamtical sentence .", "This is a grammatical sentence .")
    assert [(e.o_start, e.o_end, e.c_str, e.type) for e in edits] == [
        (1, 2, "is", "R:VERB:SVA"), (2, 2, "a", "M:DET"), (2, 3, "grammatical", "R:SPELL")]
    assert edits[0].to_m2() == "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"
    assert edits[1].to_m2(3).endswith("|||3")


def test_edit_is_immutable_and_printable() -> None:
    e = Edit(0, 1, 0, 2, "Cat", "The cat", "M:DET")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.type = "X"  # type: ignore[misc]
    assert str(e) == "Orig: [0, 1, 'Cat'], Cor: [0, 2, 'The cat'], Type: 'M:DET'"
    assert e.with_type("R:DET").type == "R:DET" and e.type == "M:DET"


def test_pipeline_steps(en: errtype.Annotator) -> None:
    orig, cor = en.parse("She go home ."), en.parse("She goes home .")
    assert isinstance(orig, Sentence) and orig.texts == ("She", "go", "home", ".")
    al = en.align(orig, cor)
    assert [a.op for a in al.align_seq] == ["M", "S", "M", "M"]
    assert al.cost == al.cost_matrix[-1][-1] > 0
    untyped = en.merge(al)
    assert [e.type for e in untyped] == ["NA"]
    assert en.classify(untyped[0], orig, cor).type == "R:VERB:SVA"
    with pytest.raises(ValueError, match="unknown merging strategy"):
        en.annotate(orig, cor, merging="nope")


def test_tokenize_option(en: errtype.Annotator) -> None:
    assert en.parse("I don't know.", tokenize=True).texts == ("I", "do", "n't", "know", ".")
    assert en.parse("I don't know.").texts == ("I", "don't", "know.")


def test_import_edit_minimises_and_types(en: errtype.Annotator) -> None:
    orig, cor = en.parse("This are a great sentences ."), en.parse("This are a great sentence .")
    e = en.import_edit(orig, cor, [3, 5, 3, 5])
    assert (e.o_start, e.o_end, e.c_str, e.type) == (4, 5, "sentence", "R:NOUN:NUM")
    raw = en.import_edit(orig, cor, [3, 5, 3, 5, "Nn"], min=False, old_cat=True)
    assert (raw.o_start, raw.o_end, raw.type) == (3, 5, "Nn")
    with pytest.raises(ValueError, match="edit not of the form"):
        en.import_edit(orig, cor, [1, 2, 3])


def test_minimise_and_apply() -> None:
    o = Sentence.from_words("a b c d".split())
    c = Sentence.from_words("a x c d".split())
    e = minimise(Edit.from_spans(o, c, 0, 4, 0, 4), o, c)
    assert e.span == (1, 2, 1, 2) and e.o_str == "b" and e.c_str == "x"
    assert apply_edits(o.texts, [e]) == list(c.texts)


def test_stream_yields_one_result_per_item_in_order(en: errtype.Annotator) -> None:
    items = [("He go .", ["He goes .", "He went ."]), ("Fine .", "Fine ."), ("", "New .")]
    results = list(en.annotate_stream(iter(items), batch_size=2))
    assert len(results) == 3
    assert [len(r.edits) for r in results] == [2, 1, 1]
    assert results[0].edits[0][0].type == "R:VERB:SVA"
    assert results[1].noop == [True] and results[1].edits == [[]]
    assert results[2].orig.texts == () and results[2].edits[0][0].type.startswith("M:")


def test_stream_is_lazy(en: errtype.Annotator) -> None:
    consumed = 0

    def gen():  # noqa: ANN202
        nonlocal consumed
        for _ in range(10_000):
            consumed += 1
            yield ("a b .", "a c .")

    stream = en.annotate_stream(gen(), batch_size=8)
    next(stream)
    assert consumed <= 9  # only the first batch was pulled


def test_unknown_language() -> None:
    with pytest.raises(errtype.UnknownLanguageError, match="unknown language 'xx'"):
        errtype.load("xx")


def test_custom_nlp_is_used() -> None:
    import spacy

    nlp = spacy.blank("en")
    ann = errtype.load("en", nlp=nlp)
    edits = ann.annotate("a b", "a c")  # no tagger: empty tags fall back without KeyError
    assert len(edits) == 1 and edits[0].span == (1, 2, 1, 2)
    assert edits[0].type.startswith("R:")


def test_installed_package_has_resources(tmp_path: Path) -> None:
    """When errtype is installed (not only importable from the source tree), its resources are."""
    code = ("import errtype, errtype.data as d; p = d.resource_path('en_GB-large.txt'); "
            "print(errtype.__file__); print(p)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True)
    if proc.returncode != 0 and "No module named 'errtype'" in proc.stderr:
        pytest.skip("errtype is not installed in this interpreter (source-tree run)")
    assert proc.returncode == 0, proc.stderr
    module_file, resource = proc.stdout.split()
    assert Path(resource).stat().st_size == 1_839_291
